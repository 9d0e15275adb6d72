package generator

import (
	"strings"
	"testing"

	"github.com/mcpgen-dev/mcpgen/spec"
)

func TestNotePatterns(t *testing.T) {
	kept := &spec.Schema{Type: spec.KindString, Pattern: `^\d+$`, Pos: spec.Pos{File: "api.yaml", Line: 3, Col: 5}}
	dropped := &spec.Schema{Type: spec.KindString, Pattern: `(?m)^a$`, Pos: spec.Pos{File: "api.yaml", Line: 9, Col: 7}}
	in := &spec.Schema{Type: spec.KindObject, Properties: []*spec.Property{{Name: "a", Schema: kept}, {Name: "b", Schema: &spec.Schema{Type: spec.KindArray, Items: dropped}}}}
	api := &spec.API{Tools: []*spec.Tool{{Name: "t", Input: in}, {Name: "u", Input: in}}}
	notePatterns(api)
	notePatterns(api)
	if len(api.Notes) != 1 || api.Notes[0].Pos != dropped.Pos || !strings.Contains(api.Notes[0].Message, "(?m)^a$") {
		t.Fatalf("notes %v, want one at 9:7 naming the dropped pattern", api.Notes)
	}
}
