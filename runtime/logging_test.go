package runtime

import (
	"context"
	"testing"
)

func TestLogFollowsRequestedLevel(t *testing.T) {
	f := newFixture(t, Options{})
	f.srv.AddTool(ToolDef{Name: "chatty", Definition: toolDef("chatty"),
		Call: func(ctx context.Context, args []byte) (*ToolResult, error) {
			Log(ctx, "info", "app", "starting")
			Log(ctx, "error", "", map[string]any{"disk": "full"})
			Log(ctx, "verbose", "app", "not a level")
			return &ToolResult{Content: []Content{TextContent("done")}}, nil
		}})
	c := startClient(t, f.srv, StdioOptions{})

	// Without a logLevel the server must not log to the client at all.
	m := callMeta(c, 1, "tools/call", testMeta, `"name":"chatty","arguments":{}`)
	if m.Method != "" || m.Result == nil {
		t.Fatalf("without logLevel: want only the result, got %s", m.raw)
	}

	// info: both messages, in order, before the result.
	meta := func(level string) string {
		return `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/logLevel":"` + level + `"}`
	}
	c.send(reqLineMeta(2, "tools/call", meta("info"), `"name":"chatty","arguments":{}`))
	for _, want := range []string{`{"level":"info","logger":"app","data":"starting"}`, `{"level":"error","data":{"disk":"full"}}`} {
		m := c.recv()
		if m.Method != "notifications/message" {
			t.Fatalf("want notifications/message, got %s", m.raw)
		}
		jsonEq(t, "log", m.Params, want)
	}
	if m := c.recv(); m.Result == nil {
		t.Fatalf("want the result after the logs, got %s", m.raw)
	}

	// error: info is filtered out.
	c.send(reqLineMeta(3, "tools/call", meta("error"), `"name":"chatty","arguments":{}`))
	if m := c.recv(); m.Method != "notifications/message" || string(m.Params) == "" {
		t.Fatalf("want the error log, got %s", m.raw)
	} else {
		jsonEq(t, "log", m.Params, `{"level":"error","data":{"disk":"full"}}`)
	}
	if m := c.recv(); m.Result == nil {
		t.Fatalf("want the result, got %s", m.raw)
	}
}
