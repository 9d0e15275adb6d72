package schema

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/mcpgen-dev/mcpgen/spec"
)

// tagAPI has discriminated unions whose variants fix their tag in each of
// the ways a spec can: a required const, an optional tag the mapping alone
// gives (one value, or two), a tag whose enum is wider than the mapping,
// and a recursive variant (published as a "$ref") without a const.
func tagAPI() *spec.API {
	str := func() *spec.Schema { return &spec.Schema{Type: spec.KindString} }
	obj := func(props ...*spec.Property) *spec.Schema {
		return &spec.Schema{Type: spec.KindObject, Properties: props}
	}
	return &spec.API{Types: []*spec.NamedType{
		{Name: "Circle", Schema: obj(
			&spec.Property{Name: "kind", Required: true, Schema: &spec.Schema{Type: spec.KindString, Const: json.RawMessage(`"circle"`)}},
			&spec.Property{Name: "r", Schema: &spec.Schema{Type: spec.KindNumber}})},
		{Name: "Dog", Schema: obj(&spec.Property{Name: "kind", Schema: str()})},
		{Name: "Cat", Schema: obj(&spec.Property{Name: "kind", Schema: &spec.Schema{Type: spec.KindString,
			Enum: []json.RawMessage{json.RawMessage(`"cat"`), json.RawMessage(`"kitten"`), json.RawMessage(`"lion"`)}}})},
		{Name: "Tree", Schema: obj(
			&spec.Property{Name: "kind", Schema: str()},
			&spec.Property{Name: "child", Schema: &spec.Schema{Ref: "Animal"}})},
		{Name: "Animal", Schema: &spec.Schema{
			OneOf: []*spec.Schema{{Ref: "Circle"}, {Ref: "Dog"}, {Ref: "Cat"}, {Ref: "Tree"}},
			Discriminator: &spec.Discriminator{PropertyName: "kind", Mapping: []spec.DiscriminatorCase{
				{Value: "circle", Type: "Circle"},
				{Value: "dog", Type: "Dog"}, {Value: "puppy", Type: "Dog"},
				{Value: "cat", Type: "Cat"}, {Value: "kitten", Type: "Cat"}, {Value: "tabby", Type: "Cat"},
				{Value: "tree", Type: "Tree"},
			}},
		}},
	}}
}

// TestPinTag: every variant of a discriminated union is published with
// the tag values that select it, required, so a JSON Schema validator
// accepts exactly the tags the server's decoder does.
func TestPinTag(t *testing.T) {
	b := NewBuilder(tagAPI())
	doc := b.Document(&spec.Schema{Ref: "Animal"})
	got, err := new(Encoder).Compact(doc)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		// Already pinned: unchanged.
		`{"type":"object","properties":{"kind":{"type":"string","const":"circle"},"r":{"type":"number"}},"required":["kind"],"additionalProperties":false}`,
		// Two mapped values: an enum, and the tag becomes required.
		`{"type":"object","properties":{"kind":{"type":"string","enum":["dog","puppy"]}},"required":["kind"],"additionalProperties":false}`,
		// A wider enum narrowed to the mapped values it allows.
		`"kind":{"type":"string","enum":["cat","kitten"]}`,
		// A "$ref": pinned beside it in an allOf.
		`{"allOf":[{"$ref":"#/$defs/Tree"},{"properties":{"kind":{"const":"tree"}},"required":["kind"]}]}`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("document lacks %s:\n%s", want, got)
		}
	}
	if strings.Count(got, `"const":"circle"`) != 1 {
		t.Errorf("the const variant was pinned twice:\n%s", got)
	}

	sch := compileSchema(t, doc)
	for _, c := range []struct {
		value string
		valid bool
	}{
		{`{"kind":"circle","r":1}`, true},
		{`{"r":1}`, false},
		{`{"kind":"dog"}`, true},
		{`{"kind":"puppy"}`, true},
		{`{}`, false},
		{`{"kind":"wolf"}`, false},
		{`{"kind":"kitten"}`, true},
		{`{"kind":"lion"}`, false}, // allowed by Cat's enum, but selects nothing
		{`{"kind":"tree","child":{"kind":"dog"}}`, true},
		{`{"kind":"tree","child":{"kind":"wolf"}}`, false},
		{`{"kind":"tree","child":{}}`, false},
	} {
		v, err := jsonschema.UnmarshalJSON(strings.NewReader(c.value))
		if err != nil {
			t.Fatal(err)
		}
		if err := sch.Validate(v); (err == nil) != c.valid {
			t.Errorf("%s: valid %v, want %v (%v)", c.value, err == nil, c.valid, err)
		}
	}
}

// TestPinTagLeavesSharedNodesAlone: the variant's definition, used on its
// own elsewhere, keeps its optional, free tag.
func TestPinTagLeavesSharedNodesAlone(t *testing.T) {
	b := NewBuilder(tagAPI())
	b.Document(&spec.Schema{Ref: "Animal"})
	got, err := new(Encoder).Compact(b.Document(&spec.Schema{Ref: "Dog"}))
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"type":"object","properties":{"kind":{"type":"string"}},"additionalProperties":false}`; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}
