package runtime

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/mcpgen-dev/mcpgen/runtime/wire"
)

// decodeHeaderTarget feeds the Mcp-Name and Mcp-Param-* comparisons: it
// must read exactly what the dispatcher will read, and reject what is not
// an object.
func TestDecodeHeaderTarget(t *testing.T) {
	str := func(v string, has bool) string {
		if !has {
			return "<nil>"
		}
		return v
	}
	for _, tt := range []struct {
		params         string
		name, uri, arg string
		rejected       bool
	}{
		{params: `{"name":"get","arguments":{"a":1},"_meta":{}}`, name: "get", uri: "<nil>", arg: `{"a":1}`},
		{params: `{"uri":"file:///\u00e9","name":7,"arguments":null}`, name: "<nil>", uri: "file:///é"},
		{params: `{"name":"a","name":"b"}`, name: "b", uri: "<nil>"},
		{params: `{"name":"x",}`, rejected: true},
		{params: `["name"]`, rejected: true},
		{params: `{"name":"x"} {}`, rejected: true},
	} {
		var got headerTarget
		e := decodeHeaderTarget(json.RawMessage(tt.params), &got)
		if (e != nil) != tt.rejected {
			t.Errorf("%s: rejected %v, want %v", tt.params, e != nil, tt.rejected)
			continue
		}
		if tt.rejected {
			continue
		}
		name, uri := str(got.Name, got.HasName), str(got.URI, got.HasURI)
		if name != tt.name || uri != tt.uri || string(got.Arguments) != tt.arg {
			t.Errorf("%s: name %s uri %s arguments %s", tt.params, name, uri, got.Arguments)
		}
	}
}

// clientInfo is decoded without reflection; it must accept and reject what
// the envelope rules say, and keep every member.
func TestDecodeImplementation(t *testing.T) {
	var impl Implementation
	raw := `{"name":"c","title":"C","version":"1","description":"d","websiteUrl":"https://x","icons":[{"src":"https://x/i.png","sizes":["48x48"]}],"extra":{"a":[1]}}`
	if err := decodeImplementation([]byte(raw), &impl); err != nil {
		t.Fatal(err)
	}
	if impl.Name != "c" || impl.Title != "C" || impl.Version != "1" || impl.Description != "d" || impl.WebsiteURL != "https://x" ||
		len(impl.Icons) != 1 || impl.Icons[0].Src != "https://x/i.png" || impl.Icons[0].Sizes[0] != "48x48" {
		t.Errorf("decoded %+v", impl)
	}
	for _, bad := range []string{`{"name":1,"version":"1"}`, `{"icons":{}}`, `{"name":"a",}`, `[]`} {
		if err := decodeImplementation([]byte(bad), &Implementation{}); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
	impl = Implementation{}
	if err := decodeImplementation([]byte(`{"name":null,"version":"1"}`), &impl); err != nil || impl.Name != "" {
		t.Errorf("null name: %v %+v", err, impl)
	}
}

// The dispatcher takes the call target from the transport's scan of
// params instead of decoding them again: it must find exactly what
// decodeTargetParams finds, wrong types and repeated members included.
func TestScanCallTargetMatchesDecode(t *testing.T) {
	for _, params := range []string{
		`{"name":"get","arguments":{"a":1},"_meta":{}}`,
		`{"name":"a","name":"b","arguments":null}`,
		`{"name":"a\u00e9","uri":"file:///x"}`,
		`{"name":7,"requestState":1}`,
		`{"requestState":1,"name":7}`,
		`{"name":"a","name":7}`,
		`{"uri":7,"name":"n"}`,
		`{"name":"n","inputResponses":{"a":{"x":1}},"inputResponses":{"b":2},"requestState":"s"}`,
		`{"name":"n","inputResponses":[],"requestState":"s"}`,
		`{"name":"n","inputResponses":null}`,
		`{"name":"n","inputResponses":{}}`,
		`{}`,
		// Walks that fail: the error must be worded the same.
		``,
		`[]`,
		`"name"`,
		`{"name":`,
		`{"name":"a" "b"}`,
		`{"arguments":{"x":}}`,
	} {
		checkScanCallTarget(t, json.RawMessage(params))
	}
}

func checkScanCallTarget(t *testing.T, params json.RawMessage) {
	t.Helper()
	s := scanParams(params)
	for _, key := range []string{"name", "uri"} {
		got, gotErr := s.callTarget(key)
		want, wantErr := decodeTargetParams(params, key)
		if (gotErr == nil) != (wantErr == nil) || gotErr != nil && *gotErr != *wantErr {
			t.Fatalf("%s, %s: scan error %v, decode error %v", params, key, gotErr, wantErr)
		}
		if gotErr != nil {
			continue
		}
		if got.target != want.target || got.hasTarget != want.hasTarget || string(got.arguments) != string(want.arguments) ||
			!reflect.DeepEqual(got.InputResponses, want.InputResponses) || !reflect.DeepEqual(got.RequestState, want.RequestState) {
			t.Fatalf("%s, %s: scan found %+v, decode %+v", params, key, got, want)
		}
	}
}

// decodeTargetParams is the call-target decoder the runtime had before
// paramScan, a walk of its own over params: the reference that
// checkScanCallTarget holds the scan to.
func decodeTargetParams(params json.RawMessage, targetKey string) (callTarget, *Error) {
	var p callTarget
	var d wire.Decoder
	d.Reset(params)
	var badMember string
	err := forEachMember(&d, func(key []byte) (err error) {
		switch string(key) {
		case targetKey:
			if d.Peek() != wire.KindString {
				badMember = targetKey
				return d.Skip()
			}
			p.target, err = d.ReadString()
			p.hasTarget = true
		case "arguments":
			p.arguments, err = d.ReadRaw()
		case "inputResponses":
			var raw []byte
			if raw, err = d.ReadRaw(); err == nil && string(raw) != "null" {
				if json.Unmarshal(raw, &p.InputResponses) != nil {
					badMember = "inputResponses"
				}
				if p.InputResponses == nil {
					p.InputResponses = map[string]json.RawMessage{}
				}
			}
		case "requestState":
			if d.Peek() != wire.KindString {
				badMember = "requestState"
				return d.Skip()
			}
			var v string
			v, err = d.ReadString()
			p.RequestState = &v
		default:
			err = d.Skip()
		}
		return err
	})
	if err != nil {
		return p, InvalidParams("invalid params: %v", err)
	}
	if badMember != "" {
		return p, InvalidParams("invalid params: %s has the wrong type", badMember)
	}
	p.arguments = nullToNil(p.arguments)
	return p, nil
}
