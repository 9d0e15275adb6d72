package wire

import (
	"encoding/json"
	"testing"
)

func TestRawReaders(t *testing.T) {
	tests := []struct {
		raw       string
		kind      JSONKind
		str       string
		strMsg    string
		integer   int64
		intMsg    string
		float     float64
		floatMsg  string
		boolean   bool
		boolMsg   string
		objectMsg string
	}{
		{raw: `"a\u00e9"`, kind: KindString, str: "aé", intMsg: MsgType("integer", KindString), floatMsg: MsgType("number", KindString), boolMsg: MsgType("boolean", KindString), objectMsg: MsgType("object", KindString)},
		{raw: ` 12 `, kind: KindNumber, strMsg: MsgType("string", KindNumber), integer: 12, float: 12, boolMsg: MsgType("boolean", KindNumber), objectMsg: MsgType("object", KindNumber)},
		{raw: `1.0`, kind: KindNumber, strMsg: MsgType("string", KindNumber), integer: 1, float: 1, boolMsg: MsgType("boolean", KindNumber), objectMsg: MsgType("object", KindNumber)},
		{raw: `1.5`, kind: KindNumber, strMsg: MsgType("string", KindNumber), intMsg: MsgNotInteger, float: 1.5, boolMsg: MsgType("boolean", KindNumber), objectMsg: MsgType("object", KindNumber)},
		{raw: `1e400`, kind: KindNumber, strMsg: MsgType("string", KindNumber), intMsg: MsgOutOfRange, floatMsg: MsgOutOfRange, boolMsg: MsgType("boolean", KindNumber), objectMsg: MsgType("object", KindNumber)},
		{raw: `true`, kind: KindBool, strMsg: MsgType("string", KindBool), intMsg: MsgType("integer", KindBool), floatMsg: MsgType("number", KindBool), boolean: true, objectMsg: MsgType("object", KindBool)},
		{raw: `null`, kind: KindNull, strMsg: MsgType("string", KindNull), intMsg: MsgType("integer", KindNull), floatMsg: MsgType("number", KindNull), boolMsg: MsgType("boolean", KindNull), objectMsg: MsgType("object", KindNull)},
		{raw: `{"a":1}`, kind: KindObject, strMsg: MsgType("string", KindObject), intMsg: MsgType("integer", KindObject), floatMsg: MsgType("number", KindObject), boolMsg: MsgType("boolean", KindObject)},
		{raw: `[1]`, kind: KindArray, strMsg: MsgType("string", KindArray), intMsg: MsgType("integer", KindArray), floatMsg: MsgType("number", KindArray), boolMsg: MsgType("boolean", KindArray), objectMsg: MsgType("object", KindArray)},
		{raw: ``, kind: KindInvalid, strMsg: MsgType("string", KindInvalid), intMsg: MsgType("integer", KindInvalid), floatMsg: MsgType("number", KindInvalid), boolMsg: MsgType("boolean", KindInvalid), objectMsg: MsgType("object", KindInvalid)},
	}
	for _, tt := range tests {
		b := []byte(tt.raw)
		if k := RawKind(b); k != tt.kind {
			t.Errorf("RawKind(%s) = %v, want %v", tt.raw, k, tt.kind)
		}
		if s, msg := RawString(b); s != tt.str || msg != tt.strMsg {
			t.Errorf("RawString(%s) = %q, %q; want %q, %q", tt.raw, s, msg, tt.str, tt.strMsg)
		}
		if x, msg := RawInt(b); x != tt.integer || msg != tt.intMsg {
			t.Errorf("RawInt(%s) = %d, %q; want %d, %q", tt.raw, x, msg, tt.integer, tt.intMsg)
		}
		if x, msg := RawFloat(b); x != tt.float || msg != tt.floatMsg {
			t.Errorf("RawFloat(%s) = %v, %q; want %v, %q", tt.raw, x, msg, tt.float, tt.floatMsg)
		}
		if x, msg := RawBool(b); x != tt.boolean || msg != tt.boolMsg {
			t.Errorf("RawBool(%s) = %v, %q; want %v, %q", tt.raw, x, msg, tt.boolean, tt.boolMsg)
		}
		if msg := RawOfKind(b, "object", KindObject); msg != tt.objectMsg {
			t.Errorf("RawOfKind(%s, object) = %q, want %q", tt.raw, msg, tt.objectMsg)
		}
	}
}

// FuzzRawReaders holds the Raw readers to encoding/json on any bytes: a
// reader that reports no violation returns the value encoding/json
// decodes, for the values a Decoder reads without a syntax error.
func FuzzRawReaders(f *testing.F) {
	for _, s := range []string{`"x"`, `12`, `1.5`, `-0`, `1e400`, `true`, `null`, `{}`, `[]`, `"\ud800"`, ``, `tru`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if !json.Valid(b) {
			RawKind(b)
			RawString(b)
			RawInt(b)
			RawFloat(b)
			RawBool(b)
			return // no panic is all that is asked of invalid bytes
		}
		var v any
		if err := json.Unmarshal(b, &v); err != nil {
			return
		}
		if s, msg := RawString(b); msg == "" {
			if w, ok := v.(string); !ok || w != s {
				t.Errorf("RawString(%q) = %q, encoding/json %#v", b, s, v)
			}
		}
		if x, msg := RawFloat(b); msg == "" {
			if w, ok := v.(float64); !ok || w != x {
				t.Errorf("RawFloat(%q) = %v, encoding/json %#v", b, x, v)
			}
		}
		if x, msg := RawInt(b); msg == "" {
			if w, ok := v.(float64); !ok || w != float64(x) {
				t.Errorf("RawInt(%q) = %v, encoding/json %#v", b, x, v)
			}
		}
		if x, msg := RawBool(b); msg == "" {
			if w, ok := v.(bool); !ok || w != x {
				t.Errorf("RawBool(%q) = %v, encoding/json %#v", b, x, v)
			}
		}
	})
}
