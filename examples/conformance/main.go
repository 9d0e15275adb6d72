// Command conformance is the "everything server" of the official MCP
// conformance suite (@modelcontextprotocol/conformance), built the way a
// user builds a server with mcpgen: mcpgen.yaml declares the tools,
// resources, templates and prompts the suite calls, mcpgen generates
// ./conformancemcp, and handler.go implements the generated Handler.
//
// Usage:
//
//	go run ./examples/conformance                       # stdio
//	go run ./examples/conformance --http 127.0.0.1:PORT # Streamable HTTP at /mcp
//
// conformance/run.sh starts it with --http and runs the suite against it.
// Logs go to stderr; stdout carries only MCP messages in stdio mode.
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
	"syscall"

	"github.com/mcpgen-dev/mcpgen/runtime"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// run is main without the process globals.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("conformance", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("http", "", "serve Streamable HTTP on `addr` (host:port; a bare port binds 127.0.0.1) at /mcp instead of stdio")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "conformance: unexpected arguments %q\n", fs.Args())
		return 2
	}
	logger := slog.New(slog.NewTextHandler(stderr, nil))
	srv := newServer(runtime.Options{Logger: logger})
	if *addr == "" {
		err := srv.ServeStdio(ctx, stdin, stdout, runtime.StdioOptions{})
		if err != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, io.EOF) {
			logger.Error("serve stdio", "err", err)
			return 1
		}
		return 0
	}
	mux := http.NewServeMux()
	// No Auth: the suite's dns-rebinding scenario applies to unauthenticated
	// localhost servers, which the default AllowedHosts protect. Browser
	// pages of this very server (a localhost origin on its port) may call
	// it; every other Origin is answered 403.
	srv.Mount(mux, "/mcp", runtime.HTTPOptions{Logger: logger, AllowedOrigins: localOrigins(*addr)})
	logger.Info("serving MCP over Streamable HTTP", "addr", *addr, "path", "/mcp")
	if err := runtime.ListenAndServe(ctx, *addr, mux, runtime.ServeOptions{Logger: logger}); err != nil {
		logger.Error("serve http", "err", err)
		return 1
	}
	return 0
}

// localOrigins are the browser origins of a server listening on addr on
// the loopback interface: http://localhost, 127.0.0.1 and [::1] on its port.
func localOrigins(addr string) []string {
	_, port, err := net.SplitHostPort(addr)
	if err != nil {
		port = addr // a bare port
	}
	var origins []string
	for _, host := range []string{"localhost", "127.0.0.1", "[::1]"} {
		origins = append(origins, "http://"+host+":"+port)
	}
	return origins
}
