package wire

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
)

// stdString is encoding/json's encoding of s with HTML escaping off, the
// reference AppendString must match byte for byte.
func stdString(t testing.TB, s string) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		t.Fatal(err)
	}
	return strings.TrimSuffix(buf.String(), "\n")
}

func TestAppendString(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", `""`},
		{"plain", `"plain"`},
		{`q"b\`, `"q\"b\\"`},
		{"\b\f\n\r\t", `"\b\f\n\r\t"`},
		{"\x00\x01\x1f\x7f", `"\u0000\u0001\u001f` + "\x7f" + `"`},
		{"<a&b>", `"<a&b>"`},
		{"é😀", `"é😀"`},
		{"\u2028\u2029", `"\u2028\u2029"`},
		{"a\xffb", `"a\ufffdb"`},
		{"\xed\xa0\x80", `"\ufffd\ufffd\ufffd"`}, // encoded surrogate: three bad bytes
		{"\xc3", `"\ufffd"`},
	}
	for _, tt := range tests {
		if got := string(AppendString(nil, tt.in)); got != tt.want {
			t.Errorf("AppendString(%q) = %s, want %s", tt.in, got, tt.want)
		}
		if std := stdString(t, tt.in); std != tt.want {
			t.Errorf("encoding/json writes %q as %s, the test expects %s", tt.in, std, tt.want)
		}
	}
	if got := string(AppendString([]byte("x:"), "y")); got != `x:"y"` {
		t.Errorf("AppendString does not append: %s", got)
	}
}

// randomString draws from the byte and rune classes that matter to a JSON
// string encoder.
func randomString(r *rand.Rand) string {
	pieces := []string{"a", "Z", " ", `"`, `\`, "/", "<", "\x00", "\x1f", "\x7f", "\n", "é", "€", "😀",
		"\u2028", "\u2029", "\xff", "\xc3", "\xe2\x82", "\xed\xa0\x80", "\U0010FFFF", "\ufffd"}
	var b strings.Builder
	for n := r.IntN(12); n > 0; n-- {
		if r.IntN(4) == 0 {
			b.WriteByte(byte(r.IntN(256)))
		} else {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
	}
	return b.String()
}

func TestAppendStringMatchesEncodingJSON(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		s := randomString(r)
		if got, want := string(AppendString(nil, s)), stdString(t, s); got != want {
			t.Fatalf("AppendString(%q) = %s, encoding/json = %s", s, got, want)
		}
	}
}

func TestAppendFloat(t *testing.T) {
	tests := []struct {
		in   float64
		want string
	}{
		{0, "0"},
		{math.Copysign(0, -1), "-0"},
		{1, "1"},
		{-1.5, "-1.5"},
		{0.1, "0.1"},
		{1e6, "1000000"},
		{1e20, "100000000000000000000"},
		{1e21, "1e+21"},
		{1e-6, "0.000001"},
		{1e-7, "1e-7"},
		{1.5e-10, "1.5e-10"},
		{123456789e-15, "1.23456789e-7"},
		{math.MaxFloat64, "1.7976931348623157e+308"},
		{math.SmallestNonzeroFloat64, "5e-324"},
		{math.NaN(), "null"},
		{math.Inf(1), "null"},
		{math.Inf(-1), "null"},
	}
	for _, tt := range tests {
		if got := string(AppendFloat(nil, tt.in)); got != tt.want {
			t.Errorf("AppendFloat(%v) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

func TestAppendFloatMatchesEncodingJSON(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	check := func(f float64) {
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return
		}
		want, err := json.Marshal(f)
		if err != nil {
			t.Fatal(err)
		}
		if got := AppendFloat(nil, f); !bytes.Equal(got, want) {
			t.Fatalf("AppendFloat(%v) = %s, encoding/json = %s", f, got, want)
		}
	}
	for range 50000 {
		check(math.Float64frombits(r.Uint64()))                     // any bit pattern
		check(float64(r.Int64N(1e6)) * math.Pow10(r.IntN(60)-30))   // decimal-looking values
		check(math.Pow10(r.IntN(44)-22) * (1 + float64(r.IntN(9)))) // near the notation switch
	}
}

func TestAppendIntBoolRawBase64(t *testing.T) {
	if got := string(AppendInt(nil, math.MinInt64)); got != "-9223372036854775808" {
		t.Errorf("AppendInt(MinInt64) = %s", got)
	}
	if got := string(AppendBool(AppendBool(nil, true), false)); got != "truefalse" {
		t.Errorf("AppendBool = %s", got)
	}
	if got := string(AppendRawOrNull(nil, nil)); got != "null" {
		t.Errorf("AppendRawOrNull(nil) = %s", got)
	}
	if got := string(AppendRawOrNull(nil, []byte(`{"a":1}`))); got != `{"a":1}` {
		t.Errorf("AppendRawOrNull = %s", got)
	}
	for _, data := range [][]byte{nil, {0}, {0xff, 0xfe}, []byte("hello world!")} {
		want, _ := json.Marshal(data)
		if data == nil {
			want = []byte(`""`) // a nil slice is no data, not null, here
		}
		got := AppendBase64(nil, data)
		if !bytes.Equal(got, want) {
			t.Errorf("AppendBase64(%x) = %s, want %s", data, got, want)
		}
		var back string
		if err := json.Unmarshal(got, &back); err != nil {
			t.Fatal(err)
		}
		if dec, _ := base64.StdEncoding.DecodeString(back); !bytes.Equal(dec, data) {
			t.Errorf("AppendBase64(%x) does not round-trip", data)
		}
	}
}

func TestEncodersDoNotAllocate(t *testing.T) {
	buf := make([]byte, 0, 256)
	allocs := testing.AllocsPerRun(100, func() {
		b := AppendString(buf[:0], "order \"A1001\"\n€")
		b = AppendFloat(b, 12.75)
		b = AppendFloat(b, 1e-9)
		b = AppendInt(b, -42)
		b = AppendBool(b, true)
		b = AppendBase64(b, []byte("abc"))
		_ = b
	})
	if allocs != 0 {
		t.Errorf("encoders allocate %v times into a large enough buffer", allocs)
	}
}

func FuzzAppendString(f *testing.F) {
	for _, s := range []string{"", "a", "\"\\", "\x00\x1f", "é😀", "\u2028", "\xff\xfe", "\xed\xa0\x80"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := AppendString(nil, s)
		if want := stdString(t, s); string(got) != want {
			t.Fatalf("AppendString(%q) = %s, encoding/json = %s", s, got, want)
		}
		var back string
		if err := json.Unmarshal(got, &back); err != nil {
			t.Fatalf("AppendString(%q) = %s, which encoding/json cannot read: %v", s, got, err)
		}
		if utf8.ValidString(s) && back != s {
			t.Fatalf("round trip of %q = %q", s, back)
		}
		// Each bad byte becomes its own U+FFFD; ToValidUTF8 merges runs.
		if want := strings.ToValidUTF8(s, "\ufffd"); mergeReplacement(back) != mergeReplacement(want) {
			t.Fatalf("round trip of %q = %q, want %q up to runs of U+FFFD", s, back, want)
		}
		var d Decoder
		d.Reset(got)
		ours, err := d.ReadString()
		if err != nil || ours != back {
			t.Fatalf("Decoder reads %s as %q, %v; encoding/json as %q", got, ours, err, back)
		}
	})
}

// mergeReplacement collapses runs of U+FFFD into one.
func mergeReplacement(s string) string {
	for strings.Contains(s, "\ufffd\ufffd") {
		s = strings.ReplaceAll(s, "\ufffd\ufffd", "\ufffd")
	}
	return s
}

func BenchmarkAppendString(b *testing.B) {
	s := "order \"A1001\" for Zoë, shipped <today>\n"
	buf := make([]byte, 0, 128)
	b.ReportAllocs()
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		buf = AppendString(buf[:0], s)
	}
}

func BenchmarkAppendFloat(b *testing.B) {
	buf := make([]byte, 0, 64)
	b.ReportAllocs()
	for b.Loop() {
		buf = AppendFloat(buf[:0], 1234.5678)
		buf = AppendFloat(buf, 1e-9)
	}
}

func BenchmarkAppendInt(b *testing.B) {
	buf := make([]byte, 0, 64)
	b.ReportAllocs()
	for b.Loop() {
		buf = AppendInt(buf[:0], -9876543210)
	}
}
