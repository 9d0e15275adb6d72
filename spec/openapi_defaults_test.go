package spec

import (
	"strings"
	"testing"
	"testing/fstest"
)

// brokenDefaultsDoc has one body property per case: a default its schema
// refuses (the note names the problem, at the default) or one it accepts.
const brokenDefaultsDoc = `openapi: 3.1.0
info: {title: t, version: "1"}
paths:
  /d:
    post:
      operationId: defaults
      requestBody:
        content:
          application/json:
            schema:
              type: object
              properties:
                wrong_type: {type: string, default: 5}
                string_on_number: {type: number, default: "3000000000.0"}
                fraction_on_integer: {type: integer, default: 1.5}
                not_in_enum: {type: string, enum: [logprobs], default: []}
                not_const: {type: string, const: a, default: b}
                below_minimum: {type: integer, minimum: 1, default: 0}
                at_exclusive_maximum: {type: number, exclusiveMaximum: 5, default: 5}
                not_multiple: {type: integer, multipleOf: 5, default: 7}
                too_long: {type: string, maxLength: 2, default: abc}
                no_pattern: {type: string, pattern: "^a+$", default: b}
                bad_format: {type: string, format: date, default: "2026-13-01"}
                bad_duration: {type: string, format: duration, default: "TBD"}
                bad_json_pointer: {type: string, format: json-pointer, default: "#/foo"}
                bad_ipv4: {type: string, format: ipv4, default: "10.0.0.256"}
                bad_byte: {type: string, format: byte, default: "not base64!"}
                null_object: {type: object, properties: {a: {type: string}}, default: null}
                null_array: {type: array, items: {type: string}, default: null}
                union_none: {oneOf: [{type: string}, {type: object}], default: null}
                union_two: {oneOf: [{type: number}, {type: integer}], default: 1}
                nested_item: {type: array, items: {type: integer}, default: [1, "two"]}
                nested_required: {type: object, required: [a], properties: {a: {type: string}}, default: {}}
                nested_closed: {type: object, additionalProperties: false, properties: {a: {type: string}}, default: {b: 1}}
                too_few_items: {type: array, items: {type: string}, minItems: 1, default: []}
                ref_site: {$ref: "#/components/schemas/Status", default: PENDING}
                ref_type: {$ref: "#/components/schemas/BadStatus"}
                ok_string: {type: string, minLength: 1, pattern: "^a+$", default: aa}
                ok_integral_float: {type: integer, minimum: 1, default: 1.0}
                ok_enum_number: {type: number, enum: [1, 2.5], default: 1.0}
                ok_nullable: {type: [object, "null"], properties: {a: {type: string}}, default: null}
                ok_nullable_30: {type: object, nullable: true, default: null}
                ok_any_of_both: {anyOf: [{type: number}, {type: integer}], default: 1}
                ok_null_variant: {oneOf: [{type: string}, {type: integer}, {type: "null"}], default: null}
                ok_stop: {oneOf: [{type: [string, "null"], default: x}, {type: array, items: {type: string}}, {type: "null"}], default: null}
                ok_object: {type: object, required: [a], properties: {a: {type: string, enum: [x]}}, default: {a: x, extra: 1}}
                ok_array: {type: array, items: {type: integer, minimum: 0}, uniqueItems: true, default: [0, 1]}
                ok_ref_site: {$ref: "#/components/schemas/Status", default: OPEN}
                ok_date: {type: string, format: date, default: "2026-12-02"}
                ok_duration: {type: string, format: duration, default: "P1DT12H"}
                ok_json_pointer: {type: string, format: json-pointer, default: "/foo/a~1b"}
                ok_unknown_format: {type: string, format: color, default: "teal"}
                ok_folded_nullable: {oneOf: [{type: string, enum: [auto, none]}, {type: "null"}], default: auto}
                folded_nullable_wrong: {oneOf: [{type: integer}, {type: "null"}], default: "ten"}
      responses: {"204": {description: done}}
components:
  schemas:
    Status: {type: string, enum: [OPEN, CLOSED]}
    BadStatus: {type: string, enum: [OPEN, CLOSED], default: PENDING}
`

func TestOpenAPIBrokenDefaultsDropped(t *testing.T) {
	api, err := LoadOpenAPI(fstest.MapFS{"api.yaml": {Data: []byte(brokenDefaultsDoc)}}, "api.yaml", OpenAPIConfig{})
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(brokenDefaultsDoc, "\n")
	lineOf := func(marker string) int {
		for i, l := range lines {
			if strings.Contains(l, marker) {
				return i + 1
			}
		}
		t.Fatalf("no line with %q", marker)
		return 0
	}
	notes := map[int]string{}
	for _, n := range api.Notes {
		if strings.Contains(n.Message, "the default is dropped") {
			if n.Pos.File != "api.yaml" || n.Pos.Col == 0 {
				t.Errorf("note without a position: %v", n)
			}
			notes[n.Pos.Line] += n.Message
		}
	}
	in := toolByName(t, api, "defaults").Input
	for _, tc := range []struct {
		prop string
		want string // the problem the note names; "" when the default stays
	}{
		{"wrong_type", `default 5 is not of type "string"`},
		{"string_on_number", `default "3000000000.0" is not of type "number"`},
		{"fraction_on_integer", `default 1.5 is not of type "integer"`},
		{"not_in_enum", `default [] is not one of the enum values`},
		{"not_const", `default "b" does not equal const "a"`},
		{"below_minimum", `default 0 is less than minimum 1`},
		{"at_exclusive_maximum", `default 5 is not less than exclusiveMaximum 5`},
		{"not_multiple", `default 7 is not a multiple of 5`},
		{"too_long", `default "abc" is longer than maxLength 2`},
		{"no_pattern", `default "b" does not match pattern "^a+$"`},
		{"bad_format", `default "2026-13-01" is not a valid date`},
		// Formats the validators leave as annotations but whose grammar is
		// exact: a vendor's default is held to them, since the server would
		// send it in the caller's name.
		{"bad_duration", `default "TBD" is not a valid duration`},
		{"bad_json_pointer", `default "#/foo" is not a valid json-pointer`},
		{"bad_ipv4", `default "10.0.0.256" is not a valid ipv4`},
		{"bad_byte", `default "not base64!" is not a valid byte`},
		{"null_object", `default null is not of type "object"`},
		{"null_array", `default null is not of type "array"`},
		{"union_none", `default null matches no oneOf variant`},
		{"union_two", `default 1 matches more than one oneOf variant`},
		{"nested_item", `default [1,"two"]: at /1: is not of type "integer"`},
		{"nested_required", `default {} lacks required property "a"`},
		{"nested_closed", `default {"b":1} has property "b", which is not allowed`},
		{"too_few_items", `default [] has fewer items than minItems 1`},
		{"ref_site", `default "PENDING" is not one of the enum values`},
		{"ok_string", ""},
		{"ok_integral_float", ""},
		{"ok_enum_number", ""},
		{"ok_nullable", ""},
		{"ok_nullable_30", ""},
		{"ok_any_of_both", ""},
		{"ok_null_variant", ""},
		{"ok_stop", ""},
		{"ok_object", ""},
		{"ok_array", ""},
		{"ok_ref_site", ""},
		{"ok_date", ""},
		{"ok_duration", ""},
		{"ok_json_pointer", ""},
		{"ok_unknown_format", ""},
		// oneOf/anyOf [X, null] is folded into a nullable X: the default
		// written beside the union stays, and is checked against X.
		{"ok_folded_nullable", ""},
		{"folded_nullable_wrong", `default "ten" is not of type "integer"`},
	} {
		s := prop(t, in, tc.prop).Schema
		note := notes[lineOf(" "+tc.prop+": ")]
		if tc.want == "" {
			if s.Default == nil {
				t.Errorf("%s: the default was dropped (%s)", tc.prop, note)
			}
			if note != "" {
				t.Errorf("%s: unexpected note %q", tc.prop, note)
			}
			continue
		}
		if s.Default != nil {
			t.Errorf("%s: default %s kept", tc.prop, s.Default)
		}
		if !strings.Contains(note, tc.want) {
			t.Errorf("%s: note %q, want one naming %q", tc.prop, note, tc.want)
		}
	}
	// The stop-like union keeps its variant's own default, which fits.
	if v := prop(t, in, "ok_stop").Schema.OneOf[0]; v.Default == nil {
		t.Error("ok_stop: the variant's default was dropped")
	}
	// A named type's own default is dropped from the type, where it is
	// written.
	for _, nt := range api.Types {
		if nt.Name == "BadStatus" && nt.Schema.Default != nil {
			t.Errorf("BadStatus: default %s kept", nt.Schema.Default)
		}
	}
	if note := notes[lineOf("BadStatus: {")]; !strings.Contains(note, `default "PENDING" is not one of the enum values`) {
		t.Errorf("BadStatus: note %q", note)
	}
}

// A Swagger 2.0 parameter's default is checked as a 3.x schema's is.
func TestOpenAPI2BrokenParameterDefaultDropped(t *testing.T) {
	const doc = `swagger: "2.0"
info: {title: t, version: "1"}
paths:
  /p:
    get:
      operationId: list
      parameters:
        - {in: query, name: limit, type: integer, minimum: 1, default: 0}
        - {in: query, name: page, type: integer, minimum: 1, default: 1}
      responses: {"200": {description: OK}}
`
	api, err := LoadOpenAPI(fstest.MapFS{"api.yaml": {Data: []byte(doc)}}, "api.yaml", OpenAPIConfig{})
	if err != nil {
		t.Fatal(err)
	}
	in := toolByName(t, api, "list").Input
	if d := prop(t, in, "limit").Schema.Default; d != nil {
		t.Errorf("limit: default %s kept", d)
	}
	if d := prop(t, in, "page").Schema.Default; string(d) != "1" {
		t.Errorf("page: default %s, want 1", d)
	}
	found := false
	for _, n := range api.Notes {
		if n.Pos.Line == 8 && strings.Contains(n.Message, "default 0 is less than minimum 1; the default is dropped") {
			found = true
		}
	}
	if !found {
		t.Errorf("no note at line 8 for limit's default; notes: %v", api.Notes)
	}
}
