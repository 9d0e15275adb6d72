package schema

import (
	"testing"

	"github.com/mcpgen-dev/mcpgen/spec"
)

// A nullable union gets a {type: null} variant only when no variant
// accepts null already: with two, oneOf would refuse null (OpenAI's
// createChatCompletion stop: oneOf [string|null, array, null] with
// default null, which the Go SDK's client refused).
func TestNullableUnionPublishesNullOnce(t *testing.T) {
	api := &spec.API{Types: []*spec.NamedType{
		{Name: "MaybeText", Schema: &spec.Schema{Type: spec.KindString, Nullable: true}},
		{Name: "Alias", Schema: &spec.Schema{Ref: "MaybeText"}},
		{Name: "Text", Schema: &spec.Schema{Type: spec.KindString}},
	}}
	array := &spec.Schema{Type: spec.KindArray, Items: &spec.Schema{Type: spec.KindString}}
	for _, tc := range []struct {
		name    string
		variant *spec.Schema
		want    string
	}{
		{"nullable variant", &spec.Schema{Type: spec.KindString, Nullable: true},
			`{"oneOf":[{"type":["string","null"]},{"type":"array","items":{"type":"string"}}]}`},
		{"any-value variant", &spec.Schema{},
			`{"oneOf":[{},{"type":"array","items":{"type":"string"}}]}`},
		{"ref to a nullable type, through an alias", &spec.Schema{Ref: "Alias"},
			`{"oneOf":[{"type":["string","null"]},{"type":"array","items":{"type":"string"}}]}`},
		{"no variant accepts null", &spec.Schema{Ref: "Text"},
			`{"oneOf":[{"type":"string"},{"type":"array","items":{"type":"string"}},{"type":"null"}]}`},
		{"constrained variant", &spec.Schema{Type: spec.KindString, MinLength: new(int64)},
			`{"oneOf":[{"type":"string","minLength":0},{"type":"array","items":{"type":"string"}},{"type":"null"}]}`},
	} {
		doc := NewBuilder(api).Document(&spec.Schema{OneOf: []*spec.Schema{tc.variant, array}, Nullable: true})
		got, err := new(Encoder).Compact(doc)
		if err != nil {
			t.Fatal(err)
		}
		if got != tc.want {
			t.Errorf("%s: got  %s\nwant %s", tc.name, got, tc.want)
		}
	}
}
