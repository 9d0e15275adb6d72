package gosrc

// Statements: go/printer's rules for the statements of a block.

// isAssign reports whether op is an assignment operator.
func isAssign(op string) bool {
	switch op {
	case "=", ":=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=", "&^=":
		return true
	}
	return false
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
		if it.kind == kOp && isAssign(it.text) {
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
		if it.kind == kOp && isAssign(it.text) {
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
