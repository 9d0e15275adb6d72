package spec

import (
	"reflect"

	"gopkg.in/yaml.v3"
)

// Boolean schemas (true and false) where a subschema constrains a value
// it does not type: the subschemas of allOf, anyOf, not, if, then and
// else, of dependentSchemas and propertyNames, and the property
// constraints of an object's subschemas. true accepts every value and is
// the empty constraint {}; false accepts none and is the constraint
// {not: {}}, which is how it is published. Where a subschema gives a
// value its Go type (properties, patternProperties, prefixItems, contains
// on items of any value), booleanValue reads it as a value of any type:
// true is {} and false {not: {}}, a member, position or item that must
// not be there.

// booleanConstraint is the constraint schema of n when n is a boolean
// schema, applied to values of type t (KindAny for objects and values of
// any type, whose constraints state no type), or nil.
func (l *loader) booleanConstraint(n *yaml.Node, t Kind, onAny bool) *Schema {
	if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!bool" {
		return nil
	}
	var accept bool
	if err := n.Decode(&accept); err != nil {
		return nil
	}
	empty := func() *Schema {
		return &Schema{Pos: l.pos(n), Type: t, Applied: Applied{Constraint: true, OnAny: onAny}}
	}
	s := empty()
	if !accept {
		s.Not = empty()
	}
	return s
}

// booleanValue is the schema of a value that the boolean schema n types
// (a property, a patternProperties member, a prefixItems position, the
// items contains looks at on an array of any value), or nil when n is
// not a boolean schema. true is any value, the same as {}; false is a
// value of any type that matches nothing, {not: {}}: a member or
// position that must be absent. Its Go type is json.RawMessage, as for
// any value, and the generated validator refuses the value when it is
// there (must not match the not schema).
func (l *loader) booleanValue(n *yaml.Node) *Schema {
	if !isBoolNode(n) {
		return nil
	}
	var accept bool
	if err := n.Decode(&accept); err != nil {
		return nil
	}
	s := l.anySchema(n)
	if !accept {
		s.Not = &Schema{Pos: l.pos(n), Applied: Applied{Constraint: true, OnAny: true}}
	}
	return s
}

// MatchesNothing reports whether no value matches s because its not
// subschema matches every value of s's type: the boolean schema false as
// the loader reads it ({not: {}}), wherever it stands.
func (s *Schema) MatchesNothing() bool {
	if s == nil || s.Not == nil || s.Not.Type != KindAny && s.Not.Type != s.Type {
		return false
	}
	n := *s.Not
	n.Pos, n.Type, n.Constraint, n.OnAny = Pos{}, KindAny, false, false
	return reflect.DeepEqual(n, Schema{})
}
