package spec

import "testing"

// TestPointerToken: names become JSON Pointer reference tokens and back
// (RFC 6901 section 4: "~01" decodes to "~1", never to "/").
func TestPointerToken(t *testing.T) {
	for _, c := range []struct{ name, token string }{
		{"plain", "plain"},
		{"a/b", "a~1b"},
		{"a~b", "a~0b"},
		{"~1", "~01"},
		{"/~", "~1~0"},
		{"", ""},
	} {
		if got := PointerToken(c.name); got != c.token {
			t.Errorf("PointerToken(%q) = %q, want %q", c.name, got, c.token)
		}
		if got := UnescapePointerToken(c.token); got != c.name {
			t.Errorf("UnescapePointerToken(%q) = %q, want %q", c.token, got, c.name)
		}
	}
}
