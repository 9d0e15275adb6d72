package wire

import (
	"math"
	"math/big"
	"math/rand/v2"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestRuneCountAndKindName(t *testing.T) {
	if n := RuneCount("aé😀"); n != 3 {
		t.Errorf("RuneCount = %d, want 3 code points", n)
	}
	names := map[JSONKind]string{KindNull: "null", KindBool: "boolean", KindNumber: "number",
		KindString: "string", KindArray: "array", KindObject: "object", KindInvalid: "invalid"}
	for k, want := range names {
		if got := KindName(k); got != want {
			t.Errorf("KindName(%d) = %q, want %q", k, got, want)
		}
	}
}

// checkFormat runs a format checker over cases taken in good part from the
// JSON Schema test suite (draft 2020-12, optional/format).
func checkFormat(t *testing.T, name string, fn func(string) bool, cases map[string]bool) {
	t.Helper()
	for in, want := range cases {
		if got := fn(in); got != want {
			t.Errorf("%s(%q) = %v, want %v", name, in, got, want)
		}
	}
}

func TestIsDate(t *testing.T) {
	checkFormat(t, "IsDate", IsDate, map[string]bool{
		"1963-06-19": true, "2020-01-31": true, "2020-01-32": false, "2021-02-28": true,
		"2021-02-29": false, "2020-02-29": true, "2000-02-29": true, "1900-02-29": false,
		"2020-03-31": true, "2020-04-30": true, "2020-04-31": false, "2020-12-31": true,
		"2020-13-01": false, "2020-00-01": false, "2020-01-00": false, "06/19/1963": false,
		"2013-350": false, "1998-1-20": false, "1998-01-1": false, "1998-13-01": false,
		"1998-04-31": false, "1963-06-1\u09ea": false, "20230328": false, "2023-W01": false,
		"2023-W13-2": false, "2022W527": false, "": false, "2020-01-01T00:00:00Z": false,
	})
}

func TestIsDateTime(t *testing.T) {
	checkFormat(t, "IsDateTime", IsDateTime, map[string]bool{
		"1963-06-19T08:30:06.283185Z":         true,
		"1963-06-19T08:30:06Z":                true,
		"1937-01-01T12:00:27.87+00:20":        true,
		"1990-12-31T15:59:50.123-08:00":       true,
		"1998-12-31T23:59:60Z":                true,
		"1998-12-31T15:59:60.123-08:00":       false,
		"1998-12-31T23:59:61Z":                false,
		"1998-12-31T23:58:60Z":                false,
		"1998-12-31T22:59:60Z":                false,
		"1998-12-31T23:59:60+01:00":           false,
		"1999-01-01T00:59:60+01:00":           false,
		"1998-12-31T23:59:60+00:00":           true,
		"1998-12-31T23:59:60-00:00":           true,
		"1998-12-31t23:59:60.5z":              true,
		"1990-02-31T15:59:59.123-08:00":       false,
		"1990-12-31T15:59:59-24:00":           false,
		"1990-12-31T15:59:59-23:60":           false,
		"1963-06-19T08:30:06.28123+01:00Z":    false,
		"06/19/1963 08:30:06 PST":             false,
		"1963-06-19t08:30:06.283185z":         true,
		"2013-350T01:01:01":                   false,
		"1963-6-19T08:30:06.283185Z":          false,
		"1963-06-1\u09eaT00:00:00Z":           false,
		"1963-06-11T0\u09ea:00:00Z":           false,
		"1963-06-19T08:30:06":                 false,
		"1963-06-19T08:30:06.Z":               false,
		"1963-06-19 08:30:06Z":                false,
		"1963-06-19T24:00:00Z":                false,
		"1963-06-19T08:60:00Z":                false,
		"1963-06-19T08:30:06+0100":            false,
		"1963-06-19T08:30:06.123456789+05:30": true,
		"":                                    false,
	})
}

func TestIsEmail(t *testing.T) {
	checkFormat(t, "IsEmail", IsEmail, map[string]bool{
		"joe.bloggs@example.com":                   true,
		"2962":                                     false,
		"te~st@example.com":                        true,
		"~test@example.com":                        true,
		"test~@example.com":                        true,
		`"joe bloggs"@example.com`:                 false,
		`"joe..bloggs"@example.com`:                false,
		`"joe@bloggs"@example.com`:                 false,
		"joe.bloggs@[127.0.0.1]":                   false,
		"joe.bloggs@[IPv6:::1]":                    false,
		"joe.bloggs@[ipv6:::1]":                    false,
		"joe.bloggs@[ipv4:127.0.0.1]":              false,
		".test@example.com":                        false,
		"test.@example.com":                        false,
		"te.s.t@example.com":                       true,
		"te..st@example.com":                       false,
		"joe.bloggs@invalid=domain.com":            false,
		"joe.bloggs@[127.0.0.300]":                 false,
		"user@localhost":                           false,
		"@example.com":                             false,
		"user@":                                    false,
		"user@-example.com":                        false,
		"user@exa_mple.com":                        false,
		"us er@example.com":                        false,
		"user@[IPv6:1::2::3]":                      false,
		"user@[::1]":                               false,
		`"unterminated@example.com`:                false,
		"very.common+tag@sub.example.co":           true,
		`"a\"b"@example.com`:                       false,
		`"a\` + "\x01" + `"@example.com`:           false,
		`"a` + "\x7f" + `"@example.com`:            false,
		`"a\"@example.com`:                         false,
		`"@example.com`:                            false,
		"user@[IPv6:127.0.0.1]":                    false,
		"user@[1.2.3.4":                            false,
		"user@" + strings.Repeat("a", 64) + ".com": false,
		strings.Repeat("a", 65) + "@example.com":   false,
		// What the official TypeScript client's validator (ajv-formats)
		// also rejects, so the server never echoes it back.
		"ops@localhost":            false,
		"a@b":                      false,
		`""@iana.org`:              false,
		"x@[IPv6:::1]":             false,
		"josé@example.com":         false,
		"a@b.c":                    true,
		"test@255.255.255.255":     true,
		"test@c--n.com":            true,
		"o'brien+ops@help-desk.io": true,
	})
}

func TestIsURI(t *testing.T) {
	checkFormat(t, "IsURI", IsURI, map[string]bool{
		"http://foo.bar/?baz=qux#quux":                        true,
		"http://foo.com/blah_(wikipedia)_blah#cite-1":         true,
		"http://foo.bar/?q=Test%20URL-encoded%20stuff":        true,
		"http://xn--nw2a.xn--j6w193g/":                        true,
		"http://-.~_!$&'()*+,;=:%40:80%2f::::::@example.com":  true,
		"http://223.255.255.254":                              true,
		"ftp://ftp.is.co.za/rfc/rfc1808.txt":                  true,
		"http://www.ietf.org/rfc/rfc2396.txt":                 true,
		"ldap://[2001:db8::7]/c=GB?objectClass?one":           true,
		"mailto:John.Doe@example.com":                         true,
		"news:comp.infosystems.www.servers.unix":              true,
		"tel:+1-816-555-1212":                                 true,
		"about:":                                              false,
		"x:?q":                                                false,
		"x:#f":                                                false,
		"x:/":                                                 true,
		"urn:oasis:names:specification:docbook:dtd:xml:4.1.2": true,
		"https://example.com:8443/a/b?c#d":                    true,
		"http://[v7.abc]/":                                    true,
		"//foo.bar/?baz=qux#quux":                             false,
		"/abc":                                                false,
		`\\WINDOWS\fileshare`:                                 false,
		"abc":                                                 false,
		"http:// shouldfail.com":                              false,
		":// should fail":                                     false,
		"bar,baz:foo":                                         false,
		"https://[@example.org/test.txt":                      false,
		"https://example.org/foobar\\.txt":                    false,
		"https://example.org/foobar<>.txt":                    false,
		"https://example.org/foobar{}.txt":                    false,
		"https://example.org/foobar^.txt":                     false,
		"https://example.org/foobar`.txt":                     false,
		"https://example.org/foo bar.txt":                     false,
		"https://example.org/foobar|.txt":                     false,
		"http://example.com/%zz":                              false,
		"http://example.com:80a/":                             false,
		"http://[::1%25eth0]/":                                false,
		"1http://example.com":                                 false,
		"http://ex\u00e4mple.com":                             false,
		"http://example.com/#frag#again":                      false,
	})
}

func TestIsUUID(t *testing.T) {
	checkFormat(t, "IsUUID", IsUUID, map[string]bool{
		"2EB8AA08-AA98-11EA-B4AA-73B441D16380":   true,
		"2eb8aa08-aa98-11ea-b4aa-73b441d16380":   true,
		"2eb8aa08-AA98-11ea-B4Aa-73B441D16380":   true,
		"00000000-0000-0000-0000-000000000000":   true,
		"2eb8aa08-aa98-11ea-b4aa-73b441d1638":    false,
		"2eb8aa08-aa98-11ea-73b441d16380":        false,
		"2eb8aa08-aa98-11ea-b4ga-73b441d16380":   false,
		"2eb8aa08aa9811eab4aa73b441d16380":       false,
		"2eb8aa08aa98-11ea-b4aa73b441d16380":     false,
		"2eb8-aa08-aa98-11ea-b4aa73b44d16380":    false,
		"{2eb8aa08-aa98-11ea-b4aa-73b441d16380}": false,
	})
}

func TestIsMultipleOf(t *testing.T) {
	tests := []struct {
		v, m float64
		want bool
	}{
		{0.3, 0.1, true},
		{0.7, 0.1, true},
		{0.35, 0.1, false},
		{10, 0.01, true},
		{19.99, 0.01, true},
		{19.999, 0.01, false},
		{0.0075, 0.0001, true},
		{0.075, 0.0001, true},
		{4.5, 1.5, true},
		{4.6, 1.5, false},
		{1.1, 0.5, false},
		{7, 2, false},
		{8, 2, true},
		{-9, 3, true},
		{-0.3, 0.1, true},
		{0, 0.1, true},
		{1e308, 1e-308, true},
		{1e-7, 1e-8, true},
		{1e-8, 1e-7, false},
		{12.5, 0.5, true},
		{1e20, 3, false},
		{3e20, 3, true},
		{9007199254740993, 1, true}, // rounds to 2^53, an integer
		{5, 0, false},
		{5, -1, false},
		{math.NaN(), 1, false},
		{math.Inf(1), 1, false},
		{1, math.Inf(1), false},
	}
	for _, tt := range tests {
		if got := IsMultipleOf(tt.v, tt.m); got != tt.want {
			t.Errorf("IsMultipleOf(%v, %v) = %v, want %v", tt.v, tt.m, got, tt.want)
		}
	}
	if n := testing.AllocsPerRun(100, func() { IsMultipleOf(19.99, 0.01) }); n != 0 {
		t.Errorf("IsMultipleOf allocates %v times", n)
	}
}

func TestEqualJSON(t *testing.T) {
	tests := []struct {
		a, b string
		want bool
	}{
		{`1`, `1.0`, true},
		{`1`, `1e0`, true},
		{`100`, `1e2`, true},
		{`0.1`, `1e-1`, true},
		{`-0`, `0`, true},
		{`0.0`, `-0e5`, true},
		{`1`, `2`, false},
		{`1`, `-1`, false},
		{`12345678901234567890`, `12345678901234567891`, false},
		{`12345678901234567890`, `1.2345678901234567890e19`, true},
		{`"a"`, `"a"`, true},
		{`"\u0061"`, `"a"`, true},
		{`"a"`, `"b"`, false},
		{`"1"`, `1`, false},
		{`true`, `true`, true},
		{`true`, `false`, false},
		{`null`, `null`, true},
		{`null`, `false`, false},
		{`[1,[2,{"a":3}]]`, ` [ 1.0 , [ 2 , { "a" : 3e0 } ] ] `, true},
		{`[1,2]`, `[2,1]`, false},
		{`[1,2]`, `[1,2,3]`, false},
		{`[]`, `{}`, false},
		{`{"a":1,"b":[true]}`, `{"b":[true],"a":1}`, true},
		{`{"a":1}`, `{"a":1,"b":2}`, false},
		{`{"a":1,"b":2}`, `{"a":1}`, false},
		{`{"a":1}`, `{"b":1}`, false},
		{`{"a\/b":1}`, `{"a/b":1.0}`, true},
		{`{}`, `{}`, true},
		{`[`, `[`, false},
		{`1 2`, `1 2`, false},
		{``, ``, false},
	}
	for _, tt := range tests {
		if got := EqualJSON([]byte(tt.a), []byte(tt.b)); got != tt.want {
			t.Errorf("EqualJSON(%s, %s) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
		if got := EqualJSON([]byte(tt.b), []byte(tt.a)); got != tt.want {
			t.Errorf("EqualJSON(%s, %s) = %v, want %v", tt.b, tt.a, got, tt.want)
		}
	}
}

// TestIsMultipleOfMatchesExactArithmetic compares IsMultipleOf with exact
// rational arithmetic on the decimal texts a schema and an input would
// hold (up to 15 significant digits, which float64 keeps exactly).
func TestIsMultipleOfMatchesExactArithmetic(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	decimalText := func(digits int64, exp int) string {
		return strconv.FormatInt(digits, 10) + "e" + strconv.Itoa(exp)
	}
	for range 20000 {
		m := decimalText(1+r.Int64N(999), r.IntN(12)-8)
		var v string
		if r.IntN(2) == 0 {
			// A true multiple, often with a quotient float division gets wrong.
			mr, _ := new(big.Rat).SetString(m)
			q := new(big.Rat).Mul(mr, big.NewRat(r.Int64N(1e6), 1))
			v = q.FloatString(12)
		} else {
			v = decimalText(r.Int64N(1e12), r.IntN(12)-8)
		}
		vr, _ := new(big.Rat).SetString(v)
		mr, _ := new(big.Rat).SetString(m)
		want := new(big.Rat).Quo(vr, mr).IsInt()
		vf, _ := strconv.ParseFloat(v, 64)
		mf, _ := strconv.ParseFloat(m, 64)
		if got := IsMultipleOf(vf, mf); got != want {
			t.Fatalf("IsMultipleOf(%s, %s) = %v, exact arithmetic says %v", v, m, got, want)
		}
	}
}

// FuzzCheckers checks that the format checkers never panic and agree with
// the standard library's parsers where those are at least as strict.
func FuzzCheckers(f *testing.F) {
	for _, s := range []string{"2020-02-29", "1998-12-31T23:59:60Z", "1963-06-19t08:30:06.283185z",
		"a@b.c", `"x y"@[IPv6:::1]`, "http://[::1]:80/p?q#f", "urn:x", "2eb8aa08-aa98-11ea-b4aa-73b441d16380"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if IsDate(s) {
			if _, err := time.Parse(time.DateOnly, s); err != nil {
				t.Fatalf("IsDate(%q) but time.Parse: %v", s, err)
			}
		}
		if IsDateTime(s) && !strings.Contains(s, ":60") {
			if _, err := time.Parse(time.RFC3339Nano, strings.ToUpper(s)); err != nil {
				t.Fatalf("IsDateTime(%q) but time.Parse: %v", s, err)
			}
		}
		if IsURI(s) {
			// net/url is stricter about hosts than RFC 3986 (it rejects
			// %00), so only its verdict on the scheme is compared.
			if strings.ContainsAny(s, " \t\n<>\"{}|\\^`") {
				t.Fatalf("IsURI(%q) accepts a character that must be percent-encoded", s)
			}
			if u, err := url.Parse(s); err == nil && u.Scheme == "" {
				t.Fatalf("IsURI(%q) but url.Parse finds no scheme", s)
			}
		}
		if IsUUID(s) && len(s) != 36 {
			t.Fatalf("IsUUID(%q)", s)
		}
		if IsEmail(s) {
			// The forms the official clients' validators reject never pass.
			at := strings.LastIndexByte(s, '@')
			if at < 0 || strings.ContainsAny(s, "\"[]() ,;:<>\\") || !strings.Contains(s[at+1:], ".") || strings.HasSuffix(s, ".") {
				t.Fatalf("IsEmail(%q) accepts a form the clients reject", s)
			}
			for i := 0; i < len(s); i++ {
				if s[i] >= 0x80 || s[i] <= 0x20 {
					t.Fatalf("IsEmail(%q) accepts byte %#x", s, s[i])
				}
			}
		}
	})
}
