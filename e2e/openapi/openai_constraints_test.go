package openapi

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/mcpgen-dev/mcpgen/internal/oaprune"
)

// TestOpenAIConstraintSubschemas: the constraint subschemas OpenAI writes
// beside properties are enforced by the server generated from OpenAI's own
// document (pruned to the operations under test): createAssistant's
// tool_resources.file_search needs exactly one of vector_store_ids and
// vector_stores (a oneOf of required lists), and createImageEdit's image
// references take image_url or file_id but not both (anyOf and not). A
// refused call names the value's location and never reaches the API; a
// call that satisfies them does.
func TestOpenAIConstraintSubschemas(t *testing.T) {
	needE2E(t)
	t.Parallel()
	src := filepath.Join(repoRoot(t), "..", "shared", "openapi", "openai", "openapi.yaml")
	data, err := os.ReadFile(src)
	if err != nil {
		t.Skipf("OpenAI's document is not beside the repository: %v", err)
	}
	whole, err := oaprune.Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	pruned, err := oaprune.Prune(whole, []string{"createAssistant", "createThread", "createImageEdit"})
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(pruned)
	if err != nil {
		t.Fatal(err)
	}
	doc := filepath.Join(t.TempDir(), "openai.json")
	if err := os.WriteFile(doc, b, 0o644); err != nil {
		t.Fatal(err)
	}
	bin := buildServer(t, doc)
	var mu sync.Mutex
	var bodies []string
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		bodies = append(bodies, r.URL.Path+" "+string(b))
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{}`)
	}))
	t.Cleanup(up.Close)
	c := startServer(t, bin, up.URL)
	for _, tl := range c.tools() {
		in := string(tl.InputSchema)
		want := `"oneOf":[{"required":["vector_store_ids"]},{"required":["vector_stores"]}]`
		if tl.Name == "createImageEdit" {
			want = `"not":{"required":["image_url","file_id"]}`
		}
		if !strings.Contains(in, want) {
			t.Errorf("%s: the published input schema lacks %s", tl.Name, want)
		}
	}
	reached := func() int {
		mu.Lock()
		defer mu.Unlock()
		return len(bodies)
	}

	refused := []struct {
		tool  string
		args  string
		where string // the location the message names
		msg   string
	}{
		// tool_resources is anyOf: [{the object}, {type: null}], so the
		// refusal names it, the value the anyOf decides.
		{"createAssistant", `{"model":"gpt-4o","tool_resources":{"file_search":{}}}`, "/tool_resources:", "anyOf"},
		{"createAssistant", `{"model":"gpt-4o","tool_resources":{"file_search":{"vector_store_ids":["vs_1"],"vector_stores":[{}]}}}`, "/tool_resources:", "anyOf"},
		{"createThread", `{"tool_resources":{"file_search":{}}}`, "/tool_resources:", "anyOf"},
		{"createImageEdit", `{"prompt":"a hat","images":[{"file_id":"file-1","image_url":"https://example.com/a.png"}]}`, "images/0", "must not match"},
		{"createImageEdit", `{"prompt":"a hat","images":[{}]}`, "images/0", "at least one"},
	}
	for _, r := range refused {
		res := c.callTool(r.tool, json.RawMessage(r.args))
		text := res.text()
		if !res.IsError || !strings.Contains(text, r.where) || !strings.Contains(text, r.msg) {
			t.Errorf("%s %s: want a refusal at %s (%q), got isError=%v %s", r.tool, r.args, r.where, r.msg, res.IsError, text)
		}
	}
	if n := reached(); n != 0 {
		t.Fatalf("refused calls reached the API: %q", bodies)
	}

	accepted := []struct{ tool, args string }{
		{"createAssistant", `{"model":"gpt-4o","tool_resources":{"file_search":{"vector_store_ids":["vs_1"]}}}`},
		{"createThread", `{"tool_resources":{"file_search":{"vector_stores":[{"file_ids":["file-1"]}]}}}`},
		{"createImageEdit", `{"prompt":"a hat","images":[{"file_id":"file-1"},{"image_url":"https://example.com/a.png"}]}`},
	}
	for i, a := range accepted {
		c.callTool(a.tool, json.RawMessage(a.args)) // the mock's {} answer may not be the documented shape
		if n := reached(); n != i+1 {
			t.Errorf("%s %s did not reach the API (%d requests)", a.tool, a.args, n)
		}
	}
}
