package main

import (
	"context"
	"crypto/subtle"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/mcpgen-dev/mcpgen/runtime"
)

// demoScopes are granted to every demo token: the demo verifier stands in
// for an authorization server, and its users may use every tool.
func demoScopes() []string { return []string{"orders:read", "orders:write"} }

// httpFlags are the flags of the Streamable HTTP mode.
type httpFlags struct {
	addr       string
	tokens     tokenFlag
	drainDelay time.Duration
}

// addHTTPFlags registers --http and --token on fs.
func addHTTPFlags(fs *flag.FlagSet) *httpFlags {
	f := &httpFlags{tokens: tokenFlag{}}
	fs.StringVar(&f.addr, "http", "", "serve Streamable HTTP on `addr` (host:port; a bare port binds 127.0.0.1) at /mcp instead of stdio")
	fs.DurationVar(&f.drainDelay, "drain-delay", 0, "with --http: on SIGTERM, report not ready and keep serving this long before draining")
	fs.Var(f.tokens, "token", "with --http: accept bearer `TOKEN=USER` as that customer (repeatable); requests without a listed token get 401")
	return f
}

// check rejects inconsistent flags before anything is opened.
func (f *httpFlags) check() error {
	if f.addr != "" && len(f.tokens) == 0 {
		return errors.New("--http needs at least one --token TOKEN=USER")
	}
	if f.addr == "" && len(f.tokens) > 0 {
		return errors.New("--token only applies with --http")
	}
	return nil
}

// tokenFlag is the repeatable --token TOKEN=USER flag.
type tokenFlag map[string]string

func (t tokenFlag) String() string { return "" }

func (t tokenFlag) Set(v string) error {
	token, user, ok := strings.Cut(v, "=")
	if !ok || token == "" || user == "" {
		return errors.New("want TOKEN=USER")
	}
	if _, dup := t[token]; dup {
		return fmt.Errorf("token %q given twice", token)
	}
	t[token] = user
	return nil
}

// demoVerifier maps the --token table to customers. A real deployment
// verifies OAuth access tokens (signature, expiry, audience) instead.
type demoVerifier struct {
	tokens map[string]string
}

func (v demoVerifier) Verify(ctx context.Context, token string, r *http.Request) (runtime.Identity, error) {
	for t, user := range v.tokens {
		// Constant time, so response timing does not reveal token prefixes.
		if subtle.ConstantTimeCompare([]byte(t), []byte(token)) == 1 {
			return runtime.Identity{Subject: user, Scopes: demoScopes()}, nil
		}
	}
	return runtime.Identity{}, errors.New("unknown token")
}

// serveHTTP serves srv at /mcp on f.addr until ctx is cancelled; the log
// line names the bound URL (useful with port 0).
func serveHTTP(ctx context.Context, srv *runtime.Server, f *httpFlags, hc *health, logger *slog.Logger) error {
	mux := http.NewServeMux()
	hc.mount(mux)
	srv.Mount(mux, "/mcp", runtime.HTTPOptions{
		Logger: logger,
		Auth: &runtime.AuthOptions{
			Verifier:        demoVerifier{tokens: f.tokens},
			ScopesSupported: demoScopes(),
		},
	})
	ln, err := net.Listen("tcp", listenAddr(f.addr))
	if err != nil {
		return err
	}
	logger.Info("serving MCP over Streamable HTTP", "url", "http://"+ln.Addr().String()+"/mcp", "users", len(f.tokens))
	// On SIGTERM: not ready at once, serving for drainDelay, then drain.
	serveCtx, stop := context.WithCancel(context.WithoutCancel(ctx))
	defer stop()
	go func() {
		select {
		case <-ctx.Done():
		case <-serveCtx.Done():
			return
		}
		hc.draining.Store(true)
		logger.Info("draining", "delay", f.drainDelay)
		select {
		case <-time.After(f.drainDelay):
		case <-serveCtx.Done():
		}
		stop()
	}()
	return runtime.Serve(serveCtx, ln, mux, runtime.ServeOptions{Logger: logger})
}

// listenAddr binds a bare port to loopback, as runtime.ListenAndServe does.
func listenAddr(addr string) string {
	if !strings.Contains(addr, ":") {
		return "127.0.0.1:" + addr
	}
	if strings.HasPrefix(addr, ":") {
		return "127.0.0.1" + addr
	}
	return addr
}
