// Command mcpbench measures tools/call on the benchmark tool (package tool)
// served by mcpgen, by the official Go SDK and by mcp-go, side by side: each
// implementation runs as its own benchserver process, all speak 2026-07-28,
// and every response is checked against the expected structuredContent.
//
// Cells: stdio sequential (one request in flight), stdio pipelined (-window
// requests in flight), and Streamable HTTP with each of -clients concurrent
// clients. Each cell runs every implementation for -duration, in turn, after
// a short warm-up, and prints requests/s, p50, p99 and mcpgen's ratios.
//
// Usage (from bench/):
//
//	go run ./cmd/mcpbench [-duration 3s] [-clients 1,8,64] [-window 16] [-impls mcpgen,gosdk,mcpgo] [-pprof DIR]
package main

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "mcpbench:", err)
		os.Exit(1)
	}
}

type config struct {
	duration, warmup time.Duration
	rounds           int
	window           int
	server           string
	profiles         string
}

func run(args []string, out io.Writer) error {
	fs := flag.NewFlagSet("mcpbench", flag.ContinueOnError)
	duration := fs.Duration("duration", 3*time.Second, "measured time per implementation and cell, split over -rounds")
	rounds := fs.Int("rounds", 3, "turns the implementations take within a cell, so that a change of machine load hits all of them alike")
	warmup := fs.Duration("warmup", 500*time.Millisecond, "unmeasured time before each measurement")
	clientList := fs.String("clients", "1,8,64", "comma-separated concurrent HTTP client counts")
	window := fs.Int("window", 16, "requests in flight in the pipelined stdio cell")
	implList := fs.String("impls", "mcpgen,gosdk,mcpgo", "implementations, mcpgen first")
	cells := fs.String("cells", "stdio,http", "which transports to run")
	legacy := fs.Bool("legacy", true, "also run the stdio cells as a 2025-11-25 client (initialize, then calls without _meta), the era most hosts still speak")
	server := fs.String("server", "", "a built benchserver (default: build ./cmd/benchserver)")
	profiles := fs.String("pprof", "", "a directory for each server's CPU and allocation profiles")
	if err := fs.Parse(args); err != nil {
		return err
	}
	var counts []int
	for _, f := range strings.Split(*clientList, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			return fmt.Errorf("bad -clients entry %q", f)
		}
		counts = append(counts, n)
	}
	impls := strings.Split(*implList, ",")
	if *rounds < 1 {
		return errors.New("-rounds must be at least 1")
	}
	cfg := config{duration: *duration, rounds: *rounds, warmup: *warmup, window: *window, server: *server, profiles: *profiles}
	if cfg.server == "" {
		dir, err := os.MkdirTemp("", "mcpbench-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		cfg.server = filepath.Join(dir, "benchserver")
		build := exec.Command("go", "build", "-o", cfg.server, "./cmd/benchserver")
		build.Stderr = os.Stderr
		if err := build.Run(); err != nil {
			return fmt.Errorf("build benchserver (run mcpbench from bench/): %w", err)
		}
	}

	fmt.Fprintf(out, "tools/call get_order_status, MCP 2026-07-28 (2025 cells: 2025-11-25), %v per cell and implementation in %d alternating rounds (after %v warm-up)\n", cfg.duration, cfg.rounds, cfg.warmup)
	fmt.Fprintf(out, "machine: %s, %d CPUs, %s %s/%s; load before: %s\n\n", cpuModel(), runtime.NumCPU(), runtime.Version(), runtime.GOOS, runtime.GOARCH, loadAvg())
	fmt.Fprintf(out, "%-26s %-7s %10s %10s %10s %12s %12s\n", "cell", "impl", "req/s", "p50", "p99", "mcpgen x req/s", "p99/mcpgen")
	type cell struct {
		name string
		open func(impl string) (runner, error)
	}
	var list []cell
	if strings.Contains(*cells, "stdio") {
		list = append(list,
			cell{"stdio sequential", func(impl string) (runner, error) { return openStdio(cfg, impl, 1, false) }},
			cell{fmt.Sprintf("stdio pipelined (%d)", cfg.window), func(impl string) (runner, error) { return openStdio(cfg, impl, cfg.window, false) }})
		if *legacy {
			list = append(list,
				cell{"2025 stdio sequential", func(impl string) (runner, error) { return openStdio(cfg, impl, 1, true) }},
				cell{fmt.Sprintf("2025 stdio pipelined (%d)", cfg.window), func(impl string) (runner, error) { return openStdio(cfg, impl, cfg.window, true) }})
		}
	}
	if strings.Contains(*cells, "http") {
		for _, n := range counts {
			list = append(list, cell{fmt.Sprintf("http %d clients", n), func(impl string) (runner, error) { return openHTTP(cfg, impl, n) }})
		}
	}
	for _, c := range list {
		results, err := measure(cfg, impls, c.open)
		if err != nil {
			return fmt.Errorf("%s: %w", c.name, err)
		}
		for i, r := range results {
			ratio, p99 := "", ""
			if i > 0 {
				ratio = fmt.Sprintf("%.2fx", results[0].rate/r.rate)
				p99 = fmt.Sprintf("%.2fx", float64(r.p99)/float64(results[0].p99))
			}
			fmt.Fprintf(out, "%-26s %-7s %10.0f %10s %10s %12s %12s\n", c.name, impls[i], r.rate, round(r.p50), round(r.p99), ratio, p99)
		}
	}
	fmt.Fprintf(out, "\nload after: %s\n", loadAvg())
	return nil
}

func round(d time.Duration) time.Duration {
	switch {
	case d > 10*time.Millisecond:
		return d.Round(100 * time.Microsecond)
	case d > 100*time.Microsecond:
		return d.Round(time.Microsecond)
	}
	return d.Round(100 * time.Nanosecond)
}

// result is one implementation's figures in one cell.
type result struct {
	count    int
	rate     float64
	p50, p99 time.Duration
}

func summarize(lat []time.Duration, elapsed time.Duration) (result, error) {
	if len(lat) == 0 {
		return result{}, errors.New("no request completed")
	}
	slices.Sort(lat)
	return result{
		count: len(lat),
		rate:  float64(len(lat)) / elapsed.Seconds(),
		p50:   lat[len(lat)/2],
		p99:   lat[len(lat)*99/100],
	}, nil
}

// appendRequest appends the tools/call request with this id; its quantity
// varies with the id so that each answer is distinct. A 2025-11-25
// (legacy) request carries no _meta: initialize said it all.
func appendRequest(b []byte, id int64, legacy bool) []byte {
	b = append(b, `{"jsonrpc":"2.0","id":`...)
	b = strconv.AppendInt(b, id, 10)
	b = append(b, `,"method":"tools/call","params":{`...)
	if !legacy {
		b = append(b, `"_meta":{`+
			`"io.modelcontextprotocol/protocolVersion":"2026-07-28",`+
			`"io.modelcontextprotocol/clientInfo":{"name":"mcpbench","version":"0"},`+
			`"io.modelcontextprotocol/clientCapabilities":{}},`...)
	}
	b = append(b, `"name":"get_order_status","arguments":{"order_id":"A1001","quantity":`...)
	b = strconv.AppendInt(b, quantity(id), 10)
	return append(b, `}}}`...)
}

func quantity(id int64) int64 { return 1 + id%100 }

func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}

func cpuModel() string {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return "unknown CPU"
	}
	for line := range strings.Lines(string(b)) {
		if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return "unknown CPU"
}

// start runs benchserver for impl over transport; stop ends it by closing
// its stdin (HTTP) or its request stream (stdio) and waits.
func start(cfg config, impl, transport, cell string) (*exec.Cmd, io.WriteCloser, *bufio.Reader, error) {
	args := []string{"-impl", impl, "-transport", transport}
	if cfg.profiles != "" {
		base := filepath.Join(cfg.profiles, impl+"-"+cell)
		args = append(args, "-cpuprofile", base+".cpu", "-memprofile", base+".mem")
	}
	cmd := exec.Command(cfg.server, args...)
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, nil, nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, nil, nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, nil, nil, err
	}
	return cmd, stdin, bufio.NewReaderSize(stdout, 64<<10), nil
}

func stop(cmd *exec.Cmd, stdin io.WriteCloser) {
	stdin.Close()
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		cmd.Process.Kill()
		<-done
	}
}

// runner drives one running server: run measures for about d and returns
// every latency and the time it took.
type runner interface {
	run(d time.Duration) ([]time.Duration, time.Duration, error)
	close()
}

// measure starts every implementation's server, warms each up, then lets
// them take -rounds turns so that load from outside hits all alike.
func measure(cfg config, impls []string, open func(string) (runner, error)) ([]result, error) {
	runners := make([]runner, len(impls))
	defer func() {
		for _, r := range runners {
			if r != nil {
				r.close()
			}
		}
	}()
	for i, impl := range impls {
		r, err := open(impl)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", impl, err)
		}
		runners[i] = r
		if _, _, err := r.run(cfg.warmup); err != nil {
			return nil, fmt.Errorf("%s: %w", impl, err)
		}
	}
	lats := make([][]time.Duration, len(impls))
	elapsed := make([]time.Duration, len(impls))
	for range cfg.rounds {
		for i, r := range runners {
			lat, el, err := r.run(cfg.duration / time.Duration(cfg.rounds))
			if err != nil {
				return nil, fmt.Errorf("%s: %w", impls[i], err)
			}
			lats[i] = append(lats[i], lat...)
			elapsed[i] += el
		}
	}
	results := make([]result, len(impls))
	for i := range impls {
		var err error
		if results[i], err = summarize(lats[i], elapsed[i]); err != nil {
			return nil, fmt.Errorf("%s: %w", impls[i], err)
		}
	}
	return results, nil
}

// stdioRunner keeps window requests in flight on one stdio connection
// (window 1: strictly sequential) and checks every response by id.
type stdioRunner struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	w      *bufio.Writer
	r      *bufio.Reader
	window int
	nextID int64
	legacy bool // a 2025-11-25 session
}

func openStdio(cfg config, impl string, window int, legacy bool) (runner, error) {
	cell := fmt.Sprintf("stdio-%d", window)
	if legacy {
		cell = "legacy-" + cell
	}
	cmd, stdin, stdout, err := start(cfg, impl, "stdio", cell)
	if err != nil {
		return nil, err
	}
	s := &stdioRunner{cmd: cmd, stdin: stdin, w: bufio.NewWriterSize(stdin, 64<<10), r: stdout, window: window, nextID: 1, legacy: legacy}
	if legacy {
		// The 2025-11-25 handshake, once per connection, not measured.
		fmt.Fprint(s.w, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25",`+
			`"capabilities":{},"clientInfo":{"name":"mcpbench","version":"0"}}}`+"\n")
		if err := s.w.Flush(); err != nil {
			s.close()
			return nil, err
		}
		resp, err := s.r.ReadBytes('\n')
		if err != nil || !bytes.Contains(resp, []byte(`"protocolVersion":"2025-11-25"`)) {
			s.close()
			return nil, fmt.Errorf("%s: initialize answered %q (%v)", impl, resp, err)
		}
		fmt.Fprint(s.w, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
		if err := s.w.Flush(); err != nil {
			s.close()
			return nil, err
		}
	}
	return s, nil
}

func (s *stdioRunner) close() { stop(s.cmd, s.stdin) }

func (s *stdioRunner) run(d time.Duration) ([]time.Duration, time.Duration, error) {
	t0 := time.Now()
	lat, err := drivePipe(s.w, s.r, s.window, d, &s.nextID, s.legacy)
	return lat, time.Since(t0), err
}

func drivePipe(w *bufio.Writer, r *bufio.Reader, window int, d time.Duration, id *int64, legacy bool) ([]time.Duration, error) {
	sent := make(map[int64]time.Time, window)
	var (
		lat []time.Duration
		buf []byte
	)
	deadline := time.Now().Add(d)
	send := func() error {
		buf = appendRequest(buf[:0], *id, legacy)
		buf = append(buf, '\n')
		sent[*id] = time.Now()
		*id++
		_, err := w.Write(buf)
		return err
	}
	for len(sent) < window {
		if err := send(); err != nil {
			return nil, err
		}
	}
	if err := w.Flush(); err != nil {
		return nil, err
	}
	for len(sent) > 0 {
		line, err := r.ReadSlice('\n')
		if err != nil {
			return nil, fmt.Errorf("reading response: %w", err)
		}
		id, ok := responseID(line)
		t, pending := sent[id]
		if !ok || !pending {
			return nil, fmt.Errorf("response to an unknown request: %s", line)
		}
		delete(sent, id)
		if err := check(line, id); err != nil {
			return nil, err
		}
		lat = append(lat, time.Since(t))
		if time.Now().Before(deadline) {
			if err := send(); err != nil {
				return nil, err
			}
			if r.Buffered() == 0 || len(sent) < window/2 {
				if err := w.Flush(); err != nil {
					return nil, err
				}
			}
		}
		if r.Buffered() == 0 {
			if err := w.Flush(); err != nil {
				return nil, err
			}
		}
	}
	return lat, nil
}

// httpRunner runs n concurrent clients against one HTTP server.
type httpRunner struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	client *http.Client
	url    string
	n      int
	round  int64
}

func openHTTP(cfg config, impl string, n int) (runner, error) {
	cmd, stdin, stdout, err := start(cfg, impl, "http", fmt.Sprintf("http-%d", n))
	if err != nil {
		return nil, err
	}
	line, err := stdout.ReadString('\n')
	url, ok := strings.CutPrefix(strings.TrimSpace(line), "listening ")
	if err != nil || !ok {
		stop(cmd, stdin)
		return nil, fmt.Errorf("waiting for the server: %q %v", line, err)
	}
	client := &http.Client{Transport: &http.Transport{
		MaxIdleConns:        n,
		MaxIdleConnsPerHost: n,
		IdleConnTimeout:     time.Minute,
	}}
	return &httpRunner{cmd: cmd, stdin: stdin, client: client, url: url, n: n}, nil
}

func (h *httpRunner) close() {
	h.client.CloseIdleConnections()
	stop(h.cmd, h.stdin)
}

func (h *httpRunner) run(d time.Duration) ([]time.Duration, time.Duration, error) {
	h.round++
	return driveHTTP(h.client, h.url, h.n, d, h.round)
}

// driveHTTP runs n clients for d; ids are distinct per client and round.
func driveHTTP(client *http.Client, url string, n int, d time.Duration, round int64) ([]time.Duration, time.Duration, error) {
	deadline := time.Now().Add(d)
	lat := make([][]time.Duration, n)
	errs := make(chan error, n)
	var wg sync.WaitGroup
	start := time.Now()
	for i := range n {
		wg.Go(func() {
			var body []byte
			var resp bytes.Buffer
			for id := round<<40 + int64(i+1)<<24; time.Now().Before(deadline); id++ {
				body = appendRequest(body[:0], id, false)
				t0 := time.Now()
				req, err := http.NewRequest("POST", url, bytes.NewReader(body))
				if err != nil {
					errs <- err
					return
				}
				h := req.Header
				h["Content-Type"] = []string{"application/json"}
				h["Accept"] = []string{"application/json, text/event-stream"}
				h["Mcp-Protocol-Version"] = []string{"2026-07-28"}
				h["Mcp-Method"] = []string{"tools/call"}
				h["Mcp-Name"] = []string{"get_order_status"}
				res, err := client.Do(req)
				if err != nil {
					errs <- err
					return
				}
				resp.Reset()
				_, err = resp.ReadFrom(res.Body)
				res.Body.Close()
				if err != nil {
					errs <- err
					return
				}
				if res.StatusCode != http.StatusOK {
					errs <- fmt.Errorf("status %d: %s", res.StatusCode, resp.Bytes())
					return
				}
				msg := resp.Bytes()
				if strings.HasPrefix(res.Header.Get("Content-Type"), "text/event-stream") {
					msg = sseData(msg)
				}
				if got, ok := responseID(msg); !ok || got != id {
					errs <- fmt.Errorf("response for another id: %s", msg)
					return
				}
				if err := check(msg, id); err != nil {
					errs <- err
					return
				}
				lat[i] = append(lat[i], time.Since(t0))
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	select {
	case err := <-errs:
		return nil, 0, err
	default:
	}
	var all []time.Duration
	for _, l := range lat {
		all = append(all, l...)
	}
	return all, elapsed, nil
}

// sseData returns the data of the last event of an SSE body: the response.
func sseData(b []byte) []byte {
	var last []byte
	for len(b) > 0 {
		line, rest, _ := bytes.Cut(b, []byte("\n"))
		b = rest
		if d, ok := bytes.CutPrefix(line, []byte("data:")); ok {
			last = bytes.TrimSpace(d)
		}
	}
	return last
}
