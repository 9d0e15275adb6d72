package spec

import "gopkg.in/yaml.v3"

// Boolean schemas (true and false) where a subschema constrains a value
// it does not type: the subschemas of allOf, anyOf, not, if, then and
// else, of dependentSchemas and propertyNames, and the property
// constraints of an object's subschemas. true accepts every value and is
// the empty constraint {}; false accepts none and is the constraint
// {not: {}}, which is how it is published. Where a subschema gives a
// value its Go type (properties, items, additionalProperties, ...), a
// boolean schema is still refused: true has no type to give and false
// makes the member impossible, which the spec can say by leaving it out.

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
