package oaprune

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

const doc30 = `openapi: 3.0.3
info: {title: t, version: "1"}
servers: [{url: http://x}]
security: [{key: []}]
paths:
  /pets/{id}:
    parameters:
      - $ref: '#/components/parameters/Id'
    get:
      operationId: getPet
      responses:
        200:
          $ref: '#/components/responses/Pet'
    delete:
      operationId: deletePet
      responses:
        204: {description: gone}
        default:
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Error'}
  /owners:
    post:
      requestBody:
        content:
          application/json:
            schema: {$ref: '#/components/schemas/Owner/properties/name'}
      responses:
        201: {description: made}
components:
  securitySchemes:
    key: {type: apiKey, in: header, name: X-Key}
  parameters:
    Id: {name: id, in: path, required: true, schema: {type: string}}
  responses:
    Pet:
      description: a pet
      content:
        application/json:
          schema: {$ref: '#/components/schemas/Pet'}
  schemas:
    Pet:
      type: object
      properties:
        owner: {$ref: '#/components/schemas/Owner'}
        kind:
          oneOf: [{$ref: '#/components/schemas/Cat'}, {$ref: '#/components/schemas/Dog'}]
          discriminator: {propertyName: type, mapping: {cat: Cat, dog: '#/components/schemas/Dog'}}
    Owner:
      type: object
      properties:
        name: {type: string}
        pets: {type: array, items: {$ref: '#/components/schemas/Pet'}}
    Cat: {type: object, properties: {type: {type: string}}}
    Dog: {type: object, properties: {type: {type: string}}}
    Error: {type: object}
    Unused: {type: object}
`

func mustDecode(t *testing.T, data []byte) map[string]any {
	t.Helper()
	doc, err := Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

func TestPrune(t *testing.T) {
	doc := mustDecode(t, []byte(doc30))
	cases := []struct {
		ops     []string
		paths   map[string][]string // path → methods kept
		schemas []string
		params  []string
		resps   []string
	}{
		{
			ops:     []string{"getPet"},
			paths:   map[string][]string{"/pets/{id}": {"get", "parameters"}},
			schemas: []string{"Cat", "Dog", "Owner", "Pet"}, // the cycle Pet ↔ Owner, the mapping's bare name
			params:  []string{"Id"},
			resps:   []string{"Pet"},
		},
		{
			ops:     []string{"DELETE /pets/{id}"},
			paths:   map[string][]string{"/pets/{id}": {"delete", "parameters"}},
			schemas: []string{"Error"},
			params:  []string{"Id"},
		},
		{
			// A pointer into a schema keeps the schema whole, and what it reaches.
			ops:     []string{"post /owners", "deletePet"},
			paths:   map[string][]string{"/owners": {"post"}, "/pets/{id}": {"delete", "parameters"}},
			schemas: []string{"Cat", "Dog", "Error", "Owner", "Pet"},
			params:  []string{"Id"},
		},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.ops, ","), func(t *testing.T) {
			out, err := Prune(doc, c.ops)
			if err != nil {
				t.Fatal(err)
			}
			paths := out["paths"].(map[string]any)
			got := map[string][]string{}
			for p, item := range paths {
				got[p] = keys(item)
				for k, v := range item.(map[string]any) {
					if want := doc["paths"].(map[string]any)[p].(map[string]any)[k]; !reflect.DeepEqual(v, want) {
						t.Errorf("%s %s differs from the original", k, p)
					}
				}
			}
			if !reflect.DeepEqual(got, c.paths) {
				t.Errorf("paths %v, want %v", got, c.paths)
			}
			comps := out["components"].(map[string]any)
			for kind, want := range map[string][]string{"schemas": c.schemas, "parameters": c.params, "responses": c.resps} {
				if g := keys(comps[kind]); !slices.Equal(g, want) {
					t.Errorf("%s %v, want %v", kind, g, want)
				}
			}
			if !reflect.DeepEqual(comps["securitySchemes"], doc["components"].(map[string]any)["securitySchemes"]) {
				t.Error("security schemes not kept whole")
			}
			for _, k := range []string{"openapi", "info", "servers", "security"} {
				if !reflect.DeepEqual(out[k], doc[k]) {
					t.Errorf("%s not kept", k)
				}
			}
			checkClosed(t, out)
		})
	}
}

func TestPruneErrors(t *testing.T) {
	doc := mustDecode(t, []byte(doc30))
	if _, err := Prune(doc, []string{"getPet", "nope", "GET /owners"}); err == nil || err.Error() != "no such operation: get /owners, nope" {
		t.Errorf("err = %v", err)
	}
	broken := mustDecode(t, []byte(strings.Replace(doc30, "$ref: '#/components/schemas/Error'", "$ref: '#/components/schemas/Eror'", 1)))
	if _, err := Prune(broken, []string{"deletePet"}); err == nil || !strings.Contains(err.Error(), `"#/components/schemas/Eror" does not resolve`) {
		t.Errorf("err = %v", err)
	}
}

func TestPruneSwagger2(t *testing.T) {
	doc := mustDecode(t, []byte(`{"swagger": "2.0", "info": {"title": "t", "version": "1"}, "basePath": "/v1",
  "securityDefinitions": {"k": {"type": "apiKey", "in": "header", "name": "K"}},
  "paths": {"/a": {"get": {"parameters": [{"$ref": "#/parameters/Q"}], "responses": {"200": {"$ref": "#/responses/A"}}}},
            "/b": {"get": {"responses": {"200": {"description": "b", "schema": {"$ref": "#/definitions/B"}}}}}},
  "parameters": {"Q": {"name": "q", "in": "query", "type": "integer", "maximum": 1e3}},
  "responses": {"A": {"description": "a", "schema": {"$ref": "#/definitions/A~1x"}}},
  "definitions": {"A/x": {"type": "object"}, "B": {"type": "object"}}}`))
	out, err := Prune(doc, []string{"GET /a"})
	if err != nil {
		t.Fatal(err)
	}
	if g := keys(out["definitions"]); !slices.Equal(g, []string{"A/x"}) {
		t.Errorf("definitions %v", g)
	}
	if g := keys(out["parameters"]); !slices.Equal(g, []string{"Q"}) {
		t.Errorf("parameters %v", g)
	}
	if out["basePath"] != "/v1" || out["securityDefinitions"] == nil {
		t.Errorf("top-level fields not kept: %v", keys(out))
	}
	checkClosed(t, out)
}

// TestPruneRealDocuments prunes each large document to a sample of its
// operations and checks that the closure is complete: every local $ref of
// the output resolves in the output.
func TestPruneRealDocuments(t *testing.T) {
	dir := filepath.Join("..", "..", "..", "shared", "openapi")
	docs := []string{"openai/openapi.yaml", "stripe/spec3.yaml", "github/api.github.com-1.1.4.json", "github/api.github.com.json", "argo-workflows/swagger.json"}
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("no documents at %s", dir)
	}
	if testing.Short() {
		t.Skip("-short")
	}
	for _, f := range docs {
		t.Run(f, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join(dir, f))
			if err != nil {
				t.Fatal(err)
			}
			doc := mustDecode(t, data)
			var ops []string
			for p, item := range doc["paths"].(map[string]any) {
				for m := range item.(map[string]any) {
					if isMethod(m) {
						ops = append(ops, m+" "+p)
					}
				}
			}
			slices.Sort(ops)
			// Every 25th operation, and then all of them.
			var some []string
			for i := 0; i < len(ops); i += 25 {
				some = append(some, ops[i])
			}
			for _, sel := range [][]string{some, ops} {
				out, err := Prune(doc, sel)
				if err != nil {
					t.Fatal(err)
				}
				n := 0
				for _, item := range out["paths"].(map[string]any) {
					for m := range item.(map[string]any) {
						if isMethod(m) {
							n++
						}
					}
				}
				if n != len(sel) {
					t.Errorf("%d operations kept, want %d", n, len(sel))
				}
				checkClosed(t, out)
			}
		})
	}
}

// checkClosed fails unless every local $ref and discriminator mapping in
// doc resolves in doc.
func checkClosed(t *testing.T, doc map[string]any) {
	t.Helper()
	var bad []string
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			var refs []string
			if r, ok := v["$ref"].(string); ok {
				refs = append(refs, r)
			}
			if d, ok := v["discriminator"].(map[string]any); ok {
				if m, ok := d["mapping"].(map[string]any); ok {
					for _, x := range m {
						s, _ := x.(string)
						if !strings.Contains(s, "/") {
							s = "#/components/schemas/" + s
						}
						refs = append(refs, s)
					}
				}
			}
			for _, r := range refs {
				if p, ok := strings.CutPrefix(r, "#/"); ok {
					segs := strings.Split(p, "/")
					for i, s := range segs {
						segs[i] = strings.ReplaceAll(strings.ReplaceAll(s, "~1", "/"), "~0", "~")
					}
					if !resolves(doc, segs) {
						bad = append(bad, r)
					}
				}
			}
			for _, x := range v {
				walk(x)
			}
		case []any:
			for _, x := range v {
				walk(x)
			}
		}
	}
	walk(doc)
	if len(bad) > 0 {
		t.Errorf("%d references do not resolve in the pruned document, first %q", len(bad), bad[0])
	}
}

func keys(v any) []string {
	m, _ := v.(map[string]any)
	var k []string
	for x := range m {
		k = append(k, x)
	}
	slices.Sort(k)
	return k
}

// PruneRequests keeps what requests reach (parameters, bodies) and answers
// the first success status with any object, so that nothing the responses
// alone reach is kept; the original document is left as it was.
func TestPruneRequests(t *testing.T) {
	doc := mustDecode(t, []byte(doc30))
	before := mustDecode(t, []byte(doc30))
	out, err := PruneRequests(doc, []string{"getPet", "deletePet", "post /owners"})
	if err != nil {
		t.Fatal(err)
	}
	comps := out["components"].(map[string]any)
	// Owner is reached by the /owners request body (and Pet, Cat, Dog
	// through it); Error and the Pet response only by responses.
	if g := keys(comps["schemas"]); !slices.Equal(g, []string{"Cat", "Dog", "Owner", "Pet"}) {
		t.Errorf("schemas %v", g)
	}
	if g := keys(comps["responses"]); g != nil {
		t.Errorf("responses %v, want none", g)
	}
	paths := out["paths"].(map[string]any)
	for _, c := range []struct{ path, method, status string }{
		{"/pets/{id}", "get", "200"}, {"/pets/{id}", "delete", "204"}, {"/owners", "post", "201"},
	} {
		rs := paths[c.path].(map[string]any)[c.method].(map[string]any)["responses"].(map[string]any)
		if g := keys(rs); !slices.Equal(g, []string{c.status}) {
			t.Errorf("%s %s: responses %v, want [%s]", c.method, c.path, g, c.status)
		}
	}
	if !reflect.DeepEqual(doc, before) {
		t.Error("the original document was changed")
	}
	checkClosed(t, out)

	swagger := mustDecode(t, []byte(`{"swagger": "2.0", "info": {"title": "t", "version": "1"},
  "paths": {"/b": {"get": {"responses": {"200": {"description": "b", "schema": {"$ref": "#/definitions/B"}}}}}},
  "definitions": {"B": {"type": "object"}}}`))
	out, err = PruneRequests(swagger, []string{"GET /b"})
	if err != nil {
		t.Fatal(err)
	}
	r := out["paths"].(map[string]any)["/b"].(map[string]any)["get"].(map[string]any)["responses"].(map[string]any)["200"].(map[string]any)
	if !reflect.DeepEqual(r["schema"], map[string]any{"type": "object"}) || out["definitions"] != nil && len(keys(out["definitions"])) > 0 {
		t.Errorf("2.0 answer %v, definitions %v", r, out["definitions"])
	}
}
