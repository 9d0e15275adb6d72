package gosrc

import (
	"fmt"
	"strings"
)

// printer writes Go text the way go/printer lays it out. Alignment comes
// after, per declaration (File.align, appendAligned): like go/printer, the
// printer marks the end of an aligned cell with '\v' and a line break that
// ends an alignment section with '\f', for a tabwriter's rules to resolve.
type printer struct {
	file   *File // resolves qualified identifiers; nil for GoString
	out    []byte
	indent int
	bol    bool // at the beginning of a line, before its indentation
	cells  bool // out holds '\v' or '\f'
}

func (p *printer) text(s string) {
	if p.bol {
		for range p.indent {
			p.out = append(p.out, '\t')
		}
		p.bol = false
	}
	p.out = append(p.out, s...)
}

// comment writes comment lines; a tab, vertical tab or form feed in them is
// escaped from the tabwriter, as go/printer does.
func (p *printer) comment(c string) {
	for i, line := range strings.Split(c, "\n") {
		if i > 0 {
			p.newline()
		}
		if strings.ContainsAny(line, "\t\v\f") {
			line = "\xff" + line + "\xff"
			p.cells = true
		}
		p.text(line)
	}
}

func (p *printer) newline() {
	p.out = append(p.out, '\n')
	p.bol = true
}

// formfeed is a line break that also ends the alignment section.
func (p *printer) formfeed() {
	p.out = append(p.out, '\f')
	p.bol = true
	p.cells = true
}

func (p *printer) vtab() {
	p.out = append(p.out, '\v')
	p.cells = true
}

// flatten returns the items of s with added statements spliced in and
// null items left out.
func flatten(s *Statement) []item {
	n, simple := flatCount(s)
	if simple {
		return *s
	}
	return flattenInto(make([]item, 0, n), s)
}

// flatCount is the number of items s flattens to, and whether s is flat
// already.
func flatCount(s *Statement) (n int, simple bool) {
	simple = true
	for _, it := range *s {
		switch it.kind {
		case kStmt:
			m, _ := flatCount(it.s)
			n += m
			simple = false
		case kNull:
			simple = false
		default:
			n++
		}
	}
	return n, simple
}

func flattenInto(out []item, s *Statement) []item {
	for _, it := range *s {
		switch it.kind {
		case kStmt:
			out = flattenInto(out, it.s)
		case kNull:
		default:
			out = append(out, it)
		}
	}
	return out
}

// codes flattens each code of a group, leaving out the null ones.
func codes(cs []Code) [][]item {
	out := make([][]item, 0, len(cs))
	for _, c := range cs {
		if c == nil {
			continue
		}
		if items := flatten(c.code()); len(items) > 0 {
			out = append(out, items)
		}
	}
	return out
}

func (p *printer) fail(what string, items []item) {
	panic(fmt.Sprintf("gosrc: cannot print %s: %s", what, debugItems(items)))
}

func debugItems(items []item) string {
	var b strings.Builder
	for _, it := range items {
		switch it.kind {
		case kGroup:
			fmt.Fprintf(&b, "<group %d: %d> ", it.g.kind, len(it.g.items))
		case kStmt:
			b.WriteString("<" + debugItems(*it.s) + "> ")
		default:
			fmt.Fprintf(&b, "%q ", it.text)
		}
	}
	return b.String()
}

// Declarations.

// decl prints a top-level declaration (after its doc comment).
func (p *printer) decl(items []item) {
	switch items[0].text {
	case "func":
		p.funcDecl(items)
	case "var", "const":
		p.genDecl(items)
	case "type":
		p.text("type ")
		p.typeSpec(items[1:])
	default:
		p.fail("declaration", items)
	}
}

func (p *printer) funcDecl(items []item) {
	last := items[len(items)-1]
	if last.kind != kGroup || last.g.kind != gBlock {
		p.fail("function body", items)
	}
	header := p.funcHeader(items[:len(items)-1])
	p.funcBody(last.g, header, true)
}

// funcHeader prints func, the receiver, the name, the parameters and the
// results of a function declaration, and returns the header's width as
// go/printer measures it for funcBody: from one column before the "func".
func (p *printer) funcHeader(items []item) int {
	start := len(p.out)
	p.text("func ")
	rest := items[1:]
	if len(rest) > 0 && rest[0].kind == kGroup && rest[0].g.kind == gParams {
		p.params(rest[0].g)
		p.text(" ")
		rest = rest[1:]
	}
	if len(rest) == 0 || rest[0].kind != kIdent {
		p.fail("function", items)
	}
	p.text(rest[0].text)
	p.signature(rest[1:], items)
	return len(p.out) - start + 1
}

// funcLit prints a function literal: func, the signature and the body.
func (p *printer) funcLit(items []item) {
	last := items[len(items)-1]
	if last.kind != kGroup || last.g.kind != gBlock {
		p.fail("function body", items)
	}
	start := len(p.out)
	p.text("func")
	p.signature(items[1:len(items)-1], items)
	p.funcBody(last.g, len(p.out)-start, false)
}

// signature prints the (params) and results of a function.
func (p *printer) signature(items, all []item) {
	if len(items) == 0 || items[0].kind != kGroup || items[0].g.kind != gParams {
		p.fail("signature", all)
	}
	p.params(items[0].g)
	p.results(items[1:])
}

// results prints the results of a signature: a lone unnamed result
// without parentheses, as gofmt does.
func (p *printer) results(items []item) {
	if len(items) == 0 {
		return
	}
	p.text(" ")
	if len(items) == 1 && items[0].kind == kGroup && items[0].g.kind == gParams {
		params := codes(items[0].g.items)
		if len(params) == 1 && !named(params[0]) {
			p.typ(params[0])
			return
		}
		p.params(items[0].g)
		return
	}
	p.typ(items)
}

// named reports whether a parameter has a name before its type.
func named(items []item) bool {
	if len(items) < 2 || items[0].kind != kIdent {
		return false
	}
	switch next := items[1]; next.kind {
	case kIdent, kQual, kKeyword:
		return true
	case kOp:
		return next.text == "*" || next.text == "..."
	case kGroup:
		return next.g.kind == gIndex && len(next.g.items) == 0
	}
	return false
}

func (p *printer) params(g *group) {
	p.text("(")
	for i, param := range codes(g.items) {
		if i > 0 {
			p.text(", ")
		}
		if named(param) {
			p.text(param[0].text)
			p.text(" ")
			param = param[1:]
		}
		p.typ(param)
	}
	p.text(")")
}

// funcBody ports go/printer's: an empty body stays on the header's line
// when the header is at most 100 columns wide (after a tabwriter cell in a
// declaration, so that the bodies of adjacent one-line functions align).
func (p *printer) funcBody(g *group, headerSize int, isDecl bool) {
	stmts := codes(g.items)
	if len(stmts) == 0 && headerSize <= 100 {
		if isDecl {
			p.vtab()
		} else {
			p.text(" ")
		}
		p.text("{}")
		return
	}
	p.text(" ")
	p.blockOf(stmts, 1)
}

func (p *printer) block(g *group) { p.blockOf(codes(g.items), 1) }

func (p *printer) blockOf(stmts [][]item, nindent int) {
	p.text("{")
	p.indent += nindent
	for _, s := range stmts {
		p.newline()
		p.stmt(s)
	}
	p.indent -= nindent
	p.newline()
	p.text("}")
}

// genDecl prints var or const: one spec, or a parenthesized group.
func (p *printer) genDecl(items []item) {
	tok := items[0].text
	p.text(tok + " ")
	if len(items) == 2 && items[1].kind == kGroup && items[1].g.kind == gDefs {
		specs := codes(items[1].g.items)
		p.text("(")
		if len(specs) == 0 {
			p.text(")")
			return
		}
		p.indent++
		p.formfeed()
		if len(specs) == 1 {
			p.printSpec(splitSpec(specs[0]), false, false)
		} else {
			split := make([]spec, len(specs))
			for i, s := range specs {
				split[i] = splitSpec(s)
			}
			keep := keepTypeColumn(split)
			multi := false
			for i, s := range split {
				if i > 0 {
					if multi {
						p.formfeed()
					} else {
						p.newline()
					}
				}
				start := len(p.out)
				p.printSpec(s, true, keep[i])
				multi = hasNewline(p.out[start:])
			}
		}
		p.indent--
		p.formfeed()
		p.text(")")
		return
	}
	p.printSpec(splitSpec(items[1:]), false, false)
}

func hasNewline(b []byte) bool {
	for _, c := range b {
		if c == '\n' || c == '\f' {
			return true
		}
	}
	return false
}

// spec is a var or const spec: names, an optional type and values.
type spec struct {
	names, typ, values []item
	hasValues          bool
}

func splitSpec(items []item) spec {
	var s spec
	eq := -1
	for i, it := range items {
		if it.kind == kOp && it.text == "=" {
			eq = i
			break
		}
	}
	head := items
	if eq >= 0 {
		head, s.values, s.hasValues = items[:eq], items[eq+1:], true
	}
	s.names, s.typ = head[:1], head[1:]
	return s
}

// printSpec ports go/printer's valueSpec (aligned, in a group of two or
// more) and spec (alone).
func (p *printer) printSpec(s spec, aligned, keepType bool) {
	p.expr(s.names, 1)
	if !aligned {
		if len(s.typ) > 0 {
			p.text(" ")
			p.typ(s.typ)
		}
		if s.hasValues {
			p.text(" = ")
			p.exprList(s.values, 1)
		}
		return
	}
	if len(s.typ) > 0 || keepType {
		p.vtab()
	}
	if len(s.typ) > 0 {
		p.typ(s.typ)
	}
	if s.hasValues {
		p.vtab()
		p.text("= ")
		p.exprList(s.values, 1)
	}
}

// keepTypeColumn ports go/printer's: in a run of specs with values, the
// type column is kept when one of them has a type.
func keepTypeColumn(specs []spec) []bool {
	m := make([]bool, len(specs))
	populate := func(i, j int, keepType bool) {
		if keepType {
			for ; i < j; i++ {
				m[i] = true
			}
		}
	}
	i0 := -1
	var keepType bool
	for i, s := range specs {
		if s.hasValues {
			if i0 < 0 {
				i0 = i
				keepType = false
			}
		} else if i0 >= 0 {
			populate(i0, i, keepType)
			i0 = -1
		}
		if len(s.typ) > 0 {
			keepType = true
		}
	}
	if i0 >= 0 {
		populate(i0, len(specs), keepType)
	}
	return m
}

func (p *printer) typeSpec(items []item) {
	if len(items) < 2 || items[0].kind != kIdent {
		p.fail("type declaration", items)
	}
	p.text(items[0].text)
	p.text(" ")
	rest := items[1:]
	if rest[0].kind == kOp && rest[0].text == "=" {
		p.text("= ")
		rest = rest[1:]
	}
	p.typ(rest)
}

// Types.

// typ prints a type: the tokens of a type print without spaces, except
// around struct, interface, map and func.
func (p *printer) typ(items []item) { p.operand(items, 1) }

// fieldList ports go/printer's fieldList for a struct or interface that
// jennifer would have written with one member per line.
func (p *printer) fieldList(g *group, isStruct bool) {
	members := codes(g.items)
	if len(members) == 0 {
		p.text("{}")
		return
	}
	p.text(" {")
	p.indent++
	p.formfeed()
	single := len(members) == 1
	multi := false
	for i, m := range members {
		// A leading Line() is a blank line before the member, a Comment
		// (and its Line) its doc comment.
		blank := false
		for len(m) > 0 && m[0].kind == kLine {
			blank = true
			m = m[1:]
		}
		if i > 0 {
			if blank {
				p.newline()
			}
			if multi {
				p.formfeed()
			} else {
				p.newline()
			}
		}
		for len(m) > 0 && m[0].kind == kComment {
			p.comment(m[0].text)
			m = m[1:]
			for len(m) > 0 && m[0].kind == kLine {
				m = m[1:]
			}
			if len(m) > 0 {
				p.newline()
			}
		}
		start := len(p.out)
		if len(m) == 0 {
			multi = false
			continue
		}
		if isStruct {
			p.field(m, single)
		} else {
			if len(m) == 0 || m[0].kind != kIdent {
				p.fail("interface method", m)
			}
			p.text(m[0].text)
			p.params(m[1].g)
			p.results(m[2:])
		}
		multi = hasNewline(p.out[start:])
	}
	p.indent--
	p.formfeed()
	p.text("}")
}

func (p *printer) field(items []item, single bool) {
	var tag string
	if last := items[len(items)-1]; last.kind == kTag {
		tag = last.text
		items = items[:len(items)-1]
	}
	embedded := !named(items)
	if embedded {
		p.typ(items)
	} else {
		p.text(items[0].text)
		if single {
			p.text(" ")
		} else {
			p.vtab()
		}
		p.typ(items[1:])
	}
	if tag != "" {
		if single {
			p.text(" ")
		} else {
			if !embedded {
				p.vtab()
			}
			p.vtab()
		}
		p.text(tag)
	}
}
