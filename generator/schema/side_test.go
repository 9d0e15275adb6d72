package schema

import (
	"strings"
	"testing"

	"github.com/mcpgen-dev/mcpgen/spec"
)

// TestSides: a named type shared by requests and responses leaves its
// readOnly properties out of input documents and its writeOnly ones out of
// output documents, at every depth (inlined or under "$defs"), while the
// schema files (Document) keep both; types without such properties are
// built once for both sides.
func TestSides(t *testing.T) {
	api := &spec.API{Types: []*spec.NamedType{
		{Name: "Rule", Schema: &spec.Schema{Type: spec.KindObject, Properties: []*spec.Property{
			{Name: "ruleId", Schema: &spec.Schema{Type: spec.KindString}, ReadOnly: true},
			{Name: "secret", Schema: &spec.Schema{Type: spec.KindString}, WriteOnly: true},
			{Name: "name", Schema: &spec.Schema{Type: spec.KindString}, Required: true},
		}}},
		// Recursive, so it goes under "$defs": the definition differs by side.
		{Name: "Tree", Schema: &spec.Schema{Type: spec.KindObject, Properties: []*spec.Property{
			{Name: "rule", Schema: &spec.Schema{Ref: "Rule"}},
			{Name: "children", Schema: &spec.Schema{Type: spec.KindArray, Items: &spec.Schema{Ref: "Tree"}}},
		}}},
		{Name: "Plain", Schema: &spec.Schema{Type: spec.KindObject, Properties: []*spec.Property{
			{Name: "next", Schema: &spec.Schema{Ref: "Plain"}},
		}}},
	}}
	root := &spec.Schema{Type: spec.KindObject, Properties: []*spec.Property{
		{Name: "rules", Schema: &spec.Schema{Type: spec.KindArray, Items: &spec.Schema{Ref: "Rule"}}},
		{Name: "tree", Schema: &spec.Schema{Ref: "Tree"}},
		{Name: "plain", Schema: &spec.Schema{Ref: "Plain"}},
	}}
	b := NewBuilder(api)
	if !b.sided["Rule"] || !b.sided["Tree"] || b.sided["Plain"] {
		t.Fatalf("sided = %v, want Rule and Tree", b.sided)
	}
	compact := func(o Object) string {
		s, err := new(Encoder).Compact(o)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	in, _, err := b.ToolDocument(root, true)
	if err != nil {
		t.Fatal(err)
	}
	out, _, err := b.ToolDocument(root, false)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		what, doc  string
		has, hasnt string
	}{
		{"input", compact(in), `"secret"`, `"ruleId"`},
		{"output", compact(out), `"ruleId"`, `"secret"`},
	} {
		if !strings.Contains(tt.doc, tt.has) || strings.Contains(tt.doc, tt.hasnt) {
			t.Errorf("%s document: want %s and no %s: %s", tt.what, tt.has, tt.hasnt, tt.doc)
		}
		// Both the inlined Rule and the one inside Tree's definition.
		if n := strings.Count(tt.doc, tt.has); n != 2 {
			t.Errorf("%s document has %s %d times, want 2 (inline and under $defs): %s", tt.what, tt.has, n, tt.doc)
		}
	}
	// Plain's definition is shared by both sides.
	if len(b.defs) != 3 || b.defs[defKey{"Plain", bothSides}] == nil {
		t.Errorf("definitions %v, want Tree per side and Plain once", b.defs)
	}
	all := compact(b.Document(root))
	if !strings.Contains(all, `"ruleId"`) || !strings.Contains(all, `"secret"`) {
		t.Errorf("Document leaves out properties: %s", all)
	}
}

// TestSidesShallow: a shallow document (what a tool's document over the
// budget becomes: every type inlined down to a depth) leaves the same
// properties out, and its shared nodes are kept per side.
func TestSidesShallow(t *testing.T) {
	api := &spec.API{Types: []*spec.NamedType{
		{Name: "Rule", Schema: &spec.Schema{Type: spec.KindObject, Properties: []*spec.Property{
			{Name: "ruleId", Schema: &spec.Schema{Type: spec.KindString}, ReadOnly: true},
			{Name: "name", Schema: &spec.Schema{Type: spec.KindString}},
		}}},
		{Name: "Tree", Schema: &spec.Schema{Type: spec.KindObject, Properties: []*spec.Property{
			{Name: "rule", Schema: &spec.Schema{Ref: "Rule"}},
			{Name: "child", Schema: &spec.Schema{Ref: "Tree"}},
		}}},
	}}
	root := &spec.Schema{Type: spec.KindObject, Properties: []*spec.Property{
		{Name: "tree", Schema: &spec.Schema{Ref: "Tree"}},
	}}
	b := NewBuilder(api)
	shallow := func(sd side) string {
		w := &walk{used: map[string]bool{}, limit: 3, depth: 1, side: sd}
		s, err := new(Encoder).Compact(b.build(root, w))
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	in, out := shallow(inputSide), shallow(outputSide)
	if strings.Contains(in, "ruleId") || strings.Count(out, "ruleId") != 2 {
		t.Errorf("input %s\noutput %s", in, out)
	}
}
