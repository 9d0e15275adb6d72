package gosdk

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
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

// startBroker runs a NATS server with JetStream (which keeps the record of
// ended sessions) on a free loopback port.
func startBroker(t *testing.T) *server.Server {
	t.Helper()
	return startBrokerOn(t, -1, t.TempDir())
}

// startBrokerOn runs a NATS server with JetStream on port, storing in dir.
func startBrokerOn(t *testing.T, port int, dir string) *server.Server {
	t.Helper()
	ns, err := server.NewServer(&server.Options{Host: "127.0.0.1", Port: port, NoLog: true, NoSigs: true,
		JetStream: true, StoreDir: dir})
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

func aliceTransport(endpoint string) *mcp.StreamableClientTransport {
	return &mcp.StreamableClientTransport{Endpoint: endpoint, HTTPClient: &http.Client{
		Transport: bearer{token: "tok-alice", next: http.DefaultTransport}}}
}

func TestOrdersAcrossReplicas(t *testing.T) {
	lbBin := haproxyBin(t)
	bin := serverBinary(t)
	ns := startBroker(t)
	db := sharedDatabase(t)
	var replicas []*orderReplica
	for range 3 {
		replicas = append(replicas, startReplica(t, bin, db, ns.ClientURL()))
	}
	lb := startHAProxy(t, lbBin, replicas)
	endpoint := lb.url

	// The whole 2025-11-25 scenario through the balancer: every request
	// of the session may reach a different replica, the GET stream one of
	// them, confirm_return's elicitation answer another.
	checkLegacy(t, aliceTransport(endpoint))
	for i := range replicas {
		server := fmt.Sprintf("r%d", i+1)
		if n := lb.count(func(l haproxyLine) bool { return l.server == server }); n == 0 {
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

// TestReplicaKilledUnderLoad runs 2025-era sessions through HAProxy, each
// filing returns with create_return (one idempotency key per call), and
// SIGKILLs one replica in the middle of the load.
//
// A call whose request the killed replica had taken fails: the replica may
// or may not have run it, and only the client may send a POST again, so
// HAProxy does not (it closes the client's kept-alive connection without
// an answer, or answers 502 on a first request; either way the client's
// POST fails). The client retries it with the same idempotency
// key, as a 2025-era client retries a failed call, and is answered the
// return made the first time, if there was one. A call sent after the kill
// never fails: HAProxy's connection to the dead replica is refused and the
// request goes to another one. Afterwards every key has exactly one return
// in the database, the one its client was given; HAProxy forwarded each
// attempt once; no session initialized again.
func TestReplicaKilledUnderLoad(t *testing.T) {
	lbBin := haproxyBin(t)
	bin := serverBinary(t)
	ns := startBroker(t)
	db := sharedDatabase(t)
	var replicas []*orderReplica
	for range 3 {
		replicas = append(replicas, startReplica(t, bin, db, ns.ClientURL()))
	}
	lb := startHAProxy(t, lbBin, replicas)

	const clients, perClient, killAt, maxTries = 4, 100, 80, 5
	ctx, cancel := context.WithTimeout(context.Background(), 180*time.Second)
	defer cancel()
	var (
		attempts, firstFailed, retriedOK, afterKillFailed atomic.Int64
		killTime                                          atomic.Pointer[time.Time]
		mu                                                sync.Mutex
		failures                                          []string
		given                                             = map[string]string{} // idempotency key → return id the client was given
		inits                                             atomic.Int64
	)
	isPost := func(l haproxyLine) bool { return l.method == "POST" }
	var wg sync.WaitGroup
	sessions := make([]*mcp.ClientSession, clients)
	for c := range clients {
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "load", Version: "0"}, nil).
			Connect(ctx, aliceTransport(lb.url), &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
		if err != nil {
			t.Fatalf("client %d: %v", c, err)
		}
		inits.Add(1)
		defer cs.Close()
		sessions[c] = cs
	}
	// initialize and notifications/initialized of each session.
	// (A log line HAProxy dropped stands for a request it answered.)
	waitUntil(t, "initialize requests logged", func() bool { return lb.count(isPost)+lb.droppedLogs(t) >= 2*clients })
	postsBefore := lb.count(isPost)
	droppedBefore := lb.droppedLogs(t)

	loadStart := time.Now()
	started := make(chan struct{}, clients*perClient)
	for c, cs := range sessions {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range perClient {
				started <- struct{}{}
				key := fmt.Sprintf("kill-%d-%d", c, i)
				for try := 1; ; try++ {
					callStart := time.Now()
					attempts.Add(1)
					res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "create_return",
						Arguments: map[string]any{"order_id": "A1001", "reason": "load", "idempotency_key": key}})
					if err == nil && !res.IsError {
						var out struct {
							ReturnID string `json:"return_id"`
						}
						raw, _ := json.Marshal(res.StructuredContent)
						json.Unmarshal(raw, &out)
						mu.Lock()
						given[key] = out.ReturnID
						mu.Unlock()
						if try > 1 {
							retriedOK.Add(1)
						}
						break
					}
					if err == nil {
						err = fmt.Errorf("tool error: %s", textOf(res))
					}
					if try == 1 {
						firstFailed.Add(1)
					}
					if kt := killTime.Load(); kt != nil && callStart.After(*kt) {
						afterKillFailed.Add(1)
					}
					mu.Lock()
					failures = append(failures, fmt.Sprintf("client %d key %s try %d (sent %v after the load began, failed after %v): %v",
						c, key, try, callStart.Sub(loadStart).Round(time.Millisecond), time.Since(callStart).Round(time.Millisecond), err))
					mu.Unlock()
					if try == maxTries {
						t.Errorf("key %s: failed %d times", key, try)
						break
					}
				}
			}
		}()
	}
	for range killAt {
		<-started
	}
	replicas[1].cmd.Process.Signal(os.Kill)
	replicas[1].cmd.Wait()
	now := time.Now()
	killTime.Store(&now)
	t.Logf("replica r2 killed %v into the load", now.Sub(loadStart).Round(time.Millisecond))
	wg.Wait()
	calls := int64(clients * perClient)
	t.Logf("SIGKILL of one of three replicas during load: %d create_return calls by %d sessions (one initialize each) in %v: %d answered at the first attempt, %d failed at the first attempt and were answered when the client retried with the same key; %d attempts in all, %d failed after the kill",
		calls, clients, time.Since(loadStart).Round(time.Millisecond), calls-firstFailed.Load(), retriedOK.Load(), attempts.Load(), afterKillFailed.Load())
	for _, f := range failures {
		t.Log(f)
	}
	if afterKillFailed.Load() != 0 {
		t.Errorf("%d calls sent after the replica was dead failed", afterKillFailed.Load())
	}
	if inits.Load() != clients {
		t.Errorf("%d initializes, want %d", inits.Load(), clients)
	}

	// HAProxy answered each call once: one POST ended well per call, and
	// no more POST requests than the clients sent. A request whose
	// connection was refused moved to another replica (retries=+1), the
	// only resend HAProxy makes.
	// A line HAProxy could not write without blocking is dropped and
	// counted; each such line stands for a request it did log.
	dropped := func() int { return lb.droppedLogs(t) - droppedBefore }
	for deadline := time.Now().Add(10 * time.Second); lb.count(isPost)-postsBefore+dropped() < int(calls) && time.Now().Before(deadline); {
		time.Sleep(50 * time.Millisecond)
	}
	lost := dropped()
	var posts, good, moved int
	for _, l := range lb.lines() {
		if !isPost(l) {
			continue
		}
		posts++
		if l.status == "200" && l.end == "----" {
			good++
		}
		if l.retries != "0" {
			moved++
		}
	}
	posts, good = posts-postsBefore, good-postsBefore/2 // initialize answers 200, notifications/initialized 202
	r2 := lb.stat(t)["replicas/r2"]
	t.Logf("haproxy: %d POST requests logged for %d attempts, %d answered well; %d moved to another replica after a refused connection; r2: %s requests aborted by the kill (GET streams included), %s redispatched; %d log lines dropped by HAProxy",
		posts, attempts.Load(), good, moved, r2["srv_abrt"], r2["wredis"], lost)
	if int64(posts) > attempts.Load() || good > int(calls) || good+lost < int(calls) {
		t.Errorf("haproxy logged %d POST requests (%d answered well; %d lines dropped) for %d attempts of %d calls", posts, good, lost, attempts.Load(), calls)
	}

	// Nothing lost, nothing twice: every key has exactly one return in the
	// database, the one its client was given.
	if len(given) != int(calls) {
		t.Fatalf("%d of %d calls were answered", len(given), calls)
	}
	if !strings.HasPrefix(db, "postgres") {
		t.Log("the database is a SQLite file: each key's return is checked through the server only")
	} else {
		out, err := exec.Command("psql", db, "-At", "-F", " ", "-c",
			"SELECT idempotency_key, id FROM returns WHERE idempotency_key LIKE 'kill-%'").CombinedOutput()
		if err != nil {
			t.Fatalf("psql: %v\n%s", err, out)
		}
		stored := map[string]string{}
		for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			key, id, _ := strings.Cut(line, " ")
			if _, dup := stored[key]; dup {
				t.Errorf("key %s has two returns", key)
			}
			stored[key] = id
		}
		if len(stored) != len(given) {
			t.Errorf("the database holds %d returns for %d calls", len(stored), len(given))
		}
		for key, id := range given {
			if stored[key] != id {
				t.Errorf("key %s: the client was given return %q, the database holds %q", key, id, stored[key])
			}
		}
		t.Logf("postgresql: %d returns for the %d keys, each the one its client was given", len(stored), len(given))
	}
	// Through the server too: the same key answers the same return.
	for key, id := range given {
		if !strings.HasSuffix(key, "-0") {
			continue
		}
		res, err := sessions[0].CallTool(ctx, &mcp.CallToolParams{Name: "create_return",
			Arguments: map[string]any{"order_id": "A1001", "reason": "load", "idempotency_key": key}})
		if err != nil {
			t.Fatal(err)
		}
		if got := structured(t, res); !strings.Contains(got, `"return_id":"`+id+`"`) {
			t.Errorf("key %s answers %s, the client was given %s", key, got, id)
		}
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
	lbBin := haproxyBin(t)
	bin := serverBinary(t)
	store := t.TempDir()
	ns := startBrokerOn(t, -1, store)
	port := ns.Addr().(*net.TCPAddr).Port
	db := sharedDatabase(t)
	var replicas []*orderReplica
	for range 3 {
		replicas = append(replicas, startReplica(t, bin, db, ns.ClientURL()))
	}
	endpoint := startHAProxy(t, lbBin, replicas).url
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
	startBrokerOn(t, port, store)
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

// TestSessionEndedEverywhere ends a 2025-11-25 session (the Go SDK's Close
// sends DELETE) through HAProxy, then starts a fourth replica: it, and the
// three that served the session, answer its id with 404.
func TestSessionEndedEverywhere(t *testing.T) {
	lbBin := haproxyBin(t)
	bin := serverBinary(t)
	ns := startBroker(t)
	db := sharedDatabase(t)
	var replicas []*orderReplica
	for range 3 {
		replicas = append(replicas, startReplica(t, bin, db, ns.ClientURL()))
	}
	lb := startHAProxy(t, lbBin, replicas)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "ends", Version: "0"}, nil).
		Connect(ctx, aliceTransport(lb.url), &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatal(err)
	}
	id := cs.ID()
	// Every replica serves the session, so each holds a copy.
	for range 6 {
		if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_order_status", Arguments: map[string]any{"order_id": "A1001"}}); err != nil {
			t.Fatal(err)
		}
	}
	isDelete := func(l haproxyLine) bool { return l.method == "DELETE" && l.status == "200" }
	droppedBefore := lb.droppedLogs(t)
	if err := cs.Close(); err != nil {
		t.Fatal(err)
	}
	// Its log line, unless HAProxy dropped one meanwhile.
	waitUntil(t, "the DELETE answered", func() bool { return lb.count(isDelete) == 1 || lb.droppedLogs(t) > droppedBefore })

	status := func(r *orderReplica) int {
		req, _ := http.NewRequest(http.MethodPost, r.url, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
		req.Header.Set("Authorization", "Bearer tok-alice")
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Mcp-Session-Id", id)
		req.Header.Set("MCP-Protocol-Version", "2025-11-25")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	for i, r := range replicas {
		waitUntil(t, fmt.Sprintf("replica %d refuses the ended session", i+1), func() bool { return status(r) == http.StatusNotFound })
	}
	d := startReplica(t, bin, db, ns.ClientURL())
	waitUntil(t, "the new replica ready", func() bool { return readyz(d) == http.StatusOK })
	if got := status(d); got != http.StatusNotFound {
		t.Errorf("a replica started after the DELETE answers the ended session with %d, want 404", got)
	}
}
