package oaprune

import (
	"slices"
	"testing"
)

// TestPruneKeepsBasePathOfQueryPath: an operation whose path carries a
// query string (OpenAI's "/responses?beta=true") is routed by a mock to
// its base path, so the base path's operation of the same method is kept
// with it (and its other methods are not); a base-path operation alone
// keeps no query path.
func TestPruneKeepsBasePathOfQueryPath(t *testing.T) {
	doc := mustDecode(t, []byte(`openapi: 3.1.0
info: {title: t, version: "1"}
paths:
  /responses:
    post:
      operationId: createResponse
      requestBody: {content: {application/json: {schema: {$ref: '#/components/schemas/Req'}}}}
      responses: {200: {description: ok}}
    get:
      operationId: listResponses
      responses: {200: {description: ok}}
  /responses?beta=true:
    post:
      operationId: beta_createResponse
      requestBody: {content: {application/json: {schema: {$ref: '#/components/schemas/Beta'}}}}
      responses: {200: {description: ok}}
components:
  schemas:
    Req: {type: object}
    Beta: {type: object}
`))
	cases := []struct {
		ops     []string
		paths   map[string][]string
		schemas []string
	}{
		{[]string{"beta_createResponse"}, map[string][]string{"/responses?beta=true": {"post"}, "/responses": {"post"}}, []string{"Beta", "Req"}},
		{[]string{"post /responses?beta=true"}, map[string][]string{"/responses?beta=true": {"post"}, "/responses": {"post"}}, []string{"Beta", "Req"}},
		{[]string{"createResponse"}, map[string][]string{"/responses": {"post"}}, []string{"Req"}},
	}
	for _, c := range cases {
		out, err := Prune(doc, c.ops)
		if err != nil {
			t.Fatal(err)
		}
		got := map[string][]string{}
		for p, item := range out["paths"].(map[string]any) {
			got[p] = keys(item)
		}
		if len(got) != len(c.paths) {
			t.Errorf("%v: paths %v, want %v", c.ops, got, c.paths)
		}
		for p, m := range c.paths {
			if !slices.Equal(got[p], m) {
				t.Errorf("%v: %s keeps %v, want %v", c.ops, p, got[p], m)
			}
		}
		if g := keys(out["components"].(map[string]any)["schemas"]); !slices.Equal(g, c.schemas) {
			t.Errorf("%v: schemas %v, want %v", c.ops, g, c.schemas)
		}
		checkClosed(t, out)
	}
}
