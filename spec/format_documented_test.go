package spec

import "testing"

func TestDocumentedFormatOK(t *testing.T) {
	for _, tc := range []struct {
		format, v string
		ok        bool
	}{
		{"duration", "P1D", true},
		{"duration", "PT36H", true},
		{"duration", "P3Y6M4DT12H30M5S", true},
		{"duration", "P2W", true},
		{"duration", "P", false},
		{"duration", "PT", false},
		{"duration", "P1DT", false},
		{"duration", "P1W2D", false},
		{"duration", "1D", false},
		{"duration", "TBD", false},
		{"duration", "P1H", false},
		{"json-pointer", "", true},
		{"json-pointer", "/", true},
		{"json-pointer", "/a~0b/c~1d/0", true},
		{"json-pointer", "#/foo", false},
		{"json-pointer", "/a~2", false},
		{"json-pointer", "/a~", false},
		{"relative-json-pointer", "0", true},
		{"relative-json-pointer", "1/a", true},
		{"relative-json-pointer", "2#", true},
		{"relative-json-pointer", "01", false},
		{"relative-json-pointer", "/a", false},
		{"ipv4", "192.168.0.1", true},
		{"ipv4", "256.1.1.1", false},
		{"ipv4", "::1", false},
		{"ipv6", "::1", true},
		{"ipv6", "fe80::1%eth0", false},
		{"ipv6", "1.2.3.4", false},
		{"byte", "aGVsbG8=", true},
		{"byte", "", true},
		{"byte", "hello", false},
		{"color", "anything", true},
	} {
		if got := documentedFormatOK(tc.format, tc.v); got != tc.ok {
			t.Errorf("%s %q: got %v, want %v", tc.format, tc.v, got, tc.ok)
		}
	}
}
