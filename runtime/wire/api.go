package wire

// This file states the types of the package. Their methods live in
// decode.go, trial.go and validation.go.

// JSONKind is the kind of the next JSON value in a Decoder.
type JSONKind uint8

// The kinds of JSON values.
const (
	KindInvalid JSONKind = iota
	KindNull
	KindBool
	KindNumber
	KindString
	KindArray
	KindObject
)

// Decoder reads one JSON document without reflection. The zero value is
// ready after Reset. Generated decoders walk it value by value:
//
//	if err := d.BeginObject(); err != nil { ... }
//	for {
//		key, ok, err := d.NextKey()
//		if err != nil { return err }
//		if !ok { break }
//		switch string(key) { case "order_id": ... default: d.Skip() }
//	}
//
// Errors returned by Decoder methods are syntax errors (*SyntaxError) and
// end decoding, except ErrNotInteger and ErrOutOfRange from ReadInt and
// ReadFloat, after which decoding goes on. A value of the wrong kind is
// reported by the caller after Peek, followed by Skip. Nesting deeper than
// MaxDepth is a syntax error.
type Decoder struct {
	data []byte
	pos  int
	// depth guards against stack exhaustion on deeply nested input.
	depth int
	// first is set just after '{' or '[': no comma may precede the next
	// member. The next NextKey/NextElem or closing bracket clears it, so
	// one flag serves every level of nesting.
	first bool
	// scratch holds unescaped keys and strings returned as byte slices.
	scratch []byte
	// strs is the block ReadString copies strings into; the bytes up to
	// its length belong to strings already returned (see ReadString).
	strs []byte
	// trialWork counts the bytes re-read by trial decoders forked from
	// this one (oneOf variants without a discriminator), and trialLimit
	// bounds it (see Fork): nested unions could otherwise re-read the
	// input an exponential number of times.
	trialWork, trialLimit int
	// trialDepth is the nesting depth in the document of the value a trial
	// decoder re-reads: errors found deep down cost their pointer's length.
	trialDepth int
}

// Path is one step of a JSON pointer, linked to its parent. Generated code
// keeps Paths on the stack and only turns them into strings when reporting
// an error, so a valid input costs no allocation. The zero Path (and a nil
// *Path) is the root of the value.
type Path struct {
	Parent *Path
	Key    string
	Index  int
	// IsIndex says the step is an array index, not a property name.
	IsIndex bool
}

// FieldError is one violation at a JSON pointer into the validated value.
type FieldError struct {
	Pointer string `json:"pointer"`
	Message string `json:"message"`
}

// ValidationError lists every violation found in one value.
type ValidationError struct {
	Errors []FieldError
	// Omitted counts violations beyond MaxErrors that are not listed.
	Omitted int
}

// Errors collects FieldErrors during decoding and validation.
type Errors struct {
	list []FieldError
	// dropped counts violations beyond MaxErrors.
	dropped int
	// ptrs holds the bytes of the pointers in list, one after the other:
	// each FieldError.Pointer is a view into it, so a violation costs no
	// allocation of its own. Bytes once written are never rewritten; when
	// ptrs grows, earlier pointers keep referring to the old array.
	ptrs []byte
	// ve is the error Err returns, allocated with list and ptrs in one
	// block when the violations outgrow the inline room below.
	ve *ValidationError
	// The first few violations are kept here, in the Errors itself
	// (usually on the caller's stack), until Err allocates what they need
	// or more violations spill them into list: n of them, the i-th with
	// message msgs[i] and pointer buf[ends[i-1]:ends[i]].
	n    uint8
	ends [inlineErrors]uint8
	msgs [inlineErrors]string
	buf  [inlineBytes]byte
}

// The inline room of an Errors: violations, and bytes of their pointers.
const (
	inlineErrors = 3
	inlineBytes  = 48
)
