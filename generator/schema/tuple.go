package schema

import "github.com/mcpgen-dev/mcpgen/spec"

// items adds prefixItems and the keyword of the items after them (items
// or unevaluatedItems, as the spec writes it) to o, the rendering of s.
func (b *Builder) items(s *spec.Schema, o Object, w *walk) Object {
	add := func(k string, v any) { o = append(o, Member{k, v}) }
	if s.IsTuple() {
		var ps []Object
		for _, p := range s.PrefixItems {
			ps = append(ps, b.node(p, w))
		}
		add("prefixItems", ps)
	}
	key := s.ItemsKeyword
	if key == "" {
		key = "items"
	}
	switch {
	case s.ClosedItems:
		add(key, false)
	case s.Items != nil:
		add(key, b.node(s.Items, w))
	case s.Type == spec.KindArray && !s.IsTuple() && !s.Constraint:
		// Some clients refuse an array schema without items. After
		// prefixItems, none stated means any item, as written; a
		// constraint subschema carries no items keywords (the array's
		// own items apply).
		add("items", Object{})
	}
	return o
}

// additionalKeyword is the keyword the members of an object that no
// property or pattern names are published under: the spec's own.
func additionalKeyword(s *spec.Schema) string {
	if s.PropertiesKeyword != "" {
		return s.PropertiesKeyword
	}
	return "additionalProperties"
}
