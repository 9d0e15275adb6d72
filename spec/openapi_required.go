package spec

import (
	"regexp"

	"github.com/pb33f/libopenapi/datamodel/high/base"
)

// undeclaredRequired returns a required property for every name that
// s.Required lists and s.Properties does not declare (s is merged: allOf
// parts have been folded in, so a part that requires a property a sibling
// part declares is not among them). JSON Schema requires such a member all
// the same and constrains its value only by patternProperties and
// additionalProperties, so the property's schema is that of the first
// pattern that matches the name, else ap, the object's additionalProperties
// schema converted (nil for any value). closed says additionalProperties is
// false: when no pattern matches either, no object satisfies s; that is
// noted and the name stays a required property of any value, which accepts
// more (the upstream API refuses the call whatever it holds).
func (l *oaLoader) undeclaredRequired(s *base.Schema, ap *Schema, closed bool, p Pos, mode schemaMode, depth int) []*Property {
	var out []*Property
	seen := map[string]bool{}
	for _, name := range s.Required {
		if seen[name] || (s.Properties != nil && s.Properties.GetOrZero(name) != nil) {
			continue
		}
		seen[name] = true
		at := l.requiredPos(s, name, p)
		ps := l.patternSchema(s, name, at, mode, depth)
		switch {
		case ps != nil:
		case ap != nil:
			c := *ap
			ps = &c
		case closed:
			l.notef(at, "required names %q, which properties do not declare, and additionalProperties is false: no object satisfies this schema; %q is kept as a required property of any value", name, name)
			fallthrough
		default:
			ps = &Schema{Pos: at}
		}
		out = append(out, &Property{Name: name, Schema: ps, Required: true, Pos: at})
	}
	return out
}

// additionalOf converts s's additionalProperties (s at depth): its schema,
// nil when absent, a boolean or any value without a description, and, when
// it is written as a boolean, that boolean.
func (l *oaLoader) additionalOf(s *base.Schema, mode schemaMode, depth int) (ap *Schema, allow, isBool bool) {
	a := s.AdditionalProperties
	switch {
	case a == nil:
	case a.IsB():
		return nil, a.B, true
	case a.A != nil:
		ap = l.schema(a.A, mode, depth+1)
		if ap.IsAnyValue() && ap.Description == "" {
			ap = nil
		}
	}
	return ap, false, false
}

// patternSchema converts the schema of the first of s's patternProperties
// whose pattern matches name, or returns nil. A pattern Go cannot compile
// matches nothing here (patternPropertiesOf notes it).
func (l *oaLoader) patternSchema(s *base.Schema, name string, at Pos, mode schemaMode, depth int) *Schema {
	if s.PatternProperties == nil {
		return nil
	}
	var first *base.SchemaProxy
	n := 0
	for pat, sp := range s.PatternProperties.FromOldest() {
		re, err := regexp.Compile(pat)
		if err != nil || !re.MatchString(name) {
			continue
		}
		if n++; n == 1 {
			first = sp
		}
	}
	if first == nil {
		return nil
	}
	if n > 1 {
		l.notef(at, "required name %q matches %d patternProperties: only the first pattern's schema is checked, so more values are accepted", name, n)
	}
	return l.schema(first, mode, depth+1)
}

// requiredPos is where s's required list names name, or p when the name
// came from an allOf part (mergeAllOf keeps the outer schema's positions).
func (l *oaLoader) requiredPos(s *base.Schema, name string, p Pos) Pos {
	lo := s.GoLow()
	if lo == nil {
		return p
	}
	for _, r := range lo.Required.Value {
		if r.Value == name && r.ValueNode != nil {
			return l.pos(r.ValueNode)
		}
	}
	return p
}
