package spec

import (
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

// A name that required lists and properties do not declare is still a
// required member (JSON Schema), its value constrained only by
// patternProperties and additionalProperties (readme-oas-examples
// schema-enums boolean_enumSupport, issue #16).
func TestOpenAPIUndeclaredRequired(t *testing.T) {
	api, notes := loadApplicators(t, `    Root:
      type: object
      properties:
        open: {$ref: '#/components/schemas/Open'}
        typed: {$ref: '#/components/schemas/Typed'}
        pattern: {$ref: '#/components/schemas/Pattern'}
        closed: {$ref: '#/components/schemas/Closed'}
        bare: {$ref: '#/components/schemas/Bare'}
        untyped: {$ref: '#/components/schemas/Untyped'}
        merged: {$ref: '#/components/schemas/Merged'}
        mergedUndeclared: {$ref: '#/components/schemas/MergedUndeclared'}
        variants: {$ref: '#/components/schemas/Variants'}
        constraints: {$ref: '#/components/schemas/Constraints'}
    Open: {type: object, properties: {a: {type: string}}, required: [a, "x y"]}
    Typed: {type: object, properties: {a: {type: string}}, additionalProperties: {type: integer}, required: [x]}
    Pattern: {type: object, properties: {a: {type: string}}, patternProperties: {"^n_": {type: number}}, additionalProperties: false, required: [n_1]}
    Closed:
      type: object
      properties: {a: {type: string}}
      additionalProperties: false
      required:
        - x
    Bare: {type: object, required: [x]}
    Untyped: {required: [x]}
    Merged:
      allOf:
        - {type: object, properties: {a: {type: string}}}
        - {required: [a]}
    MergedUndeclared:
      allOf:
        - {type: object, properties: {a: {type: string}}}
        - {required: [z]}
    Variants:
      oneOf:
        - {type: object, properties: {k: {type: string, enum: [one]}}, required: [k, y]}
        - {type: object, properties: {k: {type: string, enum: [two]}}, required: [k]}
    Constraints:
      type: object
      properties: {a: {type: string}, b: {type: string}}
      oneOf:
        - {required: [a]}
        - {required: [b]}
`)
	// describe is a property list as "name:type!" ("!" when required).
	describe := func(s *Schema) string {
		var out []string
		for _, p := range s.Properties {
			d := p.Name + ":" + string(p.Schema.Type)
			if p.Schema.Type == KindAny {
				d = p.Name + ":any"
			}
			if p.Required {
				d += "!"
			}
			out = append(out, d)
		}
		return strings.Join(out, ",")
	}
	for _, tc := range []struct{ name, want string }{
		{"Open", "a:string!,x y:any!"},
		{"Typed", "a:string,x:integer!"},
		{"Pattern", "a:string,n_1:number!"},
		{"Closed", "a:string,x:any!"},
		{"Bare", "x:any!"},
		{"Untyped", ""},
		{"Merged", "a:string!"},
		{"MergedUndeclared", "a:string,z:any!"},
	} {
		if got := describe(namedSchema(t, api, tc.name)); got != tc.want {
			t.Errorf("%s: properties %q, want %q", tc.name, got, tc.want)
		}
	}

	v := namedSchema(t, api, "Variants")
	if len(v.OneOf) != 2 {
		t.Fatalf("Variants: %d variants, want 2", len(v.OneOf))
	}
	for i, want := range []string{"k:string!,y:any!", "k:string!"} {
		if got := describe(v.OneOf[i]); got != want {
			t.Errorf("Variants[%d]: properties %q, want %q", i, got, want)
		}
	}

	// Variants that only require declared properties stay constraints.
	c := namedSchema(t, api, "Constraints")
	if got := describe(c); got != "a:string,b:string" {
		t.Errorf("Constraints: properties %q, want a:string,b:string", got)
	}
	if len(c.OneOfSchemas) != 2 || !slices.Equal(c.OneOfSchemas[0].Requires, []string{"a"}) || !slices.Equal(c.OneOfSchemas[1].Requires, []string{"b"}) {
		t.Errorf("Constraints: oneOf constraints %+v", c.OneOfSchemas)
	}

	// additionalProperties: false leaves no value for x: noted where the
	// required list names it, and only there.
	if !strings.Contains(notes, `api.yaml:32:11: required names "x", which properties do not declare, and additionalProperties is false`) {
		t.Errorf("no note for Closed's unsatisfiable x; notes:\n%s", notes)
	}
	if n := strings.Count(notes, "which properties do not declare"); n != 1 {
		t.Errorf("%d notes on undeclared required names, want 1:\n%s", n, notes)
	}
}

// A request body's undeclared required name becomes a required argument
// sent in the body (its members are spread into the tool's arguments).
func TestOpenAPIUndeclaredRequiredBody(t *testing.T) {
	const doc = `openapi: 3.0.3
info: {title: t, version: "1"}
paths:
  /b:
    put:
      operationId: put
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              properties:
                flag: {type: boolean}
              required: [flag, "enum (with example) *required"]
      responses: {"200": {description: OK}}
  /o:
    put:
      operationId: optional
      requestBody:
        content:
          application/json:
            schema: {type: object, properties: {flag: {type: boolean}}, additionalProperties: {type: string}, required: [other]}
      responses: {"200": {description: OK}}
`
	api, err := LoadOpenAPI(fstest.MapFS{"api.yaml": {Data: []byte(doc)}}, "api.yaml", OpenAPIConfig{})
	if err != nil {
		t.Fatal(err)
	}
	tool := toolByName(t, api, "put")
	p := prop(t, tool.Input, "enum (with example) *required")
	if !p.Required || !p.Schema.IsAnyValue() {
		t.Errorf("undeclared required body member: required %v, schema %+v; want required, any value", p.Required, p.Schema)
	}
	if p.Pos.Line != 15 {
		t.Errorf("undeclared required body member at %v, want line 15 (the required list)", p.Pos)
	}
	if up := upParam(t, tool, "enum (with example) *required"); up.In != "body" || up.Name != "enum (with example) *required" || !up.RequiredInBody {
		t.Errorf("upstream param %+v, want a required member of the JSON body", up)
	}

	// An optional body: the member is required only when there is a body.
	o := prop(t, toolByName(t, api, "optional").Input, "other")
	if o.Required || o.Schema.Type != KindString {
		t.Errorf("optional body's undeclared required member: required %v, type %q; want optional, string (additionalProperties)", o.Required, o.Schema.Type)
	}
}
