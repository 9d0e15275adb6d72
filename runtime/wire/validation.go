package wire

import (
	"fmt"
	"strconv"
	"strings"
	"unsafe"
)

// Paths
//
// The root of the value being decoded is the zero Path (or a nil *Path):
// declare `var root wire.Path` and pass &root. Child and Elem return the
// next step by value so that it stays on the caller's stack.

// Child returns the step to property key of the object at p. A nil p is
// the root; prefer a non-nil root, since the step to the empty key "" from
// a nil p is the zero Path and so reads as the root.
func (p *Path) Child(key string) Path { return Path{Parent: p, Key: key} }

// Elem returns the step to element i of the array at p (a nil p is the
// root). It cannot be called Index: that is the field holding i.
func (p *Path) Elem(i int) Path { return Path{Parent: p, Index: i, IsIndex: true} }

// isRoot reports whether p is the root: nil or the zero Path.
func (p *Path) isRoot() bool {
	return p == nil || (p.Parent == nil && p.Key == "" && !p.IsIndex)
}

// Pointer returns the RFC 6901 JSON pointer of p: "" for the root,
// otherwise "/" and the steps joined by "/", with "~" written "~0" and "/"
// written "~1" in property names.
func (p *Path) Pointer() string {
	if p.isRoot() {
		return ""
	}
	// Built on the stack: the string is then the only allocation.
	var buf [128]byte
	return string(p.appendPointer(buf[:0]))
}

func (p *Path) appendPointer(b []byte) []byte {
	if p.isRoot() {
		return b
	}
	b = p.Parent.appendPointer(b)
	b = append(b, '/')
	if p.IsIndex {
		return strconv.AppendInt(b, int64(p.Index), 10)
	}
	if strings.IndexByte(p.Key, '~') < 0 && strings.IndexByte(p.Key, '/') < 0 {
		return append(b, p.Key...) // nothing to escape, the usual case
	}
	for i := 0; i < len(p.Key); i++ {
		switch c := p.Key[i]; c {
		case '~':
			b = append(b, '~', '0')
		case '/':
			b = append(b, '~', '1')
		default:
			b = append(b, c)
		}
	}
	return b
}

// MaxErrors caps the violations an Errors keeps, so that a huge invalid
// input cannot make a huge error. Len still counts every violation, and
// the error message says how many were left out.
const MaxErrors = 100

// errorBlock is what an Errors allocates when its violations outgrow its
// inline room: the ValidationError, room for a few violations and for
// their pointers, in one allocation instead of one per pointer, one for
// the list and one for the error.
type errorBlock struct {
	ve   ValidationError
	list [4]FieldError
	// ptrs makes the block 240 bytes, a size class of the Go allocator.
	ptrs [80]byte
}

// errorBlock1 is what Err allocates for a single violation with a short
// pointer, the most common invalid input: 96 bytes, a size class.
type errorBlock1 struct {
	ve   ValidationError
	list [1]FieldError
	ptrs [32]byte
}

// errorBlock3 is what Err allocates for up to three violations that fit
// the inline room: 176 bytes, a size class.
type errorBlock3 struct {
	ve   ValidationError
	list [inlineErrors]FieldError
	ptrs [inlineBytes]byte
}

// Add records the violation msg at p (nil means the root). Use the Msg*
// helpers for msg so that messages are uniform.
func (e *Errors) Add(p *Path, msg string) {
	if e.full() {
		e.dropped++
		return
	}
	if e.list == nil {
		// Not spilled yet: keep the violation inline, without allocating.
		start := 0
		if e.n > 0 {
			start = int(e.ends[e.n-1])
		}
		if int(e.n) < inlineErrors {
			// The pointer fits when append did not have to move it out.
			b := p.appendPointer(e.buf[start:start:inlineBytes])
			if len(b) == 0 || start < inlineBytes && unsafe.SliceData(b) == &e.buf[start] {
				e.ends[e.n], e.msgs[e.n] = uint8(start+len(b)), msg
				e.n++
				return
			}
		}
		e.spill(new(errorBlock))
	}
	var ptr string
	if start := len(e.ptrs); !p.isRoot() {
		e.ptrs = p.appendPointer(e.ptrs)
		ptr = unsafe.String(&e.ptrs[start], len(e.ptrs)-start)
	}
	e.list = append(e.list, FieldError{Pointer: ptr, Message: msg})
}

// spill moves the inline violations into b's list and pointer buffer, and
// makes b's ValidationError the one Err returns.
func (e *Errors) spill(b *errorBlock) {
	e.list, e.ptrs, e.ve = b.list[:0], b.ptrs[:0], &b.ve
	e.list, e.ptrs = e.copyInline(e.list, e.ptrs)
	e.n, e.msgs = 0, [inlineErrors]string{}
}

// copyInline appends the inline violations to list and their pointers to
// ptrs.
func (e *Errors) copyInline(list []FieldError, ptrs []byte) ([]FieldError, []byte) {
	start := 0
	for i := range int(e.n) {
		end := int(e.ends[i])
		var ptr string
		if end > start {
			off := len(ptrs)
			ptrs = append(ptrs, e.buf[start:end]...)
			ptr = unsafe.String(&ptrs[off], end-start)
		}
		list = append(list, FieldError{Pointer: ptr, Message: e.msgs[i]})
		start = end
	}
	return list, ptrs
}

// Addf records a violation at p with a message formatted by fmt.Sprintf.
// Beyond MaxErrors it only counts the violation, without formatting.
func (e *Errors) Addf(p *Path, format string, args ...any) {
	if e.full() {
		e.dropped++
		return
	}
	e.Add(p, fmt.Sprintf(format, args...))
}

// full reports whether MaxErrors violations are kept (inline or in list):
// Add and Addf then only count a new one.
func (e *Errors) full() bool { return len(e.list)+int(e.n) >= MaxErrors }

// Len is the number of violations recorded, including those beyond
// MaxErrors that were not kept.
func (e *Errors) Len() int { return len(e.list) + int(e.n) + e.dropped }

// Err returns nil when no violation was recorded, otherwise a
// *ValidationError listing them in the order they were found.
func (e *Errors) Err() error {
	if e.Len() == 0 {
		return nil
	}
	if e.list == nil {
		// Only inline violations: allocate what they need, once.
		if e.n == 1 && e.ends[0] <= 32 {
			b := new(errorBlock1)
			return e.inlineErr(&b.ve, b.list[:0], b.ptrs[:0])
		}
		b := new(errorBlock3)
		return e.inlineErr(&b.ve, b.list[:0], b.ptrs[:0])
	}
	ve := e.ve
	if ve == nil {
		ve = new(ValidationError)
	}
	// A later Err must not change the error returned now.
	e.ve = nil
	ve.Errors, ve.Omitted = e.list[:len(e.list):len(e.list)], e.dropped
	return ve
}

// inlineErr fills ve, the error of a freshly allocated block whose room is
// list and ptrs, with the inline violations, and returns it.
func (e *Errors) inlineErr(ve *ValidationError, list []FieldError, ptrs []byte) error {
	list, _ = e.copyInline(list, ptrs)
	ve.Errors, ve.Omitted = list[:len(list):len(list)], e.dropped
	return ve
}

// Reset forgets every violation. A *ValidationError returned by Err before
// stays intact: the memory it refers to is not reused.
func (e *Errors) Reset() { *e = Errors{} }

// Error lists every violation as "pointer: message", separated by "; ",
// after "invalid arguments: ". The root is shown as "/" (its pointer is ""
// in FieldError.Pointer, which keeps the exact RFC 6901 form).
func (e *ValidationError) Error() string {
	var b strings.Builder
	b.WriteString("invalid arguments: ")
	for i, fe := range e.Errors {
		if i > 0 {
			b.WriteString("; ")
		}
		if fe.Pointer == "" {
			b.WriteByte('/')
		} else {
			b.WriteString(fe.Pointer)
		}
		b.WriteString(": ")
		b.WriteString(fe.Message)
	}
	if e.Omitted > 0 {
		b.WriteString("; and ")
		b.WriteString(strconv.Itoa(e.Omitted))
		b.WriteString(" more")
	}
	return b.String()
}

// Messages of violations. Each completes a sentence whose subject is the
// value at the error's pointer: "/limit: must be at most 50".
const (
	// MsgRequired is reported at the pointer of a missing property.
	MsgRequired = "is required"
	// MsgUnknownProperty is reported at the pointer of a property the
	// schema does not allow.
	MsgUnknownProperty = "is not allowed"
	// MsgNotInteger is reported when ReadInt returns ErrNotInteger.
	MsgNotInteger = "must be an integer"
	// MsgOutOfRange is reported when ReadInt or ReadFloat returns
	// ErrOutOfRange.
	MsgOutOfRange = "is out of range"
)

// kindNoun is the schema type or JSON kind with its article, as it reads
// in "must be a string, not a number".
func kindNoun(name string) string {
	switch name {
	case "null":
		return "null"
	case "integer", "array", "object":
		return "an " + name
	default:
		return "a " + name
	}
}

// MsgType says the value has the wrong kind. want is a schema type name
// ("string", "integer", "number", "boolean", "array", "object", "null"),
// or several joined by " or " (each gets its article).
func MsgType(want string, got JSONKind) string {
	if int(got) < len(typeMessages[0].msgs) {
		for i := range typeMessages {
			if r := &typeMessages[i]; r.want == want {
				return r.msgs[got]
			}
		}
	}
	return buildTypeMessage(want, got)
}

// buildTypeMessage is MsgType for any want, in particular several types.
func buildTypeMessage(want string, got JSONKind) string {
	var b strings.Builder
	b.WriteString("must be ")
	for i, w := range strings.Split(want, " or ") {
		if i > 0 {
			b.WriteString(" or ")
		}
		b.WriteString(kindNoun(w))
	}
	if got == KindInvalid {
		b.WriteString(", not malformed JSON")
	} else {
		b.WriteString(", not ")
		b.WriteString(kindNoun(KindName(got)))
	}
	return b.String()
}

// typeMessages is every MsgType for want when want is one schema type,
// indexed by the JSONKind found, so that a value of the wrong type costs
// no allocation for its message. It is built once, by buildTypeMessage,
// the one place the wording lives, and never written after.
var typeMessages = func() (rows [7]struct {
	want string
	msgs [KindObject + 1]string
}) {
	for i, want := range [len(rows)]string{"string", "integer", "number", "boolean", "array", "object", "null"} {
		rows[i].want = want
		for k := range rows[i].msgs {
			rows[i].msgs[k] = buildTypeMessage(want, JSONKind(k))
		}
	}
	return rows
}()

func plural(n int, one, many string) string {
	if n == 1 {
		return strconv.Itoa(n) + " " + one
	}
	return strconv.Itoa(n) + " " + many
}

// formatNumber writes a schema bound as JSON would: 1000000, not 1e+06.
func formatNumber(x float64) string { return string(AppendFloat(nil, x)) }

// quote writes s as a JSON string.
func quote(s string) string { return string(AppendString(nil, s)) }

// MsgMinLength says the string has fewer than n characters (code points).
func MsgMinLength(n int) string {
	return "must be at least " + plural(n, "character", "characters") + " long"
}

// MsgMaxLength says the string has more than n characters (code points).
func MsgMaxLength(n int) string {
	return "must be at most " + plural(n, "character", "characters") + " long"
}

// MsgPattern says the string does not match the regular expression p.
func MsgPattern(p string) string { return "must match pattern " + quote(p) }

// MsgFormat says the string is not of format f. Known formats get an
// example so that a caller (often a model) can correct itself.
func MsgFormat(f string) string {
	switch f {
	case "date":
		return `must be a full-date like "2026-07-28" (RFC 3339)`
	case "date-time":
		return `must be a date-time like "2026-07-28T09:30:00Z" (RFC 3339)`
	case "email":
		return `must be an email address like "name@example.com" (no quoted local part, address literal or single-label domain)`
	case "uri":
		return `must be an absolute URI like "https://example.com/"`
	case "uuid":
		return `must be a UUID like "123e4567-e89b-12d3-a456-426614174000"`
	}
	return "must be a valid " + f
}

// MsgMinimum says the number is below the inclusive bound x.
func MsgMinimum(x float64) string { return "must be at least " + formatNumber(x) }

// MsgMaximum says the number is above the inclusive bound x.
func MsgMaximum(x float64) string { return "must be at most " + formatNumber(x) }

// MsgExclusiveMinimum says the number is not above x.
func MsgExclusiveMinimum(x float64) string { return "must be greater than " + formatNumber(x) }

// MsgExclusiveMaximum says the number is not below x.
func MsgExclusiveMaximum(x float64) string { return "must be less than " + formatNumber(x) }

// MsgMultipleOf says the number is not a multiple of m.
func MsgMultipleOf(m float64) string { return "must be a multiple of " + formatNumber(m) }

// MsgMinItems says the array has fewer than n items.
func MsgMinItems(n int) string { return "must have at least " + plural(n, "item", "items") }

// MsgMaxItems says the array has more than n items.
func MsgMaxItems(n int) string { return "must have at most " + plural(n, "item", "items") }

// MsgUniqueItems says items i and j (0-based, i < j) of the array are
// equal.
func MsgUniqueItems(i, j int) string {
	return "must have unique items, but items " + strconv.Itoa(i) + " and " + strconv.Itoa(j) + " are equal"
}

// maxListed bounds the values an enum message lists.
const maxListed = 20

// MsgEnum says the value is not one of values, given as JSON texts
// (`"PENDING"`, `1`, `null`): `must be one of "PENDING", "SHIPPED"`.
func MsgEnum(values []string) string {
	if len(values) == 1 {
		return "must be " + values[0]
	}
	var b strings.Builder
	b.WriteString("must be one of ")
	for i, v := range values {
		if i == maxListed {
			b.WriteString(", … (")
			b.WriteString(strconv.Itoa(len(values) - maxListed))
			b.WriteString(" more)")
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(v)
	}
	return b.String()
}

// MsgConst says the value is not value, given as JSON text.
func MsgConst(value string) string { return "must be " + value }

// MsgMinProperties says the object has fewer than n properties.
func MsgMinProperties(n int) string {
	return "must have at least " + plural(n, "property", "properties")
}

// MsgMaxProperties says the object has more than n properties.
func MsgMaxProperties(n int) string {
	return "must have at most " + plural(n, "property", "properties")
}

// MsgOneOf says the value matches matched variants of a oneOf instead of
// exactly one.
func MsgOneOf(matched int) string {
	if matched == 0 {
		return "must match exactly one of the allowed schemas, but matches none"
	}
	return "must match exactly one of the allowed schemas, but matches " + strconv.Itoa(matched)
}

// MsgDiscriminator is reported at the pointer of a discriminator property
// whose value selects no variant. values are the mapping's keys, as they
// appear in the spec (not JSON texts).
func MsgDiscriminator(values []string) string {
	var b strings.Builder
	b.WriteString("must be one of ")
	for i, v := range values {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(quote(v))
	}
	b.WriteString(" to select a variant")
	return b.String()
}
