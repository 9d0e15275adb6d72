package golang

import (
	"fmt"
	"strings"

	. "github.com/dave/jennifer/jen"
)

// A oneOf is a sealed sum type: an interface with one unexported marker
// method (isShape), implemented only by the variant types, so that nothing
// else can be assigned to it and a type switch is the natural way to take
// it apart. The variant types this package declares (structs, enums,
// named slices and maps) carry the marker method themselves; every other
// variant gets a small named type that does (a scalar IDOrNameString
// string, a code-first type, any JSON value), or a struct holding it in
// Value when the variant is itself a union (an interface cannot have
// methods). Decoding stores values, never pointers; encoding and
// validation accept pointers to variants as well.
//
// With a discriminator, the union writes the discriminator property from
// the variant's type when it encodes or validates a value: the variant's
// field is derived, so a wrong or missing tag cannot reach the wire.

// noteTags adds to the discriminator field of every variant struct a
// sentence saying that the union fills it in.
func noteTags(nodes []*node) {
	for _, n := range nodes {
		if n.kind != kOneOf || n.alias != nil || n.disc == nil {
			continue
		}
		for _, vr := range n.variants {
			r := vr.node.real()
			if vr.value == "" || vr.boxed || r.kind != kStruct || r.ext != "" {
				continue
			}
			for _, f := range r.fields {
				if f.jsonName == n.disc.PropertyName && f.node.real().kind == kString && f.node.real().goT == "" {
					f.doc = append(f.doc, fmt.Sprintf("Through the %s union, %s is always written as %q: it need not be set.", n.name, f.goName, vr.value))
				}
			}
		}
	}
}

// marker is the name of the union's marker method.
func (n *node) marker() string { return "is" + n.name }

// variantType is the Go type of a variant as it is stored in the union.
func variantType(vr *variant) *Statement {
	if vr.wrap != "" {
		return Id(vr.wrap)
	}
	return goType(vr.node)
}

// wrapValue converts x, a value of the variant's own Go type, to the type
// stored in the union.
func wrapValue(vr *variant, x *Statement) *Statement {
	switch {
	case vr.boxed:
		return Id(vr.wrap).Values(Dict{Id("Value"): x})
	case vr.wrap != "":
		return Id(vr.wrap).Call(x)
	}
	return x
}

// unwrapValue converts x, a value of the type stored in the union, back to
// the variant's own Go type.
func unwrapValue(vr *variant, x *Statement) *Statement {
	switch {
	case vr.boxed:
		return Add(x).Dot("Value")
	case vr.wrap != "":
		return goType(vr.node).Call(x)
	}
	return x
}

// declareUnion emits the interface of a oneOf node, the wrapper types of
// its variants that need one, and the marker methods.
func (m *Model) declareUnion(f *File, n *node, fallback string) {
	doc := comment(n.doc, fallback)
	var names []string
	for _, vr := range n.variants {
		names = append(names, typeText(vr))
	}
	doc += "\n\n" + fmt.Sprintf("%s is one of %s: only those types implement it, and a type switch tells them apart.", n.name, strings.Join(names, ", "))
	if n.disc != nil {
		doc += fmt.Sprintf(" Encoding writes the %q property from the variant's type.", n.disc.PropertyName)
	}
	f.Comment(lc(doc))
	f.Comment("//sumtype:decl")
	f.Type().Id(n.name).Interface(Id(n.marker()).Params())
	for _, vr := range n.variants {
		if vr.wrap == "" {
			continue
		}
		if vr.boxed {
			f.Comment(lcf("%s is the %s variant of %s.", vr.wrap, typeText(&variant{node: vr.node}), n.name))
			f.Type().Id(vr.wrap).Struct(Id("Value").Add(goType(vr.node)))
			continue
		}
		f.Comment(lcf("%s is the %s variant of %s.", vr.wrap, typeText(&variant{node: vr.node}), n.name))
		f.Type().Id(vr.wrap).Add(goType(vr.node))
	}
	for _, vr := range n.variants {
		f.Func().Params(variantType(vr)).Id(n.marker()).Params().Block()
	}
	f.Comment(lcf("append%s appends the JSON encoding of v to b: null when v is nil,\nwhich the validator reports.", n.name))
	f.Func().Id("append"+n.name).Params(Id("b").Index().Byte(), Id("v").Id(n.name)).Index().Byte().Block(m.appendUnion(n)...)
}

// typeText is how a doc comment names a variant's type: the Go type, or
// the JSON type of an anonymous one.
func typeText(vr *variant) string {
	if vr.wrap != "" {
		return vr.wrap
	}
	if vr.node.hasTypeName() || vr.node.ext != "" {
		return fmt.Sprintf("%#v", goType(vr.node))
	}
	if s := shapeName(vr.node.schema); s != "" {
		return s
	}
	return "JSON"
}

// setTag assigns the discriminator value of vr to the discriminator field
// of x, a variant value: nothing when the union has no discriminator or
// the variant no string field for it.
func setTag(n *node, vr *variant, x *Statement) []Code {
	if n.disc == nil || vr.value == "" || vr.boxed {
		return nil
	}
	r := vr.node.real()
	if r.kind != kStruct || r.ext != "" {
		return nil
	}
	for _, f := range r.fields {
		if f.jsonName != n.disc.PropertyName {
			continue
		}
		fr := f.node.real()
		if fr.kind != kString || fr.goT != "" {
			return nil
		}
		lit := Lit(vr.value)
		if f.node.hasTypeName() {
			lit = Id(f.node.name).Call(lit)
		}
		if f.ptr {
			lit = New(lit) // Go 1.26: new takes an expression
		}
		return []Code{Add(x).Dot(f.goName).Op("=").Add(lit)}
	}
	return nil
}

// appendUnion is the body of appendX for a oneOf node.
func (m *Model) appendUnion(n *node) []Code {
	var cases []Code
	for _, vr := range n.variants {
		x := Id("x")
		body := setTag(n, vr, x)
		body = append(body, Return(appendValue(vr.node, unwrapValue(vr, x), false)))
		cases = append(cases,
			Case(variantType(vr)).Block(body...),
			Case(Op("*").Add(variantType(vr))).Block(
				If(Id("x").Op("!=").Nil()).Block(Return(Id("append"+n.name).Call(Id("b"), Op("*").Id("x")))),
			),
		)
	}
	return []Code{
		Switch(Id("x").Op(":=").Id("v").Assert(Type())).Block(cases...),
		Return(Append(Id("b"), Lit("null").Op("..."))),
	}
}

// validateUnion is the body of validateX for a oneOf node: the variant's
// own checks, and a violation for nil.
func (m *validateEmitter) validateUnion(n *node) []Code {
	var cases []Code
	for _, vr := range n.variants {
		x := Id("x")
		var body []Code
		r := vr.node.real()
		switch {
		case vr.boxed:
			body = m.checkValue(vr.node, Op("&").Add(x).Dot("Value"), Add(x).Dot("Value"), Id("p"))
		case r.unit():
			if r.validates {
				ptr := Op("&").Add(x)
				if vr.wrap != "" {
					ptr = Parens(Op("*").Add(goType(vr.node))).Call(ptr)
				}
				body = append(setTag(n, vr, x), m.checkValue(vr.node, ptr, nil, Id("p"))...)
			}
		default:
			body = m.checkValue(vr.node, nil, unwrapValue(vr, x), Id("p"))
		}
		body = append(body, Return())
		cases = append(cases,
			Case(variantType(vr)).Block(body...),
			Case(Op("*").Add(variantType(vr))).Block(
				If(Id("x").Op("!=").Nil()).Block(
					Id("y").Op(":=").Id(n.name).Call(Op("*").Id("x")),
					Id("validate"+n.name).Call(Id("p"), Op("&").Id("y"), Id("e")),
					Return(),
				),
			),
		)
	}
	return []Code{
		Switch(Id("x").Op(":=").Parens(Op("*").Id("v")).Assert(Type())).Block(cases...),
		addErr(Id("p"), wire("MsgOneOf").Call(Lit(0))),
	}
}

// decodeUnion is the body of decodeX for a oneOf node: by the
// discriminator when there is one, by trying each variant otherwise.
func (m *validateEmitter) decodeUnion(n *node) []Code {
	out := []Code{Op("*").Id("v").Op("=").Nil()}
	if n.disc != nil {
		m.helpers["discriminator"] = true
		prop := n.disc.PropertyName
		var cases []Code
		var values []Code
		var words []string
		seen := map[string]bool{}
		for _, vr := range n.variants {
			// A variant no discriminator value selects (an inline one in
			// OpenAI's document) cannot be decoded by tag; one that
			// several select is decoded for each of them.
			var sel []Code
			for _, val := range vr.values {
				if seen[val] {
					continue
				}
				seen[val] = true
				sel = append(sel, Lit(val))
				values = append(values, Lit(val))
				words = append(words, val)
			}
			if len(sel) == 0 {
				continue
			}
			body := []Code{Id("d").Op(":=").Op("&").Id("sub"), Var().Id("x").Add(goType(vr.node))}
			body = append(body, m.decodeSlot(&slot{node: vr.node}, Id("x"), Id("p"), nil)...)
			body = append(body, Op("*").Id("v").Op("=").Add(wrapValue(vr, Id("x"))), Return(Nil()))
			cases = append(cases, Case(sel...).Block(body...))
		}
		discCall := wire("MsgDiscriminator").Call(Index().String().Values(values...))
		discKey := callKey("MsgDiscriminator", stringsKey(words))
		return append(out,
			kindCheck("object", "KindObject"),
			List(Id("raw"), Err()).Op(":=").Id("d").Dot("ReadRaw").Call(),
			If(Err().Op("!=").Nil()).Block(Return(Err())),
			List(Id("tag"), Id("found"), Err()).Op(":=").Id("discriminator").Call(Id("raw"), Lit(prop)),
			If(Err().Op("!=").Nil()).Block(Return(Err())),
			Var().Id("sub").Add(wire("Decoder")),
			Id("sub").Dot("Reset").Call(Id("raw")),
			Switch(Id("tag")).Block(cases...),
			Id("c").Op(":=").Id("p").Dot("Child").Call(Lit(prop)),
			If(Op("!").Id("found")).Block(
				addErr(Op("&").Id("c"), wire("MsgRequired")),
			).Else().Block(
				addErr(Op("&").Id("c"), m.message(listName("msgDiscriminator", words, discKey), discKey, discCall)),
			),
			Return(Nil()),
		)
	}
	for _, vr := range n.variants {
		if jsonKindOf(vr.node) != "" {
			out = append(out, Id("kind").Op(":=").Id("d").Dot("Peek").Call())
			break
		}
	}
	out = append(out,
		List(Id("raw"), Err()).Op(":=").Id("d").Dot("ReadRaw").Call(),
		If(Err().Op("!=").Nil()).Block(Return(Err())),
		Var().Id("sub").Add(wire("Decoder")),
		Id("matched").Op(":=").Lit(0),
	)
	// An anyOf keeps the first variant that matches; a value that matches
	// several (a string, and a string of an enum) is valid.
	anyOf := n.schema != nil && n.schema.AnyOf
	for _, vr := range n.variants {
		// Each variant is tried on its own decoder and error list, shadowing
		// d and e so the decode and check code is the same as elsewhere.
		// Only variants of the value's JSON kind are tried, and every try
		// is charged to the document's trial budget (wire.Decoder.Fork),
		// so nested unions cannot re-read the input exponentially often.
		block := []Code{
			Var().Id("ve").Add(wire("Errors")),
			List(Id("d"), Id("e")).Op(":=").List(Op("&").Id("sub"), Op("&").Id("ve")),
			Var().Id("x").Add(goType(vr.node)),
		}
		block = append(block, m.decodeSlot(&slot{node: vr.node}, Id("x"), Id("p"), nil)...)
		block = append(block, If(Id("e").Dot("Len").Call().Op("==").Lit(0)).Block(
			Op("*").Id("v").Op("=").Add(wrapValue(vr, Id("x"))),
			Id("matched").Op("++"),
		))
		try := Id("d").Dot("Fork").Call(Op("&").Id("sub"), Id("raw"))
		if k := jsonKindOf(vr.node); k != "" {
			try = Id("kind").Op("==").Add(wire(k)).Op("&&").Add(try)
		}
		if anyOf {
			try = Id("matched").Op("==").Lit(0).Op("&&").Add(try)
		}
		out = append(out, If(try).Block(block...))
	}
	check := If(Id("matched").Op("!=").Lit(1)).Block(
		Op("*").Id("v").Op("=").Nil(),
		addErr(Id("p"), wire("MsgOneOf").Call(Id("matched"))),
	)
	if anyOf {
		check = If(Id("matched").Op("==").Lit(0)).Block(
			Op("*").Id("v").Op("=").Nil(),
			addErr(Id("p"), wire("MsgAnyOf")),
		)
	}
	return append(out,
		If(Id("d").Dot("EndTrials").Call(Op("&").Id("sub"))).Block(
			Op("*").Id("v").Op("=").Nil(),
			addErr(Id("p"), wire("MsgTooComplex")),
			Return(Nil()),
		),
		check,
		Return(Nil()),
	)
}
