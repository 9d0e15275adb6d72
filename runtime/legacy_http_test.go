package runtime

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"
)

// legacyHeaders are what a 2025-11-25 client sends after initialize.
func legacyHeaders(sid string) map[string]string {
	return map[string]string{"MCP-Protocol-Version": "2025-11-25", "Mcp-Session-Id": sid}
}

// startSession initializes a 2025-11-25 session and returns its id.
func startSession(t *testing.T, url string) string {
	t.Helper()
	r := do(t, url, hreq{body: legacyLine(0, "initialize", legacyInit), header: map[string]string{"MCP-Protocol-Version": ""}})
	if r.status != 200 || r.code(t) != 0 {
		t.Fatalf("initialize: %d %s", r.status, r.body)
	}
	sid := r.header.Get("Mcp-Session-Id")
	if !regexp.MustCompile(`^[0-9a-f]{32}$`).MatchString(sid) {
		t.Fatalf("want a 128-bit hex session id, got %q", sid)
	}
	return sid
}

func legacyServer(t *testing.T, opts HTTPOptions) (*fixture, *httptest.Server, *httpHandler) {
	f := legacyFixture(t)
	h := f.srv.Handler(opts).(*httpHandler)
	ts := httptest.NewServer(h)
	t.Cleanup(ts.Close)
	return f, ts, h
}

func TestLegacyHTTPSession(t *testing.T) {
	_, ts, h := legacyServer(t, HTTPOptions{})
	sid := startSession(t, ts.URL)

	if r := do(t, ts.URL, hreq{body: `{"jsonrpc":"2.0","method":"notifications/initialized"}`, header: legacyHeaders(sid)}); r.status != 202 {
		t.Errorf("initialized notification: %d", r.status)
	}
	r := do(t, ts.URL, hreq{body: legacyLine(1, "tools/list", ""), header: legacyHeaders(sid)})
	if r.status != 200 || strings.Contains(r.body, "resultType") || strings.Contains(r.body, "ttlMs") || !strings.Contains(r.body, `"name":"echo"`) {
		t.Errorf("tools/list in a session: %d %s", r.status, r.body)
	}
	// Errors are in-band: a 404 would mean "session gone" to the client.
	r = do(t, ts.URL, hreq{body: legacyLine(2, "prompts/frobnicate", ""), header: legacyHeaders(sid)})
	if r.status != 200 || r.code(t) != CodeMethodNotFound {
		t.Errorf("unknown method in a session: %d %s", r.status, r.body)
	}
	r = do(t, ts.URL, hreq{body: legacyLine(3, "resources/read", `{"uri":"order://missing/summary"}`), header: legacyHeaders(sid)})
	if r.status != 200 || r.code(t) != CodeResourceNotFoundLegacy {
		t.Errorf("missing resource in a session: %d %s", r.status, r.body)
	}
	if r := do(t, ts.URL, hreq{body: legacyLine(4, "ping", ""), header: legacyHeaders(sid)}); r.status != 200 || !strings.Contains(r.body, `"result":{}`) {
		t.Errorf("ping: %d %s", r.status, r.body)
	}
	// A version header that is not the session's is refused.
	hd := legacyHeaders(sid)
	hd["MCP-Protocol-Version"] = "2025-06-18"
	if r := do(t, ts.URL, hreq{body: legacyLine(5, "ping", ""), header: hd}); r.status != 400 {
		t.Errorf("wrong version header: %d %s", r.status, r.body)
	}

	// A modern request is stateless even when it carries a session header.
	r = do(t, ts.URL, hreq{body: rpcBody(6, "tools/list", ""), header: map[string]string{"Mcp-Method": "tools/list", "Mcp-Session-Id": "unknown"}})
	if r.status != 200 || !strings.Contains(r.body, `"resultType":"complete"`) {
		t.Errorf("modern request with a session header: %d %s", r.status, r.body)
	}

	// Unknown sessions are 404; DELETE ends a session.
	if r := do(t, ts.URL, hreq{body: legacyLine(7, "ping", ""), header: legacyHeaders("0123")}); r.status != 404 {
		t.Errorf("unknown session: %d %s", r.status, r.body)
	}
	if r := do(t, ts.URL, hreq{method: "DELETE", header: legacyHeaders(sid)}); r.status != 200 {
		t.Errorf("DELETE: %d %s", r.status, r.body)
	}
	if r := do(t, ts.URL, hreq{body: legacyLine(8, "ping", ""), header: legacyHeaders(sid)}); r.status != 404 {
		t.Errorf("deleted session: %d %s", r.status, r.body)
	}
	if r := do(t, ts.URL, hreq{method: "DELETE", header: legacyHeaders(sid)}); r.status != 404 {
		t.Errorf("DELETE of a deleted session: %d", r.status)
	}
	if n := h.legacy.count(); n != 0 {
		t.Errorf("%d sessions left after DELETE", n)
	}
	// Without a session, GET stays 405.
	if r := do(t, ts.URL, hreq{method: "GET"}); r.status != 405 {
		t.Errorf("GET without a session: %d", r.status)
	}
}

// openGet opens the session's server-to-client stream.
func openGet(t *testing.T, url, sid string) (*http.Response, *bufio.Reader) {
	t.Helper()
	req, _ := http.NewRequest("GET", url, nil)
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Mcp-Session-Id", sid)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("GET stream: %d %v", resp.StatusCode, resp.Header)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp, bufio.NewReader(resp.Body)
}

func nextData(t *testing.T, br *bufio.Reader) wireMsg {
	t.Helper()
	for {
		ev, err := readEvent(t, br)
		if err != nil {
			t.Fatalf("stream ended: %v", err)
		}
		if ev.data == "" {
			continue
		}
		var m wireMsg
		if err := json.Unmarshal([]byte(ev.data), &m); err != nil {
			t.Fatalf("event %q: %v", ev.data, err)
		}
		m.raw = ev.data
		return m
	}
}

func TestLegacyHTTPGetStreamNotifications(t *testing.T) {
	f, ts, _ := legacyServer(t, HTTPOptions{})
	sid := startSession(t, ts.URL)
	_, br := openGet(t, ts.URL, sid)
	req, _ := http.NewRequest("GET", ts.URL, nil)
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Mcp-Session-Id", sid)
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != 409 {
		t.Errorf("second GET stream: want 409, got %v %v", resp.StatusCode, err)
	}

	if r := do(t, ts.URL, hreq{body: legacyLine(1, "resources/subscribe", `{"uri":"policy://a"}`), header: legacyHeaders(sid)}); r.status != 200 || r.code(t) != 0 {
		t.Fatalf("subscribe: %d %s", r.status, r.body)
	}
	f.srv.NotifyResourceUpdated("policy://a")
	m := nextData(t, br)
	if m.Method != "notifications/resources/updated" || string(m.Params) != `{"uri":"policy://a"}` {
		t.Fatalf("want resources/updated on the GET stream, got %s", m.raw)
	}
	// list_changed notifications reach the open stream without a subscription.
	f.srv.NotifyPromptsListChanged()
	m = nextData(t, br)
	if m.Method != "notifications/prompts/list_changed" {
		t.Fatalf("want prompts/list_changed, got %s", m.raw)
	}
}

func TestLegacyHTTPElicitation(t *testing.T) {
	_, ts, _ := legacyServer(t, HTTPOptions{})
	sid := startSession(t, ts.URL)
	hd := legacyHeaders(sid)
	hd["Accept"] = "application/json, text/event-stream"
	resp, br := openStream(t, ts.URL, legacyLine(9, "tools/call", `{"name":"ask"}`), hd)
	defer resp.Body.Close()
	for i, answer := range []string{`{"action":"accept","content":{"name":"Ada"}}`, `{"action":"decline"}`} {
		req := nextData(t, br)
		if req.Method != "elicitation/create" || req.ID == nil {
			t.Fatalf("round %d: want elicitation/create on the POST stream, got %s", i, req.raw)
		}
		r := do(t, ts.URL, hreq{body: fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":%s}`, req.ID, answer), header: legacyHeaders(sid)})
		if r.status != 202 {
			t.Fatalf("posting the answer: %d %s", r.status, r.body)
		}
	}
	m := nextData(t, br)
	if string(m.ID) != "9" {
		t.Fatalf("want the tools/call response, got %s", m.raw)
	}
	jsonEq(t, "ask", m.Result, `{"content":[{"type":"text","text":"Ada/<nil>/decline"}]}`)
}

func TestLegacyHTTPSessionCap(t *testing.T) {
	_, ts, _ := legacyServer(t, HTTPOptions{MaxSessions: 2})
	startSession(t, ts.URL)
	sid := startSession(t, ts.URL)
	r := do(t, ts.URL, hreq{body: legacyLine(0, "initialize", legacyInit), header: map[string]string{"MCP-Protocol-Version": ""}})
	if r.status != 503 || r.code(t) != codeTransport || !strings.Contains(r.body, "Too many sessions") || r.header.Get("Retry-After") == "" {
		t.Fatalf("initialize over the cap: %d %v %s", r.status, r.header, r.body)
	}
	do(t, ts.URL, hreq{method: "DELETE", header: legacyHeaders(sid)})
	startSession(t, ts.URL) // a freed slot is usable again
}

func TestLegacyHTTPIdleSessionsAreReclaimed(t *testing.T) {
	const idle = 100 * time.Millisecond
	_, ts, h := legacyServer(t, HTTPOptions{SessionIdleTimeout: idle})
	sid := startSession(t, ts.URL)
	busy := startSession(t, ts.URL)
	// A session with an open GET stream is not idle.
	resp, _ := openGet(t, ts.URL, busy)

	deadline := time.Now().Add(5 * time.Second)
	for h.legacy.count() != 1 {
		if time.Now().After(deadline) {
			t.Fatalf("idle session not reclaimed: %d sessions", h.legacy.count())
		}
		time.Sleep(10 * time.Millisecond)
	}
	if r := do(t, ts.URL, hreq{body: legacyLine(1, "ping", ""), header: legacyHeaders(sid)}); r.status != 404 {
		t.Errorf("expired session: want 404, got %d", r.status)
	}
	if r := do(t, ts.URL, hreq{body: legacyLine(1, "ping", ""), header: legacyHeaders(busy)}); r.status != 200 {
		t.Errorf("session with an open stream expired: %d", r.status)
	}
	// Once its stream closes, it goes idle too.
	resp.Body.Close()
	for h.legacy.count() != 0 {
		if time.Now().After(deadline.Add(5 * time.Second)) {
			t.Fatalf("session not reclaimed after its stream closed")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestLegacySessionMemory measures what an idle session costs: the heap
// growth of opening many sessions, per session. The figure is logged
// (go test -v -run SessionMemory) and bounded so that a regression shows.
func TestLegacySessionMemory(t *testing.T) {
	const n = 2000
	f := legacyFixture(t)
	h := f.srv.Handler(HTTPOptions{MaxSessions: n}).(*httpHandler)
	body := legacyLine(0, "initialize", legacyInit)
	init := func() {
		req := httptest.NewRequest("POST", "http://localhost/mcp", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		if w.Code != 200 {
			t.Fatalf("initialize: %d %s", w.Code, w.Body)
		}
	}
	init() // warm up lazily allocated state
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for range n - 1 {
		init()
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	per := (int64(after.HeapAlloc) - int64(before.HeapAlloc)) / (n - 1)
	t.Logf("idle 2025-11-25 session: %d bytes of heap each (%d sessions)", per, n)
	if per > 8<<10 {
		t.Errorf("an idle session costs %d bytes, want under 8 KiB", per)
	}
	if h.legacy.count() != n {
		t.Fatalf("want %d sessions, got %d", n, h.legacy.count())
	}
}

func TestLegacyHTTPAuth(t *testing.T) {
	f := httpFixture(t, Options{})
	auth := &AuthOptions{
		Verifier: tokens{
			"reader": {Subject: "rita", Scopes: []string{"orders:read"}},
			"admin":  {Subject: "ada", Scopes: []string{"orders:read", "admin"}},
		},
		Resource:             "https://mcp.example.com/mcp",
		AuthorizationServers: []string{"https://auth.example.com"},
	}
	ts := httptest.NewServer(f.srv.Handler(HTTPOptions{Auth: auth}))
	defer ts.Close()
	as := func(token string, hd map[string]string) map[string]string {
		hd["Authorization"] = "Bearer " + token
		return hd
	}
	r := do(t, ts.URL, hreq{body: legacyLine(0, "initialize", legacyInit), header: map[string]string{"MCP-Protocol-Version": ""}})
	if r.status != 401 {
		t.Fatalf("initialize without a token: %d", r.status)
	}
	r = do(t, ts.URL, hreq{body: legacyLine(0, "initialize", legacyInit), header: as("reader", map[string]string{"MCP-Protocol-Version": ""})})
	sid := r.header.Get("Mcp-Session-Id")
	if r.status != 200 || sid == "" {
		t.Fatalf("initialize: %d %s", r.status, r.body)
	}
	// tools/list without params hides what the caller's scopes do not allow.
	r = do(t, ts.URL, hreq{body: legacyLine(1, "tools/list", ""), header: as("reader", legacyHeaders(sid))})
	if r.status != 200 || !strings.Contains(r.body, `"name":"echo"`) || strings.Contains(r.body, "admin_only") {
		t.Errorf("tools/list for a reader: %d %s", r.status, r.body)
	}
	r = do(t, ts.URL, hreq{body: legacyLine(2, "tools/call", `{"name":"admin_only"}`), header: as("reader", legacyHeaders(sid))})
	if r.status != 403 {
		t.Errorf("tools/call beyond the caller's scopes: %d %s", r.status, r.body)
	}
	// Another caller cannot use (or end) the session.
	if r := do(t, ts.URL, hreq{body: legacyLine(3, "ping", ""), header: as("admin", legacyHeaders(sid))}); r.status != 404 {
		t.Errorf("session used by another subject: %d", r.status)
	}
	if r := do(t, ts.URL, hreq{method: "DELETE", header: as("admin", legacyHeaders(sid))}); r.status != 404 {
		t.Errorf("session deleted by another subject: %d", r.status)
	}
	if r := do(t, ts.URL, hreq{body: legacyLine(4, "ping", ""), header: as("reader", legacyHeaders(sid))}); r.status != 200 {
		t.Errorf("own session: %d", r.status)
	}
}

func TestLegacyHTTPCancellation(t *testing.T) {
	f, ts, _ := legacyServer(t, HTTPOptions{})
	sid := startSession(t, ts.URL)
	done := make(chan hresp, 1)
	go func() {
		done <- do(t, ts.URL, hreq{body: legacyLine(7, "tools/call", `{"name":"slow"}`), header: legacyHeaders(sid)})
	}()
	<-f.entered
	if r := do(t, ts.URL, hreq{body: `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7}}`, header: legacyHeaders(sid)}); r.status != 202 {
		t.Fatalf("cancel: %d", r.status)
	}
	select {
	case <-f.cancelled:
	case <-time.After(5 * time.Second):
		t.Fatal("notifications/cancelled did not cancel the handler")
	}
	if r := <-done; r.body != "" {
		t.Errorf("a cancelled request gets no response, got %d %q", r.status, r.body)
	}
}
