package runtime

import (
	"encoding/json"
	"testing"
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
