package runtime

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// legacyLine builds a 2025-era request: params as given, no envelope.
func legacyLine(id any, method, params string) string {
	idJSON, _ := json.Marshal(id)
	if params == "" {
		return fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":%q}`, idJSON, method)
	}
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":%q,"params":%s}`, idJSON, method, params)
}

func (c *testClient) legacyCall(id any, method, params string) wireMsg {
	c.t.Helper()
	c.send(legacyLine(id, method, params))
	m := c.recv()
	if want, _ := json.Marshal(id); string(m.ID) != string(want) {
		c.t.Fatalf("want the response to id %s, got %s", want, m.raw)
	}
	return m
}

const legacyInit = `{"protocolVersion":"2025-11-25","capabilities":{"elicitation":{}},"clientInfo":{"name":"old-client","version":"1.0"}}`

// legacyFixture adds tools whose output is not object-shaped.
func legacyFixture(t *testing.T) *fixture {
	f := newFixture(t, Options{Instructions: "be brief", ListCache: CacheHint{TTLMs: 5000, Scope: "public"}})
	f.srv.AddTool(ToolDef{Name: "list_ids",
		Definition: `{"name":"list_ids","inputSchema":{"type":"object"},"outputSchema":{"type":"array","items":{"type":"string"}}}`,
		Call: func(ctx context.Context, args []byte) (*ToolResult, error) {
			return StructuredResult([]byte(`["a","b"]`)), nil
		}})
	f.srv.AddTool(ToolDef{Name: "status",
		Definition: `{"name":"status","inputSchema":{"type":"object"},"outputSchema":{"type":"object","properties":{"ok":{"type":"boolean"}}}}`,
		Call: func(ctx context.Context, args []byte) (*ToolResult, error) {
			return StructuredResult([]byte(`{"ok":true}`)), nil
		}})
	return f
}

func TestLegacyStdioHandshakeAndShapes(t *testing.T) {
	f := legacyFixture(t)
	c := startClient(t, f.srv, StdioOptions{Identity: &Identity{Subject: "alice"}})

	// server/discover before initialize is answered and pins nothing.
	if r := c.call("d", "server/discover", "").res(t); r["resultType"] != "complete" {
		t.Fatalf("discover: %v", r)
	}
	m := c.legacyCall(1, "initialize", legacyInit)
	jsonEq(t, "initialize", m.Result, `{"protocolVersion":"2025-11-25",
		"capabilities":{"completions":{},"prompts":{"listChanged":true},"resources":{"subscribe":true,"listChanged":true},"tools":{"listChanged":true},"logging":{}},
		"serverInfo":{"name":"test-server","version":"1.2.3"},"instructions":"be brief"}`)
	c.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)

	jsonEq(t, "ping", c.legacyCall(2, "ping", "").Result, `{}`)

	// Lists: no resultType, cache hints or serverInfo; a non-object
	// outputSchema is left out, an object one kept.
	m = c.legacyCall(3, "tools/list", `{}`)
	var list struct {
		Tools []map[string]json.RawMessage `json:"tools"`
	}
	json.Unmarshal(m.Result, &list)
	r := m.res(t)
	for _, k := range []string{"resultType", "ttlMs", "cacheScope", "_meta"} {
		if _, ok := r[k]; ok {
			t.Errorf("tools/list: legacy result has %q: %s", k, m.raw)
		}
	}
	for _, tool := range list.Tools {
		name := strings.Trim(string(tool["name"]), `"`)
		_, has := tool["outputSchema"]
		if name == "list_ids" && has {
			t.Errorf("list_ids: array outputSchema must not be listed to 2025 clients")
		}
		if name == "status" && !has {
			t.Errorf("status: object outputSchema must be kept")
		}
	}

	// tools/call: array structuredContent is dropped, its text block stays.
	jsonEq(t, "list_ids", c.legacyCall(4, "tools/call", `{"name":"list_ids","arguments":{}}`).Result,
		`{"content":[{"type":"text","text":"[\"a\",\"b\"]"}]}`)
	jsonEq(t, "status", c.legacyCall(5, "tools/call", `{"name":"status"}`).Result,
		`{"content":[{"type":"text","text":"{\"ok\":true}"}],"structuredContent":{"ok":true}}`)

	// Resource not found is -32002 in this era.
	m = c.legacyCall(6, "resources/read", `{"uri":"order://missing/summary"}`)
	if m.Error == nil || m.Error.Code != -32002 || string(m.Error.Data) != `{"uri":"order://missing/summary"}` {
		t.Errorf("missing resource: want -32002 with data.uri, got %s", m.raw)
	}
	jsonEq(t, "read", c.legacyCall(7, "resources/read", `{"uri":"policy://a"}`).Result,
		`{"contents":[{"uri":"policy://a","mimeType":"text/plain","text":"be nice"}]}`)

	// logging/setLevel reaches handlers through MetaFrom, with initialize's
	// client info.
	if m := c.legacyCall(8, "logging/setLevel", `{"level":"loud"}`); m.Error == nil || m.Error.Code != CodeInvalidParams {
		t.Errorf("bad level: want -32602, got %s", m.raw)
	}
	jsonEq(t, "setLevel", c.legacyCall(9, "logging/setLevel", `{"level":"warning"}`).Result, `{}`)
	jsonEq(t, "whoami", c.legacyCall(10, "tools/call", `{"name":"whoami"}`).Result,
		`{"content":[{"type":"text","text":"alice|old-client|warning"}]}`)

	// Modern-only methods and a second initialize are refused.
	if m := c.legacyCall(11, "subscriptions/listen", `{"notifications":{}}`); m.Error == nil || m.Error.Code != CodeMethodNotFound {
		t.Errorf("listen on a legacy connection: want -32601, got %s", m.raw)
	}
	if m := c.legacyCall(12, "initialize", legacyInit); m.Error == nil || m.Error.Code != CodeInvalidRequest {
		t.Errorf("second initialize: want -32600, got %s", m.raw)
	}
}

func TestLegacyVersionNegotiation(t *testing.T) {
	for _, tc := range []struct{ asked, got string }{
		{"2025-06-18", "2025-06-18"},
		{"2025-03-26", "2025-03-26"},
		{"2024-11-05", "2025-11-25"},
		{"2026-07-28", "2025-11-25"}, // never a modern version inside initialize
	} {
		f := newFixture(t, Options{})
		c := startClient(t, f.srv, StdioOptions{})
		r := c.legacyCall(1, "initialize", `{"protocolVersion":"`+tc.asked+`","capabilities":{},"clientInfo":{"name":"x","version":"1"}}`).res(t)
		if r["protocolVersion"] != tc.got {
			t.Errorf("asked %s: got %v, want %s", tc.asked, r["protocolVersion"], tc.got)
		}
	}
}

func TestStdioModernPinRefusesInitialize(t *testing.T) {
	f := newFixture(t, Options{})
	c := startClient(t, f.srv, StdioOptions{})
	c.call(1, "tools/list", "").res(t)
	m := c.legacyCall(2, "initialize", legacyInit)
	if m.Error == nil || m.Error.Code != CodeUnsupportedProtocolVersion || !strings.Contains(string(m.Error.Data), `"2026-07-28"`) {
		t.Fatalf("initialize after a modern request: want -32022 listing 2026-07-28, got %s", m.raw)
	}
}

func TestLegacyElicitationRoundTrip(t *testing.T) {
	f := newFixture(t, Options{})
	c := startClient(t, f.srv, StdioOptions{})
	c.legacyCall(1, "initialize", legacyInit).res(t)

	c.send(legacyLine(2, "tools/call", `{"name":"ask","arguments":{}}`))
	// The handler's first Elicit is a real request with the server's own id.
	req := c.recv()
	if req.Method != "elicitation/create" || req.ID == nil {
		t.Fatalf("want an elicitation/create request, got %s", req.raw)
	}
	jsonEq(t, "elicitation params", req.Params, `{"mode":"form","message":"Your name?",
		"requestedSchema":{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}}`)
	c.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"action":"accept","content":{"name":"Ada"}}}`, req.ID))
	req2 := c.recv()
	if req2.Method != "elicitation/create" || string(req2.ID) == string(req.ID) {
		t.Fatalf("want a second elicitation/create with a new id, got %s", req2.raw)
	}
	c.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"action":"accept","content":{"ok":true}}}`, req2.ID))
	m := c.recv()
	jsonEq(t, "ask result", m.Result, `{"content":[{"type":"text","text":"Ada/true/accept"}]}`)

	// Cancelling the tools/call withdraws the pending elicitation.
	c.send(legacyLine(3, "tools/call", `{"name":"ask","arguments":{}}`))
	req = c.recv()
	c.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3}}`)
	m = c.recv()
	if m.Method != "notifications/cancelled" || !strings.Contains(string(m.Params), `"requestId":`+string(req.ID)) {
		t.Fatalf("want notifications/cancelled for the elicitation %s, got %s", req.ID, m.raw)
	}
	// The cancelled request gets no response: the next message answers 4.
	if m := c.legacyCall(4, "ping", ""); m.Error != nil {
		t.Fatal(m.raw)
	}
}

func TestLegacyElicitationNeedsCapability(t *testing.T) {
	f := newFixture(t, Options{})
	c := startClient(t, f.srv, StdioOptions{})
	c.legacyCall(1, "initialize", `{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"x","version":"1"}}`).res(t)
	m := c.legacyCall(2, "tools/call", `{"name":"ask"}`)
	if m.Error == nil || m.Error.Code != CodeMissingRequiredClientCapability {
		t.Fatalf("want -32021 when the client declared no elicitation, got %s", m.raw)
	}
	// 2025-06-18 had no URL mode, whatever the client declares.
	c2 := startClient(t, f.srv, StdioOptions{})
	c2.legacyCall(1, "initialize", `{"protocolVersion":"2025-06-18","capabilities":{"elicitation":{"url":{}}},"clientInfo":{"name":"x","version":"1"}}`).res(t)
	if m := c2.legacyCall(2, "tools/call", `{"name":"ask_url"}`); m.Error == nil || m.Error.Code != CodeMissingRequiredClientCapability {
		t.Fatalf("URL elicitation on 2025-06-18: want -32021, got %s", m.raw)
	}
}

func TestLegacyElicitationParamsPerVersion(t *testing.T) {
	f := newFixture(t, Options{})
	c := startClient(t, f.srv, StdioOptions{})
	c.legacyCall(1, "initialize", `{"protocolVersion":"2025-06-18","capabilities":{"elicitation":{}},"clientInfo":{"name":"x","version":"1"}}`).res(t)
	c.send(legacyLine(2, "tools/call", `{"name":"ask"}`))
	req := c.recv()
	if strings.Contains(string(req.Params), `"mode"`) {
		t.Errorf("2025-06-18 elicitation/create must not carry mode: %s", req.raw)
	}
	c.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"no"}}`, req.ID))
	if m := c.recv(); m.Error != nil || !strings.Contains(string(m.Result), `"isError":true`) {
		t.Errorf("a client error to elicitation/create: want an isError tool result, got %s", m.raw)
	}

	c3 := startClient(t, f.srv, StdioOptions{})
	c3.legacyCall(1, "initialize", `{"protocolVersion":"2025-11-25","capabilities":{"elicitation":{"url":{}}},"clientInfo":{"name":"x","version":"1"}}`).res(t)
	c3.send(legacyLine(2, "tools/call", `{"name":"ask_url"}`))
	req = c3.recv()
	var p map[string]any
	json.Unmarshal(req.Params, &p)
	if p["mode"] != "url" || p["url"] != "https://example.com/key" || p["elicitationId"] == nil {
		t.Errorf("URL elicitation on 2025-11-25: want mode, url and elicitationId, got %s", req.raw)
	}
	c3.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"action":"accept"}}`, req.ID))
	jsonEq(t, "ask_url", c3.recv().Result, `{"content":[{"type":"text","text":"ok"}]}`)
}

func TestLegacyProgress(t *testing.T) {
	f := newFixture(t, Options{})
	c := startClient(t, f.srv, StdioOptions{})
	c.legacyCall(1, "initialize", legacyInit).res(t)
	c.send(legacyLine(2, "tools/call", `{"name":"progress","_meta":{"progressToken":"p1"}}`))
	m := c.recv()
	jsonEq(t, "progress", m.Params, `{"progressToken":"p1","progress":1,"total":3,"message":"one"}`)
	if m = c.recv(); m.Method != "notifications/progress" {
		t.Fatalf("want a second progress, got %s", m.raw)
	}
	if m = c.recv(); string(m.ID) != "2" {
		t.Fatalf("want the response, got %s", m.raw)
	}
}

func TestLegacySubscriptionsAndListChanged(t *testing.T) {
	f := newFixture(t, Options{})
	c := startClient(t, f.srv, StdioOptions{})
	c.legacyCall(1, "initialize", legacyInit).res(t)
	jsonEq(t, "subscribe", c.legacyCall(2, "resources/subscribe", `{"uri":"policy://a"}`).Result, `{}`)

	f.srv.NotifyResourceUpdated("policy://other") // not subscribed: nothing
	f.srv.NotifyResourceUpdated("policy://a")
	m := c.recv()
	if m.Method != "notifications/resources/updated" {
		t.Fatalf("want resources/updated, got %s", m.raw)
	}
	jsonEq(t, "updated params", m.Params, `{"uri":"policy://a"}`)

	f.srv.NotifyToolsListChanged()
	m = c.recv()
	if m.Method != "notifications/tools/list_changed" || strings.Contains(m.raw, "_meta") {
		t.Fatalf("want a bare tools/list_changed, got %s", m.raw)
	}

	jsonEq(t, "unsubscribe", c.legacyCall(3, "resources/unsubscribe", `{"uri":"policy://a"}`).Result, `{}`)
	f.srv.NotifyResourceUpdated("policy://a")
	// Nothing for the unsubscribed URI: the next message is the ping's answer.
	if m := c.legacyCall(4, "ping", ""); m.Error != nil {
		t.Fatal(m.raw)
	}
	err, rest := c.closeAndWait()
	if err != nil || len(rest) != 0 {
		t.Fatalf("close: %v, unexpected output %v", err, rest)
	}
}
