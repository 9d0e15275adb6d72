package openapi

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/mcpgen-dev/mcpgen/internal/oaprune"
)

// TestGitHubAddItemOneOf: GitHub's projects/add-item-for-org takes a body
// with the item's id or its owner, repo and number, written as a oneOf of
// required lists beside the properties. A body with both matches two
// branches and is invalid (JSON Schema's oneOf: exactly one), as the
// reference validator and Prism say; the server generated from GitHub's own
// document refuses it before the API sees it, and the sweep's samples (both
// passes) match exactly one branch and reach the API.
func TestGitHubAddItemOneOf(t *testing.T) {
	needE2E(t)
	t.Parallel()
	src := filepath.Join(repoRoot(t), "..", "shared", "openapi", "github", "api.github.com.json")
	data, err := os.ReadFile(src)
	if err != nil {
		t.Skipf("GitHub's document is not beside the repository: %v", err)
	}
	whole, err := oaprune.Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	pruned, err := oaprune.Prune(whole, []string{"projects/add-item-for-org"})
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(pruned)
	if err != nil {
		t.Fatal(err)
	}
	doc := filepath.Join(t.TempDir(), "github.json")
	if err := os.WriteFile(doc, b, 0o644); err != nil {
		t.Fatal(err)
	}

	// The document's body schema, judged by the reference validator.
	var d struct {
		Paths map[string]map[string]struct {
			RequestBody struct {
				Content map[string]struct {
					Schema json.RawMessage `json:"schema"`
				} `json:"content"`
			} `json:"requestBody"`
		} `json:"paths"`
	}
	if err := json.Unmarshal(b, &d); err != nil {
		t.Fatal(err)
	}
	raw := d.Paths["/orgs/{org}/projectsV2/{project_number}/items"]["post"].RequestBody.Content["application/json"].Schema
	schemaDoc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	comp := jsonschema.NewCompiler()
	if err := comp.AddResource("body.json", schemaDoc); err != nil {
		t.Fatal(err)
	}
	body, err := comp.Compile("body.json")
	if err != nil {
		t.Fatal(err)
	}
	valid := func(v any) error {
		b, _ := json.Marshal(v)
		inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		return body.Validate(inst)
	}
	const both = `{"type":"Issue","id":1,"number":1,"owner":"octocat","repo":"hello-world"}`
	var ambiguous any
	json.Unmarshal([]byte(both), &ambiguous)
	if err := valid(ambiguous); err == nil || !strings.Contains(err.Error(), "oneOf") {
		t.Fatalf("the reference validator accepts %s (or not for oneOf): %v", both, err)
	}

	bin := buildServer(t, doc)
	var mu sync.Mutex
	var bodies []string
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		bodies = append(bodies, string(b))
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{}`)
	}))
	t.Cleanup(up.Close)
	c := startServer(t, bin, up.URL)
	tools := c.tools()
	if len(tools) != 1 {
		t.Fatalf("%d tools, want 1", len(tools))
	}
	tl := tools[0]
	if want := `"oneOf":[{"required":["id"]},{"required":["owner","repo","number"]}]`; !strings.Contains(string(tl.InputSchema), want) {
		t.Errorf("the published input schema lacks %s: %s", want, tl.InputSchema)
	}

	res := c.callTool(tl.Name, json.RawMessage(`{"org":"github","project_number":1,"body":`+both+`}`))
	if text := res.text(); !res.IsError || !strings.Contains(text, "/body") || !strings.Contains(text, "matches 2") {
		t.Errorf("body with both the id and the owner, repo and number: want a refusal at /body (oneOf, matches 2), got isError=%v %s", res.IsError, text)
	}
	mu.Lock()
	if len(bodies) != 0 {
		t.Fatalf("the refused call reached the API: %q", bodies)
	}
	mu.Unlock()

	for pass, all := range []bool{false, true} {
		args := sampleArgs(tl.InputSchema, all).(map[string]any)
		if err := valid(args["body"]); err != nil {
			t.Errorf("pass %d: the sample's body %s fails the document: %v", pass, mustJSON(args["body"]), err)
		}
		c.callTool(tl.Name, args) // the mock's {} answer is not the documented shape
		mu.Lock()
		n := len(bodies)
		mu.Unlock()
		if n != pass+1 {
			t.Errorf("pass %d: the sample %s did not reach the API", pass, mustJSON(args))
		}
	}
}
