package schema

import (
	"encoding/json"
	"testing"

	"github.com/mcpgen-dev/mcpgen/spec"
)

func TestTolerant(t *testing.T) {
	shared := Object{{"type", "object"}, {"properties", Object{{"n", Object{{"type", "integer"}, {"minimum", 1}}}}}, {"required", []string{"n"}}, {"additionalProperties", false}}
	doc := Object{
		{"type", "object"},
		{"properties", Object{
			{"status", Object{{"type", "string"}, {"description", "Where it is."}, {"enum", []json.RawMessage{json.RawMessage(`"A"`), json.RawMessage(`"B"`)}}}},
			{"at", Object{{"type", []string{"string", "null"}}, {"format", "date-time"}}},
			{"tags", Object{{"type", "array"}, {"items", Object{{"type", "string"}, {"pattern", "^[a-z]+$"}, {"maxLength", 8}}}, {"maxItems", 3}, {"uniqueItems", true}}},
			{"shape", Object{{"oneOf", []Object{{{"$ref", "#/$defs/Circle"}}, {{"type", "null"}}}}}},
			{"meta", Object{{"type", "object"}, {"additionalProperties", shared}}},
			{"any", Object{}},
		}},
		{"required", []string{"status"}},
		{"additionalProperties", false},
		{"$defs", Object{{"Circle", shared}}},
	}
	before, _ := json.Marshal(doc)
	got, err := json.Marshal(NewTolerant().Document(doc))
	if err != nil {
		t.Fatal(err)
	}
	const relaxedShared = `{"type":["object","null"],"properties":{"n":{"type":["integer","null"],"description":"Documented: minimum 1."}}}`
	want := `{"type":"object","properties":{` +
		`"status":{"type":["string","null"],"description":"Where it is.\n\nDocumented: enum [\"A\",\"B\"]."},` +
		`"at":{"type":["string","null"],"description":"Documented: format \"date-time\"."},` +
		`"tags":{"type":["array","null"],"description":"Documented: maxItems 3; uniqueItems true.","items":{"type":["string","null"],"description":"Documented: pattern \"^[a-z]+$\"; maxLength 8."}},` +
		`"shape":{"anyOf":[{"$ref":"#/$defs/Circle"},{"type":"null"}]},` +
		`"meta":{"type":["object","null"],"additionalProperties":` + relaxedShared + `},` +
		`"any":{}},` +
		`"$defs":{"Circle":` + relaxedShared + `}}`
	if string(got) != want {
		t.Errorf("tolerant document\n got %s\nwant %s", got, want)
	}
	if after, _ := json.Marshal(doc); string(after) != string(before) {
		t.Errorf("the input document changed:\n%s\n%s", before, after)
	}
}

// TestTolerantDocumentBudget: the budget applies to the tolerant document
// tools list, which is larger than the exact one it comes from.
func TestTolerantDocumentBudget(t *testing.T) {
	leaf := &spec.Schema{Type: spec.KindObject}
	for _, n := range []string{"alpha", "beta", "gamma", "delta", "epsilon"} {
		leaf.Properties = append(leaf.Properties, &spec.Property{Name: n, Schema: &spec.Schema{Type: spec.KindString, Format: "date-time"}, Required: true})
	}
	api := &spec.API{Types: []*spec.NamedType{{Name: "Leaf", Schema: leaf}}}
	out := &spec.Schema{Type: spec.KindObject, Properties: []*spec.Property{{Name: "leaf", Schema: &spec.Schema{Ref: "Leaf"}}}}
	exact, _ := json.Marshal(NewBuilder(api).Document(out))
	tolerant, _ := json.Marshal(NewTolerant().Document(NewBuilder(api).Document(out)))
	// A budget the exact document fits but its tolerant form does not.
	api.MaxSchemaBytes = (len(exact) + len(tolerant)) / 2
	doc, from, cut, err := NewBuilder(api).TolerantDocument(out, NewTolerant())
	if err != nil {
		t.Fatal(err)
	}
	got, _ := json.Marshal(doc)
	if cut == nil || len(got) > api.MaxSchemaBytes || cut.Size != len(got) || cut.Depth != 0 {
		t.Errorf("tolerant document of %d bytes (cut %+v) over a %d-byte budget: %s", len(got), cut, api.MaxSchemaBytes, got)
	}
	if want, _ := json.Marshal(NewTolerant().Document(from)); string(want) != string(got) {
		t.Errorf("the listed document is not the tolerant form of the response schema:\n%s\n%s", got, want)
	}
	// Without a budget, nothing is cut.
	api.MaxSchemaBytes = 0
	if _, _, cut, _ := NewBuilder(api).TolerantDocument(out, NewTolerant()); cut != nil {
		t.Errorf("cut %+v without a budget", cut)
	}
}
