package spec_test

import (
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"
	"time"

	"github.com/mcpgen-dev/mcpgen/spec"
)

// FuzzLoadOpenAPI checks that the OpenAPI loader never panics and finishes
// in bounded time on any document, returning an API or an error.
func FuzzLoadOpenAPI(f *testing.F) {
	for _, pat := range []string{"../testdata/openapi/*.yaml", "../testdata/openapi/*.json", "../examples/orders/openapi.yaml"} {
		files, _ := filepath.Glob(pat)
		for _, file := range files {
			if b, err := os.ReadFile(file); err == nil {
				f.Add(b)
			}
		}
	}
	f.Add([]byte(`{"openapi":"3.1.0","info":{"title":"t","version":"1"},"paths":{"/a/{x}":{"get":{"parameters":[{"name":"x","in":"path","required":true,"schema":{"$ref":"#/components/schemas/A"}}]}}},"components":{"schemas":{"A":{"oneOf":[{"$ref":"#/components/schemas/A"}]}}}}`))
	// Names spelled like keywords: a property "properties" holding a remote
	// $ref, a property "$ref", a schema "example" (scanRefs).
	f.Add([]byte(`{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{"/a":{"post":{"requestBody":{"content":{"application/json":{"schema":{"type":"object","properties":{"properties":{"$ref":"https://example.com/p.json"},"$ref":{"type":"string"},"e":{"$ref":"#/components/schemas/example"}}}}}},"responses":{"200":{"description":"ok"}}}}},"components":{"schemas":{"example":{"type":"string"}}}}`))
	// Required names the properties do not declare (openapi_required.go).
	f.Add([]byte(`{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{"/b":{"put":{"requestBody":{"required":true,"content":{"application/json":{"schema":{"type":"object","properties":{"a":{"$ref":"#/components/schemas/B"}},"required":["a","x y"]}}}},"responses":{"200":{"description":"OK"}}}}},"components":{"schemas":{"B":{"type":"object","properties":{"k":{"type":"string"}},"patternProperties":{"^n_":{"type":"number"},"n":{"type":"integer"}},"additionalProperties":false,"required":["n_1","z"]}}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		const path = "api.yaml"
		start := time.Now()
		api, err := spec.LoadOpenAPI(fstest.MapFS{path: {Data: data}}, path, spec.OpenAPIConfig{})
		if took := time.Since(start); took > 10*time.Second {
			t.Fatalf("LoadOpenAPI took %v", took)
		}
		if (api == nil) == (err == nil) {
			t.Fatalf("LoadOpenAPI = %v, %v: want exactly one of them", api, err)
		}
	})
}
