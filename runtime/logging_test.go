package runtime

import (
	"context"
	"net/http/httptest"
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

// chattyServer has a tool that logs at info and at error.
func chattyServer(t *testing.T) *Server {
	f := newFixture(t, Options{})
	f.srv.AddTool(ToolDef{Name: "chatty", Definition: toolDef("chatty"),
		Call: func(ctx context.Context, args []byte) (*ToolResult, error) {
			Log(ctx, "info", "app", "starting")
			Log(ctx, "error", "", "disk full")
			return &ToolResult{Content: []Content{TextContent("done")}}, nil
		}})
	return f.srv
}

// In a 2025-11-25 session logging/setLevel is what Log follows: nothing
// before it, then the messages at or above the level, before the result.
func TestLegacyLogFollowsSetLevel(t *testing.T) {
	c := startClient(t, chattyServer(t), StdioOptions{})
	c.legacyCall(1, "initialize", legacyInit).res(t)
	if m := c.legacyCall(2, "tools/call", `{"name":"chatty"}`); m.Result == nil {
		t.Fatalf("before logging/setLevel: want only the result, got %s", m.raw)
	}
	c.legacyCall(3, "logging/setLevel", `{"level":"error"}`).res(t)
	c.send(legacyLine(4, "tools/call", `{"name":"chatty"}`))
	m := c.recv()
	if m.Method != "notifications/message" {
		t.Fatalf("want notifications/message, got %s", m.raw)
	}
	jsonEq(t, "log", m.Params, `{"level":"error","data":"disk full"}`)
	if m := c.recv(); string(m.ID) != "4" {
		t.Fatalf("want the result after the log, got %s", m.raw)
	}
}

// Over HTTP the messages go on the request's own SSE stream.
func TestLegacyHTTPLogOnRequestStream(t *testing.T) {
	ts := httptest.NewServer(chattyServer(t).Handler(HTTPOptions{}))
	t.Cleanup(ts.Close)
	sid := startSession(t, ts.URL)
	if r := do(t, ts.URL, hreq{body: legacyLine(1, "logging/setLevel", `{"level":"info"}`), header: legacyHeaders(sid)}); r.status != 200 || r.code(t) != 0 {
		t.Fatalf("setLevel: %d %s", r.status, r.body)
	}
	hd := legacyHeaders(sid)
	hd["Accept"] = "application/json, text/event-stream"
	resp, br := openStream(t, ts.URL, legacyLine(2, "tools/call", `{"name":"chatty"}`), hd)
	defer resp.Body.Close()
	for _, want := range []string{`{"level":"info","logger":"app","data":"starting"}`, `{"level":"error","data":"disk full"}`} {
		m := nextData(t, br)
		if m.Method != "notifications/message" {
			t.Fatalf("want notifications/message on the POST stream, got %s", m.raw)
		}
		jsonEq(t, "log", m.Params, want)
	}
	if m := nextData(t, br); string(m.ID) != "2" {
		t.Fatalf("want the result, got %s", m.raw)
	}
}
