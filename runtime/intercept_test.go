package runtime

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// interceptLog records what a chain of interceptors saw, in order.
type interceptLog struct {
	mu     sync.Mutex
	events []string
	calls  []Call
	outs   []Outcome
}

func (l *interceptLog) add(e string) {
	l.mu.Lock()
	l.events = append(l.events, e)
	l.mu.Unlock()
}

func (l *interceptLog) take() ([]string, []Call, []Outcome) {
	l.mu.Lock()
	defer l.mu.Unlock()
	e, c, o := l.events, l.calls, l.outs
	l.events, l.calls, l.outs = nil, nil, nil
	return e, c, o
}

type ctxMark struct{}

// chain returns three interceptors: the first records the call and the
// outcome and passes a value down in the context; the second refuses
// tools named "refuse" with a JSON-RPC error and "deny" with an isError
// result; the third panics for "boom" and checks the context value.
func (l *interceptLog) chain() []Interceptor {
	return []Interceptor{
		func(ctx context.Context, c *Call, next Next) Outcome {
			l.add("1>")
			o := next(context.WithValue(ctx, ctxMark{}, "from 1"))
			l.mu.Lock()
			cp := *c
			cp.Arguments = append(json.RawMessage(nil), c.Arguments...)
			l.calls = append(l.calls, cp)
			l.outs = append(l.outs, o)
			l.mu.Unlock()
			l.add("<1")
			return o
		},
		func(ctx context.Context, c *Call, next Next) Outcome {
			l.add("2>")
			switch c.Target {
			case "refuse":
				l.add("<2")
				return Outcome{Err: &Error{Code: -32010, Message: "rate limited", Data: map[string]int{"retryAfterMs": 1000}}}
			case "deny":
				l.add("<2")
				return c.ToolError("not allowed for " + c.Identity.Subject)
			}
			o := next(ctx)
			l.add("<2")
			return o
		},
		func(ctx context.Context, c *Call, next Next) Outcome {
			l.add("3>")
			if c.Target == "boom" {
				panic("interceptor panic")
			}
			if ctx.Value(ctxMark{}) != "from 1" {
				return Outcome{Err: &Error{Code: -32099, Message: "context not passed on"}}
			}
			o := next(ctx)
			l.add("<3")
			return o
		},
	}
}

// rpcResult is one answer as a client sees it.
type rpcResult struct {
	result map[string]any
	code   int
	raw    string
}

// interceptClient drives one transport and era.
type interceptClient struct {
	transport, version string
	call               func(t *testing.T, id int, method, params string) rpcResult
	sessionID          string
}

func decodeAnswer(t *testing.T, raw string) rpcResult {
	t.Helper()
	var m struct {
		Result map[string]any `json:"result"`
		Error  *struct{ Code int }
	}
	if err := json.Unmarshal([]byte(raw), &m); err != nil {
		t.Fatalf("answer %q: %v", raw, err)
	}
	r := rpcResult{result: m.Result, raw: raw}
	if m.Error != nil {
		r.code = m.Error.Code
	}
	return r
}

func interceptClients(t *testing.T, f *fixture) []interceptClient {
	alice := &Identity{Subject: "alice"}
	stdioModern := startClient(t, f.srv, StdioOptions{Identity: alice})
	stdioLegacy := startClient(t, f.srv, StdioOptions{Identity: alice})
	stdioLegacy.legacyCall(0, "initialize", legacyInit)
	stdioLegacy.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)

	mux := http.NewServeMux()
	f.srv.Mount(mux, "/mcp", HTTPOptions{Auth: &AuthOptions{
		Verifier: tokens{"t-alice": {Subject: "alice"}},
		Resource: "https://mcp.example.com/mcp", AuthorizationServers: []string{"https://auth.example.com"},
	}})
	ts := httptest.NewServer(mux)
	t.Cleanup(ts.Close)
	url := ts.URL + "/mcp"
	auth := func(h map[string]string) map[string]string {
		h["Authorization"] = "Bearer t-alice"
		return h
	}
	r := do(t, url, hreq{body: legacyLine(0, "initialize", legacyInit), header: auth(map[string]string{"MCP-Protocol-Version": ""})})
	sid := r.header.Get("Mcp-Session-Id")
	if r.status != 200 || sid == "" {
		t.Fatalf("initialize: %d %s", r.status, r.body)
	}

	stdio := func(c *testClient, legacy bool) func(*testing.T, int, string, string) rpcResult {
		return func(t *testing.T, id int, method, params string) rpcResult {
			var m wireMsg
			if legacy {
				m = c.legacyCall(id, method, "{"+params+"}")
			} else {
				m = c.call(id, method, params)
			}
			return decodeAnswer(t, m.raw)
		}
	}
	return []interceptClient{
		{transport: "stdio", version: ProtocolVersion, call: stdio(stdioModern, false)},
		{transport: "stdio", version: "2025-11-25", call: stdio(stdioLegacy, true)},
		{transport: "http", version: ProtocolVersion, call: func(t *testing.T, id int, method, params string) rpcResult {
			var p struct{ Name, URI string }
			json.Unmarshal([]byte("{"+params+"}"), &p)
			return decodeAnswer(t, do(t, url, hreq{body: rpcBody(id, method, params), header: auth(mcpHeaders(method, p.Name+p.URI))}).body)
		}},
		{transport: "http", version: "2025-11-25", sessionID: sid, call: func(t *testing.T, id int, method, params string) rpcResult {
			return decodeAnswer(t, do(t, url, hreq{body: legacyLine(id, method, "{"+params+"}"), header: auth(legacyHeaders(sid))}).body)
		}},
	}
}

func TestInterceptors(t *testing.T) {
	var log interceptLog
	f := newFixture(t, Options{Interceptors: log.chain()})
	for _, name := range []string{"refuse", "deny", "boom"} {
		f.srv.AddTool(ToolDef{Name: name, Definition: toolDef(name), Call: func(ctx context.Context, args []byte) (*ToolResult, error) {
			t.Errorf("tool %s ran although an interceptor short-circuits it", name)
			return &ToolResult{}, nil
		}})
	}
	full := []string{"1>", "2>", "3>", "<3", "<2", "<1"}
	for _, cl := range interceptClients(t, f) {
		t.Run(cl.transport+"/"+cl.version, func(t *testing.T) {
			log.take() // the handshake's notifications and listen registrations
			cases := []struct {
				method, params string
				target         string
				args           string
				events         []string
				isError        bool
				code           int
				text           string
			}{
				{method: "tools/call", params: `"name":"echo","arguments":{"text":"hi"}`, target: "echo", args: `{"text":"hi"}`, events: full, text: "hi"},
				{method: "tools/call", params: `"name":"fail"`, target: "fail", events: full, isError: true, text: "departure date must be in the future"},
				{method: "tools/call", params: `"name":"panic"`, target: "panic", events: full, isError: true, text: "internal error"},
				{method: "tools/call", params: `"name":"rpcerr"`, target: "rpcerr", events: full, code: 1234},
				{method: "tools/call", params: `"name":"refuse"`, target: "refuse", events: []string{"1>", "2>", "<2", "<1"}, code: -32010},
				{method: "tools/call", params: `"name":"deny"`, target: "deny", events: []string{"1>", "2>", "<2", "<1"}, isError: true, text: "not allowed for alice"},
				{method: "tools/call", params: `"name":"boom"`, target: "boom", events: []string{"1>", "2>", "3>"}, isError: true, text: "internal error"},
				{method: "tools/call", params: `"name":"echo","arguments":{"text":"still serving"}`, target: "echo", args: `{"text":"still serving"}`, events: full, text: "still serving"},
				{method: "resources/read", params: `"uri":"order://A1/summary"`, target: "order://A1/summary", events: full},
				{method: "resources/read", params: `"uri":"policy://a"`, target: "policy://a", events: full},
				{method: "prompts/get", params: `"name":"greet","arguments":{"name":"Bo"}`, target: "greet", args: `{"name":"Bo"}`, events: full},
				{method: "completion/complete", params: `"ref":{"type":"ref/resource","uri":"order://{id}/summary"},"argument":{"name":"id","value":"A"}`, events: full},
				{method: "tools/list", events: full},
			}
			if cl.version != ProtocolVersion {
				cases = append(cases, struct {
					method, params string
					target         string
					args           string
					events         []string
					isError        bool
					code           int
					text           string
				}{method: "ping", events: full})
			} else {
				cases = append(cases, struct {
					method, params string
					target         string
					args           string
					events         []string
					isError        bool
					code           int
					text           string
				}{method: "server/discover", events: full})
			}
			for i, tc := range cases {
				r := cl.call(t, 100+i, tc.method, tc.params)
				events, calls, outs := log.take()
				if fmt.Sprint(events) != fmt.Sprint(tc.events) {
					t.Errorf("%s %s: interceptors ran %v, want %v", tc.method, tc.target, events, tc.events)
				}
				if r.code != tc.code {
					t.Errorf("%s %s: error code %d, want %d: %s", tc.method, tc.target, r.code, tc.code, r.raw)
				}
				if tc.code == 0 && tc.method == "tools/call" {
					isErr, _ := r.result["isError"].(bool)
					content, _ := r.result["content"].([]any)
					text := ""
					if len(content) > 0 {
						text, _ = content[0].(map[string]any)["text"].(string)
					}
					if isErr != tc.isError || text != tc.text {
						t.Errorf("%s %s: isError %v text %q, want %v %q", tc.method, tc.target, isErr, text, tc.isError, tc.text)
					}
				}
				if tc.target == "boom" {
					continue // the recording interceptor unwound with the panic
				}
				if len(calls) != 1 {
					t.Fatalf("%s %s: the first interceptor recorded %d calls", tc.method, tc.target, len(calls))
				}
				c, o := calls[0], outs[0]
				if c.Method != tc.method || c.Target != tc.target || string(c.Arguments) != tc.args ||
					c.Transport != cl.transport || c.SessionID != cl.sessionID || c.Meta.ProtocolVersion != cl.version ||
					string(c.RequestID) != fmt.Sprint(100+i) || c.Identity == nil || c.Identity.Subject != "alice" {
					t.Errorf("%s %s: call %+v (identity %v)", tc.method, tc.target, c, c.Identity)
				}
				if o.IsError != tc.isError || (o.Err != nil) != (tc.code != 0) || (o.Err == nil && o.Result == nil) {
					t.Errorf("%s %s: outcome %+v, want isError %v code %d", tc.method, tc.target, o, tc.isError, tc.code)
				}
				if o.Err != nil && o.Err.Code != tc.code {
					t.Errorf("%s %s: outcome error %d, want %d", tc.method, tc.target, o.Err.Code, tc.code)
				}
			}
		})
	}
	if !strings.Contains(f.logs.String(), "interceptor panic") {
		t.Errorf("the interceptor's panic was not logged:\n%s", f.logs.String())
	}
}

// TestInterceptorTraceContext: the W3C trace context in _meta reaches
// interceptors in both eras.
func TestInterceptorTraceContext(t *testing.T) {
	var got []TraceContext
	var mu sync.Mutex
	f := newFixture(t, Options{Interceptors: []Interceptor{func(ctx context.Context, c *Call, next Next) Outcome {
		mu.Lock()
		got = append(got, *c.Meta.Trace)
		mu.Unlock()
		return next(ctx)
	}}})
	const tp = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
	c := startClient(t, f.srv, StdioOptions{})
	c.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"traceparent":"` + tp + `","tracestate":"rojo=1","baggage":"user=alice"}}}`)
	c.recv()
	l := startClient(t, f.srv, StdioOptions{})
	l.legacyCall(0, "initialize", legacyInit)
	l.legacyCall(2, "tools/call", `{"name":"echo","_meta":{"traceparent":"`+tp+`"}}`)
	mu.Lock()
	defer mu.Unlock()
	want := []TraceContext{{Traceparent: tp, Tracestate: "rojo=1", Baggage: "user=alice"}, {Traceparent: tp}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("trace context seen: %+v, want %+v", got, want)
	}
}

// TestOnSession: 2025-11-25 sessions report their start and end on both
// transports; 2026-07-28 requests open none.
func TestOnSession(t *testing.T) {
	events := make(chan string, 10)
	f := newFixture(t, Options{OnSession: func(s SessionInfo) func() {
		events <- "start " + s.Transport + " " + s.ProtocolVersion + " " + s.ClientInfo.Name + " " + s.ID
		return func() { events <- "end " + s.Transport + " " + s.ID }
	}})
	expect := func(want string) {
		t.Helper()
		select {
		case got := <-events:
			if got != want {
				t.Errorf("got %q, want %q", got, want)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("no event, want %q", want)
		}
	}
	modern := startClient(t, f.srv, StdioOptions{})
	modern.call(1, "tools/list", "")
	modern.closeAndWait()
	c := startClient(t, f.srv, StdioOptions{})
	c.legacyCall(0, "initialize", legacyInit)
	expect("start stdio 2025-11-25 old-client ")
	c.closeAndWait()
	expect("end stdio ")

	ts := httptest.NewServer(f.srv.Handler(HTTPOptions{}))
	defer ts.Close()
	sid := startSession(t, ts.URL)
	expect("start http 2025-11-25 old-client " + sid)
	if r := do(t, ts.URL, hreq{method: http.MethodDelete, header: legacyHeaders(sid)}); r.status != 200 && r.status != 204 {
		t.Fatalf("DELETE: %d %s", r.status, r.body)
	}
	expect("end http " + sid)
	select {
	case e := <-events:
		t.Errorf("unexpected %q", e)
	default:
	}
}
