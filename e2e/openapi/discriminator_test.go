package openapi

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// TestDiscriminatorByConst: a union discriminated without a mapping, whose
// variants fix their tag with an enum or a const (OpenAI's chat messages,
// by role), accepts the values the variants declare and sends them on; a
// variant's type name, which its own schema refuses, no longer selects it.
func TestDiscriminatorByConst(t *testing.T) {
	needE2E(t)
	t.Parallel()
	bin := buildServer(t, "testdata/discriminator-const-api.yaml")
	var bodies []string
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		bodies = append(bodies, string(b))
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"id":"c1"}`)
	}))
	t.Cleanup(up.Close)
	c := startServer(t, bin, up.URL)
	good := []any{
		map[string]any{"role": "user", "content": "hi"},
		map[string]any{"role": "tool", "tool_call_id": "call_1"},
		map[string]any{"role": "Note", "text": "n"},
	}
	if r := c.callTool("createChat", map[string]any{"messages": good}); r.IsError {
		t.Fatalf("refused: %s", r.text())
	}
	want := `{"messages":[{"role":"user","content":"hi"},{"role":"tool","tool_call_id":"call_1"},{"role":"Note","text":"n"}]}`
	if len(bodies) != 1 || bodies[0] != want {
		t.Errorf("upstream got %q, want %q", bodies, want)
	}
	for _, m := range []map[string]any{
		{"role": "UserMessage", "content": "hi"}, // the type name: the variant's enum refuses it
		{"role": "system", "content": "hi"},      // selects no variant
		{"role": "tool"},                         // the variant's required tool_call_id is missing
	} {
		if r := c.callTool("createChat", map[string]any{"messages": []any{m}}); !r.IsError {
			t.Errorf("%v accepted", m)
		}
	}
	if len(bodies) != 1 {
		t.Errorf("refused calls reached the API: %q", bodies[1:])
	}
}

// TestDiscriminatorOverInlineVariants: a discriminator whose variants are
// declared in place (OpenAI's turn_detection) selects none of them by
// tag, so the server tries the variants, as JSON Schema does: each
// variant's value is accepted and a value of neither is refused.
func TestDiscriminatorOverInlineVariants(t *testing.T) {
	needE2E(t)
	t.Parallel()
	bin := buildServer(t, "testdata/discriminator-inline-api.yaml")
	var mu sync.Mutex
	var bodies []string
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		bodies = append(bodies, string(b))
		mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(up.Close)
	c := startServer(t, bin, up.URL)
	for _, args := range []map[string]any{
		{"turn_detection": map[string]any{"type": "server_vad"}},
		{"turn_detection": map[string]any{"type": "semantic_vad", "eagerness": "low"}},
	} {
		if r := c.callTool("accept", args); r.IsError {
			t.Errorf("%s refused: %s", mustJSON(args), r.text())
		}
	}
	if r := c.callTool("accept", map[string]any{"turn_detection": map[string]any{"type": "other"}}); !r.IsError {
		t.Error("a value of neither variant was accepted")
	}
	mu.Lock()
	defer mu.Unlock()
	if len(bodies) != 2 || !strings.Contains(bodies[0], `"type":"server_vad"`) || !strings.Contains(bodies[1], `"eagerness":"low"`) {
		t.Errorf("upstream got %q", bodies)
	}
}

// TestDiscriminatorTagBesideVariants: an object whose one property is the
// discriminator's tag, beside a oneOf of $refs (readme-oas-examples'
// mapping-with-duplicate-schemas), is the discriminated union of the
// variants. The server once kept the object open and dropped the union, so
// a body without the variant's required property reached the API; now the
// variant the tag selects (two values may select the same one) is enforced
// and the tag is sent on as the caller wrote it.
func TestDiscriminatorTagBesideVariants(t *testing.T) {
	needE2E(t)
	t.Parallel()
	bin := buildServer(t, "../../testdata/generate/openapi_tag_union/openapi.yaml")
	var mu sync.Mutex
	var bodies []string
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		bodies = append(bodies, string(b))
		mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(up.Close)
	c := startServer(t, bin, up.URL)
	for _, body := range []string{`{"kind":"box"}`, `{"kind":"circle","side":2}`, `{"kind":"triangle","side":2}`, `{"side":2}`} {
		if r := c.callTool("patchShape", map[string]any{"body": json.RawMessage(body)}); !r.IsError {
			t.Errorf("%s accepted", body)
		}
	}
	mu.Lock()
	if len(bodies) != 0 {
		t.Fatalf("refused calls reached the API: %q", bodies)
	}
	mu.Unlock()
	for _, body := range []string{`{"kind":"box","side":2}`, `{"kind":"square","side":2}`, `{"kind":"circle","radius":1}`} {
		if r := c.callTool("patchShape", map[string]any{"body": json.RawMessage(body)}); r.IsError {
			t.Errorf("%s refused: %s", body, r.text())
		}
	}
	want := []string{`{"side":2,"kind":"box"}`, `{"side":2,"kind":"square"}`, `{"radius":1,"kind":"circle"}`}
	mu.Lock()
	defer mu.Unlock()
	if strings.Join(bodies, "\n") != strings.Join(want, "\n") {
		t.Errorf("upstream got %q, want %q", bodies, want)
	}
}
