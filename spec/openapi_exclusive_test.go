package spec

import (
	"testing"
	"testing/fstest"
)

// A 3.1 document may write exclusiveMinimum/exclusiveMaximum as draft-04
// booleans beside minimum/maximum (readme-oas-examples
// 3.1/schema-validation-top-level.json, under jsonSchemaDialect draft-04);
// they must become the exclusive bounds, not bounds at 0.
func TestOpenAPI31BooleanExclusiveBounds(t *testing.T) {
	const doc = `openapi: 3.1.0
info: {title: t, version: "1"}
jsonSchemaDialect: http://json-schema.org/draft-04/schema#
paths:
  /n:
    get:
      operationId: numbers
      parameters:
        - {in: query, name: draft4, required: true, schema: {type: number, minimum: 10, maximum: 20, exclusiveMinimum: true, exclusiveMaximum: true}}
        - {in: query, name: inclusive, required: true, schema: {type: number, minimum: 10, maximum: 20, exclusiveMinimum: false, exclusiveMaximum: false}}
        - {in: query, name: numeric, required: true, schema: {type: number, exclusiveMinimum: 10, exclusiveMaximum: 20}}
      responses: {"200": {description: OK}}
`
	api, err := LoadOpenAPI(fstest.MapFS{"api.yaml": {Data: []byte(doc)}}, "api.yaml", OpenAPIConfig{})
	if err != nil {
		t.Fatal(err)
	}
	in := toolByName(t, api, "numbers").Input
	num := func(p *float64) any {
		if p == nil {
			return nil
		}
		return *p
	}
	for _, tc := range []struct {
		name                   string
		min, max, exMin, exMax any
	}{
		{"draft4", nil, nil, 10.0, 20.0},
		{"inclusive", 10.0, 20.0, nil, nil},
		{"numeric", nil, nil, 10.0, 20.0},
	} {
		s := prop(t, in, tc.name).Schema
		if got := [4]any{num(s.Minimum), num(s.Maximum), num(s.ExclusiveMinimum), num(s.ExclusiveMaximum)}; got != [4]any{tc.min, tc.max, tc.exMin, tc.exMax} {
			t.Errorf("%s: minimum, maximum, exclusiveMinimum, exclusiveMaximum = %v, want %v", tc.name, got, [4]any{tc.min, tc.max, tc.exMin, tc.exMax})
		}
	}
}
