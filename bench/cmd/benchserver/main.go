// Command benchserver serves the benchmark's get_order_status tool (package
// tool) from one of three MCP implementations, so that a driver can measure
// them side by side as separate processes:
//
//	benchserver -impl mcpgen|gosdk|mcpgo -transport stdio|http [-addr 127.0.0.1:0] [-cpuprofile F] [-memprofile F]
//
// Over HTTP it prints "listening http://ADDR/mcp" on stdout once it accepts
// connections and serves until stdin closes. Each implementation is used as
// its documentation recommends for a stateless 2026-07-28 server, with input
// and output validation against the same schemas on.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"runtime/pprof"
	"time"

	"github.com/mcpgen-dev/mcpgen/bench/tool"
	"github.com/mcpgen-dev/mcpgen/bench/tool/benchmcp"
	"github.com/mcpgen-dev/mcpgen/runtime"

	mcpgomcp "github.com/mark3labs/mcp-go/mcp"
	mcpgoserver "github.com/mark3labs/mcp-go/server"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "benchserver:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	fs := flag.NewFlagSet("benchserver", flag.ContinueOnError)
	impl := fs.String("impl", "mcpgen", "implementation: mcpgen, gosdk or mcpgo")
	transport := fs.String("transport", "stdio", "transport: stdio or http")
	addr := fs.String("addr", "127.0.0.1:0", "HTTP listen address (loopback)")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the whole run to this file")
	memProfile := fs.String("memprofile", "", "write an allocation profile to this file on exit")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			return err
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer func() { pprof.StopCPUProfile(); f.Close() }()
	}
	if *memProfile != "" {
		defer writeHeapProfile(*memProfile)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))

	var (
		serveStdio func(ctx context.Context) error
		handler    http.Handler
	)
	switch *impl {
	case "mcpgen":
		srv := benchmcp.NewServer(tool.Handler{}, runtime.Options{Logger: logger})
		serveStdio = func(ctx context.Context) error {
			return srv.ServeStdio(ctx, os.Stdin, os.Stdout, runtime.StdioOptions{})
		}
		handler = srv.Handler(runtime.HTTPOptions{MaxConcurrent: 1024, Logger: logger})
	case "gosdk":
		srv := gosdkServer()
		serveStdio = func(ctx context.Context) error { return srv.Run(ctx, &mcp.StdioTransport{}) }
		handler = mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv },
			&mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true, Logger: logger})
	case "mcpgo":
		srv := mcpgoServer()
		serveStdio = func(ctx context.Context) error {
			return mcpgoserver.NewStdioServer(srv).Listen(ctx, os.Stdin, os.Stdout)
		}
		handler = mcpgoserver.NewStreamableHTTPServer(srv, mcpgoserver.WithStateLess(true))
	default:
		return fmt.Errorf("unknown -impl %q", *impl)
	}

	switch *transport {
	case "stdio":
		return serveStdio(ctx)
	case "http":
		ln, err := net.Listen("tcp", *addr)
		if err != nil {
			return err
		}
		mux := http.NewServeMux()
		mux.Handle("/mcp", handler)
		hs := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
		go func() {
			// The driver closes stdin to stop the server.
			io.Copy(io.Discard, bufio.NewReader(os.Stdin))
			hs.Close()
		}()
		fmt.Printf("listening http://%s/mcp\n", ln.Addr())
		if err := hs.Serve(ln); err != http.ErrServerClosed {
			return err
		}
		return nil
	}
	return fmt.Errorf("unknown -transport %q", *transport)
}

func writeHeapProfile(path string) {
	f, err := os.Create(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchserver:", err)
		return
	}
	defer f.Close()
	if err := pprof.Lookup("allocs").WriteTo(f, 0); err != nil {
		fmt.Fprintln(os.Stderr, "benchserver:", err)
	}
}

// answer is the peers' handler body: the same answer as tool.Handler.
func answer(in tool.Input) tool.Output {
	status := tool.Shipped
	return tool.Output{
		Found:   true,
		OrderID: in.OrderID,
		Status:  &status,
		Items:   tool.Items(in.Quantity, in.Express != nil && *in.Express),
	}
}

// gosdkServer registers the tool with the official SDK's typed AddTool,
// which validates the input and the output against the given schemas.
func gosdkServer() *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "bench", Version: "1.0.0"}, nil)
	mcp.AddTool(srv, &mcp.Tool{
		Name:         tool.Name,
		Description:  "Tells the status of an order and how many items it holds.",
		InputSchema:  jsonRaw(tool.InputSchema),
		OutputSchema: jsonRaw(tool.OutputSchema),
	}, func(ctx context.Context, req *mcp.CallToolRequest, in tool.Input) (*mcp.CallToolResult, tool.Output, error) {
		return nil, answer(in), nil
	})
	return srv
}

// mcpgoServer registers the tool with mcp-go's structured handler and turns
// on its input and output schema validation.
func mcpgoServer() *mcpgoserver.MCPServer {
	srv := mcpgoserver.NewMCPServer("bench", "1.0.0",
		mcpgoserver.WithToolCapabilities(false),
		mcpgoserver.WithInputSchemaValidation(),
		mcpgoserver.WithOutputSchemaValidation(),
	)
	t := mcpgomcp.NewToolWithRawSchema(tool.Name, "Tells the status of an order and how many items it holds.", tool.InputSchema)
	t.RawOutputSchema = tool.OutputSchema
	srv.AddTool(t, mcpgomcp.NewStructuredToolHandler(func(ctx context.Context, req mcpgomcp.CallToolRequest, in tool.Input) (tool.Output, error) {
		return answer(in), nil
	}))
	return srv
}

// jsonRaw hands a schema to go-sdk as raw JSON, which it accepts in place
// of a *jsonschema.Schema.
func jsonRaw(b []byte) json.RawMessage { return json.RawMessage(b) }
