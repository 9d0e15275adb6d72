package runtime

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestProjectedSchemaRequires checks the schema of a selection against
// the reference validator: it requires the selected members the exact
// output schema requires (at every level the selection reaches into,
// through $ref, branches and array items), nothing else, and so rejects a
// result that lacks one of them.
func TestProjectedSchemaRequires(t *testing.T) {
	def := `{"name":"list_pulls","inputSchema":{"type":"object"},"outputSchema":` + fieldsOutput + `}`
	listed, fs, ok := withFieldSelection(def)
	if !ok {
		t.Fatal("no field selection")
	}
	if strings.Contains(listed, "required") {
		t.Fatalf("the listed definition requires members, or shows the server's notes: %s", listed)
	}
	// requiredAt returns the required list of the projected schema at a
	// JSON pointer-ish path of member names.
	requiredAt := func(schema []byte, path ...string) []string {
		var n any
		json.Unmarshal(schema, &n)
		for _, p := range path {
			switch v := n.(type) {
			case map[string]any:
				n = v[p]
			case []any:
				i, _ := strconv.Atoi(p)
				n = v[i]
			}
		}
		var out []string
		if l, ok := n.(map[string]any)["required"].([]any); ok {
			for _, v := range l {
				out = append(out, v.(string))
			}
		}
		return out
	}
	tests := []struct {
		fields  []string
		checks  map[string][]string // path (members joined by /) -> required
		valid   string
		invalid string // a result lacking a required selected member
	}{
		{fields: []string{"items.number", "items.title", "items.user.login"},
			checks: map[string][]string{"": {"items"}, "properties/items/items": {"number", "title", "user"},
				"properties/items/items/properties/user": {"login"}},
			valid:   `{"items":[{"number":1,"title":"t","user":{"login":"o"}},{"number":2,"title":"u","user":null}]}`,
			invalid: `{"items":[{"number":1,"user":{"login":"o"}}]}`},
		{fields: []string{"total", "items.labels.color"},
			checks:  map[string][]string{"": {"total", "items"}, "properties/items/items": nil, "properties/items/items/properties/labels/items": {"color"}},
			valid:   `{"total":1,"items":[{"labels":[{"color":"f00"}]},{}]}`,
			invalid: `{"items":[]}`},
		{fields: []string{"extra.kind", "extra.x"},
			checks:  map[string][]string{"": nil, "properties/extra/allOf/0": {"x"}, "properties/extra/anyOf/0": {"kind"}, "properties/extra/anyOf/1": {"kind"}},
			valid:   `{"extra":{"kind":"b","x":3}}`,
			invalid: `{"extra":{"x":3}}`},
		{fields: []string{"items"}, // selected whole: described as listed
			checks: map[string][]string{"": {"items"}, "properties/items/items": nil},
			valid:  `{"items":[{}]}`, invalid: `{}`},
	}
	for _, tc := range tests {
		schema := fs.projectedSchema(newFieldSel(tc.fields))
		if strings.Contains(string(schema), `\u0000`) {
			t.Errorf("%q: the projected schema shows the server's notes: %s", tc.fields, schema)
		}
		for path, want := range tc.checks {
			var segs []string
			if path != "" {
				segs = strings.Split(path, "/")
			}
			if got := requiredAt(schema, segs...); !slices.Equal(got, want) {
				t.Errorf("%q: required at %q = %q, want %q\n%s", tc.fields, path, got, want, schema)
			}
		}
		compiled := compileSchema(t, schema)
		if err := validates(t, compiled, []byte(tc.valid)); err != nil {
			t.Errorf("%q: %s does not validate: %v", tc.fields, tc.valid, err)
		}
		if err := validates(t, compiled, []byte(tc.invalid)); err == nil {
			t.Errorf("%q: %s lacks a required selected member, yet validates against\n%s", tc.fields, tc.invalid, schema)
		}
	}

	// The whole result, projected, validates against each selection's schema.
	for _, fields := range [][]string{{"items.number", "items.title", "items.user.login"}, {"total", "extra.kind"}, {"items.labels.name", "extra.y"}} {
		sel := newFieldSel(fields)
		out, err := projectJSON(nil, []byte(fieldsResult), sel)
		if err != nil {
			t.Fatal(err)
		}
		if err := validates(t, compileSchema(t, fs.projectedSchema(sel)), out); err != nil {
			t.Errorf("%q: %s does not validate against its schema: %v", fields, out, err)
		}
	}
}

// TestProjectedSchemaOfTolerantOutput: an output schema that requires
// nothing (the tolerant schema of a wrapped operation) projects to one
// that requires nothing either.
func TestProjectedSchemaOfTolerantOutput(t *testing.T) {
	root, err := parseJNode([]byte(fieldsOutput))
	if err != nil {
		t.Fatal(err)
	}
	relaxSchema(root, false) // what the generator lists for a wrapped operation
	def := `{"name":"get","inputSchema":{"type":"object"},"outputSchema":` + string(root.appendJSON(nil)) + `}`
	_, fs, ok := withFieldSelection(def)
	if !ok {
		t.Fatal("no field selection")
	}
	if schema := fs.projectedSchema(newFieldSel([]string{"total", "items.number", "extra.kind"})); strings.Contains(string(schema), "required") {
		t.Errorf("the projection of a tolerant schema requires members: %s", schema)
	}
}
