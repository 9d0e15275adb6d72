package golang

import (
	"strconv"
	"strings"

	. "github.com/dave/jennifer/jen"

	"github.com/mcpgen-dev/mcpgen/spec"
)

// patternProperties: the members of an object named by no property are
// kept in its AdditionalProperties map, whether a pattern or
// additionalProperties admits them. The map's values have the scalar
// type every pattern schema shares (the spec requires it), so decoding
// needs no reflection and no second pass; the checks of each pattern
// whose regexp matches the name, and those of additionalProperties when
// none does, run on the decoded value.

// patternValue lowers the regexps of the patternProperties of s (and the
// pattern of its additionalProperties, checked by patternChecks rather
// than by the map's value slot) and returns the schema of the map's
// values: the pattern schemas' type, without their constraints.
func (l *lowerer) patternValue(owner string, s *spec.Schema) *spec.Schema {
	for _, p := range s.PatternProperties {
		l.suffixedPattern(owner, p.Pattern)
	}
	if ap := s.AdditionalProperties; ap != nil && ap.Pattern != "" {
		l.suffixedPattern(owner, ap.Pattern)
	}
	return &spec.Schema{Type: s.PatternProperties[0].Schema.Type, Pos: s.Pos}
}

// suffixedPattern lowers expr, when it is new, as pattern<owner>,
// pattern<owner>2, ...
func (l *lowerer) suffixedPattern(owner, expr string) {
	if _, ok := l.patterns[expr]; ok {
		return
	}
	name := suffixed("pattern"+owner, func(s string) bool { _, ok := l.names[s]; return ok })
	l.names[name] = spec.Pos{}
	l.patterns[expr] = name
	l.m.patterns = append(l.m.patterns, pattern{name: name, expr: expr})
}

// matchesPattern is the condition that name (a string expression)
// matches one of the patterns of s.
func (m *validateEmitter) matchesPattern(s *spec.Schema, name *Statement) *Statement {
	var cond *Statement
	for _, p := range s.PatternProperties {
		c := Id(m.patternVar(p.Pattern)).Dot("MatchString").Call(name)
		if cond == nil {
			cond = c
		} else {
			cond = cond.Op("||").Add(c)
		}
	}
	return cond
}

// patternChecks checks each member of v.AdditionalProperties of node n
// (a Go value the handler built) against its patterns' schemas.
func (m *validateEmitter) patternChecks(n *node) []Code {
	body := m.memberChecks(n, Id("k"))
	if len(n.schema.PatternProperties) > 0 && !n.schema.AllowAdditional {
		// The map may hold a name no pattern admits.
		body = append([]Code{If(Op("!").Parens(m.matchesPattern(n.schema, Id("k")))).Block(
			addErr(Op("&").Id("c"), wire("MsgUnknownProperty")),
			Continue(),
		)}, body...)
	}
	if len(body) == 0 {
		return nil
	}
	return []Code{For(List(Id("_"), Id("k")).Op(":=").Range().Qual("slices", "Sorted").Call(Qual("maps", "Keys").Call(Id("v").Dot("AdditionalProperties")))).Block(append([]Code{
		Id("x").Op(":=").Id("v").Dot("AdditionalProperties").Index(Id("k")),
		Id("c").Op(":=").Id("p").Dot("Child").Call(Id("k")),
	}, body...)...)}
}

// memberChecks checks the member x of node n, named name, at path c:
// against the schema of every pattern name matches, and against
// additionalProperties when none does. Nothing when n has no patterns.
func (m *validateEmitter) memberChecks(n *node, name *Statement) []Code {
	s := n.schema
	if len(s.PatternProperties) == 0 {
		return nil
	}
	k := n.elem.node.real().kind
	x := Id("x")
	var other []Code
	if s.AdditionalProperties != nil {
		other = m.scalarChecks(s.AdditionalProperties, k, x, Op("&").Id("c"))
	}
	var body []Code
	for _, p := range s.PatternProperties {
		checks := m.scalarChecks(p.Schema, k, x, Op("&").Id("c"))
		if len(other) > 0 {
			checks = append([]Code{Id("matched").Op("=").True()}, checks...)
		} else if len(checks) == 0 {
			continue
		}
		body = append(body, If(Id(m.patternVar(p.Pattern)).Dot("MatchString").Call(name)).Block(checks...))
	}
	if len(other) > 0 {
		body = append([]Code{Id("matched").Op(":=").False()}, body...)
		body = append(body, If(Op("!").Id("matched")).Block(other...))
	}
	return body
}

// extraDoc documents the AdditionalProperties field of a struct of schema s.
func extraDoc(s *spec.Schema) string {
	if len(s.PatternProperties) == 0 {
		return "AdditionalProperties holds the properties not listed in the schema."
	}
	var pats []string
	for _, p := range s.PatternProperties {
		pats = append(pats, strconv.Quote(p.Pattern))
	}
	if s.AllowAdditional {
		return "AdditionalProperties holds the properties not listed in the schema: those whose names match " + strings.Join(pats, " or ") + " and the others."
	}
	return "AdditionalProperties holds the properties not listed in the schema, whose names match " + strings.Join(pats, " or ") + "."
}
