package golang

import (
	. "github.com/dave/jennifer/jen"

	"github.com/mcpgen-dev/mcpgen/spec"
)

// The JSON Schema 2020-12 applicators (allOf, anyOf, oneOf, not, if/then/else)
// and dependentRequired. Their subschemas are constraint schemas: they
// narrow the value of the schema they sit on, so they are checked against
// that value as it is in Go (the struct v, or a scalar), with no decoding
// of their own. A subschema whose outcome decides something (a branch of
// anyOf or oneOf, not, if) is tried against a scratch wire.Errors; allOf, then and
// else report straight to e.

// applicatorChecks checks the applicators of s against the struct or the
// slice v of node n (n not nil, k its kind, path p) or against the scalar
// x of kind k at path.
func (m *validateEmitter) applicatorChecks(s *spec.Schema, n *node, k kind, x *Statement, path Code) []Code {
	if !s.HasApplicators() {
		return nil
	}
	a := &s.Applied
	var out []Code
	if n != nil && k == kStruct {
		out = append(out, m.dependentRequired(n, a.DependentRequired)...)
		if s == n.schema {
			// The object's own dependentSchemas and propertyNames, once:
			// its constraint subschemas carry neither.
			out = append(out, m.objectCollectionChecks(n)...)
		}
	}
	for _, c := range a.AllOf {
		out = append(out, m.direct(c, n, k, x, path)...)
	}
	if len(a.AnyOfSchemas) > 0 {
		body := []Code{Id("matched").Op(":=").False()}
		for i, c := range a.AnyOfSchemas {
			try := m.branch(c, n, k, x, path, func(ok *Statement, add []Code) []Code {
				if len(add) > 0 {
					return when(ok, append([]Code{Id("matched").Op("=").True()}, add...)...)
				}
				if ok == nil {
					ok = True()
				}
				return []Code{Id("matched").Op("=").Add(ok)}
			})
			if i > 0 && !m.tracks(c, k) {
				// A branch that can evaluate a property runs even after a
				// match: every passing branch's evaluation counts.
				try = If(Op("!").Id("matched")).Block(try)
			}
			body = append(body, try)
		}
		out = append(out, Block(append(body, If(Op("!").Id("matched")).Block(addErr(path, wire("MsgAnyOf"))))...))
	}
	if len(a.OneOfSchemas) > 0 {
		// Every branch is tried: exactly one may match.
		body := []Code{Id("matched").Op(":=").Lit(0)}
		for _, c := range a.OneOfSchemas {
			if m.tracks(c, k) {
				body = append(body, m.branch(c, n, k, x, path, func(ok *Statement, add []Code) []Code {
					return when(ok, append([]Code{Id("matched").Op("++")}, add...)...)
				}))
				continue
			}
			checks := m.constraintChecks(c, n, k, x, path)
			if len(checks) == 0 {
				body = append(body, Id("matched").Op("++")) // a branch every value matches
				continue
			}
			body = append(body, trial(checks, func(ok *Statement) []Code {
				return []Code{If(ok).Block(Id("matched").Op("++"))}
			}))
		}
		out = append(out, Block(append(body, If(Id("matched").Op("!=").Lit(1)).Block(addErr(path, wire("MsgOneOf").Call(Id("matched")))))...))
	}
	if a.Not != nil {
		checks := m.untracked(a.Not, func() []Code { return m.constraintChecks(a.Not, n, k, x, path) })
		if len(checks) == 0 {
			// not: {} (the boolean schema false) matches every value.
			out = append(out, addErr(path, wire("MsgNot")))
		} else {
			out = append(out, trial(checks, func(ok *Statement) []Code {
				return []Code{If(ok).Block(addErr(path, wire("MsgNot")))}
			}))
		}
	}
	if a.If != nil && (a.Then != nil || a.Else != nil) {
		var then, els []Code
		if a.Then != nil {
			then = m.direct(a.Then, n, k, x, path)
		}
		if a.Else != nil {
			els = m.direct(a.Else, n, k, x, path)
		}
		if len(then) > 0 || len(els) > 0 || m.tracks(a.If, k) {
			out = append(out, m.branch(a.If, n, k, x, path, func(ok *Statement, add []Code) []Code {
				then := append(add, then...)
				if ok == nil {
					return then // an if every value passes
				}
				switch {
				case len(then) == 0 && len(els) == 0:
					return nil
				case len(els) == 0:
					return []Code{If(ok).Block(then...)}
				case len(then) == 0:
					return []Code{If(Op("!").Parens(ok)).Block(els...)}
				}
				return []Code{If(ok).Block(then...).Else().Block(els...)}
			}))
		}
	}
	return out
}

// trial runs checks against a scratch wire.Errors t (e is shadowed inside),
// then the statements result builds from ok, true when checks found no
// violation. Checks that are empty always succeed.
func trial(checks []Code, result func(ok *Statement) []Code) Code {
	if len(checks) == 0 {
		return Block(result(True())...)
	}
	return Block(append([]Code{
		Var().Id("t").Add(wire("Errors")),
		Block(append([]Code{Id("e").Op(":=").Op("&").Id("t")}, checks...)...),
	}, result(Id("t").Dot("Len").Call().Op("==").Lit(0))...)...)
}

// constraintChecks checks the constraint schema c against the struct v of
// node n, or the scalar x of kind k.
func (m *validateEmitter) constraintChecks(c *spec.Schema, n *node, k kind, x *Statement, path Code) []Code {
	if k == kSlice {
		return m.arrayConstraintChecks(c, n)
	}
	if n == nil {
		return m.scalarChecks(c, k, x, path) // with c's own applicators
	}
	// Unknown members are already errors of the object: only those its
	// Go value holds are counted.
	var out []Code
	if count := m.propertyCountOf(n, c, nil); len(count) > 0 {
		out = append(out, Block(count...)) // its own n, beside a sibling's
	}
	for _, name := range c.Requires {
		f := fieldNamed(n, name)
		if cond := absent(f); cond != nil {
			out = append(out, If(cond).Block(
				Id("c").Op(":=").Id("p").Dot("Child").Call(Lit(name)),
				addErr(Op("&").Id("c"), wire("MsgRequired")),
			))
		}
	}
	for _, p := range c.Properties {
		f := fieldNamed(n, p.Name)
		r := f.node.real()
		val := Id("v").Dot(f.goName)
		if f.ptr {
			val = Op("*").Add(val)
		}
		if r.unit() {
			val = map[kind]*Statement{kString: String(), kInt: Int64(), kFloat: Float64(), kBool: Bool()}[r.kind].Call(val)
		} else {
			val = r.canonical(val)
		}
		checks := m.scalarChecks(p.Schema, r.kind, val, Op("&").Id("c"))
		if len(checks) == 0 {
			continue
		}
		body := append([]Code{Id("c").Op(":=").Id("p").Dot("Child").Call(Lit(p.Name))}, checks...)
		if absent(f) != nil {
			out = append(out, If(Id("v").Dot(f.goName).Op("!=").Nil()).Block(body...))
		} else {
			out = append(out, Block(body...))
		}
	}
	out = append(out, m.applicatorChecks(c, n, k, x, path)...)
	return append(out, m.innerUnevaluated(c, n)...)
}

// dependentRequired reports each property required by a present one.
func (m *validateEmitter) dependentRequired(n *node, deps []spec.Dependency) []Code {
	var out []Code
	for _, d := range deps {
		var missing []Code
		for _, name := range d.Requires {
			if cond := absent(fieldNamed(n, name)); cond != nil {
				msg := m.message(listName("msgDependentRequired", []string{d.Property}, callKey("MsgDependentRequired", Lit(d.Property).GoString())),
					callKey("MsgDependentRequired", Lit(d.Property).GoString()), wire("MsgDependentRequired").Call(Lit(d.Property)))
				missing = append(missing, If(cond).Block(
					Id("c").Op(":=").Id("p").Dot("Child").Call(Lit(name)),
					addErr(Op("&").Id("c"), msg),
				))
			}
		}
		if len(missing) == 0 {
			continue
		}
		if f := fieldNamed(n, d.Property); absent(f) != nil {
			out = append(out, If(Id("v").Dot(f.goName).Op("!=").Nil()).Block(missing...))
		} else {
			out = append(out, missing...)
		}
	}
	return out
}

// fieldNamed is the field of struct node n for the JSON property name
// (the loader makes sure there is one).
func fieldNamed(n *node, name string) *field {
	for _, f := range n.fields {
		if f.jsonName == name {
			return f
		}
	}
	panic("mcpgen: no field for property " + name + " of " + n.name)
}

// absent is the condition under which field f holds no value, or nil
// when it always holds one (a required value or a field with a default,
// which decoding always sets).
func absent(f *field) *Statement {
	k := f.node.real().kind
	if f.ptr || k == kSlice || k == kMap || k == kRaw {
		return Id("v").Dot(f.goName).Op("==").Nil()
	}
	return nil
}

// constraintPatterns lowers the patterns of the constraint subschemas of
// s (and of their property constraints), at any depth, as
// pattern<owner>2, pattern<owner>3, ...
func (l *lowerer) constraintPatterns(owner string, s *spec.Schema) {
	var walk func(s *spec.Schema)
	walk = func(s *spec.Schema) {
		for _, c := range s.Subschemas() {
			for _, x := range append([]*spec.Schema{c}, propertySchemas(c)...) {
				if _, ok := l.patterns[x.Pattern]; x.Pattern != "" && !ok {
					name := suffixed("pattern"+owner, func(s string) bool { _, ok := l.names[s]; return ok })
					l.names[name] = spec.Pos{}
					l.patterns[x.Pattern] = name
					l.m.patterns = append(l.m.patterns, pattern{name: name, expr: x.Pattern})
				}
				if x != c {
					walk(x)
				}
			}
			walk(c)
		}
	}
	walk(s)
}

func propertySchemas(s *spec.Schema) []*spec.Schema {
	var out []*spec.Schema
	for _, p := range s.Properties {
		out = append(out, p.Schema)
	}
	return out
}
