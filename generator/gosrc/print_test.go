package gosrc

import (
	"go/format"
	"strings"
	"testing"
)

// gofmtClean fails t unless src is what gofmt makes of it.
func gofmtClean(t *testing.T, src []byte) {
	t.Helper()
	formatted, err := format.Source(src)
	if err != nil {
		t.Fatalf("does not parse: %v\n%s", err, src)
	}
	if string(formatted) != string(src) {
		t.Fatalf("not gofmt-formatted:\n--- got\n%s\n--- gofmt\n%s", src, formatted)
	}
}

// file prints one function of the statements in a file of package p.
func file(stmts ...Code) *File {
	f := NewFile("p")
	f.Comment("f is a test.")
	f.Func().Id("f").Params().Block(stmts...)
	return f
}

func TestPrintMatchesGofmt(t *testing.T) {
	x, y := Id("x"), Id("y")
	tests := []struct {
		name string
		f    func() *File
		want string // a line the output must hold
	}{
		{"precedence at depth 1", func() *File {
			return file(Id("a").Op(":=").Add(x).Op("+").Add(y).Op("*").Lit(2))
		}, "a := x + y*2"},
		{"one precedence at depth 1", func() *File {
			return file(Id("a").Op(":=").Add(x).Op("*").Add(y).Op("*").Lit(2))
		}, "a := x * y * 2"},
		{"index is deeper", func() *File {
			return file(Id("a").Op(":=").Add(x).Index(Len(x).Op("-").Lit(1)))
		}, "a := x[len(x)-1]"},
		{"arguments of a call of two are deeper", func() *File {
			return file(Id("f").Call(Add(x).Op("+").Lit(1), y))
		}, "f(x+1, y)"},
		{"one argument keeps its depth", func() *File {
			return file(Id("f").Call(Add(x).Op("+").Lit(1)))
		}, "f(x + 1)"},
		{"operand of a binary expression is deeper", func() *File {
			return file(Id("a").Op(":=").Id("f").Call(Add(x).Op("+").Lit(1)).Op("==").Add(y))
		}, "a := f(x+1) == y"},
		{"parentheses undo a level", func() *File {
			return file(Id("a").Op(":=").Add(x).Index(Parens(Add(x).Op("+").Lit(1)).Op("*").Lit(2)))
		}, "a := x[(x+1)*2]"},
		{"logical operators keep blanks", func() *File {
			return file(If(Add(x).Op("==").Nil().Op("&&").Op("!").Add(y).Op("||").Len(x).Op(">").Lit(0)).Block(Return()))
		}, "if x == nil && !y || len(x) > 0 {"},
		{"unary after binary", func() *File {
			return file(Id("a").Op(":=").Add(x).Op("-").Op("-").Add(y))
		}, "a := x - -y"},
		{"slice with binary bounds", func() *File {
			return file(Id("a").Op(":=").Add(x).Index(Id("i").Op("+").Lit(1), Len(x)))
		}, "a := x[i+1 : len(x)]"},
		{"if with init and else if", func() *File {
			return file(If(Err().Op(":=").Id("g").Call(), Err().Op("!=").Nil()).Block(Return()).Else().If(x).Block(Return()).Else().Block(Return()))
		}, "} else if x {"},
		{"for clauses", func() *File {
			return file(For(Id("i").Op(":=").Lit(0), Empty(), Id("i").Op("++")).Block(Break()),
				For(List(Id("k"), Id("v")).Op(":=").Range().Id("m")).Block(),
			)
		}, "for i := 0; ; i++ {"},
		{"switch without tag and with case blocks", func() *File {
			return file(Switch().Block(Case(x, y).Block(Return()), Default().Block(Return())))
		}, "\tcase x, y:\n\t\treturn\n\tdefault:"},
		{"keyed literal aligned", func() *File {
			return file(Id("a").Op(":=").Id("T").MultiValues(
				Id("Name").Op(":").Lit("n"),
				Id("Description").Op(":").Lit("d"),
				Id("Call").Op(":").Func().Params(Id("x").Int()).Block(Return()),
				Id("Scope").Op(":").Lit("s"),
			))
		}, "\t\tName:        \"n\",\n\t\tDescription: \"d\",\n\t\tCall: func(x int) {"},
		{"a much longer key starts a new section", func() *File {
			return file(Id("a").Op(":=").Id("T").MultiValues(
				Id("A").Op(":").Lit(1),
				Id("B").Op(":").Lit(2),
				Id("AVeryLongKeyThatIsLongerThanFortyCharactersX").Op(":").Lit(3),
				Id("AnotherVeryLongKeyLongerThanFortyCharactersY").Op(":").Lit(4),
			))
		}, "\t\tB: 2,\n\t\tAVeryLongKey"},
		{"single keyed element is not aligned", func() *File {
			return file(Id("a").Op(":=").Id("T").MultiValues(Id("Name").Op(":").Lit("n")))
		}, "\t\tName: \"n\","},
		{"struct fields aligned, a comment ends the section", func() *File {
			f := NewFile("p")
			f.Comment("T is a test.")
			f.Type().Id("T").Struct(
				Id("A").String().Tag(map[string]string{"json": "a"}),
				Id("Longer").Op("*").Id("T").Tag(map[string]string{"json": "longer,omitempty"}),
				Comment("Doc.").Line().Id("C").Map(String()).Index().Byte(),
				Op("*").Id("Embedded"),
			)
			return f
		}, "\tA      string `json:\"a\"`\n\tLonger *T     `json:\"longer,omitempty\"`\n\t// Doc.\n\tC map[string][]byte\n\t*Embedded"},
		{"var block and typed consts aligned", func() *File {
			f := NewFile("p")
			f.Comment("Values.")
			f.Var().Defs(Id("a").Op("=").Lit(1), Id("bbb").Op("=").Qual("strings", "ToUpper").Call(Lit("x")))
			f.Comment("Kinds.")
			f.Const().Defs(Id("KA").Id("Kind").Op("=").Lit("a"), Id("KBBB").Id("Kind").Op("=").Lit("b"))
			return f
		}, "\tKA   Kind = \"a\"\n\tKBBB Kind = \"b\""},
		{"interface with blank lines and doc comments", func() *File {
			f := NewFile("p")
			f.Comment("H is a test.")
			f.Type().Id("H").Interface(
				Comment("A does a.").Line().Id("A").Params(Id("ctx").Qual("context", "Context")).Params(Error()),
				Line().Comment("B does b.").Line().Id("B").Params().Params(Index().Byte(), Error()),
			)
			return f
		}, "\tA(ctx context.Context) error\n\n\t// B does b.\n\tB() ([]byte, error)"},
		{"empty body on the header's line up to 100 columns", func() *File {
			f := NewFile("p")
			f.Comment("Short.")
			f.Func().Id("short").Params().Block()
			f.Comment("Long.")
			f.Func().Id("long" + strings.Repeat("x", 90)).Params().Block()
			return f
		}, "func short() {}"},
		{"doc comment reformatted as gofmt does", func() *File {
			f := NewFile("p")
			f.Comment("// T is a test.\n//\n//   indented code\n//\n// Heading\n//\n// More.")
			f.Type().Id("T").Int()
			return f
		}, "//\n//\tindented code\n//\n// # Heading"},
		{"imports grouped, named when needed", func() *File {
			f := NewFile("p")
			f.ImportName("example.com/x/runtime", "runtime")
			f.Comment("V is a test.")
			f.Var().Id("V").Op("=").Index().Any().Values(Qual("fmt", "Sprint"), Qual("example.com/x/runtime", "F"),
				Qual("example.com/go-thing", "G"), Qual("encoding/json", "Marshal"))
			return f
		}, "import (\n\t\"encoding/json\"\n\t\"fmt\"\n\n\tgothing \"example.com/go-thing\"\n\t\"example.com/x/runtime\"\n)"},
		{"colliding and reserved package names get a number", func() *File {
			f := NewFile("p")
			f.Comment("V is a test.")
			f.Var().Id("V").Op("=").Index().Any().Values(Qual("encoding/json", "Marshal"),
				Qual("example.com/x/json", "J"), Qual("example.com/err", "E"))
			return f
		}, "\t\"encoding/json\"\n\n\terr1 \"example.com/err\"\n\tjson1 \"example.com/x/json\"\n)"},
		{"raw string and literals", func() *File {
			return file(Id("a").Op(":=").Index().Any().Values(Raw("`{\"a\":1}`"), Lit(1.0), Lit(1e6), Lit(int64(5)), LitRune('\''), Lit("q\"")))
		}, "a := []any{`{\"a\":1}`, 1.0, 1e+06, int64(5), '\\'', \"q\\\"\"}"},
		{"function literal and variadic call", func() *File {
			return file(Id("g").Op(":=").Func().Params(Id("xs").Op("...").Int()).Int().Block(Return(Len(Id("xs")))),
				Id("g").Call(Id("ys").Op("...")))
		}, "g := func(xs ...int) int {"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := tt.f().Bytes()
			gofmtClean(t, src)
			if !strings.Contains(string(src), tt.want) {
				t.Errorf("output lacks %q:\n%s", tt.want, src)
			}
		})
	}
}

// TestLaterAndFuncBody checks that declarations added through Later print
// where Later was called, and that a body added statement by statement
// prints as the same function built whole.
func TestLaterAndFuncBody(t *testing.T) {
	stmts := func() []Code {
		return []Code{
			Id("s").Op(":=").Id("T").MultiValues(Id("A").Op(":").Lit(1), Id("Bb").Op(":").Lit(2)),
			If(Id("s").Dot("A").Op(">").Lit(0)).Block(Return(Id("s"))),
			Return(Id("T").Values()),
		}
	}
	whole := NewFile("p")
	whole.Comment("C is a test.")
	whole.Const().Id("C").Op("=").Lit(1)
	whole.Comment("F is a test.")
	whole.Func().Id("F").Params().Id("T").Block(stmts()...)
	whole.Comment("G is a test.")
	whole.Func().Id("G").Params().Block()

	streamed := NewFile("p")
	later := streamed.Later()
	streamed.Comment("F is a test.")
	body := streamed.FuncBody(Func().Id("F").Params().Id("T"))
	for _, s := range stmts() {
		body.Add(s)
	}
	body.End()
	streamed.Comment("G is a test.")
	streamed.FuncBody(Func().Id("G").Params()).End()
	later.Comment("C is a test.")
	later.Const().Id("C").Op("=").Lit(1)

	want, got := whole.Bytes(), streamed.Bytes()
	gofmtClean(t, want)
	if string(got) != string(want) {
		t.Errorf("streamed:\n%s\nwhole:\n%s", got, want)
	}
}

// TestGoString checks the text a statement prints as alone, which names
// the generated message variables.
func TestGoString(t *testing.T) {
	s := Qual("example.com/x/runtime", "MsgEnum").Call(Index().String().Values(Lit("a"), Lit("b")))
	if got, want := s.GoString(), `runtime.MsgEnum([]string{"a", "b"})`; got != want {
		t.Errorf("GoString() = %s, want %s", got, want)
	}
}

// FuzzExpression prints expressions built from the fuzzer's bytes (binary
// and unary operators, calls, indexes, parentheses) and checks that gofmt
// would print them the same: the spacing of binary expressions depends on
// their precedence and depth.
func FuzzExpression(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9})
	f.Add([]byte{3, 9, 4, 7, 1, 2, 12, 5, 6})
	f.Add([]byte{10, 11, 3, 4, 2, 8, 13, 1, 0, 7})
	f.Fuzz(func(t *testing.T, data []byte) {
		g := exprGen{data: data}
		e := g.expr(0)
		src := file(Id("_").Op("=").Add(e)).Bytes()
		formatted, err := format.Source(src)
		if err != nil {
			t.Skip() // not every generated expression is valid Go
		}
		if string(formatted) != string(src) {
			t.Fatalf("not gofmt-formatted:\n--- got\n%s\n--- gofmt\n%s", src, formatted)
		}
	})
}

// exprGen builds an expression from bytes.
type exprGen struct {
	data []byte
	i    int
}

func (g *exprGen) next() int {
	if g.i >= len(g.data) {
		return 0
	}
	b := g.data[g.i]
	g.i++
	return int(b)
}

var fuzzOps = []string{"||", "&&", "==", "<", "+", "-", "|", "^", "*", "/", "%", "<<", "&", "&^"}

func (g *exprGen) expr(depth int) *Statement {
	if depth > 4 || g.i >= len(g.data) {
		return Id("v")
	}
	switch g.next() % 8 {
	case 0, 1, 2:
		// Binary: a chain of operands.
		e := g.expr(depth + 1)
		for n := g.next()%3 + 1; n > 0; n-- {
			e = Add(e).Op(fuzzOps[g.next()%len(fuzzOps)]).Add(g.expr(depth + 1))
		}
		return e
	case 3:
		return Op([]string{"-", "!", "^", "*", "&"}[g.next()%5]).Add(g.expr(depth + 1))
	case 4:
		var args []Code
		for n := g.next() % 3; n >= 0; n-- {
			args = append(args, g.expr(depth+1))
		}
		return Id("f").Call(args...)
	case 5:
		return Id("x").Index(g.expr(depth + 1))
	case 6:
		return Parens(g.expr(depth + 1))
	}
	return Lit(g.next())
}
