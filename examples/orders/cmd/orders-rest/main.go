// Command orders-rest serves the orders example as the REST API described
// by examples/orders/openapi.yaml, over the same SQLite database as
// orders-mcp.
//
// Usage:
//
//	orders-rest [--db PATH] [--addr ADDR] --token TOKEN=USER [--token TOKEN=USER ...]
//
// Every request needs "Authorization: Bearer TOKEN" for one of the --token
// values and acts as that customer. The server listens on --addr (default
// 127.0.0.1:8080, the server URL of openapi.yaml; port 0 picks a free port)
// and prints "listening on http://HOST:PORT" on stderr once it accepts
// connections. It shuts down gracefully on SIGINT or SIGTERM.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/mcpgen-dev/mcpgen/examples/orders/rest"
	"github.com/mcpgen-dev/mcpgen/examples/orders/store"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stderr)
	stop()
	os.Exit(code)
}

// tokenFlag is the repeatable --token TOKEN=USER flag.
type tokenFlag rest.Tokens

func (t tokenFlag) String() string { return "" }

func (t tokenFlag) Set(v string) error {
	token, user, ok := strings.Cut(v, "=")
	if !ok || token == "" || user == "" {
		return fmt.Errorf("want TOKEN=USER, got %q", v)
	}
	if _, dup := t[token]; dup {
		return fmt.Errorf("token %q given twice", token)
	}
	t[token] = user
	return nil
}

func run(ctx context.Context, args []string, stderr io.Writer) int {
	fs := flag.NewFlagSet("orders-rest", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dbPath := fs.String("db", defaultDBPath(), "SQLite database `file`, created and seeded on first start")
	addr := fs.String("addr", "127.0.0.1:8080", "listen `address`")
	tokens := tokenFlag{}
	fs.Var(tokens, "token", "accept bearer `TOKEN=USER` as that customer (repeatable, at least one)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 || len(tokens) == 0 {
		fmt.Fprintln(stderr, "orders-rest: needs --token TOKEN=USER and no arguments")
		fs.Usage()
		return 2
	}
	logger := slog.New(slog.NewTextHandler(stderr, nil))
	if err := os.MkdirAll(filepath.Dir(*dbPath), 0o755); err != nil {
		logger.Error("create database directory", "err", err)
		return 1
	}
	st, err := store.Open(ctx, *dbPath)
	if err != nil {
		logger.Error("open database", "err", err)
		return 1
	}
	defer st.Close()

	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		logger.Error("listen", "err", err)
		return 1
	}
	srv := &http.Server{
		Handler:           rest.NewHandler(st, rest.Tokens(tokens), logger),
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      30 * time.Second,
		IdleTimeout:       2 * time.Minute,
	}
	fmt.Fprintf(stderr, "listening on http://%s\n", ln.Addr())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		logger.Error("serve", "err", err)
		return 1
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdown); err != nil && !errors.Is(err, http.ErrServerClosed) {
		logger.Error("shutdown", "err", err)
		return 1
	}
	return 0
}

// defaultDBPath is the database orders-mcp uses by default too, so both
// faces show the same orders.
func defaultDBPath() string {
	dir, err := os.UserCacheDir()
	if err != nil {
		dir = os.TempDir()
	}
	return filepath.Join(dir, "mcpgen-orders", "orders.db")
}
