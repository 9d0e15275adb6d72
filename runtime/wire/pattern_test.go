package wire

import (
	"regexp"
	"testing"
)

// patternSeeds are patterns of real specs and patterns that look simple
// but are not (overlapping repeats, case folding, non-ASCII classes), with
// strings near their edges.
var patternSeeds = []struct{ expr, s string }{
	{"^A[0-9]+$", "A1001"},
	{"^A[0-9]+$", "A"},
	{"^A[0-9]+$", "A12x"},
	{"^A[0-9]+$", "1001"},
	{"^[A-Z][0-9]{4}$", "B1234"},
	{"^[A-Z][0-9]{4}$", "B12345"},
	{"^[a-z]{2,3}-\\d{1,4}$", "ab-1"},
	{"^[a-z]{2,3}-\\d{1,4}$", "abcd-1"},
	{"^[a-z]*a$", "aaa"},
	{"^a?a$", "a"},
	{"^[0-9]*[0-9]$", "12"},
	{"^(?i)abc$", "ABC"},
	{"^[^a]+$", "ébc"},
	{"^\\w+$", "é"},
	{"^ab+c?$", "abbb"},
	{"^$", ""},
	{"^$", "\n"},
	{"^a$", "a\n"},
	{"A[0-9]+", "xA1y"},
	{"^[\\-.]+x{0}$", "-.-"},
	{"^x{2,}y*$", "xxxyy"},
	{"^[a-c]+\\.[a-c]+$", "ab.c"},
	{"^a|b$", "b"},
	{"(?m)^a$", "b\na"},
}

func TestPatternMatchesLikeRegexp(t *testing.T) {
	for _, c := range patternSeeds {
		want := regexp.MustCompile(c.expr).MatchString(c.s)
		if got := MustCompilePattern(c.expr).MatchString(c.s); got != want {
			t.Errorf("%q on %q: %v, regexp says %v", c.expr, c.s, got, want)
		}
	}
}

// TestPatternSimple pins which patterns take the fast path: those of the
// examples must, and those whose greedy match could differ from regexp's
// must not.
func TestPatternSimple(t *testing.T) {
	for expr, want := range map[string]bool{
		"^A[0-9]+$":             true,
		"^[A-Z][0-9]{4}$":       true,
		"^[a-z]{2,3}-\\d{1,4}$": true,
		"^[a-z0-9_-]{1,64}$":    true,
		"^[a-z]*a$":             false, // the repeat could take the final a
		"^[0-9]*[0-9]?x$":       false,
		"^(?i)abc$":             false,
		"^[^a]+$":               false, // matches non-ASCII runes
		"A[0-9]+":               false, // unanchored
		"^a|b$":                 false,
		"^(ab)+$":               false,
		"^.+$":                  false,
		"^[a-z]+(?:-[a-z]+)*$":  false,
		"^x?[0-9]*x$":           false, // x? could be skipped, then x
	} {
		_, got := simpleSteps(expr)
		if got != want {
			t.Errorf("%q: simple=%v, want %v", expr, got, want)
		}
	}
}

func TestPatternAllocations(t *testing.T) {
	p := MustCompilePattern("^[a-z]{2,3}-\\d{1,4}$")
	if n := testing.AllocsPerRun(100, func() { p.MatchString("ab-123") }); n != 0 {
		t.Errorf("%v allocations", n)
	}
}

// FuzzPattern: on any valid pattern and any string, Pattern agrees with
// regexp (the fast path is only taken when it is exact).
func FuzzPattern(f *testing.F) {
	for _, c := range patternSeeds {
		f.Add(c.expr, c.s)
	}
	f.Fuzz(func(t *testing.T, expr, s string) {
		re, err := regexp.Compile(expr)
		if err != nil {
			return
		}
		if got, want := MustCompilePattern(expr).MatchString(s), re.MatchString(s); got != want {
			t.Fatalf("%q on %q: %v, regexp says %v", expr, s, got, want)
		}
	})
}

func BenchmarkPattern(b *testing.B) {
	for _, impl := range []struct {
		name  string
		match func(string) bool
	}{
		{"regexp", regexp.MustCompile("^A[0-9]+$").MatchString},
		{"Pattern", MustCompilePattern("^A[0-9]+$").MatchString},
	} {
		b.Run(impl.name, func(b *testing.B) {
			for b.Loop() {
				impl.match("A1234567")
			}
		})
	}
}
