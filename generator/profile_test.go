package generator

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/mcpgen-dev/mcpgen/spec"
)

// generatedSchemas generates api and returns its schema files by path
// below schemas/, compiled.
func generatedSchemas(t *testing.T, api *spec.API) map[string]*jsonschema.Schema {
	t.Helper()
	files, err := Generate(api, Options{})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*jsonschema.Schema{}
	for _, f := range files {
		i := strings.Index(f.Path, "schemas/")
		if i < 0 {
			continue
		}
		name := f.Path[i+len("schemas/"):]
		v, err := jsonschema.UnmarshalJSON(bytes.NewReader(f.Data))
		if err != nil {
			t.Fatalf("%s: %v", f.Path, err)
		}
		c := jsonschema.NewCompiler()
		c.DefaultDraft(jsonschema.Draft2020)
		url := "mem:///" + name
		if err := c.AddResource(url, v); err != nil {
			t.Fatal(err)
		}
		s, err := c.Compile(url)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out[name] = s
		if bytes.Contains(f.Data, []byte(`"$ref"`)) || bytes.Contains(f.Data, []byte(`"$defs"`)) {
			if len(api.Generate.Profiles) > 0 {
				t.Errorf("%s: still has $ref or $defs under profile %v", name, api.Generate.Profiles)
			}
		}
	}
	return out
}

// TestInlineRefsAcceptsWhatTheExactSchemaAccepts holds the inline-refs
// rewrite to its promise: the listed schema, without $ref, accepts every
// value the exact schema accepts (recursion cut at depth 1 included), so
// a client that validates against it never refuses a valid call. The
// values go deeper than the cut, and some are invalid, so that the test
// could fail.
func TestInlineRefsAcceptsWhatTheExactSchemaAccepts(t *testing.T) {
	exact := loadCase(t, "profile_inline_refs")
	exact.Generate.Profiles = nil
	want := generatedSchemas(t, exact)
	got := generatedSchemas(t, loadCase(t, "profile_inline_refs"))

	tree := func(depth int) string {
		s := `{"name":"leaf"}`
		for i := range depth {
			s = fmt.Sprintf(`{"name":"n%d","children":[%s,{"name":"x"}]}`, i, s)
		}
		return s
	}
	expr := func(depth int) string {
		s := `{"op":"num","value":1}`
		for range depth {
			s = `{"op":"neg","arg":` + s + `}`
		}
		return s
	}
	address := `{"line1":"1 Main St","city":"Springfield","country":"US"}`
	values := map[string][]string{
		"walk_tree.input.schema.json": {
			`{"root":` + tree(0) + `}`, `{"root":` + tree(3) + `}`, `{"root":` + tree(6) + `}`,
			`{"root":{"name":""}}`, `{}`, `{"root":{"name":"a","extra":1}}`,
			`{"root":{"name":"a","children":[{"name":"b","children":[{"name":""}]}]}}`,
		},
		"walk_tree.output.schema.json": {tree(0), tree(4), `{"name":1}`},
		"evaluate.input.schema.json": {
			`{"expr":` + expr(0) + `}`, `{"expr":` + expr(1) + `}`, `{"expr":` + expr(5) + `}`,
			`{"expr":{"op":"neg","arg":{"op":"neg","arg":{"op":"num"}}}}`, `{"expr":{"op":"mul"}}`,
		},
		"save_contact.input.schema.json": {
			`{"contact":{"name":"Ann","billing":` + address + `,"shipping":null}}`,
			`{"contact":{},"previous":{"shipping":` + address + `}}`,
			`{"contact":{"billing":{"country":"USA"}}}`, `{"previous":{}}`,
		},
	}
	accepted, refused := 0, 0
	for file, vs := range values {
		w, g := want[file], got[file]
		if w == nil || g == nil {
			t.Fatalf("%s: not generated", file)
		}
		for _, v := range vs {
			inst, err := jsonschema.UnmarshalJSON(strings.NewReader(v))
			if err != nil {
				t.Fatal(err)
			}
			if w.Validate(inst) != nil {
				refused++
				continue
			}
			accepted++
			if err := g.Validate(inst); err != nil {
				t.Errorf("%s: the exact schema accepts %s, the inline-refs one refuses it: %v", file, v, err)
			}
		}
	}
	if accepted < 10 || refused < 5 {
		t.Fatalf("the values do not exercise both sides: %d accepted, %d refused", accepted, refused)
	}
}

// TestProfileNotes checks that every lossy rewrite is a note naming the
// tool, the pointer and the loss, counted in api.Profiles, and that a
// renamed tool is noted with its listed name.
func TestProfileNotes(t *testing.T) {
	api := loadCase(t, "profile_gemini")
	if _, err := Generate(api, Options{}); err != nil {
		t.Fatal(err)
	}
	if len(api.Profiles.Losses) == 0 || api.Profiles.Renamed != 2 {
		t.Fatalf("report %+v: want losses and 2 renamed tools", api.Profiles)
	}
	var notes []string
	for _, n := range api.Notes {
		notes = append(notes, n.Message)
	}
	all := strings.Join(notes, "\n")
	for _, want := range []string{
		`tool "tickets.find": profile gemini: input schema at /properties/by: oneOf listed as anyOf`,
		`tool "tickets.create_ticket_in_the_support_queue_with_priority": profile gemini: input schema at /properties/ticket/properties/priority/enum: enum [1,2,3]`,
		`tool "tickets.find": profile cursor: listed and called as "tickets_find"`,
	} {
		if !strings.Contains(all, want) {
			t.Errorf("no note %q in:\n%s", want, all)
		}
	}
	for _, l := range api.Profiles.Losses {
		if !strings.Contains(all, l.Message) {
			t.Errorf("loss %q is not a note", l.Message)
		}
	}
	// Generating again adds no note twice.
	n := len(api.Notes)
	if _, err := Generate(api, Options{}); err != nil {
		t.Fatal(err)
	}
	if len(api.Notes) != n {
		t.Errorf("notes grew from %d to %d on a second generation", n, len(api.Notes))
	}
}

// TestProfileNameCollision: two tools that one profile would list under
// the same name are an error at the second tool, not a silent rename.
// The first name is over Cursor's budget and abbreviated into the second.
func TestProfileNameCollision(t *testing.T) {
	api := loadCase(t, "profile_gemini")
	for i, name := range []string{"list_repository_items_for_the_authenticated_user", "list_repo_items_for_the_authenticated_user"} {
		tool := *api.Tools[1]
		tool.Name = name
		tool.Pos.Line = 98 + i
		api.Tools = append(api.Tools, &tool)
	}
	_, err := Generate(api, Options{})
	if err == nil || !strings.Contains(err.Error(), `tool "list_repo_items_for_the_authenticated_user": profile cursor lists it as "list_repo_items_for_the_authenticated_user", the name tool "list_repository_items_for_the_authenticated_user" is listed by`) {
		t.Fatalf("err = %v, want a collision naming both tools", err)
	}
}
