package spec_test

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"gopkg.in/yaml.v3"

	"github.com/mcpgen-dev/mcpgen/spec"
)

// compileConfigSchema compiles the published mcpgen.schema.json.
func compileConfigSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	b, err := os.ReadFile("../mcpgen.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("mcpgen.schema.json is not JSON: %v", err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	const url = "https://github.com/mcpgen-dev/mcpgen/mcpgen.schema.json"
	if err := c.AddResource(url, doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(url)
	if err != nil {
		t.Fatalf("compile mcpgen.schema.json: %v", err)
	}
	return s
}

// yamlToJSON reads YAML as the editor's yaml-language-server does: as the
// JSON value it denotes.
func yamlToJSON(t *testing.T, src []byte) any {
	t.Helper()
	var v any
	if err := yaml.Unmarshal(src, &v); err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// TestConfigSchemaAcceptsValidSpecs checks every mcpgen.yaml under testdata/
// and examples/ that the loader accepts against mcpgen.schema.json, so that
// editors never flag a config mcpgen takes.
func TestConfigSchemaAcceptsValidSpecs(t *testing.T) {
	schema := compileConfigSchema(t)
	checked := 0
	for _, root := range []string{"../testdata", "../examples"} {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || d.Name() != "mcpgen.yaml" {
				return err
			}
			if _, err := spec.Load(os.DirFS(filepath.Dir(path)), "mcpgen.yaml"); err != nil {
				return nil // an invalid spec on purpose (or work in progress elsewhere)
			}
			src, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			if err := schema.Validate(yamlToJSON(t, src)); err != nil {
				t.Errorf("%s: loads, but mcpgen.schema.json rejects it: %v", path, err)
			}
			checked++
			return nil
		})
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
	}
	if checked == 0 {
		t.Fatal("no valid mcpgen.yaml found (the kitchen sink at least must be)")
	}
}

// TestConfigSchemaRejects makes sure the schema is not vacuous: configs
// with the mistakes editors should underline fail validation.
func TestConfigSchemaRejects(t *testing.T) {
	schema := compileConfigSchema(t)
	const server = "server: {name: s, version: 1.0.0}\n"
	tests := []struct{ name, src string }{
		{"missing version", server},
		{"wrong version", "version: 2\n" + server},
		{"unknown top-level key", "version: 1\n" + server + "tool: {}\n"},
		{"server without name", "version: 1\nserver: {version: 1.0.0}\n"},
		{"bad tool name", "version: 1\n" + server + "tools: {\"get order\": {}}\n"},
		{"unknown schema keyword", "version: 1\n" + server + "types: {A: {type: string, maxlength: 3}}\n"},
		{"bad type", "version: 1\n" + server + "types: {A: {type: date}}\n"},
		{"unknown format", "version: 1\n" + server + "types: {A: {type: string, format: ipv4}}\n"},
		{"bad cacheScope", "version: 1\nserver: {name: s, version: 1.0.0, cache: {list: {cacheScope: shared}}}\n"},
		{"negative ttlMs", "version: 1\nserver: {name: s, version: 1.0.0, cache: {list: {ttlMs: -1}}}\n"},
		{"bad completion", "version: 1\n" + server + "prompts: {p: {arguments: {a: {complete: handlers}}}}\n"},
		{"bad header token", "version: 1\n" + server + "tools: {t: {input: {properties: {a: {type: string, x-mcp-header: \"a b\"}}}}}\n"},
		{"resource without uri", "version: 1\n" + server + "resources: {r: {title: x}}\n"},
		{"variable of type array", "version: 1\n" + server + "resourceTemplates: {t: {uriTemplate: \"t://{v}\", variables: {v: {type: array}}}}\n"},
		{"glossary term of four words", "version: 1\n" + server + "surface: {glossary: {a b c d: [letters]}}\n"},
		{"glossary phrases not a list", "version: 1\n" + server + "surface: {glossary: {rma: return authorization}}\n"},
		{"glossary without phrases", "version: 1\n" + server + "surface: {glossary: {rma: []}}\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := schema.Validate(yamlToJSON(t, []byte(tt.src))); err == nil {
				t.Errorf("schema accepts %q", strings.TrimSpace(tt.src))
			}
		})
	}
}

// TestConfigSchemaServerRule checks the schema's rule for server: required
// (with name and version) in a config that describes its own tools, and
// optional beside an openapi section, whose document's info stands in for
// it, as the loader treats them.
func TestConfigSchemaServerRule(t *testing.T) {
	schema := compileConfigSchema(t)
	for _, tc := range []struct {
		name, src string
		valid     bool
	}{
		{"tools without server", "version: 1\ntools: []\n", false},
		{"tools, server without version", "version: 1\nserver: {name: s}\n", false},
		{"tools with server", "version: 1\nserver: {name: s, version: 1.0.0}\n", true},
		{"openapi without server", "version: 1\nopenapi: {file: api.yaml}\n", true},
		{"openapi, server with instructions only", "version: 1\nserver: {instructions: Be brief.}\nopenapi: {file: api.yaml}\n", true},
		{"openapi, server with an unknown key", "version: 1\nserver: {nmae: s}\nopenapi: {file: api.yaml}\n", false},
	} {
		err := schema.Validate(yamlToJSON(t, []byte(tc.src)))
		if (err == nil) != tc.valid {
			t.Errorf("%s: valid = %v, want %v (%v)", tc.name, err == nil, tc.valid, err)
		}
	}
}
