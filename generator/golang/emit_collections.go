package golang

import (
	. "github.com/dave/jennifer/jen"

	"github.com/mcpgen-dev/mcpgen/spec"
)

// The JSON Schema 2020-12 keywords of spec.Collection: propertyNames and
// dependentSchemas on objects, contains (minContains, maxContains) on
// arrays. Like the applicators, they are checked on the decoded Go value,
// without reflection; a subschema whose outcome decides something (does
// this name, this item match?) is tried against a scratch wire.Errors.

// objectCollectionChecks checks dependentSchemas and propertyNames of the
// struct v of node n.
func (m *validateEmitter) objectCollectionChecks(n *node) []Code {
	c := &n.schema.Collection
	var out []Code
	for _, d := range c.DependentSchemas {
		checks := m.direct(d.Schema, n, kStruct, nil, Id("p"))
		if len(checks) == 0 {
			continue
		}
		if f := fieldNamed(n, d.Property); absent(f) != nil {
			out = append(out, If(Id("v").Dot(f.goName).Op("!=").Nil()).Block(checks...))
		} else {
			out = append(out, Block(checks...))
		}
	}
	if c.PropertyNames == nil {
		return out
	}
	// The names of the properties present, in declaration order, then
	// the additional ones sorted.
	var always []Code
	var maybe []Code
	for _, f := range n.fields {
		var cond *Statement
		if !f.required && f.def == nil {
			cond = present(f, Id("v").Dot(f.goName))
		}
		if cond == nil {
			always = append(always, Lit(f.jsonName))
			continue
		}
		maybe = append(maybe, If(cond).Block(Id("names").Op("=").Append(Id("names"), Lit(f.jsonName))))
	}
	body := []Code{Id("names").Op(":=").Index().String().Values(always...)}
	body = append(body, maybe...)
	if n.extra {
		body = append(body, Id("names").Op("=").Append(Id("names"),
			Qual("slices", "Sorted").Call(Qual("maps", "Keys").Call(Id("v").Dot("AdditionalProperties"))).Op("...")))
	}
	body = append(body, m.propertyNameLoop(c.PropertyNames, Id("names")))
	return append(out, Block(body...))
}

// mapCollectionChecks checks propertyNames of the map *v.
func (m *validateEmitter) mapCollectionChecks(n *node) []Code {
	if n.schema.PropertyNames == nil {
		return nil
	}
	return []Code{m.propertyNameLoop(n.schema.PropertyNames, Qual("slices", "Sorted").Call(Qual("maps", "Keys").Call(Op("*").Id("v"))))}
}

// propertyNameLoop reports each name of names (a []string expression)
// that does not satisfy the string schema s, at the property.
func (m *validateEmitter) propertyNameLoop(s *spec.Schema, names *Statement) Code {
	fail := []Code{
		Id("c").Op(":=").Id("p").Dot("Child").Call(Id("k")),
		addErr(Op("&").Id("c"), wire("MsgPropertyNames")),
	}
	return For(List(Id("_"), Id("k")).Op(":=").Range().Add(names)).Block(
		trial(m.scalarChecks(s, kString, Id("k"), Id("p")), func(ok *Statement) []Code {
			return []Code{If(Op("!").Parens(ok)).Block(fail...)}
		}),
	)
}

// containsChecks counts the items of the slice *v of node n that match
// its contains schema and checks the count against minContains (1 when
// unset) and maxContains.
func (m *validateEmitter) containsChecks(n *node) []Code {
	s := n.schema
	if s.Contains == nil {
		return nil
	}
	min := s.MinContains
	if min == nil {
		one := int64(1)
		min = &one
	}
	if *min == 0 {
		min = nil // every count is at least 0
	}
	if min == nil && s.MaxContains == nil {
		return nil
	}
	if s.Contains.MatchesNothing() {
		// contains: false matches no item: none is counted, so only a
		// lower bound can fail, and it fails for every array.
		if min == nil {
			return nil
		}
		return []Code{addErr(Id("p"), m.countMessage("MsgMinContains", *min))}
	}
	r := n.elem.node.real()
	x := Parens(Op("*").Id("v")).Index(Id("i"))
	if r.unit() && r.kind <= kBool {
		x = map[kind]*Statement{kString: String(), kInt: Int64(), kFloat: Float64(), kBool: Bool()}[r.kind].Call(x)
	} else {
		x = r.canonical(x)
	}
	var checks []Code
	if r.kind == kStruct {
		// The item is the struct v of the constraint checks.
		if checks = m.containsTracked(s.Contains, r); len(checks) > 0 {
			checks = append([]Code{Id("v").Op(":=").Op("&").Parens(Op("*").Id("v")).Index(Id("i"))}, checks...)
		}
	} else {
		checks = m.scalarChecks(s.Contains, r.kind, x, Id("p"))
	}
	if len(checks) == 0 {
		// Every item matches.
		return m.bounds(Len(Op("*").Id("v")), min, s.MaxContains, "MsgMinContains", "MsgMaxContains")
	}
	count := trial(checks, func(ok *Statement) []Code {
		return []Code{If(ok).Block(Id("matched").Op("++"))}
	})
	return []Code{Block(append([]Code{
		Id("matched").Op(":=").Lit(0),
		For(Id("i").Op(":=").Range().Op("*").Id("v")).Block(count),
	}, m.bounds(Id("matched"), min, s.MaxContains, "MsgMinContains", "MsgMaxContains")...)...)}
}

// arrayConstraintChecks checks the constraint schema c (minItems,
// maxItems, uniqueItems and applicators again) against the slice *v of
// node n, at path p.
func (m *validateEmitter) arrayConstraintChecks(c *spec.Schema, n *node) []Code {
	out := m.bounds(Len(Op("*").Id("v")), c.MinItems, c.MaxItems, "MsgMinItems", "MsgMaxItems")
	if c.UniqueItems {
		out = append(out, m.uniqueItems(n)...)
	}
	return append(out, m.applicatorChecks(c, n, kSlice, nil, Id("p"))...)
}
