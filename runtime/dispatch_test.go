package runtime

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// jsonEq compares JSON texts structurally.
func jsonEq(t *testing.T, what string, got json.RawMessage, want string) {
	t.Helper()
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatalf("%s: invalid JSON %s", what, got)
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("%s: invalid want %s", what, want)
	}
	if !reflect.DeepEqual(g, w) {
		t.Errorf("%s:\n got %s\nwant %s", what, got, want)
	}
}

func TestDiscover(t *testing.T) {
	f := newFixture(t, Options{Instructions: "Use the tools.", ListCache: CacheHint{TTLMs: 3600000, Scope: "public"}})
	c := startClient(t, f.srv, StdioOptions{})
	m := c.call("discover-1", "server/discover", "")
	jsonEq(t, "discover", m.Result, `{"resultType":"complete","supportedVersions":["2026-07-28"],
		"capabilities":{"completions":{},"prompts":{"listChanged":true},"resources":{"subscribe":true,"listChanged":true},"tools":{"listChanged":true}},
		"instructions":"Use the tools.","ttlMs":3600000,"cacheScope":"public",
		"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"test-server","version":"1.2.3"}}}`)
}

func TestCapabilitiesFollowRegistrations(t *testing.T) {
	s := NewServer(Options{})
	s.AddTool(ToolDef{Name: "t", Definition: toolDef("t"), Call: func(ctx context.Context, args []byte) (*ToolResult, error) { return nil, nil }})
	c := startClient(t, s, StdioOptions{})
	m := c.call(1, "server/discover", "")
	jsonEq(t, "discover", m.Result, `{"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{"tools":{"listChanged":true}},
		"ttlMs":0,"cacheScope":"private","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"mcpgen-server","version":"0.0.0"}}}`)
	for _, method := range []string{"prompts/list", "prompts/get", "resources/list", "resources/read", "resources/templates/list", "completion/complete"} {
		m := c.call(2, method, `"name":"x","uri":"x"`)
		if m.Error == nil || m.Error.Code != CodeMethodNotFound {
			t.Errorf("%s on a server without that capability: want -32601, got %s", method, m.raw)
		}
	}
	// A nil result from a tool is an empty success.
	m = c.call(3, "tools/call", `"name":"t"`)
	jsonEq(t, "empty tool result", m.Result, `{"resultType":"complete","content":[],"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"mcpgen-server","version":"0.0.0"}}}`)
}

func TestRegistrationPanics(t *testing.T) {
	call := func(ctx context.Context, args []byte) (*ToolResult, error) { return nil, nil }
	tests := []struct {
		name string
		fn   func(s *Server)
	}{
		{"duplicate tool", func(s *Server) {
			s.AddTool(ToolDef{Name: "a", Definition: toolDef("a"), Call: call})
			s.AddTool(ToolDef{Name: "a", Definition: toolDef("a"), Call: call})
		}},
		{"invalid definition", func(s *Server) { s.AddTool(ToolDef{Name: "a", Definition: "{", Call: call}) }},
		{"level-2 template", func(s *Server) {
			s.AddResourceTemplate(TemplateDef{URITemplate: "file:///{+path}", Definition: "{}", Read: func(ctx context.Context, uri string, vars map[string]string) ([]ResourceContents, error) {
				return nil, nil
			}})
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Error("want a panic")
				}
			}()
			tt.fn(NewServer(Options{}))
		})
	}
}

func TestEnvelopeErrors(t *testing.T) {
	f := newFixture(t, Options{})
	c := startClient(t, f.srv, StdioOptions{})
	const v = `"io.modelcontextprotocol/protocolVersion":"2026-07-28"`
	const caps = `"io.modelcontextprotocol/clientCapabilities":{}`
	tests := []struct {
		name     string
		line     string
		code     int
		msgPart  string
		wantData string
	}{
		{"no params", `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, -32602, "missing params", ""},
		{"params not object", `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":[1]}`, -32602, "object", ""},
		{"no _meta", `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}`, -32602, "io.modelcontextprotocol/protocolVersion", ""},
		{"no version", `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{` + caps + `}}}`, -32602, "io.modelcontextprotocol/protocolVersion", ""},
		{"version not string", `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":2026,` + caps + `}}}`, -32602, "protocolVersion", ""},
		{"old version", `{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2025-11-25",` + caps + `}}}`, -32022, "Unsupported protocol version",
			`{"supported":["2026-07-28"],"requested":"2025-11-25"}`},
		{"no capabilities", `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{` + v + `}}}`, -32602, "io.modelcontextprotocol/clientCapabilities", ""},
		{"capabilities not object", `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{` + v + `,"io.modelcontextprotocol/clientCapabilities":true}}}`, -32602, "clientCapabilities", ""},
		{"bad clientInfo", `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{` + v + `,` + caps + `,"io.modelcontextprotocol/clientInfo":{"name":1}}}}`, -32602, "clientInfo", ""},
		{"bad logLevel", `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{` + v + `,` + caps + `,"io.modelcontextprotocol/logLevel":"verbose"}}}`, -32602, "logLevel", ""},
		{"bad progressToken", `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{` + v + `,` + caps + `,"progressToken":{}}}}`, -32602, "progressToken", ""},
		// The modern claims above pinned the connection to 2026-07-28.
		{"initialize after modern pin", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`, -32022, "Unsupported protocol version",
			`{"supported":["2026-07-28"],"requested":"2025-11-25"}`},
		{"ping removed", reqLine(1, "ping", ""), -32601, "ping (removed in 2026-07-28)", ""},
		{"setLevel removed", reqLine(1, "logging/setLevel", `"level":"info"`), -32601, "logging/setLevel", ""},
		{"subscribe removed", reqLine(1, "resources/subscribe", `"uri":"policy://a"`), -32601, "resources/subscribe", ""},
		{"unknown method", reqLine(1, "tools/frobnicate", ""), -32601, "tools/frobnicate", ""},
		{"bad cursor type", reqLine(1, "tools/list", `"cursor":5`), -32602, "invalid params", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c.send(tt.line)
			m := c.recv()
			if string(m.ID) != "1" || m.Error == nil || m.Error.Code != tt.code || !strings.Contains(m.Error.Message, tt.msgPart) {
				t.Fatalf("want error %d mentioning %q for id 1, got %s", tt.code, tt.msgPart, m.raw)
			}
			if tt.wantData != "" {
				jsonEq(t, "error data", m.Error.Data, tt.wantData)
			}
		})
	}
}

func TestMessageErrors(t *testing.T) {
	f := newFixture(t, Options{})
	c := startClient(t, f.srv, StdioOptions{})
	tests := []struct {
		name   string
		line   string
		code   int
		wantID string
	}{
		{"invalid JSON", `{"jsonrpc":"2.0","id":1,"method":`, -32700, "null"},
		{"batch", `[` + reqLine(1, "tools/list", "") + `]`, -32600, "null"},
		{"no jsonrpc", `{"id":7,"method":"tools/list","params":{}}`, -32600, "7"},
		{"null id", `{"jsonrpc":"2.0","id":null,"method":"tools/list","params":{}}`, -32600, "null"},
		{"object id", `{"jsonrpc":"2.0","id":{},"method":"tools/list","params":{}}`, -32600, "null"},
		{"fractional id", `{"jsonrpc":"2.0","id":1.5,"method":"tools/list","params":{}}`, -32600, "null"},
		{"method not string", `{"jsonrpc":"2.0","id":1,"method":5}`, -32600, "1"},
		{"no method", `{"jsonrpc":"2.0","id":3}`, -32600, "3"},
		{"type error before syntax error", `{"jsonrpc":2,"id":1,"method":"x",}`, -32700, "null"},
		{"trailing garbage", `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}} x`, -32700, "null"},
		{"not an object", `"hello"`, -32600, "null"},
		{"invalid UTF-8", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"\xff\"}", -32700, "null"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c.send(tt.line)
			m := c.recv()
			if m.Error == nil || m.Error.Code != tt.code || string(m.ID) != tt.wantID {
				t.Fatalf("want error %d with id %s, got %s", tt.code, tt.wantID, m.raw)
			}
		})
	}
	// Responses and unknown notifications from the client are dropped
	// without an answer: the next line out is the next request's response.
	c.send(`{"jsonrpc":"2.0","id":"x","result":{}}`)
	c.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	c.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"nobody"}}`)
	c.call("after", "tools/list", "")
	if !strings.Contains(f.logs.String(), "ignoring a response") {
		t.Error("a response from the client should be logged")
	}
}

func TestToolsCall(t *testing.T) {
	f := newFixture(t, Options{})
	c := startClient(t, f.srv, StdioOptions{Identity: &Identity{Subject: "alice"}})
	info := `"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"test-server","version":"1.2.3"}}`
	tests := []struct {
		name    string
		params  string
		want    string // result JSON
		errCode int
		errMsg  string
	}{
		{"echo", `"name":"echo","arguments":{"text":"hi \"there\"\n"}`,
			`{"resultType":"complete","content":[{"type":"text","text":"hi \"there\"\n"}],` + info + `}`, 0, ""},
		{"no arguments", `"name":"echo"`, `{"resultType":"complete","content":[{"type":"text","text":""}],` + info + `}`, 0, ""},
		{"structured adds text block", `"name":"structured","arguments":{}`,
			`{"resultType":"complete","content":[{"type":"text","text":"{\"temperature\":22.5}"}],"structuredContent":{"temperature":22.5},` + info + `}`, 0, ""},
		{"plain error is isError", `"name":"fail"`,
			`{"resultType":"complete","content":[{"type":"text","text":"departure date must be in the future"}],"isError":true,` + info + `}`, 0, ""},
		{"validation error names fields", `"name":"validate"`,
			`{"resultType":"complete","content":[{"type":"text","text":"invalid arguments: /qty: must be at least 1; /sku: is required"}],"isError":true,` + info + `}`, 0, ""},
		{"panic is isError", `"name":"panic"`,
			`{"resultType":"complete","content":[{"type":"text","text":"internal error"}],"isError":true,` + info + `}`, 0, ""},
		{"identity and meta", `"name":"whoami","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"cli","version":"1"},"io.modelcontextprotocol/logLevel":"warning"}`,
			`{"resultType":"complete","content":[{"type":"text","text":"alice|cli|warning"}],` + info + `}`, 0, ""},
		{"*Error is a JSON-RPC error", `"name":"rpcerr"`, "", 1234, "custom"},
		{"unknown tool", `"name":"nope"`, "", -32602, `Unknown tool: "nope"`},
		{"missing name", `"arguments":{}`, "", -32602, "params.name"},
		{"arguments not object", `"name":"echo","arguments":[1]`, "", -32602, "arguments must be an object"},
		{"bad argument JSON type", `"name":"echo","arguments":{"text":5}`, `{"resultType":"complete","content":[{"type":"text","text":"json: cannot unmarshal number into Go struct field .Text of type string"}],"isError":true,` + info + `}`, 0, ""},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var m wireMsg
			if strings.Contains(tt.params, `"_meta"`) {
				c.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{%s}}`, i, tt.params))
				m = c.recv()
			} else {
				m = c.call(i, "tools/call", tt.params)
			}
			if tt.errCode != 0 {
				if m.Error == nil || m.Error.Code != tt.errCode || !strings.Contains(m.Error.Message, tt.errMsg) {
					t.Fatalf("want error %d %q, got %s", tt.errCode, tt.errMsg, m.raw)
				}
				return
			}
			if m.Error != nil {
				t.Fatalf("unexpected error %s", m.raw)
			}
			jsonEq(t, "result", m.Result, tt.want)
		})
	}
	logs := f.logs.String()
	if !strings.Contains(logs, "kaboom") || !strings.Contains(logs, "goroutine") {
		t.Errorf("a panic should be logged with its stack, logs:\n%s", logs)
	}
}

func TestListsAndPagination(t *testing.T) {
	f := newFixture(t, Options{PageSize: 4, ListCache: CacheHint{TTLMs: 5, Scope: "public"}})
	c := startClient(t, f.srv, StdioOptions{})
	var names []string
	cursor := ""
	for page := 0; ; page++ {
		params := ""
		if cursor != "" {
			params = `"cursor":` + fmt.Sprintf("%q", cursor)
		}
		r := c.call(page, "tools/list", params).res(t)
		if r["ttlMs"] != 5.0 || r["cacheScope"] != "public" || r["resultType"] != "complete" {
			t.Fatalf("page %d lacks cache hints: %v", page, r)
		}
		tools := r["tools"].([]any)
		if len(tools) > 4 {
			t.Fatalf("page of %d tools, want at most 4", len(tools))
		}
		for _, tool := range tools {
			names = append(names, tool.(map[string]any)["name"].(string))
		}
		next, ok := r["nextCursor"].(string)
		if !ok {
			break
		}
		cursor = next
	}
	want := []string{"echo", "structured", "fail", "validate", "rpcerr", "panic", "slow", "barrier", "progress", "keep_ctx", "ask", "ask_url", "whoami"}
	if !reflect.DeepEqual(names, want) {
		t.Fatalf("tools over all pages = %v, want %v in registration order", names, want)
	}

	first := c.call("p", "tools/list", "").res(t)["nextCursor"].(string)
	payload, sig, _ := strings.Cut(first, ".")
	for name, cur := range map[string]string{
		"garbage":        "not-a-cursor",
		"empty":          "",
		"tampered sig":   payload + "." + strings.Repeat("A", len(sig)),
		"other list":     f.srv.makeCursor("prompts", 1),
		"beyond the end": f.srv.makeCursor("tools", 99),
	} {
		m := c.call("bad", "tools/list", fmt.Sprintf(`"cursor":%q`, cur))
		if m.Error == nil || m.Error.Code != CodeInvalidParams || m.Error.Message != "invalid cursor" {
			t.Errorf("%s cursor: want -32602 invalid cursor, got %s", name, m.raw)
		}
	}

	for method, member := range map[string]string{"resources/list": "resources", "resources/templates/list": "resourceTemplates", "prompts/list": "prompts"} {
		r := c.call(method, method, "").res(t)
		if r[member] == nil || r["ttlMs"] != 5.0 {
			t.Errorf("%s: %v", method, r)
		}
	}
	r := c.call("rl", "resources/list", "").res(t)
	jsonEq(t, "resources", mustJSON(r["resources"]), `[{"uri":"policy://a","name":"policy"},{"uri":"policy://public","name":"public"},{"uri":"policy://panic","name":"panic"}]`)
}

func mustJSON(v any) json.RawMessage {
	b, _ := json.Marshal(v)
	return b
}

func TestResourcesRead(t *testing.T) {
	f := newFixture(t, Options{ReadCache: CacheHint{TTLMs: 10, Scope: "private"}})
	c := startClient(t, f.srv, StdioOptions{})
	info := `"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"test-server","version":"1.2.3"}}`
	tests := []struct {
		name     string
		uri      string
		want     string
		errCode  int
		errData  string
		errInMsg string
	}{
		{"fixed", "policy://a", `{"resultType":"complete","contents":[{"uri":"policy://a","mimeType":"text/plain","text":"be nice"}],"ttlMs":10,"cacheScope":"private",` + info + `}`, 0, "", ""},
		{"blob with own cache", "policy://public", `{"resultType":"complete","contents":[{"uri":"policy://public","mimeType":"application/octet-stream","blob":"AAEC"}],"ttlMs":60000,"cacheScope":"public",` + info + `}`, 0, "", ""},
		{"template", "order://A%2042/summary", `{"resultType":"complete","contents":[{"uri":"order://A%2042/summary","mimeType":"application/json","text":"{\"id\":\"A 42\"}"}],"ttlMs":10,"cacheScope":"private",` + info + `}`, 0, "", ""},
		{"template handler not found", "order://missing/summary", "", -32602, `{"uri":"order://missing/summary"}`, "Resource not found"},
		{"no match", "order://a/b/summary", "", -32602, `{"uri":"order://a/b/summary"}`, "Resource not found"},
		{"unknown", "file:///nope", "", -32602, `{"uri":"file:///nope"}`, "Resource not found"},
		{"handler panic", "policy://panic", "", -32603, "", "Internal error"},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := c.call(i, "resources/read", fmt.Sprintf(`"uri":%q`, tt.uri))
			if tt.errCode != 0 {
				if m.Error == nil || m.Error.Code != tt.errCode || !strings.Contains(m.Error.Message, tt.errInMsg) {
					t.Fatalf("want error %d, got %s", tt.errCode, m.raw)
				}
				if tt.errData != "" {
					jsonEq(t, "data", m.Error.Data, tt.errData)
				}
				return
			}
			jsonEq(t, "result", m.Result, tt.want)
		})
	}
	if m := c.call("x", "resources/read", ""); m.Error == nil || m.Error.Code != -32602 {
		t.Errorf("missing uri: want -32602, got %s", m.raw)
	}
}

func TestPromptsGet(t *testing.T) {
	f := newFixture(t, Options{})
	c := startClient(t, f.srv, StdioOptions{})
	m := c.call(1, "prompts/get", `"name":"greet","arguments":{"name":"Ada"}`)
	jsonEq(t, "prompt", m.Result, `{"resultType":"complete","description":"greeting","messages":[{"role":"user","content":{"type":"text","text":"Hello Ada"}}],
		"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"test-server","version":"1.2.3"}}}`)
	for name, params := range map[string]string{
		"unknown prompt":      `"name":"nope"`,
		"missing argument":    `"name":"greet"`,
		"non-string argument": `"name":"greet","arguments":{"name":1}`,
		"missing name":        `"arguments":{}`,
	} {
		if m := c.call(2, "prompts/get", params); m.Error == nil || m.Error.Code != CodeInvalidParams {
			t.Errorf("%s: want -32602, got %s", name, m.raw)
		}
	}
}

func TestComplete(t *testing.T) {
	f := newFixture(t, Options{})
	c := startClient(t, f.srv, StdioOptions{})
	r := c.call(1, "completion/complete", `"ref":{"type":"ref/prompt","name":"greet"},"argument":{"name":"name","value":"a"}`).res(t)
	comp := r["completion"].(map[string]any)
	if n := len(comp["values"].([]any)); n != 100 || comp["hasMore"] != true || comp["total"] != 150.0 {
		t.Errorf("150 values must be cut to 100 with hasMore and total 150, got %d values, %v", n, comp)
	}
	if r["ttlMs"] != nil {
		t.Error("completion results are not cacheable")
	}
	m := c.call(2, "completion/complete", `"ref":{"type":"ref/resource","uri":"order://{id}/summary"},"argument":{"name":"id","value":"A"},"context":{"arguments":{}}`)
	jsonEq(t, "completion", mustJSON(m.res(t)["completion"]), `{"values":["A1","A2"]}`)
	m = c.call(3, "completion/complete", `"ref":{"type":"ref/prompt","name":"greet"},"argument":{"name":"other","value":""}`)
	jsonEq(t, "no completer", mustJSON(m.res(t)["completion"]), `{"values":[]}`)
	for name, params := range map[string]string{
		"unknown prompt":   `"ref":{"type":"ref/prompt","name":"nope"},"argument":{"name":"a","value":""}`,
		"unknown template": `"ref":{"type":"ref/resource","uri":"x://{y}"},"argument":{"name":"a","value":""}`,
		"bad ref type":     `"ref":{"type":"ref/tool","name":"echo"},"argument":{"name":"a","value":""}`,
		"missing argument": `"ref":{"type":"ref/prompt","name":"greet"}`,
		"missing ref":      `"argument":{"name":"a","value":""}`,
	} {
		if m := c.call(4, "completion/complete", params); m.Error == nil || m.Error.Code != CodeInvalidParams {
			t.Errorf("%s: want -32602, got %s", name, m.raw)
		}
	}
}

func TestURITemplateMatch(t *testing.T) {
	tests := []struct {
		tpl, uri string
		want     map[string]string
	}{
		{"order://{id}/summary", "order://A1/summary", map[string]string{"id": "A1"}},
		{"order://{id}/summary", "order://A%2F1/summary", map[string]string{"id": "A/1"}},
		{"order://{id}/summary", "order://a/b/summary", nil},
		{"order://{id}/summary", "order:///summary", nil},
		{"order://{id}/summary", "order://A1/summaryx", nil},
		{"file:///{path}", "file:///src/main.rs", map[string]string{"path": "src/main.rs"}},
		{"x://{a}-{b}", "x://1-2-3", map[string]string{"a": "1", "b": "2-3"}},
		{"x://{a}.{b}/c", "x://v.1.2/c", map[string]string{"a": "v", "b": "1.2"}},
		{"x://{a}", "x://%zz", nil},
		{"x://fixed", "x://fixed", map[string]string{}},
	}
	for _, tt := range tests {
		tpl, err := parseURITemplate(tt.tpl)
		if err != nil {
			t.Fatalf("%s: %v", tt.tpl, err)
		}
		got, ok := tpl.match(tt.uri)
		if ok != (tt.want != nil) || (ok && !reflect.DeepEqual(got, tt.want)) {
			t.Errorf("%s ~ %s = %v, %v; want %v", tt.tpl, tt.uri, got, ok, tt.want)
		}
	}
	for _, bad := range []string{"x://{+a}", "x://{a,b}", "x://{a", "x://{a}{b}", "x://{}"} {
		if _, err := parseURITemplate(bad); err == nil {
			t.Errorf("%s: want an error", bad)
		}
	}
}
