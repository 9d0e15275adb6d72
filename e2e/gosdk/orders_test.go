// Package gosdk checks the generated orders server (examples/orders) with the
// official MCP Go SDK over stdio and Streamable HTTP. It is its own module so that the go-sdk
// dependency never reaches mcpgen's go.mod; it only execs the server binary.
//
// ORDERS_MCP_BIN names a built orders-mcp; when unset, the test builds it
// from the enclosing mcpgen checkout.
package gosdk

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// serverBinary returns the orders-mcp binary to run.
func serverBinary(t *testing.T) string {
	t.Helper()
	if bin := os.Getenv("ORDERS_MCP_BIN"); bin != "" {
		return bin
	}
	bin := filepath.Join(t.TempDir(), "orders-mcp")
	cmd := exec.Command("go", "build", "-o", bin, "./examples/orders/cmd/orders-mcp")
	cmd.Dir = filepath.Join("..", "..")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("build orders-mcp: %v\n%s", err, out)
	}
	return bin
}

// connect starts orders-mcp as alice on a fresh database and connects the
// SDK client to it.
func connect(t *testing.T) *mcp.ClientSession {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.Command(serverBinary(t), "--db", filepath.Join(t.TempDir(), "orders.db"))
	cmd.Env = append(os.Environ(), "ORDERS_USER=alice")
	client := mcp.NewClient(&mcp.Implementation{Name: "mcpgen-e2e-gosdk", Version: "0.0.0"}, nil)
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

func textOf(res *mcp.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// structured returns the result's structuredContent re-encoded as JSON, so
// that it can be compared with an expected document.
func structured(t *testing.T, res *mcp.CallToolResult) string {
	t.Helper()
	if res.IsError {
		t.Fatalf("unexpected tool error: %s", textOf(res))
	}
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func call(t *testing.T, cs *mcp.ClientSession, name string, args any) *mcp.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("call %s %v: %v", name, args, err)
	}
	return res
}

// TestOrdersWithGoSDK runs the same checks over stdio and over Streamable
// HTTP with alice's bearer token; in both the SDK negotiates 2026-07-28 with
// server/discover.
func TestOrdersWithGoSDK(t *testing.T) {
	t.Run("stdio", func(t *testing.T) { checkOrders(t, connect(t)) })
	t.Run("http", func(t *testing.T) { checkOrders(t, connectHTTP(t)) })
}

// connectHTTP starts orders-mcp --http with a token for alice and connects
// the SDK client to its endpoint.
func connectHTTP(t *testing.T) *mcp.ClientSession {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	client := mcp.NewClient(&mcp.Implementation{Name: "mcpgen-e2e-gosdk", Version: "0.0.0"}, nil)
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: startHTTP(t), HTTPClient: &http.Client{
		Transport: bearer{token: "tok-alice", next: http.DefaultTransport}}}, nil)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

func checkOrders(t *testing.T, cs *mcp.ClientSession) {
	ctx := context.Background()

	t.Run("discover", func(t *testing.T) {
		init := cs.InitializeResult()
		if init.ProtocolVersion != "2026-07-28" {
			t.Errorf("negotiated %q, want 2026-07-28 (server/discover, no initialize)", init.ProtocolVersion)
		}
		if init.ServerInfo == nil || init.ServerInfo.Name != "orders" || init.ServerInfo.Version != "1.0.0" {
			t.Errorf("serverInfo = %+v, want orders 1.0.0", init.ServerInfo)
		}
		if c := init.Capabilities; c == nil || c.Tools == nil || c.Resources == nil || c.Prompts == nil {
			t.Errorf("capabilities = %+v, want tools, resources and prompts", c)
		}
	})

	t.Run("list tools", func(t *testing.T) {
		res, err := cs.ListTools(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, tool := range res.Tools {
			names = append(names, tool.Name)
			schema, _ := json.Marshal(tool.InputSchema)
			if tool.Name == "get_order_status" && !strings.Contains(string(schema), `"pattern":"^A[0-9]+$"`) {
				t.Errorf("get_order_status input schema lacks the order_id pattern: %s", schema)
			}
			if tool.OutputSchema == nil {
				t.Errorf("%s has no output schema", tool.Name)
			}
		}
		slices.Sort(names)
		if want := []string{"confirm_return", "create_return", "export_order_history", "get_order_status", "search_orders"}; !slices.Equal(names, want) {
			t.Errorf("tools = %v, want %v", names, want)
		}
	})

	t.Run("get_order_status", func(t *testing.T) {
		if got, want := structured(t, call(t, cs, "get_order_status", map[string]any{"order_id": "A1001"})),
			`{"found":true,"order_id":"A1001","status":"SHIPPED"}`; got != want {
			t.Errorf("A1001: %s, want %s", got, want)
		}
		// Bob's order looks exactly like a missing one to alice.
		if got, want := structured(t, call(t, cs, "get_order_status", map[string]any{"order_id": "A1002"})),
			`{"found":false,"order_id":"A1002"}`; got != want {
			t.Errorf("A1002: %s, want %s", got, want)
		}
	})

	t.Run("search_orders", func(t *testing.T) {
		first := call(t, cs, "search_orders", map[string]any{"limit": 1})
		var page struct {
			Orders     []struct{ OrderID, Status string } `json:"orders"`
			NextCursor string                             `json:"next_cursor"`
		}
		if err := json.Unmarshal([]byte(structured(t, first)), &page); err != nil {
			t.Fatal(err)
		}
		if len(page.Orders) != 1 || page.NextCursor == "" {
			t.Fatalf("first page = %+v, want one order and a next_cursor", page)
		}
		second := call(t, cs, "search_orders", map[string]any{"limit": 1, "cursor": page.NextCursor})
		if got, want := structured(t, second), `{"orders":[{"order_id":"A1003","status":"DELIVERED"}]}`; got != want {
			t.Errorf("second page: %s, want %s", got, want)
		}
	})

	t.Run("create_return idempotency", func(t *testing.T) {
		args := map[string]any{"order_id": "A1001", "reason": "wrong colour", "idempotency_key": "gosdk-1"}
		first := structured(t, call(t, cs, "create_return", args))
		again := structured(t, call(t, cs, "create_return", args))
		if first != again {
			t.Errorf("retry with the same key returned %s, first call %s", again, first)
		}
		if !strings.Contains(first, `"status":"REQUESTED"`) {
			t.Errorf("return = %s, want status REQUESTED", first)
		}
	})

	t.Run("invalid input", func(t *testing.T) {
		for _, c := range []struct {
			tool  string
			args  map[string]any
			field string
		}{
			{"get_order_status", map[string]any{"order_id": 7}, "order_id"},
			{"get_order_status", map[string]any{"order_id": "X1"}, "order_id"},
			{"get_order_status", map[string]any{"order_id": "A1001", "note": "x"}, "note"},
			{"get_order_status", map[string]any{}, "order_id"},
			{"search_orders", map[string]any{"limit": 500}, "limit"},
			{"search_orders", map[string]any{"status": "LOST"}, "status"},
			{"create_return", map[string]any{"order_id": "A1001", "reason": "", "idempotency_key": "k"}, "reason"},
		} {
			res := call(t, cs, c.tool, c.args)
			if !res.IsError || !strings.Contains(textOf(res), c.field) {
				t.Errorf("%s %v: isError=%v text %q; want an error naming %s", c.tool, c.args, res.IsError, textOf(res), c.field)
			}
		}
	})

	t.Run("unknown tool", func(t *testing.T) {
		_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "no_such_tool", Arguments: map[string]any{}})
		var werr *jsonrpc.Error
		if !errors.As(err, &werr) || werr.Code != -32602 {
			t.Errorf("err = %v, want JSON-RPC error -32602", err)
		}
	})

	t.Run("resources", func(t *testing.T) {
		policy, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "policy://after-sales/current"})
		if err != nil {
			t.Fatal(err)
		}
		if len(policy.Contents) != 1 || policy.Contents[0].MIMEType != "text/plain" || policy.Contents[0].Text == "" {
			t.Errorf("policy = %+v", policy.Contents)
		}
		summary, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "order://A1003/summary"})
		if err != nil {
			t.Fatal(err)
		}
		if len(summary.Contents) != 1 || !strings.Contains(summary.Contents[0].Text, `"order_id":"A1003"`) {
			t.Errorf("summary = %+v", summary.Contents)
		}
		_, err = cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "order://A1002/summary"})
		var werr *jsonrpc.Error
		if !errors.As(err, &werr) || werr.Code != -32602 || string(werr.Data) != `{"uri":"order://A1002/summary"}` {
			t.Errorf("bob's order as alice: %v, want -32602 with data {uri}", err)
		}
	})

	t.Run("prompt", func(t *testing.T) {
		res, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "reply_order_question", Arguments: map[string]string{"order_id": "A1003"}})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Messages) == 0 {
			t.Fatal("no messages")
		}
		text, ok := res.Messages[0].Content.(*mcp.TextContent)
		if !ok || !strings.Contains(text.Text, "A1003") || !strings.Contains(text.Text, "DELIVERED") {
			t.Errorf("first message = %+v, want text naming A1003 and DELIVERED", res.Messages[0].Content)
		}
	})
}
