package orders_test

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/mcpgen-dev/mcpgen/runtime"
)

// httpProc is a running orders-mcp --http with tokens tok-alice and tok-bob.
type httpProc struct {
	url    string
	cmd    *exec.Cmd
	exited chan struct{} // closed when the process has exited
	err    error         // Wait's result, set before exited is closed

	mu     sync.Mutex
	stderr bytes.Buffer
}

func (p *httpProc) logs() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.stderr.String()
}

// alive reports whether the process still runs.
func (p *httpProc) alive() bool {
	select {
	case <-p.exited:
		return false
	default:
		return true
	}
}

// wait returns the exit error once the process has exited, or fails the
// test after d.
func (p *httpProc) wait(t *testing.T, d time.Duration) error {
	t.Helper()
	select {
	case <-p.exited:
		return p.err
	case <-time.After(d):
		t.Fatalf("orders-mcp did not exit in %v; stderr:\n%s", d, p.logs())
		return nil
	}
}

var urlLine = regexp.MustCompile(`url=(http://\S+/mcp)`)

// startHTTPProc runs orders-mcp --http on a free loopback port over db
// (a fresh database when empty) with extra flags, and waits until it
// serves. The process is killed at cleanup if still running.
func startHTTPProc(t *testing.T, db string, extra ...string) *httpProc {
	t.Helper()
	if db == "" {
		db = filepath.Join(t.TempDir(), "orders.db")
	}
	args := append([]string{"--db", db, "--http", "127.0.0.1:0", "--token", "tok-alice=alice", "--token", "tok-bob=bob"}, extra...)
	p := &httpProc{cmd: exec.Command(serverBin, args...), exited: make(chan struct{})}
	stderr, err := p.cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			p.mu.Lock()
			p.stderr.Write(sc.Bytes())
			p.stderr.WriteByte('\n')
			p.mu.Unlock()
			if m := urlLine.FindStringSubmatch(sc.Text()); m != nil {
				select {
				case found <- m[1]:
				default:
				}
			}
		}
		p.err = p.cmd.Wait()
		close(p.exited)
	}()
	t.Cleanup(func() {
		if p.alive() {
			p.cmd.Process.Kill()
			<-p.exited
		}
	})
	select {
	case p.url = <-found:
		return p
	case <-p.exited:
		t.Fatalf("orders-mcp exited before serving: %v\n%s", p.err, p.logs())
	case <-time.After(10 * time.Second):
		t.Fatalf("orders-mcp did not start; stderr:\n%s", p.logs())
	}
	return nil
}

// httpAnswer is one HTTP response, with its JSON-RPC body decoded when it
// has one.
type httpAnswer struct {
	status int
	header http.Header
	raw    []byte
	rpc    response
	isJSON bool
}

// headerValue encodes v as a client must for Mcp-Name and Mcp-Param-*.
func headerValue(v string) string {
	for i := 0; i < len(v); i++ {
		if c := v[i]; c < 0x20 || c > 0x7e {
			return "=?base64?" + base64.StdEncoding.EncodeToString([]byte(v)) + "?="
		}
	}
	return v
}

// mirrorHeaders returns the headers a conforming client derives from body:
// the protocol version, Mcp-Method, Mcp-Name and Mcp-Param-Order-Id, each
// only when the body has a value of the right type to mirror.
func mirrorHeaders(body string) http.Header {
	h := http.Header{"Content-Type": {"application/json"}, "Mcp-Protocol-Version": {"2026-07-28"}}
	var msg struct {
		Method any
		Params struct {
			Name, URI any
			Arguments json.RawMessage
		}
	}
	if json.Unmarshal([]byte(body), &msg) != nil {
		return h
	}
	var args struct {
		OrderID any `json:"order_id"`
	}
	json.Unmarshal(msg.Params.Arguments, &args) // not an object: no header
	m, _ := msg.Method.(string)
	if m != "" {
		h.Set("Mcp-Method", m)
	}
	name := msg.Params.Name
	if m == "resources/read" {
		name = msg.Params.URI
	}
	if s, ok := name.(string); ok && (m == "tools/call" || m == "prompts/get" || m == "resources/read") {
		h.Set("Mcp-Name", headerValue(s))
	}
	if s, ok := args.OrderID.(string); ok && m == "tools/call" {
		h.Set("Mcp-Param-Order-Id", headerValue(s))
	}
	return h
}

// httpClient has no overall timeout (the tests bound waits themselves) and
// enough idle connections for the concurrent clients.
func newHTTPClient() *http.Client {
	return &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 128, DisableCompression: true}, Timeout: 20 * time.Second}
}

// do posts body with the headers a conforming client sends, as token, with
// extra headers set (an empty value deletes the header).
func do(c *http.Client, u, token, body string, extra http.Header) (httpAnswer, error) {
	req, err := http.NewRequest("POST", u, strings.NewReader(body))
	if err != nil {
		return httpAnswer{}, err
	}
	req.Header = mirrorHeaders(body)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for k, vs := range extra {
		req.Header.Del(k)
		for _, v := range vs {
			if v != "" {
				req.Header.Add(k, v)
			}
		}
	}
	resp, err := c.Do(req)
	if err != nil {
		return httpAnswer{}, err
	}
	defer resp.Body.Close()
	a := httpAnswer{status: resp.StatusCode, header: resp.Header}
	if a.raw, err = io.ReadAll(resp.Body); err != nil {
		return a, fmt.Errorf("reading the body after status %d: %w", resp.StatusCode, err)
	}
	if resp.Header.Get("Content-Type") == "application/json" {
		if err := json.Unmarshal(a.raw, &a.rpc); err != nil {
			return a, fmt.Errorf("status %d: body is not JSON-RPC: %.200q", resp.StatusCode, a.raw)
		}
		a.isJSON = true
	}
	return a, nil
}

// httpProbe checks that alice's valid get_order_status call is answered
// with A1001 SHIPPED.
func httpProbe(c *http.Client, u, id string) error {
	a, err := do(c, u, "tok-alice", toolLine(id, "get_order_status", `{"order_id":"A1001"}`), nil)
	if err != nil {
		return err
	}
	var res toolResult
	var b bytes.Buffer
	if a.status != 200 || a.rpc.Error != nil || string(a.rpc.ID) != id || json.Unmarshal(a.rpc.Result, &res) != nil ||
		res.IsError || json.Compact(&b, res.Structured) != nil || b.String() != `{"found":true,"order_id":"A1001","status":"SHIPPED"}` {
		return fmt.Errorf("probe %s: %d %s", id, a.status, a.raw)
	}
	return nil
}

// httpBad is one hostile request and the answer it must get.
type httpBad struct {
	name   string
	body   string
	header http.Header // overrides of the mirrored headers
	status int
	// code is the JSON-RPC error code; 0 with status 200 means a result
	// (isError naming every entry of fields, unless absent).
	code   int
	fields []string
	absent bool
	// noBody marks an answer without a body (202 for notifications).
	noBody bool
}

// fromStdio maps the stdio battery onto HTTP: the same lines as POST
// bodies, with the statuses of the Streamable HTTP transport.
func fromStdio(in badInput) httpBad {
	b := httpBad{name: in.name, body: in.line, code: in.code, fields: in.fields, absent: in.absent}
	switch {
	case in.id == "" && strings.Contains(in.line, `"result"`) || strings.Contains(in.line, `"error"`) && in.id == "":
		b.status, b.code = 400, -32600 // a posted response
	case in.id == "" && strings.TrimSpace(in.line) == "":
		b.status, b.code = 400, -32700 // an empty body
	case in.id == "":
		b.status, b.noBody = 202, true // a notification
	case in.code == 0 || in.absent:
		b.status = 200
	case strings.HasPrefix(in.name, "tool name ") || strings.HasPrefix(in.name, "resource uri "):
		// A name that is not a string cannot be mirrored in Mcp-Name: the
		// header check rejects it before the body is dispatched.
		b.status, b.code = 400, runtime.CodeHeaderMismatch
	case strings.HasPrefix(in.name, "cursor ") || strings.HasPrefix(in.name, "arguments "):
		b.status = 200 // invalid params of a dispatched request: in-band
	case in.code == -32601:
		b.status = 404
	case in.code == -32602 && strings.HasPrefix(in.name, "unknown tool"):
		b.status = 200 // dispatched: answered in-band
	case in.name == "over the size limit":
		b.status, b.code = 413, -32000
	default:
		b.status = 400
	}
	return b
}

// headerBattery are the requests whose body is valid but whose HTTP
// framing lies: missing or mismatching headers, wrong content type, wrong
// HTTP method, missing or unknown token, a foreign Host.
func headerBattery() []httpBad {
	get := toolLine("1", "get_order_status", `{"order_id":"A1001"}`)
	list := reqLine("1", "tools/list", "")
	read := reqLine("1", "resources/read", `"uri":"order://A1001/summary"`)
	h := func(kv ...string) http.Header {
		out := http.Header{}
		for i := 0; i < len(kv); i += 2 {
			out[http.CanonicalHeaderKey(kv[i])] = append(out[http.CanonicalHeaderKey(kv[i])], kv[i+1])
		}
		return out
	}
	mm := runtime.CodeHeaderMismatch
	return []httpBad{
		{name: "missing Mcp-Method", body: list, header: h("Mcp-Method", ""), status: 400, code: mm},
		{name: "Mcp-Method mismatch", body: list, header: h("Mcp-Method", "tools/call"), status: 400, code: mm},
		{name: "two Mcp-Method headers", body: list, header: h("Mcp-Method", "tools/list", "Mcp-Method", "tools/list"), status: 400, code: mm},
		{name: "missing protocol version header", body: list, header: h("Mcp-Protocol-Version", ""), status: 400, code: mm},
		{name: "protocol version header mismatch", body: list, header: h("Mcp-Protocol-Version", "2025-06-18"), status: 400, code: mm},
		{name: "missing Mcp-Name", body: get, header: h("Mcp-Name", ""), status: 400, code: mm},
		{name: "Mcp-Name mismatch", body: get, header: h("Mcp-Name", "create_return"), status: 400, code: mm},
		{name: "Mcp-Name of a resource mismatch", body: read, header: h("Mcp-Name", "order://A1002/summary"), status: 400, code: mm},
		{name: "Mcp-Name not encoded", body: get, header: h("Mcp-Name", "gét_order_status"), status: 400, code: mm},
		{name: "Mcp-Name bad sentinel", body: get, header: h("Mcp-Name", "=?base64?!!?="), status: 400, code: mm},
		{name: "missing Mcp-Param-Order-Id", body: get, header: h("Mcp-Param-Order-Id", ""), status: 400, code: mm},
		{name: "Mcp-Param-Order-Id mismatch", body: get, header: h("Mcp-Param-Order-Id", "A1002"), status: 400, code: mm},
		{name: "Mcp-Param-Order-Id for an absent argument", body: toolLine("1", "create_return", `{"reason":"r","idempotency_key":"k"}`), header: h("Mcp-Param-Order-Id", "A1001"), status: 400, code: mm},
		{name: "notification Mcp-Method mismatch", body: `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`, header: h("Mcp-Method", "tools/call"), status: 400, code: mm},
		{name: "no Content-Type", body: list, header: h("Content-Type", ""), status: 415, code: -32000},
		{name: "text/plain", body: list, header: h("Content-Type", "text/plain"), status: 415, code: -32000},
		{name: "no token", body: list, header: h("Authorization", ""), status: 401},
		{name: "unknown token", body: list, header: h("Authorization", "Bearer tok-mallory"), status: 401},
		{name: "token prefix", body: list, header: h("Authorization", "Bearer tok-alic"), status: 401},
		{name: "basic auth", body: list, header: h("Authorization", "Basic YWxpY2U6eA=="), status: 401},
		{name: "foreign Host", body: list, header: h("Host", "evil.example"), status: 403, code: -32000},
		{name: "foreign Origin", body: list, header: h("Origin", "https://evil.example"), status: 403, code: -32000},
	}
}

// send posts one hostile request; Host is set on the request itself.
func (b httpBad) send(c *http.Client, u string) (httpAnswer, error) {
	hdr := b.header
	if host := hdr.Get("Host"); host != "" {
		hdr = hdr.Clone()
		hdr.Del("Host")
		req, _ := http.NewRequest("POST", u, strings.NewReader(b.body))
		req.Header = mirrorHeaders(b.body)
		req.Header.Set("Authorization", "Bearer tok-alice")
		req.Host = host
		resp, err := c.Do(req)
		if err != nil {
			return httpAnswer{}, err
		}
		defer resp.Body.Close()
		a := httpAnswer{status: resp.StatusCode, header: resp.Header}
		a.raw, _ = io.ReadAll(resp.Body)
		a.isJSON = json.Unmarshal(a.raw, &a.rpc) == nil
		return a, nil
	}
	return do(c, u, "tok-alice", b.body, hdr)
}

func (b httpBad) check(t *testing.T, a httpAnswer) {
	t.Helper()
	if a.status != b.status {
		t.Errorf("status %d, want %d; body %.300s", a.status, b.status, a.raw)
		return
	}
	switch {
	case b.noBody:
		if len(a.raw) != 0 {
			t.Errorf("want no body, got %.200s", a.raw)
		}
	case b.status == 401:
		if !strings.Contains(a.header.Get("WWW-Authenticate"), "resource_metadata=") {
			t.Errorf("401 without a resource_metadata challenge: %q", a.header.Get("WWW-Authenticate"))
		}
	case b.absent:
		var res toolResult
		if !a.isJSON || a.rpc.Error != nil || json.Unmarshal(a.rpc.Result, &res) != nil ||
			(strings.Contains(b.body, "arguments") && !strings.Contains(res.text(), "/order_id: is required")) {
			t.Errorf("null read as absent: want a result, got %.300s", a.raw)
		}
	case b.code != 0:
		if !a.isJSON || a.rpc.Error == nil || a.rpc.Error.Code != b.code {
			t.Errorf("want JSON-RPC error %d, got %.300s", b.code, a.raw)
		}
	default:
		var res toolResult
		if !a.isJSON || a.rpc.Error != nil || json.Unmarshal(a.rpc.Result, &res) != nil || !res.IsError {
			t.Errorf("want an isError result, got %.300s", a.raw)
			return
		}
		for _, f := range b.fields {
			if !strings.Contains(res.text(), f) {
				t.Errorf("error %q does not name %s", res.text(), f)
			}
		}
	}
}

// rawExchange writes a hand-made HTTP/1.1 request on a fresh connection,
// half-closes it, and reads the status line and body.
func rawExchange(u, head, body string) (int, response, error) {
	pu, err := url.Parse(u)
	if err != nil {
		return 0, response{}, err
	}
	conn, err := net.DialTimeout("tcp", pu.Host, 5*time.Second)
	if err != nil {
		return 0, response{}, err
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(15 * time.Second))
	if _, err := io.WriteString(conn, head+body); err != nil {
		return 0, response{}, err
	}
	conn.(*net.TCPConn).CloseWrite()
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		return 0, response{}, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return resp.StatusCode, response{}, err
	}
	var r response
	if err := json.Unmarshal(b, &r); err != nil {
		return resp.StatusCode, r, fmt.Errorf("body %q: %v", b, err)
	}
	return resp.StatusCode, r, nil
}

// TestHTTPBadInputBattery sends the stdio battery as POST bodies, plus the
// HTTP-only ones (header lies, truncated and oversized bodies), to a
// running orders-mcp --http, checking each status and JSON-RPC code, that
// the process lives on, and that a valid client is served right after
// each input and continuously from another goroutine.
func TestHTTPBadInputBattery(t *testing.T) {
	p := startHTTPProc(t, "")
	c := newHTTPClient()

	stop := make(chan struct{})
	var bg sync.WaitGroup
	var bgCalls atomic.Int64
	bg.Add(1)
	go func() {
		defer bg.Done()
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			if err := httpProbe(c, p.url, fmt.Sprintf(`"bg-%d"`, i)); err != nil {
				t.Errorf("concurrent client: %v", err)
				return
			}
			bgCalls.Add(1)
		}
	}()

	var battery []httpBad
	for _, in := range append(append(envelopeBattery(), argumentBattery()...), hostileBattery()...) {
		battery = append(battery, fromStdio(in))
	}
	battery = append(battery, headerBattery()...)
	tried := 0
	for i, b := range battery {
		t.Run(b.name, func(t *testing.T) {
			a, err := b.send(c, p.url)
			if err != nil {
				t.Fatalf("%v", err)
			}
			b.check(t, a)
			if err := httpProbe(c, p.url, fmt.Sprintf(`"after-%d"`, i)); err != nil {
				t.Error(err)
			}
		})
		tried++
		if !p.alive() {
			t.Fatalf("orders-mcp died after %q: %v\n%s", b.name, p.err, p.logs())
		}
	}

	// Framing faults only a raw connection can make.
	head := func(length int) string {
		return fmt.Sprintf("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer tok-alice\r\nContent-Type: application/json\r\n"+
			"MCP-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/list\r\nContent-Length: %d\r\nConnection: close\r\n\r\n", length)
	}
	list := reqLine("1", "tools/list", "")
	for _, raw := range []struct {
		name         string
		head, body   string
		status, code int
	}{
		{"truncated body", head(len(list)), list[:len(list)/2], 400, -32000},
		{"declared length over the limit", head(4<<20 + 1), list, 413, -32000},
		{"chunked body over the limit", strings.Replace(head(0), "Content-Length: 0\r\n", "Transfer-Encoding: chunked\r\n", 1),
			fmt.Sprintf("%x\r\n%s\r\n0\r\n\r\n", 4<<20+1, strings.Repeat(" ", 4<<20+1)), 413, -32000},
	} {
		t.Run(raw.name, func(t *testing.T) {
			status, r, err := rawExchange(p.url, raw.head, raw.body)
			if err != nil {
				t.Fatalf("status %d: %v", status, err)
			}
			if status != raw.status || r.Error == nil || r.Error.Code != raw.code {
				t.Errorf("got %d %+v, want %d %d", status, r.Error, raw.status, raw.code)
			}
		})
		tried++
		if !p.alive() {
			t.Fatalf("orders-mcp died after %q: %v\n%s", raw.name, p.err, p.logs())
		}
	}

	close(stop)
	bg.Wait()
	if !p.alive() {
		t.Fatalf("orders-mcp died: %v", p.err)
	}
	// The notification naming create_return must not have filed a return.
	a, err := do(c, p.url, "tok-alice", reqLine(`"last"`, "resources/read", `"uri":"order://A1001/summary"`), nil)
	if err != nil || a.rpc.Error != nil || strings.Contains(string(a.rpc.Result), "return_id") || !strings.Contains(string(a.rpc.Result), "A1001") {
		t.Errorf("summary after a create_return notification = %v %.300s, want no return filed", err, a.raw)
	}
	// SIGTERM ends it cleanly after all that.
	p.cmd.Process.Signal(syscall.SIGTERM)
	if err := p.wait(t, 10*time.Second); err != nil {
		t.Errorf("exit after SIGTERM: %v\n%s", err, p.logs())
	}
	t.Logf("HTTP bad inputs tried: %d; valid calls from a concurrent client: %d", tried, bgCalls.Load())
}
