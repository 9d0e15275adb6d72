package schema

import (
	"fmt"
	"regexp/syntax"
	"strings"
	"unicode"
)

// Published patterns. A spec's patterns are RE2 (Go's regexp), which the
// server validates with. Clients compile the published schemas with their
// own engines: the official TypeScript SDK with Ajv, whose patterns are
// ECMAScript regular expressions with the "u" flag, where an unneeded
// escape such as `\:` is a syntax error. PublishedPattern rewrites a
// pattern into the common part of both syntaxes, with the same meaning in
// both engines.

// PublishedPattern returns pattern in a form that RE2 and ECMA-262 (with
// the u flag) both accept and read the same way, or ok false when there is
// none (the schema then publishes no pattern; the server still checks it).
func PublishedPattern(pattern string) (out string, ok bool) {
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return "", false
	}
	var b strings.Builder
	if !printRegexp(&b, re) || b.Len() > maxPublishedPattern {
		return "", false
	}
	return b.String(), true
}

// maxPublishedPattern bounds a translated pattern: Unicode classes such
// as \pL become hundreds of ranges, which would bloat tools/list.
const maxPublishedPattern = 1024

// printRegexp writes re in the shared syntax; false when some part has no
// equivalent.
func printRegexp(b *strings.Builder, re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpNoMatch:
		b.WriteString(`[^\s\S]`)
	case syntax.OpEmptyMatch:
		b.WriteString(`(?:)`)
	case syntax.OpLiteral:
		for _, r := range re.Rune {
			if re.Flags&syntax.FoldCase != 0 && hasFold(r) {
				b.WriteByte('[')
				for f := r; ; {
					classRune(b, f)
					if f = unicode.SimpleFold(f); f == r {
						break
					}
				}
				b.WriteByte(']')
				continue
			}
			literalRune(b, r)
		}
	case syntax.OpCharClass:
		printClass(b, re.Rune)
	case syntax.OpAnyCharNotNL:
		// ECMAScript's "." also stops at \r, U+2028 and U+2029.
		b.WriteString(`[^\n]`)
	case syntax.OpAnyChar:
		b.WriteString(`[\s\S]`)
	case syntax.OpBeginText:
		b.WriteByte('^')
	case syntax.OpEndText:
		// "$" and \z alike: the end of the text, as "$" is in
		// ECMAScript without the m flag.
		b.WriteByte('$')
	case syntax.OpBeginLine, syntax.OpEndLine:
		// (?m) anchors: ECMAScript has them only as a flag of the whole
		// expression.
		return false
	case syntax.OpWordBoundary:
		b.WriteString(`\b`)
	case syntax.OpNoWordBoundary:
		b.WriteString(`\B`)
	case syntax.OpCapture:
		b.WriteByte('(')
		if !printRegexp(b, re.Sub[0]) {
			return false
		}
		b.WriteByte(')')
	case syntax.OpStar, syntax.OpPlus, syntax.OpQuest, syntax.OpRepeat:
		if !printAtom(b, re.Sub[0]) {
			return false
		}
		switch re.Op {
		case syntax.OpStar:
			b.WriteByte('*')
		case syntax.OpPlus:
			b.WriteByte('+')
		case syntax.OpQuest:
			b.WriteByte('?')
		default:
			switch {
			case re.Max == -1:
				fmt.Fprintf(b, "{%d,}", re.Min)
			case re.Max == re.Min:
				fmt.Fprintf(b, "{%d}", re.Min)
			default:
				fmt.Fprintf(b, "{%d,%d}", re.Min, re.Max)
			}
		}
		if re.Flags&syntax.NonGreedy != 0 {
			b.WriteByte('?')
		}
	case syntax.OpConcat:
		for _, sub := range re.Sub {
			if sub.Op == syntax.OpAlternate {
				b.WriteString("(?:")
				if !printRegexp(b, sub) {
					return false
				}
				b.WriteByte(')')
				continue
			}
			if !printRegexp(b, sub) {
				return false
			}
		}
	case syntax.OpAlternate:
		for i, sub := range re.Sub {
			if i > 0 {
				b.WriteByte('|')
			}
			if !printRegexp(b, sub) {
				return false
			}
		}
	default:
		return false
	}
	return true
}

// printAtom writes re as the operand of a repetition, grouped unless it
// is one character or class.
func printAtom(b *strings.Builder, re *syntax.Regexp) bool {
	single := re.Op == syntax.OpCharClass || re.Op == syntax.OpAnyChar || re.Op == syntax.OpAnyCharNotNL ||
		re.Op == syntax.OpCapture || re.Op == syntax.OpLiteral && len(re.Rune) == 1
	if single {
		return printRegexp(b, re)
	}
	b.WriteString("(?:")
	if !printRegexp(b, re) {
		return false
	}
	b.WriteByte(')')
	return true
}

func hasFold(r rune) bool { return unicode.SimpleFold(r) != r }

// literalRune writes r outside a class: syntax characters escaped (an
// escape both engines accept), controls and other non-printing runes as
// \xHH or the rune itself (which both engines read literally).
func literalRune(b *strings.Builder, r rune) {
	if r < 0x80 && strings.ContainsRune(`^$\.*+?()[]{}|/`, r) {
		b.WriteByte('\\')
		b.WriteRune(r)
		return
	}
	plainRune(b, r)
}

// classRune writes r inside a class.
func classRune(b *strings.Builder, r rune) {
	if r < 0x80 && strings.ContainsRune(`\]-[^/`, r) {
		b.WriteByte('\\')
		b.WriteRune(r)
		return
	}
	plainRune(b, r)
}

func plainRune(b *strings.Builder, r rune) {
	switch {
	case r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0:
		fmt.Fprintf(b, `\x%02X`, r)
	default:
		b.WriteRune(r)
	}
}

// printClass writes the ranges (pairs lo, hi) as a class; a class that
// covers everything but a few runes is written negated.
func printClass(b *strings.Builder, ranges []rune) {
	if len(ranges) == 0 {
		b.WriteString(`[^\s\S]`)
		return
	}
	if len(ranges) == 2 && ranges[0] == 0 && ranges[1] == unicode.MaxRune {
		b.WriteString(`[\s\S]`)
		return
	}
	// Negate when the complement is shorter (e.g. [^"] rather than two
	// ranges reaching to U+10FFFF).
	if ranges[0] == 0 && ranges[len(ranges)-1] == unicode.MaxRune {
		var comp []rune
		for i := 1; i+1 < len(ranges); i += 2 {
			comp = append(comp, ranges[i]+1, ranges[i+1]-1)
		}
		b.WriteString("[^")
		writeRanges(b, comp)
		b.WriteByte(']')
		return
	}
	b.WriteByte('[')
	writeRanges(b, ranges)
	b.WriteByte(']')
}

func writeRanges(b *strings.Builder, ranges []rune) {
	for i := 0; i+1 < len(ranges); i += 2 {
		lo, hi := ranges[i], ranges[i+1]
		// Surrogates never occur in decoded text: keep them out of the
		// written range, which must be valid UTF-8.
		if lo >= 0xD800 && lo <= 0xDFFF {
			lo = 0xE000
		}
		if hi >= 0xD800 && hi <= 0xDFFF {
			hi = 0xD7FF
		}
		if hi < lo {
			continue
		}
		classRune(b, lo)
		if hi > lo {
			if hi > lo+1 {
				b.WriteByte('-')
			}
			classRune(b, hi)
		}
	}
}
