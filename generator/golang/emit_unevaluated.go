package golang

import (
	"fmt"
	"strings"

	. "github.com/dave/jennifer/jen"

	"github.com/mcpgen-dev/mcpgen/spec"
)

// unevaluatedProperties over the implied properties of an object: the
// properties only its constraint subschemas name (spec.Property.Implied).
// JSON Schema 2020-12 evaluates such a member where a subschema naming it
// in properties passes; the generated validator keeps the evaluated ones
// in the bits of a uint64 (evaluated), one bit per implied property, so
// tracking allocates nothing. allOf, then, else and dependentSchemas
// report straight to e, so what they name is evaluated when they apply
// (when one fails, the object is invalid anyway); a subschema tried
// against a scratch wire.Errors (a branch of anyOf or oneOf, if) adds its
// bits only when it passes, through a variable of its own (evaluated1,
// evaluated2, ... by depth) when its own nested branches add bits; not
// never adds any. Then each implied member present and not evaluated is
// checked against unevaluatedProperties. The object's declared
// properties, patterns and additional members are evaluated by the
// object itself and need no tracking.

// evalTrack is the state of the tracking while the checks of one object
// are emitted.
type evalTrack struct {
	// bits maps an implied property's JSON name to its bit.
	bits map[string]uint64
	// depth is the nesting of scratch trials, naming the variable bits
	// are added to; used records the depths whose variable got any.
	depth int
	used  map[int]bool
}

// variable is the name of the bits variable at the current depth.
func (t *evalTrack) variable() string {
	if t.depth == 0 {
		return "evaluated"
	}
	return fmt.Sprintf("evaluated%d", t.depth)
}

// mask is the bits of the implied properties c names in properties.
func (t *evalTrack) mask(c *spec.Schema) (uint64, []string) {
	var m uint64
	var names []string
	for _, p := range c.Properties {
		if b, ok := t.bits[p.Name]; ok && m&b == 0 {
			m |= b
			names = append(names, p.Name)
		}
	}
	return m, names
}

// adds reports whether c, or a subschema of c other than not, names an
// implied property in properties: whether c can evaluate one.
func (t *evalTrack) adds(c *spec.Schema) bool {
	if c == nil {
		return false
	}
	if m, _ := t.mask(c); m != 0 {
		return true
	}
	a := &c.Applied
	for _, list := range [][]*spec.Schema{a.AllOf, a.AnyOfSchemas, a.OneOfSchemas, {a.If, a.Then, a.Else}} {
		for _, x := range list {
			if t.adds(x) {
				return true
			}
		}
	}
	for _, d := range a.DependentSchemas {
		if t.adds(d.Schema) {
			return true
		}
	}
	return false
}

// tracks reports whether the subschema c of an object must be tracked:
// the object tracks evaluation and c can evaluate an implied property.
func (m *validateEmitter) tracks(c *spec.Schema, k kind) bool {
	return m.eval != nil && k == kStruct && m.eval.adds(c)
}

// evaluates adds the implied properties c names in properties to the bits
// variable of the current depth; nothing when the object tracks no
// evaluation or c names none.
func (m *validateEmitter) evaluates(c *spec.Schema, k kind) []Code {
	t := m.eval
	if t == nil || k != kStruct {
		return nil
	}
	mask, names := t.mask(c)
	if mask == 0 {
		return nil
	}
	t.used[t.depth] = true
	return []Code{Id(t.variable()).Op("|=").Add(bitsExpr(t, names)).Comment(strings.Join(names, ", "))}
}

// bitsExpr is the Go expression of the bits of names: 1<<0 | 1<<3.
func bitsExpr(t *evalTrack, names []string) *Statement {
	var s *Statement
	for _, name := range names {
		b := t.bits[name]
		i := 0
		for b > 1 {
			b >>= 1
			i++
		}
		x := Lit(1).Op("<<").Lit(i)
		if s == nil {
			s = x
		} else {
			s = s.Op("|").Add(x)
		}
	}
	return s
}

// branch tries the constraint c against a scratch wire.Errors, as trial
// does; result builds the statements that follow from ok (nil when c
// has no checks: it always passes) and add, the statements that add what
// c evaluated, which result runs only where c passed (empty when the
// object tracks no evaluation).
func (m *validateEmitter) branch(c *spec.Schema, n *node, k kind, x *Statement, path Code, result func(ok *Statement, add []Code) []Code) Code {
	if !m.tracks(c, k) {
		checks := m.constraintChecks(c, n, k, x, path)
		if len(checks) == 0 {
			return Block(result(nil, nil)...)
		}
		return trial(checks, func(ok *Statement) []Code { return result(ok, nil) })
	}
	t := m.eval
	t.depth++
	checks := m.constraintChecks(c, n, k, x, path)
	inner, nested := t.variable(), t.used[t.depth]
	delete(t.used, t.depth)
	t.depth--
	add := m.evaluates(c, k)
	if nested {
		t.used[t.depth] = true
		add = append(add, Id(t.variable()).Op("|=").Id(inner))
	}
	if len(checks) == 0 {
		return Block(result(nil, add)...)
	}
	head := []Code{Var().Id("t").Add(wire("Errors"))}
	if nested {
		head = append(head, Var().Id(inner).Uint64())
	}
	head = append(head, Block(append([]Code{Id("e").Op(":=").Op("&").Id("t")}, checks...)...))
	return Block(append(head, result(Id("t").Dot("Len").Call().Op("==").Lit(0), add)...)...)
}

// when is body under the condition ok, or body itself when ok is nil
// (always).
func when(ok *Statement, body ...Code) []Code {
	if ok == nil || len(body) == 0 {
		return body
	}
	return []Code{If(ok).Block(body...)}
}

// untracked emits f with the tracking off: the checks of not, whose
// subschemas never evaluate anything.
func (m *validateEmitter) untracked(f func() []Code) []Code {
	saved := m.eval
	m.eval = nil
	defer func() { m.eval = saved }()
	return f()
}

// structApplicatorChecks checks the applicators of the struct v of node
// n, tracking the implied properties its subschemas evaluate when the
// object has unevaluatedProperties that constrains them, then checking
// those nothing evaluated.
func (m *validateEmitter) structApplicatorChecks(n *node) []Code {
	s := n.schema
	var implied []*field
	bits := map[string]uint64{}
	for _, p := range s.Properties {
		if p.Implied {
			bits[p.Name] = 1 << len(implied)
			implied = append(implied, fieldNamed(n, p.Name))
		}
	}
	ap := s.AdditionalProperties
	if len(implied) == 0 || s.AllowAdditional && (ap == nil || ap.IsAnyValue()) {
		// Every implied member is admitted whether evaluated or not.
		return m.applicatorChecks(s, n, kStruct, nil, Id("p"))
	}
	m.eval = &evalTrack{bits: bits, used: map[int]bool{}}
	checks := m.applicatorChecks(s, n, kStruct, nil, Id("p"))
	used := m.eval.used[0]
	m.eval = nil
	var out []Code
	if used {
		out = append(out, Var().Id("evaluated").Uint64().Comment("the implied properties a passing subschema names"))
	}
	out = append(out, checks...)
	for _, f := range implied {
		cond := Id("v").Dot(f.goName).Op("!=").Nil()
		if used {
			cond = cond.Op("&&").Id("evaluated").Op("&").Parens(bitsExpr(&evalTrack{bits: bits}, []string{f.jsonName})).Op("==").Lit(0)
		}
		var body []Code
		if ap == nil {
			body = []Code{addErr(Op("&").Id("c"), wire("MsgUnknownProperty"))}
		} else {
			body = m.rawTypedChecks(ap, Id("v").Dot(f.goName), Op("&").Id("c"))
		}
		out = append(out, If(cond).Block(append([]Code{Id("c").Op(":=").Id("p").Dot("Child").Call(Lit(f.jsonName))}, body...)...))
	}
	return out
}

// impliedDoc documents the Go field of an implied property.
func impliedDoc(goName, name string) []string {
	return []string{fmt.Sprintf("%s holds the member %q, which only subschemas of this object name: it is kept as JSON, and admitted where a passing subschema evaluates it or unevaluatedProperties allows it.", goName, name)}
}
