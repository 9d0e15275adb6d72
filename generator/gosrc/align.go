package gosrc

import "unicode/utf8"

// The aligner does what go/printer's output stage does with the cells the
// printer marks: a text/tabwriter (min width 0, tab width 8, padding 1,
// padded with blanks, DiscardEmptyColumns and TabIndent), then its
// trimmer (no blanks or tabs at the end of a line, escapes dropped, form
// feeds written as newlines). It is text/tabwriter's algorithm, kept to
// those settings and working on the whole text at once, without the
// buffering a stream needs; FuzzAlign checks it against text/tabwriter.

// cell is a piece of a line, ended by a tab or a vertical tab (or the
// end of the line, for its last cell).
type cell struct {
	text  []byte // as written, escapes included
	width int    // in runes, escapes excluded
	htab  bool   // ended by a tab, which tabwriter never discards
}

// aligner lays out the cells of one text.
type aligner struct {
	lines  [][]cell
	breaks []int // the lines after which a form feed ends every column
	widths []int // of the columns being laid out, left to right
	out    []byte
}

// appendAligned appends text, with its cells aligned, to out.
func appendAligned(out, text []byte) []byte {
	a := aligner{out: out}
	a.split(text)
	line0 := 0
	for _, end := range append(a.breaks, len(a.lines)) {
		a.format(line0, end)
		line0 = end
	}
	return a.out
}

// split cuts text into lines of cells.
func (a *aligner) split(text []byte) {
	var line []cell
	start := 0
	escaped := false
	for i := 0; i < len(text); i++ {
		c := text[i]
		if c == 0xff {
			escaped = !escaped
			continue
		}
		if escaped {
			continue
		}
		switch c {
		case '\t', '\v', '\n', '\f':
			line = append(line, newCell(text[start:i], c == '\t'))
			start = i + 1
			if c == '\n' || c == '\f' {
				a.lines = append(a.lines, line)
				line = nil
			}
			if c == '\f' {
				a.breaks = append(a.breaks, len(a.lines))
			}
		}
	}
	// The text after the last line break is a line too, if an empty one
	// (as in tabwriter, which writes a newline after every line but the
	// last); an empty last cell there is no cell at all.
	if start < len(text) {
		line = append(line, newCell(text[start:], false))
	}
	a.lines = append(a.lines, line)
}

func newCell(text []byte, htab bool) cell {
	width := utf8.RuneCount(text)
	for _, c := range text {
		if c == 0xff {
			width-- // RuneCount counts each escape byte as a rune
		}
	}
	return cell{text: text, width: width, htab: htab}
}

// format lays out lines [line0, line1) from the column len(a.widths) on:
// each run of lines that have a cell in this column (not counting a
// line's last cell) is a block whose width is its widest cell plus the
// padding, or nothing when all of its cells are empty and ended by
// vertical tabs.
func (a *aligner) format(line0, line1 int) {
	column := len(a.widths)
	for this := line0; this < line1; this++ {
		if column >= len(a.lines[this])-1 {
			continue
		}
		a.writeLines(line0, this)
		line0 = this
		width := 0
		discardable := true
		for ; this < line1; this++ {
			line := a.lines[this]
			if column >= len(line)-1 {
				break
			}
			c := line[column]
			width = max(width, c.width+1)
			if c.width > 0 || c.htab {
				discardable = false
			}
		}
		if discardable {
			width = 0
		}
		a.widths = append(a.widths, width)
		a.format(line0, this)
		a.widths = a.widths[:len(a.widths)-1]
		line0 = this
	}
	a.writeLines(line0, line1)
}

// writeLines writes lines [line0, line1) with the column widths known,
// trimmed as go/printer's trimmer does.
func (a *aligner) writeLines(line0, line1 int) {
	for i := line0; i < line1; i++ {
		start := len(a.out)
		leading := true // only empty cells so far: indentation, in tabs
		for j, c := range a.lines[i] {
			if len(c.text) > 0 {
				leading = false
				a.appendText(c.text)
			}
			if j >= len(a.widths) {
				continue
			}
			if leading {
				// A tab, or as many as reach the column's width.
				cellw := (a.widths[j] + 7) / 8 * 8
				for n := (cellw + 7) / 8; n > 0; n-- {
					a.out = append(a.out, '\t')
				}
				continue
			}
			for n := a.widths[j] - c.width; n > 0; n-- {
				a.out = append(a.out, ' ')
			}
		}
		// The trimmer: no blanks or tabs at the end of a line.
		end := len(a.out)
		for end > start && (a.out[end-1] == ' ' || a.out[end-1] == '\t') {
			end--
		}
		a.out = a.out[:end]
		if i+1 < len(a.lines) {
			a.out = append(a.out, '\n')
		}
	}
}

// appendText appends a cell's text without its escapes.
func (a *aligner) appendText(text []byte) {
	for len(text) > 0 {
		i := 0
		for i < len(text) && text[i] != 0xff {
			i++
		}
		a.out = append(a.out, text[:i]...)
		if i < len(text) {
			i++
		}
		text = text[i:]
	}
}
