package schema

import "github.com/mcpgen-dev/mcpgen/spec"

// applied adds the JSON Schema 2020-12 keywords of spec.Applied to o, the
// rendering of s: "$schema" first, the others after the keywords of s's
// own type. A constraint schema (a subschema of allOf, anyOf, not, if,
// then or else) states no type and no additionalProperties: it narrows the
// value of the schema it sits on, and "additionalProperties: false" there
// would refuse every property of that value. A constraint on a value of
// any type (OnAny) keeps its own type: that type is what it checks.
func (b *Builder) applied(s *spec.Schema, o Object, w *walk) Object {
	a := &s.Applied
	if a.Constraint && !a.OnAny && len(o) > 0 && o[0].Key == "type" {
		o = o[1:] // the type is the enclosing schema's, which may also allow null
	}
	if a.Dialect != "" {
		o = append(Object{{"$schema", a.Dialect}}, o...)
	}
	add := func(k string, v any) { o = append(o, Member{k, v}) }
	if a.Anchor != "" {
		add("$anchor", a.Anchor)
	}
	if a.Comment != "" {
		add("$comment", a.Comment)
	}
	if a.Constraint && s.Type == spec.KindAny {
		if len(s.Properties) > 0 {
			props := Object{}
			for _, p := range s.Properties {
				props = append(props, Member{p.Name, b.node(p.Schema, w)})
			}
			add("properties", props)
		}
		if len(a.Requires) > 0 {
			add("required", a.Requires)
		}
		if a.Unevaluated != nil {
			k := a.UnevaluatedKeyword
			if k == "" {
				k = "unevaluatedProperties"
			}
			add(k, *a.Unevaluated)
		}
	}
	if len(a.DependentRequired) > 0 {
		deps := Object{}
		for _, d := range a.DependentRequired {
			deps = append(deps, Member{d.Property, d.Requires})
		}
		add("dependentRequired", deps)
	}
	list := func(k string, ss []*spec.Schema) {
		if len(ss) == 0 {
			return
		}
		var vs []Object
		for _, c := range ss {
			vs = append(vs, b.node(c, w))
		}
		add(k, vs)
	}
	list("allOf", a.AllOf)
	list("anyOf", a.AnyOfSchemas)
	list("oneOf", a.OneOfSchemas)
	for _, k := range []struct {
		key string
		s   *spec.Schema
	}{{"not", a.Not}, {"if", a.If}, {"then", a.Then}, {"else", a.Else}} {
		if k.s != nil {
			add(k.key, b.node(k.s, w))
		}
	}
	return b.collection(s, o, w)
}

// collection adds the keywords of spec.Collection to o, the rendering of
// s. The subschemas of propertyNames and contains keep their type (a
// name is a string; an item is of the items' type).
func (b *Builder) collection(s *spec.Schema, o Object, w *walk) Object {
	c := &s.Collection
	add := func(k string, v any) { o = append(o, Member{k, v}) }
	if c.PropertyNames != nil {
		add("propertyNames", b.node(c.PropertyNames, w))
	}
	if c.Contains != nil {
		add("contains", b.node(c.Contains, w))
		if c.MinContains != nil {
			add("minContains", *c.MinContains)
		}
		if c.MaxContains != nil {
			add("maxContains", *c.MaxContains)
		}
	}
	if len(c.PatternProperties) > 0 {
		pats := Object{}
		for _, p := range c.PatternProperties {
			if re, ok := PublishedPattern(p.Pattern); ok {
				pats = append(pats, Member{re, b.node(p.Schema, w)})
			}
		}
		if len(pats) > 0 {
			add("patternProperties", pats)
		}
	}
	if len(c.DependentSchemas) > 0 {
		deps := Object{}
		for _, d := range c.DependentSchemas {
			deps = append(deps, Member{d.Property, b.node(d.Schema, w)})
		}
		add("dependentSchemas", deps)
	}
	return o
}

// lostPattern reports whether a patternProperties pattern of s has no
// published form (PublishedPattern): its entry is left out, and so is
// additionalProperties, which would refuse the members the pattern
// admits. The server still checks both.
func lostPattern(s *spec.Schema) bool {
	for _, p := range s.PatternProperties {
		if _, ok := PublishedPattern(p.Pattern); !ok {
			return true
		}
	}
	return false
}
