package golang

import (
	"fmt"
	"strings"

	. "github.com/dave/jennifer/jen"

	"github.com/mcpgen-dev/mcpgen/spec"
)

// unevaluatedProperties over the implied properties of an object: the
// properties only its constraint subschemas name (spec.Property.Implied),
// and unevaluatedProperties inside those subschemas.
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
// object itself and need no tracking, unless a subschema has
// unevaluatedProperties: false: that subschema sees only what it and its
// passing subschemas evaluated, so then every property has a bit, and
// the other members one.

// evalTrack is the state of the tracking while the checks of one object
// are emitted.
type evalTrack struct {
	// bits maps an implied property's JSON name to its bit; every
	// property's when a subschema has unevaluatedProperties: false
	// (fullTrack), with one more bit, other, for the members no property
	// names.
	bits  map[string]uint64
	other uint64
	// depth is the nesting of scratch trials, naming the variable bits
	// are added to; used records the depths whose variable got any.
	depth int
	used  map[int]bool
	// need records the depths whose variable something reads: the
	// object's when it has implied properties to check, a scope's when
	// its subschema has unevaluatedProperties: false or its parent's is
	// needed. Nothing is added to a variable nobody reads.
	need map[int]bool
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
	if m, _ := t.mask(c); m != 0 || c.Unevaluated != nil {
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

// refusesUnevaluated reports whether c, or a subschema of c at any
// depth, has unevaluatedProperties: false.
func refusesUnevaluated(c *spec.Schema) bool {
	if c == nil {
		return false
	}
	if c.Unevaluated != nil && !*c.Unevaluated {
		return true
	}
	for _, x := range c.Subschemas() {
		if refusesUnevaluated(x) {
			return true
		}
	}
	return false
}

// tracks reports whether the subschema c of an object must be tracked:
// the object tracks evaluation and c can evaluate a property, or holds
// an unevaluatedProperties: false that needs its own evaluation.
func (m *validateEmitter) tracks(c *spec.Schema, k kind) bool {
	return m.eval != nil && k == kStruct && (m.eval.adds(c) || refusesUnevaluated(c))
}

// evaluates adds the implied properties c names in properties to the bits
// variable of the current depth; nothing when the object tracks no
// evaluation or c names none.
func (m *validateEmitter) evaluates(c *spec.Schema, k kind) []Code {
	t := m.eval
	if t == nil || k != kStruct || !t.need[t.depth] {
		return nil
	}
	if c.Unevaluated != nil && *c.Unevaluated {
		t.used[t.depth] = true
		return []Code{Id(t.variable()).Op("=").Op("^").Uint64().Call(Lit(0)).Comment("unevaluatedProperties: true evaluates every member")}
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
		x := Lit(1).Op("<<").Lit(bitIndex(t.bits[name]))
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
	checks, inner, nested := m.scoped(c, true, func() []Code { return m.constraintChecks(c, n, k, x, path) })
	add := m.evaluates(c, k)
	if nested && t.need[t.depth] {
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

// untracked emits the checks of not, whose subschemas never evaluate
// anything for the object: with the tracking off, or in a scope of their
// own when a subschema inside needs its own evaluation.
func (m *validateEmitter) untracked(c *spec.Schema, f func() []Code) []Code {
	saved := m.eval
	if saved != nil && refusesUnevaluated(c) {
		checks, inner, nested := m.scoped(c, false, f)
		return declareScope(checks, inner, nested)
	}
	m.eval = nil
	defer func() { m.eval = saved }()
	return f()
}

// scoped emits f, the checks of c, one depth down: what it evaluates
// goes to a variable of its own (inner), which nested says got any bits.
// The variable is needed when c refuses unevaluated members, or when
// propagate says it is added to its parent's and that is needed.
func (m *validateEmitter) scoped(c *spec.Schema, propagate bool, f func() []Code) (checks []Code, inner string, nested bool) {
	t := m.eval
	need := propagate && t.need[t.depth] || c.Unevaluated != nil && !*c.Unevaluated
	t.depth++
	t.need[t.depth] = need
	checks = f()
	inner, nested = t.variable(), t.used[t.depth]
	delete(t.used, t.depth)
	delete(t.need, t.depth)
	t.depth--
	return checks, inner, nested
}

// declareScope declares the variable of a scope before its checks.
func declareScope(checks []Code, inner string, nested bool) []Code {
	if !nested {
		return checks
	}
	return []Code{Block(append([]Code{Var().Id(inner).Uint64()}, checks...)...)}
}

// direct emits the checks of c where it applies without a trial (allOf,
// then, else, dependentSchemas), then adds what it evaluated. A c with
// unevaluatedProperties: false gets a scope of its own: its check sees
// only what c and its subschemas evaluated.
func (m *validateEmitter) direct(c *spec.Schema, n *node, k kind, x *Statement, path Code) []Code {
	if !m.tracks(c, k) || c.Unevaluated == nil || *c.Unevaluated {
		return append(m.constraintChecks(c, n, k, x, path), m.evaluates(c, k)...)
	}
	checks, inner, nested := m.scoped(c, true, func() []Code { return m.constraintChecks(c, n, k, x, path) })
	add := m.evaluates(c, k)
	if nested && m.eval.need[m.eval.depth] {
		m.eval.used[m.eval.depth] = true
		add = append(add, Id(m.eval.variable()).Op("|=").Id(inner))
	}
	if !nested {
		return append(checks, add...)
	}
	return []Code{Block(append(append([]Code{Var().Id(inner).Uint64()}, checks...), add...)...)}
}

// innerUnevaluated checks the unevaluatedProperties: false of the
// constraint c (emitted in its own scope): every member present that c
// and its passing subschemas did not evaluate is refused.
func (m *validateEmitter) innerUnevaluated(c *spec.Schema, n *node) []Code {
	t := m.eval
	if t == nil || c.Unevaluated == nil || *c.Unevaluated {
		return nil
	}
	mask, names := t.mask(c)
	// local is what c and its passing subschemas evaluated; nil when
	// only c's own properties are (the fields it names are skipped).
	var local *Statement
	switch {
	case t.used[t.depth] && mask != 0:
		local = Id(t.variable()).Op("|").Add(bitsExpr(t, names))
	case t.used[t.depth]:
		local = Id(t.variable())
	}
	var out []Code
	reads := false // whether a check reads local
	for _, f := range n.fields {
		if t.bits[f.jsonName]&mask != 0 {
			continue // c evaluates it itself
		}
		var cond *Statement
		if a := absent(f); a != nil {
			cond = Id("v").Dot(f.goName).Op("!=").Nil()
		}
		if local != nil {
			reads = true
			bit := Id("local").Op("&").Parens(bitsExpr(t, []string{f.jsonName})).Op("==").Lit(0)
			if cond == nil {
				cond = bit
			} else {
				cond = cond.Op("&&").Add(bit)
			}
		}
		refuse := []Code{Id("c").Op(":=").Id("p").Dot("Child").Call(Lit(f.jsonName)), addErr(Op("&").Id("c"), wire("MsgUnknownProperty"))}
		if cond == nil {
			out = append(out, Block(refuse...))
		} else {
			out = append(out, If(cond).Block(refuse...))
		}
	}
	if n.extra {
		loop := For(List(Id("_"), Id("k")).Op(":=").Range().Qual("slices", "Sorted").Call(Qual("maps", "Keys").Call(Id("v").Dot("AdditionalProperties")))).Block(
			Id("c").Op(":=").Id("p").Dot("Child").Call(Id("k")),
			addErr(Op("&").Id("c"), wire("MsgUnknownProperty")),
		)
		if local != nil && t.used[t.depth] {
			reads = true
			out = append(out, If(Id("local").Op("&").Parens(Lit(1).Op("<<").Lit(bitIndex(t.other))).Op("==").Lit(0)).Block(loop))
		} else {
			out = append(out, loop)
		}
	}
	if len(out) == 0 {
		return nil
	}
	if reads {
		out = append([]Code{Id("local").Op(":=").Add(local)}, out...)
	}
	return []Code{Block(out...)}
}

// bitIndex is the position of the one bit of b.
func bitIndex(b uint64) int {
	i := 0
	for b > 1 {
		b >>= 1
		i++
	}
	return i
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
	if s.AllowAdditional && (ap == nil || ap.IsAnyValue()) {
		// Every implied member is admitted whether evaluated or not.
		implied = nil
	}
	full := false
	for _, c := range s.Subschemas() {
		full = full || refusesUnevaluated(c)
	}
	if len(implied) == 0 && !full {
		return m.applicatorChecks(s, n, kStruct, nil, Id("p"))
	}
	m.eval = &evalTrack{bits: bits, used: map[int]bool{}}
	if full {
		m.eval = fullTrack(n, bits)
	}
	m.eval.need = map[int]bool{0: len(implied) > 0}
	checks := m.applicatorChecks(s, n, kStruct, nil, Id("p"))
	used := m.eval.used[0]
	m.eval = nil
	var out []Code
	if used && full {
		out = append(out, Var().Id("evaluated").Uint64().Comment("the members passing subschemas evaluate, a bit each"))
	} else if used {
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

// fullTrack is the tracking of an object n whose subschemas have an
// unevaluatedProperties: false: every property has a bit, then the other
// members one.
func fullTrack(n *node, bits map[string]uint64) *evalTrack {
	for i, f := range n.fields {
		bits[f.jsonName] = 1 << i
	}
	return &evalTrack{bits: bits, used: map[int]bool{}, other: 1 << len(n.fields)}
}

// containsTracked emits the checks of contains c on the struct item v of
// node n, in a tracking of their own when c (or a subschema) has
// unevaluatedProperties: false.
func (m *validateEmitter) containsTracked(c *spec.Schema, n *node) []Code {
	if m.eval != nil || !refusesUnevaluated(c) {
		return m.constraintChecks(c, n, kStruct, nil, Id("p"))
	}
	m.eval = fullTrack(n, map[string]uint64{})
	m.eval.need = map[int]bool{0: c.Unevaluated != nil && !*c.Unevaluated}
	checks := m.constraintChecks(c, n, kStruct, nil, Id("p"))
	used := m.eval.used[0]
	m.eval = nil
	if used {
		checks = append([]Code{Var().Id("evaluated").Uint64()}, checks...)
	}
	return checks
}
