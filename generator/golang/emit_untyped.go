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

// typeListChecks checks the raw JSON value x of a schema with a list of
// types (spec.Schema.Types): a value of another kind is a type error
// (must be a string or an integer, not a boolean); a listed string,
// integer, number or boolean is checked by its type's keywords, read by
// the wire.Raw* reader of that type (of number when the list holds both
// integer and number, an integer being a number).
func (m *validateEmitter) typeListChecks(s *spec.Schema, x *Statement, path Code) []Code {
	var cases []Code
	var number spec.Kind
	for _, t := range s.Types {
		switch {
		case t == spec.KindNumber, t == spec.KindInteger && number == "":
			number = t
		}
	}
	jsonKinds := []struct {
		wire string
		kind spec.Kind
	}{
		{"KindString", spec.KindString}, {"KindNumber", number}, {"KindBool", spec.KindBoolean},
		{"KindObject", spec.KindObject}, {"KindArray", spec.KindArray}, {"KindNull", spec.KindNull},
	}
	for _, jk := range jsonKinds {
		if jk.kind == "" || !s.Lists(jk.kind) {
			continue
		}
		var body []Code
		if jk.kind != spec.KindObject && jk.kind != spec.KindArray && jk.kind != spec.KindNull {
			// The keywords of that type, on the value read as that type.
			b := &spec.Schema{Type: jk.kind, Applied: spec.Applied{OnAny: true},
				MinLength: s.MinLength, MaxLength: s.MaxLength, Pattern: s.Pattern, Format: s.Format,
				Minimum: s.Minimum, Maximum: s.Maximum, ExclusiveMinimum: s.ExclusiveMinimum,
				ExclusiveMaximum: s.ExclusiveMaximum, MultipleOf: s.MultipleOf}
			if jk.kind == spec.KindInteger || scalarChecks(b, map[spec.Kind]kind{spec.KindString: kString, spec.KindNumber: kFloat, spec.KindBoolean: kBool}[jk.kind]) {
				body = m.rawTypedChecks(b, x, path)
			}
		}
		cases = append(cases, Case(wire(jk.wire)).Block(body...))
	}
	cases = append(cases, Default().Block(addErr(path, wire("MsgType").Call(Lit(s.TypeNames()), Id("rk")))))
	return []Code{Switch(Id("rk").Op(":=").Add(wire("RawKind")).Call(x), Id("rk")).Block(cases...)}
}
