package runtime

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestStdioEOFAnswersEveryRequestRead feeds ServeStdio input that ends
// right after the requests, as `printf '...' | server` does: every request
// already read is answered before ServeStdio returns, slow ones included,
// and a handler that outlives the drain time is cancelled and still
// answered.
func TestStdioEOFAnswersEveryRequestRead(t *testing.T) {
	const initialize = `{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"sh","version":"1"}}}`
	legacyCall := func(id, tool string) string {
		return fmt.Sprintf(`{"jsonrpc":"2.0","id":%q,"method":"tools/call","params":{"name":%q,"arguments":{"text":%q}}}`, id, tool, id)
	}
	modernCall := func(id, tool string) string {
		return reqLine(id, "tools/call", fmt.Sprintf(`"name":%q,"arguments":{"text":%q}`, tool, id))
	}
	many := func(n int) []string {
		var lines []string
		for i := range n {
			lines = append(lines, modernCall(fmt.Sprintf("m%d", i), "sleepy"))
		}
		return lines
	}
	tests := []struct {
		name   string
		lines  []string
		noEOL  bool // the last line has no newline
		opts   StdioOptions
		errors []string // ids answered with an error; the rest must succeed
	}{
		{name: "legacy handshake then call", lines: []string{initialize, legacyCall("c1", "echo")}},
		{name: "legacy slow call", lines: []string{initialize, legacyCall("c1", "sleepy"), legacyCall("c2", "echo")}},
		{name: "modern calls, last line unterminated", lines: []string{modernCall("a", "echo"), modernCall("b", "sleepy")}, noEOL: true},
		{name: "more calls than in-flight slots", lines: many(40), opts: StdioOptions{MaxInFlight: 2}},
		{name: "handler outlives the drain time", lines: []string{modernCall("quick", "echo"), modernCall("hang", "hang")},
			opts: StdioOptions{DrainTimeout: 50 * time.Millisecond}, errors: []string{"hang"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, Options{})
			f.srv.AddTool(ToolDef{Name: "sleepy", Definition: toolDef("sleepy"),
				Call: func(ctx context.Context, args []byte) (*ToolResult, error) {
					time.Sleep(100 * time.Millisecond)
					return &ToolResult{Content: []Content{TextContent(string(args))}}, nil
				}})
			f.srv.AddTool(ToolDef{Name: "hang", Definition: toolDef("hang"),
				Call: func(ctx context.Context, args []byte) (*ToolResult, error) {
					<-ctx.Done()
					return nil, context.Cause(ctx)
				}})
			in := strings.Join(tc.lines, "\n")
			if !tc.noEOL {
				in += "\n"
			}
			var out syncBuffer
			done := make(chan error, 1)
			go func() { done <- f.srv.ServeStdio(context.Background(), strings.NewReader(in), &out, tc.opts) }()
			select {
			case err := <-done:
				if err != nil {
					t.Fatalf("ServeStdio at EOF = %v, want nil", err)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("ServeStdio did not return after EOF")
			}
			answers := map[string]wireMsg{}
			sc := bufio.NewScanner(bytes.NewReader([]byte(out.String())))
			for sc.Scan() {
				var m wireMsg
				if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
					t.Fatalf("invalid line %q: %v", sc.Text(), err)
				}
				var id string
				json.Unmarshal(m.ID, &id)
				if _, dup := answers[id]; dup {
					t.Errorf("two answers to %q", id)
				}
				m.raw = sc.Text()
				answers[id] = m
			}
			if len(answers) != len(tc.lines) {
				t.Errorf("%d answers to %d requests:\n%s", len(answers), len(tc.lines), out.String())
			}
			for _, line := range tc.lines {
				var req struct{ ID string }
				json.Unmarshal([]byte(line), &req)
				m, ok := answers[req.ID]
				switch {
				case !ok:
					t.Errorf("no answer to %q", req.ID)
				case slices.Contains(tc.errors, req.ID):
					if m.Error == nil && !bytes.Contains(m.Result, []byte(`"isError":true`)) {
						t.Errorf("%q: want an error answer, got %s", req.ID, m.raw)
					} else if !strings.Contains(m.raw, errDrainTimeout.Error()) {
						t.Errorf("%q: want an error answer, got %s", req.ID, m.raw)
					}
				case m.Error != nil || m.Result == nil || bytes.Contains(m.Result, []byte(`"isError":true`)):
					t.Errorf("%q: want a result, got %s", req.ID, m.raw)
				}
			}
		})
	}
}
