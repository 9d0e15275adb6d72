// Command orders-rest-mcp is the MCP server mcpgen generates from the
// orders REST API's description (examples/orders/openapi.yaml, package
// restmcp): each tool calls orders-rest.
//
// Usage:
//
//	orders-rest-mcp [--upstream URL]
//	orders-rest-mcp [--upstream URL] --http ADDR
//
// --upstream is the REST API's base URL (default: the document's server,
// http://127.0.0.1:8080, where orders-rest listens by default).
//
// Over stdio the server acts upstream with the bearer token in
// MCPGEN_BEARERAUTH_TOKEN (the variable upstream.CredentialsFromEnv reads
// for the document's bearerAuth scheme), so it sees that customer's orders.
// With --http ADDR it serves Streamable HTTP at http://ADDR/mcp (a bare
// port binds 127.0.0.1) and passes each caller's own bearer token on to the
// REST API, which decides who the caller is: one MCP server, each customer
// acting as themselves. Logs go to stderr; the server exits at end of input
// and on SIGINT or SIGTERM.
package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/mcpgen-dev/mcpgen/examples/orders/restmcp"
	"github.com/mcpgen-dev/mcpgen/runtime"
	"github.com/mcpgen-dev/mcpgen/runtime/upstream"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("orders-rest-mcp", flag.ContinueOnError)
	fs.SetOutput(stderr)
	baseURL := fs.String("upstream", restmcp.UpstreamURL, "base `URL` of the orders REST API")
	httpAddr := fs.String("http", "", "serve Streamable HTTP at http://`ADDR`/mcp, passing each caller's bearer token upstream")
	fieldSelection := fs.Bool("field-selection", false, "let callers ask for only some fields of a result with the _fields argument")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "orders-rest-mcp: unexpected arguments %q\n", fs.Args())
		return 2
	}
	logger := slog.New(slog.NewTextHandler(stderr, nil))

	if *httpAddr != "" {
		// The caller's token is its identity (see passThrough); the REST API
		// verifies it on every call.
		api := restmcp.NewUpstream(*baseURL,
			upstream.WithCredentialsFor(func(ctx context.Context, id runtime.Identity) (upstream.Credentials, error) {
				token, _ := id.Claims[tokenClaim].(string)
				return upstream.Credentials{"bearerAuth": {Token: token}}, nil
			}),
			upstream.WithLogger(logger))
		srv := restmcp.NewServer(api, runtime.Options{Logger: logger, FieldSelection: *fieldSelection})
		mux := http.NewServeMux()
		srv.Mount(mux, "/mcp", runtime.HTTPOptions{Logger: logger, Auth: &runtime.AuthOptions{Verifier: passThrough{}}})
		addr := *httpAddr
		if !strings.Contains(addr, ":") {
			addr = "127.0.0.1:" + addr
		}
		ln, err := net.Listen("tcp", addr)
		if err != nil {
			logger.Error("listen", "err", err)
			return 1
		}
		logger.Info("serving MCP over Streamable HTTP", "url", "http://"+ln.Addr().String()+"/mcp", "upstream", *baseURL)
		if err := runtime.Serve(ctx, ln, mux, runtime.ServeOptions{Logger: logger}); err != nil && !errors.Is(err, context.Canceled) {
			logger.Error("serve http", "err", err)
			return 1
		}
		return 0
	}

	api := restmcp.NewUpstream(*baseURL,
		upstream.WithCredentials(restmcp.UpstreamCredentialsFromEnv()),
		upstream.WithLogger(logger))
	srv := restmcp.NewServer(api, runtime.Options{Logger: logger, FieldSelection: *fieldSelection})
	logger.Info("serving MCP over stdio", "upstream", *baseURL)
	err := srv.ServeStdio(ctx, stdin, stdout, runtime.StdioOptions{})
	if err != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, io.EOF) {
		logger.Error("serve stdio", "err", err)
		return 1
	}
	return 0
}

// tokenClaim holds the caller's bearer token in its Identity's Claims.
const tokenClaim = "orders_rest_token"

// passThrough accepts any bearer token and keeps it in the caller's
// identity, for the upstream call to present. The Subject, which may be
// logged, is a digest of the token, never the token. It checks nothing itself: the REST API
// answers 401 to a token it does not know, which reaches the caller as a
// tool error, so an unknown token never sees any order.
type passThrough struct{}

func (passThrough) Verify(ctx context.Context, token string, r *http.Request) (runtime.Identity, error) {
	if token == "" {
		return runtime.Identity{}, errors.New("no bearer token")
	}
	sum := sha256.Sum256([]byte(token))
	return runtime.Identity{Subject: "token-" + hex.EncodeToString(sum[:4]), Claims: map[string]any{tokenClaim: token}}, nil
}
