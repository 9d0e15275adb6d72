package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpgen-dev/mcpgen/runtime"
)

// statsSpec has a tool with an output schema (which field selection
// offers paths of) and one without.
const statsSpec = `version: 1
server: {name: shop, version: 1.0.0}
surface: {fieldSelection: true%s}
tools:
  list_orders:
    description: Lists the orders.
    annotations: {readOnlyHint: true}
    input:
      properties:
        limit: {type: integer}
    output:
      type: object
      properties:
        orders:
          type: array
          items:
            type: object
            properties:
              order_id: {type: string}
              status: {type: string}
              customer:
                type: object
                properties:
                  name: {type: string}
                  email: {type: string}
        next_cursor: {type: string}
      required: [orders]
  ping:
    input: {}
`

// TestStatsCountWhatToolsListServes measures each tool as mcpgen stats
// does and as a runtime server started with the spec's surface serves it
// in tools/list: with field selection on, the _fields argument and its
// enum of paths count, whether output schemas are listed or not.
func TestStatsCountWhatToolsListServes(t *testing.T) {
	for _, surface := range []string{"", ", outputSchemas: false"} {
		t.Run("surface"+surface, func(t *testing.T) {
			dir := t.TempDir()
			specPath := filepath.Join(dir, "mcpgen.yaml")
			if err := os.WriteFile(specPath, []byte(strings.Replace(statsSpec, "%s", surface, 1)), 0o644); err != nil {
				t.Fatal(err)
			}
			g, err := buildGeneration(specPath, buildOptions{Package: "mcpstats"})
			if err != nil {
				t.Fatal(err)
			}
			stats, err := toolStats(g)
			if err != nil {
				t.Fatal(err)
			}
			defs, err := toolDefinitions(g)
			if err != nil {
				t.Fatal(err)
			}
			served := servedDefinitions(t, defs, runtime.Options{FieldSelection: g.Surface.FieldSelection, OmitOutputSchemas: g.Surface.OmitOutputSchemas})
			if len(stats) != 2 || len(served) != 2 {
				t.Fatalf("stats %d tools, served %d, want 2", len(stats), len(served))
			}
			for _, s := range stats {
				def := served[s.Name]
				if s.Bytes != len(def) {
					t.Errorf("%s: stats counts %d bytes, tools/list serves %d:\n%s", s.Name, s.Bytes, len(def), def)
				}
			}
			if !strings.Contains(served["list_orders"], `"orders.customer.email"`) {
				t.Errorf("list_orders is served without the field paths: %s", served["list_orders"])
			}
		})
	}
}

// servedDefinitions registers the definitions on a runtime server with
// opts and returns, by name, each tool as its tools/list sends it over
// stdio.
func servedDefinitions(t *testing.T, defs []generatedTool, opts runtime.Options) map[string]string {
	t.Helper()
	srv := runtime.NewServer(opts)
	for _, d := range defs {
		srv.AddTool(runtime.ToolDef{Name: d.Name, Toolset: d.Toolset, Definition: d.Definition,
			Call: func(context.Context, []byte) (*runtime.ToolResult, error) { return &runtime.ToolResult{}, nil }})
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	go func() {
		srv.ServeStdio(context.Background(), inR, outW, runtime.StdioOptions{})
		outW.Close()
	}()
	go func() {
		io.WriteString(inW, `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`+"\n")
		inW.Close()
	}()
	line, err := bufio.NewReader(outR).ReadBytes('\n')
	if err != nil {
		t.Fatal(err)
	}
	var resp struct {
		Result struct {
			Tools []json.RawMessage `json:"tools"`
		} `json:"result"`
	}
	if err := json.Unmarshal(line, &resp); err != nil {
		t.Fatalf("%s: %v", line, err)
	}
	io.Copy(io.Discard, outR)
	out := map[string]string{}
	for _, raw := range resp.Result.Tools {
		var tool struct{ Name string }
		json.Unmarshal(raw, &tool)
		out[tool.Name] = string(raw)
	}
	return out
}
