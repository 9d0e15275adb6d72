package openapi

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen-dev/mcpgen/examples/orders/rest"
	"github.com/mcpgen-dev/mcpgen/examples/orders/store"
)

// startPrismProxy starts `prism proxy --errors doc upstream`: it forwards
// to the real server and validates both the request and the response
// against doc, logging every violation.
func startPrismProxy(t *testing.T, doc, upstream string) *prism {
	t.Helper()
	bin := filepath.Join("node_modules", ".bin", "prism")
	addr := freeAddr(t)
	host, port, _ := net.SplitHostPort(addr)
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, bin, "proxy", "--errors", "-h", host, "-p", port, doc, upstream)
	log := &syncBuffer{}
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		cancel()
		t.Fatalf("start prism (run npm ci in e2e/openapi): %v", err)
	}
	t.Cleanup(func() { cancel(); cmd.Wait() })
	p := &prism{URL: "http://" + addr, log: log}
	waitHTTP(t, p.URL, func() string { return log.String() }, time.Minute)
	return p
}

// buildOrdersRESTMCP builds the committed cmd/orders-rest-mcp.
func buildOrdersRESTMCP(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "orders-rest-mcp")
	run(t, repoRoot(t), nil, "go", "build", "-o", bin, "./examples/orders/cmd/orders-rest-mcp")
	return bin
}

// structured returns a successful result's structuredContent, compacted.
func structured(t *testing.T, name string, r toolResult) string {
	t.Helper()
	if r.IsError {
		t.Fatalf("%s: isError: %s", name, r.text())
	}
	var v any
	if err := json.Unmarshal(r.StructuredContent, &v); err != nil {
		t.Fatalf("%s: structuredContent %q: %v", name, r.StructuredContent, err)
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// TestOrdersRESTThroughGeneratedServer drives the MCP server generated from
// examples/orders/openapi.yaml against the real orders REST server, behind
// Prism's validating proxy, as two customers.
func TestOrdersRESTThroughGeneratedServer(t *testing.T) {
	needE2E(t)
	t.Parallel()
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "orders.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	upstream := httptest.NewServer(rest.NewHandler(st, rest.Tokens{"tok-alice": "alice", "tok-bob": "bob"}, nil))
	t.Cleanup(upstream.Close)
	p := startPrismProxy(t, "../../examples/orders/openapi.yaml", upstream.URL)
	bin := buildOrdersRESTMCP(t)

	alice := startServer(t, bin, p.URL, ordersCredentials("tok-alice")...)
	bob := startServer(t, bin, p.URL, ordersCredentials("tok-bob")...)

	check := func(c *mcpClient, name string, args map[string]any, want string) {
		t.Helper()
		if got := structured(t, name, c.callTool(name, args)); got != want {
			t.Errorf("%s %s:\n got %s\nwant %s", name, mustJSON(args), got, want)
		}
	}
	check(alice, "get_order", map[string]any{"order_id": "A1001"}, `{"order_id":"A1001","status":"SHIPPED","total_cents":4990}`)
	check(alice, "search_orders", map[string]any{}, `{"orders":[{"order_id":"A1001","status":"SHIPPED"},{"order_id":"A1003","status":"DELIVERED"}]}`)
	check(alice, "search_orders", map[string]any{"status": "DELIVERED"}, `{"orders":[{"order_id":"A1003","status":"DELIVERED"}]}`)
	check(alice, "search_orders", map[string]any{"limit": 1}, `{"next_cursor":"YWZ0ZXI6QTEwMDE","orders":[{"order_id":"A1001","status":"SHIPPED"}]}`)
	check(alice, "search_orders", map[string]any{"limit": 1, "cursor": "YWZ0ZXI6QTEwMDE"}, `{"orders":[{"order_id":"A1003","status":"DELIVERED"}]}`)

	ret := alice.callTool("create_return", map[string]any{"order_id": "A1001", "reason": "too small", "idempotency_key": "k-1"})
	first := structured(t, "create_return", ret)
	if !strings.Contains(first, `"status":"REQUESTED"`) || !strings.Contains(first, `"order_id":"A1001"`) {
		t.Errorf("create_return: %s", first)
	}
	again := structured(t, "create_return", alice.callTool("create_return", map[string]any{"order_id": "A1001", "reason": "too small", "idempotency_key": "k-1"}))
	if again != first {
		t.Errorf("retry with the same key: %s, want the first return %s", again, first)
	}
	if rs, err := st.Returns(context.Background(), "alice", "A1001"); err != nil || len(rs) != 1 {
		t.Errorf("alice's returns of A1001: %v, %v; want exactly one", rs, err)
	}

	// Alice's credentials never see bob's order, and bob's never alice's:
	// the upstream's 404 comes back as a tool error, not as data.
	for _, c := range []struct {
		who    *mcpClient
		order  string
		client string
	}{{alice, "A1002", "alice"}, {bob, "A1001", "bob"}, {bob, "A1003", "bob"}} {
		r := c.who.callTool("get_order", map[string]any{"order_id": c.order})
		if !r.IsError || strings.Contains(string(r.StructuredContent), "total_cents") {
			t.Errorf("%s got %s: isError %v, %s %s", c.client, c.order, r.IsError, r.StructuredContent, r.text())
		}
		r = c.who.callTool("create_return", map[string]any{"order_id": c.order, "reason": "not mine", "idempotency_key": "steal-" + c.order})
		if !r.IsError {
			t.Errorf("%s returned %s: %s", c.client, c.order, r.StructuredContent)
		}
	}
	check(bob, "search_orders", map[string]any{}, `{"orders":[{"order_id":"A1002","status":"PENDING"}]}`)

	if v := p.violations(); len(v) > 0 {
		t.Errorf("prism found requests or responses that break openapi.yaml:\n%s", strings.Join(v, "\n"))
	}
}

// TestOrdersRESTMCPOverHTTP serves the generated server over Streamable
// HTTP: each caller's bearer token is passed on to the REST API, so one MCP
// server serves alice and bob each as themselves, and an unknown token sees
// no order at all.
func TestOrdersRESTMCPOverHTTP(t *testing.T) {
	needE2E(t)
	t.Parallel()
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "orders.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	upstream := httptest.NewServer(rest.NewHandler(st, rest.Tokens{"tok-alice": "alice", "tok-bob": "bob"}, nil))
	t.Cleanup(upstream.Close)
	bin := buildOrdersRESTMCP(t)

	addr := freeAddr(t)
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, bin, "--upstream", upstream.URL, "--http", addr)
	log := &syncBuffer{}
	cmd.Stderr = log
	if err := cmd.Start(); err != nil {
		cancel()
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); cmd.Wait() })
	url := "http://" + addr + "/mcp"
	waitHTTP(t, url, log.String, time.Minute)

	call := func(token, orderID string) (int, toolResult) {
		t.Helper()
		body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":` + meta + `,"name":"get_order","arguments":{"order_id":"` + orderID + `"}}}`
		req, _ := http.NewRequest("POST", url, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("MCP-Protocol-Version", "2026-07-28")
		req.Header.Set("Mcp-Method", "tools/call")
		req.Header.Set("Mcp-Name", "get_order")
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var r struct {
			Result toolResult `json:"result"`
		}
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode == http.StatusOK {
			if err := json.Unmarshal(b, &r); err != nil {
				t.Fatalf("%s: %q: %v", orderID, b, err)
			}
		}
		return resp.StatusCode, r.Result
	}
	if status, r := call("tok-alice", "A1001"); status != 200 || structured(t, "get_order", r) != `{"order_id":"A1001","status":"SHIPPED","total_cents":4990}` {
		t.Errorf("alice A1001: %d %s %s", status, r.StructuredContent, r.text())
	}
	if status, r := call("tok-bob", "A1002"); status != 200 || structured(t, "get_order", r) != `{"order_id":"A1002","status":"PENDING","total_cents":1250}` {
		t.Errorf("bob A1002: %d %s %s", status, r.StructuredContent, r.text())
	}
	if status, r := call("tok-bob", "A1001"); status != 200 || !r.IsError || len(r.StructuredContent) > 0 {
		t.Errorf("bob A1001: %d isError %v %s", status, r.IsError, r.StructuredContent)
	}
	if status, r := call("tok-mallory", "A1001"); status == 200 && (!r.IsError || len(r.StructuredContent) > 0) {
		t.Errorf("unknown token A1001: %d isError %v %s", status, r.IsError, r.StructuredContent)
	}
	if strings.Contains(log.String(), "tok-alice") {
		t.Errorf("a bearer token reached the log:\n%s", log.String())
	}
}
