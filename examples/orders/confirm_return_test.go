package orders_test

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"
)

// next returns the next message the server writes, whatever it is.
func (p *proc) next() map[string]json.RawMessage {
	p.t.Helper()
	select {
	case l, ok := <-p.lines:
		if !ok {
			p.t.Fatalf("server closed stdout; stderr:\n%s", p.stderr)
		}
		var m map[string]json.RawMessage
		if err := json.Unmarshal(l, &m); err != nil {
			p.t.Fatalf("stdout line is not JSON: %q", l)
		}
		return m
	case <-time.After(10 * time.Second):
		p.t.Fatal("no message from the server")
	}
	return nil
}

func (p *proc) write(line string) {
	p.t.Helper()
	if _, err := io.WriteString(p.stdin, line+"\n"); err != nil {
		p.t.Fatal(err)
	}
}

const confirmArgs = `{"order_id":"A1003","reason":"too small","idempotency_key":"confirm-1"}`

// TestConfirmReturnBothEras runs the one ConfirmReturn handler for a
// 2025-11-25 client (a real elicitation/create request on the connection)
// and for a 2026-07-28 client (input_required, then a retry carrying the
// answer), and checks that both file the same kind of return.
func TestConfirmReturnBothEras(t *testing.T) {
	t.Run("2025-11-25", func(t *testing.T) {
		p := start(t, "alice")
		init := p.send("1", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25",`+
			`"capabilities":{"elicitation":{}},"clientInfo":{"name":"legacy-test","version":"1"}}}`)
		if init.Error != nil || !strings.Contains(string(init.Result), `"protocolVersion":"2025-11-25"`) {
			t.Fatalf("initialize: %s %v", init.Result, init.Error)
		}
		p.write(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
		for _, tc := range []struct {
			answer, key, want string
		}{
			{`{"action":"decline"}`, "k-decline", `{"confirmed":false}`},
			{`{"action":"accept","content":{"confirm":true}}`, "k-accept", `"confirmed":true`},
		} {
			p.write(fmt.Sprintf(`{"jsonrpc":"2.0","id":"c-%s","method":"tools/call","params":{"name":"confirm_return","arguments":{"order_id":"A1003","reason":"too small","idempotency_key":%q}}}`, tc.key, tc.key))
			ask := p.next()
			if string(ask["method"]) != `"elicitation/create"` || !strings.Contains(string(ask["params"]), "A1003") {
				t.Fatalf("want an elicitation/create naming the order, got %v", ask)
			}
			p.write(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":%s}`, ask["id"], tc.answer))
			res := p.next()
			if string(res["id"]) != `"c-`+tc.key+`"` || !strings.Contains(string(res["result"]), tc.want) || strings.Contains(string(res["result"]), "resultType") {
				t.Fatalf("answer %s: want a 2025-shaped result with %s, got %s", tc.answer, tc.want, res["result"])
			}
		}
	})
	t.Run("2026-07-28", func(t *testing.T) {
		p := start(t, "alice")
		elicitMeta := strings.Replace(meta, `"io.modelcontextprotocol/clientCapabilities":{}`, `"io.modelcontextprotocol/clientCapabilities":{"elicitation":{}}`, 1)
		if elicitMeta == meta {
			t.Fatalf("test setup: cannot add the elicitation capability to %s", meta)
		}
		call := func(id, extra string) map[string]any {
			r := p.send(id, fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":"tools/call","params":{"_meta":%s,"name":"confirm_return","arguments":%s%s}}`, id, elicitMeta, confirmArgs, extra))
			if r.Error != nil {
				t.Fatalf("tools/call: %+v", r.Error)
			}
			var v map[string]any
			json.Unmarshal(r.Result, &v)
			return v
		}
		first := call("1", "")
		if first["resultType"] != "input_required" {
			t.Fatalf("want input_required, got %v", first)
		}
		state, _ := json.Marshal(first["requestState"])
		retry := call("2", `,"inputResponses":{"confirm":{"action":"accept","content":{"confirm":true}}},"requestState":`+string(state))
		sc, _ := retry["structuredContent"].(map[string]any)
		if retry["resultType"] != "complete" || sc["confirmed"] != true || sc["status"] != "REQUESTED" {
			t.Fatalf("retry with the answer: got %v", retry)
		}
	})
}
