// Command httpbench measures the orders server over Streamable HTTP.
//
// It starts the orders example in-process on a loopback port (SQLite
// database in a temporary directory, bearer-token authorization on, as
// orders-mcp --http runs it), then for each client count drives
// tools/call get_order_status for a fixed time, checks every response, and
// prints requests/s, p50 and p99 latency.
//
// Usage (from bench/, its own module):
//
//	go run ./httpbench [-duration 5s] [-clients 1,8,64] [-transport-only]
//
// -transport-only replaces the orders service by a tool of the same name
// and answer that touches no database, to tell the transport's cost from
// the store's.
package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mcpgen-dev/mcpgen/examples/orders"
	"github.com/mcpgen-dev/mcpgen/examples/orders/ordersmcp"
	"github.com/mcpgen-dev/mcpgen/examples/orders/store"
	"github.com/mcpgen-dev/mcpgen/runtime"
)

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "httpbench:", err)
		os.Exit(1)
	}
}

const token = "bench-token"

type verifier struct{}

func (verifier) Verify(ctx context.Context, tok string, r *http.Request) (runtime.Identity, error) {
	if tok != token {
		return runtime.Identity{}, errors.New("unknown token")
	}
	return runtime.Identity{Subject: "alice", Scopes: []string{"orders:read", "orders:write"}}, nil
}

func run(args []string, out io.Writer) error {
	fs := flag.NewFlagSet("httpbench", flag.ContinueOnError)
	duration := fs.Duration("duration", 5*time.Second, "how long each client count runs")
	clientList := fs.String("clients", "1,8,64", "comma-separated concurrent client counts")
	transportOnly := fs.Bool("transport-only", false, "serve a get_order_status that answers without the database")
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

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	dir, err := os.MkdirTemp("", "httpbench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	st, err := store.Open(ctx, filepath.Join(dir, "orders.db"))
	if err != nil {
		return err
	}
	defer st.Close()
	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	srv := ordersmcp.NewServer(orders.NewService(st), runtime.Options{Logger: logger})
	what := "orders service (SQLite)"
	if *transportOnly {
		srv = fixedServer(logger)
		what = "fixed answer, no database"
	}
	mux := http.NewServeMux()
	maxClients := slices.Max(counts)
	srv.Mount(mux, "/mcp", runtime.HTTPOptions{
		Auth:          &runtime.AuthOptions{Verifier: verifier{}},
		MaxConcurrent: max(256, maxClients),
		Logger:        logger,
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	served := make(chan error, 1)
	go func() { served <- runtime.Serve(ctx, ln, mux, runtime.ServeOptions{Logger: logger}) }()
	url := "http://" + ln.Addr().String() + "/mcp"

	client := &http.Client{Transport: &http.Transport{
		MaxIdleConns:        maxClients,
		MaxIdleConnsPerHost: maxClients,
		IdleConnTimeout:     time.Minute,
	}}
	fmt.Fprintf(out, "tools/call get_order_status over Streamable HTTP (loopback, bearer auth, %s), %v per run\n", what, *duration)
	fmt.Fprintf(out, "%8s %10s %12s %10s %10s\n", "clients", "requests", "requests/s", "p50", "p99")
	for _, n := range counts {
		res, err := drive(client, url, n, *duration)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "%8d %10d %12.0f %10s %10s\n", n, res.count, res.rate, res.p50, res.p99)
	}
	cancel()
	return <-served
}

type result struct {
	count    int
	rate     float64
	p50, p99 time.Duration
}

const body = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{` +
	`"io.modelcontextprotocol/protocolVersion":"2026-07-28",` +
	`"io.modelcontextprotocol/clientInfo":{"name":"httpbench","version":"0"},` +
	`"io.modelcontextprotocol/clientCapabilities":{}},` +
	`"name":"get_order_status","arguments":{"order_id":"A1001"}}}`

// want is what every response must contain: alice's order A1001, shipped.
var want = []byte(`"structuredContent":{"found":true,"order_id":"A1001","status":"SHIPPED"}`)

// drive runs n clients for d and checks every response.
func drive(client *http.Client, url string, n int, d time.Duration) (result, error) {
	deadline := time.Now().Add(d)
	lat := make([][]time.Duration, n)
	errs := make(chan error, n)
	var wg sync.WaitGroup
	start := time.Now()
	for i := range n {
		wg.Go(func() {
			buf := make([]byte, 0, 4096)
			for time.Now().Before(deadline) {
				t0 := time.Now()
				req, _ := http.NewRequest("POST", url, strings.NewReader(body))
				h := req.Header
				h.Set("Content-Type", "application/json")
				h.Set("Accept", "application/json, text/event-stream")
				h.Set("Authorization", "Bearer "+token)
				h.Set("MCP-Protocol-Version", "2026-07-28")
				h.Set("Mcp-Method", "tools/call")
				h.Set("Mcp-Name", "get_order_status")
				h.Set("Mcp-Param-Order-Id", "A1001")
				resp, err := client.Do(req)
				if err != nil {
					errs <- err
					return
				}
				buf = buf[:0]
				b := bytes.NewBuffer(buf)
				_, err = b.ReadFrom(resp.Body)
				resp.Body.Close()
				if err != nil {
					errs <- err
					return
				}
				if resp.StatusCode != 200 || !bytes.Contains(b.Bytes(), want) {
					errs <- fmt.Errorf("unexpected response %d: %s", resp.StatusCode, b.Bytes())
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
		return result{}, err
	default:
	}
	var all []time.Duration
	for _, l := range lat {
		all = append(all, l...)
	}
	if len(all) == 0 {
		return result{}, errors.New("no request completed")
	}
	slices.Sort(all)
	pct := func(p float64) time.Duration {
		return all[min(len(all)-1, int(p*float64(len(all))))].Round(time.Microsecond)
	}
	return result{count: len(all), rate: float64(len(all)) / elapsed.Seconds(), p50: pct(0.50), p99: pct(0.99)}, nil
}

// fixedServer serves a get_order_status tool, with the orders headers and
// scopes, that answers alice's A1001 without any storage.
func fixedServer(logger *slog.Logger) *runtime.Server {
	srv := runtime.NewServer(runtime.Options{Logger: logger})
	srv.AddTool(runtime.ToolDef{
		Name:         "get_order_status",
		Definition:   `{"name":"get_order_status","inputSchema":{"type":"object"}}`,
		Scopes:       []string{"orders:read"},
		ParamHeaders: []runtime.ParamHeader{{Name: "Order-Id", Path: []string{"order_id"}, Type: "string"}},
		Call: func(ctx context.Context, args []byte) (*runtime.ToolResult, error) {
			return runtime.StructuredResult([]byte(`{"found":true,"order_id":"A1001","status":"SHIPPED"}`)), nil
		},
	})
	return srv
}
