package gosrc

import (
	"go/doc/comment"
	"strings"
)

// docComment returns a top-level doc comment as gofmt leaves it: gofmt
// reformats those (go/printer's formatDocComment) into the canonical form
// of go/doc/comment, which indents code blocks with a tab, puts blank
// lines around them and marks headings.
func docComment(c string) string {
	if plainDoc(c) {
		return c
	}
	var b strings.Builder
	var directives []string
	for _, line := range strings.Split(c, "\n") {
		after, ok := strings.CutPrefix(line, "//")
		if !ok {
			return c
		}
		if isDirective(after) {
			directives = append(directives, line)
			continue
		}
		b.WriteString(strings.TrimPrefix(after, " "))
		b.WriteByte('\n')
	}
	text := b.String()
	if text == "" {
		return c
	}
	var parser comment.Parser
	var printer comment.Printer
	text = string(printer.Comment(parser.Parse(text)))
	var out []string
	for text != "" {
		var line string
		line, text, _ = strings.Cut(text, "\n")
		switch {
		case line == "":
			line = "//"
		case strings.HasPrefix(line, "\t"):
			line = "//" + line
		default:
			line = "// " + line
		}
		out = append(out, line)
	}
	if len(directives) > 0 {
		out = append(out, "//")
		out = append(out, directives...)
	}
	return strings.Join(out, "\n")
}

// plainDoc reports whether a doc comment is already canonical without
// asking go/doc/comment: "// text" lines whose text starts with none of
// the characters that mark code, lists, headings or links, in paragraphs
// separated by single "//" lines, none of them a lone line between two
// others (which go/doc/comment may take for a heading).
func plainDoc(c string) bool {
	lines := strings.Split(c, "\n")
	paraLines := 0 // lines in the current paragraph
	paras := 0
	lone := false // a one-line paragraph after the first
	for i, line := range lines {
		if line == "//" {
			if i == 0 || i == len(lines)-1 || lines[i-1] == "//" {
				return false
			}
			if paras > 0 && paraLines == 1 {
				lone = true
			}
			paras++
			paraLines = 0
			continue
		}
		text, ok := strings.CutPrefix(line, "// ")
		if !ok || text == "" {
			return false
		}
		switch text[0] {
		case ' ', '\t', '#', '[', '-', '*', '+', '>', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
			return false
		}
		if strings.HasSuffix(text, " ") || strings.HasSuffix(text, "\t") {
			return false
		}
		paraLines++
	}
	return !lone
}

// isDirective reports whether a comment's text after "//" is a directive
// (//go:generate, //line), which gofmt moves to the end of a doc comment.
func isDirective(c string) bool {
	if strings.HasPrefix(c, "line ") || strings.HasPrefix(c, "extern ") || strings.HasPrefix(c, "export ") {
		return true
	}
	colon := strings.Index(c, ":")
	if colon <= 0 || colon+1 >= len(c) {
		return false
	}
	for i := 0; i <= colon+1; i++ {
		if i == colon {
			continue
		}
		if b := c[i]; !('a' <= b && b <= 'z' || '0' <= b && b <= '9') {
			return false
		}
	}
	return true
}
