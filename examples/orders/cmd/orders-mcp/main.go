// Command orders-mcp serves the orders example as an MCP server over stdio.
//
// Usage:
//
//	orders-mcp [--db PATH] [--metrics-addr ADDR]
//	orders-mcp [--db PATH] [--metrics-addr ADDR] [--state-key KEY] --http ADDR --token TOKEN=USER [--token TOKEN=USER ...]
//	          [--nats URL] [--drain-delay DURATION]
//
// --state-key (or the ORDERS_STATE_KEY environment variable) is the HMAC
// key, hex or base64, at least 16 bytes, that signs requestState. Replicas
// behind one load balancer must share it, so that a multi-round-trip call
// started on one replica can finish on another; without it each process
// makes a random key.
//
// --nats (or ORDERS_NATS) connects the replicas of one deployment through
// a NATS broker: 2025-11-25 sessions are then served by any replica, and
// change notifications reach every replica's clients. It needs a shared
// --state-key, which also signs the session ids.
//
// With --http the server speaks Streamable HTTP at http://ADDR/mcp (a bare
// port binds 127.0.0.1) instead of stdio. Every request needs
// "Authorization: Bearer TOKEN" for one of the --token values and acts as
// that customer; others get 401. The protected-resource metadata is at
// /.well-known/oauth-protected-resource/mcp. /healthz answers while the
// process serves; /readyz while it should get traffic (database and broker
// reachable, not draining). On SIGTERM /readyz turns 503 at once, the
// server goes on serving for --drain-delay so that the balancer notices,
// then stops accepting and lets requests in flight finish.
//
// The caller is the customer named by the ORDERS_USER environment variable
// (default alice): over stdio the process environment is the identity.
// --db postgres://… keeps the data in PostgreSQL, which replicas on several
// machines can share. Otherwise the SQLite database at --db is created and
// seeded on first start; by default
// it is mcpgen-orders/orders.db in the user's cache directory (for example
// ~/.cache/mcpgen-orders/orders.db on Linux), or in the temp directory when
// there is no cache directory.
//
// Telemetry follows the OpenTelemetry conventions for MCP (package
// runtime/otelmcp). Traces and metrics are exported over OTLP/HTTP when the
// standard variables ask for it: OTEL_TRACES_EXPORTER / OTEL_METRICS_EXPORTER
// set to otlp, or, when those are unset, an OTEL_EXPORTER_OTLP_ENDPOINT (or
// the per-signal _TRACES_ / _METRICS_ endpoint); the exporters read the
// other OTEL_EXPORTER_OTLP_* settings, and OTEL_SERVICE_NAME (default
// orders-mcp) and OTEL_RESOURCE_ATTRIBUTES name the process.
// OTEL_SDK_DISABLED=true turns all of it off. --metrics-addr ADDR serves
// the metrics in the Prometheus format at http://ADDR/metrics; ADDR must be
// a loopback address.
//
// stdout carries only MCP messages; logs go to stderr. The server exits
// cleanly when stdin reaches EOF and on SIGINT or SIGTERM.
package main

import (
	"context"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/mcpgen-dev/mcpgen/examples/orders"
	"github.com/mcpgen-dev/mcpgen/examples/orders/ordersmcp"
	"github.com/mcpgen-dev/mcpgen/examples/orders/store"
	"github.com/mcpgen-dev/mcpgen/runtime"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr, os.Getenv)
	stop()
	os.Exit(code)
}

// run is main without the process globals, so that the exit code, flags and
// environment are explicit.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) int {
	fs := flag.NewFlagSet("orders-mcp", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dbPath := fs.String("db", defaultDBPath(), "SQLite database `file`, or a postgres:// URL; created and seeded on first start")
	httpMode := addHTTPFlags(fs)
	metricsAddr := fs.String("metrics-addr", "", "serve Prometheus metrics at http://`addr`/metrics (a loopback host:port; a bare port binds 127.0.0.1)")
	natsURL := fs.String("nats", "", "connect replicas through the NATS broker at `url` (default $ORDERS_NATS; needs --state-key)")
	stateKey := fs.String("state-key", "", "HMAC `key` (hex or base64, at least 16 bytes) signing requestState; replicas must share it (default $ORDERS_STATE_KEY, else random per process)")
	toolsets := fs.String("toolsets", getenv("MCPGEN_TOOLSETS"), "comma-separated `toolsets` to serve (orders, returns), or all (default $MCPGEN_TOOLSETS)")
	readOnly := fs.Bool("read-only", envBool(getenv("MCPGEN_READ_ONLY")), "serve only read-only tools and refuse writes (default $MCPGEN_READ_ONLY)")
	discovery := fs.Bool("discovery", envBool(getenv("MCPGEN_DISCOVERY")), "list search_operations, describe_operation and call_operation instead of the tools (default $MCPGEN_DISCOVERY)")
	fieldSelection := fs.Bool("field-selection", envBool(getenv("MCPGEN_FIELD_SELECTION")), "let callers ask for only some fields of a result with the _fields argument (default $MCPGEN_FIELD_SELECTION)")
	exportCost := fs.Duration("export-cost", orders.DefaultExportCost, "time export_order_history spends per order (it simulates the work of a real export)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *stateKey == "" {
		*stateKey = getenv("ORDERS_STATE_KEY")
	}
	if *natsURL == "" {
		*natsURL = getenv("ORDERS_NATS")
	}
	var stateKeys [][]byte
	if *stateKey != "" {
		key, err := parseStateKey(*stateKey)
		if err != nil {
			fmt.Fprintf(stderr, "orders-mcp: --state-key: %v\n", err)
			return 2
		}
		stateKeys = [][]byte{key}
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "orders-mcp: unexpected arguments %q\n", fs.Args())
		fs.Usage()
		return 2
	}
	if *natsURL != "" && (*stateKey == "" || httpMode.addr == "") {
		fmt.Fprintln(stderr, "orders-mcp: --nats needs --http and a --state-key shared by the replicas")
		return 2
	}
	if err := httpMode.check(); err != nil {
		fmt.Fprintf(stderr, "orders-mcp: %v\n", err)
		fs.Usage()
		return 2
	}
	logger := slog.New(slog.NewTextHandler(stderr, nil))

	st, err := openStore(ctx, *dbPath)
	if err != nil {
		logger.Error("open database", "err", err)
		return 1
	}
	defer st.Close()

	user := getenv("ORDERS_USER")
	if user == "" {
		user = "alice"
	}
	opts := runtime.Options{Logger: logger, StateKeys: stateKeys,
		Toolsets: splitList(*toolsets), ReadOnly: *readOnly, Discovery: *discovery, FieldSelection: *fieldSelection}
	tel, err := setupTelemetry(ctx, getenv, *metricsAddr, &opts, logger)
	if err != nil {
		logger.Error("telemetry", "err", err)
		return 2
	}
	defer func() {
		if err := tel.close(); err != nil {
			logger.Warn("telemetry shutdown", "err", err)
		}
	}()
	hc := &health{ping: st.Ping}
	if *natsURL != "" {
		b, err := connectBroker(*natsURL, logger)
		if err != nil {
			logger.Error("connect broker", "err", err)
			return 1
		}
		defer b.Close()
		opts.Broker = b
		hc.broker = b
	}
	svc := orders.NewService(st)
	svc.SetExportCost(*exportCost)
	srv := ordersmcp.NewServer(svc, opts)
	if err := srv.CheckToolsets(); err != nil {
		fmt.Fprintf(stderr, "orders-mcp: --toolsets: %v\n", err)
		return 2
	}
	if httpMode.addr != "" {
		if err := serveHTTP(ctx, srv, httpMode, hc, logger); err != nil {
			logger.Error("serve http", "err", err)
			return 1
		}
		return 0
	}
	logger.Info("serving MCP over stdio", "user", user, "db", redactDB(*dbPath))
	err = srv.ServeStdio(ctx, stdin, stdout, runtime.StdioOptions{Identity: &runtime.Identity{Subject: user}})
	if err != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, io.EOF) {
		logger.Error("serve stdio", "err", err)
		return 1
	}
	return 0
}

// database is what orders-mcp needs of a store: the service's Store,
// plus readiness and closing.
type database interface {
	orders.Store
	Ping(ctx context.Context) error
	Close() error
}

// openStore opens the PostgreSQL database at a postgres:// or
// postgresql:// URL, else the SQLite file at db (creating its directory).
func openStore(ctx context.Context, db string) (database, error) {
	if strings.HasPrefix(db, "postgres://") || strings.HasPrefix(db, "postgresql://") {
		return store.OpenPostgres(ctx, db)
	}
	if err := os.MkdirAll(filepath.Dir(db), 0o755); err != nil {
		return nil, err
	}
	return store.Open(ctx, db)
}

// envBool reads a boolean environment value: 1, true, yes or on.
func envBool(v string) bool {
	switch strings.ToLower(v) {
	case "1", "true", "yes", "on":
		return true
	}
	return false
}

// splitList splits a comma-separated list, dropping empty items.
func splitList(s string) []string {
	var out []string
	for _, item := range strings.Split(s, ",") {
		if item = strings.TrimSpace(item); item != "" {
			out = append(out, item)
		}
	}
	return out
}

// parseStateKey decodes a hex or base64 (standard or URL, padded or not)
// key. Hex is tried first: a hex string is also valid base64, and reading
// it as hex is what a user typing `openssl rand -hex 32` means.
func parseStateKey(s string) ([]byte, error) {
	key, err := hex.DecodeString(s)
	if err != nil {
		for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
			if key, err = enc.DecodeString(s); err == nil {
				break
			}
		}
	}
	if err != nil {
		return nil, errors.New("want hex or base64")
	}
	if len(key) < 16 {
		return nil, fmt.Errorf("key has %d bytes, want at least 16", len(key))
	}
	return key, nil
}

// redactDB hides the password of a database URL in logs.
func redactDB(db string) string {
	if u, err := url.Parse(db); err == nil && u.User != nil {
		return u.Redacted()
	}
	return db
}

// defaultDBPath is the database used when --db is not given.
func defaultDBPath() string {
	dir, err := os.UserCacheDir()
	if err != nil {
		dir = os.TempDir()
	}
	return filepath.Join(dir, "mcpgen-orders", "orders.db")
}
