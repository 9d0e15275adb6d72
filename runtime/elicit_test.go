package runtime

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// reqLineMeta builds a request with the given _meta member text.
func reqLineMeta(id any, method, meta, params string) string {
	idJSON, _ := json.Marshal(id)
	p := "{" + meta
	if params != "" {
		p += "," + params
	}
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":%q,"params":%s}}`, idJSON, method, p)
}

func callMeta(c *testClient, id any, method, meta, params string) wireMsg {
	c.t.Helper()
	c.send(reqLineMeta(id, method, meta, params))
	return c.recv()
}

func wantInvalidState(t *testing.T, what string, m wireMsg) {
	t.Helper()
	if m.Error == nil || m.Error.Code != CodeInvalidParams || m.Error.Message != "invalid requestState" {
		t.Errorf("%s: want -32602 invalid requestState, got %s", what, m.raw)
	}
}

// fakeClock lets a test move the server's clock.
type fakeClock struct{ offset atomic.Int64 }

func (c *fakeClock) now() time.Time { return time.Now().Add(time.Duration(c.offset.Load())) }

func TestElicitRoundTrip(t *testing.T) {
	oldKey := []byte("old-key-0123456789")
	f := newFixture(t, Options{StateKeys: [][]byte{oldKey}, StateTTL: time.Minute})
	var clock fakeClock
	f.srv.now = clock.now
	c := startClient(t, f.srv, StdioOptions{Identity: &Identity{Subject: "alice"}})
	args := `"name":"ask","arguments":{"a":1,"b":[true,"x"]}`

	// Round 1: the server asks for the name.
	m := callMeta(c, "r1", "tools/call", elicitMeta, args)
	r := m.res(t)
	if r["resultType"] != "input_required" || r["ttlMs"] != nil || r["cacheScope"] != nil {
		t.Fatalf("round 1: want an uncached input_required, got %s", m.raw)
	}
	if r["_meta"] == nil {
		t.Error("input_required must carry serverInfo")
	}
	jsonEq(t, "inputRequests", mustJSON(r["inputRequests"]), `{"name":{"method":"elicitation/create","params":{"mode":"form","message":"Your name?",
		"requestedSchema":{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}}}}`)
	state1 := r["requestState"].(string)

	// Round 2: the name is answered; the server asks to confirm. The
	// arguments are re-encoded in another key order, which must not matter.
	m = callMeta(c, "r2", "tools/call", elicitMeta, `"name":"ask","arguments":{"b":[true,"x"], "a":1},"inputResponses":{"name":{"action":"accept","content":{"name":"Ada"}}},"requestState":`+fmt.Sprintf("%q", state1))
	r = m.res(t)
	if r["resultType"] != "input_required" {
		t.Fatalf("round 2: got %s", m.raw)
	}
	if reqs := r["inputRequests"].(map[string]any); len(reqs) != 1 || reqs["confirm"] == nil {
		t.Fatalf("round 2 must ask only for confirm, got %v", reqs)
	}
	state2 := r["requestState"].(string)

	// Round 3: only the new answer is sent; the name comes from the state.
	round3 := func(state string) string {
		return args + `,"inputResponses":{"confirm":{"action":"accept","content":{"ok":true}}},"requestState":` + fmt.Sprintf("%q", state)
	}
	m = callMeta(c, "r3", "tools/call", elicitMeta, round3(state2))
	r = m.res(t)
	if r["resultType"] != "complete" || r["content"].([]any)[0].(map[string]any)["text"] != "Ada/true/accept" {
		t.Fatalf("round 3: got %s", m.raw)
	}

	// Replaying the same state with the same binding is harmless: same answer.
	if m = callMeta(c, "r3b", "tools/call", elicitMeta, round3(state2)); !strings.Contains(m.raw, "Ada/true/accept") {
		t.Fatalf("replay: got %s", m.raw)
	}

	payload, sig, _ := strings.Cut(state2, ".")
	flipped := []byte(payload)
	flipped[len(flipped)/2] ^= 1
	rejections := map[string]string{
		"garbage":     round3("garbage"),
		"forged sig":  round3(payload + "." + strings.Repeat("A", len(sig))),
		"altered":     round3(string(flipped) + "." + sig),
		"other args":  `"name":"ask","arguments":{"a":2,"b":[true,"x"]},"requestState":` + fmt.Sprintf("%q", state2),
		"other tool":  `"name":"ask_url","arguments":{"a":1,"b":[true,"x"]},"requestState":` + fmt.Sprintf("%q", state2),
		"foreign key": round3(forgeState(t, payload)),
	}
	for name, params := range rejections {
		wantInvalidState(t, name, callMeta(c, "bad", "tools/call", elicitMeta, params))
	}
	wantInvalidState(t, "other method", callMeta(c, "bad", "prompts/get", elicitMeta, `"name":"greet","arguments":{"name":"x"},"requestState":`+fmt.Sprintf("%q", state2)))

	// Another caller cannot use alice's state.
	bob := startClient(t, f.srv, StdioOptions{Identity: &Identity{Subject: "bob"}})
	wantInvalidState(t, "other subject", callMeta(bob, "bad", "tools/call", elicitMeta, round3(state2)))

	// A rotated-in key still verifies states signed with the old one; a
	// server that dropped the old key rejects them.
	rotated := newFixture(t, Options{StateKeys: [][]byte{[]byte("new-key"), oldKey}})
	rc := startClient(t, rotated.srv, StdioOptions{Identity: &Identity{Subject: "alice"}})
	if m := callMeta(rc, "rot", "tools/call", elicitMeta, round3(state2)); !strings.Contains(m.raw, "Ada/true/accept") {
		t.Fatalf("rotated keys: got %s", m.raw)
	}
	dropped := newFixture(t, Options{StateKeys: [][]byte{[]byte("new-key")}})
	dc := startClient(t, dropped.srv, StdioOptions{Identity: &Identity{Subject: "alice"}})
	wantInvalidState(t, "dropped key", callMeta(dc, "bad", "tools/call", elicitMeta, round3(state2)))

	// Past its TTL the state is refused.
	clock.offset.Store(int64(2 * time.Minute))
	wantInvalidState(t, "expired", callMeta(c, "late", "tools/call", elicitMeta, round3(state2)))
}

// forgeState signs a genuine payload with a key the server does not have.
func forgeState(t *testing.T, payload string) string {
	t.Helper()
	s := NewServer(Options{StateKeys: [][]byte{[]byte("attacker")}})
	return payload + "." + encodeSig(s.mac([]byte("attacker"), stateDomain, payload))
}

func encodeSig(b []byte) string { return base64.RawURLEncoding.EncodeToString(b) }

func TestElicitCapabilities(t *testing.T) {
	f := newFixture(t, Options{})
	c := startClient(t, f.srv, StdioOptions{})
	urlMeta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{"url":{}}}}`
	tests := []struct {
		name, meta, tool string
		wantCode         int
		wantData         string
		wantMode         string
	}{
		{"form without capability", testMeta, "ask", CodeMissingRequiredClientCapability, `{"requiredCapabilities":{"elicitation":{"form":{}}}}`, ""},
		{"url with form-only capability", elicitMeta, "ask_url", CodeMissingRequiredClientCapability, `{"requiredCapabilities":{"elicitation":{"url":{}}}}`, ""},
		{"form with url-only capability", urlMeta, "ask", CodeMissingRequiredClientCapability, `{"requiredCapabilities":{"elicitation":{"form":{}}}}`, ""},
		{"url declared", urlMeta, "ask_url", 0, "", "url"},
		{"bare elicitation means form", elicitMeta, "ask", 0, "", "form"},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := callMeta(c, i, "tools/call", tt.meta, `"name":"`+tt.tool+`"`)
			if tt.wantCode != 0 {
				if m.Error == nil || m.Error.Code != tt.wantCode {
					t.Fatalf("want %d, got %s", tt.wantCode, m.raw)
				}
				jsonEq(t, "data", m.Error.Data, tt.wantData)
				return
			}
			for _, req := range m.res(t)["inputRequests"].(map[string]any) {
				if mode := req.(map[string]any)["params"].(map[string]any)["mode"]; mode != tt.wantMode {
					t.Errorf("mode %v, want %s", mode, tt.wantMode)
				}
			}
		})
	}
	m := callMeta(c, "x", "tools/call", urlMeta, `"name":"ask_url"`)
	jsonEq(t, "url request", mustJSON(m.res(t)["inputRequests"]), `{"key":{"method":"elicitation/create","params":{"mode":"url","message":"Set your key","url":"https://example.com/key"}}}`)

	// An answer with an invalid action is a protocol error.
	m = callMeta(c, "y", "tools/call", elicitMeta, `"name":"ask","inputResponses":{"name":{"action":"maybe"}}`)
	if m.Error == nil || m.Error.Code != CodeInvalidParams {
		t.Errorf("invalid action: want -32602, got %s", m.raw)
	}
}

func TestRetryResultsAreNotCached(t *testing.T) {
	f := newFixture(t, Options{ReadCache: CacheHint{TTLMs: 1000, Scope: "public"}})
	c := startClient(t, f.srv, StdioOptions{})
	if r := c.call(1, "resources/read", `"uri":"policy://a"`).res(t); r["ttlMs"] != 1000.0 {
		t.Fatalf("first read must carry the cache hint: %v", r)
	}
	if r := c.call(2, "resources/read", `"uri":"policy://a","inputResponses":{}`).res(t); r["ttlMs"] != nil || r["cacheScope"] != nil {
		t.Fatalf("a retry's result must not be cacheable: %v", r)
	}
}
