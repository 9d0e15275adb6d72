// Command budget measures result budgets on recorded API responses: each
// JSON file named on the command line is returned as the structured result
// of a tool served by a runtime.Server with Options.ResultBudgetTokens,
// called over stdio, and the sizes of structuredContent before and after
// are printed with what the marker kept.
//
//	go run ./budget -tokens 5000 responses/*.json
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/mcpgen-dev/mcpgen/runtime"
)

func main() {
	tokens := flag.Int("tokens", 5000, "the result budget in `tokens`")
	flag.Parse()
	fmt.Printf("%-40s  %10s  %10s  %s\n", "response", "bytes", "cut bytes", "kept items")
	for _, file := range flag.Args() {
		data, err := os.ReadFile(file)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		before, _, err := measure(data, 0)
		if err != nil {
			fmt.Fprintf(os.Stderr, "%s: %v\n", file, err)
			os.Exit(1)
		}
		after, kept, err := measure(data, *tokens)
		if err != nil {
			fmt.Fprintf(os.Stderr, "%s: %v\n", file, err)
			os.Exit(1)
		}
		fmt.Printf("%-40s  %10d  %10d  %s\n", filepath.Base(file), before, after, kept)
	}
}

// measure serves data as a tool's structured result and returns the size
// of structuredContent as the server sends it with the budget (0: none)
// and how many items it kept.
func measure(data []byte, tokens int) (size int, kept string, err error) {
	srv := runtime.NewServer(runtime.Options{ResultBudgetTokens: tokens})
	srv.AddTool(runtime.ToolDef{
		Name:       "list",
		Definition: `{"name":"list","inputSchema":{"type":"object","properties":{"page":{"type":"integer"},"per_page":{"type":"integer"}}}}`,
		Call: func(context.Context, []byte) (*runtime.ToolResult, error) {
			return runtime.StructuredResult(data), nil
		},
	})
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	go func() { srv.ServeStdio(context.Background(), inR, outW, runtime.StdioOptions{}); outW.Close() }()
	go func() {
		fmt.Fprintln(inW, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"list","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`)
	}()
	sc := bufio.NewScanner(outR)
	sc.Buffer(nil, 64<<20)
	if !sc.Scan() {
		return 0, "", fmt.Errorf("no response")
	}
	inW.Close()
	var resp struct {
		Result struct {
			StructuredContent json.RawMessage `json:"structuredContent"`
			Meta              map[string]struct {
				KeptItems    *int `json:"keptItems"`
				OmittedItems *int `json:"omittedItems"`
			} `json:"_meta"`
		} `json:"result"`
	}
	if err := json.Unmarshal(sc.Bytes(), &resp); err != nil {
		return 0, "", err
	}
	kept = "whole"
	if t, ok := resp.Result.Meta["io.mcpgen/truncated"]; ok && t.KeptItems != nil {
		kept = fmt.Sprintf("%d of %d", *t.KeptItems, *t.KeptItems+*t.OmittedItems)
	}
	return len(resp.Result.StructuredContent), kept, nil
}
