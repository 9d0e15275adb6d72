package gosdk

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/nats-io/nats-server/v2/server"
)

// The orders server as three replicas behind a round-robin balancer with no
// stickiness, connected by a real NATS server (in this process), driven by
// the official Go SDK forced to 2025-11-25.

const replicaKey = "6d637067656e2d7265706c696361732d7368617265642d6b6579212121212121"

// startBroker runs a NATS server on a free loopback port.
func startBroker(t *testing.T) *server.Server {
	t.Helper()
	ns, err := server.NewServer(&server.Options{Host: "127.0.0.1", Port: -1, NoLog: true, NoSigs: true})
	if err != nil {
		t.Fatal(err)
	}
	go ns.Start()
	if !ns.ReadyForConnections(10 * time.Second) {
		t.Fatal("nats-server did not start")
	}
	t.Cleanup(ns.Shutdown)
	return ns
}

// sharedDatabase is the database the replicas share: a new database on the
// PostgreSQL server at $ORDERS_TEST_POSTGRES (scripts/pg.sh starts one),
// as replicas on several machines would use; without it, loudly, one
// SQLite file (replicas on one machine), unless $ORDERS_REQUIRE_POSTGRES
// makes that a failure.
func sharedDatabase(t *testing.T) string {
	t.Helper()
	admin := os.Getenv("ORDERS_TEST_POSTGRES")
	if admin == "" {
		if os.Getenv("ORDERS_REQUIRE_POSTGRES") != "" {
			t.Fatal("ORDERS_REQUIRE_POSTGRES is set but ORDERS_TEST_POSTGRES is not: start PostgreSQL with scripts/pg.sh")
		}
		t.Log("NO POSTGRESQL (ORDERS_TEST_POSTGRES unset): the replicas share a SQLite file instead")
		return filepath.Join(t.TempDir(), "orders.db")
	}
	u, err := url.Parse(admin)
	if err != nil {
		t.Fatal(err)
	}
	name := fmt.Sprintf("orders_e2e_%d", time.Now().UnixNano())
	if out, err := exec.Command("psql", admin, "-c", "CREATE DATABASE "+name).CombinedOutput(); err != nil {
		t.Fatalf("create database: %v\n%s", err, out)
	}
	t.Cleanup(func() { exec.Command("psql", admin, "-c", "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)").Run() })
	u.Path = "/" + name
	return u.String()
}

// orderReplica is one orders-mcp process.
type orderReplica struct {
	cmd *exec.Cmd
	url string
}

// startReplica runs orders-mcp --http with the shared key and broker on db
// (a SQLite file or a postgres:// URL).
func startReplica(t *testing.T, bin, db, natsURL string) *orderReplica {
	t.Helper()
	cmd := exec.Command(bin, "--db", db, "--http", "0", "--token", "tok-alice=alice",
		"--state-key", replicaKey, "--nats", natsURL)
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
			if testing.Verbose() {
				fmt.Fprintln(os.Stderr, "replica:", sc.Text())
			}
		}
	}()
	select {
	case u := <-found:
		return &orderReplica{cmd: cmd, url: u}
	case <-time.After(30 * time.Second):
		t.Fatal("orders-mcp --http did not log its URL")
	}
	return nil
}

// balancer sends each request to the next backend in turn (no stickiness).
// A backend that refuses the connection is skipped, as a balancer's
// passive health check does; a request that reached a backend is never
// sent twice.
type balancer struct {
	backends []*url.URL
	next     atomic.Int64
	// perBackend counts requests forwarded to each backend; toolCalls the
	// tools/call requests forwarded in all.
	perBackend []atomic.Int64
	toolCalls  atomic.Int64
}

func newBalancer(t *testing.T, replicas []*orderReplica) (*balancer, string) {
	b := &balancer{perBackend: make([]atomic.Int64, len(replicas))}
	for _, r := range replicas {
		u, _ := url.Parse(r.url)
		b.backends = append(b.backends, u)
	}
	ts := httptest.NewServer(b)
	t.Cleanup(ts.Close)
	return b, ts.URL + "/mcp"
}

func (b *balancer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	start := int(b.next.Add(1) - 1)
	for i := range b.backends {
		k := (start + i) % len(b.backends)
		u := *b.backends[k]
		out, _ := http.NewRequestWithContext(r.Context(), r.Method, u.String(), bytes.NewReader(body))
		out.Header = r.Header.Clone()
		resp, err := http.DefaultTransport.RoundTrip(out)
		var op *net.OpError
		if err != nil && errors.As(err, &op) && op.Op == "dial" {
			continue // refused: the request never reached it
		}
		b.perBackend[k].Add(1)
		if bytes.Contains(body, []byte(`"method":"tools/call"`)) {
			b.toolCalls.Add(1)
		}
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		for key, v := range resp.Header {
			w.Header()[key] = v
		}
		w.WriteHeader(resp.StatusCode)
		flusher, _ := w.(http.Flusher)
		if flusher != nil {
			flusher.Flush() // a stream's headers go out before its first event
		}
		buf := make([]byte, 32<<10)
		for {
			n, err := resp.Body.Read(buf)
			if n > 0 {
				w.Write(buf[:n])
				if flusher != nil {
					flusher.Flush()
				}
			}
			if err != nil {
				break
			}
		}
		resp.Body.Close()
		return
	}
	http.Error(w, "no backend", http.StatusBadGateway)
}

func aliceTransport(endpoint string) *mcp.StreamableClientTransport {
	return &mcp.StreamableClientTransport{Endpoint: endpoint, HTTPClient: &http.Client{
		Transport: bearer{token: "tok-alice", next: http.DefaultTransport}}}
}

func TestOrdersAcrossReplicas(t *testing.T) {
	bin := serverBinary(t)
	ns := startBroker(t)
	db := sharedDatabase(t)
	var replicas []*orderReplica
	for range 3 {
		replicas = append(replicas, startReplica(t, bin, db, ns.ClientURL()))
	}
	lb, endpoint := newBalancer(t, replicas)

	// The whole 2025-11-25 scenario through the balancer: every request
	// of the session may reach a different replica, the GET stream one of
	// them, confirm_return's elicitation answer another.
	checkLegacy(t, aliceTransport(endpoint))
	for i := range replicas {
		if n := lb.perBackend[i].Load(); n == 0 {
			t.Errorf("replica %d got no request", i)
		}
	}

	// A return created through one replica is seen through the others:
	// the same idempotency key answers the same return.
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var returnIDs []string
	for i, r := range replicas {
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "replica-check", Version: "0"}, nil).
			Connect(ctx, aliceTransport(r.url), &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
		if err != nil {
			t.Fatalf("replica %d: %v", i, err)
		}
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "create_return",
			Arguments: map[string]any{"order_id": "A1001", "reason": "too big", "idempotency_key": "across-replicas"}})
		if err != nil {
			t.Fatal(err)
		}
		returnIDs = append(returnIDs, regexp.MustCompile(`"return_id":"[^"]+"`).FindString(structured(t, res)))
		cs.Close()
	}
	if returnIDs[0] == "" || returnIDs[0] != returnIDs[1] || returnIDs[1] != returnIDs[2] {
		t.Errorf("create_return through three replicas gave %v, want one return", returnIDs)
	}
}

// TestReplicaKilledUnderLoad runs 2025-era sessions through the balancer,
// SIGKILLs one replica in the middle, and counts: every call is made once
// by the client and answered at most once; calls after the kill succeed
// without a new initialize.
func TestReplicaKilledUnderLoad(t *testing.T) {
	bin := serverBinary(t)
	ns := startBroker(t)
	db := sharedDatabase(t)
	var replicas []*orderReplica
	for range 3 {
		replicas = append(replicas, startReplica(t, bin, db, ns.ClientURL()))
	}
	lb, endpoint := newBalancer(t, replicas)

	const clients, perClient, killAt = 4, 100, 80
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	var (
		ok, failed, afterKillFailed atomic.Int64
		killed                      atomic.Bool
		mu                          sync.Mutex
		failures, slow              []string
		inits                       atomic.Int64
	)
	var wg sync.WaitGroup
	sessions := make([]*mcp.ClientSession, clients)
	for c := range clients {
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "load", Version: "0"}, nil).
			Connect(ctx, aliceTransport(endpoint), &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
		if err != nil {
			t.Fatalf("client %d: %v", c, err)
		}
		inits.Add(1)
		defer cs.Close()
		sessions[c] = cs
	}
	loadStart := time.Now()
	started := make(chan struct{}, clients*perClient)
	for c, cs := range sessions {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range perClient {
				started <- struct{}{}
				callStart := time.Now()
				res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_order_status", Arguments: map[string]any{"order_id": "A1001"}})
				if d := time.Since(callStart); d > time.Second {
					mu.Lock()
					slow = append(slow, fmt.Sprintf("client %d call %d took %v (err %v)", c, i, d.Round(time.Millisecond), err))
					mu.Unlock()
				}
				if err == nil && !res.IsError {
					ok.Add(1)
					continue
				}
				failed.Add(1)
				if killed.Load() {
					afterKillFailed.Add(1)
				}
				mu.Lock()
				failures = append(failures, fmt.Sprintf("client %d call %d: %v", c, i, err))
				mu.Unlock()
			}
		}()
	}
	for range killAt {
		<-started
	}
	replicas[1].cmd.Process.Signal(os.Kill)
	replicas[1].cmd.Wait()
	time.Sleep(50 * time.Millisecond)
	killed.Store(true)
	t.Logf("replica killed %v into the load", time.Since(loadStart).Round(time.Millisecond))
	wg.Wait()
	total := ok.Load() + failed.Load()
	t.Logf("SIGKILL of one of three replicas during load: %d calls by %d sessions (one initialize each) in %v, %d answered, %d failed (%d after the kill settled)",
		total, clients, time.Since(loadStart).Round(time.Millisecond), ok.Load(), failed.Load(), afterKillFailed.Load())
	for _, f := range failures {
		t.Log(f)
	}
	for _, f := range slow {
		t.Log(f)
	}
	// Each call reached exactly one replica once: the balancer forwarded
	// as many tools/call requests as the clients made (none retried on a
	// second replica, none dropped before a replica got it).
	if n := lb.toolCalls.Load(); n != total {
		t.Errorf("balancer forwarded %d tools/call requests for %d calls", n, total)
	}
	if afterKillFailed.Load() != 0 {
		t.Errorf("%d calls failed after the replica was gone", afterKillFailed.Load())
	}
	if inits.Load() != clients {
		t.Errorf("%d initializes, want %d", inits.Load(), clients)
	}
}

// readyz returns the status of a replica's /readyz.
func readyz(r *orderReplica) int {
	resp, err := http.Get(strings.TrimSuffix(r.url, "/mcp") + "/readyz")
	if err != nil {
		return 0
	}
	resp.Body.Close()
	return resp.StatusCode
}

func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("%s: not in 30 s", what)
}

// TestBrokerRestartUnderLoad stops the broker while 2025-era sessions call
// through the balancer and starts it again: every call is answered, the
// replicas report not ready while it is away and ready once it is back,
// and the whole scenario (elicitation answers routed between replicas
// included) runs again afterwards.
func TestBrokerRestartUnderLoad(t *testing.T) {
	bin := serverBinary(t)
	ns := startBroker(t)
	port := ns.Addr().(*net.TCPAddr).Port
	db := sharedDatabase(t)
	var replicas []*orderReplica
	for range 3 {
		replicas = append(replicas, startReplica(t, bin, db, ns.ClientURL()))
	}
	_, endpoint := newBalancer(t, replicas)
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	const clients = 4
	var (
		ok, failed atomic.Int64
		stop       atomic.Bool
		wg         sync.WaitGroup
	)
	for c := range clients {
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "load", Version: "0"}, nil).
			Connect(ctx, aliceTransport(endpoint), &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
		if err != nil {
			t.Fatalf("client %d: %v", c, err)
		}
		defer cs.Close()
		wg.Add(1)
		go func() {
			defer wg.Done()
			for !stop.Load() {
				res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_order_status", Arguments: map[string]any{"order_id": "A1001"}})
				if err != nil || res.IsError {
					failed.Add(1)
					t.Errorf("client %d: %v", c, err)
					continue
				}
				ok.Add(1)
			}
		}()
	}
	waitUntil(t, "load running", func() bool { return ok.Load() > 40 })
	ns.Shutdown()
	ns.WaitForShutdown()
	waitUntil(t, "replicas report the broker gone", func() bool {
		for _, r := range replicas {
			if readyz(r) != http.StatusServiceUnavailable {
				return false
			}
		}
		return true
	})
	during := ok.Load()
	waitUntil(t, "calls answered while the broker is away", func() bool { return ok.Load() > during+40 })
	ns2, err := server.NewServer(&server.Options{Host: "127.0.0.1", Port: port, NoLog: true, NoSigs: true})
	if err != nil {
		t.Fatal(err)
	}
	go ns2.Start()
	t.Cleanup(ns2.Shutdown)
	waitUntil(t, "replicas ready again", func() bool {
		for _, r := range replicas {
			if readyz(r) != http.StatusOK {
				return false
			}
		}
		return true
	})
	stop.Store(true)
	wg.Wait()
	t.Logf("broker stopped and restarted under load: %d calls answered (%d of them from the stop on), %d failed", ok.Load(), ok.Load()-during, failed.Load())
	// Routed messages work again: the scenario with its elicitation.
	checkLegacy(t, aliceTransport(endpoint))
}
