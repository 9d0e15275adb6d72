package golang

import (
	"strings"

	. "github.com/dave/jennifer/jen"

	"github.com/mcpgen-dev/mcpgen/spec"
)

// Code-first types (spec.Schema.GoType, filled by package gotype) are Go
// types the user declared. The generator declares nothing for them: it
// refers to them as they are and gives them package-level functions
// (decodeX, validateX, appendX, unmarshalX) instead of methods, since the
// type may live in another package.

// external lowers a code-first struct schema to a declared node that
// names the user's type instead of declaring one.
func (l *lowerer) external(name string, s *spec.Schema, pos spec.Pos) *node {
	n := l.newNode(name, s, pos)
	n.ext = strings.TrimPrefix(s.GoType, "*")
	l.fill(n)
	return n
}

// goExpr is the Go type of a GoType expression: "*T", "[]T", "map[string]T",
// "import/path.Name", or a predeclared or local name.
func goExpr(expr string) *Statement {
	switch {
	case strings.HasPrefix(expr, "*"):
		return Op("*").Add(goExpr(expr[1:]))
	case strings.HasPrefix(expr, "[]"):
		return Index().Add(goExpr(expr[2:]))
	case strings.HasPrefix(expr, "map[string]"):
		return Map(String()).Add(goExpr(expr[len("map[string]"):]))
	}
	if i := strings.LastIndex(expr, "."); i > 0 {
		return Qual(expr[:i], expr[i+1:])
	}
	return Id(expr)
}

// isTime reports whether a scalar node holds a time.Time (a date-time
// string in JSON).
func (n *node) isTime() bool { return n.goT == "time.Time" }

// convertible reports whether a scalar node's Go type differs from the
// canonical one of its kind (string, int64, float64, bool), so that values
// go through a conversion.
func (n *node) convertible() bool {
	switch n.goT {
	case "", "string", "int64", "float64", "bool":
		return false
	}
	return true
}

// canonical converts x, a value of a scalar node, to the canonical Go type
// of the node's kind.
func (n *node) canonical(x *Statement) *Statement {
	if !n.convertible() {
		return x
	}
	switch n.kind {
	case kString:
		switch {
		case n.isTime():
			return wire("FormatDateTime").Call(x)
		case n.isDate():
			return operand(x).Dot("String").Call()
		case n.isBytes():
			return wire("FormatBase64").Call(x)
		}
		return String().Call(x)
	case kInt:
		return Int64().Call(x)
	case kFloat:
		return Float64().Call(x)
	case kBool:
		return Bool().Call(x)
	}
	return x
}

// decodeConverted decodes a scalar of a code-first type, or of a format
// type (formats.go), through a variable of the canonical type, then
// converts it into target; isNull is as for decodeSlotNull.
func (m *validateEmitter) decodeConverted(s *slot, r *node, target *Statement, path, dirty, isNull Code) []Code {
	tmp := &slot{node: &node{kind: r.kind, schema: r.schema, pos: r.pos, parsesDateTime: r.isTime()}}
	body := []Code{Var().Id("t").Add(baseType(tmp.node))}
	if r.isTime() {
		body = append(body, Var().Id("tt").Qual("time", "Time"))
	}
	body = append(body, m.decodeSlot(tmp, Id("t"), path, dirty)...)
	special := r.isTime() || r.isDate() || r.isBytes()
	val := goExpr(r.goT).Call(Id("t"))
	if special {
		val = Id("tt")
	}
	var set []Code
	if s.ptr {
		if !special {
			set = append(set, Id("tt").Op(":=").Add(val))
		}
		set = append(set, Add(target).Op("=").Op("&").Id("tt"))
	} else {
		set = append(set, Add(target).Op("=").Add(val))
	}
	if special {
		body = append(body, parsed(r, path, set)...)
	} else {
		body = append(body, set...)
	}
	if s.nullable && (s.ptr || r.isBytes()) {
		return []Code{If(nullTest(isNull)).Block(
			returnIfErr(Id("d").Dot("ReadNull").Call()),
			Add(target).Op("=").Nil(),
		).Else().Block(body...)}
	}
	return []Code{Block(body...)}
}

// present is the condition under which an optional field is in the JSON
// encoding: not nil for pointers, slices, maps and raw values, not the
// zero value for the non-pointer scalars of code-first types (omitempty).
// It is nil when the field is always there (a non-pointer struct).
func present(f *field, fv *Statement) *Statement {
	r := f.node.real()
	switch {
	case f.ptr || r.kind == kSlice || r.kind == kMap || r.kind == kRaw || r.kind == kOneOf || r.isBytes():
		return Add(fv).Op("!=").Nil()
	case r.declared:
		return nil
	case r.isTime(), r.isDate():
		return Op("!").Add(fv).Dot("IsZero").Call()
	case r.kind == kString:
		return Add(fv).Op("!=").Lit("")
	case r.kind == kInt || r.kind == kFloat:
		return Add(fv).Op("!=").Lit(0)
	case r.kind == kBool:
		return fv
	}
	return Add(fv).Op("!=").Nil()
}

// externalFuncs emits the functions a code-first type gets instead of
// methods: appendX, and unmarshalX for tool inputs.
func (m *Model) externalFuncs(f *File, n *node) {
	f.Comment(lcf("append%s appends the JSON encoding of v to b.", n.name))
	f.Func().Id("append"+n.name).Params(Id("b").Index().Byte(), Id("v").Add(goType(n))).Index().Byte().Block(m.appendBody(n)...)
	if !m.inputs[n] {
		return
	}
	f.Comment(lcf("unmarshal%s decodes and validates data into v, returning every\nviolation of the schema at once (see wire.Unmarshaler).", n.name))
	f.Func().Id("unmarshal"+n.name).Params(Id("data").Index().Byte(), Id("v").Op("*").Add(goType(n))).Error().Block(unmarshalBody(n)...)
}

// decodeInput is the statement decoding a tool's arguments into in.
func decodeInput(n *node) *Statement {
	if n.ext != "" {
		return Id("unmarshal"+n.name).Call(Id("args"), Op("&").Id("in"))
	}
	return Id("in").Dot("UnmarshalJSON").Call(Id("args"))
}

// ident is the field's Go name usable inside identifiers: a field of an
// embedded struct of a code-first type is reached by a selector path
// ("Base.ID"), which identifiers spell without the dots.
func (f *field) ident() string { return strings.ReplaceAll(f.goName, ".", "") }
