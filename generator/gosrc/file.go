package gosrc

import (
	"bytes"
	"sort"
	"strconv"
	"strings"
)

// File is a Go source file: header comments, the package clause, the
// imports its qualified identifiers need and its declarations.
type File struct {
	pkg     string
	headers []string
	hints   map[string]string // import path → package name, from ImportName
	imports map[string]string // import path → name used in the file
	names   map[string]bool   // names taken by imports

	// Declarations print as soon as the next one starts (an emitter
	// finishes a declaration's chain of calls before it starts the next),
	// so that the tree of a file never lives whole.
	pending *Statement // the last declaration added, not yet printed
	p       printer    // prints the body
	prevTok string     // the keyword of the last declaration printed
	doc     []string   // comments waiting for the declaration they document

	root  *File  // the file a Later file prints into; nil for a file itself
	holes []hole // the Later files, by where they print

	// The printed body is chunks, then p.out: p.out moves to chunks when
	// it is large, so that the body is not copied each time it grows.
	chunks [][]byte
	size   int // the bytes in chunks
}

// chunkSize is the size at which the printed body moves to the chunks.
const chunkSize = 256 << 10

// spill moves the printed body to the chunks when it is large.
func (f *File) spill() {
	if len(f.p.out) < chunkSize {
		return
	}
	f.chunks = append(f.chunks, f.p.out)
	f.size += len(f.p.out)
	f.p.out = make([]byte, 0, 2*chunkSize)
}

// printed is the length of the printed body.
func (f *File) printed() int { return f.size + len(f.p.out) }

// hole is where the declarations of a Later file print.
type hole struct {
	at   int // offset in the body
	file *File
}

// NewFile returns an empty file of package pkg.
func NewFile(pkg string) *File {
	return &File{pkg: pkg, hints: map[string]string{}, imports: map[string]string{}, names: map[string]bool{}}
}

// ImportName says that the package at path is named name, so that it is
// imported without an alias.
func (f *File) ImportName(path, name string) { f.hints[path] = name }

// HeaderComment adds a comment line above the package clause.
func (f *File) HeaderComment(c string) { f.headers = append(f.headers, c) }

func (f *File) decl(s *Statement) *Statement {
	f.flushPending()
	f.pending = s
	return s
}

// flushPending prints the pending declaration.
func (f *File) flushPending() {
	d := f.pending
	if d == nil {
		return
	}
	f.pending = nil
	items := flatten(d)
	if len(items) == 0 {
		return
	}
	if items[0].kind == kComment && len(items) == 1 {
		f.doc = append(f.doc, items[0].text)
		return
	}
	p := f.startDecl(declToken(items))
	start := len(p.out)
	p.decl(items)
	f.resolve(start)
	f.spill()
}

// resolve lays out the alignment cells printed since start, if any.
func (f *File) resolve(start int) {
	if f.p.cells {
		f.p.out = f.align(f.p.out, start)
	}
}

// startDecl prints what goes before a declaration of keyword tok: the
// blank line gofmt puts between declarations of different kinds and before
// one with a doc comment, and the doc comment.
func (f *File) startDecl(tok string) *printer {
	p := &f.p
	p.file = f
	if f.printed() > 0 {
		p.newline()
		if tok != f.prevTok || len(f.doc) > 0 {
			p.newline()
		}
	}
	f.prevTok = tok
	p.bol = true
	p.cells = false
	if len(f.doc) > 0 {
		start := len(p.out)
		p.comment(docComment(strings.Join(f.doc, "\n")))
		p.newline()
		f.doc = f.doc[:0]
		f.resolve(start)
	}
	return p
}

// Comment adds a comment; before a declaration it is its doc comment.
func (f *File) Comment(text string) *Statement { return f.decl(Comment(text)) }

// Func starts a function declaration.
func (f *File) Func() *Statement { return f.decl(Func()) }

// Type starts a type declaration.
func (f *File) Type() *Statement { return f.decl(Type()) }

// Var starts a var declaration.
func (f *File) Var() *Statement { return f.decl(Var()) }

// Const starts a const declaration.
func (f *File) Const() *Statement { return f.decl(Const()) }

// Later returns a file whose declarations print here, before the
// declarations added to f after this call, though they are added later:
// for declarations that depend on what the following ones turn out to
// need (the messages a file's functions report). Each of its declarations
// must have a doc comment, so that blank lines separate it from its
// neighbours as gofmt would.
func (f *File) Later() *File {
	f.flushPending()
	l := &File{root: f}
	f.holes = append(f.holes, hole{at: f.printed(), file: l})
	return l
}

// Body is the body of a function declaration whose statements print as
// they are added, so that a function of thousands of statements never
// lives whole as a tree.
type Body struct {
	f       *File
	pending *Statement
	open    bool // the "{" is printed
	header  int  // the width of the function's header
	start   int  // where the function's "func" is in the body
}

// FuncBody starts a function declaration of the given header (Func(), the
// receiver, the name, the parameters and results) whose body comes
// statement by statement through Body.Add; Body.End ends it.
func (f *File) FuncBody(header *Statement) *Body {
	f.flushPending()
	p := f.startDecl("func")
	start := len(p.out)
	return &Body{f: f, header: p.funcHeader(flatten(header)), start: start}
}

// Add adds a statement to the body.
func (b *Body) Add(c Code) {
	b.flush()
	b.pending = c.code()
}

func (b *Body) flush() {
	s := b.pending
	if s == nil {
		return
	}
	b.pending = nil
	items := flatten(s)
	if len(items) == 0 {
		return
	}
	p := &b.f.p
	if !b.open {
		p.text(" {")
		p.indent++
		b.open = true
	}
	p.newline()
	start := len(p.out)
	p.cells = false
	p.stmt(items)
	b.f.resolve(start)
	b.f.spill()
}

// End ends the function.
func (b *Body) End() {
	b.flush()
	p := &b.f.p
	if !b.open {
		p.funcBody(&group{kind: gBlock}, b.header, true)
		b.f.resolve(b.start)
		return
	}
	p.indent--
	p.newline()
	p.text("}")
}

// qualifier is the name the file refers to the package at path by,
// importing it on first use: the ImportName of path, else the last element
// of the path (made unique), as jennifer does. Without a file (GoString),
// the guess.
func (p *printer) qualifier(path string) string {
	if p.file == nil {
		return guessName(path)
	}
	return p.file.register(path)
}

func (f *File) register(path string) string {
	if f.root != nil {
		return f.root.register(path)
	}
	if name, ok := f.imports[path]; ok {
		return name
	}
	name := f.hints[path]
	if name == "" {
		name = guessName(path)
	}
	unique := name
	for i := 1; f.names[unique] || isReserved(unique); i++ {
		unique = name + strconv.Itoa(i)
	}
	f.imports[path] = unique
	f.names[unique] = true
	return unique
}

// guessName is the package name jennifer guesses from an import path: its
// last element, lower case, letters and digits only, no leading digit.
func guessName(path string) string {
	path = strings.TrimSuffix(path, "/")
	if i := strings.LastIndex(path, "/"); i >= 0 {
		path = path[i+1:]
	}
	var b strings.Builder
	for _, r := range strings.ToLower(path) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' && b.Len() > 0 {
			b.WriteRune(r)
		}
	}
	if b.Len() == 0 {
		return "pkg"
	}
	return b.String()
}

// isReserved reports whether a package cannot be imported under name:
// jennifer's list of keywords, predeclared identifiers and err, the
// variable every generated function uses.
func isReserved(name string) bool {
	switch name {
	case "break", "default", "func", "interface", "select", "case", "defer", "go", "map", "struct",
		"chan", "else", "goto", "package", "switch", "const", "fallthrough", "if", "range", "type",
		"continue", "for", "import", "return", "var",
		"bool", "byte", "complex64", "complex128", "error", "float32", "float64", "int", "int8",
		"int16", "int32", "int64", "rune", "string", "uint", "uint8", "uint16", "uint32", "uint64",
		"uintptr", "true", "false", "iota", "nil", "append", "cap", "close", "clear", "min", "max",
		"complex", "copy", "delete", "imag", "len", "make", "new", "panic", "print", "println",
		"real", "recover",
		"err":
		return true
	}
	return false
}

// declToken is the keyword of a top-level declaration.
func declToken(items []item) string {
	if items[0].kind == kKeyword {
		return items[0].text
	}
	return ""
}

// Bytes returns the file's source, formatted as gofmt would.
func (f *File) Bytes() []byte {
	f.finish()
	var head bytes.Buffer
	for _, h := range f.headers {
		head.WriteString(h)
		head.WriteByte('\n')
	}
	if len(f.headers) > 0 {
		head.WriteByte('\n')
	}
	head.WriteString("package " + f.pkg + "\n")
	f.writeImports(&head)
	out := make([]byte, 0, head.Len()+f.total()+2)
	out = append(out, head.Bytes()...)
	if f.total() > 0 {
		out = append(out, '\n')
		out = f.appendBody(out)
		out = append(out, '\n')
	}
	return out
}

// finish prints what is pending in f and its Later files.
func (f *File) finish() {
	f.flushPending()
	if len(f.doc) > 0 {
		// Comments after the last declaration.
		p := &f.p
		p.file = f
		if f.printed() > 0 {
			p.newline()
			p.newline()
		}
		start := len(p.out)
		p.bol = true
		p.cells = false
		p.comment(strings.Join(f.doc, "\n"))
		f.resolve(start)
		f.doc = nil
	}
	for _, h := range f.holes {
		h.file.finish()
	}
}

// total is the length of f's body with its Later files', and the blank
// lines around them.
func (f *File) total() int {
	n := f.printed()
	for _, h := range f.holes {
		if t := h.file.total(); t > 0 {
			n += t + 2
		}
	}
	return n
}

// appendBody appends f's printed body to out, the declarations of its
// Later files in their places.
func (f *File) appendBody(out []byte) []byte {
	holes := f.holes
	off := 0 // the offset in f's own body of what is appended
	for _, piece := range append(f.chunks, f.p.out) {
		for {
			for len(holes) > 0 && holes[0].at == off {
				out = holes[0].appendTo(out, f.printed())
				holes = holes[1:]
			}
			if len(piece) == 0 {
				break
			}
			n := len(piece)
			if len(holes) > 0 && holes[0].at < off+n {
				n = holes[0].at - off
			}
			out = append(out, piece[:n]...)
			piece = piece[n:]
			off += n
		}
	}
	for _, h := range holes {
		out = h.appendTo(out, f.printed())
	}
	return out
}

// appendTo appends the declarations of a Later file at h to out, in a body
// of total bytes, with the blank lines that separate them from the
// declarations around.
func (h hole) appendTo(out []byte, total int) []byte {
	if h.file.total() == 0 {
		return out
	}
	if h.at > 0 {
		out = append(out, "\n\n"...)
	}
	out = h.file.appendBody(out)
	if h.at == 0 && total > 0 {
		out = append(out, "\n\n"...)
	}
	return out
}

// align resolves the alignment cells of out[start:], one declaration, as
// go/printer's tabwriter and trimmer do (see appendAligned). Only the
// parts between form feeds that hold a cell are laid out: a form feed
// ends every column, and elsewhere the layout would only copy the
// indentation.
func (f *File) align(out []byte, start int) []byte {
	decl := append([]byte(nil), out[start:]...)
	out = out[:start]
	for len(decl) > 0 {
		end := bytes.IndexByte(decl, '\f')
		chunk := decl
		if end >= 0 {
			chunk, decl = decl[:end+1], decl[end+1:]
		} else {
			decl = nil
		}
		if bytes.IndexByte(chunk, '\v') < 0 && bytes.IndexByte(chunk, 0xff) < 0 {
			if chunk[len(chunk)-1] == '\f' {
				out = append(out, chunk[:len(chunk)-1]...)
				out = append(out, '\n')
			} else {
				out = append(out, chunk...)
			}
			continue
		}
		out = appendAligned(out, chunk)
	}
	return out
}

// writeImports writes the import declaration: the standard library first,
// then the other packages after a blank line, each group sorted, as
// goimports leaves them. An import whose name is not its path's last
// element carries the name.
func (f *File) writeImports(out *bytes.Buffer) {
	if len(f.imports) == 0 {
		return
	}
	var std, other []string
	for path := range f.imports {
		first, _, _ := strings.Cut(path, "/")
		if strings.Contains(first, ".") {
			other = append(other, path)
		} else {
			std = append(std, path)
		}
	}
	sort.Strings(std)
	sort.Strings(other)
	line := func(path string) string {
		name, hint := f.imports[path], f.hints[path]
		aliased := name != hint
		if hint == "" {
			// jennifer names a package outside the standard library
			// explicitly: its guess may not be the package's name.
			aliased = !isStd(path) || name != guessName(path)
		}
		if aliased {
			return name + " " + strconv.Quote(path)
		}
		return strconv.Quote(path)
	}
	out.WriteByte('\n')
	if len(f.imports) == 1 {
		for path := range f.imports {
			out.WriteString("import " + line(path) + "\n")
		}
		return
	}
	out.WriteString("import (\n")
	for _, p := range std {
		out.WriteString("\t" + line(p) + "\n")
	}
	if len(std) > 0 && len(other) > 0 {
		out.WriteByte('\n')
	}
	for _, p := range other {
		out.WriteString("\t" + line(p) + "\n")
	}
	out.WriteString(")\n")
}

func isStd(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	return !strings.Contains(first, ".")
}

// GoString returns the statement printed on its own, as jennifer's
// GoString does.
func (s *Statement) GoString() string {
	p := printer{bol: true}
	items := flatten(s)
	if len(items) > 0 {
		p.stmt(items)
	}
	if p.cells {
		var f File
		p.out = f.align(p.out, 0)
	}
	return string(p.out)
}
