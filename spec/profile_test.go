package spec

import (
	"reflect"
	"strings"
	"testing"
	"testing/fstest"
)

func TestParseProfile(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Profile
		err  string
	}{
		{in: "inline-refs", want: Profile{Name: ProfileInlineRefs, Arg: DefaultInlineDepth}},
		{in: "inline-refs:0", want: Profile{Name: ProfileInlineRefs, Arg: 0}},
		{in: "inline-refs:5", want: Profile{Name: ProfileInlineRefs, Arg: 5}},
		{in: "gemini", want: Profile{Name: ProfileGemini}},
		{in: "cursor", want: Profile{Name: ProfileCursor}},
		{in: "name-length:64", want: Profile{Name: ProfileNameLength, Arg: 64}},
		{in: "name-length", err: "needs a length"},
		{in: "name-length:15", err: "between 16 and 128"},
		{in: "name-length:x", err: `"x" is not a non-negative number`},
		{in: "inline-refs:-1", err: "not a non-negative number"},
		{in: "gemini:2", err: "takes no argument"},
		{in: "openai-strict", err: `unknown profile "openai-strict" (known: inline-refs, gemini, name-length, cursor)`},
	} {
		got, err := ParseProfile(c.in)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: err = %v, want %q", c.in, err, c.err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("%s: %+v, %v; want %+v", c.in, got, err, c.want)
		}
	}
}

func TestListedToolName(t *testing.T) {
	for _, c := range []struct {
		in     string
		budget int
		want   string
	}{
		{"get_order", 64, "get_order"},
		{"orders.get", 64, "orders_get"},
		{"repos/get-content", 64, "repos_get-content"},
		{"list_repository_items_for_the_authenticated_user", 45, "list_repo_items_for_the_authenticated_user"},
	} {
		if got := ListedToolName(c.in, c.budget); got != c.want {
			t.Errorf("ListedToolName(%q, %d) = %q, want %q", c.in, c.budget, got, c.want)
		}
	}
	// Over the budget even abbreviated: cut, with a hash of the full name.
	a := ListedToolName("create_a_very_long_operation_name_for_the_first_thing", 24)
	b := ListedToolName("create_a_very_long_operation_name_for_the_other_thing", 24)
	if len(a) != 24 || len(b) != 24 || a == b || a[:15] != b[:15] {
		t.Errorf("%q and %q: want 24 characters, a shared prefix and different hashes", a, b)
	}
}

// TestProfileConfig: generate.profile is read from mcpgen.yaml and from an
// OpenAPI wrapper config, positioned; errors name the entry.
func TestProfileConfig(t *testing.T) {
	doc := `{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{"/a":{"get":{"operationId":"getA","responses":{"200":{"description":"ok"}}}}}}`
	fsys := fstest.MapFS{
		"api.json":     {Data: []byte(doc)},
		"wrap.yaml":    {Data: []byte("version: 1\ngenerate: {package: w, profile: [gemini, name-length:40]}\nopenapi: {file: api.json}\n")},
		"spec.yaml":    {Data: []byte("version: 1\ngenerate:\n  package: s\n  profile: [inline-refs:3]\nserver: {name: s, version: 0.1.0}\ntools: {ping: {}}\n")},
		"bad.yaml":     {Data: []byte("version: 1\ngenerate:\n  package: s\n  profile: [inline-refs, fast]\nserver: {name: s, version: 0.1.0}\ntools: {ping: {}}\n")},
		"badwrap.yaml": {Data: []byte("version: 1\ngenerate: {package: w, profile: [name-length]}\nopenapi: {file: api.json}\n")},
	}
	api, err := Load(fsys, "wrap.yaml")
	if err != nil {
		t.Fatal(err)
	}
	want := []Profile{{Name: ProfileGemini, Pos: Pos{"wrap.yaml", 2, 34}}, {Name: ProfileNameLength, Arg: 40, Pos: Pos{"wrap.yaml", 2, 42}}}
	if !reflect.DeepEqual(api.Generate.Profiles, want) {
		t.Errorf("wrapper config: %+v, want %+v", api.Generate.Profiles, want)
	}
	api, err = Load(fsys, "spec.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if want := []Profile{{Name: ProfileInlineRefs, Arg: 3, Pos: Pos{"spec.yaml", 4, 13}}}; !reflect.DeepEqual(api.Generate.Profiles, want) {
		t.Errorf("mcpgen.yaml: %+v, want %+v", api.Generate.Profiles, want)
	}
	for file, msg := range map[string]string{
		"bad.yaml":     `bad.yaml:4:26: generate: unknown profile "fast"`,
		"badwrap.yaml": `badwrap.yaml:2:34: generate: profile "name-length": name-length needs a length`,
	} {
		if _, err := Load(fsys, file); err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("%s: err = %v, want %q", file, err, msg)
		}
	}
}
