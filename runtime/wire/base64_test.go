package wire

import (
	"bytes"
	"encoding/base64"
	"testing"
)

func TestParseBase64(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []byte
		ok   bool
	}{
		{"aGVsbG8=", []byte("hello"), true},
		{"", []byte{}, true},
		{"+/8=", []byte{0xfb, 0xff}, true},
		{"aGVs\nbG8=", []byte("hello"), true}, // as encoding/json
		{"aGVsbG8", nil, false},               // no padding
		{"-_8=", nil, false},                  // URL-safe alphabet
		{"not base64!", nil, false},
	} {
		got, ok := ParseBase64(tc.in)
		if ok != tc.ok || !bytes.Equal(got, tc.want) || ok && got == nil {
			t.Errorf("ParseBase64(%q) = %q, %v; want %q, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
	if s := FormatBase64([]byte("hello")); s != "aGVsbG8=" {
		t.Errorf("FormatBase64 = %q", s)
	}
}

// FuzzParseBase64 holds ParseBase64 to encoding/base64's standard
// encoding, and FormatBase64 to ParseBase64.
func FuzzParseBase64(f *testing.F) {
	for _, s := range []string{"aGVsbG8=", "", "+/8=", "aGVsbG8", "-_8=", "YQ==\r\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, ok := ParseBase64(s)
		want, err := base64.StdEncoding.DecodeString(s)
		if ok != (err == nil) || ok && !bytes.Equal(got, want) {
			t.Fatalf("ParseBase64(%q) = %q, %v; encoding/base64 %q, %v", s, got, ok, want, err)
		}
		if !ok {
			return
		}
		back, ok := ParseBase64(FormatBase64(got))
		if !ok || !bytes.Equal(back, got) {
			t.Fatalf("%q does not round-trip: %q", s, back)
		}
	})
}
