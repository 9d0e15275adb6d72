package surface

import "github.com/mcpgen-dev/mcpgen/spec"

// canonApplied adds the JSON Schema 2020-12 keywords of spec.Applied to
// the canonical form m of s, so that adding, removing or changing an
// allOf, anyOf, not, if/then/else, dependentRequired, dependentSchemas,
// propertyNames, contains, minContains, maxContains, patternProperties,
// $anchor or $schema changes the tool's digest and shows in the lock
// file. Schemas without them keep the digest they had.
func canonApplied(m map[string]any, s *spec.Schema, ref func(string)) {
	a := &s.Applied
	list := func(k string, ss []*spec.Schema) {
		if len(ss) == 0 {
			return
		}
		out := make([]any, len(ss))
		for i, c := range ss {
			out[i] = canon(c, ref)
		}
		m[k] = out
	}
	list("allOf", a.AllOf)
	list("anyOf", a.AnyOfSchemas)
	list("oneOf", a.OneOfSchemas)
	for k, c := range map[string]*spec.Schema{"not": a.Not, "if": a.If, "then": a.Then, "else": a.Else} {
		if c != nil {
			m[k] = canon(c, ref)
		}
	}
	if len(a.Requires) > 0 {
		m["required"] = a.Requires
	}
	if len(a.DependentRequired) > 0 {
		deps := map[string][]string{}
		for _, d := range a.DependentRequired {
			deps[d.Property] = d.Requires
		}
		m["dependentRequired"] = deps
	}
	if a.PropertyNames != nil {
		m["propertyNames"] = canon(a.PropertyNames, ref)
	}
	if a.Contains != nil {
		m["contains"] = canon(a.Contains, ref)
		if a.MinContains != nil {
			m["minContains"] = *a.MinContains
		}
		if a.MaxContains != nil {
			m["maxContains"] = *a.MaxContains
		}
	}
	if len(a.PatternProperties) > 0 {
		pats := map[string]any{}
		for _, p := range a.PatternProperties {
			pats[p.Pattern] = canon(p.Schema, ref)
		}
		m["patternProperties"] = pats
	}
	if len(a.DependentSchemas) > 0 {
		deps := map[string]any{}
		for _, d := range a.DependentSchemas {
			deps[d.Property] = canon(d.Schema, ref)
		}
		m["dependentSchemas"] = deps
	}
	if a.Anchor != "" {
		m["$anchor"] = a.Anchor
	}
	if a.Dialect != "" {
		m["$schema"] = a.Dialect
	}
}
