package surface

import "testing"

// TestEscape: property names become JSON Pointer segments and back
// (RFC 6901 section 4: "~01" decodes to "~1", never to "/").
func TestEscape(t *testing.T) {
	for _, c := range []struct{ name, seg string }{
		{"plain", "plain"},
		{"a/b", "a~1b"},
		{"a~b", "a~0b"},
		{"~1", "~01"},
		{"/~", "~1~0"},
		{"", ""},
	} {
		if got := escape(c.name); got != c.seg {
			t.Errorf("escape(%q) = %q, want %q", c.name, got, c.seg)
		}
		if got := unescape(c.seg); got != c.name {
			t.Errorf("unescape(%q) = %q, want %q", c.seg, got, c.name)
		}
	}
}
