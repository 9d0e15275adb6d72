package runtime

import (
	"encoding/json"
	"testing"
)

func TestTransportHelpers(t *testing.T) {
	params := json.RawMessage(`{"_meta":{"io.modelcontextprotocol/protocolVersion":"1999-01-01"},"name":"get_weather","uri":"file:///x"}`)
	if v, ok := claimedVersion(params); !ok || v != "1999-01-01" {
		t.Errorf("claimedVersion = %q, %v", v, ok)
	}
	if _, ok := claimedVersion(json.RawMessage(`{"_meta":{}}`)); ok {
		t.Error("claimedVersion without a version must report false")
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
