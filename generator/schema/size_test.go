package schema

import (
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/mcpgen-dev/mcpgen/spec"
)

// budgetAPI has a recursive Node whose every level carries a long
// description, so that its exact schema is big, and a oneOf Shape.
func budgetAPI(max int) *spec.API {
	long := strings.Repeat("words ", 40)
	return &spec.API{MaxSchemaBytes: max, Types: []*spec.NamedType{
		{Name: "Leaf", Schema: &spec.Schema{Type: spec.KindObject, Description: long, Properties: []*spec.Property{
			{Name: "id", Required: true, Schema: &spec.Schema{Type: spec.KindString, Description: long}},
		}}},
		{Name: "Node", Schema: &spec.Schema{Type: spec.KindObject, Description: "A node.", Properties: []*spec.Property{
			{Name: "leaf", Schema: &spec.Schema{Ref: "Leaf"}},
			{Name: "children", Schema: &spec.Schema{Type: spec.KindArray, Items: &spec.Schema{Ref: "Node"}}},
			{Name: "shape", Schema: &spec.Schema{OneOf: []*spec.Schema{{Ref: "Leaf"}, {Type: spec.KindString}}}},
		}}},
	}}
}

func compileSchema(t *testing.T, doc Object) *jsonschema.Schema {
	t.Helper()
	data, err := new(Encoder).File(doc)
	if err != nil {
		t.Fatal(err)
	}
	v, err := jsonschema.UnmarshalJSON(strings.NewReader(string(data)))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	if err := c.AddResource("mem:///s.json", v); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("mem:///s.json")
	if err != nil {
		t.Fatalf("not a valid 2020-12 schema: %v", err)
	}
	return s
}

// TestToolDocumentUnderBudgetIsExact: a schema within the budget (or with
// no budget) is the exact document, "$defs" and all.
func TestToolDocumentUnderBudgetIsExact(t *testing.T) {
	out := &spec.Schema{Ref: "Node"}
	for _, max := range []int{0, 1 << 20} {
		b := NewBuilder(budgetAPI(max))
		doc, cut, err := b.ToolDocument(out, false)
		if err != nil || cut != nil {
			t.Fatalf("max %d: cut %+v, err %v", max, cut, err)
		}
		exact, _ := new(Encoder).Compact(b.Document(out))
		got, _ := new(Encoder).Compact(doc)
		if got != exact {
			t.Errorf("max %d: got %s\nwant the exact %s", max, got, exact)
		}
	}
}

// TestToolDocumentOverBudgetIsShallow: over the budget, the document keeps
// the root's shape, fits, names every elided type, says anyOf for oneOf,
// and still accepts the values the exact schema accepts.
func TestToolDocumentOverBudgetIsShallow(t *testing.T) {
	const max = 1200
	b := NewBuilder(budgetAPI(max))
	out := &spec.Schema{Ref: "Node"}
	doc, cut, err := b.ToolDocument(out, false)
	if err != nil {
		t.Fatal(err)
	}
	exact, _ := new(Encoder).Compact(b.Document(out))
	if cut == nil || cut.Full != len(exact) || cut.Size > max {
		t.Fatalf("cut %+v for an exact document of %d bytes, budget %d", cut, len(exact), max)
	}
	got, _ := new(Encoder).Compact(doc)
	if len(got) != cut.Size {
		t.Errorf("Cut.Size %d, document %d bytes", cut.Size, len(got))
	}
	for _, want := range []string{`"type":"object"`, `"children"`, `Schema of Leaf left out to keep this tool's schema under 1200 bytes.`, `"anyOf"`} {
		if !strings.Contains(got, want) {
			t.Errorf("shallow document lacks %s:\n%s", want, got)
		}
	}
	if strings.Contains(got, `"oneOf"`) || strings.Contains(got, `"$ref"`) {
		t.Errorf("shallow document has oneOf or $ref:\n%s", got)
	}
	valid := map[string]any{"leaf": map[string]any{"id": "a"}, "shape": "s",
		"children": []any{map[string]any{"children": []any{map[string]any{"leaf": map[string]any{"id": "b"}, "shape": map[string]any{"id": "c"}}}}}}
	if err := compileSchema(t, b.Document(out)).Validate(valid); err != nil {
		t.Fatalf("the exact schema rejects the sample: %v", err)
	}
	if err := compileSchema(t, doc).Validate(valid); err != nil {
		t.Errorf("the shallow schema rejects a value the exact one accepts: %v", err)
	}
	// Another budget changes the depth, and the same schema twice is the
	// same (cached) document.
	again, cut2, _ := b.ToolDocument(out, false)
	if cut2 != cut || len(again) != len(doc) {
		t.Errorf("second call: cut %+v, want the first %+v", cut2, cut)
	}
}

// TestToolDocumentKeepsTheDeepestThatFits: along a chain A → B → C → D of
// types of about 300 bytes each, a budget that fits three levels keeps A, B and
// C and elides D.
func TestToolDocumentKeepsTheDeepestThatFits(t *testing.T) {
	api := &spec.API{MaxSchemaBytes: 1300}
	for i, name := range []string{"A", "B", "C", "D"} {
		s := &spec.Schema{Type: spec.KindObject, Properties: []*spec.Property{
			{Name: "pad", Schema: &spec.Schema{Type: spec.KindString, Description: strings.Repeat(name, 250)}}}}
		if i < 3 {
			s.Properties = append(s.Properties, &spec.Property{Name: "next", Schema: &spec.Schema{Ref: string("BCD"[i])}})
		}
		api.Types = append(api.Types, &spec.NamedType{Name: name, Schema: s})
	}
	doc, cut, err := NewBuilder(api).ToolDocument(&spec.Schema{Ref: "A"}, false)
	if err != nil || cut == nil {
		t.Fatalf("cut %+v, err %v", cut, err)
	}
	got, _ := new(Encoder).Compact(doc)
	if cut.Depth != 2 || !strings.Contains(got, strings.Repeat("C", 250)) || !strings.Contains(got, "Schema of D left out") || len(got) > 1300 {
		t.Errorf("cut %+v: %s", cut, got)
	}
}

// TestToolDocumentInputIsObject: an input keeps type object and its own
// properties even when every named type below it is elided.
func TestToolDocumentInputIsObject(t *testing.T) {
	b := NewBuilder(budgetAPI(200))
	in := &spec.Schema{Properties: []*spec.Property{{Name: "node", Required: true, Schema: &spec.Schema{Ref: "Node", Header: "Node"}}}}
	doc, cut, err := b.ToolDocument(in, true)
	if err != nil || cut == nil || cut.Depth != 0 {
		t.Fatalf("cut %+v, err %v", cut, err)
	}
	got, _ := new(Encoder).Compact(doc)
	want := `{"type":"object","properties":{"node":{"description":"A node.\n\nSchema of Node left out to keep this tool's schema under 200 bytes.","x-mcp-header":"Node"}},"required":["node"],"additionalProperties":false}`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// sizeAPI has a large type (too big to inline) that refers to another
// large one, a recursive type, and strings that encoding/json escapes.
func sizeAPI() *spec.API {
	props := func(n int, ref string) []*spec.Property {
		var ps []*spec.Property
		for i := range n {
			ps = append(ps, &spec.Property{Name: "p" + string(rune('a'+i)), Schema: &spec.Schema{Type: spec.KindString, Description: "«quoted» \"text\"\n"}})
		}
		return append(ps, &spec.Property{Name: "next", Schema: &spec.Schema{Ref: ref, Nullable: true}})
	}
	return &spec.API{Types: append(budgetAPI(0).Types,
		&spec.NamedType{Name: "Big", Schema: &spec.Schema{Type: spec.KindObject, Properties: props(MaxInline, "Bigger")}},
		&spec.NamedType{Name: "Bigger", Schema: &spec.Schema{Type: spec.KindObject, Properties: props(MaxInline+1, "Node")}},
		&spec.NamedType{Name: "Small", Schema: &spec.Schema{Type: spec.KindInteger, Description: "ünïcode"}},
	)}
}

// sizeRoots are the schemas whose documents sizeAPI's tests measure: every
// named type, and an input reaching several of them.
func sizeRoots(api *spec.API) []*spec.Schema {
	var roots []*spec.Schema
	for _, nt := range api.Types {
		roots = append(roots, &spec.Schema{Ref: nt.Name})
	}
	return append(roots, &spec.Schema{}, &spec.Schema{Type: spec.KindObject, Properties: []*spec.Property{
		{Name: "big", Schema: &spec.Schema{Ref: "Big"}},
		{Name: "small", Schema: &spec.Schema{Ref: "Small"}},
		{Name: "node", Schema: &spec.Schema{Ref: "Node"}},
	}})
}

// TestDocumentSizeIsTheMarshalledSize: the size of a document summed from
// its definitions' sizes (what the budget note prints) is the length of
// the document as compact JSON, and a document built from definitions
// another document already built is the same bytes as one built afresh,
// unchanged by the documents built after it.
func TestDocumentSizeIsTheMarshalledSize(t *testing.T) {
	api := sizeAPI()
	warm := NewBuilder(api)
	roots := sizeRoots(api)
	var first []string
	for _, s := range roots {
		doc := warm.Document(s)
		got, err := new(Encoder).Compact(doc)
		if err != nil {
			t.Fatal(err)
		}
		first = append(first, got)
		root, names := warm.exact(s, bothSides)
		n, err := warm.documentSize(root, names, bothSides)
		if err != nil || n != len(got) {
			t.Errorf("%+v: size %d (err %v), document %d bytes: %s", s, n, err, len(got), got)
		}
		fresh, _ := new(Encoder).Compact(NewBuilder(api).Document(s))
		if got != fresh {
			t.Errorf("%+v: with shared definitions %s\nafresh %s", s, got, fresh)
		}
	}
	if !strings.Contains(first[len(first)-1], `"$defs":{"Big":`) || !strings.Contains(first[len(first)-1], `"Bigger":`) {
		t.Fatalf("the test API does not put Big and Bigger under $defs: %s", first[len(first)-1])
	}
	for i, s := range roots {
		if again, _ := new(Encoder).Compact(warm.Document(s)); again != first[i] {
			t.Errorf("%+v: built again %s\nfirst %s", s, again, first[i])
		}
	}
}

// TestAppendJSONWithin: with a limit, marshalling is exact up to the limit
// and reports more than the limit past it, on documents exact and shallow.
func TestAppendJSONWithin(t *testing.T) {
	api := sizeAPI()
	b := NewBuilder(api)
	for _, s := range sizeRoots(api) {
		for _, doc := range []Object{b.Document(s), b.node(s, &walk{used: map[string]bool{}, limit: 1})} {
			full, err := new(Encoder).Compact(doc)
			if err != nil {
				t.Fatal(err)
			}
			for limit := 0; limit <= len(full)+1; limit++ {
				data, err := appendJSON(nil, doc, limit)
				switch {
				case err != nil:
					t.Fatal(err)
				case limit >= len(full) && string(data) != full:
					t.Fatalf("limit %d: got %s\nwant %s", limit, data, full)
				case limit < len(full) && len(data) <= limit:
					t.Fatalf("limit %d under the size %d: got %d bytes, which fit", limit, len(full), len(data))
				}
			}
		}
	}
}

// TestShallowDocumentsShareNodes: the tool documents of a Builder that
// already built other (shallow) documents are the bytes and cuts of ones
// built by a fresh Builder, whatever the budget.
func TestShallowDocumentsShareNodes(t *testing.T) {
	api := sizeAPI()
	cuts := 0
	for _, max := range []int{100, 800, 1500, 3000, 4500, 5500} {
		api.MaxSchemaBytes = max
		warm := NewBuilder(api)
		for _, s := range sizeRoots(api) {
			for _, input := range []bool{false, true} {
				doc, cut, err := warm.ToolDocument(s, input)
				if err != nil {
					t.Fatal(err)
				}
				fdoc, fcut, _ := NewBuilder(api).ToolDocument(s, input)
				got, _ := new(Encoder).Compact(doc)
				want, _ := new(Encoder).Compact(fdoc)
				if got != want || (cut == nil) != (fcut == nil) || cut != nil && *cut != *fcut {
					t.Errorf("max %d, %+v, input %v: cut %+v %s\nafresh %+v %s", max, s, input, cut, got, fcut, want)
				}
				if cut != nil && cut.Depth > 0 {
					cuts++
				}
			}
		}
	}
	if cuts == 0 {
		t.Fatal("no document was cut to a depth above 0: the test checks nothing shared")
	}
}
