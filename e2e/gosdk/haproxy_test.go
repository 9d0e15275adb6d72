package gosdk

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// haproxy is a real HAProxy in front of the replicas, configured by
// e2e/haproxy/haproxy.cfg (round robin, no stickiness, health checks on
// /readyz, retries only on failed connections). Its request log is kept
// for the tests to count what it forwarded.
type haproxy struct {
	url   string
	stats string // the stats socket

	mu  sync.Mutex
	log []haproxyLine
}

// haproxyLine is one line of the request log (see the log-format of
// haproxy.cfg).
type haproxyLine struct {
	server  string // r1, r2, r3, or <NOSRV>
	method  string
	status  string
	retries string // "0", "1", "+1" (moved to another replica), ...
	end     string // the termination state: ---- for a normal end
}

// haproxyBin returns the haproxy executable, or skips the test when there
// is none (unless $ORDERS_REQUIRE_HAPROXY makes that a failure, as in CI).
func haproxyBin(t *testing.T) string {
	t.Helper()
	if bin := os.Getenv("HAPROXY_BIN"); bin != "" {
		return bin
	}
	bin, err := exec.LookPath("haproxy")
	if err != nil {
		if os.Getenv("ORDERS_REQUIRE_HAPROXY") != "" {
			t.Fatal("ORDERS_REQUIRE_HAPROXY is set but haproxy is not installed (apt-get install -y haproxy)")
		}
		t.Skip("NO HAPROXY: the replicas tests run behind HAProxy; install it (apt-get install -y haproxy) or set HAPROXY_BIN")
	}
	return bin
}

// freeAddr returns a loopback address nobody listens on.
func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// startHAProxy runs HAProxy in front of three replicas and returns it once
// it forwards requests.
func startHAProxy(t *testing.T, bin string, replicas []*orderReplica) *haproxy {
	t.Helper()
	if len(replicas) != 3 {
		t.Fatalf("haproxy.cfg names three replicas, got %d", len(replicas))
	}
	addr := freeAddr(t)
	// A second configuration file adds the stats socket the tests read.
	dir := t.TempDir()
	stats := filepath.Join(dir, "stats.sock")
	extra := filepath.Join(dir, "stats.cfg")
	if err := os.WriteFile(extra, []byte("global\n    stats socket "+stats+" mode 600 level user\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "-db", "-f", filepath.Join("..", "haproxy", "haproxy.cfg"), "-f", extra)
	cmd.Env = append(os.Environ(), "MCP_LB_ADDR="+addr)
	for i, r := range replicas {
		u, err := url.Parse(r.url)
		if err != nil {
			t.Fatal(err)
		}
		cmd.Env = append(cmd.Env, fmt.Sprintf("MCP_REPLICA%d=%s", i+1, u.Host))
	}
	// HAProxy writes its log to stdout without waiting: a line it cannot
	// write at once is dropped and counted (show info: DroppedLogs), which
	// the tests that count lines take into account.
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if testing.Verbose() {
		cmd.Stderr = os.Stderr // its warnings are in the log on stdout too
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	h := &haproxy{url: "http://" + addr + "/mcp", stats: stats}
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			line := sc.Text()
			if testing.Verbose() {
				fmt.Fprintln(os.Stderr, "haproxy:", line)
			}
			// client backend/server method uri status retries=N time=T end=S
			f := strings.Fields(line)
			if len(f) != 8 || !strings.HasPrefix(f[5], "retries=") {
				continue
			}
			_, server, _ := strings.Cut(f[1], "/")
			h.mu.Lock()
			h.log = append(h.log, haproxyLine{server: server, method: f[2], status: f[4], retries: strings.TrimPrefix(f[5], "retries="),
				end: strings.TrimPrefix(f[7], "end=")})
			h.mu.Unlock()
		}
	}()
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			return h
		}
		if time.Now().After(deadline) {
			t.Fatal("haproxy did not listen in 30 s")
		}
	}
}

// lines returns the request log so far.
func (h *haproxy) lines() []haproxyLine {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]haproxyLine(nil), h.log...)
}

// count returns the number of logged requests for which keep is true.
func (h *haproxy) count(keep func(haproxyLine) bool) int {
	n := 0
	for _, l := range h.lines() {
		if keep(l) {
			n++
		}
	}
	return n
}

// droppedLogs returns how many log lines HAProxy has dropped so far
// ("show info", DroppedLogs).
func (h *haproxy) droppedLogs(t *testing.T) int {
	t.Helper()
	for _, line := range strings.Split(h.query(t, "show info"), "\n") {
		if v, ok := strings.CutPrefix(line, "DroppedLogs: "); ok {
			n, err := strconv.Atoi(strings.TrimSpace(v))
			if err != nil {
				t.Fatalf("show info: %q", line)
			}
			return n
		}
	}
	t.Fatal("show info: no DroppedLogs")
	return 0
}

// query sends one command to HAProxy's stats socket and returns the answer.
func (h *haproxy) query(t *testing.T, command string) string {
	t.Helper()
	c, err := net.Dial("unix", h.stats)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fmt.Fprint(c, command+"\n")
	out, err := io.ReadAll(c)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// stat returns HAProxy's counters ("show stat"): for each proxy/server
// (e.g. "mcp/FRONTEND", "replicas/r2"), each column by name (req_tot,
// hrsp_5xx, eresp, wretr, wredis, ...).
func (h *haproxy) stat(t *testing.T) map[string]map[string]string {
	t.Helper()
	out := h.query(t, "show stat")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) == 0 || !strings.HasPrefix(lines[0], "# ") {
		t.Fatalf("show stat: %q", out)
	}
	cols := strings.Split(strings.TrimPrefix(lines[0], "# "), ",")
	m := map[string]map[string]string{}
	for _, line := range lines[1:] {
		f := strings.Split(line, ",")
		if len(f) < 2 {
			continue
		}
		row := map[string]string{}
		for i, v := range f {
			if i < len(cols) {
				row[cols[i]] = v
			}
		}
		m[f[0]+"/"+f[1]] = row
	}
	return m
}

// TestHAProxyConfigDocumented: docs/deployment.md shows the configuration
// the tests run with, in full.
func TestHAProxyConfigDocumented(t *testing.T) {
	cfg, err := os.ReadFile(filepath.Join("..", "haproxy", "haproxy.cfg"))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "deployment.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(doc), "```\n"+string(cfg)+"```\n") {
		t.Error("docs/deployment.md does not show e2e/haproxy/haproxy.cfg as it is: copy the file into its code block")
	}
}
