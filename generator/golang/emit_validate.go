package golang

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math"
	"strconv"
	"strings"

	. "github.com/dave/jennifer/jen"

	"github.com/mcpgen-dev/mcpgen/spec"
)

var (
	dParam = func() Code { return Id("d").Op("*").Add(wire("Decoder")) }
	pParam = func() Code { return Id("p").Op("*").Add(wire("Path")) }
	eParam = func() Code { return Id("e").Op("*").Add(wire("Errors")) }
)

func returnIfErr(call Code) Code {
	return If(Err().Op(":=").Add(call), Err().Op("!=").Nil()).Block(Return(Err()))
}

func addErr(path Code, msg Code) Code { return Id("e").Dot("Add").Call(path, msg) }

// validateEmitter emits the validate file. The read helpers and the
// violation messages its functions need are found while it builds them,
// so they are its own state: the other files are emitted from the same
// Model at the same time, and the Model is read-only once lowered.
type validateEmitter struct {
	*Model
	// helpers are the read helpers the decoders use, by name.
	helpers map[string]bool
	// messages are the violation messages with arguments, built once in
	// package variables (see message), in the order they were first
	// needed; messageByKey finds one by its call's source (callKey) and
	// messageNames holds the names taken.
	messages     []message
	messageByKey map[string]string
	messageNames map[string]bool
	// eval tracks the implied properties evaluated while the checks of
	// an object with unevaluatedProperties are emitted (emit_unevaluated.go).
	eval *evalTrack
}

// ValidateFile emits mcpgen_validate_gen.go: decodeX and validateX for
// every unit, the compiled patterns, the violation messages and the read
// helpers the spec needs.
func (m *Model) ValidateFile(f *File) {
	v := &validateEmitter{Model: m, helpers: map[string]bool{}, messageByKey: map[string]string{}, messageNames: map[string]bool{}}
	v.file(f)
}

func (m *validateEmitter) file(f *File) {
	// The patterns and messages are declared first, but only the bodies
	// decide which are needed: the bodies are built first.
	var funcs []Code
	used := m.validatorsUsed()
	for _, n := range m.nodes {
		if !n.unit() {
			continue
		}
		funcs = append(funcs, Comment(lcf("decode%s decodes the next JSON value of d into v. Values of the wrong\ntype, missing required and unknown properties go to e, and so does\nevery constraint violated by a value that decoded without one of\nthose; only syntax errors are returned.", n.name)),
			Func().Id("decode"+n.name).Params(dParam(), pParam(), Id("v").Op("*").Add(goType(n)), eParam()).Error().Block(m.decodeBody(n)...))
		if used[n] {
			funcs = append(funcs, Comment(lcf("validate%s reports every constraint of the spec that v violates to e.", n.name)),
				Func().Id("validate"+n.name).Params(pParam(), Id("v").Op("*").Add(goType(n)), eParam()).Block(m.validateBody(n)...))
		}
	}
	if len(m.patterns) > 0 {
		var defs []Code
		for _, p := range m.patterns {
			defs = append(defs, Id(p.name).Op("=").Add(wire("MustCompilePattern")).Call(Lit(p.expr)))
		}
		f.Comment(lc("Patterns of the spec, compiled once. They are never modified."))
		f.Var().Defs(defs...)
	}
	if len(m.messages) > 0 {
		var defs []Code
		for _, msg := range m.messages {
			defs = append(defs, Id(msg.name).Op("=").Add(msg.call))
		}
		f.Comment(lc("Violation messages of the spec, built once so that reporting one costs\nno allocation. They are never modified."))
		f.Var().Defs(defs...)
	}
	for _, c := range funcs {
		f.Add(c) // one declaration (or doc comment) each
	}
	m.helperFuncs(f)
}

// message is a violation message built by a wire.Msg* call with
// constant arguments, kept in the package variable name.
type message struct {
	name string
	call *Statement
}

// message returns the package variable holding the result of call (a
// wire.Msg* call with constant arguments), declaring it on first use as
// name, or name2, name3, … when name holds another message. key is the
// call as Go source (callKey): equal calls share one variable.
func (m *validateEmitter) message(name, key string, call *Statement) Code {
	if existing, ok := m.messageByKey[key]; ok {
		return Id(existing)
	}
	base := name
	for i := 2; m.messageNames[name]; i++ {
		name = base + strconv.Itoa(i)
	}
	m.messages = append(m.messages, message{name: name, call: call})
	m.messageByKey[key] = name
	m.messageNames[name] = true
	return Id(name)
}

// listName is the name of the message variable for a list of values
// (enum values, discriminator values): base, "_" and the values joined by
// "_" when they are all words of ASCII letters and digits and the name
// stays short (msgEnum_PENDING_SHIPPED), otherwise base, "H" and a hash of
// key, the message's wire.Msg* call as Go source (callKey). The name
// depends only on the values, never on the order the spec declares its
// types in, and two different lists get different names. words is nil
// when a value is not a string.
func listName(base string, words []string, key string) string {
	name := base
	readable := words != nil
	for _, w := range words {
		if w == "" || strings.IndexFunc(w, func(r rune) bool {
			return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
		}) >= 0 {
			readable = false
			break
		}
		name += "_" + w
	}
	if readable && len(name) <= 48 {
		return name
	}
	h := fnv.New32a()
	h.Write([]byte(key))
	return base + "H" + strconv.FormatUint(uint64(h.Sum32()), 16)
}

// jsonWords is the strings of texts when every one is a JSON string, nil
// otherwise.
func jsonWords(texts []json.RawMessage) []string {
	var words []string
	for _, t := range texts {
		var w string
		if json.Unmarshal(t, &w) != nil {
			return nil
		}
		words = append(words, w)
	}
	return words
}

// countMessage is the message of fn (MsgMinLength, MsgMaxItems, …) for the
// bound n.
func (m *validateEmitter) countMessage(fn string, n int64) Code {
	return m.message("msg"+strings.TrimPrefix(fn, "Msg")+strconv.FormatInt(n, 10), callKey(fn, strconv.FormatInt(n, 10)), wire(fn).Call(Lit(int(n))))
}

// callKey is the Go source of the call wire.fn(args...), each argument
// already in Go syntax: the identity of a message, without rendering its
// tree.
func callKey(fn string, args ...string) string {
	return "wire." + fn + "(" + strings.Join(args, ", ") + ")"
}

// stringsKey is the Go source of a []string literal of values.
func stringsKey(values []string) string {
	quoted := make([]string, len(values))
	for i, v := range values {
		quoted[i] = strconv.Quote(v)
	}
	return "[]string{" + strings.Join(quoted, ", ") + "}"
}

// floatKey is the Go source jennifer writes for the float64 literal x.
func floatKey(x float64) string {
	out := fmt.Sprintf("%#v", x)
	if !strings.ContainsAny(out, ".e") {
		out += ".0"
	}
	return out
}

// numberMessage is the message of fn (MsgMinimum, MsgMultipleOf, …) for
// the bound x; the variable's name spells x when it is short, and hashes
// it otherwise.
func (m *validateEmitter) numberMessage(fn string, x float64) Code {
	call := wire(fn).Call(Lit(x))
	key := callKey(fn, floatKey(x))
	name := "msg" + strings.TrimPrefix(fn, "Msg")
	if t := strconv.FormatFloat(x, 'f', -1, 64); len(t) <= 12 {
		name += strings.NewReplacer("-", "Minus", ".", "_").Replace(t)
	} else {
		name = listName(name, nil, key)
	}
	return m.message(name, key, call)
}

// nullTest is the condition that the next value is null: isNull when
// that is known already, else a peek.
func nullTest(isNull Code) Code {
	if isNull != nil {
		return isNull
	}
	return Id("d").Dot("Peek").Call().Op("==").Add(wire("KindNull"))
}

func kindCheck(want string, jsonKind string) Code {
	return If(Id("k").Op(":=").Id("d").Dot("Peek").Call(), Id("k").Op("!=").Add(wire(jsonKind))).Block(
		addErr(Id("p"), wire("MsgType").Call(Lit(want), Id("k"))),
		Return(Id("d").Dot("Skip").Call()),
	)
}

func (m *validateEmitter) decodeBody(n *node) []Code {
	switch n.kind {
	case kString, kInt, kFloat, kBool:
		h := m.readHelper(n.kind)
		read := Id(h).Call(Id("d"), Id("p"), Parens(Op("*").Add(baseType(n))).Call(Id("v")), Id("e"))
		checks := m.validateBody(n)
		if len(checks) == 0 {
			return []Code{Return(read)}
		}
		return []Code{
			Id("n0").Op(":=").Id("e").Dot("Len").Call(),
			returnIfErr(read),
			If(Id("e").Dot("Len").Call().Op("==").Id("n0")).Block(checks...),
			Return(Nil()),
		}
	case kSlice:
		s := n.schema
		// The count is known once the array is read; uniqueness is judged
		// only when every item decoded to its real value (a value of the
		// wrong type is left zero and could look like a duplicate).
		done := m.bounds(Len(Op("*").Id("v")), s.MinItems, maxItems(s), "MsgMinItems", "MsgMaxItems")
		done = append(done, m.containsChecks(n)...)
		done = append(done, m.applicatorChecks(s, n, kSlice, nil, Id("p"))...)
		done = append(done, m.structuredValueChecks(n)...)
		var pre []Code
		var dirty Code
		if s.UniqueItems {
			pre = []Code{Id("clean").Op(":=").True()}
			dirty = Id("clean").Op("=").False()
			done = append(done, If(Id("clean")).Block(m.uniqueItems(n)...))
		}
		return append(append([]Code{
			kindCheck("array", "KindArray"),
			returnIfErr(Id("d").Dot("BeginArray").Call()),
			Op("*").Id("v").Op("=").Add(goType(n)).Values(),
		}, pre...),
			For(Id("i").Op(":=").Lit(0), Empty(), Id("i").Op("++")).Block(append([]Code{
				List(Id("ok"), Err()).Op(":=").Id("d").Dot("NextElem").Call(),
				If(Err().Op("!=").Nil()).Block(Return(Err())),
				If(Op("!").Id("ok")).Block(append(done, Return(Nil()))...),
				Var().Id("x").Add(slotType(n.elem)),
				Id("c").Op(":=").Id("p").Dot("Elem").Call(Id("i")),
			}, append(m.decodeSlot(n.elem, Id("x"), Op("&").Id("c"), dirty),
				Op("*").Id("v").Op("=").Append(Op("*").Id("v"), Id("x")))...)...),
		)
	case kMap:
		s := n.schema
		done := m.bounds(Len(Op("*").Id("v")), s.MinProperties, s.MaxProperties, "MsgMinProperties", "MsgMaxProperties")
		done = append(done, m.mapCollectionChecks(n)...)
		done = append(done, m.structuredValueChecks(n)...)
		return []Code{
			kindCheck("object", "KindObject"),
			returnIfErr(Id("d").Dot("BeginObject").Call()),
			Op("*").Id("v").Op("=").Add(goType(n)).Values(),
			For().Block(append([]Code{
				List(Id("key"), Id("ok"), Err()).Op(":=").Id("d").Dot("NextKey").Call(),
				If(Err().Op("!=").Nil()).Block(Return(Err())),
				If(Op("!").Id("ok")).Block(append(done, Return(Nil()))...),
				Id("name").Op(":=").String().Call(Id("key")),
				Var().Id("x").Add(slotType(n.elem)),
				Id("c").Op(":=").Id("p").Dot("Child").Call(Id("name")),
			}, append(m.decodeSlot(n.elem, Id("x"), Op("&").Id("c"), nil),
				Parens(Op("*").Id("v")).Index(Id("name")).Op("=").Id("x"))...)...),
		}
	case kStruct:
		return m.decodeStruct(n)
	case kTuple:
		return m.decodeTuple(n)
	case kOneOf:
		return m.decodeUnion(n)
	}
	read := Id(m.rawReader(n.schema)).Call(Id("d"), Id("p"), Id("v"), Id("e"))
	if n.schema.Type == spec.KindNull {
		return []Code{Return(read)} // readNull checks const and enum null alike
	}
	// A named value of any type: its const, enum and applicators.
	checks := m.scalarChecks(n.schema, kRaw, Op("*").Id("v"), Id("p"))
	if len(checks) == 0 {
		return []Code{Return(read)}
	}
	return []Code{
		Id("n0").Op(":=").Id("e").Dot("Len").Call(),
		returnIfErr(read),
		If(Id("e").Dot("Len").Call().Op("==").Id("n0")).Block(checks...),
		Return(Nil()),
	}
}

// rawReader is the read helper of a json.RawMessage value of schema s:
// readNull for {type: null}, which must be checked although it has no Go
// type of its own, readRaw for any value.
func (m *validateEmitter) rawReader(s *spec.Schema) string {
	if s != nil && s.Type == spec.KindNull {
		m.helpers["readNull"] = true
		return "readNull"
	}
	return m.readHelper(kRaw)
}

func (m *validateEmitter) readHelper(k kind) string {
	name := map[kind]string{kString: "readString", kInt: "readInt", kFloat: "readFloat", kBool: "readBool", kRaw: "readRaw"}[k]
	m.helpers[name] = true
	return name
}

// decodeSlot decodes the next value into target (of the slot's type),
// with path the *wire.Path of the value. A value without functions of
// its own (a constrained scalar) is checked right after it is read, when
// reading it found no violation; declared types check themselves in their
// decode function. dirty, when not nil, runs when the value had a
// violation of its type (or, for declared types, any violation).
func (m *validateEmitter) decodeSlot(s *slot, target *Statement, path Code, dirty Code) []Code {
	return m.decodeSlotNull(s, target, path, dirty, nil)
}

// decodeSlotNull is decodeSlot where isNull, when not nil, says whether
// the value is null, already known (a property's null flag, set from the
// same peek): a nullable slot tests it instead of peeking again.
func (m *validateEmitter) decodeSlotNull(s *slot, target *Statement, path, dirty, isNull Code) []Code {
	r := s.node.real()
	if !r.unit() && r.convertible() {
		return m.decodeConverted(s, r, target, path, dirty, isNull)
	}
	call := func(ptr Code) Code {
		fn := "decode" + r.name
		switch {
		case !r.unit() && r.kind == kRaw:
			fn = m.rawReader(r.schema)
		case !r.unit():
			fn = m.readHelper(r.kind)
		}
		return returnIfErr(Id(fn).Call(Id("d"), path, ptr, Id("e")))
	}
	val := target
	var rest []Code
	if s.ptr {
		val = Op("*").Add(target)
		rest = []Code{Add(target).Op("=").New(goType(s.node)), call(target)}
	} else {
		rest = []Code{call(Op("&").Add(target))}
	}
	var checks []Code
	if !r.unit() {
		schema := r.schema
		if r.parsesDateTime {
			// The parse below is the format check.
			plain := *schema
			plain.Format = ""
			schema = &plain
		}
		checks = m.scalarChecks(schema, r.kind, val, path)
		if r.parsesDateTime {
			checks = append(checks, m.dateTimeCheck(val, path)...)
		}
	}
	switch {
	case len(checks) > 0 && dirty != nil:
		rest = append([]Code{Id("n0").Op(":=").Id("e").Dot("Len").Call()}, append(rest,
			If(Id("e").Dot("Len").Call().Op("==").Id("n0")).Block(checks...).Else().Block(dirty))...)
	case len(checks) > 0:
		rest = append([]Code{Id("n0").Op(":=").Id("e").Dot("Len").Call()}, append(rest,
			If(Id("e").Dot("Len").Call().Op("==").Id("n0")).Block(checks...))...)
	case dirty != nil:
		rest = append([]Code{Id("n0").Op(":=").Id("e").Dot("Len").Call()}, append(rest,
			If(Id("e").Dot("Len").Call().Op("!=").Id("n0")).Block(dirty))...)
	}
	if s.nullable && r.kind != kRaw {
		return []Code{If(nullTest(isNull)).Block(
			returnIfErr(Id("d").Dot("ReadNull").Call()),
			Add(target).Op("=").Nil(),
		).Else().Block(rest...)}
	}
	return rest
}

func (m *validateEmitter) decodeStruct(n *node) []Code {
	out := []Code{
		kindCheck("object", "KindObject"),
		returnIfErr(Id("d").Dot("BeginObject").Call()),
		Op("*").Id("v").Op("=").Add(goType(n)).Values(),
	}
	var seen []Code
	for _, f := range n.fields {
		if f.required || f.def != nil {
			seen = append(seen, Id("seen"+f.ident()))
		}
	}
	if len(seen) > 0 {
		out = append(out, Var().List(seen...).Bool())
	}
	var cases []Code
	for _, f := range n.fields {
		body := []Code{}
		if f.required || f.def != nil {
			body = append(body, Id("seen"+f.ident()).Op("=").True())
		}
		body = append(body, Id("c").Op(":=").Id("p").Dot("Child").Call(Lit(f.jsonName)))
		var isNull Code
		if f.nullFlag != "" {
			body = append(body, Id("v").Dot(f.nullFlag).Op("=").Add(nullTest(nil)))
			isNull = Id("v").Dot(f.nullFlag)
		}
		body = append(body, m.decodeSlotNull(&f.slot, Id("v").Dot(f.goName), Op("&").Id("c"), nil, isNull)...)
		cases = append(cases, Case(Lit(f.jsonName)).Block(body...))
	}
	// unknown counts the members no property, pattern or
	// additionalProperties admits, for minProperties and maxProperties.
	unknown := n.extra && !n.schema.AllowAdditional && countsProperties(n)
	if unknown {
		out = append(out, Id("unknown").Op(":=").Lit(0))
	}
	if n.extra {
		ap := Id("v").Dot("AdditionalProperties")
		var head []Code
		if !n.schema.AllowAdditional {
			head = append(head, Id("name").Op(":=").String().Call(Id("key")))
			// Only the members a pattern names are kept.
			reject := []Code{
				Id("c").Op(":=").Id("p").Dot("Child").Call(Id("name")),
				addErr(Op("&").Id("c"), wire("MsgUnknownProperty")),
				returnIfErr(Id("d").Dot("Skip").Call()),
			}
			if unknown {
				reject = append(reject, Id("unknown").Op("++"))
			}
			head = append(head, If(Op("!").Parens(m.matchesPattern(n.schema, Id("name")))).Block(append(reject, Continue())...))
		}
		decode := m.decodeSlot(n.elem, Id("x"), Op("&").Id("c"), nil)
		if checks := m.memberChecks(n, Id("name")); len(checks) > 0 {
			// Checked only when it decoded, as a property is.
			decode = append(append([]Code{Id("n0").Op(":=").Id("e").Dot("Len").Call()}, decode...),
				If(Id("e").Dot("Len").Call().Op("==").Id("n0")).Block(checks...))
		}
		head = append(head, If(Add(ap).Op("==").Nil()).Block(Add(ap).Op("=").Map(String()).Add(slotType(n.elem)).Values()))
		if n.schema.AllowAdditional {
			head = append(head, Id("name").Op(":=").String().Call(Id("key")))
		}
		cases = append(cases, Default().Block(append(append(head,
			Var().Id("x").Add(slotType(n.elem)),
			Id("c").Op(":=").Id("p").Dot("Child").Call(Id("name")),
		), append(decode, Add(ap).Index(Id("name")).Op("=").Id("x"))...)...))
	} else {
		body := []Code{
			Id("c").Op(":=").Id("p").Dot("Child").Call(String().Call(Id("key"))),
			addErr(Op("&").Id("c"), wire("MsgUnknownProperty")),
			returnIfErr(Id("d").Dot("Skip").Call()),
		}
		if countsProperties(n) {
			// minProperties and maxProperties count every property of the
			// input, unknown ones included, as JSON Schema does: an object
			// of one unknown property is not also "too few properties".
			out = append(out, Id("unknown").Op(":=").Lit(0))
			body = append(body, Id("unknown").Op("++"))
		}
		cases = append(cases, Default().Block(body...))
	}
	out = append(out, For().Block(
		List(Id("key"), Id("ok"), Err()).Op(":=").Id("d").Dot("NextKey").Call(),
		If(Err().Op("!=").Nil()).Block(Return(Err())),
		If(Op("!").Id("ok")).Block(Break()),
		Switch(String().Call(Id("key"))).Block(cases...),
	))
	for _, f := range n.fields {
		switch {
		case f.required:
			out = append(out, If(Op("!").Id("seen"+f.ident())).Block(
				Id("c").Op(":=").Id("p").Dot("Child").Call(Lit(f.jsonName)),
				addErr(Op("&").Id("c"), wire("MsgRequired")),
			))
		case f.def != nil:
			out = append(out, If(Op("!").Id("seen"+f.ident())).Block(m.setDefault(f)...))
		}
	}
	if n.extra && !unknown {
		out = append(out, m.propertyCount(n, nil)...)
	} else {
		out = append(out, m.propertyCount(n, Id("unknown"))...)
	}
	out = append(out, m.structApplicatorChecks(n)...)
	out = append(out, m.structuredValueChecks(n)...)
	return append(out, Return(Nil()))
}

// setDefault sets a field to its default: scalars from a Go literal,
// anything else decoded from the default's JSON.
func (m *validateEmitter) setDefault(f *field) []Code {
	r := f.node.real()
	fv := Id("v").Dot(f.goName)
	if r.kind <= kBool && !r.isTime() && !r.isDate() && !r.isBytes() {
		lit := jsonLit(f.def, r.kind)
		if f.node.hasTypeName() {
			lit = Id(f.node.name).Call(lit)
		} else if r.convertible() {
			lit = goExpr(r.goT).Call(lit)
		}
		if f.ptr {
			// x's type must be the field's: an untyped 1 would be an int.
			switch {
			case f.node.hasTypeName() || r.convertible():
			case r.kind == kInt:
				lit = Int64().Call(lit)
			case r.kind == kFloat:
				lit = Float64().Call(lit)
			}
			return []Code{Id("x").Op(":=").Add(lit), Add(fv).Op("=").Op("&").Id("x")}
		}
		return []Code{Add(fv).Op("=").Add(lit)}
	}
	return append([]Code{
		Var().Id("dd").Add(wire("Decoder")),
		Id("dd").Dot("Reset").Call(Index().Byte().Call(Lit(string(f.def)))),
		Id("c").Op(":=").Id("p").Dot("Child").Call(Lit(f.jsonName)),
		Id("d").Op(":=").Op("&").Id("dd"),
	}, m.decodeSlot(&slot{node: f.node, ptr: f.ptr}, fv, Op("&").Id("c"), nil)...)
}

// jsonKindOf is the wire.JSONKind constant of the only JSON kind a
// oneOf variant's value can have, or "" when it can have several (a union,
// any value) or its Go type is the user's.
func jsonKindOf(n *node) string {
	r := n.real()
	if r.ext != "" || r.goT != "" || r.schema == nil || r.schema.Nullable {
		return ""
	}
	switch r.kind {
	case kString:
		return "KindString"
	case kInt, kFloat:
		return "KindNumber"
	case kBool:
		return "KindBool"
	case kSlice, kTuple:
		return "KindArray"
	case kMap, kStruct:
		return "KindObject"
	}
	return ""
}

// checkValue validates a value of node n given as pointer and as value,
// at path. It returns nothing when n has no constraint.
func (m *validateEmitter) checkValue(n *node, ptr, val *Statement, path Code) []Code {
	r := n.real()
	if r.unit() {
		if !r.validates {
			return nil
		}
		return []Code{Id("validate"+r.name).Call(path, ptr, Id("e"))}
	}
	if r.isTime() {
		return nil // a time.Time is always a valid date-time
	}
	return m.scalarChecks(r.schema, r.kind, r.canonical(val), path)
}

// checkSlot validates the value x held in slot s, skipping nil pointers,
// and absent (nil) slices and maps when optional. decl declares the path
// variable c.
func (m *validateEmitter) checkSlot(s *slot, x *Statement, decl Code, optional, loop bool) []Code {
	if !s.checks() {
		return nil
	}
	if s.ptr {
		return []Code{If(Add(x).Op("!=").Nil()).Block(append([]Code{decl}, m.checkValue(s.node, x, Op("*").Add(x), Op("&").Id("c"))...)...)}
	}
	inner := append([]Code{decl}, m.checkValue(s.node, Op("&").Add(x), x, Op("&").Id("c"))...)
	if r := s.node.real(); optional && !r.unit() && r.goT != "" {
		// An omitempty scalar of a code-first type is absent when zero.
		return []Code{If(present(&field{slot: *s}, x)).Block(inner...)}
	}
	k := s.node.real().kind
	if (optional || s.nullable) && (k == kSlice || k == kMap || k == kRaw) || k == kOneOf && !loop {
		// A nil union field is absent, null, or reported as required.
		return []Code{If(Add(x).Op("!=").Nil()).Block(inner...)}
	}
	if loop {
		return inner
	}
	return []Code{Block(inner...)}
}

func (m *validateEmitter) validateBody(n *node) []Code {
	s := n.schema
	v := Op("*").Id("v")
	switch n.kind {
	case kString:
		return m.scalarChecks(s, n.kind, String().Call(v), Id("p"))
	case kInt:
		return m.scalarChecks(s, n.kind, Int64().Call(v), Id("p"))
	case kFloat:
		return m.scalarChecks(s, n.kind, Float64().Call(v), Id("p"))
	case kBool:
		return m.scalarChecks(s, n.kind, Bool().Call(v), Id("p"))
	case kRaw:
		// A named value of any type, or of a list of types: its kind,
		// const, enum and applicators, on the JSON it holds.
		if s.Type == spec.KindNull {
			return nil
		}
		return m.scalarChecks(s, kRaw, v, Id("p"))
	case kSlice:
		var out []Code
		out = append(out, m.bounds(Len(Op("*").Id("v")), s.MinItems, maxItems(s), "MsgMinItems", "MsgMaxItems")...)
		if s.UniqueItems {
			out = append(out, m.uniqueItems(n)...)
		}
		if n.elem.checks() {
			out = append(out, For(Id("i").Op(":=").Range().Op("*").Id("v")).Block(
				m.checkSlot(n.elem, Parens(Op("*").Id("v")).Index(Id("i")), Id("c").Op(":=").Id("p").Dot("Elem").Call(Id("i")), false, true)...))
		}
		out = append(out, m.containsChecks(n)...)
		out = append(out, m.applicatorChecks(s, n, kSlice, nil, Id("p"))...)
		return append(out, m.structuredValueChecks(n)...)
	case kMap:
		out := m.bounds(Len(Op("*").Id("v")), s.MinProperties, s.MaxProperties, "MsgMinProperties", "MsgMaxProperties")
		if n.elem.checks() {
			out = append(out, For(List(Id("_"), Id("k")).Op(":=").Range().Qual("slices", "Sorted").Call(Qual("maps", "Keys").Call(Op("*").Id("v")))).Block(
				append([]Code{Id("x").Op(":=").Parens(Op("*").Id("v")).Index(Id("k"))},
					m.checkSlot(n.elem, Id("x"), Id("c").Op(":=").Id("p").Dot("Child").Call(Id("k")), false, true)...)...))
		}
		out = append(out, m.patternChecks(n)...)
		out = append(out, m.mapCollectionChecks(n)...)
		return append(out, m.structuredValueChecks(n)...)
	case kOneOf:
		return m.validateUnion(n)
	case kTuple:
		return m.validateTuple(n)
	case kStruct:
		var out []Code
		for _, f := range n.fields {
			if f.boxed || f.required && !f.nullable && f.node.real().kind == kOneOf {
				out = append(out, If(Id("v").Dot(f.goName).Op("==").Nil()).Block(
					Id("c").Op(":=").Id("p").Dot("Child").Call(Lit(f.jsonName)),
					addErr(Op("&").Id("c"), wire("MsgRequired")),
				))
			}
			out = append(out, m.checkSlot(&f.slot, Id("v").Dot(f.goName), Id("c").Op(":=").Id("p").Dot("Child").Call(Lit(f.jsonName)), !f.required && f.def == nil, false)...)
		}
		out = append(out, m.propertyCount(n, nil)...)
		if n.extra && n.elem.checks() {
			out = append(out, For(List(Id("_"), Id("k")).Op(":=").Range().Qual("slices", "Sorted").Call(Qual("maps", "Keys").Call(Id("v").Dot("AdditionalProperties")))).Block(
				append([]Code{Id("x").Op(":=").Id("v").Dot("AdditionalProperties").Index(Id("k"))},
					m.checkSlot(n.elem, Id("x"), Id("c").Op(":=").Id("p").Dot("Child").Call(Id("k")), false, true)...)...))
		}
		out = append(out, m.patternChecks(n)...)
		out = append(out, m.structApplicatorChecks(n)...)
		return append(out, m.structuredValueChecks(n)...)
	}
	return nil
}

// countsProperties reports whether a struct node has minProperties or
// maxProperties.
func countsProperties(n *node) bool {
	return n.schema.MinProperties != nil || n.schema.MaxProperties != nil
}

// propertyCount checks the minProperties and maxProperties of a struct
// node v. unknown, when not nil, is the number of unknown properties the
// input had besides (decoding only).
func (m *validateEmitter) propertyCount(n *node, unknown Code) []Code {
	return m.propertyCountOf(n, n.schema, unknown)
}

// propertyCountOf checks the minProperties and maxProperties of s (the
// struct node's schema, or a constraint subschema of it) against the
// members of the struct v.
func (m *validateEmitter) propertyCountOf(n *node, s *spec.Schema, unknown Code) []Code {
	if s.MinProperties == nil && s.MaxProperties == nil {
		return nil
	}
	always := 0
	var count []Code
	for _, f := range n.fields {
		if f.required || f.def != nil {
			always++
			continue
		}
		if cond := present(f, Id("v").Dot(f.goName)); cond != nil {
			count = append(count, If(cond).Block(Id("n").Op("++")))
		} else {
			always++
		}
	}
	out := []Code{Id("n").Op(":=").Lit(always)}
	out = append(out, count...)
	if n.extra {
		out = append(out, Id("n").Op("+=").Len(Id("v").Dot("AdditionalProperties")))
	}
	if unknown != nil {
		out = append(out, Id("n").Op("+=").Add(unknown))
	}
	return append(out, m.bounds(nil, s.MinProperties, s.MaxProperties, "MsgMinProperties", "MsgMaxProperties")...)
}

// validatorsUsed returns the units whose validateX is called: those
// reachable from a tool output or template parameters (values built in
// Go, not decoded). Decoding checks constraints itself.
func (m *Model) validatorsUsed() map[*node]bool {
	used := map[*node]bool{}
	var mark func(n *node)
	mark = func(n *node) {
		r := n.real()
		if !r.unit() || !r.validates || used[r] {
			return
		}
		used[r] = true
		if r.elem != nil {
			mark(r.elem.node)
		}
		for _, f := range r.fields {
			mark(f.node)
		}
		for _, v := range r.variants {
			mark(v.node)
		}
	}
	for _, t := range m.tools {
		if t.output != nil {
			mark(t.output)
		}
	}
	for _, t := range m.templates {
		mark(t.params)
	}
	return used
}

// bounds checks a count against a minimum and a maximum; a nil count
// means that the variable n holds it already.
func (m *validateEmitter) bounds(count Code, min, max *int64, minMsg, maxMsg string) []Code {
	var cond []Code // the init statement of the min-and-max check
	if count == nil {
		count = Id("n")
	} else {
		cond = []Code{Id("n").Op(":=").Add(count)}
	}
	switch {
	case min != nil && max != nil:
		cond = append(cond, Id("n").Op("<").Lit(int(*min)))
		return []Code{If(cond...).Block(
			addErr(Id("p"), m.countMessage(minMsg, *min)),
		).Else().If(Id("n").Op(">").Lit(int(*max))).Block(
			addErr(Id("p"), m.countMessage(maxMsg, *max)),
		)}
	case min != nil:
		return []Code{If(Add(count).Op("<").Lit(int(*min))).Block(addErr(Id("p"), m.countMessage(minMsg, *min)))}
	case max != nil:
		return []Code{If(Add(count).Op(">").Lit(int(*max))).Block(addErr(Id("p"), m.countMessage(maxMsg, *max)))}
	}
	return nil
}

func (m *validateEmitter) uniqueItems(n *node) []Code {
	el := n.elem
	k := el.node.real().kind
	comparable := !el.ptr && k <= kBool && el.node.real().comparableType()
	var pre []Code
	eq := Parens(Op("*").Id("v")).Index(Id("i")).Op("==").Parens(Op("*").Id("v")).Index(Id("j"))
	if !comparable {
		// Items without Go equality are compared by their JSON encoding.
		pre = []Code{Id("enc").Op(":=").Func().Params(Id("x").Add(slotType(el))).Index().Byte().Block(append(
			[]Code{Var().Id("b").Index().Byte()}, append(appendSlot(el, Id("x")), Return(Id("b")))...)...)}
		eq = wire("EqualJSON").Call(Id("enc").Call(Parens(Op("*").Id("v")).Index(Id("i"))), Id("enc").Call(Parens(Op("*").Id("v")).Index(Id("j"))))
	}
	return append(pre, For(Id("i").Op(":=").Lit(1), Id("i").Op("<").Len(Op("*").Id("v")), Id("i").Op("++")).Block(
		For(Id("j").Op(":=").Lit(0), Id("j").Op("<").Id("i"), Id("j").Op("++")).Block(
			If(eq).Block(
				addErr(Id("p"), wire("MsgUniqueItems").Call(Id("j"), Id("i"))),
				Break(),
			),
		),
	))
}

// scalarChecks checks the constraints of a string, number, boolean or any
// value x.
// formatChecker is the runtime/wire function that checks a string of
// format, if the validators check that format.
func formatChecker(format string) (string, bool) {
	switch format {
	case "date":
		return "IsDate", true
	case "date-time":
		return "IsDateTime", true
	case "email":
		return "IsEmail", true
	case "uri":
		return "IsURI", true
	case "uuid":
		return "IsUUID", true
	}
	return "", false
}

// formatMessage is the message of a string that is not of a checked
// format.
func (m *validateEmitter) formatMessage(format string) Code {
	fn, _ := formatChecker(format)
	return m.message("msgFormat"+fn[2:], callKey("MsgFormat", strconv.Quote(format)), wire("MsgFormat").Call(Lit(format)))
}

func (m *validateEmitter) scalarChecks(s *spec.Schema, k kind, x *Statement, path Code) []Code {
	if k == kRaw && s.OnAny && s.Type != spec.KindAny {
		return m.rawTypedChecks(s, x, path)
	}
	var out []Code
	if k == kRaw && len(s.Types) > 0 {
		out = m.typeListChecks(s, x, path)
	}
	fail := func(msg Code) Code { return addErr(path, msg) }
	if s.Enum != nil {
		var texts []Code
		raw := make([]string, len(s.Enum))
		for i, v := range s.Enum {
			texts = append(texts, Lit(string(v)))
			raw[i] = string(v)
		}
		call := wire("MsgEnum").Call(Index().String().Values(texts...))
		key := callKey("MsgEnum", stringsKey(raw))
		msg := fail(m.message(listName("msgEnum", jsonWords(s.Enum), key), key, call))
		if k <= kBool {
			if lits := enumCases(s.Enum, k); len(lits) > 0 {
				out = append(out, Switch(x).Block(Case(lits...), Default().Block(msg)))
			} else {
				// No listed value has the value's type: nothing can match.
				out = append(out, msg)
			}
		} else {
			var cond *Statement
			for _, v := range s.Enum {
				c := wire("EqualJSON").Call(x, Index().Byte().Call(Lit(string(v))))
				if cond == nil {
					cond = c
				} else {
					cond = cond.Op("||").Add(c)
				}
			}
			out = append(out, If(Op("!").Parens(cond)).Block(msg))
		}
	}
	if s.Const != nil {
		call := wire("MsgConst").Call(Lit(string(s.Const)))
		key := callKey("MsgConst", strconv.Quote(string(s.Const)))
		msg := fail(m.message(listName("msgConst", jsonWords([]json.RawMessage{s.Const}), key), key, call))
		if k <= kBool {
			out = append(out, If(Add(x).Op("!=").Add(jsonLit(s.Const, k))).Block(msg))
		} else {
			out = append(out, If(Op("!").Add(wire("EqualJSON")).Call(x, Index().Byte().Call(Lit(string(s.Const))))).Block(msg))
		}
	}
	switch k {
	case kString:
		if s.MinLength != nil || s.MaxLength != nil {
			out = append(out, m.lengthCheck(x, s.MinLength, s.MaxLength, path)...)
		}
		if s.Pattern != "" {
			v := m.patternVar(s.Pattern)
			msg := m.message("msgPattern"+strings.TrimPrefix(v, "pattern"), callKey("MsgPattern", strconv.Quote(s.Pattern)), wire("MsgPattern").Call(Lit(s.Pattern)))
			out = append(out, If(Op("!").Id(v).Dot("MatchString").Call(x)).Block(fail(msg)))
		}
		if fn, ok := formatChecker(s.Format); ok {
			out = append(out, If(Op("!").Add(wire(fn)).Call(x)).Block(fail(m.formatMessage(s.Format))))
		}
	case kInt, kFloat:
		bound := func(b *float64, op, msgFn string) {
			if b == nil {
				return
			}
			var cond *Statement
			switch {
			case k == kInt && isIntegral(*b):
				cond = Add(x).Op(op).Lit(int(*b))
			case k == kInt:
				cond = Float64().Call(x).Op(op).Lit(*b)
			default:
				cond = Add(x).Op(op).Lit(*b)
			}
			out = append(out, If(cond).Block(fail(m.numberMessage(msgFn, *b))))
		}
		bound(s.Minimum, "<", "MsgMinimum")
		bound(s.Maximum, ">", "MsgMaximum")
		bound(s.ExclusiveMinimum, "<=", "MsgExclusiveMinimum")
		bound(s.ExclusiveMaximum, ">=", "MsgExclusiveMaximum")
		if mo := s.MultipleOf; mo != nil {
			var cond *Statement
			if k == kInt && isIntegral(*mo) {
				cond = Add(x).Op("%").Lit(int(*mo)).Op("!=").Lit(0)
			} else {
				xf := x
				if k == kInt {
					xf = Float64().Call(x)
				}
				cond = Op("!").Add(wire("IsMultipleOf")).Call(xf, Lit(*mo))
			}
			out = append(out, If(cond).Block(fail(m.numberMessage("MsgMultipleOf", *mo))))
		}
	}
	return append(out, m.applicatorChecks(s, nil, k, x, path)...)
}

func (m *validateEmitter) lengthCheck(x Code, min, max *int64, path Code) []Code {
	n := wire("RuneCount").Call(x)
	minErr := func() Code { return addErr(path, m.countMessage("MsgMinLength", *min)) }
	maxErr := func() Code { return addErr(path, m.countMessage("MsgMaxLength", *max)) }
	var checks Code
	switch {
	case min != nil && max != nil:
		checks = If(Id("n").Op(":=").Add(n), Id("n").Op("<").Lit(int(*min))).Block(minErr()).
			Else().If(Id("n").Op(">").Lit(int(*max))).Block(maxErr())
	case min != nil:
		checks = If(Add(n).Op("<").Lit(int(*min))).Block(minErr())
	default:
		checks = If(Add(n).Op(">").Lit(int(*max))).Block(maxErr())
	}
	// A string of n bytes has between n/4 and n characters: counting them
	// is only needed when its byte length is near a bound.
	var near *Statement
	if min != nil && *min > 0 && *min <= 1<<40 {
		near = Len(x).Op("<").Lit(int(4 * *min))
	}
	if max != nil {
		if near != nil {
			near = near.Op("||")
		} else {
			near = Null()
		}
		near = near.Add(Len(x).Op(">").Lit(int(*max)))
	}
	if near == nil || min != nil && (*min > 1<<40 || max != nil && 4**min > *max) {
		return []Code{checks} // every length is near a bound
	}
	return []Code{If(near).Block(checks)}
}

// helperFuncs emits the helpers the generated code uses, in a fixed order.
func (m *validateEmitter) helperFuncs(f *File) {
	read := func(name, want, jsonKind string, goT *Statement, method string) {
		if !m.helpers[name] {
			return
		}
		f.Comment(lcf("%s decodes a JSON %s into v.", name, want))
		body := []Code{kindCheck(want, jsonKind),
			List(Id("x"), Err()).Op(":=").Id("d").Dot(method).Call(),
		}
		if name == "readInt" || name == "readFloat" {
			body = append(body, If(Err().Op("==").Add(wire("ErrNotInteger"))).Block(
				addErr(Id("p"), wire("MsgNotInteger")), Return(Nil()),
			).Else().If(Err().Op("==").Add(wire("ErrOutOfRange"))).Block(
				addErr(Id("p"), wire("MsgOutOfRange")), Return(Nil()),
			))
		}
		body = append(body,
			If(Err().Op("!=").Nil()).Block(Return(Err())),
			Op("*").Id("v").Op("=").Id("x"),
			Return(Nil()))
		f.Func().Id(name).Params(dParam(), pParam(), Id("v").Op("*").Add(goT), eParam()).Error().Block(body...)
	}
	read("readString", "string", "KindString", String(), "ReadString")
	read("readInt", "integer", "KindNumber", Int64(), "ReadInt")
	read("readFloat", "number", "KindNumber", Float64(), "ReadFloat")
	read("readBool", "boolean", "KindBool", Bool(), "ReadBool")
	if m.helpers["readNull"] {
		f.Comment(lc("readNull keeps a copy of the next JSON value, which must be null."))
		f.Func().Id("readNull").Params(dParam(), pParam(), Id("v").Op("*").Qual(jsonPkg, "RawMessage"), eParam()).Error().Block(
			If(Id("k").Op(":=").Id("d").Dot("Peek").Call(), Id("k").Op("!=").Add(wire("KindNull"))).Block(
				addErr(Id("p"), wire("MsgType").Call(Lit("null"), Id("k"))),
				Return(Id("d").Dot("Skip").Call()),
			),
			If(Err().Op(":=").Id("d").Dot("ReadNull").Call(), Err().Op("!=").Nil()).Block(Return(Err())),
			Op("*").Id("v").Op("=").Qual(jsonPkg, "RawMessage").Call(Lit("null")),
			Return(Nil()),
		)
	}
	if m.helpers["readRaw"] {
		f.Comment(lc("readRaw keeps a copy of the next JSON value, whatever it is."))
		f.Func().Id("readRaw").Params(dParam(), pParam(), Id("v").Op("*").Qual(jsonPkg, "RawMessage"), eParam()).Error().Block(
			List(Id("raw"), Err()).Op(":=").Id("d").Dot("ReadRaw").Call(),
			If(Err().Op("!=").Nil()).Block(Return(Err())),
			Op("*").Id("v").Op("=").Append(Qual(jsonPkg, "RawMessage").Call(Nil()), Id("raw").Op("...")),
			Return(Nil()),
		)
	}
	if m.helpers["discriminator"] {
		f.Comment(lc("discriminator returns the string value of property key of the JSON\nobject raw, and whether the property is there."))
		f.Func().Id("discriminator").Params(Id("raw").Index().Byte(), Id("key").String()).Params(String(), Bool(), Error()).Block(
			Var().Id("d").Add(wire("Decoder")),
			Id("d").Dot("Reset").Call(Id("raw")),
			If(Err().Op(":=").Id("d").Dot("BeginObject").Call(), Err().Op("!=").Nil()).Block(Return(Lit(""), False(), Err())),
			For().Block(
				List(Id("k"), Id("ok"), Err()).Op(":=").Id("d").Dot("NextKey").Call(),
				If(Err().Op("!=").Nil().Op("||").Op("!").Id("ok")).Block(Return(Lit(""), False(), Err())),
				If(String().Call(Id("k")).Op("==").Id("key").Op("&&").Id("d").Dot("Peek").Call().Op("==").Add(wire("KindString"))).Block(
					List(Id("s"), Err()).Op(":=").Id("d").Dot("ReadString").Call(),
					Return(Id("s"), True(), Err()),
				),
				If(String().Call(Id("k")).Op("==").Id("key")).Block(Return(Lit(""), True(), Nil())),
				If(Err().Op(":=").Id("d").Dot("Skip").Call(), Err().Op("!=").Nil()).Block(Return(Lit(""), False(), Err())),
			),
		)
	}
}

// enumCases are the distinct Go constants among the enum values that a
// value of kind k can equal. Documents repeat values ("available" twice, 0
// and 0.0) and mix types (an empty string in a number enum); a duplicate
// would be a duplicate switch case, and a value of another JSON type can
// never match, so both are left out.
func enumCases(values []json.RawMessage, k kind) []Code {
	seen := make(map[string]bool, len(values))
	var lits []Code
	for _, v := range values {
		key, ok := enumKey(v, k)
		if !ok || seen[key] {
			continue
		}
		seen[key] = true
		lits = append(lits, jsonLit(v, k))
	}
	return lits
}

// enumKey is the canonical form of an enum value as a value of kind k, and
// whether a value of that kind can equal it at all.
func enumKey(v json.RawMessage, k kind) (string, bool) {
	switch k {
	case kString:
		var s string
		// null unmarshals into a string as a no-op: it is not "".
		if len(v) == 0 || v[0] != '"' || json.Unmarshal(v, &s) != nil {
			return "", false
		}
		return s, true
	case kInt, kFloat:
		x, err := strconv.ParseFloat(string(v), 64)
		if err != nil || k == kInt && x != math.Trunc(x) {
			return "", false
		}
		return strconv.FormatFloat(x, 'g', -1, 64), true
	case kBool:
		return string(v), string(v) == "true" || string(v) == "false"
	}
	return "", false
}
