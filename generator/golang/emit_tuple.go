package golang

import (
	"fmt"
	"strconv"

	. "github.com/dave/jennifer/jen"

	"github.com/mcpgen-dev/mcpgen/generator/naming"
)

// A tuple (an array with prefixItems) is a declared struct with one field
// per position, named after the position's title or Item0, Item1, …, and
// a Rest slice of the items after them unless items is false. It encodes
// to and decodes from a JSON array. A position before minItems is always
// there, so its field is a value; a later one may be absent, so its field
// is a pointer (or a nil slice, map or raw value) and the array ends at
// the first absent position.

// restField is the Go field of the items after the positions.
const restField = "Rest"

// tupleFields lowers the positions and the rest items of tuple node n.
func (l *lowerer) tupleFields(n *node) {
	s := n.schema
	required := 0
	if s.MinItems != nil {
		required = int(min(*s.MinItems, int64(len(s.PrefixItems))))
	}
	taken := map[string]int{restField: -1}
	for i, ps := range s.PrefixItems {
		g := fmt.Sprintf("Item%d", i)
		if ps.Title != "" {
			if t := naming.Exported(ps.Title); t != "" {
				g = t
			}
		}
		if prev, dup := taken[g]; dup {
			what := fmt.Sprintf("position %d", prev)
			if prev < 0 {
				what = "the items after the positions"
			}
			l.diag(ps.Pos, "prefixItems[%d]: Go field %s.%s is taken by %s: give the position another title", i, n.name, g, what)
			continue
		}
		taken[g] = i
		f := &field{jsonName: strconv.Itoa(i), goName: g, required: i < required, pos: ps.Pos}
		f.slot = *l.slotOf(n.name+g, ps, ps.Pos)
		f.doc = docOf(g, "", ps)[1:]
		if len(f.doc) == 0 || ps.Title == "" {
			f.doc = append([]string{fmt.Sprintf("%s is the item at index %d.", g, i)}, f.doc...)
		}
		k := f.node.real().kind
		byValue := k != kSlice && k != kMap && k != kRaw && k != kOneOf && !f.node.real().isBytes()
		if ps.MatchesNothing() {
			f.doc = append(f.doc, fmt.Sprintf("%s must stay nil: the position's schema is false, so the array ends before it.", g))
		} else if !f.required {
			if f.nullable {
				l.diag(ps.Pos, "prefixItems[%d] is nullable but may be absent (minItems is %d): null and a shorter array would both be nil in Go; raise minItems to %d or drop nullable", i, required, i+1)
			}
			f.doc = append(f.doc, fmt.Sprintf("The array may end before it (minItems is %d): nil means absent, and no later item may be set then.", required))
			f.ptr = byValue
		} else if byValue {
			f.ptr = f.nullable
		}
		n.fields = append(n.fields, f)
	}
	if !s.ClosedItems {
		n.extra = true
		n.elem = l.slotOf(n.name+"RestItem", s.Items, n.pos)
		n.elem.ptr = s.Items != nil && n.elem.nullValue()
	}
}

// tupleRequired is the number of positions of tuple node n that are
// always there.
func tupleRequired(n *node) int {
	r := 0
	for _, f := range n.fields {
		if f.required {
			r++
		}
	}
	return r
}

// tupleDecl is the struct type of tuple node n.
func tupleDecl(n *node) *Statement {
	var fields []Code
	for _, f := range n.fields {
		c := Id(f.goName).Add(slotType(&f.slot))
		if len(f.doc) > 0 {
			c = Comment(lc(comment(f.doc, ""))).Line().Add(c)
		}
		fields = append(fields, c)
	}
	if n.extra {
		doc := fmt.Sprintf("%s holds the items after the %d positions, in order.", restField, len(n.fields))
		fields = append(fields, Comment(lc(doc)).Line().Id(restField).Index().Add(slotType(n.elem)))
	}
	return Struct(fields...)
}

// appendTuple is the body of AppendJSON of tuple node n: its positions up
// to the first absent one, then the rest items.
func (m *Model) appendTuple(n *node) []Code {
	out := []Code{Id("b").Op("=").Append(Id("b"), LitRune('['))}
	end := Return(Append(Id("b"), LitRune(']')))
	for i, f := range n.fields {
		fv := Id("v").Dot(f.goName)
		var stmts []Code
		if i > 0 {
			stmts = append(stmts, Id("b").Op("=").Append(Id("b"), LitRune(',')))
		}
		if f.required {
			out = append(out, stmts...)
			out = append(out, appendSlot(&f.slot, fv)...)
			continue
		}
		out = append(out, If(Add(fv).Op("==").Nil()).Block(end))
		out = append(out, stmts...)
		out = append(out, Id("b").Op("=").Add(appendValue(f.node, fv, f.ptr)))
	}
	if n.extra {
		out = append(out, For(List(Id("_"), Id("x")).Op(":=").Range().Id("v").Dot(restField)).Block(append([]Code{
			Id("b").Op("=").Append(Id("b"), LitRune(',')),
		}, appendSlot(n.elem, Id("x"))...)...))
	}
	return append(out, end)
}

// tupleMaxItems is the largest number of items of tuple node n: maxItems,
// or the positions when no item may follow them.
func tupleMaxItems(n *node) *int64 {
	s := n.schema
	if !s.ClosedItems {
		return s.MaxItems
	}
	max := int64(len(s.PrefixItems))
	if s.MaxItems != nil && *s.MaxItems < max {
		max = *s.MaxItems
	}
	return &max
}

// decodeTuple is the body of decodeX of tuple node n: each item into its
// position's field, or the rest, by index.
func (m *validateEmitter) decodeTuple(n *node) []Code {
	s := n.schema
	done := m.bounds(Id("i"), s.MinItems, tupleMaxItems(n), "MsgMinItems", "MsgMaxItems")
	var cases []Code
	for i, f := range n.fields {
		cases = append(cases, Case(Lit(i)).Block(m.decodeSlot(&f.slot, Id("v").Dot(f.goName), Op("&").Id("c"), nil)...))
	}
	if n.extra {
		rest := Id("v").Dot(restField)
		cases = append(cases, Default().Block(append([]Code{Var().Id("x").Add(slotType(n.elem))},
			append(m.decodeSlot(n.elem, Id("x"), Op("&").Id("c"), nil),
				Add(rest).Op("=").Append(rest, Id("x")))...)...))
	} else {
		// Counted against the positions once the array ends.
		cases = append(cases, Default().Block(returnIfErr(Id("d").Dot("Skip").Call())))
	}
	return []Code{
		kindCheck("array", "KindArray"),
		returnIfErr(Id("d").Dot("BeginArray").Call()),
		Op("*").Id("v").Op("=").Id(n.name).Values(),
		For(Id("i").Op(":=").Lit(0), Empty(), Id("i").Op("++")).Block(
			List(Id("ok"), Err()).Op(":=").Id("d").Dot("NextElem").Call(),
			If(Err().Op("!=").Nil()).Block(Return(Err())),
			If(Op("!").Id("ok")).Block(append(done, Return(Nil()))...),
			Id("c").Op(":=").Id("p").Dot("Elem").Call(Id("i")),
			Switch(Id("i")).Block(cases...),
		),
	}
}

// validateTuple is the body of validateX of tuple node n, for values built
// in Go: no position set after an absent one, the item count, and each
// item.
func (m *validateEmitter) validateTuple(n *node) []Code {
	s := n.schema
	var out []Code
	// later[i] is the condition that something after position i is set.
	for i, f := range n.fields {
		if f.required {
			continue
		}
		var later []Code
		for _, g := range n.fields[i+1:] {
			later = append(later, Id("v").Dot(g.goName).Op("!=").Nil())
		}
		if n.extra {
			later = append(later, Len(Id("v").Dot(restField)).Op(">").Lit(0))
		}
		if len(later) == 0 {
			continue
		}
		out = append(out, If(Id("v").Dot(f.goName).Op("==").Nil().Op("&&").Parens(orAll(later))).Block(
			Id("c").Op(":=").Id("p").Dot("Elem").Call(Lit(i)),
			addErr(Op("&").Id("c"), wire("MsgRequired")),
		))
	}
	// The required positions are always there and a closed tuple holds
	// no more than its positions: only the bounds past those can fail.
	min, max := s.MinItems, tupleMaxItems(n)
	if min != nil && *min <= int64(len(n.fields)) {
		min = nil
	}
	if max != nil && !n.extra && *max >= int64(len(n.fields)) {
		max = nil
	}
	if min != nil || max != nil {
		out = append(out, Id("n").Op(":=").Lit(tupleRequired(n)))
		for _, f := range n.fields {
			if !f.required {
				out = append(out, If(Id("v").Dot(f.goName).Op("!=").Nil()).Block(Id("n").Op("++")))
			}
		}
		if n.extra {
			out = append(out, Id("n").Op("+=").Len(Id("v").Dot(restField)))
		}
		out = append(out, m.bounds(nil, min, max, "MsgMinItems", "MsgMaxItems")...)
	}
	for i, f := range n.fields {
		out = append(out, m.checkSlot(&f.slot, Id("v").Dot(f.goName), Id("c").Op(":=").Id("p").Dot("Elem").Call(Lit(i)), !f.required, false)...)
	}
	if n.extra && n.elem.checks() {
		out = append(out, For(List(Id("i"), Id("x")).Op(":=").Range().Id("v").Dot(restField)).Block(
			m.checkSlot(n.elem, Id("x"), Id("c").Op(":=").Id("p").Dot("Elem").Call(Lit(len(n.fields)).Op("+").Id("i")), false, true)...))
	}
	return out
}

// tupleChecks reports whether tuple node n has a check of its own.
func tupleChecks(n *node) bool {
	s := n.schema
	return s.MinItems != nil || s.MaxItems != nil || s.ClosedItems || tupleRequired(n) < len(n.fields)
}

// orAll joins comparisons with ||.
func orAll(conds []Code) *Statement {
	out := Add(conds[0])
	for _, c := range conds[1:] {
		out = out.Op("||").Add(c)
	}
	return out
}
