package natsbroker_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"

	"github.com/mcpgen-dev/mcpgen/runtime"
	"github.com/mcpgen-dev/mcpgen/runtime/natsbroker"
)

// startNATS runs a real NATS server in the test process on port (0: any),
// with JetStream, which keeps the record of ended sessions.
func startNATS(t testing.TB, port int) *server.Server {
	t.Helper()
	if port == 0 {
		port = -1
	}
	ns, err := server.NewServer(&server.Options{Host: "127.0.0.1", Port: port, NoLog: true, NoSigs: true,
		JetStream: true, StoreDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	go ns.Start()
	if !ns.ReadyForConnections(10 * time.Second) {
		t.Fatal("nats-server did not start")
	}
	// Registered first, so it runs last: the replicas close before it.
	t.Cleanup(ns.Shutdown)
	return ns
}

// replica is one server process's worth: a Server, its broker connection
// and its HTTP endpoint.
type replica struct {
	srv    *runtime.Server
	broker *natsbroker.Broker
	ts     *httptest.Server
	// calls counts tools/call of "count" served here.
	calls atomic.Int64
}

var sharedKey = []byte("0123456789abcdef0123456789abcdef")

func startReplica(t testing.TB, natsURL string, logs io.Writer) *replica {
	t.Helper()
	logger := slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelInfo}))
	b, err := natsbroker.Connect(natsbroker.Options{URL: natsURL, Prefix: "test", ReconnectWait: 50 * time.Millisecond, Logger: logger})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Close)
	r := &replica{broker: b}
	r.srv = runtime.NewServer(runtime.Options{Info: runtime.Implementation{Name: "replicas", Version: "1"}, StateKeys: [][]byte{sharedKey}, Broker: b, Logger: logger})
	r.srv.AddTool(runtime.ToolDef{Name: "count", Definition: `{"name":"count","inputSchema":{"type":"object"}}`,
		Call: func(ctx context.Context, args []byte) (*runtime.ToolResult, error) {
			r.calls.Add(1)
			return runtime.StructuredResult([]byte(`{"ok":true}`)), nil
		}})
	r.srv.AddTool(runtime.ToolDef{Name: "confirm", Definition: `{"name":"confirm","inputSchema":{"type":"object"}}`,
		Call: func(ctx context.Context, args []byte) (*runtime.ToolResult, error) {
			res, err := runtime.Elicit(ctx, "confirm", runtime.ElicitRequest{Message: "Sure?",
				Schema: `{"type":"object","properties":{"yes":{"type":"boolean"}},"required":["yes"]}`})
			if err != nil {
				return nil, err
			}
			return runtime.StructuredResult(fmt.Appendf(nil, `{"action":%q,"yes":%v}`, res.Action, res.Content["yes"])), nil
		}})
	r.srv.AddTool(runtime.ToolDef{Name: "wait", Definition: `{"name":"wait","inputSchema":{"type":"object"}}`,
		Call: func(ctx context.Context, args []byte) (*runtime.ToolResult, error) {
			<-ctx.Done()
			return nil, ctx.Err()
		}})
	r.srv.AddResource(runtime.ResourceDef{URI: "test://doc", Definition: `{"uri":"test://doc","name":"doc"}`, MimeType: "text/plain",
		Read: func(ctx context.Context, uri string) ([]runtime.ResourceContents, error) {
			return []runtime.ResourceContents{{Text: "doc"}}, nil
		}})
	r.ts = httptest.NewServer(r.srv.Handler(runtime.HTTPOptions{Logger: logger, KeepAlive: 200 * time.Millisecond}))
	t.Cleanup(r.ts.Close)
	return r
}

// roundRobin is a balancer with no stickiness: each request goes to the
// next backend. It has a transport of its own, apart from the test's
// clients, and streams responses as they come.
//
// It reads each request body whole before forwarding it. A proxy that
// streams the body instead (httputil.ReverseProxy as it is) lets the
// outbound transport read the inbound body from its own goroutine, also
// after the response has begun or the handler has returned, which Go's
// HTTP/1 server does not support (golang/go#40747, #46866): the
// connection's next request, here a tools/call waiting for its
// elicitation answer, then has its context cancelled and its stream cut.
// With ReverseProxy that cut 5 runs of TestSessionAcrossReplicas in 30
// under -race; with the body read first, none.
func roundRobin(t testing.TB, backends []*replica) *httptest.Server {
	var n atomic.Int64
	transport := &http.Transport{MaxIdleConnsPerHost: 64}
	t.Cleanup(transport.CloseIdleConnections)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		target := backends[int(n.Add(1)-1)%len(backends)].ts.URL
		out, _ := http.NewRequestWithContext(r.Context(), r.Method, target, bytes.NewReader(body))
		out.Header = r.Header.Clone()
		resp, err := transport.RoundTrip(out)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		defer resp.Body.Close()
		for k, v := range resp.Header {
			w.Header()[k] = v
		}
		w.WriteHeader(resp.StatusCode)
		rc := http.NewResponseController(w)
		rc.Flush()
		buf := make([]byte, 32<<10)
		for {
			k, err := resp.Body.Read(buf)
			if k > 0 {
				w.Write(buf[:k])
				rc.Flush()
			}
			if err != nil {
				return
			}
		}
	}))
	t.Cleanup(ts.Close)
	return ts
}

// legacyClient speaks 2025-11-25 over HTTP to one URL.
type legacyClient struct {
	t      *testing.T
	url    string
	sid    string
	client *http.Client // nil: http.DefaultClient
}

func (c *legacyClient) post(body string) *http.Response {
	c.t.Helper()
	resp, err := c.do(body)
	if err != nil {
		c.t.Fatal(err)
	}
	return resp
}

// do posts body in the session.
func (c *legacyClient) do(body string) (*http.Response, error) {
	req, _ := http.NewRequest("POST", c.url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if c.sid != "" {
		req.Header.Set("Mcp-Session-Id", c.sid)
		req.Header.Set("MCP-Protocol-Version", "2025-11-25")
	}
	hc := c.client
	if hc == nil {
		hc = http.DefaultClient
	}
	return hc.Do(req)
}

const initializeBody = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"elicitation":{}},"clientInfo":{"name":"t","version":"1"}}}`

// tryInitialize starts the session.
func (c *legacyClient) tryInitialize() error {
	resp, err := c.do(initializeBody)
	if err != nil {
		return err
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	c.sid = resp.Header.Get("Mcp-Session-Id")
	if resp.StatusCode != 200 || c.sid == "" {
		return fmt.Errorf("initialize: %d", resp.StatusCode)
	}
	return nil
}

type rpcMsg struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// nextEvent reads the next SSE data line as a message.
func nextEvent(t *testing.T, br *bufio.Reader) rpcMsg {
	t.Helper()
	for {
		line, err := br.ReadString('\n')
		if err != nil {
			t.Fatalf("stream ended: %v", err)
		}
		if data, ok := strings.CutPrefix(line, "data: "); ok {
			var m rpcMsg
			if err := json.Unmarshal([]byte(data), &m); err != nil {
				t.Fatalf("event %q: %v", data, err)
			}
			return m
		}
	}
}

// call sends a request and returns its response, whether JSON or a stream.
func (c *legacyClient) call(id int, method, params string) rpcMsg {
	c.t.Helper()
	resp := c.post(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q,"params":%s}`, id, method, params))
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		b, _ := io.ReadAll(resp.Body)
		c.t.Fatalf("%s: HTTP %d %s", method, resp.StatusCode, b)
	}
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		return nextEvent(c.t, bufio.NewReader(resp.Body))
	}
	var m rpcMsg
	if err := json.NewDecoder(resp.Body).Decode(&m); err != nil {
		c.t.Fatal(err)
	}
	if m.Error != nil {
		c.t.Fatalf("%s: error %d %s", method, m.Error.Code, m.Error.Message)
	}
	return m
}

func (c *legacyClient) initialize() {
	c.t.Helper()
	if err := c.tryInitialize(); err != nil {
		c.t.Fatal(err)
	}
}

// openStream opens the session's GET stream.
func (c *legacyClient) openStream() (*bufio.Reader, func()) {
	c.t.Helper()
	req, _ := http.NewRequest("GET", c.url, nil)
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Mcp-Session-Id", c.sid)
	req.Header.Set("MCP-Protocol-Version", "2025-11-25")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	if resp.StatusCode != 200 {
		c.t.Fatalf("GET stream: %d", resp.StatusCode)
	}
	return bufio.NewReader(resp.Body), func() { resp.Body.Close() }
}

// streamEvents delivers the stream's messages on a channel.
func streamEvents(br *bufio.Reader) <-chan rpcMsg {
	ch := make(chan rpcMsg, 16)
	go func() {
		defer close(ch)
		for {
			line, err := br.ReadString('\n')
			if err != nil {
				return
			}
			if data, ok := strings.CutPrefix(line, "data: "); ok {
				var m rpcMsg
				if json.Unmarshal([]byte(data), &m) == nil {
					ch <- m
				}
			}
		}
	}()
	return ch
}

// expectOnce waits for one message of method on ch and checks that no
// second one follows within quiet.
func expectOnce(t *testing.T, ch <-chan rpcMsg, method string, quiet time.Duration) {
	t.Helper()
	got := 0
	deadline := time.After(10 * time.Second)
	for got == 0 {
		select {
		case m, open := <-ch:
			if !open {
				t.Fatalf("the stream ended before %s", method)
			}
			if m.Method == method {
				got++
			}
		case <-deadline:
			t.Fatalf("no %s", method)
		}
	}
	after := time.After(quiet)
	for {
		select {
		case m := <-ch:
			if m.Method == method {
				t.Fatalf("%s delivered twice", method)
			}
		case <-after:
			return
		}
	}
}

func TestSessionAcrossReplicas(t *testing.T) {
	ns := startNATS(t, 0)
	rs := []*replica{startReplica(t, ns.ClientURL(), io.Discard), startReplica(t, ns.ClientURL(), io.Discard), startReplica(t, ns.ClientURL(), io.Discard)}
	lb := roundRobin(t, rs)
	c := &legacyClient{t: t, url: lb.URL}
	c.initialize()
	// Every replica serves the session: nine calls, three on each.
	for i := 1; i <= 9; i++ {
		if m := c.call(i, "tools/call", `{"name":"count","arguments":{}}`); !strings.Contains(string(m.Result), `"ok":true`) {
			t.Fatalf("call %d: %s", i, m.Result)
		}
	}
	for i, r := range rs {
		if n := r.calls.Load(); n != 3 {
			t.Errorf("replica %d served %d calls, want 3", i, n)
		}
	}

	// The GET stream lands on one replica; list changes and resource
	// updates from every replica reach it once.
	br, closeStream := c.openStream()
	defer closeStream()
	events := streamEvents(br)
	if m := c.call(10, "resources/subscribe", `{"uri":"test://doc"}`); m.Error != nil {
		t.Fatal(m.Error.Message)
	}
	for _, r := range rs {
		r.srv.NotifyResourceUpdated("test://doc")
		expectOnce(t, events, "notifications/resources/updated", 200*time.Millisecond)
		r.srv.NotifyToolsListChanged()
		expectOnce(t, events, "notifications/tools/list_changed", 200*time.Millisecond)
	}

	// Elicitation: the request goes out on the call's stream; the answer
	// is posted through the balancer, so it reaches another replica, which
	// routes it back.
	for i := 0; i < 3; i++ {
		resp := c.post(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"confirm","arguments":{}}}`, 20+i))
		callStream := bufio.NewReader(resp.Body)
		ask := nextEvent(t, callStream)
		if ask.Method != "elicitation/create" {
			t.Fatalf("want elicitation/create, got %+v", ask)
		}
		answer := c.post(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"action":"accept","content":{"yes":true}}}`, ask.ID))
		answer.Body.Close()
		if answer.StatusCode != 202 {
			t.Fatalf("answer: %d", answer.StatusCode)
		}
		final := nextEvent(t, callStream)
		io.Copy(io.Discard, callStream) // to the end, so the connection is not cut short
		resp.Body.Close()
		if !strings.Contains(string(final.Result), `"action":"accept","yes":true`) {
			t.Fatalf("confirm %d: %s %+v", i, final.Result, final.Error)
		}
	}

	// Cancellation reaches the replica running the request.
	// The response only starts once the call ends, so it is awaited aside.
	waitReq, _ := http.NewRequest("POST", c.url, strings.NewReader(`{"jsonrpc":"2.0","id":30,"method":"tools/call","params":{"name":"wait","arguments":{}}}`))
	waitReq.Header.Set("Content-Type", "application/json")
	waitReq.Header.Set("Accept", "application/json, text/event-stream")
	waitReq.Header.Set("Mcp-Session-Id", c.sid)
	waitReq.Header.Set("MCP-Protocol-Version", "2025-11-25")
	done := make(chan struct{})
	go func() {
		defer close(done)
		if resp, err := http.DefaultClient.Do(waitReq); err == nil {
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
	}()
	time.Sleep(300 * time.Millisecond) // let the call start before cancelling it
	for range 2 {
		n := c.post(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":30}}`)
		n.Body.Close()
	}
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("cancellation did not reach the replica running the call")
	}

	// DELETE ends the session on every replica.
	req, _ := http.NewRequest("DELETE", lb.URL, nil)
	req.Header.Set("Mcp-Session-Id", c.sid)
	dr, err := http.DefaultClient.Do(req)
	if err != nil || dr.StatusCode != 200 {
		t.Fatalf("DELETE: %v %v", err, dr)
	}
	dr.Body.Close()
	time.Sleep(200 * time.Millisecond) // the end travels through the broker
	for i, r := range rs {
		direct := &legacyClient{t: t, url: r.ts.URL, sid: c.sid}
		resp := direct.post(`{"jsonrpc":"2.0","id":40,"method":"ping"}`)
		resp.Body.Close()
		if resp.StatusCode != 404 {
			t.Errorf("replica %d after DELETE: %d, want 404", i, resp.StatusCode)
		}
	}
	// A forged or foreign id is not a session.
	forged := &legacyClient{t: t, url: lb.URL, sid: c.sid[:len(c.sid)-2] + "AA"}
	if r := forged.post(`{"jsonrpc":"2.0","id":41,"method":"ping"}`); r.StatusCode != 404 {
		t.Errorf("forged session id: %d, want 404", r.StatusCode)
	}
}

// TestNotificationAcrossReplicas measures a resources/updated caused on
// replica A reaching a subscriptions/listen stream on replica C.
func TestNotificationAcrossReplicas(t *testing.T) {
	ns := startNATS(t, 0)
	a, b, c := startReplica(t, ns.ClientURL(), io.Discard), startReplica(t, ns.ClientURL(), io.Discard), startReplica(t, ns.ClientURL(), io.Discard)
	defer b.ts.Close()
	events, stop := listen(t, c.ts.URL)
	defer stop()
	const rounds = 50
	var total time.Duration
	for range rounds {
		start := time.Now()
		a.srv.NotifyResourceUpdated("test://doc")
		expectOnce(t, events, "notifications/resources/updated", 0)
		total += time.Since(start)
	}
	t.Logf("resources/updated from replica A to a listener on replica C: mean %v over %d", total/rounds, rounds)
}

// listen opens a 2026-07-28 subscriptions/listen stream on url.
func listen(t *testing.T, u string) (<-chan rpcMsg, func()) {
	t.Helper()
	body := `{"jsonrpc":"2.0","id":"l1","method":"subscriptions/listen","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},"notifications":{"resourceSubscriptions":["test://doc"],"toolsListChanged":true}}}`
	req, _ := http.NewRequest("POST", u, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", "subscriptions/listen")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 200 {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("listen: %d %s", resp.StatusCode, b)
	}
	ch := streamEvents(bufio.NewReader(resp.Body))
	if m := <-ch; m.Method != "notifications/subscriptions/acknowledged" {
		t.Fatalf("want the acknowledgement, got %+v", m)
	}
	return ch, func() { resp.Body.Close() }
}

// TestBrokerOutage stops the broker while replicas serve: requests keep
// being answered, the outage is logged, and notifications across replicas
// resume when the broker is back.
func TestBrokerOutage(t *testing.T) {
	ns := startNATS(t, 0)
	natsURL := ns.ClientURL()
	logs := &syncWriter{b: &strings.Builder{}}
	a, c := startReplica(t, natsURL, logs), startReplica(t, natsURL, io.Discard)
	lb := roundRobin(t, []*replica{a, c})
	cl := &legacyClient{t: t, url: lb.URL}
	cl.initialize()
	events, stop := listen(t, c.ts.URL)
	defer stop()

	ns.Shutdown()
	ns.WaitForShutdown()
	waitFor(t, func() bool { return !a.broker.Connected() && strings.Contains(logs.String(), "broker disconnected") })
	// Requests are still answered, through both replicas: the session id
	// carries what they need.
	for i := 1; i <= 6; i++ {
		if m := cl.call(i, "tools/call", `{"name":"count","arguments":{}}`); !strings.Contains(string(m.Result), `"ok":true`) {
			t.Fatalf("call %d during the outage: %s", i, m.Result)
		}
	}

	// The broker comes back on the same address.
	u, _ := url.Parse(natsURL)
	var portNum int
	fmt.Sscan(u.Port(), &portNum)
	startNATS(t, portNum)
	waitFor(t, func() bool { return a.broker.Connected() && c.broker.Connected() })
	// nats.go runs the reconnect handler, which logs the recovery, on its
	// own goroutine after Connected turns true: wait for the line too.
	for deadline := time.Now().Add(15 * time.Second); !strings.Contains(logs.String(), "broker connected again"); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("no recovery logged:\n%s", logs.String())
		}
	}
	// Messages published during the outage were buffered and are flushed
	// on reconnect; drain them, then check one new update arrives once.
	time.Sleep(300 * time.Millisecond)
	for len(events) > 0 {
		<-events
	}
	a.srv.NotifyResourceUpdated("test://doc")
	expectOnce(t, events, "notifications/resources/updated", 200*time.Millisecond)
	for i := 7; i <= 8; i++ {
		cl.call(i, "tools/call", `{"name":"count","arguments":{}}`)
	}
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(15 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatal("condition not met in time")
}

// syncWriter is a log sink tests can read while servers write to it.
type syncWriter struct {
	mu sync.Mutex
	b  *strings.Builder
}

func (w *syncWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}

func (w *syncWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.String()
}

// TestSubscribeIsInPlaceOnReturn publishes from one replica's broker the
// moment another's Subscribe returns: the message must arrive, every time.
// A replica subscribes when it starts and when a stream opens, and what
// is published after that must not be lost to an interest the broker has
// not read yet.
func TestSubscribeIsInPlaceOnReturn(t *testing.T) {
	ns := startNATS(t, 0)
	connect := func() *natsbroker.Broker {
		b, err := natsbroker.Connect(natsbroker.Options{URL: ns.ClientURL(), Prefix: "inplace", Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(b.Close)
		return b
	}
	pub, sub := connect(), connect()
	for i := range 200 {
		subject := fmt.Sprintf("s%d", i)
		got := make(chan struct{}, 1)
		unsubscribe, err := sub.Subscribe(subject, func([]byte) []byte {
			got <- struct{}{}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if err := pub.Publish(subject, []byte("x")); err != nil {
			t.Fatal(err)
		}
		select {
		case <-got:
		case <-time.After(5 * time.Second):
			t.Fatalf("message %d published after Subscribe returned was lost", i)
		}
		unsubscribe()
	}
}
