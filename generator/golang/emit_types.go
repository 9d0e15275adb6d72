package golang

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	. "github.com/dave/jennifer/jen"
)

// The runtime's three packages, one per audience (see ARCHITECTURE.md).
const (
	runtimePkg  = "github.com/mcpgen-dev/mcpgen/runtime"
	wirePkg     = runtimePkg + "/wire"
	upstreamPkg = runtimePkg + "/upstream"
	jsonPkg     = "encoding/json"
)

// rt names an identifier of the server core: Server, the definitions the
// generated NewServer registers, and the results handlers return.
func rt(name string) *Statement { return Qual(runtimePkg, name) }

// wire names an identifier of the JSON toolkit generated decoders,
// encoders and validators call.
func wire(name string) *Statement { return Qual(wirePkg, name) }

// upstream names an identifier of the REST client OpenAPI wrappers call.
func upstream(name string) *Statement { return Qual(upstreamPkg, name) }

// NameRuntimeImports gives f the package names of the runtime's import
// paths, so that generated files import them without aliases.
func NameRuntimeImports(f *File) {
	f.ImportName(runtimePkg, "runtime")
	f.ImportName(wirePkg, "wire")
	f.ImportName(upstreamPkg, "upstream")
}

// hasTypeName reports whether the node is referred to by its own name.
func (n *node) hasTypeName() bool {
	return n.declared || n.alias != nil || n.kind == kRaw && n.name != ""
}

// goType is the Go type of a node.
func goType(n *node) *Statement {
	if n.ext != "" {
		return goExpr(n.ext)
	}
	if n.goT != "" && !n.declared {
		if n.name != "" {
			return Id(n.name) // a named format type, an alias of goT
		}
		return goExpr(n.goT)
	}
	if n.hasTypeName() {
		return Id(n.name)
	}
	return baseType(n)
}

// baseType is the Go type a node is declared as.
func baseType(n *node) *Statement {
	switch n.kind {
	case kString:
		return String()
	case kInt:
		return Int64()
	case kFloat:
		return Float64()
	case kBool:
		return Bool()
	case kSlice:
		return Index().Add(slotType(n.elem))
	case kMap:
		return Map(String()).Add(slotType(n.elem))
	}
	return Qual(jsonPkg, "RawMessage")
}

func slotType(s *slot) *Statement {
	if s.ptr {
		return Op("*").Add(goType(s.node))
	}
	return goType(s.node)
}

// comment turns doc paragraphs into one comment, paragraphs separated by
// an empty comment line.
func comment(doc []string, fallback string) string {
	var ps []string
	for i, d := range doc {
		if i == 0 && d == "" {
			d = fallback
		}
		if d != "" {
			ps = append(ps, strings.TrimSpace(d))
		}
	}
	if len(ps) == 0 {
		ps = []string{fallback}
	}
	return strings.Join(ps, "\n\n")
}

// TypesFile emits mcpgen_types_gen.go: the declarations and their
// AppendJSON, MarshalJSON and UnmarshalJSON methods, and the append
// functions of anonymous slices and maps.
func (m *Model) TypesFile(f *File) {
	for _, n := range m.nodes {
		fallback := n.name + " is generated from the spec."
		switch {
		case n.ext != "":
			m.externalFuncs(f, n)
		case n.alias != nil:
			f.Comment(lc(comment(n.doc, fallback)))
			f.Type().Id(n.name).Op("=").Add(goType(n.alias))
		case n.kind == kRaw && n.name != "":
			f.Comment(lc(comment(n.doc, fallback)))
			f.Type().Id(n.name).Op("=").Qual(jsonPkg, "RawMessage")
		case n.goT != "" && n.name != "":
			f.Comment(lc(comment(n.doc, fallback)))
			f.Type().Id(n.name).Op("=").Add(goExpr(n.goT))
		case n.declared && n.kind == kOneOf:
			m.declareUnion(f, n, fallback)
		case n.declared:
			m.declare(f, n, fallback)
		default: // anonymous slice or map
			f.Comment(lcf("append%s appends the JSON encoding of a %s value to b.", n.name, n.name))
			f.Func().Id("append"+n.name).Params(Id("b").Index().Byte(), Id("v").Add(goType(n))).Index().Byte().Block(m.appendBody(n)...)
		}
	}
	for _, p := range m.prompts {
		var fields []Code
		for _, pf := range p.fields {
			c := Id(pf.goName)
			if pf.a.Required {
				c.String()
			} else {
				c.Op("*").String()
			}
			doc := pf.a.Description
			if doc == "" {
				doc = pf.a.Title
			}
			if doc != "" {
				c = Comment(lc(doc)).Line().Add(c)
			}
			fields = append(fields, c)
		}
		f.Comment(lcf("%s holds the arguments of the %q prompt.", p.args, p.p.Name))
		f.Type().Id(p.args).Struct(fields...)
	}
}

func (m *Model) declare(f *File, n *node, fallback string) {
	f.Comment(lc(comment(n.doc, fallback)))
	switch n.kind {
	case kStruct:
		var fields []Code
		for _, fl := range n.fields {
			c := Id(fl.goName).Add(slotType(&fl.slot))
			doc := fl.doc
			if plainTagName(fl.jsonName) {
				tag := fl.jsonName
				if !fl.required && fl.def == nil {
					tag += ",omitempty"
				}
				c = c.Tag(map[string]string{"json": tag})
			} else {
				// A struct tag cannot carry this name (vet rejects spaces,
				// encoding/json commas and quotes); the generated
				// MarshalJSON and UnmarshalJSON use it, so the comment says it.
				doc = append(append([]string(nil), doc...), fmt.Sprintf("JSON name: %q.", fl.jsonName))
			}
			if len(doc) > 0 {
				c = Comment(lc(comment(doc, ""))).Line().Add(c)
			}
			fields = append(fields, c)
			if fl.nullFlag != "" {
				fields = append(fields, Comment(lc(wrap(fmt.Sprintf(
					"%s says %s was null, not absent (%s is nil either way): AppendJSON and the request to a wrapped API write null when it is set and %s is nil.",
					fl.nullFlag, strconv.Quote(fl.jsonName), fl.goName, fl.goName)))).Line().
					Id(fl.nullFlag).Bool().Tag(map[string]string{"json": "-"}))
			}
		}
		if n.extra {
			fields = append(fields, Comment(lc(extraDoc(n.schema))).Line().
				Id("AdditionalProperties").Map(String()).Add(slotType(n.elem)).Tag(map[string]string{"json": "-"}))
		}
		f.Type().Id(n.name).Struct(fields...)
	case kTuple:
		f.Type().Id(n.name).Add(tupleDecl(n))
	default:
		f.Type().Id(n.name).Add(baseType(n))
	}
	if len(n.enum) > 0 {
		var cs []Code
		for _, c := range n.enum {
			cs = append(cs, Id(c.name).Id(n.name).Op("=").Add(jsonLit(c.value, n.kind)))
		}
		f.Comment(lcf("The values of %s.", n.name))
		f.Const().Defs(cs...)
	}
	f.Comment(lcf("AppendJSON appends the JSON encoding of v to b."))
	f.Func().Params(Id("v").Id(n.name)).Id("AppendJSON").Params(Id("b").Index().Byte()).Index().Byte().Block(m.appendBody(n)...)
	f.Comment(lcf("MarshalJSON encodes v as JSON."))
	f.Func().Params(Id("v").Id(n.name)).Id("MarshalJSON").Params().Params(Index().Byte(), Error()).Block(
		Return(Id("v").Dot("AppendJSON").Call(Nil()), Nil()),
	)
	f.Comment(lc("UnmarshalJSON decodes and validates data into v, returning every\nviolation of the schema at once (see wire.Unmarshaler)."))
	f.Func().Params(Id("v").Op("*").Id(n.name)).Id("UnmarshalJSON").Params(Id("data").Index().Byte()).Error().Block(unmarshalBody(n)...)
}

// unmarshalBody is the body of a function that decodes and validates data
// into v with the generated decoder of n.
func unmarshalBody(n *node) []Code {
	return []Code{
		Var().Id("u").Add(wire("Unmarshaler")),
		Return(Id("u").Dot("Done").Call(Id("decode"+n.name).Call(
			Id("u").Dot("Start").Call(Id("data")), Id("u").Dot("Root").Call(), Id("v"), Id("u").Dot("Errors").Call()))),
	}
}

// jsonLit is the Go literal of a JSON scalar of the given kind.
func jsonLit(raw json.RawMessage, k kind) *Statement {
	switch k {
	case kString:
		var s string
		json.Unmarshal(raw, &s)
		return Lit(s)
	case kInt:
		n, err := strconv.ParseInt(string(raw), 10, 64)
		if err != nil {
			// An integral value written as a number with a fraction or an
			// exponent (1.0, 1e3).
			x, _ := strconv.ParseFloat(string(raw), 64)
			n = int64(x)
		}
		if n >= math.MinInt32 && n <= math.MaxInt32 {
			return Lit(int(n))
		}
		return Lit(n)
	case kFloat:
		x, _ := strconv.ParseFloat(string(raw), 64)
		return Lit(x)
	case kBool:
		return Lit(string(raw) == "true")
	}
	return Index().Byte().Call(Lit(string(raw)))
}

// appendBody is the body of AppendJSON or appendX for a node named v.
func (m *Model) appendBody(n *node) []Code {
	v := Id("v")
	switch n.kind {
	case kString:
		return []Code{Return(wire("AppendString").Call(Id("b"), String().Call(v)))}
	case kInt:
		return []Code{Return(wire("AppendInt").Call(Id("b"), Int64().Call(v)))}
	case kFloat:
		return []Code{Return(wire("AppendFloat").Call(Id("b"), Float64().Call(v)))}
	case kBool:
		return []Code{Return(wire("AppendBool").Call(Id("b"), Bool().Call(v)))}
	case kSlice:
		return []Code{
			Id("b").Op("=").Append(Id("b"), LitRune('[')),
			For(List(Id("i"), Id("x")).Op(":=").Range().Add(v)).Block(append([]Code{
				If(Id("i").Op(">").Lit(0)).Block(Id("b").Op("=").Append(Id("b"), LitRune(','))),
			}, appendSlot(n.elem, Id("x"))...)...),
			Return(Append(Id("b"), LitRune(']'))),
		}
	case kMap:
		return []Code{
			Id("b").Op("=").Append(Id("b"), LitRune('{')),
			For(List(Id("i"), Id("k")).Op(":=").Range().Qual("slices", "Sorted").Call(Qual("maps", "Keys").Call(v))).Block(append([]Code{
				If(Id("i").Op(">").Lit(0)).Block(Id("b").Op("=").Append(Id("b"), LitRune(','))),
				Id("b").Op("=").Add(wire("AppendString")).Call(Id("b"), Id("k")),
				Id("b").Op("=").Append(Id("b"), LitRune(':')),
			}, appendSlot(n.elem, Id("v").Index(Id("k")))...)...),
			Return(Append(Id("b"), LitRune('}'))),
		}
	case kOneOf:
		return m.appendUnion(n)
	case kStruct:
		return m.appendStruct(n)
	case kTuple:
		return m.appendTuple(n)
	}
	return []Code{Return(wire("AppendRawOrNull").Call(Id("b"), v))}
}

func (m *Model) appendStruct(n *node) []Code {
	const (
		none = iota
		some
		maybe
	)
	state := none
	comma := If(Id("b").Index(Len(Id("b")).Op("-").Lit(1)).Op("!=").LitRune('{')).Block(Id("b").Op("=").Append(Id("b"), LitRune(',')))
	out := []Code{Id("b").Op("=").Append(Id("b"), LitRune('{'))}
	for _, f := range n.fields {
		key, _ := json.Marshal(f.jsonName)
		var stmts []Code
		switch state {
		case some:
			stmts = append(stmts, Id("b").Op("=").Append(Id("b"), Lit(","+string(key)+":").Op("...")))
		case maybe:
			stmts = append(stmts, comma, Id("b").Op("=").Append(Id("b"), Lit(string(key)+":").Op("...")))
		default:
			stmts = append(stmts, Id("b").Op("=").Append(Id("b"), Lit(string(key)+":").Op("...")))
		}
		fv := Id("v").Dot(f.goName)
		if cond := present(f, fv); !f.required && f.def == nil && cond != nil {
			// Optional: nil (or, in a code-first type, zero) means absent,
			// unless the null flag says null.
			key := slices.Clone(stmts)
			stmts = append(stmts, Id("b").Op("=").Add(appendValue(f.node, fv, f.ptr)))
			stmt := If(cond).Block(stmts...)
			if f.nullFlag != "" {
				stmt = stmt.Else().If(Id("v").Dot(f.nullFlag)).Block(append(key, Id("b").Op("=").Append(Id("b"), Lit("null").Op("...")))...)
			}
			out = append(out, stmt)
			if state == none {
				state = maybe
			}
			continue
		}
		out = append(out, stmts...)
		out = append(out, appendSlot(&f.slot, fv)...)
		state = some
	}
	if n.extra {
		out = append(out, For(List(Id("_"), Id("k")).Op(":=").Range().Qual("slices", "Sorted").Call(Qual("maps", "Keys").Call(Id("v").Dot("AdditionalProperties")))).Block(append([]Code{
			comma,
			Id("b").Op("=").Add(wire("AppendString")).Call(Id("b"), Id("k")),
			Id("b").Op("=").Append(Id("b"), LitRune(':')),
		}, appendSlot(n.elem, Id("v").Dot("AdditionalProperties").Index(Id("k")))...)...))
	}
	return append(out, Return(Append(Id("b"), LitRune('}'))))
}

// appendSlot appends the value x held in slot s, writing null for a nil
// pointer and a nil nullable slice or map.
func appendSlot(s *slot, x *Statement) []Code {
	set := Id("b").Op("=").Add(appendValue(s.node, x, s.ptr))
	if k := s.node.real().kind; s.ptr || s.nullable && (k == kSlice || k == kMap || k == kOneOf || s.node.real().isBytes()) {
		return []Code{If(Add(x).Op("==").Nil()).Block(
			Id("b").Op("=").Append(Id("b"), Lit("null").Op("...")),
		).Else().Block(set)}
	}
	return []Code{set}
}

// appendValue is the expression appending x (a pointer when ptr) to b.
func appendValue(n *node, x *Statement, ptr bool) *Statement {
	r := n.real()
	val := x
	if ptr {
		val = Op("*").Add(x)
	}
	switch {
	case r.isBytes():
		return wire("AppendBase64").Call(Id("b"), val)
	case r.isTime():
		return wire("AppendDateTimeJSON").Call(Id("b"), val)
	case r.isDate():
		return operand(val).Dot("AppendJSON").Call(Id("b"))
	}
	if r.convertible() {
		val = r.canonical(val)
	}
	switch {
	case r.ext != "", r.kind == kOneOf:
		return Id("append"+r.name).Call(Id("b"), val)
	case r.declared && r.kind != kRaw:
		// A named raw type is an alias of json.RawMessage: no methods.
		return Add(x).Dot("AppendJSON").Call(Id("b"))
	case r.kind == kSlice || r.kind == kMap:
		return Id("append"+r.name).Call(Id("b"), val)
	case r.kind == kString:
		return wire("AppendString").Call(Id("b"), val)
	case r.kind == kInt:
		return wire("AppendInt").Call(Id("b"), val)
	case r.kind == kFloat:
		return wire("AppendFloat").Call(Id("b"), val)
	case r.kind == kBool:
		return wire("AppendBool").Call(Id("b"), val)
	}
	return wire("AppendRawOrNull").Call(Id("b"), val)
}

// isIntegral reports whether x is a whole number that fits an int64.
func isIntegral(x float64) bool {
	return x == math.Trunc(x) && math.Abs(x) < 1<<53
}

// commentWidth is the longest line of comment text wrap makes: with "// "
// in front, a top-level comment ends by column 80.
const commentWidth = 77

// wrap re-flows each prose paragraph of text (paragraphs are separated by
// blank lines) that has a line longer than commentWidth characters, keeping
// words whole. A paragraph whose lines all fit keeps them, and so does one
// that looks laid out by hand (a list, an indented block, a table or a
// heading).
func wrap(text string) string {
	text = strings.TrimSpace(text)
	if !tooLong(text) {
		// Nothing to re-flow (most doc comments): no paragraph is touched.
		return text
	}
	paras := strings.Split(text, "\n\n")
	for i, p := range paras {
		if laidOut(p) || !tooLong(p) {
			continue
		}
		var lines []string
		line := ""
		for _, w := range strings.Fields(p) {
			switch {
			case line == "":
				line = w
			case utf8.RuneCountInString(line)+1+utf8.RuneCountInString(w) <= commentWidth:
				line += " " + w
			default:
				lines = append(lines, line)
				line = w
			}
		}
		paras[i] = strings.Join(append(lines, line), "\n")
	}
	return strings.Join(paras, "\n\n")
}

// tooLong reports whether a line of p is longer than commentWidth.
func tooLong(p string) bool {
	for p != "" {
		line, rest, _ := strings.Cut(p, "\n")
		if len(line) > commentWidth && utf8.RuneCountInString(line) > commentWidth {
			return true
		}
		p = rest
	}
	return false
}

// laidOut reports whether a paragraph has line structure to keep.
func laidOut(p string) bool {
	for _, l := range strings.Split(p, "\n") {
		if l == "" {
			continue
		}
		if l[0] == ' ' || l[0] == '\t' || strings.HasPrefix(l, "```") {
			return true
		}
		f := strings.Fields(l)[0]
		switch {
		case f == "-" || f == "*" || f == "+" || f == "|" || strings.HasPrefix(f, "#") || strings.HasPrefix(f, "|"):
			return true
		case len(f) >= 2 && (f[len(f)-1] == '.' || f[len(f)-1] == ')') && strings.Trim(f[:len(f)-1], "0123456789") == "":
			return true
		}
	}
	return false
}

// lc formats text as // comment lines, so that a multi-line comment is a
// run of line comments. Prose is wrapped at about 80 columns.
func lc(text string) string {
	text = wrap(text)
	var b strings.Builder
	b.Grow(len(text) + 3*(strings.Count(text, "\n")+1))
	for i, l := range strings.Split(text, "\n") {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString("//")
		if l = strings.TrimRight(l, " \t"); l != "" {
			b.WriteByte(' ')
			b.WriteString(l)
		}
	}
	return b.String()
}

func lcf(format string, args ...any) string { return lc(fmt.Sprintf(format, args...)) }

// plainTagName reports whether a JSON property name can stand in a json
// struct tag as it is: the characters encoding/json accepts in a tag name,
// without the space that go vet flags.
func plainTagName(name string) bool {
	if name == "" {
		return false
	}
	for _, r := range name {
		switch {
		case unicode.IsLetter(r), unicode.IsDigit(r):
		case strings.ContainsRune("!#$%&()*+-./:;<=>?@[]^_{|}~", r):
		default:
			return false
		}
	}
	return true
}
