package runtime

import (
	"bufio"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

const (
	hMeta       = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`
	hElicitMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{}}}`
)

// hreq is one HTTP request to the endpoint.
type hreq struct {
	method string // HTTP method, default POST
	body   string
	header map[string]string // "" value deletes the default
}

// rpcBody builds a request body with _meta; params are extra members.
func rpcBody(id any, method, params string) string {
	idJSON, _ := json.Marshal(id)
	p := "{" + hMeta
	if params != "" {
		p += "," + params
	}
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":%q,"params":%s}`, idJSON, method, p+"}")
}

// mcpHeaders are the headers a conforming client sends for method/name.
func mcpHeaders(method, name string) map[string]string {
	h := map[string]string{"Mcp-Method": method}
	if name != "" {
		h["Mcp-Name"] = name
	}
	return h
}

type hresp struct {
	status int
	header http.Header
	body   string
}

// rpcError returns the JSON-RPC error code of a JSON body (0 if none).
func (r hresp) code(t *testing.T) int {
	t.Helper()
	var m struct {
		Error *struct{ Code int } `json:"error"`
	}
	if err := json.Unmarshal([]byte(r.body), &m); err != nil {
		t.Fatalf("body %q: %v", r.body, err)
	}
	if m.Error == nil {
		return 0
	}
	return m.Error.Code
}

func do(t *testing.T, url string, q hreq) hresp {
	t.Helper()
	m := q.method
	if m == "" {
		m = http.MethodPost
	}
	req, err := http.NewRequest(m, url, strings.NewReader(q.body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", ProtocolVersion)
	for k, v := range q.header {
		if k == "Host" {
			req.Host = v
			continue
		}
		if v == "" {
			req.Header.Del(k)
		} else {
			req.Header[http.CanonicalHeaderKey(k)] = []string{v}
		}
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return hresp{status: resp.StatusCode, header: resp.Header, body: string(b)}
}

func b64(s string) string { return "=?base64?" + base64.StdEncoding.EncodeToString([]byte(s)) + "?=" }

// httpFixture is the stdio fixture plus tools that exercise HTTP-only
// features: parameter headers and scopes.
func httpFixture(t *testing.T, opts Options) *fixture {
	f := newFixture(t, opts)
	f.srv.AddTool(ToolDef{Name: "route", Definition: toolDef("route"),
		ParamHeaders: []ParamHeader{
			{Name: "Region", Path: []string{"region"}, Type: "string"},
			{Name: "Count", Path: []string{"opts", "count"}, Type: "integer"},
			{Name: "Urgent", Path: []string{"urgent"}, Type: "boolean"},
		},
		Call: func(ctx context.Context, args []byte) (*ToolResult, error) {
			return &ToolResult{Content: []Content{TextContent("routed")}}, nil
		}})
	f.srv.AddTool(ToolDef{Name: "admin_only", Definition: toolDef("admin_only"), Scopes: []string{"admin", "orders:read"},
		Call: func(ctx context.Context, args []byte) (*ToolResult, error) {
			id, _ := IdentityFrom(ctx)
			return &ToolResult{Content: []Content{TextContent("hello " + id.Subject)}}, nil
		}})
	return f
}

func TestHTTPValidation(t *testing.T) {
	f := httpFixture(t, Options{})
	ts := httptest.NewServer(f.srv.Handler(HTTPOptions{MaxBodyBytes: 4096}))
	defer ts.Close()

	route := func(args string, h map[string]string) hreq {
		hd := mcpHeaders("tools/call", "route")
		for k, v := range h {
			hd[k] = v
		}
		return hreq{body: rpcBody(1, "tools/call", `"name":"route","arguments":`+args), header: hd}
	}
	cases := []struct {
		name   string
		req    hreq
		status int
		code   int // 0: a result
	}{
		{"GET is not served", hreq{method: "GET"}, 405, -32000},
		{"DELETE is not served", hreq{method: "DELETE"}, 405, -32000},
		{"PUT is not served", hreq{method: "PUT", body: rpcBody(1, "tools/list", "")}, 405, -32000},
		{"content type text/plain", hreq{body: rpcBody(1, "tools/list", ""), header: map[string]string{"Content-Type": "text/plain", "Mcp-Method": "tools/list"}}, 415, -32000},
		{"content type missing", hreq{body: rpcBody(1, "tools/list", ""), header: map[string]string{"Content-Type": "", "Mcp-Method": "tools/list"}}, 415, -32000},
		{"content type with charset", hreq{body: rpcBody(1, "tools/list", ""), header: map[string]string{"Content-Type": "application/json; charset=utf-8", "Mcp-Method": "tools/list"}}, 200, 0},
		{"body too large", hreq{body: rpcBody(1, "tools/call", `"name":"echo","arguments":{"text":"`+strings.Repeat("x", 5000)+`"}`), header: mcpHeaders("tools/call", "echo")}, 413, -32000},
		{"invalid JSON", hreq{body: `{"jsonrpc":"2.0",`, header: mcpHeaders("tools/list", "")}, 400, -32700},
		{"batch", hreq{body: "[" + rpcBody(1, "tools/list", "") + "]", header: mcpHeaders("tools/list", "")}, 400, -32600},
		{"posted response", hreq{body: `{"jsonrpc":"2.0","id":1,"result":{}}`}, 400, -32600},
		{"not JSON-RPC 2.0", hreq{body: `{"jsonrpc":"1.0","id":1,"method":"tools/list"}`, header: mcpHeaders("tools/list", "")}, 400, -32600},
		// A version mismatch is reported before what else _meta lacks.
		{"_meta claims another version and lacks capabilities", hreq{body: `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2025-11-25"}}}`, header: mcpHeaders("tools/list", "")}, 400, -32020},
		{"_meta lacks capabilities", hreq{body: `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`, header: mcpHeaders("tools/list", "")}, 400, -32602},
		{"missing MCP-Protocol-Version", hreq{body: rpcBody(1, "tools/list", ""), header: map[string]string{"Mcp-Method": "tools/list", "MCP-Protocol-Version": ""}}, 400, -32020},
		{"MCP-Protocol-Version differs from _meta", hreq{body: rpcBody(1, "tools/list", ""), header: map[string]string{"Mcp-Method": "tools/list", "MCP-Protocol-Version": "2025-11-25"}}, 400, -32020},
		{"unsupported version", hreq{body: strings.ReplaceAll(rpcBody(1, "tools/list", ""), "2026-07-28", "1900-01-01"), header: map[string]string{"Mcp-Method": "tools/list", "MCP-Protocol-Version": "1900-01-01"}}, 400, -32022},
		{"missing clientCapabilities", hreq{body: `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`, header: mcpHeaders("tools/list", "")}, 400, -32602},
		{"missing params", hreq{body: `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, header: mcpHeaders("tools/list", "")}, 400, -32602},
		{"missing Mcp-Method", hreq{body: rpcBody(1, "tools/list", "")}, 400, -32020},
		{"Mcp-Method differs", hreq{body: rpcBody(1, "tools/list", ""), header: mcpHeaders("prompts/list", "")}, 400, -32020},
		{"Mcp-Name missing on tools/call", hreq{body: rpcBody(1, "tools/call", `"name":"echo"`), header: mcpHeaders("tools/call", "")}, 400, -32020},
		{"Mcp-Name differs", hreq{body: rpcBody(1, "tools/call", `"name":"echo"`), header: mcpHeaders("tools/call", "fail")}, 400, -32020},
		{"Mcp-Name base64 matches", hreq{body: rpcBody(1, "tools/call", `"name":"echo","arguments":{"text":"hi"}`), header: mcpHeaders("tools/call", b64("echo"))}, 200, 0},
		{"Mcp-Name base64 uppercase marker", hreq{body: rpcBody(1, "tools/call", `"name":"echo"`), header: mcpHeaders("tools/call", "=?BASE64?ZWNobw==?=")}, 400, -32020},
		{"Mcp-Name base64 without padding", hreq{body: rpcBody(1, "tools/call", `"name":"echo"`), header: mcpHeaders("tools/call", "=?base64?ZWNobw?=")}, 400, -32020},
		{"Mcp-Name base64 invalid", hreq{body: rpcBody(1, "tools/call", `"name":"echo"`), header: mcpHeaders("tools/call", "=?base64?!!!!?=")}, 400, -32020},
		{"Mcp-Name raw non-ASCII", hreq{body: rpcBody(1, "tools/call", `"name":"échо"`), header: mcpHeaders("tools/call", "échо")}, 400, -32020},
		{"Mcp-Name on prompts/get", hreq{body: rpcBody(1, "prompts/get", `"name":"greet","arguments":{"name":"Ann"}`), header: mcpHeaders("prompts/get", "greet")}, 200, 0},
		{"Mcp-Name on resources/read", hreq{body: rpcBody(1, "resources/read", `"uri":"order://A1/summary"`), header: mcpHeaders("resources/read", "order://A1/summary")}, 200, 0},
		{"Mcp-Name differs on resources/read", hreq{body: rpcBody(1, "resources/read", `"uri":"order://A1/summary"`), header: mcpHeaders("resources/read", "order://A2/summary")}, 400, -32020},
		{"param headers all equal", route(`{"region":"eu","opts":{"count":42},"urgent":true}`, map[string]string{"Mcp-Param-Region": "eu", "Mcp-Param-Count": "42", "Mcp-Param-Urgent": "true"}), 200, 0},
		{"param integer compared numerically", route(`{"region":"eu","opts":{"count":42.0}}`, map[string]string{"Mcp-Param-Region": "eu", "Mcp-Param-Count": "42"}), 200, 0},
		{"param absent in body and header", route(`{"region":"eu"}`, map[string]string{"Mcp-Param-Region": "eu"}), 200, 0},
		{"param null in body, no header", route(`{"region":"eu","urgent":null,"opts":null}`, map[string]string{"Mcp-Param-Region": "eu"}), 200, 0},
		{"param base64 string", route(`{"region":"Zürich"}`, map[string]string{"Mcp-Param-Region": b64("Zürich")}), 200, 0},
		{"param header missing", route(`{"region":"eu","urgent":false}`, map[string]string{"Mcp-Param-Region": "eu"}), 400, -32020},
		{"param header without body value", route(`{"region":"eu"}`, map[string]string{"Mcp-Param-Region": "eu", "Mcp-Param-Urgent": "true"}), 400, -32020},
		{"param header for null body value", route(`{"region":"eu","urgent":null}`, map[string]string{"Mcp-Param-Region": "eu", "Mcp-Param-Urgent": "true"}), 400, -32020},
		{"param string differs", route(`{"region":"eu"}`, map[string]string{"Mcp-Param-Region": "us"}), 400, -32020},
		{"param integer differs", route(`{"opts":{"count":42}}`, map[string]string{"Mcp-Param-Count": "43"}), 400, -32020},
		{"param boolean spelled True", route(`{"urgent":true}`, map[string]string{"Mcp-Param-Urgent": "True"}), 400, -32020},
		{"param boolean differs", route(`{"urgent":true}`, map[string]string{"Mcp-Param-Urgent": "false"}), 400, -32020},
		{"param invalid characters", route(`{"region":"é"}`, map[string]string{"Mcp-Param-Region": "é"}), 400, -32020},
		// A body value of the wrong JSON type is left to argument
		// validation (an isError naming the field), with or without a header.
		{"param string given a number, no header", route(`{"region":1001}`, nil), 200, 0},
		{"param string given a number, header", route(`{"region":1001}`, map[string]string{"Mcp-Param-Region": "1001"}), 200, 0},
		{"param integer given a string, other header", route(`{"opts":{"count":"42"}}`, map[string]string{"Mcp-Param-Count": "41"}), 200, 0},
		{"param boolean given a string, no header", route(`{"urgent":"yes"}`, nil), 200, 0},
		{"param well-typed next to a wrong one still needs its header", route(`{"region":1001,"urgent":true}`, nil), 400, -32020},
		{"unknown method", hreq{body: rpcBody(1, "tools/frobnicate", ""), header: mcpHeaders("tools/frobnicate", "")}, 404, -32601},
		{"removed method ping", hreq{body: rpcBody(1, "ping", ""), header: mcpHeaders("ping", "")}, 404, -32601},
		{"missing client capability", hreq{body: rpcBody(1, "tools/call", `"name":"ask"`), header: mcpHeaders("tools/call", "ask")}, 400, -32021},
		{"unknown tool is in-band", hreq{body: rpcBody(1, "tools/call", `"name":"nope"`), header: mcpHeaders("tools/call", "nope")}, 200, -32602},
		{"resource not found is in-band", hreq{body: rpcBody(1, "resources/read", `"uri":"order://missing/summary"`), header: mcpHeaders("resources/read", "order://missing/summary")}, 200, -32602},
		{"handler error is in-band", hreq{body: rpcBody(1, "tools/call", `"name":"rpcerr"`), header: mcpHeaders("tools/call", "rpcerr")}, 200, 1234},
		{"initialize with a modern claim", hreq{body: rpcBody(1, "initialize", `"protocolVersion":"2025-11-25"`), header: mcpHeaders("initialize", "")}, 404, -32601},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := do(t, ts.URL, c.req)
			if r.status != c.status {
				t.Fatalf("status %d, want %d (body %s)", r.status, c.status, r.body)
			}
			if got := r.code(t); got != c.code {
				t.Fatalf("code %d, want %d (body %s)", got, c.code, r.body)
			}
			if ct := r.header.Get("Content-Type"); ct != "application/json" {
				t.Errorf("Content-Type %q", ct)
			}
			if c.status == 405 && r.header.Get("Allow") != "POST" {
				t.Errorf("Allow %q, want POST", r.header.Get("Allow"))
			}
		})
	}
}

func TestHTTPErrorBodies(t *testing.T) {
	f := httpFixture(t, Options{})
	ts := httptest.NewServer(f.srv.Handler(HTTPOptions{}))
	defer ts.Close()

	// -32022 says what is supported, so a dual-era client can retry.
	r := do(t, ts.URL, hreq{body: strings.ReplaceAll(rpcBody("v", "tools/list", ""), "2026-07-28", "1900-01-01"),
		header: map[string]string{"Mcp-Method": "tools/list", "MCP-Protocol-Version": "1900-01-01"}})
	jsonEq(t, "unsupported version", json.RawMessage(r.body),
		`{"jsonrpc":"2.0","id":"v","error":{"code":-32022,"message":"Unsupported protocol version","data":{"supported":["2026-07-28"],"requested":"1900-01-01"}}}`)

	// A validation failure echoes the request id so the client can match it.
	r = do(t, ts.URL, hreq{body: rpcBody(7, "tools/call", `"name":"echo"`), header: mcpHeaders("tools/call", "fail")})
	var m struct {
		ID    int
		Error struct{ Message string }
	}
	json.Unmarshal([]byte(r.body), &m)
	if m.ID != 7 || !strings.Contains(m.Error.Message, `"fail"`) || !strings.Contains(m.Error.Message, `"echo"`) {
		t.Errorf("mismatch body %s", r.body)
	}

	// A notification is accepted with no body.
	r = do(t, ts.URL, hreq{body: `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`, header: mcpHeaders("notifications/cancelled", "")})
	if r.status != 202 || r.body != "" {
		t.Errorf("notification: %d %q", r.status, r.body)
	}

	// A successful call is plain JSON with the result.
	r = do(t, ts.URL, hreq{body: rpcBody(1, "tools/call", `"name":"echo","arguments":{"text":"hi"}`), header: mcpHeaders("tools/call", "echo")})
	if r.status != 200 || !strings.Contains(r.body, `"text":"hi"`) || r.header.Get("Content-Type") != "application/json" {
		t.Errorf("echo: %d %s %v", r.status, r.body, r.header)
	}
}

func TestHTTPHostAndOrigin(t *testing.T) {
	f := httpFixture(t, Options{})
	list := func(h map[string]string) hreq {
		hd := mcpHeaders("tools/list", "")
		for k, v := range h {
			hd[k] = v
		}
		return hreq{body: rpcBody(1, "tools/list", ""), header: hd}
	}
	t.Run("defaults", func(t *testing.T) {
		ts := httptest.NewServer(f.srv.Handler(HTTPOptions{}))
		defer ts.Close()
		for _, c := range []struct {
			name   string
			h      map[string]string
			status int
		}{
			{"no Origin (non-browser client)", nil, 200},
			{"foreign Origin", map[string]string{"Origin": "https://evil.example"}, 403},
			{"null Origin", map[string]string{"Origin": "null"}, 403},
			{"localhost Host any port", map[string]string{"Host": "localhost:9999"}, 200},
			{"IPv6 loopback Host", map[string]string{"Host": "[::1]:8080"}, 200},
			{"rebinding Host", map[string]string{"Host": "evil.example:8080"}, 403},
			{"rebinding Host without port", map[string]string{"Host": "evil.example"}, 403},
			{"Host prefixed with localhost", map[string]string{"Host": "localhost.evil.example"}, 403},
		} {
			r := do(t, ts.URL, list(c.h))
			if r.status != c.status {
				t.Errorf("%s: status %d, want %d (%s)", c.name, r.status, c.status, r.body)
			}
			if c.status == 403 && r.code(t) != -32000 {
				t.Errorf("%s: body %s", c.name, r.body)
			}
		}
	})
	t.Run("configured", func(t *testing.T) {
		ts := httptest.NewServer(f.srv.Handler(HTTPOptions{
			AllowedOrigins: []string{"https://app.example.com"},
			AllowedHosts:   []string{"mcp.example.com", "127.0.0.1"},
		}))
		defer ts.Close()
		r := do(t, ts.URL, list(map[string]string{"Origin": "https://app.example.com"}))
		if r.status != 200 || r.header.Get("Access-Control-Allow-Origin") != "https://app.example.com" {
			t.Errorf("allowed origin: %d %v", r.status, r.header)
		}
		if r := do(t, ts.URL, list(map[string]string{"Origin": "https://app.example.com.evil.example"})); r.status != 403 {
			t.Errorf("look-alike origin: %d", r.status)
		}
		if r := do(t, ts.URL, list(map[string]string{"Host": "mcp.example.com"})); r.status != 200 {
			t.Errorf("configured host: %d", r.status)
		}
		if r := do(t, ts.URL, list(map[string]string{"Host": "localhost"})); r.status != 403 {
			t.Errorf("localhost not configured: %d", r.status)
		}
		r = do(t, ts.URL, hreq{method: "OPTIONS", header: map[string]string{"Origin": "https://app.example.com",
			"Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "content-type,mcp-method,mcp-param-region"}})
		if r.status != 204 || r.header.Get("Access-Control-Allow-Headers") != "content-type,mcp-method,mcp-param-region" {
			t.Errorf("preflight: %d %v", r.status, r.header)
		}
		r = do(t, ts.URL, hreq{method: "OPTIONS", header: map[string]string{"Origin": "https://evil.example"}})
		if r.status != 403 {
			t.Errorf("preflight from foreign origin: %d", r.status)
		}
	})
}

// sseEvent is one event read from a stream: data, or a comment.
type sseEvent struct {
	data    string
	comment string
}

func readEvent(t *testing.T, br *bufio.Reader) (sseEvent, error) {
	t.Helper()
	var ev sseEvent
	for {
		line, err := br.ReadString('\n')
		if err != nil {
			return ev, err
		}
		line = strings.TrimSuffix(line, "\n")
		switch {
		case line == "":
			if ev.data != "" || ev.comment != "" {
				return ev, nil
			}
		case strings.HasPrefix(line, ":"):
			ev.comment = strings.TrimSpace(line[1:])
		case strings.HasPrefix(line, "data: "):
			ev.data = line[len("data: "):]
		case line == "event: message":
		default:
			t.Fatalf("unexpected stream line %q", line)
		}
	}
}

func openStream(t *testing.T, url, body string, h map[string]string) (*http.Response, *bufio.Reader) {
	t.Helper()
	req, _ := http.NewRequest("POST", url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("MCP-Protocol-Version", ProtocolVersion)
	for k, v := range h {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	return resp, bufio.NewReader(resp.Body)
}

func TestHTTPProgressStream(t *testing.T) {
	f := httpFixture(t, Options{})
	ts := httptest.NewServer(f.srv.Handler(HTTPOptions{}))
	defer ts.Close()

	body := `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"progressToken":"p1"},"name":"progress"}}`
	resp, br := openStream(t, ts.URL, body, mcpHeaders("tools/call", "progress"))
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" || resp.Header.Get("Cache-Control") != "no-cache" || resp.Header.Get("X-Accel-Buffering") != "no" {
		t.Fatalf("headers %v", resp.Header)
	}
	var got []string
	for {
		ev, err := readEvent(t, br)
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, ev.data)
	}
	if len(got) != 3 {
		t.Fatalf("events %q", got)
	}
	jsonEq(t, "progress 1", json.RawMessage(got[0]), `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p1","progress":1,"total":3,"message":"one"}}`)
	jsonEq(t, "progress 2", json.RawMessage(got[1]), `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p1","progress":2}}`)
	if !strings.Contains(got[2], `"id":5`) || !strings.Contains(got[2], `"text":"done"`) {
		t.Fatalf("response %s", got[2])
	}

	// Without a progress token the same call is a plain JSON response.
	r := do(t, ts.URL, hreq{body: rpcBody(6, "tools/call", `"name":"progress"`), header: mcpHeaders("tools/call", "progress")})
	if r.header.Get("Content-Type") != "application/json" || !strings.Contains(r.body, `"done"`) {
		t.Fatalf("no token: %v %s", r.header, r.body)
	}
}

// writeSpy records writes made after the request's context ended.
type writeSpy struct {
	http.ResponseWriter
	ctx  context.Context
	late *atomic.Int32
}

func (w writeSpy) Write(b []byte) (int, error) {
	if w.ctx.Err() != nil {
		w.late.Add(1)
	}
	return w.ResponseWriter.Write(b)
}

func (w writeSpy) Unwrap() http.ResponseWriter { return w.ResponseWriter }

func TestHTTPClosingStreamCancels(t *testing.T) {
	f := httpFixture(t, Options{})
	cancelled := make(chan struct{})
	finished := make(chan struct{})
	f.srv.AddTool(ToolDef{Name: "long", Definition: toolDef("long"),
		Call: func(ctx context.Context, args []byte) (*ToolResult, error) {
			defer close(finished)
			ReportProgress(ctx, 1, 0, "started")
			<-ctx.Done()
			close(cancelled)
			ReportProgress(ctx, 2, 0, "after cancel")
			return &ToolResult{Content: []Content{TextContent("too late")}}, nil
		}})
	var late atomic.Int32
	h := f.srv.Handler(HTTPOptions{})
	handlerDone := make(chan struct{}, 1)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.ServeHTTP(writeSpy{w, r.Context(), &late}, r)
		handlerDone <- struct{}{}
	}))
	defer ts.Close()

	body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"progressToken":1},"name":"long"}}`
	resp, br := openStream(t, ts.URL, body, mcpHeaders("tools/call", "long"))
	ev, err := readEvent(t, br)
	if err != nil || !strings.Contains(ev.data, `"started"`) {
		t.Fatalf("first event %q %v", ev.data, err)
	}
	resp.Body.Close() // the client gives up: that is the cancellation
	for name, ch := range map[string]chan struct{}{"handler context cancelled": cancelled, "handler returned": finished} {
		select {
		case <-ch:
		case <-time.After(5 * time.Second):
			t.Fatalf("%s: timed out", name)
		}
	}
	<-handlerDone
	if n := late.Load(); n != 0 {
		t.Fatalf("%d writes after the client closed the stream", n)
	}
}

func TestHTTPListenKeepAliveAndShutdown(t *testing.T) {
	f := httpFixture(t, Options{})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() {
		served <- Serve(ctx, ln, f.srv.Handler(HTTPOptions{KeepAlive: 30 * time.Millisecond}), ServeOptions{Logger: f.srv.logger})
	}()
	url := "http://" + ln.Addr().String()

	body := rpcBody("listen-1", "subscriptions/listen", `"notifications":{"toolsListChanged":true}`)
	resp, br := openStream(t, url, body, mcpHeaders("subscriptions/listen", ""))
	defer resp.Body.Close()
	if resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("listen headers %v", resp.Header)
	}
	ev, err := readEvent(t, br)
	if err != nil || !strings.Contains(ev.data, "notifications/subscriptions/acknowledged") {
		t.Fatalf("ack %q %v", ev.data, err)
	}
	ev, err = readEvent(t, br)
	if err != nil || ev.comment != "keep-alive" {
		t.Fatalf("want a keep-alive, got %+v %v", ev, err)
	}
	f.srv.NotifyToolsListChanged()
	for {
		ev, err = readEvent(t, br)
		if err != nil {
			t.Fatal(err)
		}
		if ev.data != "" {
			break
		}
	}
	jsonEq(t, "list changed", json.RawMessage(ev.data), `{"jsonrpc":"2.0","method":"notifications/tools/list_changed","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":"listen-1"}}}`)

	// Shutdown ends the stream with the listen result, then Serve returns.
	cancel()
	for {
		ev, err = readEvent(t, br)
		if err != nil {
			t.Fatalf("stream ended without the listen result: %v", err)
		}
		if ev.data != "" {
			break
		}
	}
	if !strings.Contains(ev.data, `"id":"listen-1"`) || !strings.Contains(ev.data, `"resultType":"complete"`) {
		t.Fatalf("listen result %s", ev.data)
	}
	if _, err := readEvent(t, br); err != io.EOF {
		t.Fatalf("stream not closed after the result: %v", err)
	}
	select {
	case err := <-served:
		if err != nil {
			t.Fatalf("Serve: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Serve did not return")
	}
}

func TestHTTPShutdownDrainsInFlight(t *testing.T) {
	f := httpFixture(t, Options{})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- Serve(ctx, ln, f.srv.Handler(HTTPOptions{}), ServeOptions{Logger: f.srv.logger}) }()
	url := "http://" + ln.Addr().String()

	const n = 5
	results := make(chan hresp, n)
	for i := range n {
		go func() {
			results <- do(t, url, hreq{body: rpcBody(i, "tools/call", fmt.Sprintf(`"name":"barrier","arguments":{"i":%d}`, i)), header: mcpHeaders("tools/call", "barrier")})
		}()
	}
	for range n {
		<-f.entered
	}
	cancel()
	time.Sleep(50 * time.Millisecond)
	select {
	case err := <-served:
		t.Fatalf("Serve returned with requests in flight: %v", err)
	default:
	}
	close(f.barrier)
	for range n {
		r := <-results
		if r.status != 200 || !strings.Contains(r.body, `\"i\":`) {
			t.Errorf("drained request: %d %s", r.status, r.body)
		}
	}
	if err := <-served; err != nil {
		t.Fatalf("Serve: %v", err)
	}
	if _, err := net.DialTimeout("tcp", ln.Addr().String(), time.Second); err == nil {
		t.Error("still accepting connections after shutdown")
	}
}

func TestHTTPConcurrencyCap(t *testing.T) {
	f := httpFixture(t, Options{})
	ts := httptest.NewServer(f.srv.Handler(HTTPOptions{MaxConcurrent: 2}))
	defer ts.Close()
	results := make(chan hresp, 2)
	for i := range 2 {
		go func() {
			results <- do(t, ts.URL, hreq{body: rpcBody(i, "tools/call", `"name":"barrier"`), header: mcpHeaders("tools/call", "barrier")})
		}()
	}
	<-f.entered
	<-f.entered
	r := do(t, ts.URL, hreq{body: rpcBody(9, "tools/list", ""), header: mcpHeaders("tools/list", "")})
	if r.status != 503 || r.header.Get("Retry-After") == "" || r.code(t) != -32000 || !strings.Contains(r.body, "busy") {
		t.Fatalf("over the cap: %d %v %s", r.status, r.header, r.body)
	}
	close(f.barrier)
	for range 2 {
		if r := <-results; r.status != 200 {
			t.Errorf("capped request: %d", r.status)
		}
	}
	if r := do(t, ts.URL, hreq{body: rpcBody(10, "tools/list", ""), header: mcpHeaders("tools/list", "")}); r.status != 200 {
		t.Errorf("after release: %d", r.status)
	}
}

func TestHTTPManyConcurrentRequests(t *testing.T) {
	f := httpFixture(t, Options{})
	ts := httptest.NewServer(f.srv.Handler(HTTPOptions{}))
	defer ts.Close()
	var wg sync.WaitGroup
	for i := range 200 {
		wg.Go(func() {
			text := fmt.Sprintf("msg-%d", i)
			r := do(t, ts.URL, hreq{body: rpcBody(i, "tools/call", `"name":"echo","arguments":{"text":"`+text+`"}`), header: mcpHeaders("tools/call", "echo")})
			var m struct {
				ID     int
				Result struct{ Content []struct{ Text string } }
			}
			if err := json.Unmarshal([]byte(r.body), &m); err != nil || r.status != 200 || m.ID != i ||
				len(m.Result.Content) != 1 || m.Result.Content[0].Text != text {
				t.Errorf("request %d: %d %s", i, r.status, r.body)
			}
		})
	}
	wg.Wait()
}

func TestHTTPSlowClients(t *testing.T) {
	f := httpFixture(t, Options{})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go Serve(ctx, ln, f.srv.Handler(HTTPOptions{BodyReadTimeout: 200 * time.Millisecond}),
		ServeOptions{ReadHeaderTimeout: 200 * time.Millisecond, Logger: f.srv.logger})

	t.Run("headers never finish", func(t *testing.T) {
		c, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		io.WriteString(c, "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
		c.SetReadDeadline(time.Now().Add(5 * time.Second))
		start := time.Now()
		io.ReadAll(c) // returns once the server drops the connection
		if d := time.Since(start); d > 3*time.Second {
			t.Fatalf("connection held %v", d)
		}
	})
	t.Run("body never finishes", func(t *testing.T) {
		c, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		io.WriteString(c, "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"jsonrpc\":")
		c.SetReadDeadline(time.Now().Add(5 * time.Second))
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil {
			t.Fatal(err)
		}
		if resp.StatusCode != http.StatusRequestTimeout {
			t.Fatalf("status %d", resp.StatusCode)
		}
	})
}

// tokens is a TokenVerifier over a fixed table.
type tokens map[string]Identity

func (m tokens) Verify(ctx context.Context, token string, r *http.Request) (Identity, error) {
	if id, ok := m[token]; ok {
		return id, nil
	}
	return Identity{}, fmt.Errorf("unknown token")
}

func TestHTTPAuth(t *testing.T) {
	f := httpFixture(t, Options{ListCache: CacheHint{TTLMs: 5000, Scope: "public"}})
	auth := &AuthOptions{
		Verifier: tokens{
			"reader": {Subject: "rita", Scopes: []string{"orders:read"}},
			"admin":  {Subject: "ada", Scopes: []string{"orders:read", "admin"}},
		},
		Resource:             "https://mcp.example.com/mcp",
		AuthorizationServers: []string{"https://auth.example.com"},
		ScopesSupported:      []string{"orders:read", "admin"},
	}
	mux := http.NewServeMux()
	f.srv.Mount(mux, "/mcp", HTTPOptions{Auth: auth})
	ts := httptest.NewServer(mux)
	defer ts.Close()
	url := ts.URL + "/mcp"
	metaURL := ts.URL + "/.well-known/oauth-protected-resource/mcp"

	call := func(token, tool string) hresp {
		h := mcpHeaders("tools/call", tool)
		if token != "" {
			h["Authorization"] = "Bearer " + token
		}
		return do(t, url, hreq{body: rpcBody(1, "tools/call", `"name":"`+tool+`"`), header: h})
	}
	r := call("", "echo")
	if r.status != 401 || r.header.Get("WWW-Authenticate") != `Bearer resource_metadata="`+metaURL+`"` {
		t.Errorf("no token: %d %v", r.status, r.header)
	}
	r = call("forged", "echo")
	if r.status != 401 || !strings.Contains(r.header.Get("WWW-Authenticate"), `error="invalid_token"`) ||
		!strings.Contains(r.header.Get("WWW-Authenticate"), `resource_metadata="`+metaURL+`"`) {
		t.Errorf("bad token: %d %v", r.status, r.header)
	}
	r = call("reader", "admin_only")
	if r.status != 403 || r.header.Get("WWW-Authenticate") != `Bearer error="insufficient_scope", scope="admin orders:read", resource_metadata="`+metaURL+`"` {
		t.Errorf("insufficient scope: %d %v %s", r.status, r.header, r.body)
	}
	r = call("admin", "admin_only")
	if r.status != 200 || !strings.Contains(r.body, "hello ada") {
		t.Errorf("admin: %d %s", r.status, r.body)
	}
	r = call("reader", "whoami")
	if r.status != 200 || r.code(t) != 0 {
		t.Errorf("identity reaches the handler: %d %s", r.status, r.body)
	}

	list := func(token string) (names []string, scope string) {
		r := do(t, url, hreq{body: rpcBody(1, "tools/list", ""), header: map[string]string{"Mcp-Method": "tools/list", "Authorization": "Bearer " + token}})
		var m struct {
			Result struct {
				Tools      []struct{ Name string }
				CacheScope string
			}
		}
		if err := json.Unmarshal([]byte(r.body), &m); err != nil || r.status != 200 {
			t.Fatalf("tools/list: %d %s", r.status, r.body)
		}
		for _, tl := range m.Result.Tools {
			names = append(names, tl.Name)
		}
		return names, m.Result.CacheScope
	}
	names, scope := list("reader")
	if strings.Contains(strings.Join(names, ","), "admin_only") || !strings.Contains(strings.Join(names, ","), "echo") || scope != "private" {
		t.Errorf("reader's tools: %v %s", names, scope)
	}
	names, scope = list("admin")
	if !strings.Contains(strings.Join(names, ","), "admin_only") || scope != "private" {
		t.Errorf("admin's tools: %v %s", names, scope)
	}

	resp, err := http.Get(metaURL)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	jsonEq(t, "resource metadata", b, `{"resource":"https://mcp.example.com/mcp","authorization_servers":["https://auth.example.com"],"scopes_supported":["orders:read","admin"],"bearer_methods_supported":["header"]}`)
}

// roundRobin is a tiny reverse proxy alternating between backends.
type roundRobin struct {
	backends []http.Handler
	n        atomic.Int64
	hits     []atomic.Int64
}

func (p *roundRobin) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	i := int(p.n.Add(1)-1) % len(p.backends)
	p.hits[i].Add(1)
	p.backends[i].ServeHTTP(w, r)
}

// TestHTTPReplicasShareRequestState runs an input_required round trip
// whose rounds land on different Servers: replicas given the same
// Options.StateKeys accept each other's requestState.
func TestHTTPReplicasShareRequestState(t *testing.T) {
	run := func(keyA, keyB []byte) []hresp {
		a := httpFixture(t, Options{StateKeys: [][]byte{keyA}})
		b := httpFixture(t, Options{StateKeys: [][]byte{keyB}})
		proxy := &roundRobin{backends: []http.Handler{a.srv.Handler(HTTPOptions{}), b.srv.Handler(HTTPOptions{})}, hits: make([]atomic.Int64, 2)}
		ts := httptest.NewServer(proxy)
		defer ts.Close()
		ask := func(id int, extra string) hresp {
			p := `"name":"ask"`
			if extra != "" {
				p += "," + extra
			}
			body := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{%s,%s}}`, id, hElicitMeta, p)
			return do(t, ts.URL, hreq{body: body, header: mcpHeaders("tools/call", "ask")})
		}
		var out []hresp
		state := func(r hresp) string {
			var m struct{ Result struct{ RequestState string } }
			json.Unmarshal([]byte(r.body), &m)
			return m.Result.RequestState
		}
		r := ask(1, "")
		out = append(out, r)
		r = ask(2, `"inputResponses":{"name":{"action":"accept","content":{"name":"Ann"}}},"requestState":"`+state(r)+`"`)
		out = append(out, r)
		if s := state(r); s != "" {
			out = append(out, ask(3, `"inputResponses":{"confirm":{"action":"accept","content":{"ok":true}}},"requestState":"`+s+`"`))
		}
		if proxy.hits[0].Load() == 0 || proxy.hits[1].Load() == 0 {
			t.Fatalf("round robin did not use both replicas")
		}
		return out
	}
	shared := []byte("0123456789abcdef0123456789abcdef")
	rs := run(shared, shared)
	if len(rs) != 3 || !strings.Contains(rs[0].body, `"input_required"`) || !strings.Contains(rs[1].body, `"input_required"`) ||
		!strings.Contains(rs[2].body, `"text":"Ann/true/accept"`) {
		t.Fatalf("shared keys: %+v", rs)
	}
	rs = run(shared, []byte("another key, another deployment"))
	if len(rs) < 2 || !strings.Contains(rs[1].body, "invalid requestState") {
		t.Fatalf("different keys must not accept each other's state: %+v", rs)
	}
}

func TestListenAddr(t *testing.T) {
	for in, want := range map[string]string{
		"8080":           "127.0.0.1:8080",
		":8080":          "127.0.0.1:8080",
		"0.0.0.0:8080":   "0.0.0.0:8080",
		"127.0.0.1:0":    "127.0.0.1:0",
		"[::1]:9000":     "[::1]:9000",
		"example.com:80": "example.com:80",
	} {
		if got := listenAddr(in); got != want {
			t.Errorf("listenAddr(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestHTTPOversizedChunkedBody sends a body of unknown length: the limit
// holds while reading, not only against Content-Length.
func TestHTTPOversizedChunkedBody(t *testing.T) {
	f := httpFixture(t, Options{})
	ts := httptest.NewServer(f.srv.Handler(HTTPOptions{MaxBodyBytes: 1024}))
	defer ts.Close()
	body := rpcBody(1, "tools/call", `"name":"echo","arguments":{"text":"`+strings.Repeat("x", 2000)+`"}`)
	req, _ := http.NewRequest("POST", ts.URL, io.MultiReader(strings.NewReader(body)))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("MCP-Protocol-Version", ProtocolVersion)
	req.Header.Set("Mcp-Method", "tools/call")
	req.Header.Set("Mcp-Name", "echo")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if req.ContentLength != 0 {
		t.Fatalf("request has a Content-Length: the read limit is not exercised")
	}
	if resp.StatusCode != http.StatusRequestEntityTooLarge {
		t.Fatalf("status %d, want 413", resp.StatusCode)
	}
}

// TestHTTPListenClientGone closes a listen stream from the client side: the
// subscription is dropped and later changes are not written for it.
func TestHTTPListenClientGone(t *testing.T) {
	f := httpFixture(t, Options{})
	ts := httptest.NewServer(f.srv.Handler(HTTPOptions{}))
	defer ts.Close()
	resp, br := openStream(t, ts.URL, rpcBody("l", "subscriptions/listen", `"notifications":{"toolsListChanged":true}`), mcpHeaders("subscriptions/listen", ""))
	if ev, err := readEvent(t, br); err != nil || !strings.Contains(ev.data, "acknowledged") {
		t.Fatalf("ack %+v %v", ev, err)
	}
	resp.Body.Close()
	deadline := time.Now().Add(5 * time.Second)
	for {
		f.srv.subs.mu.Lock()
		n := len(f.srv.subs.listeners)
		f.srv.subs.mu.Unlock()
		if n == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d listeners still registered after the client left", n)
		}
		f.srv.NotifyToolsListChanged()
		time.Sleep(10 * time.Millisecond)
	}
}

// BenchmarkHTTPHandlerToolsCall measures one tools/call through the HTTP
// handler's validation and the dispatcher, without the network.
func BenchmarkHTTPHandlerToolsCall(b *testing.B) {
	f := newFixture(b, Options{})
	h := f.srv.Handler(HTTPOptions{})
	body := rpcBody(1, "tools/call", `"name":"echo","arguments":{"text":"hello world"}`)
	b.ReportAllocs()
	for b.Loop() {
		req := httptest.NewRequest("POST", "http://127.0.0.1/mcp", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("MCP-Protocol-Version", ProtocolVersion)
		req.Header.Set("Mcp-Method", "tools/call")
		req.Header.Set("Mcp-Name", "echo")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		if w.Code != 200 || !strings.Contains(w.Body.String(), `"hello world"`) {
			b.Fatalf("unexpected response %d %s", w.Code, w.Body)
		}
	}
}
