package spec

import (
	"gopkg.in/yaml.v3"
)

// Applicators on a value of any type: a schema without a type (its Go
// value is a json.RawMessage) may carry allOf, anyOf, not and
// if/then/else, and a constraint subschema of an object may constrain a
// property that has no type. Such a subschema (OnAny is set on it) keeps
// a type of its own, which the generated validator checks on the raw
// value before that type's keywords: `anyOf: [{type: string}, {type:
// integer}]` accepts a string or an integer, `not: {type: "null"}` any
// value but null.

// rawStructuredKeywords are what a subschema on a value of any type may
// hold beside type object or array: the kind of the value, or its whole
// value compared with const and enum. Members and items would need a Go
// type of their own to be checked.
var rawStructuredKeywords = []string{"type", "title", "description", "$comment", "const", "enum"}

// untypedSubschemas parses allOf, anyOf, not, if, then and else of a
// schema without a type (info.s) as subschemas on a value of any type.
func (l *loader) untypedSubschemas(info *schemaInfo) {
	l.parseApplicators(info, func(n *yaml.Node, ctx string) *Schema {
		return l.rawConstraint(n, ctx, info.origin)
	})
}

// rawConstraint parses a subschema that applies to a value of any type:
// with a type, it checks that type and that type's keywords; without
// one, only const, enum and its own applicators.
func (l *loader) rawConstraint(n *yaml.Node, ctx string, o origin) *Schema {
	if b := l.booleanConstraint(n, KindAny, true); b != nil {
		return b
	}
	if ps, ok := l.mapping(n, ctx); ok {
		for _, p := range ps {
			if contains(constraintRefused, p.key.Value) {
				l.errorf(p.key, ctx, "keyword %q is not supported in a constraint subschema (it applies to the value of the schema it sits on, whose Go type is that schema's)", p.key.Value)
			}
		}
	}
	s := l.schema(n, ctx, o)
	s.Constraint, s.OnAny = true, true
	if s.Type != KindObject && s.Type != KindArray {
		return s
	}
	// Any members are allowed: the value is checked by kind, const and
	// enum, never by a Go type that lists its members.
	s.AllowAdditional = true
	info := l.infoOf(s)
	for k, key := range info.keys {
		if !contains(rawStructuredKeywords, k) {
			l.errorf(key, ctx, "keyword %q is not supported in a subschema of type %s on a value of any type: it would need the %s's Go type (declare type %s on the schema this subschema applies to)", k, s.Type, s.Type, s.Type)
		}
	}
	return s
}
