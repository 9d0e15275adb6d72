package spec

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"gopkg.in/yaml.v3"
)

// realDocs is where the team keeps the real OpenAPI documents mcpgen must
// handle (see its MANIFEST.md), relative to this package.
const realDocs = "../../shared/openapi"

var defaultBudgetNameRE = regexp.MustCompile(`^[A-Za-z0-9_.-]{1,64}$`)

// TestLoadRealOpenAPIDocuments loads every OpenAPI/Swagger document we were
// given and checks what a user of the generated server relies on: it loads,
// every operation is a tool, and every tool name is one clients accept.
func TestLoadRealOpenAPIDocuments(t *testing.T) {
	if _, err := os.Stat(realDocs); err != nil {
		t.Skipf("no real OpenAPI documents at %s (shared/ is absent in this checkout): %v", realDocs, err)
	}
	var files []string
	err := filepath.WalkDir(realDocs, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		switch strings.ToLower(filepath.Ext(p)) {
		case ".json", ".yaml", ".yml":
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatalf("no documents under %s", realDocs)
	}
	fsys := os.DirFS(realDocs)
	for _, f := range files {
		rel, _ := filepath.Rel(realDocs, f)
		rel = filepath.ToSlash(rel)
		t.Run(rel, func(t *testing.T) {
			info, _ := os.Stat(f)
			if testing.Short() && info.Size() > 5<<20 {
				t.Skip("-short: documents over 5 MB are skipped")
			}
			start := time.Now()
			api, err := LoadOpenAPI(fsys, rel, OpenAPIConfig{})
			elapsed := time.Since(start)
			if err != nil {
				t.Fatalf("load: %v", err)
			}
			t.Logf("%s: %d tools, %d types, %d notes in %v", rel, len(api.Tools), len(api.Types), len(api.Notes), elapsed.Round(time.Millisecond))
			if want := countOperations(t, f); len(api.Tools) != want {
				t.Errorf("%d tools, want one per operation: %d", len(api.Tools), want)
			}
			seen := map[string]bool{}
			for _, tool := range api.Tools {
				if !defaultBudgetNameRE.MatchString(tool.Name) {
					t.Errorf("tool name %q (%s %s) is not 1-64 chars of [A-Za-z0-9_.-]", tool.Name, tool.Upstream.Method, tool.Upstream.Path)
				}
				if seen[tool.Name] {
					t.Errorf("tool name %q twice", tool.Name)
				}
				seen[tool.Name] = true
				if tool.Input == nil || tool.Input.Type != KindObject {
					t.Errorf("%s: input is not an object schema", tool.Name)
				}
				props := map[string]bool{}
				for _, p := range tool.Input.Properties {
					if props[p.Name] {
						t.Errorf("%s: input property %q twice", tool.Name, p.Name)
					}
					props[p.Name] = true
				}
				if len(tool.Upstream.Params) != len(tool.Input.Properties) {
					t.Errorf("%s: %d upstream params for %d input properties", tool.Name, len(tool.Upstream.Params), len(tool.Input.Properties))
				}
			}
			for _, nt := range api.Types {
				if nt.Schema == nil {
					t.Errorf("type %s has no schema", nt.Name)
				}
			}
		})
	}
}

var opKeyRE = regexp.MustCompile(`^(get|put|post|delete|options|head|patch|trace)$`)

// countOperations counts the operations of a document independently of the
// loader: the method keys under each path item of paths.
func countOperations(t *testing.T, file string) int {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := yamlOrJSON(data, &doc); err != nil {
		t.Fatal(err)
	}
	paths, _ := doc["paths"].(map[string]any)
	n := 0
	for _, item := range paths {
		m, _ := item.(map[string]any)
		if ref, ok := m["$ref"].(string); ok && strings.HasPrefix(ref, "#/") {
			// A path item $ref within the document.
			var target any = doc
			for _, seg := range strings.Split(ref[2:], "/") {
				seg = strings.ReplaceAll(strings.ReplaceAll(seg, "~1", "/"), "~0", "~")
				tm, _ := target.(map[string]any)
				target = tm[seg]
			}
			m, _ = target.(map[string]any)
		}
		for k := range m {
			if opKeyRE.MatchString(k) {
				n++
			}
		}
	}
	return n
}

// yamlOrJSON decodes a document with encoding/json when it is JSON (much
// faster on the 13 MB ones) and yaml.v3 otherwise.
func yamlOrJSON(data []byte, v *map[string]any) error {
	if t := strings.TrimSpace(string(data[:min(len(data), 64)])); strings.HasPrefix(t, "{") {
		return json.Unmarshal(data, v)
	}
	return yaml.Unmarshal(data, v)
}
