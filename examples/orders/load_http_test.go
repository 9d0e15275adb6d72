package orders_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"testing/iotest"
	"time"

	"github.com/mcpgen-dev/mcpgen/examples/orders/store"
)

// httpCall is one request of the HTTP load and the check of its answer.
type httpCall struct {
	token, body string
	check       func(a httpAnswer) error
}

// structured returns the compact structuredContent of a successful tool
// result.
func structured(a httpAnswer) (string, error) {
	var res toolResult
	if a.status != 200 || a.rpc.Error != nil || json.Unmarshal(a.rpc.Result, &res) != nil || res.IsError {
		return "", fmt.Errorf("want a tool result, got %d %.300s", a.status, a.raw)
	}
	var b bytes.Buffer
	if err := json.Compact(&b, res.Structured); err != nil {
		return "", err
	}
	return b.String(), nil
}

func wantStructured(want string) func(httpAnswer) error {
	return func(a httpAnswer) error {
		got, err := structured(a)
		if err == nil && got != want {
			err = fmt.Errorf("got %s, want %s", got, want)
		}
		return err
	}
}

// httpMix is the n-th call of client c: even clients are alice, odd ones
// bob; each asks for its own orders and for the other's, searches, files
// returns under unique keys and reads summaries. Every answer is known in
// advance, and any trace of the other customer's orders is an error.
func httpMix(c, n int) (id string, call httpCall) {
	id = fmt.Sprintf(`"c%d-%d"`, c, n)
	key := fmt.Sprintf("k-%d-%d", c, n)
	tool := func(token, name, args string, check func(httpAnswer) error) httpCall {
		return httpCall{token, toolLine(id, name, args), check}
	}
	search := func(token string, mine, theirs []string) httpCall {
		return tool(token, "search_orders", `{"limit":50}`, func(a httpAnswer) error {
			got, err := structured(a)
			if err != nil {
				return err
			}
			for _, o := range mine {
				if !strings.Contains(got, `"order_id":"`+o+`"`) {
					return fmt.Errorf("search lacks %s: %s", o, got)
				}
			}
			for _, o := range theirs {
				if strings.Contains(got, o) {
					return fmt.Errorf("search shows the other customer's %s: %s", o, got)
				}
			}
			return nil
		})
	}
	filed := func(order string) func(httpAnswer) error {
		return func(a httpAnswer) error {
			got, err := structured(a)
			if err == nil && (!strings.Contains(got, `"order_id":"`+order+`"`) || !strings.Contains(got, `"status":"REQUESTED"`)) {
				err = fmt.Errorf("return for %s = %s", order, got)
			}
			return err
		}
	}
	read := func(token, order string, own bool) httpCall {
		return httpCall{token, reqLine(id, "resources/read", `"uri":"order://`+order+`/summary"`), func(a httpAnswer) error {
			switch {
			case own && (a.status != 200 || a.rpc.Error != nil || !strings.Contains(string(a.rpc.Result), `\"order_id\":\"`+order+`\"`)):
				return fmt.Errorf("own summary %s = %d %.300s", order, a.status, a.raw)
			case !own && (a.rpc.Error == nil || a.rpc.Error.Code != -32602 || strings.Contains(string(a.raw), "SHIPPED") || strings.Contains(string(a.raw), "PENDING")):
				return fmt.Errorf("other's summary %s = %d %.300s", order, a.status, a.raw)
			}
			return nil
		}}
	}
	if c%2 == 0 {
		switch n % 6 {
		case 0:
			return id, tool("tok-alice", "get_order_status", `{"order_id":"A1001"}`, wantStructured(`{"found":true,"order_id":"A1001","status":"SHIPPED"}`))
		case 1:
			return id, tool("tok-alice", "get_order_status", `{"order_id":"A1002"}`, wantStructured(`{"found":false,"order_id":"A1002"}`))
		case 2:
			return id, search("tok-alice", []string{"A1001", "A1003"}, []string{"A1002"})
		case 3:
			order := []string{"A1001", "A1003"}[(c/2+n)%2]
			return id, tool("tok-alice", "create_return", fmt.Sprintf(`{"order_id":%q,"reason":"load","idempotency_key":%q}`, order, key), filed(order))
		case 4:
			return id, read("tok-alice", "A1001", true)
		default:
			return id, read("tok-alice", "A1002", false)
		}
	}
	switch n % 6 {
	case 0:
		return id, tool("tok-bob", "get_order_status", `{"order_id":"A1002"}`, wantStructured(`{"found":true,"order_id":"A1002","status":"PENDING"}`))
	case 1:
		return id, tool("tok-bob", "get_order_status", `{"order_id":"A1001"}`, wantStructured(`{"found":false,"order_id":"A1001"}`))
	case 2:
		return id, search("tok-bob", []string{"A1002"}, []string{"A1001", "A1003"})
	case 3:
		return id, tool("tok-bob", "create_return", fmt.Sprintf(`{"order_id":"A1002","reason":"load","idempotency_key":%q}`, key), filed("A1002"))
	case 4:
		return id, read("tok-bob", "A1002", true)
	default:
		return id, read("tok-bob", "A1003", false)
	}
}

// run sends the call and checks the answer carries its id.
func (call httpCall) run(c *http.Client, u, id string) (httpAnswer, error) {
	a, err := do(c, u, call.token, call.body, nil)
	if err != nil {
		return a, err
	}
	if string(a.rpc.ID) != id {
		return a, fmt.Errorf("answer to %s carries id %s: %.200s", id, a.rpc.ID, a.raw)
	}
	return a, call.check(a)
}

// countReturns opens the database file (after the servers stopped) and
// counts the returns of each of the owner's orders.
func countReturns(t *testing.T, db, owner string, orders ...string) map[string][]store.Return {
	t.Helper()
	st, err := store.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	out := map[string][]store.Return{}
	for _, o := range orders {
		rs, err := st.Returns(context.Background(), owner, o)
		if err != nil {
			t.Fatal(err)
		}
		out[o] = rs
	}
	return out
}

// TestHTTPLoad runs 64 concurrent clients of 100 mixed calls each, half
// alice and half bob, against one orders-mcp --http: every call must be
// answered once, with its own id and its own customer's data, and the
// database must hold exactly one return per create_return call.
func TestHTTPLoad(t *testing.T) {
	const clients, calls = 64, 100
	db := filepath.Join(t.TempDir(), "orders.db")
	p := startHTTPProc(t, db)
	hc := newHTTPClient()
	var answered, creates [2]atomic.Int64
	var wg sync.WaitGroup
	start := time.Now()
	for c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := range calls {
				id, call := httpMix(c, n)
				if _, err := call.run(hc, p.url, id); err != nil {
					t.Errorf("%s: %v", id, err)
					continue
				}
				answered[c%2].Add(1)
				if n%6 == 3 {
					creates[c%2].Add(1)
				}
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	if got := answered[0].Load() + answered[1].Load(); got != clients*calls {
		t.Errorf("answered %d of %d calls", got, clients*calls)
	}
	p.cmd.Process.Signal(syscall.SIGTERM)
	if err := p.wait(t, 10*time.Second); err != nil {
		t.Fatalf("exit after SIGTERM: %v", err)
	}
	alice := countReturns(t, db, "alice", "A1001", "A1003")
	bob := countReturns(t, db, "bob", "A1002")
	if n := int64(len(alice["A1001"]) + len(alice["A1003"])); n != creates[0].Load() {
		t.Errorf("alice: %d returns in the database, %d create_return calls answered", n, creates[0].Load())
	}
	if n := int64(len(bob["A1002"])); n != creates[1].Load() {
		t.Errorf("bob: %d returns in the database, %d create_return calls answered", n, creates[1].Load())
	}
	t.Logf("HTTP load: %d clients x %d calls (alice and bob) answered %d in %v, 0 lost, 0 mismatched; returns filed %d/%d",
		clients, calls, answered[0].Load()+answered[1].Load(), elapsed.Round(time.Millisecond), creates[0].Load(), creates[1].Load())
}

// outcome classifies a request made while the server goes away.
type outcome int

const (
	complete   outcome = iota // a whole, valid response
	cleanError                // no response at all: refused, reset or closed before the status line
	halfBody                  // a response that broke off or is not valid: a failure
)

func classify(a httpAnswer, err error) outcome {
	switch {
	case err == nil:
		return complete
	case a.status != 0:
		return halfBody // the status line came, the body did not
	default:
		return cleanError
	}
}

// TestHTTPSIGTERMDuringLoad sends SIGTERM while 32 clients call: every
// request sent before the signal gets a whole response or a clean
// connection error, and the process exits 0.
func TestHTTPSIGTERMDuringLoad(t *testing.T) {
	const clients = 32
	p := startHTTPProc(t, "")
	hc := newHTTPClient()
	var signalled atomic.Bool
	var counts [3]atomic.Int64
	var after atomic.Int64 // requests started after the signal
	var wg sync.WaitGroup
	for c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := 0; ; n++ {
				before := !signalled.Load()
				id, call := httpMix(c, n)
				a, err := call.run(hc, p.url, id)
				if !before {
					after.Add(1)
					if err != nil {
						return
					}
					continue
				}
				o := classify(a, err)
				counts[o].Add(1)
				if o == halfBody {
					t.Errorf("%s: half-written answer: %v", id, err)
				}
				if o == cleanError {
					return
				}
			}
		}()
	}
	time.Sleep(300 * time.Millisecond)
	signalled.Store(true)
	p.cmd.Process.Signal(syscall.SIGTERM)
	if err := p.wait(t, 15*time.Second); err != nil {
		t.Errorf("exit after SIGTERM during load: %v\n%s", err, p.logs())
	}
	wg.Wait()
	if counts[complete].Load() == 0 {
		t.Error("no request completed before the signal")
	}
	t.Logf("SIGTERM during HTTP load: %d requests sent before the signal: %d complete, %d clean connection errors, %d half-written; %d sent after; exit 0",
		counts[0].Load()+counts[1].Load()+counts[2].Load(), counts[complete].Load(), counts[cleanError].Load(), counts[halfBody].Load(), after.Load())
}

// roundRobin is a reverse proxy alternating between the replicas; a
// replica that is down is answered 502 by the proxy.
func roundRobin(t *testing.T, replicas ...string) *httptest.Server {
	var targets []*url.URL
	for _, r := range replicas {
		u, err := url.Parse(strings.TrimSuffix(r, "/mcp"))
		if err != nil {
			t.Fatal(err)
		}
		targets = append(targets, u)
	}
	var next atomic.Uint64
	rp := &httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) {
			pr.SetURL(targets[next.Add(1)%uint64(len(targets))])
			pr.Out.Host = pr.In.Host
			// The body is read whole first: streamed, the outbound
			// transport may read it after the response has begun, which
			// Go's HTTP/1 server does not support (golang/go#40747) and
			// which cancels the connection's next request.
			if pr.In.Body != nil {
				body, err := io.ReadAll(pr.In.Body)
				pr.Out.Body = io.NopCloser(bytes.NewReader(body))
				pr.Out.ContentLength = int64(len(body))
				if err != nil { // the client went away: fail the round trip
					pr.Out.Body = io.NopCloser(iotest.ErrReader(err))
					pr.Out.ContentLength = -1
				}
			}
		},
		Transport: &http.Transport{MaxIdleConnsPerHost: 64},
	}
	rp.ErrorHandler = func(w http.ResponseWriter, r *http.Request, err error) { w.WriteHeader(http.StatusBadGateway) }
	srv := httptest.NewServer(rp)
	t.Cleanup(srv.Close)
	return srv
}

const testStateKey = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"

// TestHTTPReplicasFailover runs two replicas on one database and one
// --state-key behind a round-robin proxy, SIGKILLs one mid-load, and checks
// that every request is answered or cleanly refused (502) and that a
// create_return retried under one idempotency key across both replicas and
// the failure files exactly one return. A multi-round-trip call started on
// one replica finishes on the other; one with another key is refused.
func TestHTTPReplicasFailover(t *testing.T) {
	db := filepath.Join(t.TempDir(), "orders.db")
	a := startHTTPProc(t, db, "--state-key", testStateKey)
	b := startHTTPProc(t, db, "--state-key", testStateKey)
	proxy := roundRobin(t, a.url, b.url)
	pu := proxy.URL + "/mcp"
	hc := newHTTPClient()

	t.Run("requestState crosses replicas", func(t *testing.T) {
		other := startHTTPProc(t, db, "--state-key", strings.Repeat("ff", 32))
		elicitMeta := strings.Replace(meta, `"io.modelcontextprotocol/clientCapabilities":{}`, `"io.modelcontextprotocol/clientCapabilities":{"elicitation":{}}`, 1)
		body := func(id, extra string) string {
			return fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":"tools/call","params":{"_meta":%s,"name":"confirm_return","arguments":{"order_id":"A1003","reason":"replica","idempotency_key":"replica-1"}%s}}`, id, elicitMeta, extra)
		}
		first, err := do(hc, a.url, "tok-alice", body("1", ""), nil)
		var v struct {
			ResultType   string          `json:"resultType"`
			RequestState json.RawMessage `json:"requestState"`
		}
		if err != nil || json.Unmarshal(first.rpc.Result, &v) != nil || v.ResultType != "input_required" {
			t.Fatalf("first round on replica A: %v %.300s", err, first.raw)
		}
		retry := body("2", `,"inputResponses":{"confirm":{"action":"accept","content":{"confirm":true}}},"requestState":`+string(v.RequestState))
		second, err := do(hc, b.url, "tok-alice", retry, nil)
		if got, e := structured(second); err != nil || e != nil || !strings.Contains(got, `"status":"REQUESTED"`) {
			t.Errorf("second round on replica B: %v %v %.300s", err, e, second.raw)
		}
		foreign, err := do(hc, other.url, "tok-alice", strings.Replace(retry, `"id":2`, `"id":3`, 1), nil)
		if err != nil || foreign.rpc.Error == nil || foreign.rpc.Error.Code != -32602 || strings.Contains(string(foreign.raw), "REQUESTED") {
			t.Errorf("second round on a replica with another key: %v %.300s, want a refusal", err, foreign.raw)
		}
	})

	// One return, retried under one key: twice on each replica directly
	// before the load, then through the proxy after the kill until it
	// succeeds three times.
	const create = `{"order_id":"A1001","reason":"failover","idempotency_key":"failover-1"}`
	returnIDs := map[string]int{}
	createOnce := func(u string, i int) int {
		id := fmt.Sprintf(`"retry-%d"`, i)
		ans, err := do(hc, u, "tok-alice", toolLine(id, "create_return", create), nil)
		if err != nil {
			t.Errorf("create_return %s: %v", id, err)
			return 0
		}
		if ans.status == http.StatusBadGateway {
			return ans.status
		}
		var out struct {
			ReturnID string `json:"return_id"`
		}
		got, e := structured(ans)
		if e != nil || json.Unmarshal([]byte(got), &out) != nil || out.ReturnID == "" {
			t.Errorf("create_return %s: %v %.300s", id, e, ans.raw)
		}
		returnIDs[out.ReturnID]++
		return ans.status
	}
	for i, u := range []string{a.url, b.url, a.url, b.url} {
		if createOnce(u, i) != 200 {
			t.Errorf("create_return %d before the kill was not answered", i)
		}
	}

	const clients, calls = 16, 60
	var ok, refused, failed atomic.Int64
	var killOnce sync.Once
	var wg sync.WaitGroup
	for c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := range calls {
				id, call := httpMix(c, n)
				ans, err := call.run(hc, pu, id)
				switch {
				case err == nil:
					ok.Add(1)
				case ans.status == http.StatusBadGateway && len(ans.raw) == 0:
					refused.Add(1)
				default:
					failed.Add(1)
					t.Errorf("%s through the proxy: %v", id, err)
				}
				if ok.Load()+refused.Load() >= clients*calls/3 {
					killOnce.Do(func() { b.cmd.Process.Kill() })
				}
			}
		}()
	}

	wg.Wait()
	killOnce.Do(func() { b.cmd.Process.Kill() })
	b.wait(t, 5*time.Second)
	successes := 0
	for i := 4; i < 20 && successes < 3; i++ {
		if createOnce(pu, i) == 200 {
			successes++
		}
	}
	if len(returnIDs) != 1 {
		t.Errorf("one idempotency key gave return ids %v, want one", returnIDs)
	}
	if got := ok.Load() + refused.Load() + failed.Load(); got != clients*calls {
		t.Errorf("%d of %d calls accounted for", got, clients*calls)
	}
	if refused.Load() == 0 {
		t.Error("no call was refused after the kill: the proxy did not route to the dead replica")
	}

	a.cmd.Process.Signal(syscall.SIGTERM)
	if err := a.wait(t, 10*time.Second); err != nil {
		t.Errorf("replica A exit: %v", err)
	}
	var filed int
	for _, r := range countReturns(t, db, "alice", "A1001")["A1001"] {
		if r.IdempotencyKey == "failover-1" {
			filed++
		}
	}
	if filed != 1 {
		t.Errorf("%d returns filed under idempotency key failover-1, want exactly 1", filed)
	}
	t.Logf("replica failover: %d calls through the proxy, %d answered, %d refused 502 after SIGKILL of one replica, %d failed; create_return retried %d times under one key: %d return",
		clients*calls, ok.Load(), refused.Load(), failed.Load(), func() (n int) {
			for _, c := range returnIDs {
				n += c
			}
			return
		}(), filed)
}
