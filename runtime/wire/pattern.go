package wire

import (
	"regexp"
	"regexp/syntax"
)

// Pattern is the compiled regular expression of a "pattern" keyword. Most
// patterns of real specs are an anchored run of characters and character
// classes, like ^A[0-9]+$ or ^[a-z]{2}-[0-9]{4}$: those are matched by a
// loop over the bytes, several times faster than regexp and without its
// per-call machinery. Any other pattern is matched by regexp. A Pattern is
// never modified after compilation, so generated code keeps one per
// pattern in a package variable.
type Pattern struct {
	expr string
	// re matches when the pattern is not simple (simple is false).
	re *regexp.Regexp
	// steps match the whole string, in order, when simple is true.
	steps  []patternStep
	simple bool
}

// patternStep matches between min and max (max < 0: any number of) bytes
// of the ASCII set, as many as it can. Greedy matching without
// backtracking finds a match exactly when regexp does because a step whose
// count can vary has a set disjoint from every step that could take the
// next byte after it (see simpleSteps).
type patternStep struct {
	set      [2]uint64
	min, max int
}

func (s *patternStep) has(c byte) bool { return c < 0x80 && s.set[c>>6]&(1<<(c&63)) != 0 }

// MustCompilePattern compiles expr with Go's regexp syntax (which is what
// the pattern keyword is checked with) and panics if it is invalid, like
// regexp.MustCompile.
func MustCompilePattern(expr string) *Pattern {
	p := &Pattern{expr: expr}
	if steps, ok := simpleSteps(expr); ok {
		p.steps, p.simple = steps, true
	} else {
		p.re = regexp.MustCompile(expr)
	}
	return p
}

// String returns the source text of the pattern.
func (p *Pattern) String() string { return p.expr }

// MatchString reports whether s contains a match of the pattern, as
// regexp's MatchString does.
func (p *Pattern) MatchString(s string) bool {
	if !p.simple {
		return p.re.MatchString(s)
	}
	i := 0
	for k := range p.steps {
		st := &p.steps[k]
		n := 0
		for i < len(s) && n != st.max && st.has(s[i]) {
			i++
			n++
		}
		if n < st.min {
			return false
		}
	}
	return i == len(s)
}

// simpleSteps turns expr into steps when it is ^, then single ASCII
// characters and ASCII character classes, each optionally repeated (?, *,
// +, {n}, {n,}, {n,m}), then $; and when each step whose count can vary
// has a set disjoint from the sets of the steps after it up to the first
// one that must take at least one byte. Then the greedy loop of
// MatchString is exact: in any match, such a step takes as many bytes as
// it can, since the next byte cannot belong to any step that could take it
// instead. Anything else (case folding, multi-line anchors, non-ASCII
// classes such as [^a], alternation, groups) is left to regexp.
func simpleSteps(expr string) ([]patternStep, bool) {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil || re.Op != syntax.OpConcat || len(re.Sub) < 2 {
		return nil, false
	}
	subs := re.Sub
	if subs[0].Op != syntax.OpBeginText || subs[len(subs)-1].Op != syntax.OpEndText {
		return nil, false
	}
	var steps []patternStep
	for _, sub := range subs[1 : len(subs)-1] {
		min, max, atom := 1, 1, sub
		switch sub.Op {
		case syntax.OpStar:
			min, max, atom = 0, -1, sub.Sub[0]
		case syntax.OpPlus:
			min, max, atom = 1, -1, sub.Sub[0]
		case syntax.OpQuest:
			min, max, atom = 0, 1, sub.Sub[0]
		case syntax.OpRepeat:
			min, max, atom = sub.Min, sub.Max, sub.Sub[0]
		}
		if atom != sub && atom.Op == syntax.OpLiteral && len(atom.Rune) != 1 {
			return nil, false
		}
		switch atom.Op {
		case syntax.OpLiteral:
			if atom.Flags&syntax.FoldCase != 0 {
				return nil, false
			}
			for _, r := range atom.Rune {
				if r >= 0x80 {
					return nil, false
				}
				var st patternStep
				st.set[r>>6] |= 1 << (r & 63)
				st.min, st.max = min, max
				steps = append(steps, st)
			}
		case syntax.OpCharClass:
			var st patternStep
			for i := 0; i+1 < len(atom.Rune); i += 2 {
				lo, hi := atom.Rune[i], atom.Rune[i+1]
				if hi >= 0x80 {
					return nil, false
				}
				for r := lo; r <= hi; r++ {
					st.set[r>>6] |= 1 << (r & 63)
				}
			}
			st.min, st.max = min, max
			steps = append(steps, st)
		default:
			return nil, false
		}
	}
	for i, st := range steps {
		if st.min == st.max {
			continue
		}
		for _, next := range steps[i+1:] {
			if st.set[0]&next.set[0] != 0 || st.set[1]&next.set[1] != 0 {
				return nil, false
			}
			if next.min > 0 {
				break
			}
		}
	}
	return steps, true
}
