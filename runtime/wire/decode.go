package wire

import (
	"encoding/binary"
	"math/bits"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"
)

// MaxDepth is the deepest nesting of arrays and objects a Decoder accepts.
// Deeper input is a syntax error, so hostile input cannot exhaust the stack
// of recursive generated decoders.
const MaxDepth = 512

// SyntaxError reports malformed JSON. Decoding stops at the first one.
type SyntaxError struct {
	// Offset is the byte offset in the input where the problem was found.
	Offset int
	Msg    string
}

func (e *SyntaxError) Error() string {
	return "invalid JSON at offset " + strconv.Itoa(e.Offset) + ": " + e.Msg
}

// numberError is the type of the number errors below. It is a string type so
// that the sentinels can be constants: comparable with == and errors.Is, and
// not package-level mutable state.
type numberError string

func (e numberError) Error() string { return string(e) }

// Number errors of ReadInt and ReadFloat. Unlike a *SyntaxError they leave the
// Decoder usable: the number has been consumed, so the caller can record a
// field error (MsgNotInteger, MsgOutOfRange) and go on decoding.
const (
	// ErrNotInteger means the number has a non-zero fractional part.
	ErrNotInteger = numberError("number is not an integer")
	// ErrOutOfRange means the number does not fit the Go type read into.
	ErrOutOfRange = numberError("number is out of range")
)

// Reset makes the Decoder read data from its start. The Decoder keeps
// referring to data: byte slices it returns are views into it.
func (d *Decoder) Reset(data []byte) {
	d.data = data
	d.pos = 0
	d.depth = 0
	d.first = false
	d.scratch = d.scratch[:0]
	d.strs = nil
	d.trialWork, d.trialLimit, d.trialDepth = 0, 0, 0
}

// Offset is the byte offset of the Decoder in its input.
func (d *Decoder) Offset() int { return d.pos }

func (d *Decoder) errorf(msg string) error {
	return &SyntaxError{Offset: d.pos, Msg: msg}
}

// unexpected reports the byte at the current offset (or the end of input)
// where something else was expected.
func (d *Decoder) unexpected(want string) error {
	if d.pos >= len(d.data) {
		return d.errorf("unexpected end of input, expected " + want)
	}
	c := d.data[d.pos]
	var got string
	if c >= 0x20 && c < 0x7f {
		got = strconv.QuoteRune(rune(c))
	} else {
		got = "byte 0x" + strconv.FormatUint(uint64(c), 16)
	}
	return d.errorf("unexpected " + got + ", expected " + want)
}

func (d *Decoder) skipSpace() {
	for d.pos < len(d.data) {
		// Every byte above ' ' ends the space: one comparison for the
		// usual case of no space at all.
		if c := d.data[d.pos]; c > ' ' || c != ' ' && c != '\t' && c != '\n' && c != '\r' {
			return
		}
		d.pos++
	}
}

// Peek returns the kind of the next value without consuming it (only the
// whitespace before it). It returns KindInvalid at the end of input or when
// the next byte cannot start a value.
func (d *Decoder) Peek() JSONKind {
	d.skipSpace()
	if d.pos >= len(d.data) {
		return KindInvalid
	}
	switch c := d.data[d.pos]; c {
	case '{':
		return KindObject
	case '[':
		return KindArray
	case '"':
		return KindString
	case 't', 'f':
		return KindBool
	case 'n':
		return KindNull
	default:
		if c == '-' || (c >= '0' && c <= '9') {
			return KindNumber
		}
		return KindInvalid
	}
}

// End checks that only whitespace follows the value read last.
func (d *Decoder) End() error {
	d.skipSpace()
	if d.depth != 0 {
		return d.errorf("unclosed array or object")
	}
	if d.pos < len(d.data) {
		return d.unexpected("end of input")
	}
	return nil
}

// ReadNull consumes null.
func (d *Decoder) ReadNull() error {
	d.skipSpace()
	return d.literal("null")
}

// ReadBool consumes true or false.
func (d *Decoder) ReadBool() (bool, error) {
	d.skipSpace()
	if d.pos < len(d.data) {
		switch d.data[d.pos] {
		case 't':
			return true, d.literal("true")
		case 'f':
			return false, d.literal("false")
		}
	}
	return false, d.unexpected("boolean")
}

func (d *Decoder) literal(lit string) error {
	if len(d.data)-d.pos >= len(lit) && string(d.data[d.pos:d.pos+len(lit)]) == lit {
		d.pos += len(lit)
		return nil
	}
	// Point at the first byte that differs.
	for i := 0; i < len(lit); i++ {
		if d.pos >= len(d.data) || d.data[d.pos] != lit[i] {
			break
		}
		d.pos++
	}
	return d.unexpected(strconv.Quote(lit))
}

// maxStringBlock bounds the block ReadString copies the strings of a small
// document into: a string keeps at most that much memory alive besides
// itself.
const maxStringBlock = 256

// ReadString consumes a string and returns it unescaped (nothing is
// allocated for ""). The strings of a small document share one allocation:
// the first one allocates room for every string that can follow it in the
// input (the unescaped form is never longer than the escaped one), at most
// maxStringBlock bytes; a longer string gets its own. Use ReadStringBytes to
// compare or copy without allocating.
func (d *Decoder) ReadString() (string, error) {
	d.skipSpace()
	raw, escaped, err := d.scanString()
	if err != nil || len(raw) == 0 {
		return "", err
	}
	if cap(d.strs)-len(d.strs) < len(raw) {
		// The rest of the input, from this string's opening quote on,
		// bounds the bytes of every string still to be read.
		rest := len(d.data) - (d.pos - len(raw) - 2)
		if rest > maxStringBlock {
			rest = len(raw)
		}
		d.strs = make([]byte, 0, rest)
	}
	// Bytes before len(d.strs) belong to strings already returned and are
	// never written again: a string is only ever appended after them.
	off := len(d.strs)
	if escaped {
		d.strs = appendUnescaped(d.strs, raw)
	} else {
		d.strs = append(d.strs, raw...)
	}
	return unsafe.String(&d.strs[off], len(d.strs)-off), nil
}

// ReadStringBytes consumes a string and returns it unescaped without
// allocating: a view into the input when the string has no escapes,
// otherwise a buffer owned by the Decoder. Either way the bytes are valid
// only until the next call on the Decoder and must not be modified.
func (d *Decoder) ReadStringBytes() ([]byte, error) {
	d.skipSpace()
	raw, escaped, err := d.scanString()
	if err != nil || !escaped {
		return raw, err
	}
	d.scratch = appendUnescaped(d.scratch[:0], raw)
	return d.scratch, nil
}

// ReadStringView consumes a string and returns it unescaped: a view into
// the input when the string has no escapes, so nothing is allocated, and a
// new string otherwise. The view is valid as long as the input is and
// stays unmodified. It is for the runtime's own use, which reads protocol
// members out of a message it keeps whole; generated code calls
// ReadString, whose strings outlive the input.
func (d *Decoder) ReadStringView() (string, error) {
	d.skipSpace()
	raw, escaped, err := d.scanString()
	if err != nil || len(raw) == 0 {
		return "", err
	}
	if escaped {
		return string(appendUnescaped(nil, raw)), nil
	}
	return unsafe.String(&raw[0], len(raw)), nil
}

// special8 returns a mask with the high bit set in the bytes of x
// (little-endian) that end a run of plain string bytes: '"', '\\', control
// characters and the bytes of multi-byte UTF-8 sequences; at least in the
// first such byte. Bytes after it may be flagged too (each test finds a
// byte below a bound, and a borrow can flag higher bytes), never bytes
// before it, so the lowest flagged byte is exactly the first one that
// ends the run, and 0 means all 8 are plain.
func special8(x uint64) uint64 {
	const lo, hi = 0x0101010101010101, 0x8080808080808080
	quote := x ^ (lo * '"')
	backslash := x ^ (lo * '\\')
	return ((x-lo*0x20)&^x | (quote-lo)&^quote | (backslash-lo)&^backslash | x) & hi
}

// scanString consumes a string at d.pos, checking its syntax and UTF-8,
// and returns the bytes between the quotes and whether they hold escapes.
func (d *Decoder) scanString() (raw []byte, escaped bool, err error) {
	if d.pos >= len(d.data) || d.data[d.pos] != '"' {
		return nil, false, d.unexpected("string")
	}
	d.pos++
	start := d.pos
	data := d.data
	i := d.pos
	for i < len(data) {
		// Most of a string is plain ASCII: pass it 8 bytes at a time, and
		// go straight to the first byte that is not.
		if i+8 <= len(data) {
			m := special8(binary.LittleEndian.Uint64(data[i:]))
			if m == 0 {
				i += 8
				continue
			}
			i += bits.TrailingZeros64(m) >> 3
		}
		c := data[i]
		switch {
		case c == '"':
			d.pos = i + 1
			return data[start:i], escaped, nil
		case c == '\\':
			escaped = true
			if i+1 >= len(data) {
				d.pos = len(data)
				return nil, false, d.errorf("unexpected end of input in string escape")
			}
			switch data[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if i+6 > len(data) {
					d.pos = len(data)
					return nil, false, d.errorf("unexpected end of input in string escape")
				}
				for j := i + 2; j < i+6; j++ {
					if unhex(data[j]) < 0 {
						d.pos = j
						return nil, false, d.errorf("invalid hexadecimal digit in \\u escape")
					}
				}
				i += 6
			default:
				d.pos = i + 1
				return nil, false, d.errorf("invalid escape in string")
			}
		case c < 0x20:
			d.pos = i
			return nil, false, d.errorf("control character in string")
		case c < utf8.RuneSelf:
			i++
		default:
			r, size := utf8.DecodeRune(data[i:])
			if r == utf8.RuneError && size == 1 {
				d.pos = i
				return nil, false, d.errorf("invalid UTF-8 in string")
			}
			i += size
		}
	}
	d.pos = len(data)
	return nil, false, d.errorf("unexpected end of input in string")
}

func unhex(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c - 'a' + 10)
	case c >= 'A' && c <= 'F':
		return int(c - 'A' + 10)
	}
	return -1
}

// appendUnescaped appends the unescaped form of raw, which scanString has
// checked, to dst. A lone surrogate becomes U+FFFD, as encoding/json does.
func appendUnescaped(dst, raw []byte) []byte {
	for i := 0; i < len(raw); {
		j := i
		for j < len(raw) && raw[j] != '\\' {
			j++
		}
		dst = append(dst, raw[i:j]...)
		if j >= len(raw) {
			return dst
		}
		c := raw[j+1]
		i = j + 2
		switch c {
		case 'b':
			dst = append(dst, '\b')
		case 'f':
			dst = append(dst, '\f')
		case 'n':
			dst = append(dst, '\n')
		case 'r':
			dst = append(dst, '\r')
		case 't':
			dst = append(dst, '\t')
		case 'u':
			r := hex4(raw[j+2:])
			i = j + 6
			if utf16.IsSurrogate(r) {
				r2 := utf8.RuneError
				if i+6 <= len(raw) && raw[i] == '\\' && raw[i+1] == 'u' {
					r2 = hex4(raw[i+2:])
				}
				if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
					r = dec
					i += 6
				} else {
					r = utf8.RuneError
				}
			}
			dst = utf8.AppendRune(dst, r)
		default: // '"', '\\', '/'
			dst = append(dst, c)
		}
	}
	return dst
}

func hex4(b []byte) rune {
	return rune(unhex(b[0])<<12 | unhex(b[1])<<8 | unhex(b[2])<<4 | unhex(b[3]))
}

// ReadNumberRaw consumes a number and returns its bytes (a view into the
// input).
func (d *Decoder) ReadNumberRaw() ([]byte, error) {
	d.skipSpace()
	start := d.pos
	if err := d.scanNumber(); err != nil {
		return nil, err
	}
	return d.data[start:d.pos], nil
}

// scanNumber consumes a number at d.pos, checking the JSON grammar
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func (d *Decoder) scanNumber() error {
	data := d.data
	i := d.pos
	if i < len(data) && data[i] == '-' {
		i++
	}
	switch {
	case i >= len(data):
		d.pos = i
		return d.unexpected("number")
	case data[i] == '0':
		i++
	case data[i] >= '1' && data[i] <= '9':
		i++
		for i < len(data) && data[i] >= '0' && data[i] <= '9' {
			i++
		}
	default:
		d.pos = i
		return d.unexpected("number")
	}
	if i < len(data) && data[i] == '.' {
		i++
		if i >= len(data) || data[i] < '0' || data[i] > '9' {
			d.pos = i
			return d.unexpected("digit after decimal point")
		}
		for i < len(data) && data[i] >= '0' && data[i] <= '9' {
			i++
		}
	}
	if i < len(data) && (data[i] == 'e' || data[i] == 'E') {
		i++
		if i < len(data) && (data[i] == '+' || data[i] == '-') {
			i++
		}
		if i >= len(data) || data[i] < '0' || data[i] > '9' {
			d.pos = i
			return d.unexpected("digit in exponent")
		}
		for i < len(data) && data[i] >= '0' && data[i] <= '9' {
			i++
		}
	}
	d.pos = i
	return nil
}

// ReadInt consumes a number that must be an integer in JSON Schema's sense:
// 1.0 and 1e2 are integers, 1.5 is not. A fractional number yields
// ErrNotInteger and one beyond int64 ErrOutOfRange; in both cases the number
// has been consumed and the Decoder can go on. A non-number is a
// *SyntaxError.
func (d *Decoder) ReadInt() (int64, error) {
	raw, err := d.ReadNumberRaw()
	if err != nil {
		return 0, err
	}
	return parseInt(raw)
}

// parseInt converts a syntactically valid JSON number to int64 exactly.
func parseInt(raw []byte) (int64, error) {
	neg := raw[0] == '-'
	s := raw
	if neg {
		s = s[1:]
	}
	// Fast path: plain digits that cannot overflow.
	if len(s) <= 18 {
		var n int64
		i := 0
		for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
			n = n*10 + int64(s[i]-'0')
		}
		if i == len(s) {
			if neg {
				n = -n
			}
			return n, nil
		}
	}
	dec := parseDecimal(raw)
	if dec.zero() {
		return 0, nil
	}
	// The value is 0.d1d2...dn × 10^point; it is an integer when every
	// significant digit lies before the decimal point.
	n := int64(dec.ndigits())
	if dec.point < n {
		return 0, ErrNotInteger
	}
	if dec.point > 19 {
		return 0, ErrOutOfRange
	}
	var u uint64
	for i := int64(0); i < dec.point; i++ {
		var digit uint64
		if i < n {
			digit = uint64(dec.digit(int(i)))
		}
		if u > (1<<64-1-digit)/10 {
			return 0, ErrOutOfRange
		}
		u = u*10 + digit
	}
	if neg {
		if u > 1<<63 {
			return 0, ErrOutOfRange
		}
		return -int64(u), nil
	}
	if u > 1<<63-1 {
		return 0, ErrOutOfRange
	}
	return int64(u), nil
}

// decimal is a syntactically valid JSON number split into its significant
// digits, without copying: the digits are intPart followed by fracPart,
// less lead leading and trail trailing zeros. Its value is
// ±0.d1d2…dn × 10^point.
type decimal struct {
	neg               bool
	intPart, fracPart []byte
	lead, trail       int
	point             int64
}

// maxExp bounds exponents so that arithmetic on them cannot overflow; any
// larger exponent is out of every range anyway.
const maxExp = 1 << 40

func parseDecimal(raw []byte) decimal {
	var d decimal
	i := 0
	if raw[0] == '-' {
		d.neg = true
		i++
	}
	j := i
	for j < len(raw) && raw[j] >= '0' && raw[j] <= '9' {
		j++
	}
	d.intPart = raw[i:j]
	if j < len(raw) && raw[j] == '.' {
		k := j + 1
		for k < len(raw) && raw[k] >= '0' && raw[k] <= '9' {
			k++
		}
		d.fracPart = raw[j+1 : k]
		j = k
	}
	var exp int64
	if j < len(raw) && (raw[j] == 'e' || raw[j] == 'E') {
		j++
		eneg := false
		if raw[j] == '+' || raw[j] == '-' {
			eneg = raw[j] == '-'
			j++
		}
		for ; j < len(raw); j++ {
			if exp < maxExp {
				exp = exp*10 + int64(raw[j]-'0')
			}
		}
		if eneg {
			exp = -exp
		}
	}
	total := len(d.intPart) + len(d.fracPart)
	for d.lead < total && d.at(d.lead) == '0' {
		d.lead++
	}
	for d.trail < total-d.lead && d.at(total-1-d.trail) == '0' {
		d.trail++
	}
	d.point = int64(len(d.intPart)) - int64(d.lead) + exp
	return d
}

// at returns digit i of intPart followed by fracPart.
func (d *decimal) at(i int) byte {
	if i < len(d.intPart) {
		return d.intPart[i]
	}
	return d.fracPart[i-len(d.intPart)]
}

func (d *decimal) zero() bool { return d.lead == len(d.intPart)+len(d.fracPart) }

// ndigits is the number of significant digits.
func (d *decimal) ndigits() int {
	return len(d.intPart) + len(d.fracPart) - d.lead - d.trail
}

// digit returns significant digit i (0-based) as a number.
func (d *decimal) digit(i int) byte { return d.at(d.lead+i) - '0' }

// equal says whether two decimals have the same value (-0 equals 0).
func (d *decimal) equal(o *decimal) bool {
	if d.zero() || o.zero() {
		return d.zero() && o.zero()
	}
	n := d.ndigits()
	if d.neg != o.neg || d.point != o.point || n != o.ndigits() {
		return false
	}
	for i := 0; i < n; i++ {
		if d.digit(i) != o.digit(i) {
			return false
		}
	}
	return true
}

// ReadFloat consumes a number as the nearest float64. A number whose
// magnitude is too large for float64 yields ErrOutOfRange, after being
// consumed.
func (d *Decoder) ReadFloat() (float64, error) {
	raw, err := d.ReadNumberRaw()
	if err != nil {
		return 0, err
	}
	// The string does not outlive the call: strconv copies it into any
	// error it returns. The view saves an allocation per number.
	f, err := strconv.ParseFloat(unsafe.String(unsafe.SliceData(raw), len(raw)), 64)
	if err != nil {
		return 0, ErrOutOfRange
	}
	return f, nil
}

// BeginObject consumes the '{' of an object. Follow it with NextKey until
// it reports the end.
func (d *Decoder) BeginObject() error {
	d.skipSpace()
	if d.pos >= len(d.data) || d.data[d.pos] != '{' {
		return d.unexpected("object")
	}
	return d.open()
}

// BeginArray consumes the '[' of an array. Follow it with NextElem until it
// reports the end.
func (d *Decoder) BeginArray() error {
	d.skipSpace()
	if d.pos >= len(d.data) || d.data[d.pos] != '[' {
		return d.unexpected("array")
	}
	return d.open()
}

func (d *Decoder) open() error {
	if d.depth >= MaxDepth {
		return d.errorf("nesting deeper than " + strconv.Itoa(MaxDepth))
	}
	d.depth++
	d.pos++
	d.first = true
	return nil
}

// NextKey consumes the separator before the next member of the object
// opened by BeginObject and returns the member's key, unescaped. The
// caller then reads or skips the value. At the closing '}' it returns
// ok == false. The key is a view into the input or into a buffer of the
// Decoder, valid only until the next call on the Decoder.
//
// Duplicate keys are not detected: each member is seen in order, and what
// a repeated key means is up to the caller.
func (d *Decoder) NextKey() (key []byte, ok bool, err error) {
	if ok, err := d.next('}'); !ok || err != nil {
		return nil, false, err
	}
	key, err = d.ReadStringBytes()
	if err != nil {
		return nil, false, err
	}
	d.skipSpace()
	if d.pos >= len(d.data) || d.data[d.pos] != ':' {
		return nil, false, d.unexpected("':'")
	}
	d.pos++
	return key, true, nil
}

// NextElem consumes the separator before the next element of the array
// opened by BeginArray and reports whether there is one; the caller then
// reads or skips it. At the closing ']' it returns false.
func (d *Decoder) NextElem() (ok bool, err error) {
	return d.next(']')
}

// next consumes the closing byte (reporting false) or, after the first
// member, the comma before the next one.
func (d *Decoder) next(closing byte) (bool, error) {
	d.skipSpace()
	if d.pos < len(d.data) && d.data[d.pos] == closing {
		d.pos++
		d.depth--
		d.first = false
		return false, nil
	}
	if d.first {
		d.first = false
		return true, nil
	}
	if d.pos < len(d.data) && d.data[d.pos] == ',' {
		d.pos++
		d.skipSpace()
		return true, nil
	}
	return false, d.unexpected("',' or " + strconv.QuoteRune(rune(closing)))
}

// Skip consumes the next value, checking its syntax.
func (d *Decoder) Skip() error {
	d.skipSpace()
	return d.skipValue()
}

// ReadRaw consumes the next value, checking its syntax, and returns its
// exact bytes (a view into the input).
func (d *Decoder) ReadRaw() ([]byte, error) {
	d.skipSpace()
	start := d.pos
	if err := d.skipValue(); err != nil {
		return nil, err
	}
	return d.data[start:d.pos], nil
}

// skipValue consumes the value at d.pos. It recurses once per level of
// nesting, which MaxDepth bounds.
func (d *Decoder) skipValue() error {
	if d.pos >= len(d.data) {
		return d.unexpected("value")
	}
	switch c := d.data[d.pos]; c {
	case '"':
		_, _, err := d.scanString()
		return err
	case 't':
		return d.literal("true")
	case 'f':
		return d.literal("false")
	case 'n':
		return d.literal("null")
	case '{':
		if err := d.open(); err != nil {
			return err
		}
		for {
			_, ok, err := d.nextRawKey()
			if err != nil || !ok {
				return err
			}
			d.skipSpace()
			if err := d.skipValue(); err != nil {
				return err
			}
		}
	case '[':
		if err := d.open(); err != nil {
			return err
		}
		for {
			ok, err := d.next(']')
			if err != nil || !ok {
				return err
			}
			if err := d.skipValue(); err != nil {
				return err
			}
		}
	default:
		if c == '-' || (c >= '0' && c <= '9') {
			return d.scanNumber()
		}
		return d.unexpected("value")
	}
}

// nextRawKey is NextKey without unescaping: it returns the key's bytes
// between the quotes as they are in the input.
func (d *Decoder) nextRawKey() (raw []byte, ok bool, err error) {
	if ok, err := d.next('}'); !ok || err != nil {
		return nil, false, err
	}
	raw, _, err = d.scanString()
	if err != nil {
		return nil, false, err
	}
	d.skipSpace()
	if d.pos >= len(d.data) || d.data[d.pos] != ':' {
		return nil, false, d.unexpected("':'")
	}
	d.pos++
	return raw, true, nil
}
