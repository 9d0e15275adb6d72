package spec_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"
	"time"

	"golang.org/x/tools/txtar"

	"github.com/mcpgen-dev/mcpgen/spec"
)

// FuzzLoad checks that Load never panics, finishes in bounded time (the
// limit is loose because fuzz workers share two cores with the GC), and either
// returns an API or positioned, sorted diagnostics for the given file.
func FuzzLoad(f *testing.F) {
	for _, seed := range []string{"kitchen_sink", "local_refs", "dynamic_refs"} {
		b, err := os.ReadFile("../testdata/generate/" + seed + "/mcpgen.yaml")
		if err != nil {
			continue
		}
		f.Add(b)
	}
	files, _ := filepath.Glob("../testdata/diag/*.txtar")
	for _, file := range files {
		ar, err := txtar.ParseFile(file)
		if err != nil {
			continue
		}
		for _, af := range ar.Files {
			if af.Name == "mcpgen.yaml" {
				f.Add(af.Data)
			}
		}
	}
	f.Add([]byte("version: 1\nserver: {name: s, version: 1.0.0}\ntypes:\n  A: {$ref: A}\n  B: {oneOf: [{$ref: B}], default: 1}\n"))
	f.Add([]byte("a: &a [*a, *a]\n"))
	// Members spelled like keywords, reached by pointers and holding a
	// $dynamicRef under a constraint (hoisted names, constraintAbove).
	f.Add([]byte("version: 1\nserver: {name: s, version: 1.0.0}\ntypes:\n  T:\n    type: object\n    properties:\n      items: {type: string}\n      allOf: {type: object, properties: {x: {type: string}}}\n      properties: {type: string, not: {$dynamicRef: \"#n\"}}\n      a: {$ref: \"#/properties/items\"}\n      b: {$ref: \"#/properties/allOf/properties/x\"}\n    $defs: {n: {$dynamicAnchor: n, type: string}, items: {type: integer}}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		const path = "dir/mcpgen.yaml"
		start := time.Now()
		api, err := spec.Load(fstest.MapFS{path: {Data: data}}, path)
		if d := time.Since(start); d > 10*time.Second {
			t.Errorf("Load took %v", d)
		}
		if err == nil {
			if api == nil {
				t.Fatal("nil API without error")
			}
			return
		}
		var ds spec.Diagnostics
		if !errors.As(err, &ds) || len(ds) == 0 {
			t.Fatalf("error %v is not a non-empty spec.Diagnostics", err)
		}
		for i, d := range ds {
			if d.Pos.File != path || d.Pos.Line < 1 || d.Message == "" {
				t.Errorf("diagnostic %d without position or message: %+v", i, d)
			}
			if i > 0 {
				p, q := ds[i-1].Pos, d.Pos
				if p.Line > q.Line || (p.Line == q.Line && p.Col > q.Col) {
					t.Errorf("diagnostics not sorted: %v before %v", p, q)
				}
			}
		}
	})
}
