package openapi

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestAnyOfAcceptsSeveralMatches: an OpenAPI anyOf is valid when a value
// matches several variants (OpenAI's model names: any string, or a string
// of an enum), and the tool publishes it as anyOf; a oneOf still refuses a
// value matching none, and an anyOf one matching none.
func TestAnyOfAcceptsSeveralMatches(t *testing.T) {
	needE2E(t)
	t.Parallel()
	bin := buildServer(t, "testdata/anyof-api.yaml")
	var bodies []string
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		bodies = append(bodies, string(b))
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"id":"c1"}`)
	}))
	t.Cleanup(up.Close)
	c := startServer(t, bin, up.URL)
	tools := c.tools()
	if len(tools) != 1 || !strings.Contains(string(tools[0].InputSchema), `"anyOf"`) {
		t.Fatalf("tools/list: want one tool whose input has an anyOf, got %s", mustJSON(tools))
	}
	for _, model := range []string{"gpt-4o", "my-fine-tune"} {
		if r := c.callTool("createCompletion", map[string]any{"model": model}); r.IsError {
			t.Errorf("model %q refused: %s", model, r.text())
		}
	}
	if len(bodies) != 2 || bodies[0] != `{"model":"gpt-4o"}` {
		t.Errorf("upstream got %q", bodies)
	}
	for _, args := range []map[string]any{{"model": 7}, {"model": "x", "stop": true}} {
		if r := c.callTool("createCompletion", args); !r.IsError {
			t.Errorf("%v accepted", args)
		}
	}
	if len(bodies) != 2 {
		t.Errorf("refused calls reached the API: %q", bodies)
	}
}
