package orders_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/mcpgen-dev/mcpgen/examples/orders"
	"github.com/mcpgen-dev/mcpgen/examples/orders/ordersmcp"
	"github.com/mcpgen-dev/mcpgen/examples/orders/store"
	"github.com/mcpgen-dev/mcpgen/runtime"
)

// serverBin is the orders-mcp binary built once by TestMain.
var serverBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "orders-mcp-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	serverBin = filepath.Join(dir, "orders-mcp")
	if out, err := exec.Command("go", "build", "-o", serverBin, "./cmd/orders-mcp").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "build orders-mcp: %v\n%s", err, out)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// meta is the per-request _meta envelope of a 2026-07-28 client.
const meta = `{"io.modelcontextprotocol/protocolVersion":"2026-07-28",` +
	`"io.modelcontextprotocol/clientInfo":{"name":"orders-test","version":"0"},` +
	`"io.modelcontextprotocol/clientCapabilities":{}}`

// rpcError is a JSON-RPC error object.
type rpcError struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data"`
}

// response is one JSON-RPC response line.
type response struct {
	ID     json.RawMessage `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *rpcError       `json:"error"`
}

// proc is a running orders-mcp speaking newline-delimited JSON-RPC.
type proc struct {
	t      *testing.T
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	lines  chan []byte
	stderr *bytes.Buffer
	nextID int
}

// start runs orders-mcp as user on a fresh database.
func start(t *testing.T, user string) *proc {
	t.Helper()
	cmd := exec.Command(serverBin, "--db", filepath.Join(t.TempDir(), "orders.db"))
	cmd.Env = append(os.Environ(), "ORDERS_USER="+user)
	p := &proc{t: t, cmd: cmd, lines: make(chan []byte, 16), stderr: new(bytes.Buffer)}
	cmd.Stderr = p.stderr
	var err error
	if p.stdin, err = cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		defer close(p.lines)
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 0, 64<<10), 4<<20)
		for sc.Scan() {
			p.lines <- bytes.Clone(sc.Bytes())
		}
	}()
	t.Cleanup(func() {
		p.stdin.Close()
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			cmd.Process.Kill()
			<-done
		}
	})
	return p
}

// send writes one raw line and returns the response with the given id,
// skipping notifications.
func (p *proc) send(id, line string) response {
	p.t.Helper()
	if _, err := io.WriteString(p.stdin, line+"\n"); err != nil {
		p.t.Fatalf("write request: %v", err)
	}
	timeout := time.After(10 * time.Second)
	for {
		select {
		case l, ok := <-p.lines:
			if !ok {
				p.t.Fatalf("server closed stdout; stderr:\n%s", p.stderr)
			}
			var r response
			if err := json.Unmarshal(l, &r); err != nil {
				p.t.Fatalf("stdout line is not JSON: %q", l)
			}
			if string(r.ID) == id {
				return r
			}
		case <-timeout:
			p.t.Fatalf("no response to %s", line)
		}
	}
}

// call sends method with params (a JSON object without _meta) and returns
// the response.
func (p *proc) call(method, params string) response {
	p.t.Helper()
	p.nextID++
	id := fmt.Sprint(p.nextID)
	if params == "" || params == "{}" {
		params = `{"_meta":` + meta + `}`
	} else {
		params = `{"_meta":` + meta + `,` + strings.TrimPrefix(params, "{")
	}
	return p.send(id, fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":%q,"params":%s}`, id, method, params))
}

// result calls method and decodes its successful result into v.
func (p *proc) result(method, params string, v any) {
	p.t.Helper()
	r := p.call(method, params)
	if r.Error != nil {
		p.t.Fatalf("%s %s: error %d %s", method, params, r.Error.Code, r.Error.Message)
	}
	if err := json.Unmarshal(r.Result, v); err != nil {
		p.t.Fatalf("%s result %s: %v", method, r.Result, err)
	}
}

// toolResult is a tools/call result.
type toolResult struct {
	ResultType string `json:"resultType"`
	Content    []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"content"`
	Structured json.RawMessage `json:"structuredContent"`
	IsError    bool            `json:"isError"`
}

func (r toolResult) text() string {
	var parts []string
	for _, c := range r.Content {
		parts = append(parts, c.Text)
	}
	return strings.Join(parts, "\n")
}

func (p *proc) tool(name, args string) toolResult {
	p.t.Helper()
	var r toolResult
	p.result("tools/call", fmt.Sprintf(`{"name":%q,"arguments":%s}`, name, args), &r)
	return r
}

// compact re-encodes JSON without insignificant space.
func compact(t *testing.T, s []byte) string {
	t.Helper()
	var b bytes.Buffer
	if err := json.Compact(&b, s); err != nil {
		t.Fatalf("invalid JSON %q: %v", s, err)
	}
	return b.String()
}

func TestDiscover(t *testing.T) {
	p := start(t, "alice")
	var res struct {
		ResultType        string   `json:"resultType"`
		SupportedVersions []string `json:"supportedVersions"`
		Capabilities      map[string]json.RawMessage
		Instructions      string `json:"instructions"`
		TTLMs             int64  `json:"ttlMs"`
		CacheScope        string `json:"cacheScope"`
		Meta              struct {
			ServerInfo struct{ Name, Title, Version string } `json:"io.modelcontextprotocol/serverInfo"`
		} `json:"_meta"`
	}
	p.result("server/discover", "", &res)
	if res.ResultType != "complete" || len(res.SupportedVersions) == 0 || res.SupportedVersions[0] != "2026-07-28" {
		t.Errorf("discover = %+v, want a complete result supporting 2026-07-28", res)
	}
	for _, c := range []string{"tools", "resources", "prompts", "completions"} {
		if _, ok := res.Capabilities[c]; !ok {
			t.Errorf("capabilities lack %s: %v", c, res.Capabilities)
		}
	}
	if res.Meta.ServerInfo.Name != "orders" || res.Meta.ServerInfo.Version != "1.0.0" || res.Meta.ServerInfo.Title != "Orders" {
		t.Errorf("serverInfo = %+v", res.Meta.ServerInfo)
	}
	if !strings.Contains(res.Instructions, "idempotency_key") {
		t.Errorf("instructions = %q", res.Instructions)
	}
	if res.TTLMs != 60000 || res.CacheScope != "public" {
		t.Errorf("cache hint = %d %s, want 60000 public from mcpgen.yaml", res.TTLMs, res.CacheScope)
	}
}

func TestListTools(t *testing.T) {
	p := start(t, "alice")
	var res struct {
		Tools []struct {
			Name        string          `json:"name"`
			InputSchema json.RawMessage `json:"inputSchema"`
			Output      json.RawMessage `json:"outputSchema"`
			Annotations map[string]any  `json:"annotations"`
		} `json:"tools"`
		TTLMs int64 `json:"ttlMs"`
	}
	p.result("tools/list", "", &res)
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
		if tool.Output == nil {
			t.Errorf("%s has no outputSchema", tool.Name)
		}
	}
	if got := strings.Join(names, ","); got != "get_order_status,search_orders,create_return,confirm_return,export_order_history" {
		t.Fatalf("tools = %s, want the five tools in spec order", got)
	}
	get := res.Tools[0]
	var in struct {
		Type       string
		Required   []string
		Additional *bool `json:"additionalProperties"`
		Properties map[string]map[string]any
	}
	if err := json.Unmarshal(get.InputSchema, &in); err != nil {
		t.Fatal(err)
	}
	oid := in.Properties["order_id"]
	if in.Type != "object" || fmt.Sprint(in.Required) != "[order_id]" || in.Additional == nil || *in.Additional ||
		oid["pattern"] != "^A[0-9]+$" || oid["maxLength"] != 8.0 || oid["x-mcp-header"] != "Order-Id" {
		t.Errorf("get_order_status inputSchema = %s", get.InputSchema)
	}
	want := map[string]any{"readOnlyHint": true, "idempotentHint": true, "destructiveHint": false, "openWorldHint": false}
	for k, v := range want {
		if get.Annotations[k] != v {
			t.Errorf("get_order_status annotation %s = %v, want %v", k, get.Annotations[k], v)
		}
	}
	if create := res.Tools[2]; create.Annotations["readOnlyHint"] != false || create.Annotations["destructiveHint"] != false {
		t.Errorf("create_return annotations = %v, want not read-only, not destructive", create.Annotations)
	}
	if res.TTLMs != 60000 {
		t.Errorf("tools/list ttlMs = %d, want 60000", res.TTLMs)
	}
}

func TestGetOrderStatusHidesOtherCustomersOrders(t *testing.T) {
	alice := start(t, "alice")
	for _, c := range []struct{ args, want string }{
		{`{"order_id":"A1001"}`, `{"found":true,"order_id":"A1001","status":"SHIPPED"}`},
		{`{"order_id":"A1003"}`, `{"found":true,"order_id":"A1003","status":"DELIVERED"}`},
		{`{"order_id":"A1002"}`, `{"found":false,"order_id":"A1002"}`},
		{`{"order_id":"A9999"}`, `{"found":false,"order_id":"A9999"}`},
	} {
		r := alice.tool("get_order_status", c.args)
		if r.IsError || compact(t, r.Structured) != c.want {
			t.Errorf("alice %s: isError=%v structured=%s, want %s", c.args, r.IsError, r.Structured, c.want)
		}
		// The text block carries the same JSON for clients that ignore
		// structuredContent.
		if len(r.Content) != 1 || r.Content[0].Type != "text" || compact(t, []byte(r.Content[0].Text)) != c.want {
			t.Errorf("alice %s: content = %+v", c.args, r.Content)
		}
	}
	bob := start(t, "bob")
	if r := bob.tool("get_order_status", `{"order_id":"A1002"}`); compact(t, r.Structured) != `{"found":true,"order_id":"A1002","status":"PENDING"}` {
		t.Errorf("bob A1002: %s", r.Structured)
	}
	if r := bob.tool("get_order_status", `{"order_id":"A1001"}`); compact(t, r.Structured) != `{"found":false,"order_id":"A1001"}` {
		t.Errorf("bob A1001: %s", r.Structured)
	}
}

func TestSearchOrdersPages(t *testing.T) {
	p := start(t, "alice")
	type page struct {
		Orders []struct {
			OrderID string `json:"order_id"`
			Status  string `json:"status"`
		} `json:"orders"`
		NextCursor *string `json:"next_cursor"`
	}
	decode := func(r toolResult) page {
		t.Helper()
		if r.IsError {
			t.Fatalf("search_orders: %s", r.text())
		}
		var pg page
		if err := json.Unmarshal(r.Structured, &pg); err != nil {
			t.Fatal(err)
		}
		return pg
	}
	all := decode(p.tool("search_orders", `{}`))
	if len(all.Orders) != 2 || all.NextCursor != nil {
		t.Fatalf("default page = %+v, want alice's 2 orders and no cursor", all)
	}
	first := decode(p.tool("search_orders", `{"limit":1}`))
	if len(first.Orders) != 1 || first.Orders[0].OrderID != "A1001" || first.NextCursor == nil {
		t.Fatalf("first page = %+v", first)
	}
	second := decode(p.tool("search_orders", fmt.Sprintf(`{"limit":1,"cursor":%q}`, *first.NextCursor)))
	if len(second.Orders) != 1 || second.Orders[0].OrderID != "A1003" || second.NextCursor != nil {
		t.Fatalf("second page = %+v", second)
	}
	if r := p.tool("search_orders", `{"status":"PENDING"}`); compact(t, r.Structured) != `{"orders":[]}` {
		t.Errorf("alice's pending orders = %s, want none (A1002 is bob's)", r.Structured)
	}
	if r := p.tool("search_orders", `{"cursor":"bogus"}`); !r.IsError || !strings.Contains(r.text(), "cursor") {
		t.Errorf("bogus cursor: isError=%v %q", r.IsError, r.text())
	}
}

func TestCreateReturnIsIdempotent(t *testing.T) {
	p := start(t, "alice")
	args := `{"order_id":"A1003","reason":"arrived damaged","idempotency_key":"k-1"}`
	first := p.tool("create_return", args)
	if first.IsError {
		t.Fatal(first.text())
	}
	var ret struct{ ReturnID, OrderID, Status string }
	if err := json.Unmarshal(first.Structured, &struct {
		ReturnID *string `json:"return_id"`
		OrderID  *string `json:"order_id"`
		Status   *string `json:"status"`
	}{&ret.ReturnID, &ret.OrderID, &ret.Status}); err != nil {
		t.Fatal(err)
	}
	if ret.ReturnID == "" || ret.OrderID != "A1003" || ret.Status != "REQUESTED" {
		t.Fatalf("return = %s", first.Structured)
	}
	if again := p.tool("create_return", args); compact(t, again.Structured) != compact(t, first.Structured) {
		t.Errorf("retry = %s, want the first return %s", again.Structured, first.Structured)
	}
	other := p.tool("create_return", `{"order_id":"A1003","reason":"second one","idempotency_key":"k-2"}`)
	if other.IsError || bytes.Contains(other.Structured, []byte(ret.ReturnID)) {
		t.Errorf("new key = %s, want a new return", other.Structured)
	}

	var summary struct {
		Contents []struct{ Text string } `json:"contents"`
	}
	p.result("resources/read", `{"uri":"order://A1003/summary"}`, &summary)
	var doc struct {
		Returns []struct {
			ReturnID string `json:"return_id"`
		} `json:"returns"`
	}
	if err := json.Unmarshal([]byte(summary.Contents[0].Text), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Returns) != 2 || doc.Returns[0].ReturnID != ret.ReturnID {
		t.Errorf("order summary returns = %+v, want 2 returns, the first %s", doc.Returns, ret.ReturnID)
	}

	for _, args := range []string{
		`{"order_id":"A1002","reason":"not mine","idempotency_key":"k-3"}`,
		`{"order_id":"A9999","reason":"missing","idempotency_key":"k-4"}`,
	} {
		if r := p.tool("create_return", args); !r.IsError || !strings.Contains(r.text(), "order_id") {
			t.Errorf("%s: isError=%v %q, want an error naming order_id", args, r.IsError, r.text())
		}
	}
	if r := p.tool("create_return", `{"order_id":"A1001","reason":"x","idempotency_key":"k-1"}`); !r.IsError ||
		!strings.Contains(r.text(), "idempotency_key") {
		t.Errorf("key reused for another order: isError=%v %q", r.IsError, r.text())
	}
}

func TestInvalidArgumentsNameTheField(t *testing.T) {
	p := start(t, "alice")
	for _, c := range []struct {
		tool, args, field, why string
	}{
		{"get_order_status", `{"order_id":1001}`, "/order_id", "wrong type"},
		{"get_order_status", `{"order_id":"B1001"}`, "/order_id", "pattern"},
		{"get_order_status", `{"order_id":"A12345678"}`, "/order_id", "maxLength"},
		{"get_order_status", `{"order_id":"A1001","extra":1}`, "extra", "unknown property"},
		{"get_order_status", `{}`, "order_id", "missing required"},
		{"search_orders", `{"limit":0}`, "/limit", "below minimum"},
		{"search_orders", `{"limit":51}`, "/limit", "above maximum"},
		{"search_orders", `{"limit":"ten"}`, "/limit", "wrong type"},
		{"search_orders", `{"status":"LOST"}`, "/status", "unknown enum value"},
		{"create_return", `{"order_id":"A1001","reason":"","idempotency_key":"k"}`, "/reason", "empty reason"},
		{"create_return", `{"order_id":"A1001","reason":"` + strings.Repeat("x", 501) + `","idempotency_key":"k"}`, "/reason", "long reason"},
		{"create_return", `{"order_id":"A1001","reason":"r","idempotency_key":""}`, "/idempotency_key", "empty key"},
		{"create_return", `{"order_id":"A1001","reason":"r"}`, "idempotency_key", "missing key"},
	} {
		r := p.tool(c.tool, c.args)
		if !r.IsError || !strings.Contains(r.text(), c.field) {
			t.Errorf("%s %s (%s): isError=%v text %q; want an error naming %s", c.tool, c.args, c.why, r.IsError, r.text(), c.field)
		}
		if r.Structured != nil {
			t.Errorf("%s %s: error result carries structuredContent %s", c.tool, c.args, r.Structured)
		}
	}
	// No return was filed by any of the invalid create_return calls.
	var summary struct {
		Contents []struct{ Text string } `json:"contents"`
	}
	p.result("resources/read", `{"uri":"order://A1001/summary"}`, &summary)
	if !strings.Contains(summary.Contents[0].Text, `"returns":[]`) {
		t.Errorf("summary after invalid calls = %s, want no returns", summary.Contents[0].Text)
	}
}

func TestUnknownToolIsInvalidParams(t *testing.T) {
	p := start(t, "alice")
	r := p.call("tools/call", `{"name":"drop_tables","arguments":{}}`)
	if r.Error == nil || r.Error.Code != -32602 {
		t.Fatalf("unknown tool: %+v %s, want JSON-RPC error -32602", r.Error, r.Result)
	}
}

func TestResources(t *testing.T) {
	p := start(t, "alice")
	var list struct {
		Resources []struct {
			URI      string `json:"uri"`
			Name     string `json:"name"`
			MimeType string `json:"mimeType"`
			Size     int    `json:"size"`
		} `json:"resources"`
	}
	p.result("resources/list", "", &list)
	if len(list.Resources) != 1 || list.Resources[0].URI != orders.PolicyURI || list.Resources[0].Name != "after_sales_policy" {
		t.Fatalf("resources = %+v", list.Resources)
	}
	if list.Resources[0].Size != len(orders.PolicyText) {
		t.Errorf("declared size %d, policy text is %d bytes: update size in mcpgen.yaml", list.Resources[0].Size, len(orders.PolicyText))
	}

	type contents struct {
		Contents []struct {
			URI      string `json:"uri"`
			MimeType string `json:"mimeType"`
			Text     string `json:"text"`
		} `json:"contents"`
		TTLMs      *int64 `json:"ttlMs"`
		CacheScope string `json:"cacheScope"`
	}
	var policy contents
	p.result("resources/read", `{"uri":"policy://after-sales/current"}`, &policy)
	if len(policy.Contents) != 1 || policy.Contents[0].Text != orders.PolicyText || policy.Contents[0].MimeType != "text/plain" {
		t.Errorf("policy = %+v", policy.Contents)
	}
	if policy.TTLMs == nil || *policy.TTLMs != 3600000 || policy.CacheScope != "public" {
		t.Errorf("policy cache hint = %v %s, want 3600000 public", policy.TTLMs, policy.CacheScope)
	}

	var tmpl struct {
		ResourceTemplates []struct {
			URITemplate string `json:"uriTemplate"`
		} `json:"resourceTemplates"`
	}
	p.result("resources/templates/list", "", &tmpl)
	if len(tmpl.ResourceTemplates) != 1 || tmpl.ResourceTemplates[0].URITemplate != "order://{order_id}/summary" {
		t.Errorf("templates = %+v", tmpl.ResourceTemplates)
	}

	var sum contents
	p.result("resources/read", `{"uri":"order://A1001/summary"}`, &sum)
	if len(sum.Contents) != 1 || sum.Contents[0].URI != "order://A1001/summary" || sum.Contents[0].MimeType != "application/json" ||
		sum.Contents[0].Text != `{"order_id":"A1001","status":"SHIPPED","total_cents":4990,"returns":[]}` {
		t.Errorf("summary = %+v", sum.Contents)
	}
	if sum.CacheScope != "private" {
		t.Errorf("summary cacheScope = %q, want private (the read default)", sum.CacheScope)
	}

	for _, uri := range []string{"order://A1002/summary", "order://A9999/summary", "order://nope/summary", "policy://other"} {
		r := p.call("resources/read", fmt.Sprintf(`{"uri":%q}`, uri))
		if r.Error == nil || r.Error.Code != -32602 || compact(t, r.Error.Data) != fmt.Sprintf(`{"uri":%q}`, uri) {
			t.Errorf("read %s as alice: %+v, want -32602 with data {uri}", uri, r.Error)
		}
	}
}

func TestPrompt(t *testing.T) {
	p := start(t, "alice")
	var res struct {
		Messages []struct {
			Role    string `json:"role"`
			Content struct{ Type, Text string }
		} `json:"messages"`
	}
	p.result("prompts/get", `{"name":"reply_order_question","arguments":{"order_id":"A1001"}}`, &res)
	if len(res.Messages) != 1 || res.Messages[0].Role != "user" ||
		!strings.Contains(res.Messages[0].Content.Text, "order A1001 (status SHIPPED)") {
		t.Errorf("prompt = %+v", res.Messages)
	}
	for _, params := range []string{
		`{"name":"reply_order_question","arguments":{}}`,
		`{"name":"reply_order_question","arguments":{"order_id":"A1002"}}`,
		`{"name":"no_such_prompt","arguments":{"order_id":"A1001"}}`,
	} {
		if r := p.call("prompts/get", params); r.Error == nil || r.Error.Code != -32602 {
			t.Errorf("prompts/get %s: %+v, want -32602", params, r.Error)
		}
	}
}

func TestCompletion(t *testing.T) {
	p := start(t, "alice")
	for _, ref := range []string{
		`{"type":"ref/prompt","name":"reply_order_question"}`,
		`{"type":"ref/resource","uri":"order://{order_id}/summary"}`,
	} {
		var res struct {
			Completion struct {
				Values []string `json:"values"`
			} `json:"completion"`
		}
		p.result("completion/complete", `{"ref":`+ref+`,"argument":{"name":"order_id","value":"A100"}}`, &res)
		if fmt.Sprint(res.Completion.Values) != "[A1001 A1003]" {
			t.Errorf("complete %s = %v, want alice's [A1001 A1003]", ref, res.Completion.Values)
		}
	}
}

func TestExitsOnEOFAndSignals(t *testing.T) {
	wait := func(p *proc) error {
		done := make(chan error, 1)
		go func() { done <- p.cmd.Wait() }()
		select {
		case err := <-done:
			return err
		case <-time.After(5 * time.Second):
			p.cmd.Process.Kill()
			return fmt.Errorf("still running 5s later; stderr:\n%s", p.stderr)
		}
	}
	t.Run("EOF", func(t *testing.T) {
		p := start(t, "alice")
		p.call("server/discover", "")
		p.stdin.Close()
		if err := wait(p); err != nil {
			t.Fatalf("after EOF: %v", err)
		}
	})
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			p := start(t, "alice")
			p.call("server/discover", "")
			if err := p.cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			if err := wait(p); err != nil {
				t.Fatalf("after %v: %v", sig, err)
			}
		})
	}
}

// BenchmarkGetOrderStatus measures one get_order_status round trip through
// the runtime's stdio transport, the generated decoder and validator, the
// service and SQLite, over in-process pipes.
func BenchmarkGetOrderStatus(b *testing.B) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	st, err := store.Open(ctx, filepath.Join(b.TempDir(), "orders.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	srv := ordersmcp.NewServer(orders.NewService(st), runtime.Options{Logger: slog.New(slog.DiscardHandler)})
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	var wg sync.WaitGroup
	wg.Go(func() {
		srv.ServeStdio(ctx, inR, outW, runtime.StdioOptions{Identity: &runtime.Identity{Subject: "alice"}})
	})
	defer wg.Wait()
	defer inW.Close()

	req := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":` + meta +
		`,"name":"get_order_status","arguments":{"order_id":"A1001"}}}` + "\n")
	out := bufio.NewReader(outR)
	roundTrip := func() []byte {
		if _, err := inW.Write(req); err != nil {
			b.Fatal(err)
		}
		line, err := out.ReadSlice('\n')
		if err != nil {
			b.Fatal(err)
		}
		return line
	}
	if line := roundTrip(); !bytes.Contains(line, []byte(`"structuredContent":{"found":true,"order_id":"A1001","status":"SHIPPED"}`)) {
		b.Fatalf("unexpected response %s", line)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		roundTrip()
	}
}
