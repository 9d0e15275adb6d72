package spec

import (
	"fmt"
	"sort"
	"strings"
)

// Diagnostic is one problem in a spec, at a position.
type Diagnostic struct {
	Pos     Pos
	Message string
}

func (d Diagnostic) String() string {
	if d.Pos.Line == 0 {
		return fmt.Sprintf("%s: %s", d.Pos.File, d.Message)
	}
	return fmt.Sprintf("%s:%d:%d: %s", d.Pos.File, d.Pos.Line, d.Pos.Col, d.Message)
}

// Diagnostics is every problem found in one load. As an error it prints one
// "file:line:col: message" line per problem, sorted by position.
type Diagnostics []Diagnostic

// Sort orders the diagnostics by file, line, column and message.
func (ds Diagnostics) Sort() {
	sort.SliceStable(ds, func(i, j int) bool {
		a, b := ds[i], ds[j]
		if a.Pos.File != b.Pos.File {
			return a.Pos.File < b.Pos.File
		}
		if a.Pos.Line != b.Pos.Line {
			return a.Pos.Line < b.Pos.Line
		}
		if a.Pos.Col != b.Pos.Col {
			return a.Pos.Col < b.Pos.Col
		}
		return a.Message < b.Message
	})
}

func (ds Diagnostics) Error() string {
	var b strings.Builder
	for i, d := range ds {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(d.String())
	}
	return b.String()
}
