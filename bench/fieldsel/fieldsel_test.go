package main

import (
	"context"
	"encoding/json"
	"os"
	"testing"

	"github.com/mcpgen-dev/mcpgen/runtime"
)

// BenchmarkAddTool measures what field selection adds to registering a
// tool: its definition is read, the selection argument added and the
// output schema relaxed. The tool is GitHub's pulls list, whose output
// schema (bundled with its definitions) is one of the document's largest.
//
//	go test ./fieldsel -bench AddTool
func BenchmarkAddTool(b *testing.B) {
	raw, err := os.ReadFile("../../../shared/openapi/github/api.github.com.json")
	if err != nil {
		b.Skip("no GitHub document beside the repository:", err)
	}
	var d map[string]any
	if err := json.Unmarshal(raw, &d); err != nil {
		b.Fatal(err)
	}
	op := get(d, "paths", "/repos/{owner}/{repo}/pulls", "get", "responses", "200", "content", "application/json").(map[string]any)
	def := `{"name":"list","inputSchema":{"type":"object","properties":{"page":{"type":"integer"}}},"outputSchema":` + bundle(d, op["schema"]) + `}`
	call := func(context.Context, []byte) (*runtime.ToolResult, error) { return nil, nil }
	for _, on := range []bool{false, true} {
		name := "plain"
		if on {
			name = "fieldSelection"
		}
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(def)))
			b.ReportAllocs()
			for b.Loop() {
				srv := runtime.NewServer(runtime.Options{FieldSelection: on})
				srv.AddTool(runtime.ToolDef{Name: "list", Definition: def, Call: call})
			}
		})
	}
}
