package oatest

import "testing"

// deprecatedDefault is GitHub's search_code, cut down: a deprecated query
// parameter with a default (order), and a live one (per_page).
const deprecatedDefault = `{
  "openapi": "3.0.3",
  "info": {"title": "search", "version": "1"},
  "servers": [{"url": "https://example.com"}],
  "paths": {
    "/search/code": {
      "get": {
        "operationId": "search_code",
        "parameters": [
          {"name": "q", "in": "query", "required": true, "schema": {"type": "string"}},
          {"name": "order", "in": "query", "deprecated": true,
           "schema": {"type": "string", "enum": ["desc", "asc"], "default": "desc"}},
          {"name": "per_page", "in": "query", "schema": {"type": "integer", "default": 30}}
        ],
        "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {"type": "object"}}}}}
      }
    }
  }
}`

// TestDeprecatedDefaultNotSent generates the document and calls the
// operation through the generated client: the default of the deprecated
// parameter is sent only when the caller gives the parameter, while the
// tool still publishes it as the default.
func TestDeprecatedDefaultNotSent(t *testing.T) {
	files := generateInline(t, deprecatedDefault)
	dir := writeModule(t, files, map[string]string{"deprecated_test.go": deprecatedDefaultTest})
	runGo(t, dir, "vet", "./...")
	runGo(t, dir, "test", "-count=1", "./...")
}

const deprecatedDefaultTest = `package mcpserver

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
)

func TestDeprecatedDefault(t *testing.T) {
	var got string
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = r.URL.RawQuery
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte("{}"))
	}))
	defer api.Close()
	c := NewUpstreamClient(api.URL)
	for args, want := range map[string]string{
		` + "`" + `{"q": "x"}` + "`" + `:                  "q=x&per_page=30",
		` + "`" + `{"q": "x", "order": "desc"}` + "`" + `: "q=x&order=desc&per_page=30",
		` + "`" + `{"q": "x", "order": "asc"}` + "`" + `:  "q=x&order=asc&per_page=30",
	} {
		var in SearchCodeInput
		if err := in.UnmarshalJSON([]byte(args)); err != nil {
			t.Fatalf("%s: %v", args, err)
		}
		if _, err := c.SearchCode(context.Background(), in); err != nil {
			t.Fatalf("%s: %v", args, err)
		}
		if got != want {
			t.Errorf("%s: the API got %q, want %q", args, got, want)
		}
	}
	// The published schema still documents what the API assumes.
	schema, err := os.ReadFile("schemas/search_code.input.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(schema), ` + "`" + `"default": "desc"` + "`" + `) {
		t.Errorf("search_code's input schema lost the default:\n%s", schema)
	}
}
`
