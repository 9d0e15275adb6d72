package generator

import (
	"go/format"
	"strings"
	"testing"
)

// TestCommentsWrap: generated Go comments read like hand-written ones, at
// most 80 columns of comment (not counting indentation), except a line that
// is one word too long to break.
func TestCommentsWrap(t *testing.T) {
	for _, name := range goldenCases(t) {
		for _, f := range generateCase(t, name) {
			if !strings.HasSuffix(f.Path, ".go") {
				continue
			}
			for i, line := range strings.Split(string(f.Data), "\n") {
				c := strings.TrimLeft(line, "\t")
				if !strings.HasPrefix(c, "//") || len(strings.Fields(c)) <= 2 {
					continue
				}
				if n := len([]rune(c)); n > 80 {
					t.Errorf("%s/%s:%d: comment is %d columns wide: %s", name, f.Path, i+1, n, c)
				}
			}
		}
	}
}

// TestWrapKeepsParagraphsAndLists: a long description is re-flowed, its
// paragraphs stay apart and a list keeps its lines.
func TestWrapKeepsParagraphsAndLists(t *testing.T) {
	files := generateCase(t, "kitchen_sink")
	var src string
	for _, f := range files {
		if strings.HasSuffix(f.Path, "mcpgen_types_gen.go") {
			src = string(f.Data)
		}
	}
	want := "\t// Where to ship. The address itself is on file with the customer; this only\n" +
		"\t// chooses the country and the speed, which together decide the carrier and the\n" +
		"\t// price of shipping, so a long line here must be wrapped in the Go comment.\n" +
		"\t//\n" +
		"\t// Carriers by speed:\n" +
		"\t// - standard: the national post\n" +
		"\t// - express: a courier, next working day\n"
	if !strings.Contains(src, want) {
		t.Errorf("the shipping field's doc is not wrapped as expected; want\n%s", want)
	}
}

// TestImportsGrouped: standard library imports come first, then the
// others after a blank line, and the files stay gofmt-clean.
func TestImportsGrouped(t *testing.T) {
	for _, name := range goldenCases(t) {
		for _, f := range generateCase(t, name) {
			if !strings.HasSuffix(f.Path, ".go") {
				continue
			}
			src := string(f.Data)
			if formatted, err := format.Source(f.Data); err != nil || string(formatted) != src {
				t.Errorf("%s/%s: not gofmt-clean (%v)", name, f.Path, err)
			}
			_, block, ok := strings.Cut(src, "\nimport (\n")
			if !ok {
				continue
			}
			block, _, _ = strings.Cut(block, "\n)\n")
			seenOther := false
			for _, line := range strings.Split(block, "\n") {
				isStd := line != "" && !strings.Contains(strings.SplitN(line, "/", 2)[0], ".")
				if isStd && seenOther {
					t.Errorf("%s/%s: standard import %s after a non-standard one", name, f.Path, strings.TrimSpace(line))
				}
				if line != "" && !isStd {
					seenOther = true
				}
			}
			if strings.Contains(block, "mcpgen/runtime") && strings.Contains(block, "\t\"regexp\"") && !strings.Contains(block, "\n\n") {
				t.Errorf("%s/%s: no blank line between the import groups", name, f.Path)
			}
		}
	}
}
