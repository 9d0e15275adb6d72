package gosrc

import (
	"fmt"
	"math"
	"strings"
)

// printer writes Go text the way go/printer lays it out. Alignment is left
// to text/tabwriter (see File.Bytes): like go/printer, the printer marks
// the end of an aligned cell with '\v' and a line break that ends an
// alignment section with '\f'.
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
	p.signatureAndBody(rest[1:], items, start, true)
}

// signatureAndBody prints (params) results {body} of a function
// declaration or literal whose "func" starts at out[start].
func (p *printer) signatureAndBody(items, all []item, start int, isDecl bool) {
	if len(items) == 0 || items[0].kind != kGroup || items[0].g.kind != gParams {
		p.fail("signature", all)
	}
	p.params(items[0].g)
	items = items[1:]
	last := items[len(items)-1]
	if last.kind != kGroup || last.g.kind != gBlock {
		p.fail("function body", all)
	}
	p.results(items[:len(items)-1])
	header := len(p.out) - start
	if isDecl {
		// go/printer measures a declaration's header from one column
		// before its "func".
		header++
	}
	p.funcBody(last.g, header, isDecl)
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
			p.valueSpec(specs[0], false, false)
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
	p.valueSpec(items[1:], false, false)
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

func (p *printer) valueSpec(items []item, aligned, keepType bool) {
	p.printSpec(splitSpec(items), aligned, keepType)
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

// Statements.

var assignOps = map[string]bool{
	"=": true, ":=": true, "+=": true, "-=": true, "*=": true, "/=": true, "%=": true,
	"&=": true, "|=": true, "^=": true, "<<=": true, ">>=": true, "&^=": true,
}

func (p *printer) stmt(items []item) {
	first := items[0]
	switch first.kind {
	case kComment:
		p.comment(first.text)
		if len(items) > 1 {
			p.newline()
			p.stmt(items[1:])
		}
		return
	case kKeyword:
		switch first.text {
		case "if":
			p.ifStmt(items)
			return
		case "for":
			p.text("for")
			p.clause(items[1].g, true)
			p.block(items[2].g)
			return
		case "switch":
			p.text("switch")
			p.clause(items[1].g, false)
			p.switchBody(items[2].g)
			return
		case "return":
			p.text("return")
			if results := codes(items[1].g.items); len(results) > 0 {
				p.text(" ")
				p.exprLists(results, 1)
			}
			return
		case "var", "const":
			p.genDecl(items)
			return
		case "break":
			p.text("break")
			return
		}
	}
	p.simpleStmt(items)
}

func (p *printer) simpleStmt(items []item) {
	for i, it := range items {
		if it.kind == kOp && assignOps[it.text] {
			lhs, rhs := items[:i], items[i+1:]
			depth := 1
			if isList(lhs) && isList(rhs) {
				depth++
			}
			p.exprList(lhs, depth)
			p.text(" " + it.text + " ")
			p.exprList(rhs, depth)
			return
		}
	}
	if last := items[len(items)-1]; last.kind == kOp && (last.text == "++" || last.text == "--") {
		p.expr(items[:len(items)-1], 2)
		p.text(last.text)
		return
	}
	p.expr(items, 1)
}

// splitList splits an expression list: a List group's elements, or
// expressions separated by "," operators.
func splitList(items []item) [][]item {
	if len(items) == 1 && items[0].kind == kGroup && items[0].g.kind == gList {
		return codes(items[0].g.items)
	}
	var list [][]item
	start := 0
	for i, it := range items {
		if it.kind == kOp && it.text == "," {
			list = append(list, items[start:i])
			start = i + 1
		}
	}
	return append(list, items[start:])
}

// isList reports whether items are a list of two or more expressions.
func isList(items []item) bool { return len(splitList(items)) > 1 }

// exprList prints items as an expression list.
func (p *printer) exprList(items []item, depth int) {
	if len(items) > 0 && items[0].kind == kKeyword && items[0].text == "range" {
		p.text("range ")
		p.expr(items[1:], depth)
		return
	}
	p.exprLists(splitList(items), depth)
}

func (p *printer) exprLists(list [][]item, depth int) {
	for i, x := range list {
		if i > 0 {
			p.text(", ")
		}
		p.expr(x, depth)
	}
}

func (p *printer) ifStmt(items []item) {
	p.text("if")
	p.clause(items[1].g, false)
	p.block(items[2].g)
	rest := items[3:]
	if len(rest) == 0 {
		return
	}
	if rest[0].kind != kKeyword || rest[0].text != "else" {
		p.fail("if statement", items)
	}
	p.text(" else ")
	if rest[1].kind == kKeyword && rest[1].text == "if" {
		p.ifStmt(rest[1:])
		return
	}
	p.block(rest[1].g)
}

// clause ports go/printer's controlClause for the init; cond; post of if,
// for and switch, then the blank before the block.
func (p *printer) clause(g *group, isFor bool) {
	parts := make([][]item, len(g.items))
	for i, c := range g.items {
		parts[i] = flatten(c.code())
	}
	p.text(" ")
	var init, cond, post []item
	switch {
	case len(parts) == 1:
		cond = parts[0]
	case len(parts) == 2:
		init, cond = parts[0], parts[1]
	case len(parts) == 3:
		init, cond, post = parts[0], parts[1], parts[2]
	}
	cond = nonEmpty(cond)
	init = nonEmpty(init)
	post = nonEmpty(post)
	needsBlank := false
	if init == nil && post == nil {
		if cond != nil {
			p.clausePart(cond)
			needsBlank = true
		}
	} else {
		if init != nil {
			p.simpleStmt(init)
		}
		p.text("; ")
		if cond != nil {
			p.clausePart(cond)
			needsBlank = true
		}
		if isFor {
			p.text("; ")
			needsBlank = false
			if post != nil {
				p.simpleStmt(post)
				needsBlank = true
			}
		}
	}
	if needsBlank {
		p.text(" ")
	}
}

// clausePart is the condition of a clause, or a range clause of for.
func (p *printer) clausePart(items []item) {
	for _, it := range items {
		if it.kind == kOp && assignOps[it.text] {
			p.simpleStmt(items)
			return
		}
	}
	p.expr(items, 1)
}

// nonEmpty is items, or nil when they are only Empty().
func nonEmpty(items []item) []item {
	for _, it := range items {
		if !(it.kind == kOp && it.text == "") {
			return items
		}
	}
	return nil
}

// switchBody prints the block of a switch: the case clauses at the
// switch's indentation, their statements one level in. A clause is
// Case(x).Block(stmts...), or Case(x) followed by its statements.
func (p *printer) switchBody(g *group) {
	p.text("{")
	for _, c := range codes(g.items) {
		p.newline()
		switch {
		case c[0].kind == kKeyword && c[0].text == "case":
			p.text("case ")
			p.exprLists(codes(c[1].g.items), 1)
			p.text(":")
			c = c[2:]
		case c[0].kind == kKeyword && c[0].text == "default":
			p.text("default:")
			c = c[1:]
		default:
			// A statement of the clause above.
			p.indent++
			p.stmt(c)
			p.indent--
			continue
		}
		if len(c) == 1 && c[0].kind == kGroup && c[0].g.kind == gBlock {
			p.indent++
			for _, s := range codes(c[0].g.items) {
				p.newline()
				p.stmt(s)
			}
			p.indent--
		} else if len(c) > 0 {
			p.fail("case clause", c)
		}
	}
	p.newline()
	p.text("}")
}

// Expressions.

// binary is a binary expression, or an operand when op is "".
type binary struct {
	op      string
	prec    int
	x, y    *binary
	operand []item
}

func precedence(op string) int {
	switch op {
	case "||":
		return 1
	case "&&":
		return 2
	case "==", "!=", "<", "<=", ">", ">=":
		return 3
	case "+", "-", "|", "^":
		return 4
	case "*", "/", "%", "<<", ">>", "&", "&^":
		return 5
	}
	return 0
}

// endsOperand reports whether an item ends an operand, so that an
// operator after it is binary.
func endsOperand(items []item, i int) bool {
	it := items[i]
	switch it.kind {
	case kIdent, kLit, kQual, kDot:
		return true
	case kOp:
		return it.text == "..." || it.text == ""
	case kGroup:
		switch it.g.kind {
		case gCall, gParens, gValues, gMulti, gBlock:
			return true
		case gIndex:
			// [] of a slice type and [K] of a map type begin a type.
			if len(it.g.items) == 0 {
				return false
			}
			return !(i > 0 && items[i-1].kind == kKeyword && items[i-1].text == "map")
		}
	}
	return false
}

// parseBinary splits items at their binary operators and builds the
// expression tree by precedence (left-associative).
func parseBinary(items []item) *binary {
	var operands []*binary
	var ops []string
	start := 0
	for i := 1; i < len(items); i++ {
		it := items[i]
		if it.kind != kOp || precedence(it.text) == 0 || !endsOperand(items, i-1) || i == start {
			continue
		}
		operands = append(operands, &binary{operand: items[start:i]})
		ops = append(ops, it.text)
		start = i + 1
	}
	if len(ops) == 0 {
		return &binary{operand: items}
	}
	operands = append(operands, &binary{operand: items[start:]})
	pos := 0
	var parse func(minPrec int) *binary
	parse = func(minPrec int) *binary {
		lhs := operands[pos]
		for pos < len(ops) && precedence(ops[pos]) >= minPrec {
			op := ops[pos]
			prec := precedence(op)
			pos++
			rhs := parse(prec + 1)
			lhs = &binary{op: op, prec: prec, x: lhs, y: rhs}
		}
		return lhs
	}
	return parse(1)
}

// expr prints an expression at the given depth (go/printer's expr0/expr1
// with the lowest precedence).
func (p *printer) expr(items []item, depth int) {
	if len(items) == 0 {
		return
	}
	if !hasBinary(items) {
		p.operand(items, depth)
		return
	}
	p.expr1(parseBinary(items), 0, depth)
}

// hasBinary reports whether items hold a binary operator.
func hasBinary(items []item) bool {
	for i := 1; i < len(items); i++ {
		if it := items[i]; it.kind == kOp && precedence(it.text) > 0 && endsOperand(items, i-1) {
			return true
		}
	}
	return false
}

func (p *printer) expr1(x *binary, prec1, depth int) {
	if x.op == "" {
		p.operand(x.operand, depth)
		return
	}
	p.binaryExpr(x, cutoff(x, depth), depth)
}

// binaryExpr ports go/printer's: blanks around an operator only when its
// precedence is below the cutoff.
func (p *printer) binaryExpr(x *binary, cutoff, depth int) {
	printBlank := x.prec < cutoff
	p.expr1(x.x, x.prec, depth+diffPrec(x.x, x.prec))
	if printBlank {
		p.text(" ")
	}
	p.text(x.op)
	if printBlank {
		p.text(" ")
	}
	p.expr1(x.y, x.prec+1, depth+1)
}

func diffPrec(x *binary, prec int) int {
	if x.op == "" || prec != x.prec {
		return 1
	}
	return 0
}

func cutoff(e *binary, depth int) int {
	has4, has5, maxProblem := walkBinary(e)
	if maxProblem > 0 {
		return maxProblem + 1
	}
	if has4 && has5 {
		if depth == 1 {
			return 5
		}
		return 4
	}
	if depth == 1 {
		return 6
	}
	return 4
}

func walkBinary(e *binary) (has4, has5 bool, maxProblem int) {
	switch e.prec {
	case 4:
		has4 = true
	case 5:
		has5 = true
	}
	if l := e.x; l.op != "" && l.prec >= e.prec {
		h4, h5, mp := walkBinary(l)
		has4 = has4 || h4
		has5 = has5 || h5
		maxProblem = max(maxProblem, mp)
	}
	switch r := e.y; {
	case r.op != "":
		if r.prec > e.prec {
			h4, h5, mp := walkBinary(r)
			has4 = has4 || h4
			has5 = has5 || h5
			maxProblem = max(maxProblem, mp)
		}
	case len(r.operand) > 0 && r.operand[0].kind == kOp:
		switch e.op + r.operand[0].text {
		case "/*", "&&", "&^":
			maxProblem = 5
		case "++", "--":
			maxProblem = max(maxProblem, 4)
		}
	}
	return
}

func reduceDepth(depth int) int {
	depth--
	if depth < 1 {
		depth = 1
	}
	return depth
}

// operand prints a unary expression or a type: its tokens without spaces
// between them, groups and keywords printed by their own rules.
func (p *printer) operand(items []item, depth int) {
	for i := 0; i < len(items); i++ {
		it := items[i]
		switch it.kind {
		case kIdent, kLit:
			p.text(it.text)
		case kOp:
			p.text(it.text)
			if it.text == "*" {
				// go/printer prints the operand of a star expression
				// (a dereference or pointer type) at depth 1.
				depth = 1
			}
		case kQual:
			dot := strings.LastIndexByte(it.text, '.')
			if name := p.qualifier(it.text[:dot]); name != "" {
				p.text(name)
				p.text(".")
			}
			p.text(it.text[dot+1:])
		case kDot:
			p.text(".")
			p.text(it.text)
		case kKeyword:
			switch it.text {
			case "func":
				start := len(p.out)
				p.text("func")
				p.signatureAndBody(items[i+1:], items, start, false)
				return
			case "map":
				p.text("map[")
				p.typ(flatten(items[i+1].g.items[0].code()))
				p.text("]")
				i++
			case "struct":
				p.text("struct")
				p.fieldList(items[i+1].g, true)
				i++
			case "interface":
				p.text("interface")
				p.fieldList(items[i+1].g, false)
				i++
			case "range":
				p.text("range ")
			default:
				p.fail("expression", items)
			}
		case kGroup:
			p.groupIn(it.g, depth)
		default:
			p.fail("expression", items)
		}
	}
}

func (p *printer) groupIn(g *group, depth int) {
	switch g.kind {
	case gCall:
		args := codes(g.items)
		if len(args) > 1 {
			depth++
		}
		p.text("(")
		p.exprLists(args, depth)
		p.text(")")
	case gParens:
		inner := flatten(g.items[0].code())
		if len(inner) == 1 && inner[0].kind == kGroup && inner[0].g.kind == gParens {
			// gofmt drops the parentheses around a parenthesized
			// expression.
			p.groupIn(inner[0].g, depth)
			return
		}
		p.text("(")
		p.expr(inner, reduceDepth(depth))
		p.text(")")
	case gIndex:
		p.index(g, depth)
	case gValues:
		p.text("{")
		for i, x := range codes(g.items) {
			if i > 0 {
				p.text(", ")
			}
			p.element(x, false)
		}
		p.text("}")
	case gMulti:
		p.multiValues(codes(g.items))
	case gList:
		p.exprLists(codes(g.items), depth)
	case gParams:
		p.params(g)
	case gBlock:
		p.block(g)
	default:
		p.fail("group", []item{{kind: kGroup, g: g}})
	}
}

// index prints [x], [lo:hi] or the [] of a slice type.
func (p *printer) index(g *group, depth int) {
	parts := make([][]item, len(g.items))
	for i, c := range g.items {
		parts[i] = nonEmpty(flatten(c.code()))
	}
	p.text("[")
	if len(parts) > 1 {
		// go/printer's rule for slice expressions: blanks around ':' when
		// more than one index is present and one is binary.
		needsBlanks := false
		if depth <= 1 {
			count, binaries := 0, false
			for _, x := range parts {
				if x != nil {
					count++
					if parseBinary(x).op != "" {
						binaries = true
					}
				}
			}
			needsBlanks = count > 1 && binaries
		}
		for i, x := range parts {
			if i > 0 {
				if parts[i-1] != nil && needsBlanks {
					p.text(" ")
				}
				p.text(":")
				if x != nil && needsBlanks {
					p.text(" ")
				}
			}
			if x != nil {
				p.expr(x, depth+1)
			}
		}
	} else if len(parts) == 1 {
		p.expr(parts[0], depth+1)
	}
	p.text("]")
}

// element prints an element of a composite literal: key: value or a
// value; aligned puts the tabwriter cell after the key.
func (p *printer) element(x []item, aligned bool) {
	for i, it := range x {
		if it.kind == kOp && it.text == ":" {
			p.expr(x[:i], 1)
			p.text(":")
			if aligned {
				p.vtab()
			} else {
				p.text(" ")
			}
			p.expr(x[i+1:], 1)
			return
		}
	}
	p.expr(x, 1)
}

// keyOf is the key of a key: value element, nil for a plain value.
func keyOf(x []item) []item {
	for i, it := range x {
		if it.kind == kOp && it.text == ":" {
			return x[:i]
		}
	}
	return nil
}

// multiValues ports go/printer's exprList for a composite literal with one
// element per line: keys aligned in sections that a multi-line element or
// a key much longer or shorter than the section's others ends.
func (p *printer) multiValues(list [][]item) {
	p.text("{")
	if len(list) == 0 {
		p.text("}")
		return
	}
	p.indent++
	p.formfeed()
	size := 0
	lnsum := 0.0
	count := 0
	for i, x := range list {
		useFF := true
		prevSize := size
		key := keyOf(x)
		size = 0
		if !multiline(x) {
			if key != nil {
				size = p.size(key)
			} else {
				size = p.size(x)
			}
		}
		if prevSize > 0 && size > 0 {
			const smallSize = 40
			if count == 0 || prevSize <= smallSize && size <= smallSize {
				useFF = false
			} else {
				const r = 2.5
				geomean := math.Exp(lnsum / float64(count))
				ratio := float64(size) / geomean
				useFF = r*ratio <= 1 || r <= ratio
			}
		}
		if i > 0 {
			p.text(",")
			if useFF {
				p.formfeed()
				lnsum = 0
				count = 0
			} else {
				p.newline()
			}
		}
		p.element(x, len(list) > 1 && key != nil && size > 0)
		if size > 0 {
			lnsum += math.Log(float64(size))
			count++
		}
	}
	p.text(",")
	p.indent--
	p.formfeed()
	p.text("}")
}

// size is the length of items printed on one line.
func (p *printer) size(items []item) int {
	q := printer{file: p.file}
	q.expr(items, 1)
	return len(q.out)
}

// multiline reports whether items print on more than one line.
func multiline(items []item) bool {
	for _, it := range items {
		switch it.kind {
		case kComment, kLine:
			return true
		case kStmt:
			if multiline(*it.s) {
				return true
			}
		case kGroup:
			switch it.g.kind {
			case gBlock, gMulti, gStruct, gInterface, gDefs:
				for _, c := range it.g.items {
					if c != nil && len(flatten(c.code())) > 0 {
						return true
					}
				}
			default:
				for _, c := range it.g.items {
					if c != nil && multiline(*c.code()) {
						return true
					}
				}
			}
		}
	}
	return false
}
