package gosrc

import (
	"math"
	"slices"
	"strings"
)

// Expressions: go/printer's rules for operands, operators and the
// groups they hold.

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
				p.funcLit(items[i:])
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
	// Without a key to align, where the sections break changes nothing:
	// the elements' sizes need not be measured.
	keyed := slices.ContainsFunc(list, func(x []item) bool { return keyOf(x) != nil })
	size := 0
	lnsum := 0.0
	count := 0
	for i, x := range list {
		useFF := true
		prevSize := size
		key := keyOf(x)
		size = 0
		if keyed && !multiline(x) {
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
			if useFF && keyed {
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
