package wire

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"math/bits"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
	"unsafe"
)

// decodeAny walks the next value with the Decoder's typed readers into the
// shapes encoding/json produces for an `any`, so the two can be compared.
func decodeAny(d *Decoder) (any, error) {
	switch d.Peek() {
	case KindNull:
		return nil, d.ReadNull()
	case KindBool:
		return d.ReadBool()
	case KindNumber:
		return d.ReadFloat()
	case KindString:
		return d.ReadString()
	case KindArray:
		if err := d.BeginArray(); err != nil {
			return nil, err
		}
		list := []any{}
		for {
			ok, err := d.NextElem()
			if err != nil {
				return nil, err
			}
			if !ok {
				return list, nil
			}
			v, err := decodeAny(d)
			if err != nil {
				return nil, err
			}
			list = append(list, v)
		}
	case KindObject:
		if err := d.BeginObject(); err != nil {
			return nil, err
		}
		obj := map[string]any{}
		for {
			key, ok, err := d.NextKey()
			if err != nil {
				return nil, err
			}
			if !ok {
				return obj, nil
			}
			k := string(key)
			v, err := decodeAny(d)
			if err != nil {
				return nil, err
			}
			obj[k] = v
		}
	}
	// Let Skip report the syntax error at this byte.
	if err := d.Skip(); err != nil {
		return nil, err
	}
	return nil, errors.New("Peek said invalid but Skip succeeded")
}

func decodeAll(data []byte) (any, error) {
	var d Decoder
	d.Reset(data)
	v, err := decodeAny(&d)
	if err != nil {
		return nil, err
	}
	return v, d.End()
}

func skipAll(data []byte) error {
	var d Decoder
	d.Reset(data)
	if err := d.Skip(); err != nil {
		return err
	}
	return d.End()
}

// jsonCorpus mixes valid and invalid documents; each is checked against
// encoding/json.
var jsonCorpus = []string{
	`null`, `true`, `false`, `0`, `-0`, `1`, `-1`, `12.5`, `1e10`, `1E+2`, `1e-2`, `-0.0e-0`,
	`123456789012345678901234567890`, `""`, `"abc"`, `"\u00e9\n\t\"\\\/\b\f\r"`,
	`"\ud83d\ude00"`, `"\ud83d"`, `"\ude00x"`, `"\ud83d\u0041"`, `"é😀"`,
	`[]`, `[1]`, `[1,2,3]`, `[ 1 , [ 2 , [ ] ] , { } ]`, `{}`, `{"a":1}`, `{"a":{"b":[true,false,null]}}`,
	` { "a" : 1 , "b" : "x" } `, "\t\n\r [1]\n", `{"a":1,"a":2}`, `{"":0}`, `{"a\u0062":"c"}`,
	// invalid
	``, ` `, `nul`, `nulll`, `tru`, `True`, `01`, `-`, `-a`, `1.`, `.5`, `1e`, `1e+`, `+1`, `0x10`,
	`NaN`, `Infinity`, `"abc`, `"\x"`, `"\u12"`, `"\u12g4"`, "\"\x01\"", "\"a\tb\"", `[`, `[1`, `[1,`,
	`[1,]`, `[,1]`, `[1 2]`, `]`, `{`, `{"a"}`, `{"a":}`, `{"a":1,}`, `{,"a":1}`, `{"a" 1}`, `{a:1}`,
	`{"a":1 "b":2}`, `{1:2}`, `[1]]`, `{}}`, `1 2`, `[1}`, `{"a":1]`, `"a" "b"`, `[][]`, `/**/1`,
}

func TestDecoderMatchesEncodingJSON(t *testing.T) {
	for _, doc := range jsonCorpus {
		data := []byte(doc)
		valid := json.Valid(data)
		if err := skipAll(data); (err == nil) != valid {
			t.Errorf("Skip(%q): err = %v, json.Valid = %v", doc, err, valid)
		}
		var d Decoder
		d.Reset(data)
		raw, err := d.ReadRaw()
		if err == nil {
			err = d.End()
		}
		if (err == nil) != valid {
			t.Errorf("ReadRaw(%q): err = %v, json.Valid = %v", doc, err, valid)
		} else if valid && !bytes.Equal(raw, bytes.TrimSpace(data)) {
			t.Errorf("ReadRaw(%q) = %q", doc, raw)
		}
		got, err := decodeAll(data)
		var want any
		wantErr := json.Unmarshal(data, &want)
		if (err == nil) != (wantErr == nil) {
			t.Errorf("decode(%q): err = %v, encoding/json err = %v", doc, err, wantErr)
			continue
		}
		if err == nil && !reflect.DeepEqual(got, want) {
			t.Errorf("decode(%q) = %#v, encoding/json = %#v", doc, got, want)
		}
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) || se.Offset < 0 || se.Offset > len(data) {
				t.Errorf("decode(%q): error %v is not a *SyntaxError with an offset in the input", doc, err)
			}
		}
	}
}

func TestInvalidUTF8IsSyntaxError(t *testing.T) {
	for _, doc := range []string{"\"\xff\"", "\"a\xc3\"", "\"\xed\xa0\x80\"", "{\"\xff\":1}"} {
		if err := skipAll([]byte(doc)); err == nil {
			t.Errorf("Skip(%q) accepted invalid UTF-8", doc)
		}
		if _, err := decodeAll([]byte(doc)); err == nil {
			t.Errorf("decode(%q) accepted invalid UTF-8", doc)
		}
	}
}

func TestSyntaxErrorOffset(t *testing.T) {
	tests := []struct {
		doc    string
		offset int
		msg    string
	}{
		{`{"a":1,}`, 7, `unexpected '}', expected string`},
		{`[1 2]`, 3, `unexpected '2', expected ',' or ']'`},
		{`"a` + "\x01" + `"`, 2, "control character in string"},
		{`[tru]`, 4, `unexpected ']', expected "true"`},
		{`[1,`, 3, "unexpected end of input, expected value"},
	}
	for _, tt := range tests {
		err := skipAll([]byte(tt.doc))
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("Skip(%q) = %v, want *SyntaxError", tt.doc, err)
			continue
		}
		if se.Offset != tt.offset || se.Msg != tt.msg {
			t.Errorf("Skip(%q) = offset %d %q, want offset %d %q", tt.doc, se.Offset, se.Msg, tt.offset, tt.msg)
		}
	}
	want := `invalid JSON at offset 3: unexpected '2', expected ',' or ']'`
	if err := skipAll([]byte(`[1 2]`)); err.Error() != want {
		t.Errorf("Error() = %q, want %q", err, want)
	}
}

func TestReadString(t *testing.T) {
	tests := []struct{ in, want string }{
		{`""`, ""},
		{`"plain"`, "plain"},
		{`"\"\\\/\b\f\n\r\t"`, "\"\\/\b\f\n\r\t"},
		{`"\u0041\u00e9\u20AC"`, "Aé€"},
		{`"\ud83d\ude00"`, "😀"},
		{`"\ud83d"`, "\ufffd"},              // lone high surrogate
		{`"\ude00"`, "\ufffd"},              // lone low surrogate
		{`"\ud83dx"`, "\ufffdx"},            // high surrogate then text
		{`"\ud83d\u0041"`, "\ufffdA"},       // high surrogate then non-surrogate
		{`"\ud83d\ud83d\ude00"`, "\ufffd😀"}, // second one pairs
		{`"a\u0000b"`, "a\x00b"},
		{`"é😀 "`, "é😀 "},
	}
	for _, tt := range tests {
		var d Decoder
		d.Reset([]byte(tt.in))
		got, err := d.ReadString()
		if err != nil || got != tt.want {
			t.Errorf("ReadString(%s) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
		var want string
		if err := json.Unmarshal([]byte(tt.in), &want); err != nil || want != got {
			t.Errorf("ReadString(%s) = %q, encoding/json says %q", tt.in, got, want)
		}
		d.Reset([]byte(tt.in))
		b, err := d.ReadStringBytes()
		if err != nil || string(b) != tt.want {
			t.Errorf("ReadStringBytes(%s) = %q, %v; want %q", tt.in, b, err, tt.want)
		}
		d.Reset([]byte(tt.in))
		v, err := d.ReadStringView()
		if err != nil || v != tt.want {
			t.Errorf("ReadStringView(%s) = %q, %v; want %q", tt.in, v, err, tt.want)
		}
	}
}

func TestReadStringBytesIsViewWithoutEscapes(t *testing.T) {
	data := []byte(` "hello" `)
	var d Decoder
	d.Reset(data)
	b, err := d.ReadStringBytes()
	if err != nil || string(b) != "hello" {
		t.Fatalf("ReadStringBytes = %q, %v", b, err)
	}
	if &b[0] != &data[2] {
		t.Error("ReadStringBytes copied a string without escapes")
	}
	d.Reset(data)
	v, err := d.ReadStringView()
	if err != nil || v != "hello" {
		t.Fatalf("ReadStringView = %q, %v", v, err)
	}
	if unsafe.StringData(v) != &data[2] {
		t.Error("ReadStringView copied a string without escapes")
	}
}

// TestReadStringViewOwnsEscapedStrings: an escaped string is unescaped
// into memory of its own, which the Decoder does not reuse.
func TestReadStringViewOwnsEscapedStrings(t *testing.T) {
	var d Decoder
	d.Reset([]byte(`"a\nb"`))
	first, err := d.ReadStringView()
	if err != nil {
		t.Fatal(err)
	}
	d.Reset([]byte(`"c\td"`))
	second, err := d.ReadStringView()
	if err != nil || first != "a\nb" || second != "c\td" {
		t.Errorf("ReadStringView read %q, then %q, %v", first, second, err)
	}
}

func TestReadInt(t *testing.T) {
	tests := []struct {
		in   string
		want int64
		err  error
	}{
		{"0", 0, nil},
		{"-0", 0, nil},
		{"42", 42, nil},
		{"-42", -42, nil},
		{"1.0", 1, nil},
		{"1.000", 1, nil},
		{"1e2", 100, nil},
		{"1E+2", 100, nil},
		{"12.50e1", 125, nil},
		{"0.1e1", 1, nil},
		{"1500e-3", 0, ErrNotInteger},
		{"1500e-2", 15, nil},
		{"0.0e5", 0, nil},
		{"0e-999999999999999999999", 0, nil},
		{"9223372036854775807", 9223372036854775807, nil},
		{"-9223372036854775808", -9223372036854775808, nil},
		{"9223372036854775808", 0, ErrOutOfRange},
		{"-9223372036854775809", 0, ErrOutOfRange},
		{"9.223372036854775807e18", 9223372036854775807, nil},
		{"1e19", 0, ErrOutOfRange},
		{"1e18", 1000000000000000000, nil},
		{"18446744073709551616", 0, ErrOutOfRange},
		{"1e999999999999999999999", 0, ErrOutOfRange},
		{"1.5", 0, ErrNotInteger},
		{"-0.5", 0, ErrNotInteger},
		{"1e-1", 0, ErrNotInteger},
		{"1e-400", 0, ErrNotInteger},
		{"1.5e400", 0, ErrOutOfRange},
		{"000", 0, nil}, // Decoder reads "0"; the trailing zeros are the caller's syntax error
	}
	for _, tt := range tests {
		var d Decoder
		d.Reset([]byte(tt.in))
		got, err := d.ReadInt()
		if got != tt.want || !errors.Is(err, tt.err) {
			t.Errorf("ReadInt(%s) = %d, %v; want %d, %v", tt.in, got, err, tt.want, tt.err)
		}
	}
}

func TestNumberErrorsLeaveDecoderUsable(t *testing.T) {
	var d Decoder
	d.Reset([]byte(`[1.5, 1e400, 99999999999999999999, 7]`))
	if err := d.BeginArray(); err != nil {
		t.Fatal(err)
	}
	var got []string
	for {
		ok, err := d.NextElem()
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			break
		}
		n, err := d.ReadInt()
		switch {
		case errors.Is(err, ErrNotInteger):
			got = append(got, "not integer")
		case errors.Is(err, ErrOutOfRange):
			got = append(got, "out of range")
		case err != nil:
			t.Fatal(err)
		default:
			got = append(got, string(AppendInt(nil, n)))
		}
	}
	if err := d.End(); err != nil {
		t.Fatal(err)
	}
	want := []string{"not integer", "out of range", "out of range", "7"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
	d.Reset([]byte(`[1e400, 2.5]`))
	_ = d.BeginArray()
	_, _ = d.NextElem()
	if _, err := d.ReadFloat(); !errors.Is(err, ErrOutOfRange) {
		t.Errorf("ReadFloat(1e400) = %v, want ErrOutOfRange", err)
	}
	_, _ = d.NextElem()
	if f, err := d.ReadFloat(); f != 2.5 || err != nil {
		t.Errorf("ReadFloat after out of range = %v, %v", f, err)
	}
}

func TestReadersRejectWrongKind(t *testing.T) {
	var d Decoder
	var se *SyntaxError
	d.Reset([]byte(`"1"`))
	if _, err := d.ReadInt(); !errors.As(err, &se) {
		t.Errorf("ReadInt on a string = %v, want *SyntaxError", err)
	}
	d.Reset([]byte(`1`))
	if _, err := d.ReadString(); !errors.As(err, &se) {
		t.Errorf("ReadString on a number = %v, want *SyntaxError", err)
	}
	d.Reset([]byte(`null`))
	if _, err := d.ReadBool(); !errors.As(err, &se) {
		t.Errorf("ReadBool on null = %v, want *SyntaxError", err)
	}
	d.Reset([]byte(`[]`))
	if err := d.BeginObject(); !errors.As(err, &se) {
		t.Errorf("BeginObject on an array = %v, want *SyntaxError", err)
	}
	d.Reset([]byte(`{}`))
	if err := d.BeginArray(); !errors.As(err, &se) {
		t.Errorf("BeginArray on an object = %v, want *SyntaxError", err)
	}
	if ErrNotInteger.Error() != "number is not an integer" || ErrOutOfRange.Error() != "number is out of range" {
		t.Error("number errors lost their text")
	}
}

func TestPeek(t *testing.T) {
	tests := map[string]JSONKind{
		` null`: KindNull, "\ttrue": KindBool, `false`: KindBool, `-1`: KindNumber, `0`: KindNumber,
		`"s"`: KindString, `[`: KindArray, `{`: KindObject, ``: KindInvalid, `   `: KindInvalid,
		`,`: KindInvalid, `]`: KindInvalid, `x`: KindInvalid, `+1`: KindInvalid,
	}
	for in, want := range tests {
		var d Decoder
		d.Reset([]byte(in))
		if got := d.Peek(); got != want {
			t.Errorf("Peek(%q) = %v, want %v", in, got, want)
		}
	}
}

func TestObjectWalk(t *testing.T) {
	var d Decoder
	d.Reset([]byte(` { "a\u0062" : 1 , "c" : [ true , {"d":null} ] , "e":"x" } `))
	if err := d.BeginObject(); err != nil {
		t.Fatal(err)
	}
	var keys []string
	for {
		key, ok, err := d.NextKey()
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			break
		}
		keys = append(keys, string(key))
		if string(key) == "ab" {
			if n, err := d.ReadInt(); n != 1 || err != nil {
				t.Fatalf("ReadInt = %d, %v", n, err)
			}
			continue
		}
		if err := d.Skip(); err != nil {
			t.Fatal(err)
		}
	}
	if err := d.End(); err != nil {
		t.Fatal(err)
	}
	if want := []string{"ab", "c", "e"}; !reflect.DeepEqual(keys, want) {
		t.Errorf("keys = %q, want %q", keys, want)
	}
	if d.Offset() != len(d.data) {
		t.Errorf("Offset = %d after End, want %d", d.Offset(), len(d.data))
	}
}

func TestEndRejectsUnclosedContainer(t *testing.T) {
	var d Decoder
	d.Reset([]byte(`{"a":1`))
	_ = d.BeginObject()
	_, _, _ = d.NextKey()
	_, _ = d.ReadInt()
	if err := d.End(); err == nil {
		t.Error("End accepted an unclosed object")
	}
}

func TestMaxDepth(t *testing.T) {
	nested := func(n int) []byte {
		return []byte(strings.Repeat("[", n) + strings.Repeat("]", n))
	}
	if err := skipAll(nested(MaxDepth)); err != nil {
		t.Errorf("Skip at MaxDepth: %v", err)
	}
	if _, err := decodeAll(nested(MaxDepth)); err != nil {
		t.Errorf("decode at MaxDepth: %v", err)
	}
	var se *SyntaxError
	if err := skipAll(nested(MaxDepth + 1)); !errors.As(err, &se) || se.Offset != MaxDepth {
		t.Errorf("Skip beyond MaxDepth = %v, want a syntax error at offset %d", err, MaxDepth)
	}
	if _, err := decodeAll(nested(MaxDepth + 1)); err == nil {
		t.Error("decode beyond MaxDepth succeeded")
	}
	deepObj := []byte(strings.Repeat(`{"a":`, MaxDepth+1) + "1" + strings.Repeat("}", MaxDepth+1))
	if err := skipAll(deepObj); err == nil {
		t.Error("Skip accepted objects nested beyond MaxDepth")
	}
}

// checkValidity is the property FuzzDecoder checks: whatever the input, the
// Decoder agrees with encoding/json on validity (except where it is
// stricter on purpose: invalid UTF-8 and nesting beyond MaxDepth), ReadRaw
// returns the document, and a typed walk yields what json.Unmarshal does.
func checkValidity(t *testing.T, data []byte) {
	valid := json.Valid(data)
	skipErr := skipAll(data)
	var se *SyntaxError
	tooDeep := errors.As(skipErr, &se) && strings.HasPrefix(se.Msg, "nesting deeper")
	switch {
	case skipErr == nil && !valid:
		t.Fatalf("Skip accepted %q, which encoding/json rejects", data)
	case skipErr != nil && valid && utf8.Valid(data) && !tooDeep:
		t.Fatalf("Skip rejected %q, which encoding/json accepts: %v", data, skipErr)
	case skipErr != nil && !errors.As(skipErr, &se):
		t.Fatalf("Skip(%q) returned %T, want *SyntaxError", data, skipErr)
	}
	var d Decoder
	d.Reset(data)
	raw, err := d.ReadRaw()
	if err == nil {
		err = d.End()
	}
	if (err == nil) != (skipErr == nil) {
		t.Fatalf("ReadRaw(%q) err = %v, Skip err = %v", data, err, skipErr)
	}
	if err == nil && !bytes.Equal(raw, bytes.Trim(data, " \t\r\n")) {
		t.Fatalf("ReadRaw(%q) = %q", data, raw)
	}
	if EqualJSON(data, data) != (skipErr == nil) {
		t.Fatalf("EqualJSON(%q, itself) = %v, Skip err = %v", data, !(skipErr == nil), skipErr)
	}
	got, err := decodeAll(data)
	if skipErr != nil {
		if err == nil {
			t.Fatalf("typed walk accepted %q, which Skip rejects", data)
		}
		return
	}
	var want any
	wantErr := json.Unmarshal(data, &want)
	if (err == nil) != (wantErr == nil) {
		t.Fatalf("typed walk of %q: err = %v, encoding/json: %v", data, err, wantErr)
	}
	if err == nil && !reflect.DeepEqual(got, want) {
		t.Fatalf("typed walk of %q = %#v, encoding/json = %#v", data, got, want)
	}
}

func FuzzDecoder(f *testing.F) {
	for _, doc := range jsonCorpus {
		f.Add([]byte(doc))
	}
	f.Fuzz(checkValidity)
}

// limits is shaped like a generated input type with no string or slice
// fields, so decoding it must not allocate at all.
type limits struct {
	Limit   int64
	Ratio   float64
	Express bool
	Nested  struct{ Min, Max int64 }
}

// decodeLimits is written the way the generator emits decoders: Peek, typed
// read, Paths on the stack, Errors only touched on the error path.
func decodeLimits(d *Decoder, p *Path, v *limits, e *Errors) error {
	if k := d.Peek(); k != KindObject {
		e.Add(p, MsgType("object", k))
		return d.Skip()
	}
	if err := d.BeginObject(); err != nil {
		return err
	}
	var seenLimit bool
	for {
		key, ok, err := d.NextKey()
		if err != nil {
			return err
		}
		if !ok {
			break
		}
		switch string(key) {
		case "limit":
			c := p.Child("limit")
			seenLimit = true
			if err := readInt(d, &c, &v.Limit, e); err != nil {
				return err
			}
			if v.Limit > 50 {
				e.Add(&c, MsgMaximum(50))
			}
		case "ratio":
			if k := d.Peek(); k != KindNumber {
				c := p.Child("ratio")
				e.Add(&c, MsgType("number", k))
				if err := d.Skip(); err != nil {
					return err
				}
				continue
			}
			f, err := d.ReadFloat()
			if err != nil {
				return err
			}
			v.Ratio = f
		case "express":
			if k := d.Peek(); k != KindBool {
				c := p.Child("express")
				e.Add(&c, MsgType("boolean", k))
				if err := d.Skip(); err != nil {
					return err
				}
				continue
			}
			b, err := d.ReadBool()
			if err != nil {
				return err
			}
			v.Express = b
		case "nested":
			c := p.Child("nested")
			if err := d.BeginObject(); err != nil {
				return err
			}
			for {
				key, ok, err := d.NextKey()
				if err != nil {
					return err
				}
				if !ok {
					break
				}
				cc := c.Child(string(key))
				switch string(key) {
				case "min":
					err = readInt(d, &cc, &v.Nested.Min, e)
				case "max":
					err = readInt(d, &cc, &v.Nested.Max, e)
				default:
					e.Add(&cc, MsgUnknownProperty)
					err = d.Skip()
				}
				if err != nil {
					return err
				}
			}
		default:
			c := p.Child(string(key))
			e.Add(&c, MsgUnknownProperty)
			if err := d.Skip(); err != nil {
				return err
			}
		}
	}
	if !seenLimit {
		c := p.Child("limit")
		e.Add(&c, MsgRequired)
	}
	return nil
}

func readInt(d *Decoder, p *Path, dst *int64, e *Errors) error {
	if k := d.Peek(); k != KindNumber {
		e.Add(p, MsgType("integer", k))
		return d.Skip()
	}
	n, err := d.ReadInt()
	switch {
	case errors.Is(err, ErrNotInteger):
		e.Add(p, MsgNotInteger)
	case errors.Is(err, ErrOutOfRange):
		e.Add(p, MsgOutOfRange)
	case err != nil:
		return err
	default:
		*dst = n
	}
	return nil
}

const limitsJSON = `{"limit": 20, "ratio": 0.25, "express": true, "nested": {"min": 1.0, "max": 1e2}}`

func TestGeneratedStyleDecodeDoesNotAllocate(t *testing.T) {
	data := []byte(limitsJSON)
	var d Decoder
	var e Errors
	var v limits
	allocs := testing.AllocsPerRun(100, func() {
		d.Reset(data)
		e.Reset()
		var root Path
		if err := decodeLimits(&d, &root, &v, &e); err != nil {
			t.Fatal(err)
		}
		if err := d.End(); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Errorf("decoding valid input allocates %v times, want 0", allocs)
	}
	if e.Err() != nil || v.Limit != 20 || v.Ratio != 0.25 || !v.Express || v.Nested.Min != 1 || v.Nested.Max != 100 {
		t.Errorf("decoded %+v, errors %v", v, e.Err())
	}
}

func TestGeneratedStyleDecodeReportsEveryViolation(t *testing.T) {
	var d Decoder
	var e Errors
	var v limits
	d.Reset([]byte(`{"ratio": "x", "nested": {"min": 1.5, "max": 1e30, "a/b": 0}, "extra": [1], "express": null}`))
	var root Path
	if err := decodeLimits(&d, &root, &v, &e); err != nil {
		t.Fatal(err)
	}
	want := "invalid arguments: /ratio: must be a number, not a string; /nested/min: must be an integer; " +
		"/nested/max: is out of range; /nested/a~1b: is not allowed; /extra: is not allowed; " +
		"/express: must be a boolean, not null; /limit: is required"
	if err := e.Err(); err == nil || err.Error() != want {
		t.Errorf("errors:\n%v\nwant\n%s", err, want)
	}
}

func BenchmarkDecodeGeneratedStyle(b *testing.B) {
	data := []byte(limitsJSON)
	var d Decoder
	var e Errors
	var v limits
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		d.Reset(data)
		var root Path
		if err := decodeLimits(&d, &root, &v, &e); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDecodeKeysAndNumbers(b *testing.B) {
	data := []byte(`{"a":1,"b":-2.5e3,"c":true,"d":null,"e":[1,2,3,4,5,6,7,8],"f":{"g":12345678}}`)
	var d Decoder
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		d.Reset(data)
		if err := d.Skip(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkReadInt(b *testing.B) {
	data := []byte(`1234567`)
	var d Decoder
	b.ReportAllocs()
	for b.Loop() {
		d.Reset(data)
		if _, err := d.ReadInt(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkReadFloat(b *testing.B) {
	data := []byte(`-1234.5678e-3`)
	var d Decoder
	b.ReportAllocs()
	for b.Loop() {
		d.Reset(data)
		if _, err := d.ReadFloat(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkReadStringEscaped(b *testing.B) {
	data := []byte(`"order \"A1001\" \u00e9\ud83d\ude00 shipped\n"`)
	var d Decoder
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		d.Reset(data)
		if _, err := d.ReadString(); err != nil {
			b.Fatal(err)
		}
	}
}

func TestStringReadsAllocateOnlyTheResult(t *testing.T) {
	data := []byte(`{"k\u00e9y": "v\u00e9lue", "plain": "text"}`)
	var d Decoder
	keys := testing.AllocsPerRun(100, func() {
		d.Reset(data)
		_ = d.BeginObject()
		for {
			_, ok, err := d.NextKey()
			if err != nil {
				t.Fatal(err)
			}
			if !ok {
				break
			}
			if _, err := d.ReadStringBytes(); err != nil {
				t.Fatal(err)
			}
		}
	})
	if keys != 0 {
		t.Errorf("escaped keys and ReadStringBytes allocate %v times once the Decoder is warm", keys)
	}
	str := testing.AllocsPerRun(100, func() {
		d.Reset(data[13:])
		if s, err := d.ReadString(); err != nil || s != "vélue" {
			t.Fatal(s, err)
		}
	})
	if str != 1 {
		t.Errorf("ReadString of an escaped string allocates %v times, want 1", str)
	}
}

// TestSpecial8: the 8-bytes-at-a-time test finds the same first byte that
// ends a run of plain string bytes as the byte-wise one, for every byte
// value at every position and for random words.
func TestSpecial8(t *testing.T) {
	first := func(b []byte) int {
		for i, c := range b {
			if c == '"' || c == '\\' || c < 0x20 || c >= 0x80 {
				return i
			}
		}
		return 8
	}
	check := func(b []byte) {
		m := special8(binary.LittleEndian.Uint64(b))
		if got, want := bits.TrailingZeros64(m)>>3, first(b); got != want {
			t.Fatalf("% x: first special byte %d, want %d", b, got, want)
		}
	}
	for pos := range 8 {
		for c := range 256 {
			b := []byte("abcdefgh")
			b[pos] = byte(c)
			check(b)
			b[(pos+3)%8] = 0x1f
			check(b)
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 100000 {
		b := binary.LittleEndian.AppendUint64(nil, r.Uint64())
		for i := range b {
			if r.IntN(2) == 0 {
				b[i] &= 0x7f // mostly ASCII, so that plain words occur
			}
		}
		check(b)
	}
}

// TestReadStringShared: the strings of a small document share one block;
// each keeps its own bytes while later ones are read, escaped or not, and
// a document too large for one block still reads every string right.
func TestReadStringShared(t *testing.T) {
	long := strings.Repeat("x", 300)
	for _, doc := range []string{
		`["A1001","d\u00e9fectueux \u2713","","k","a\"b"]`,
		`["` + long + `","A1","\n` + long + `","z"]`,
	} {
		var want []string
		if err := json.Unmarshal([]byte(doc), &want); err != nil {
			t.Fatal(err)
		}
		var d Decoder
		d.Reset([]byte(doc))
		if err := d.BeginArray(); err != nil {
			t.Fatal(err)
		}
		var got []string
		for {
			ok, err := d.NextElem()
			if err != nil {
				t.Fatal(err)
			}
			if !ok {
				break
			}
			s, err := d.ReadString()
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, s)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: got %q", doc, got)
		}
	}
	var d Decoder
	doc := []byte(`["A1001","reason","key"]`)
	n := testing.AllocsPerRun(20, func() {
		d.Reset(doc)
		_ = d.BeginArray()
		for ok, _ := d.NextElem(); ok; ok, _ = d.NextElem() {
			_, _ = d.ReadString()
		}
	})
	if n != 1 {
		t.Errorf("%v allocations for three strings, want 1", n)
	}
}
