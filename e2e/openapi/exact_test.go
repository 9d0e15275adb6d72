package openapi

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// exactSchemas are the exact input schemas of the tools whose published
// inputSchema went over the schema budget. The published one is
// shallower (deeper named types become {}), but the server validates
// arguments against the exact one, so a sample made from the published
// schema can be rightly refused (Argo's metadata.creationTimestamp: "x").
type exactSchemas map[string]json.RawMessage

// input is the schema to sample tl's arguments from.
func (e exactSchemas) input(tl tool) json.RawMessage {
	if s, ok := e[tl.Name]; ok {
		return s
	}
	return tl.InputSchema
}

// cutMark is what the generator writes in the description of a type it
// left out of a schema over the budget (generator/schema/size.go).
const cutMark = "left out to keep this tool's schema under"

// exactInputSchemas generates doc a second time in mod (the module
// buildServer made) with the schema budget off (openapi.maxSchemaBytes:
// -1), without building it, and reads the exact input schema of every tool
// whose published one was cut. Documents with no cut schema are not
// generated again.
func exactInputSchemas(t *testing.T, mod, doc string, tools []tool) exactSchemas {
	t.Helper()
	var cut []string
	for _, tl := range tools {
		if strings.Contains(string(tl.InputSchema), cutMark) {
			cut = append(cut, tl.Name)
		}
	}
	if len(cut) == 0 {
		return nil
	}
	dir := filepath.Join(mod, "exact")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	cfg := "version: 1\ngenerate: {package: exactschemas, dir: gen}\nopenapi:\n  file: ../" + filepath.Base(doc) + "\n  maxSchemaBytes: -1\n"
	if err := os.WriteFile(filepath.Join(dir, "mcpgen.yaml"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	run(t, mod, goEnv(t), mcpgenBinary(t), "generate", "-q", "-f", filepath.Join("exact", "mcpgen.yaml"))
	exact := exactSchemas{}
	for _, name := range cut {
		data, err := os.ReadFile(filepath.Join(dir, "gen", "schemas", name+".input.schema.json"))
		if err != nil {
			t.Fatalf("exact input schema of %s: %v", name, err)
		}
		if strings.Contains(string(data), cutMark) {
			t.Fatalf("%s: the schema generated with maxSchemaBytes: -1 is still cut", name)
		}
		exact[name] = data
	}
	t.Logf("%d tools sampled from their exact input schema (published over the schema budget): %s", len(cut), strings.Join(cut, ", "))
	return exact
}
