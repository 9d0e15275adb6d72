package runtime

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"
)

// outputFixture has a typed tool whose handler returns a length its
// output schema forbids (validateEchoOut: at most 5).
func outputFixture(t *testing.T) *fixture {
	f := newFixture(t, Options{})
	f.srv.AddTool(ToolDef{Name: "measure", Definition: toolDef("measure"),
		Call: StructuredCall("measure", func(_ context.Context, in echoIn) (echoOut, error) {
			return echoOut{Length: int64(len(in.Text))}, nil
		}, validateEchoOut)})
	return f
}

// checkInvalidOutput checks the answer to a call whose output broke its
// schema: -32603 naming the tool, no word of arguments, and the log line
// with the tool and the JSON pointer.
func checkInvalidOutput(t *testing.T, f *fixture, code int, msg string) {
	t.Helper()
	if code != CodeInternalError {
		t.Errorf("code = %d, want %d", code, CodeInternalError)
	}
	if !strings.Contains(msg, `"measure"`) || !strings.Contains(msg, "output schema") || strings.Contains(msg, "argument") {
		t.Errorf("message %q: want one naming the tool and the output schema, not the arguments", msg)
	}
	if strings.Contains(msg, "/length") {
		t.Errorf("message %q shows the violation, which stays in the log", msg)
	}
	logs := f.logs.String()
	if !strings.Contains(logs, "level=ERROR") || !strings.Contains(logs, "tool=measure") || !strings.Contains(logs, "pointer=/length") || !strings.Contains(logs, `violation="must be at most 5"`) {
		t.Errorf("logs lack the error line with tool, pointer and violation:\n%s", logs)
	}
}

func TestInvalidOutputStdio(t *testing.T) {
	f := outputFixture(t)
	c := startClient(t, f.srv, StdioOptions{})
	m := c.call(1, "tools/call", `"name":"measure","arguments":{"Text":"abcdefgh"}`)
	if m.Error == nil {
		t.Fatalf("want an error, got %s", m.raw)
	}
	checkInvalidOutput(t, f, m.Error.Code, m.Error.Message)
	// A valid output still goes through.
	if r := c.call(2, "tools/call", `"name":"measure","arguments":{"Text":"abc"}`).res(t); r["isError"] == true {
		t.Fatalf("valid output: %v", r)
	}
}

func TestInvalidOutputLegacyStdio(t *testing.T) {
	f := outputFixture(t)
	c := startClient(t, f.srv, StdioOptions{})
	c.legacyCall(1, "initialize", legacyInit)
	c.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	m := c.legacyCall(2, "tools/call", `{"name":"measure","arguments":{"Text":"abcdefgh"}}`)
	if m.Error == nil {
		t.Fatalf("want an error, got %s", m.raw)
	}
	checkInvalidOutput(t, f, m.Error.Code, m.Error.Message)
}

func TestInvalidOutputHTTP(t *testing.T) {
	f := outputFixture(t)
	ts := httptest.NewServer(f.srv.Handler(HTTPOptions{}))
	defer ts.Close()
	r := do(t, ts.URL, hreq{body: rpcBody(1, "tools/call", `"name":"measure","arguments":{"Text":"abcdefgh"}`), header: mcpHeaders("tools/call", "measure")})
	var m struct {
		Error *struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal([]byte(r.body), &m); err != nil || m.Error == nil {
		t.Fatalf("status %d body %q: want a JSON-RPC error (%v)", r.status, r.body, err)
	}
	if r.status != 200 {
		t.Errorf("status = %d, want 200 (an in-band handler failure)", r.status)
	}
	checkInvalidOutput(t, f, m.Error.Code, m.Error.Message)
}
