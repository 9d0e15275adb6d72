package golang

import (
	. "github.com/dave/jennifer/jen"

	"github.com/mcpgen-dev/mcpgen/spec"
)

// rawTypedChecks checks the constraint schema s, which states a type, on
// the raw JSON value x of a schema without one (spec.Applied.OnAny): the
// value is read as that type by a wire.Raw* reader, whose violation (a
// value of another type) is reported, and otherwise checked by that
// type's keywords. Objects and arrays are checked by kind, const and enum
// only (the loader allows nothing else there).
func (m *validateEmitter) rawTypedChecks(s *spec.Schema, x *Statement, path Code) []Code {
	fail := addErr(path, Id("msg"))
	readers := map[spec.Kind]struct {
		fn string
		k  kind
	}{
		spec.KindString:  {"RawString", kString},
		spec.KindInteger: {"RawInt", kInt},
		spec.KindNumber:  {"RawFloat", kFloat},
		spec.KindBoolean: {"RawBool", kBool},
	}
	r, ok := readers[s.Type]
	if !ok {
		jsonKind := map[spec.Kind]string{spec.KindNull: "KindNull", spec.KindArray: "KindArray", spec.KindObject: "KindObject"}[s.Type]
		checks := m.scalarChecks(&spec.Schema{Const: s.Const, Enum: s.Enum}, kRaw, x, path)
		return []Code{ifElse(
			If(Id("msg").Op(":=").Add(wire("RawOfKind")).Call(x, Lit(string(s.Type)), wire(jsonKind)), Id("msg").Op("!=").Lit("")).Block(fail),
			checks)}
	}
	checks := m.scalarChecks(s, r.k, Id("x"), path)
	if len(checks) == 0 {
		return []Code{If(List(Id("_"), Id("msg")).Op(":=").Add(wire(r.fn)).Call(x), Id("msg").Op("!=").Lit("")).Block(fail)}
	}
	return []Code{If(List(Id("x"), Id("msg")).Op(":=").Add(wire(r.fn)).Call(x), Id("msg").Op("!=").Lit("")).Block(fail).Else().Block(checks...)}
}

// ifElse is the if statement s, with an else block of checks when there
// are any.
func ifElse(s *Statement, checks []Code) Code {
	if len(checks) == 0 {
		return s
	}
	return s.Else().Block(checks...)
}
