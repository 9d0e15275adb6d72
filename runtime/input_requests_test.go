package runtime

import (
	"context"
	"fmt"
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
