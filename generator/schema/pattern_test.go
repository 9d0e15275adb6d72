package schema

import (
	"regexp"
	"testing"
)

func TestPublishedPattern(t *testing.T) {
	tests := []struct{ in, want string }{
		{`^[a-zA-Z0-9_\-\:]+$`, `^[\-0-:A-Z_a-z]+$`},
		{`^\d{3}-\d{4}$`, `^[0-9]{3}-[0-9]{4}$`},
		{`^a.b$`, `^a[^\n]b$`},
		{`(?s)a.b`, `a[\s\S]b`},
		{`(?i)ab`, `[Aa][Bb]`},
		{`^\s*$`, `^[\x09\x0A\x0C\x0D ]*$`},
		{`a|bc`, `a|bc`},
		{`x(?:a|b)y`, `x[ab]y`}, {`x(?:ab|cd)y`, `x(?:ab|cd)y`},
		{`(ab)+?`, `(ab)+?`},
		{`a{2,}b{1,3}`, `a{2,}b{1,3}`},
		{`[^"]`, `[^"]`},
		{`\/\.`, `\/\.`},
		{`\Aab\z`, `^ab$`},
		{`é+`, `é+`},
	}
	for _, tt := range tests {
		got, ok := PublishedPattern(tt.in)
		if !ok || got != tt.want {
			t.Errorf("PublishedPattern(%q) = %q, %v; want %q", tt.in, got, ok, tt.want)
		}
	}
	for _, bad := range []string{`(?m)^a$`, `[`, `\pL`} {
		if got, ok := PublishedPattern(bad); ok && len(got) < 100 {
			t.Errorf("PublishedPattern(%q) = %q, want none", bad, got)
		}
	}
}

// FuzzPublishedPattern: the translation compiles in RE2 and matches the
// same strings as the original.
func FuzzPublishedPattern(f *testing.F) {
	for _, s := range [][2]string{
		{`^[a-zA-Z0-9_\-\:]+$`, "ab_-:9"}, {`(?i)straße`, "STRASSE"}, {`a.b`, "a\rb"},
		{`[^\d\s]+`, "x y"}, {`(a|b)*?c{2}`, "abcc"}, {`\bfoo\B`, "foob"}, {`[\x00-\x1f]`, "\x01"},
		{`(?s:.)+`, "\n"}, {`[[:alpha:]]+`, "abc"}, {`(?i)[k-m]`, "\u212a"},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, pattern, s string) {
		orig, err := regexp.Compile(pattern)
		if err != nil {
			return
		}
		out, ok := PublishedPattern(pattern)
		if !ok {
			return
		}
		tr, err := regexp.Compile(out)
		if err != nil {
			t.Fatalf("%q → %q does not compile: %v", pattern, out, err)
		}
		if a, b := orig.MatchString(s), tr.MatchString(s); a != b {
			t.Fatalf("%q → %q: on %q the original says %v, the translation %v", pattern, out, s, a, b)
		}
	})
}
