package openapi

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// TestDiscoveryAgainstPrism serves the petstore in discovery and read-only
// mode, chosen through the environment as a deployment would: the model
// sees three meta-tools, finds an operation by what it wants, and runs it
// against the validating mock; a write is refused before it reaches the
// API. A second server serves one toolset (from the document's tags).
func TestDiscoveryAgainstPrism(t *testing.T) {
	needE2E(t)
	t.Parallel()
	doc := "testdata/swagger-petstore-openapi-3.0.yaml"
	bin := buildServer(t, doc)
	p := startPrism(t, doc)

	c := startServer(t, bin, p.URL, append(petstoreCredentials(), "MCPGEN_DISCOVERY=1", "MCPGEN_READ_ONLY=1")...)
	var names []string
	for _, tl := range c.tools() {
		names = append(names, tl.Name)
	}
	if want := []string{"search_operations", "describe_operation", "call_operation"}; !slices.Equal(names, want) {
		t.Fatalf("tools/list = %q, want %q", names, want)
	}

	res := c.callTool("search_operations", map[string]any{"query": "which pets are available for adoption?"})
	var found struct {
		Results []struct {
			Name        string          `json:"name"`
			ReadOnly    bool            `json:"readOnly"`
			InputSchema json.RawMessage `json:"inputSchema"`
		} `json:"results"`
	}
	if err := json.Unmarshal(res.StructuredContent, &found); err != nil || res.IsError {
		t.Fatalf("search_operations: %v %s", err, res.text())
	}
	rank := slices.IndexFunc(found.Results, func(r struct {
		Name        string          `json:"name"`
		ReadOnly    bool            `json:"readOnly"`
		InputSchema json.RawMessage `json:"inputSchema"`
	}) bool {
		return r.Name == "findPetsByStatus"
	})
	if rank < 0 || rank >= 5 {
		t.Fatalf("findPetsByStatus not in the first 5 results: %s", res.StructuredContent)
	}
	for _, r := range found.Results {
		if !r.ReadOnly {
			t.Errorf("read-only server offers the write %s", r.Name)
		}
	}

	p.settle()
	before, received := len(p.violations()), strings.Count(p.log.String(), "Request received")
	res = c.callTool("call_operation", map[string]any{"name": "findPetsByStatus", "arguments": map[string]any{"status": "available"}})
	p.settle()
	if res.IsError || len(res.StructuredContent) == 0 {
		t.Errorf("call_operation findPetsByStatus: %s", res.text())
	}
	if strings.Count(p.log.String(), "Request received") == received {
		t.Errorf("call_operation: no request reached prism")
	}
	if v := p.violations(); len(v) > before {
		t.Errorf("prism rejected the request: %s", strings.Join(v[before:], "\n"))
	}

	// Arguments are validated by the operation's generated validator.
	res = c.callTool("call_operation", map[string]any{"name": "findPetsByStatus", "arguments": map[string]any{"status": 7}})
	if !res.IsError || !strings.Contains(res.text(), "/status") {
		t.Errorf("invalid arguments through call_operation: %s", res.text())
	}

	// A write is refused, and nothing reaches the API.
	p.settle()
	received = strings.Count(p.log.String(), "Request received")
	res = c.callTool("call_operation", map[string]any{"name": "addPet", "arguments": map[string]any{"name": "Rex", "photoUrls": []string{}}})
	p.settle()
	if !res.IsError || !strings.Contains(res.text(), "read-only") {
		t.Errorf("write through call_operation in read-only mode: %s", res.text())
	}
	if strings.Count(p.log.String(), "Request received") != received {
		t.Errorf("a refused write reached prism")
	}

	store := startServer(t, bin, p.URL, append(petstoreCredentials(), "MCPGEN_TOOLSETS=store")...)
	names = nil
	for _, tl := range store.tools() {
		names = append(names, tl.Name)
	}
	slices.Sort(names)
	if want := []string{"deleteOrder", "getInventory", "getOrderById", "placeOrder"}; !slices.Equal(names, want) {
		t.Errorf("MCPGEN_TOOLSETS=store lists %q, want %q", names, want)
	}
}
