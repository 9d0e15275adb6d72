package runtime

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpgen-dev/mcpgen/runtime/wire"
)

// wireMsg is one message read from the server.
type wireMsg struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int             `json:"code"`
		Message string          `json:"message"`
		Data    json.RawMessage `json:"data"`
	} `json:"error"`
	raw string
}

// result decodes the result into a generic map.
func (m wireMsg) res(t *testing.T) map[string]any {
	t.Helper()
	if m.Error != nil {
		t.Fatalf("want a result, got error %d %q (%s)", m.Error.Code, m.Error.Message, m.raw)
	}
	var v map[string]any
	if err := json.Unmarshal(m.Result, &v); err != nil {
		t.Fatalf("result %s: %v", m.Result, err)
	}
	return v
}

// testClient drives ServeStdio over in-memory pipes.
type testClient struct {
	t     *testing.T
	in    *io.PipeWriter
	lines chan string
	done  chan error
}

// syncBuffer collects logs from concurrent goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func startClient(t *testing.T, s *Server, opts StdioOptions) *testClient {
	t.Helper()
	return startClientCtx(t, context.Background(), s, opts)
}

func startClientCtx(t *testing.T, ctx context.Context, s *Server, opts StdioOptions) *testClient {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	c := &testClient{t: t, in: inW, lines: make(chan string, 1024), done: make(chan error, 1)}
	go func() {
		err := s.ServeStdio(ctx, inR, outW, opts)
		outW.Close()
		c.done <- err
	}()
	go func() {
		sc := bufio.NewScanner(outR)
		sc.Buffer(nil, 16<<20)
		for sc.Scan() {
			c.lines <- sc.Text()
		}
		close(c.lines)
	}()
	t.Cleanup(func() { inW.Close() })
	return c
}

func (c *testClient) send(line string) {
	c.t.Helper()
	if _, err := io.WriteString(c.in, line+"\n"); err != nil {
		c.t.Fatalf("write: %v", err)
	}
}

// recv returns the next message from the server.
func (c *testClient) recv() wireMsg {
	c.t.Helper()
	select {
	case line, ok := <-c.lines:
		if !ok {
			c.t.Fatal("server closed its output")
		}
		var m wireMsg
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			c.t.Fatalf("server wrote invalid JSON %q: %v", line, err)
		}
		m.raw = line
		return m
	case <-time.After(5 * time.Second):
		c.t.Fatal("timed out waiting for the server")
	}
	return wireMsg{}
}

// call sends a request and returns its response, failing on anything else
// arriving first.
func (c *testClient) call(id any, method, params string) wireMsg {
	c.t.Helper()
	c.send(reqLine(id, method, params))
	m := c.recv()
	if want, _ := json.Marshal(id); string(m.ID) != string(want) {
		c.t.Fatalf("want the response to id %s, got %s", want, m.raw)
	}
	return m
}

// closeAndWait closes stdin and returns ServeStdio's result and every line
// written after that.
func (c *testClient) closeAndWait() (error, []wireMsg) {
	c.t.Helper()
	c.in.Close()
	var rest []wireMsg
	for {
		select {
		case line, ok := <-c.lines:
			if !ok {
				return <-c.done, rest
			}
			var m wireMsg
			json.Unmarshal([]byte(line), &m)
			m.raw = line
			rest = append(rest, m)
		case <-time.After(5 * time.Second):
			c.t.Fatal("ServeStdio did not return after EOF")
		}
	}
}

const testMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`

const elicitMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{}}}`

// reqLine builds a request with a valid _meta; params are extra members.
func reqLine(id any, method, params string) string {
	idJSON, _ := json.Marshal(id)
	p := "{" + testMeta
	if params != "" {
		p += "," + params
	}
	p += "}"
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":%q,"params":%s}`, idJSON, method, p)
}

// fixture is a server with a tool, resource, template and prompt of each
// interesting behaviour.
type fixture struct {
	srv       *Server
	logs      *syncBuffer
	cancelled chan struct{}
	barrier   chan struct{}
	entered   chan struct{}
	kept      chan context.Context
}

func toolDef(name string) string {
	return fmt.Sprintf(`{"name":%q,"inputSchema":{"type":"object"}}`, name)
}

func newFixture(t testing.TB, opts Options) *fixture {
	f := &fixture{logs: &syncBuffer{}, cancelled: make(chan struct{}), barrier: make(chan struct{}), entered: make(chan struct{}, 1000), kept: make(chan context.Context, 1)}
	opts.Logger = slog.New(slog.NewTextHandler(f.logs, nil))
	if opts.Info.Name == "" {
		opts.Info = Implementation{Name: "test-server", Version: "1.2.3"}
	}
	s := NewServer(opts)
	f.srv = s
	s.AddTool(ToolDef{Name: "echo", Definition: "{\n  \"name\": \"echo\",\n  \"inputSchema\": {\"type\": \"object\"}\n}",
		Call: func(ctx context.Context, args []byte) (*ToolResult, error) {
			var in struct{ Text string }
			if err := json.Unmarshal(args, &in); err != nil {
				return nil, err
			}
			return &ToolResult{Content: []Content{TextContent(in.Text)}}, nil
		}})
	s.AddTool(ToolDef{Name: "structured", Definition: toolDef("structured"),
		Call: func(ctx context.Context, args []byte) (*ToolResult, error) {
			return StructuredResult([]byte("{\n\"temperature\": 22.5}")), nil
		}})
	s.AddTool(ToolDef{Name: "fail", Definition: toolDef("fail"),
		Call: func(ctx context.Context, args []byte) (*ToolResult, error) {
			return nil, errors.New("departure date must be in the future")
		}})
	s.AddTool(ToolDef{Name: "validate", Definition: toolDef("validate"),
		Call: func(ctx context.Context, args []byte) (*ToolResult, error) {
			return nil, &wire.ValidationError{Errors: []wire.FieldError{{Pointer: "/qty", Message: "must be at least 1"}, {Pointer: "/sku", Message: "is required"}}}
		}})
	s.AddTool(ToolDef{Name: "rpcerr", Definition: toolDef("rpcerr"),
		Call: func(ctx context.Context, args []byte) (*ToolResult, error) {
			return nil, fmt.Errorf("wrapped: %w", &Error{Code: 1234, Message: "custom", Data: map[string]int{"x": 1}})
		}})
	s.AddTool(ToolDef{Name: "panic", Definition: toolDef("panic"),
		Call: func(ctx context.Context, args []byte) (*ToolResult, error) {
			panic("kaboom")
		}})
	s.AddTool(ToolDef{Name: "slow", Definition: toolDef("slow"),
		Call: func(ctx context.Context, args []byte) (*ToolResult, error) {
			f.entered <- struct{}{}
			<-ctx.Done()
			close(f.cancelled)
			return nil, ctx.Err()
		}})
	s.AddTool(ToolDef{Name: "barrier", Definition: toolDef("barrier"),
		Call: func(ctx context.Context, args []byte) (*ToolResult, error) {
			f.entered <- struct{}{}
			<-f.barrier
			return &ToolResult{Content: []Content{TextContent(string(args))}}, nil
		}})
	s.AddTool(ToolDef{Name: "progress", Definition: toolDef("progress"),
		Call: func(ctx context.Context, args []byte) (*ToolResult, error) {
			ReportProgress(ctx, 1, 3, "one")
			ReportProgress(ctx, 1, 3, "again")  // not increasing: dropped
			ReportProgress(ctx, 0.5, 3, "back") // decreasing: dropped
			ReportProgress(ctx, 2, 0, "")
			return &ToolResult{Content: []Content{TextContent("done")}}, nil
		}})
	s.AddTool(ToolDef{Name: "keep_ctx", Definition: toolDef("keep_ctx"),
		Call: func(ctx context.Context, args []byte) (*ToolResult, error) {
			f.kept <- ctx
			return &ToolResult{}, nil
		}})
	s.AddTool(ToolDef{Name: "ask", Definition: toolDef("ask"),
		Call: func(ctx context.Context, args []byte) (*ToolResult, error) {
			name, err := Elicit(ctx, "name", ElicitRequest{Message: "Your name?", Schema: `{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}`})
			if err != nil {
				return nil, err
			}
			ok, err := Elicit(ctx, "confirm", ElicitRequest{Message: "Sure?", Schema: `{"type":"object","properties":{"ok":{"type":"boolean"}}}`})
			if err != nil {
				return nil, err
			}
			return &ToolResult{Content: []Content{TextContent(fmt.Sprintf("%v/%v/%s", name.Content["name"], ok.Content["ok"], ok.Action))}}, nil
		}})
	s.AddTool(ToolDef{Name: "ask_url", Definition: toolDef("ask_url"),
		Call: func(ctx context.Context, args []byte) (*ToolResult, error) {
			if _, err := Elicit(ctx, "key", ElicitRequest{Message: "Set your key", URL: "https://example.com/key"}); err != nil {
				return nil, err
			}
			return &ToolResult{Content: []Content{TextContent("ok")}}, nil
		}})
	s.AddTool(ToolDef{Name: "whoami", Definition: toolDef("whoami"),
		Call: func(ctx context.Context, args []byte) (*ToolResult, error) {
			id, _ := IdentityFrom(ctx)
			m := MetaFrom(ctx)
			return &ToolResult{Content: []Content{TextContent(id.Subject + "|" + m.ClientInfo.Name + "|" + m.LogLevel)}}, nil
		}})
	s.AddResource(ResourceDef{URI: "policy://a", MimeType: "text/plain",
		Definition: `{"uri":"policy://a","name":"policy"}`,
		Read: func(ctx context.Context, uri string) ([]ResourceContents, error) {
			return []ResourceContents{{Text: "be nice"}}, nil
		}})
	s.AddResource(ResourceDef{URI: "policy://public", Cache: &CacheHint{TTLMs: 60000, Scope: "public"},
		Definition: `{"uri":"policy://public","name":"public"}`,
		Read: func(ctx context.Context, uri string) ([]ResourceContents, error) {
			return []ResourceContents{{Blob: []byte{0, 1, 2}, MimeType: "application/octet-stream"}}, nil
		}})
	s.AddResource(ResourceDef{URI: "policy://panic", Definition: `{"uri":"policy://panic","name":"panic"}`,
		Read: func(ctx context.Context, uri string) ([]ResourceContents, error) { panic("read panic") }})
	s.AddResourceTemplate(TemplateDef{URITemplate: "order://{id}/summary", MimeType: "application/json",
		Definition: `{"uriTemplate":"order://{id}/summary","name":"order"}`,
		Read: func(ctx context.Context, uri string, vars map[string]string) ([]ResourceContents, error) {
			if vars["id"] == "missing" {
				return nil, ResourceNotFound(uri)
			}
			return []ResourceContents{{Text: `{"id":"` + vars["id"] + `"}`}}, nil
		},
		Complete: map[string]CompleteFunc{"id": func(ctx context.Context, req CompleteRequest) (Completion, error) {
			return Completion{Values: []string{req.Value + "1", req.Value + "2"}}, nil
		}}})
	s.AddPrompt(PromptDef{Name: "greet", Definition: `{"name":"greet","arguments":[{"name":"name","required":true}]}`,
		Get: func(ctx context.Context, args map[string]string) (*PromptResult, error) {
			if args["name"] == "" {
				return nil, InvalidParams("missing required argument %q", "name")
			}
			return &PromptResult{Description: "greeting", Messages: []PromptMessage{{Role: "user", Content: TextContent("Hello " + args["name"])}}}, nil
		},
		Complete: map[string]CompleteFunc{"name": func(ctx context.Context, req CompleteRequest) (Completion, error) {
			var c Completion
			for i := range 150 {
				c.Values = append(c.Values, fmt.Sprintf("%s%d", req.Value, i))
			}
			return c, nil
		}}})
	return f
}

func TestConcurrentRequests(t *testing.T) {
	f := newFixture(t, Options{})
	c := startClient(t, f.srv, StdioOptions{MaxInFlight: 100})
	const n = 100
	for i := range n {
		c.send(reqLine(i, "tools/call", fmt.Sprintf(`"name":"barrier","arguments":{"i":%d}`, i)))
	}
	// Every handler must be running at once before any may finish.
	for range n {
		select {
		case <-f.entered:
		case <-time.After(5 * time.Second):
			t.Fatal("requests are not handled concurrently")
		}
	}
	close(f.barrier)
	seen := map[string]bool{}
	for range n {
		m := c.recv()
		r := m.res(t)
		text := r["content"].([]any)[0].(map[string]any)["text"].(string)
		if want := fmt.Sprintf(`{"i":%s}`, m.ID); text != want {
			t.Fatalf("response to id %s carries %s: responses mixed up", m.ID, text)
		}
		if seen[string(m.ID)] {
			t.Fatalf("two responses to id %s", m.ID)
		}
		seen[string(m.ID)] = true
	}
}

func TestInFlightBound(t *testing.T) {
	f := newFixture(t, Options{})
	c := startClient(t, f.srv, StdioOptions{MaxInFlight: 2})
	for i := range 3 {
		c.send(reqLine(i, "tools/call", `"name":"barrier"`))
	}
	<-f.entered
	<-f.entered
	select {
	case <-f.entered:
		t.Fatal("a third request ran although MaxInFlight is 2")
	case <-time.After(50 * time.Millisecond):
	}
	close(f.barrier)
	for range 3 {
		c.recv()
	}
}

func TestCancellation(t *testing.T) {
	f := newFixture(t, Options{})
	c := startClient(t, f.srv, StdioOptions{})
	c.send(reqLine("slow-1", "tools/call", `"name":"slow"`))
	<-f.entered
	c.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"slow-1","reason":"user"}}`)
	select {
	case <-f.cancelled:
	case <-time.After(5 * time.Second):
		t.Fatal("the handler's context was not cancelled")
	}
	c.call("next", "tools/list", "")
	err, rest := c.closeAndWait()
	if err != nil {
		t.Fatalf("ServeStdio: %v", err)
	}
	for _, m := range rest {
		t.Errorf("a cancelled request must get no response, got %s", m.raw)
	}
}

func TestProgressBeforeResponse(t *testing.T) {
	f := newFixture(t, Options{})
	c := startClient(t, f.srv, StdioOptions{})
	c.send(`{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"progressToken":"p-1"},"name":"progress"}}`)
	want := []string{
		`{"progressToken":"p-1","progress":1,"total":3,"message":"one"}`,
		`{"progressToken":"p-1","progress":2}`,
	}
	for _, w := range want {
		m := c.recv()
		if m.Method != "notifications/progress" || m.ID != nil {
			t.Fatalf("want a progress notification, got %s", m.raw)
		}
		jsonEq(t, "progress", m.Params, w)
	}
	if m := c.recv(); string(m.ID) != "9" || m.Result == nil {
		t.Fatalf("want the response after the progress, got %s", m.raw)
	}
	// Progress reported after the response is dropped.
	c.send(`{"jsonrpc":"2.0","id":11,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"progressToken":7},"name":"keep_ctx"}}`)
	if m := c.recv(); string(m.ID) != "11" {
		t.Fatalf("got %s", m.raw)
	}
	ReportProgress(<-f.kept, 5, 0, "late")
	c.call("probe", "server/discover", "")
	// Without a progressToken nothing but the response is sent.
	if m := c.call(10, "tools/call", `"name":"progress"`); m.Result == nil {
		t.Fatalf("got %s", m.raw)
	}
}

func TestOversizedLine(t *testing.T) {
	f := newFixture(t, Options{MaxMessageBytes: 1024})
	c := startClient(t, f.srv, StdioOptions{})
	big := reqLine(1, "tools/call", `"name":"echo","arguments":{"text":"`+strings.Repeat("x", 200_000)+`"}`)
	c.send(big)
	m := c.recv()
	if m.Error == nil || m.Error.Code != CodeInvalidRequest || string(m.ID) != "null" || !strings.Contains(m.Error.Message, "1024 bytes") {
		t.Fatalf("want -32600 naming the limit with id null, got %s", m.raw)
	}
	// The reader resynchronises on the next line.
	if m := c.call(2, "tools/call", `"name":"echo","arguments":{"text":"small"}`); m.Error != nil {
		t.Fatalf("got %s", m.raw)
	}
	// Exactly at the limit is accepted.
	line := reqLine(3, "tools/call", `"name":"echo","arguments":{"text":""}`)
	pad := 1024 - len(line)
	line = reqLine(3, "tools/call", `"name":"echo","arguments":{"text":"`+strings.Repeat("y", pad)+`"}`)
	if len(line) != 1024 {
		t.Fatalf("test line is %d bytes", len(line))
	}
	if m := c.call(3, "tools/call", `"name":"echo","arguments":{"text":"`+strings.Repeat("y", pad)+`"}`); m.Error != nil {
		t.Fatalf("a line of exactly MaxMessageBytes must be accepted, got %s", m.raw)
	}
}

func TestDuplicateInFlightID(t *testing.T) {
	f := newFixture(t, Options{})
	c := startClient(t, f.srv, StdioOptions{})
	c.send(reqLine(1, "tools/call", `"name":"barrier"`))
	<-f.entered
	c.send(reqLine(1, "tools/list", ""))
	m := c.recv()
	if m.Error == nil || m.Error.Code != CodeInvalidRequest {
		t.Fatalf("want -32600 for an id in use, got %s", m.raw)
	}
	close(f.barrier)
	if m := c.recv(); m.Result == nil {
		t.Fatalf("got %s", m.raw)
	}
}

func TestEOFDrainsInFlight(t *testing.T) {
	f := newFixture(t, Options{})
	c := startClient(t, f.srv, StdioOptions{})
	c.send(reqLine("last", "tools/call", `"name":"barrier"`))
	<-f.entered
	go func() {
		time.Sleep(50 * time.Millisecond)
		close(f.barrier)
	}()
	err, rest := c.closeAndWait()
	if err != nil {
		t.Fatalf("ServeStdio after EOF = %v, want nil", err)
	}
	if len(rest) != 1 || string(rest[0].ID) != `"last"` || rest[0].Result == nil {
		t.Fatalf("the in-flight request must be answered before ServeStdio returns, got %v", rest)
	}
}

func TestContextCancelStopsServe(t *testing.T) {
	f := newFixture(t, Options{})
	ctx, cancel := context.WithCancel(context.Background())
	c := startClientCtx(t, ctx, f.srv, StdioOptions{})
	c.send(reqLine(1, "tools/call", `"name":"slow"`))
	<-f.entered
	cancel()
	select {
	case err := <-c.done:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("ServeStdio = %v, want context.Canceled", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("ServeStdio did not return after its context was cancelled")
	}
	<-f.cancelled
}

// BenchmarkToolsCallStdio measures one tools/call round trip through the
// stdio transport and the dispatcher, sequentially.
func BenchmarkToolsCallStdio(b *testing.B) {
	f := newFixture(b, Options{})
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- f.srv.ServeStdio(context.Background(), inR, outW, StdioOptions{}); outW.Close() }()
	br := bufio.NewReaderSize(outR, 64<<10)
	line := []byte(reqLine(1, "tools/call", `"name":"echo","arguments":{"text":"hello world"}`) + "\n")
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := inW.Write(line); err != nil {
			b.Fatal(err)
		}
		resp, err := br.ReadSlice('\n')
		if err != nil {
			b.Fatal(err)
		}
		if !bytes.Contains(resp, []byte(`"hello world"`)) {
			b.Fatalf("unexpected response %s", resp)
		}
	}
	b.StopTimer()
	inW.Close()
	<-done
}
