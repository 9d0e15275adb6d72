package runtime

import (
	"context"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"
)

// askAllServer has a tool that needs a sampled answer and the client's
// roots, and reports both.
func askAllServer(t *testing.T) *Server {
	t.Helper()
	f := newFixture(t, Options{})
	f.srv.AddTool(ToolDef{Name: "ask_all", Definition: toolDef("ask_all"),
		Call: func(ctx context.Context, args []byte) (*ToolResult, error) {
			temp := 0.5
			res, errS := Sample(ctx, "capital", SampleRequest{
				Messages:     []SamplingMessage{{Role: "user", Content: TextContent("Capital of France?")}},
				SystemPrompt: "Be brief.", MaxTokens: 20, Temperature: &temp, StopSequences: []string{"\n"}})
			roots, errR := ListRoots(ctx, "roots")
			if errS != nil {
				return nil, errS
			}
			if errR != nil {
				return nil, errR
			}
			var uris []string
			for _, r := range roots {
				uris = append(uris, r.URI+"="+r.Name)
			}
			return &ToolResult{Content: []Content{TextContent(fmt.Sprintf("%s/%s/%s %s",
				res.Role, res.Model, res.Content.Text, strings.Join(uris, ",")))}}, nil
		}})
	return f.srv
}

const sampleRootsMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"sampling":{},"roots":{}}}`

func TestSampleAndListRootsRoundTrip(t *testing.T) {
	c := startClient(t, askAllServer(t), StdioOptions{})

	m := callMeta(c, 1, "tools/call", sampleRootsMeta, `"name":"ask_all","arguments":{}`)
	r := m.res(t)
	if r["resultType"] != "input_required" {
		t.Fatalf("round 1: want input_required, got %s", m.raw)
	}
	// Both requests are asked in the same round, in the order asked.
	jsonEq(t, "inputRequests", mustJSON(r["inputRequests"]), `{
		"capital":{"method":"sampling/createMessage","params":{"messages":[{"role":"user","content":{"type":"text","text":"Capital of France?"}}],
			"systemPrompt":"Be brief.","temperature":0.5,"stopSequences":["\n"],"maxTokens":20}},
		"roots":{"method":"roots/list","params":{}}}`)
	state := r["requestState"].(string)

	m = callMeta(c, 2, "tools/call", sampleRootsMeta, `"name":"ask_all","arguments":{},"requestState":`+fmt.Sprintf("%q", state)+
		`,"inputResponses":{"capital":{"role":"assistant","content":{"type":"text","text":"Paris"},"model":"m-1","stopReason":"endTurn"},"roots":{"roots":[{"uri":"file:///src","name":"src"},{"uri":"file:///doc"}]}}`)
	r = m.res(t)
	if r["resultType"] != "complete" {
		t.Fatalf("round 2: want a complete result, got %s", m.raw)
	}
	if got := r["content"].([]any)[0].(map[string]any)["text"]; got != "assistant/m-1/Paris file:///src=src,file:///doc=" {
		t.Errorf("round 2 text = %q", got)
	}
}

func TestSampleNeedsSamplingCapability(t *testing.T) {
	c := startClient(t, askAllServer(t), StdioOptions{})
	meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"roots":{}}}`
	m := callMeta(c, 1, "tools/call", meta, `"name":"ask_all","arguments":{}`)
	if m.Error == nil || m.Error.Code != CodeMissingRequiredClientCapability {
		t.Fatalf("want -32021, got %s", m.raw)
	}
	jsonEq(t, "data", m.Error.Data, `{"requiredCapabilities":{"sampling":{}}}`)
}

func TestListRootsNeedsRootsCapability(t *testing.T) {
	c := startClient(t, askAllServer(t), StdioOptions{})
	meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"sampling":{}}}`
	// The sampling answer is there; only roots remain, which the client
	// cannot give.
	m := callMeta(c, 1, "tools/call", meta, `"name":"ask_all","arguments":{},`+
		`"inputResponses":{"capital":{"role":"assistant","content":{"type":"text","text":"Paris"},"model":"m"}}`)
	if m.Error == nil || m.Error.Code != CodeMissingRequiredClientCapability {
		t.Fatalf("want -32021, got %s", m.raw)
	}
	jsonEq(t, "data", m.Error.Data, `{"requiredCapabilities":{"roots":{}}}`)
}

func TestInvalidSampleAndRootsResponses(t *testing.T) {
	c := startClient(t, askAllServer(t), StdioOptions{})
	for i, responses := range []string{
		`{"capital":{"role":"robot","content":{"type":"text","text":"x"},"model":"m"}}`,
		`{"capital":{"role":"assistant","content":{"type":"image","data":"not base64!","mimeType":"image/png"},"model":"m"}}`,
		`{"capital":{"role":"assistant","content":[],"model":"m"}}`,
		`{"capital":"Paris"}`,
		`{"capital":{"role":"assistant","content":{"type":"text","text":"P"},"model":"m"},"roots":{"roots":[{"name":"no uri"}]}}`,
		`{"capital":{"role":"assistant","content":{"type":"text","text":"P"},"model":"m"},"roots":{}}`,
	} {
		m := callMeta(c, i, "tools/call", sampleRootsMeta, `"name":"ask_all","arguments":{},"inputResponses":`+responses)
		if m.Error == nil || m.Error.Code != CodeInvalidParams {
			t.Errorf("%s: want -32602, got %s", responses, m.raw)
		}
	}
}

func TestSampleAcceptsContentArrayAndImage(t *testing.T) {
	res, err := decodeSampleResult([]byte(`{"role":"assistant","model":"m","content":[{"type":"image","data":"AQI=","mimeType":"image/png"},{"type":"text","text":"x"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if res.Content.Type != "image" || string(res.Content.Data) != "\x01\x02" || res.Content.MimeType != "image/png" {
		t.Errorf("got %+v", res.Content)
	}
}

func TestParseClientCapsSamplingRoots(t *testing.T) {
	for _, tc := range []struct {
		raw  string
		want clientCaps
	}{
		{`{}`, clientCaps{}},
		{`{"sampling":{}}`, clientCaps{sampling: true}},
		{`{"sampling":{"tools":{}}}`, clientCaps{sampling: true, samplingTools: true}},
		{`{"roots":{"listChanged":true}}`, clientCaps{roots: true}},
		{`{"roots":null,"sampling":null}`, clientCaps{}},
		{`{"elicitation":{},"roots":{}}`, clientCaps{elicitForm: true, roots: true}},
	} {
		if got := parseClientCaps([]byte(tc.raw)); got != tc.want {
			t.Errorf("%s: got %+v, want %+v", tc.raw, got, tc.want)
		}
	}
}

const legacySampleRootsInit = `{"protocolVersion":"2025-11-25","capabilities":{"sampling":{},"roots":{}},"clientInfo":{"name":"old-client","version":"1.0"}}`

// A 2025-11-25 session: Sample and ListRoots are real sampling/createMessage
// and roots/list requests on the connection, and the tool runs once.
func TestLegacySampleAndListRootsRoundTrip(t *testing.T) {
	c := startClient(t, askAllServer(t), StdioOptions{})
	c.legacyCall(1, "initialize", legacySampleRootsInit).res(t)
	c.send(legacyLine(2, "tools/call", `{"name":"ask_all","arguments":{}}`))

	req := c.recv()
	if req.Method != "sampling/createMessage" || req.ID == nil {
		t.Fatalf("want a sampling/createMessage request, got %s", req.raw)
	}
	jsonEq(t, "sampling params", req.Params, `{"messages":[{"role":"user","content":{"type":"text","text":"Capital of France?"}}],
		"systemPrompt":"Be brief.","temperature":0.5,"stopSequences":["\n"],"maxTokens":20}`)
	c.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"role":"assistant","content":{"type":"text","text":"Paris"},"model":"m-1","stopReason":"endTurn"}}`, req.ID))

	req2 := c.recv()
	if req2.Method != "roots/list" || string(req2.ID) == string(req.ID) {
		t.Fatalf("want a roots/list request with a new id, got %s", req2.raw)
	}
	jsonEq(t, "roots params", req2.Params, `{}`)
	c.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"roots":[{"uri":"file:///src","name":"src"}]}}`, req2.ID))

	m := c.recv()
	if string(m.ID) != "2" {
		t.Fatalf("want the tools/call response, got %s", m.raw)
	}
	jsonEq(t, "ask_all", m.Result, `{"content":[{"type":"text","text":"assistant/m-1/Paris file:///src=src"}]}`)
}

func TestLegacySampleNeedsCapabilityAndReportsClientErrors(t *testing.T) {
	srv := askAllServer(t)
	c := startClient(t, srv, StdioOptions{})
	c.legacyCall(1, "initialize", `{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"x","version":"1"}}`).res(t)
	// No request reaches the client: the next message is the -32021.
	m := c.legacyCall(2, "tools/call", `{"name":"ask_all","arguments":{}}`)
	if m.Error == nil || m.Error.Code != CodeMissingRequiredClientCapability {
		t.Fatalf("want -32021 when the session declared no sampling, got %s", m.raw)
	}
	jsonEq(t, "data", m.Error.Data, `{"requiredCapabilities":{"sampling":{}}}`)

	// A client that refuses the sampling request: the handler gets an
	// error, which becomes an isError result.
	c2 := startClient(t, srv, StdioOptions{})
	c2.legacyCall(1, "initialize", legacySampleRootsInit).res(t)
	c2.send(legacyLine(2, "tools/call", `{"name":"ask_all","arguments":{}}`))
	req := c2.recv()
	c2.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"error":{"code":-1,"message":"User rejected sampling request"}}`, req.ID))
	req = c2.recv() // roots/list is still asked
	c2.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"roots":[]}}`, req.ID))
	if m := c2.recv(); m.Error != nil || !strings.Contains(string(m.Result), `"isError":true`) || !strings.Contains(string(m.Result), "User rejected") {
		t.Errorf("a client error to sampling/createMessage: want an isError result naming it, got %s", m.raw)
	}
}

func TestLegacyHTTPSampleRoundTrip(t *testing.T) {
	srv := askAllServer(t)
	ts := httptest.NewServer(srv.Handler(HTTPOptions{}))
	t.Cleanup(ts.Close)
	r := do(t, ts.URL, hreq{body: legacyLine(0, "initialize", legacySampleRootsInit), header: map[string]string{"MCP-Protocol-Version": ""}})
	sid := r.header.Get("Mcp-Session-Id")
	if r.status != 200 || sid == "" {
		t.Fatalf("initialize: %d %s", r.status, r.body)
	}
	hd := legacyHeaders(sid)
	hd["Accept"] = "application/json, text/event-stream"
	resp, br := openStream(t, ts.URL, legacyLine(9, "tools/call", `{"name":"ask_all","arguments":{}}`), hd)
	defer resp.Body.Close()
	for _, tc := range []struct{ method, answer string }{
		{"sampling/createMessage", `{"role":"assistant","content":{"type":"text","text":"Paris"},"model":"m-1"}`},
		{"roots/list", `{"roots":[]}`},
	} {
		req := nextData(t, br)
		if req.Method != tc.method || req.ID == nil {
			t.Fatalf("want %s on the POST stream, got %s", tc.method, req.raw)
		}
		if r := do(t, ts.URL, hreq{body: fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":%s}`, req.ID, tc.answer), header: legacyHeaders(sid)}); r.status != 202 {
			t.Fatalf("posting the %s answer: %d %s", tc.method, r.status, r.body)
		}
	}
	m := nextData(t, br)
	if string(m.ID) != "9" {
		t.Fatalf("want the tools/call response, got %s", m.raw)
	}
	jsonEq(t, "ask_all", m.Result, `{"content":[{"type":"text","text":"assistant/m-1/Paris "}]}`)
}
