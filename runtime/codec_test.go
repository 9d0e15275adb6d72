package runtime

import (
	"bytes"
	"encoding/json"
	"testing"
	"unicode/utf8"
)

func TestTransportHelpers(t *testing.T) {
	params := json.RawMessage(`{"_meta":{"io.modelcontextprotocol/protocolVersion":"1999-01-01"},"name":"get_weather","uri":"file:///x"}`)
	if v, ok := claimedVersion(params); !ok || v != "1999-01-01" {
		t.Errorf("claimedVersion = %q, %v", v, ok)
	}
	if _, ok := claimedVersion(json.RawMessage(`{"_meta":{}}`)); ok {
		t.Error("claimedVersion without a version must report false")
	}
	for _, tt := range []struct {
		params string
		want   string
		ok     bool
	}{
		{`{"name":"x","_meta":{"a":[1,{"b":2}],"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}`, "2026-07-28", true},
		{`{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026\u002d07-28"}}`, "2026-07-28", true},
		{`{"_meta":{"io.modelcontextprotocol/protocolVersion":20260728}}`, "", false},
		{`{"_meta":"2026-07-28"}`, "", false},
		{`{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}`, "", false},
		{`[]`, "", false},
		{``, "", false},
	} {
		var params json.RawMessage
		if tt.params != "" {
			params = json.RawMessage(tt.params)
		}
		if v, ok := claimedVersion(params); v != tt.want || ok != tt.ok {
			t.Errorf("claimedVersion(%s) = %q, %v; want %q, %v", tt.params, v, ok, tt.want, tt.ok)
		}
	}
	tests := []struct {
		method string
		want   string
		ok     bool
	}{
		{"tools/call", "get_weather", true},
		{"prompts/get", "get_weather", true},
		{"resources/read", "file:///x", true},
		{"tools/list", "", false},
	}
	for _, tt := range tests {
		if got, ok := requestName(tt.method, params); got != tt.want || ok != tt.ok {
			t.Errorf("requestName(%s) = %q, %v", tt.method, got, ok)
		}
	}
}

func TestAppendContentKinds(t *testing.T) {
	prio := 0.5
	size := int64(12)
	list := []Content{
		ImageContent([]byte{1, 2}, "image/png"),
		AudioContent([]byte{3}, "audio/wav"),
		EmbeddedResource(ResourceContents{URI: "x://a", Text: "t"}),
		ResourceLinkContent(ResourceLink{URI: "x://b", Name: "b", MimeType: "text/plain", Size: &size}),
		{Type: "text", Text: "hi", Annotations: &Annotations{Audience: []string{"user"}, Priority: &prio, LastModified: "2026-01-01T00:00:00Z"}},
	}
	got := appendContentList(nil, list)
	want := `[{"type":"image","data":"AQI=","mimeType":"image/png"},{"type":"audio","data":"Aw==","mimeType":"audio/wav"},
		{"type":"resource","resource":{"uri":"x://a","text":"t"}},{"type":"resource_link","uri":"x://b","name":"b","mimeType":"text/plain","size":12},
		{"type":"text","text":"hi","annotations":{"audience":["user"],"priority":0.5,"lastModified":"2026-01-01T00:00:00Z"}}]`
	jsonEq(t, "content", got, want)
}

// FuzzParseMessage checks that any input is either rejected with a
// JSON-RPC error or parsed into what encoding/json reads from it.
func FuzzParseMessage(f *testing.F) {
	f.Add([]byte(reqLine(1, "tools/call", `"name":"echo","arguments":{"text":"x"}`)))
	f.Add([]byte(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"a"}}`))
	f.Add([]byte(`{"jsonrpc":"2.0","id":"x","result":{}}`))
	f.Add([]byte(`[1]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		req, kind, _, e := parseMessage(data)
		if e != nil {
			if e.Code != CodeParseError && e.Code != CodeInvalidRequest {
				t.Fatalf("unexpected code %d", e.Code)
			}
			// The Decoder also rejects invalid UTF-8, which json.Valid allows.
			if e.Code == CodeParseError && json.Valid(data) && utf8.Valid(data) {
				t.Fatalf("valid JSON reported as a parse error: %q", data)
			}
			return
		}
		var m struct {
			Method string          `json:"method"`
			ID     json.RawMessage `json:"id"`
		}
		if err := json.Unmarshal(data, &m); err != nil {
			t.Fatalf("accepted %q, which encoding/json rejects: %v", data, err)
		}
		if kind != kindResponse && req.Method != m.Method {
			t.Fatalf("method %q, encoding/json reads %q", req.Method, m.Method)
		}
		if kind == kindRequest && !bytes.Equal(req.ID, bytes.TrimSpace(m.ID)) {
			t.Fatalf("id %s, encoding/json reads %s", req.ID, m.ID)
		}
	})
}
