package spec

import (
	"strings"
	"testing"
	"testing/fstest"
)

// An enum beside a union of titled consts (Discord's component `type`:
// `{enum: [1], allOf: [{$ref: MessageComponentTypes}]}`, where the
// referenced schema is a oneOf of consts) allows only the values both
// allow. Keeping the union and dropping the enum let every component type
// through, so an action row with no components matched another variant
// and reached the API.
func TestOpenAPIEnumBesideUnion(t *testing.T) {
	const doc = `openapi: 3.1.0
info: {title: t, version: "1"}
paths:
  /c:
    get:
      operationId: components
      parameters:
        - {in: query, name: narrowed, required: true, schema: {type: integer, enum: [1], allOf: [{$ref: "#/components/schemas/Types"}]}}
        - {in: query, name: constant, required: true, schema: {type: integer, const: 17, allOf: [{$ref: "#/components/schemas/Types"}]}}
        - {in: query, name: several, required: true, schema: {type: integer, enum: [2, 3, 99], allOf: [{$ref: "#/components/schemas/Types"}]}}
        - {in: query, name: none, required: true, schema: {type: integer, enum: [99], allOf: [{$ref: "#/components/schemas/Types"}]}}
      responses: {"200": {description: OK}}
components:
  schemas:
    Types:
      type: integer
      oneOf:
        - {title: ActionRow, const: 1}
        - {title: Button, const: 2}
        - {title: Select, const: 3}
        - {title: Container, const: 17}
`
	api, err := LoadOpenAPI(fstest.MapFS{"api.yaml": {Data: []byte(doc)}}, "api.yaml", OpenAPIConfig{})
	if err != nil {
		t.Fatal(err)
	}
	in := toolByName(t, api, "components").Input
	for _, tc := range []struct{ name, enum, cnst string }{
		{"narrowed", "1", ""},
		{"constant", "", "17"},
		{"several", "2 3", ""},
		{"none", "", ""},
	} {
		s := prop(t, in, tc.name).Schema
		if len(s.OneOf) != 0 {
			t.Errorf("%s: the union is kept beside the enum (%d variants)", tc.name, len(s.OneOf))
		}
		if s.Type != KindInteger {
			t.Errorf("%s: type %q, want integer", tc.name, s.Type)
		}
		var enum []string
		for _, e := range s.Enum {
			enum = append(enum, string(e))
		}
		if got := strings.Join(enum, " "); got != tc.enum {
			t.Errorf("%s: enum %q, want %q", tc.name, got, tc.enum)
		}
		if string(s.Const) != tc.cnst {
			t.Errorf("%s: const %q, want %q", tc.name, s.Const, tc.cnst)
		}
		if tc.name == "none" && (s.Enum == nil || len(s.Enum) != 0) {
			t.Errorf("none: enum %v, want an empty enum that refuses every value", s.Enum)
		}
	}
}
