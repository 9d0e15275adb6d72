package openapi

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
)

// TestBrokenDefaultsDropped: defaults that their own schema refuses
// (OpenAI's default: [] on a string enum, default: null on objects,
// arrays and unions that are not nullable, a string default on a number,
// a default below the minimum) are neither published nor filled in, so the
// official clients' schema checks (the Go SDK's jsonschema-go, which
// validates defaults, and the TypeScript SDK's Ajv) accept every tool, and
// a call that leaves them out is not refused by the server that filled
// them in. A default that fits is published and filled in.
func TestBrokenDefaultsDropped(t *testing.T) {
	needE2E(t)
	t.Parallel()
	bin := buildServer(t, "testdata/broken-default-api.yaml")
	var mu sync.Mutex
	var bodies []string
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		bodies = append(bodies, string(b))
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"id":"c1"}`)
	}))
	t.Cleanup(up.Close)
	c := startServer(t, bin, up.URL)

	tools := c.tools()
	var exceptions []string
	if ajv, gosdk, _ := checkSchemas(t, tools, &exceptions); ajv+gosdk > 0 {
		t.Errorf("%d schemas fail Ajv, %d the Go SDK: %q", ajv, gosdk, exceptions)
	}
	var in struct {
		Properties map[string]map[string]any `json:"properties"`
	}
	if err := json.Unmarshal(tools[0].InputSchema, &in); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"noise_reduction", "conversation", "tags", "timeout", "n", "stop"} {
		if d, ok := in.Properties[p]["default"]; ok && !(p == "stop" && d == nil) {
			t.Errorf("%s: published default %v", p, d)
		}
	}
	if items, _ := in.Properties["include"]["items"].(map[string]any); items == nil || items["default"] != nil {
		t.Errorf("include: items %v, want no default", in.Properties["include"]["items"])
	}
	if d := in.Properties["temperature"]["default"]; d != 1.0 {
		t.Errorf("temperature: published default %v, want 1", d)
	}

	if r := c.callTool("createCompletion", map[string]any{"model": "m"}); r.IsError {
		t.Fatalf("a call without the defaulted arguments was refused: %s", r.text())
	}
	mu.Lock()
	defer mu.Unlock()
	if want := `{"model":"m","temperature":1}`; len(bodies) != 1 || bodies[0] != want {
		t.Errorf("upstream got %q, want [%q]", bodies, want)
	}
}
