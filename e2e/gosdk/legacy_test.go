package gosdk

import (
	"bufio"
	"context"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestOrdersWithGoSDKForced20251125 connects with the SDK forced to the
// 2025-11-25 handshake (initialize, no server/discover), over stdio and over
// Streamable HTTP (a session), and checks the
// legacy era end to end: the negotiated version, tools with their
// schemas, a tool call, logging/setLevel, and confirm_return's elicitation
// arriving as a real elicitation/create request that the SDK's handler
// answers while the tool call waits.
func TestOrdersWithGoSDKForced20251125(t *testing.T) {
	t.Run("stdio", func(t *testing.T) {
		cmd := exec.Command(serverBinary(t), "--db", filepath.Join(t.TempDir(), "orders.db"))
		cmd.Env = append(os.Environ(), "ORDERS_USER=alice")
		checkLegacy(t, &mcp.CommandTransport{Command: cmd})
	})
	t.Run("http", func(t *testing.T) {
		url := startHTTP(t)
		checkLegacy(t, &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: &http.Client{
			Transport: bearer{token: "tok-alice", next: http.DefaultTransport}}})
	})
}

// bearer adds the demo token to every request.
type bearer struct {
	token string
	next  http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.next.RoundTrip(r)
}

// startHTTP runs orders-mcp --http on a free loopback port with a token
// for alice and returns its endpoint, read from the startup log.
func startHTTP(t *testing.T) string {
	t.Helper()
	cmd := exec.Command(serverBinary(t), "--db", filepath.Join(t.TempDir(), "orders.db"), "--http", "0", "--token", "tok-alice=alice")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	found := make(chan string, 1)
	urlRE := regexp.MustCompile(`url=(http://\S+/mcp)`)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if m := urlRE.FindStringSubmatch(sc.Text()); m != nil {
				found <- m[1]
			}
		}
	}()
	select {
	case url := <-found:
		return url
	case <-time.After(15 * time.Second):
		t.Fatal("orders-mcp --http did not log its URL")
	}
	return ""
}

func checkLegacy(t *testing.T, transport mcp.Transport) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var asked []*mcp.ElicitParams
	answer := &mcp.ElicitResult{Action: "accept", Content: map[string]any{"confirm": true}}
	client := mcp.NewClient(&mcp.Implementation{Name: "mcpgen-e2e-gosdk-legacy", Version: "0.0.0"}, &mcp.ClientOptions{
		ElicitationHandler: func(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			asked = append(asked, req.Params)
			return answer, nil
		},
	})
	cs, err := client.Connect(ctx, transport, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	defer cs.Close()

	init := cs.InitializeResult()
	if init == nil || init.ProtocolVersion != "2025-11-25" {
		t.Fatalf("initialize result = %+v, want protocol version 2025-11-25", init)
	}
	if init.ServerInfo == nil || init.ServerInfo.Name != "orders" || !strings.Contains(init.Instructions, "idempotency_key") {
		t.Errorf("initialize serverInfo/instructions = %+v / %q", init.ServerInfo, init.Instructions)
	}
	if c := init.Capabilities; c == nil || c.Tools == nil || c.Resources == nil || !c.Resources.Subscribe || c.Logging == nil {
		t.Errorf("capabilities = %+v, want tools, subscribable resources and logging", init.Capabilities)
	}

	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range tools.Tools {
		names = append(names, tool.Name)
		if tool.OutputSchema == nil {
			t.Errorf("%s: object outputSchema missing on 2025-11-25", tool.Name)
		}
	}
	if got := strings.Join(names, ","); got != "get_order_status,search_orders,create_return,confirm_return,export_order_history" {
		t.Errorf("tools = %s", got)
	}

	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_order_status", Arguments: map[string]any{"order_id": "A1001"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := structured(t, res); got != `{"found":true,"order_id":"A1001","status":"SHIPPED"}` {
		t.Errorf("get_order_status = %s", got)
	}
	if err := cs.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: "warning"}); err != nil {
		t.Errorf("logging/setLevel: %v", err)
	}
	if err := cs.Ping(ctx, nil); err != nil {
		t.Errorf("ping: %v", err)
	}

	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "confirm_return",
		Arguments: map[string]any{"order_id": "A1003", "reason": "wrong colour", "idempotency_key": "gosdk-legacy-1"}})
	if err != nil {
		t.Fatal(err)
	}
	got := structured(t, res)
	if len(asked) != 1 || !strings.Contains(asked[0].Message, "A1003") {
		t.Fatalf("want one elicitation naming A1003, got %+v", asked)
	}
	if !strings.Contains(got, `"confirmed":true`) || !strings.Contains(got, `"status":"REQUESTED"`) {
		t.Errorf("confirm_return accepted = %s", got)
	}
	answer = &mcp.ElicitResult{Action: "cancel"}
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "confirm_return",
		Arguments: map[string]any{"order_id": "A1003", "reason": "wrong colour", "idempotency_key": "gosdk-legacy-2"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := structured(t, res); got != `{"confirmed":false}` {
		t.Errorf("confirm_return cancelled = %s", got)
	}
}
