package runtime

import (
	"context"
	"strings"
	"testing"
	"time"
)

func listenerCount(s *Server) int {
	s.subs.mu.Lock()
	defer s.subs.mu.Unlock()
	return len(s.subs.listeners)
}

func TestListen(t *testing.T) {
	f := newFixture(t, Options{})
	c := startClient(t, f.srv, StdioOptions{})
	info := `"io.modelcontextprotocol/serverInfo":{"name":"test-server","version":"1.2.3"}`

	c.send(reqLine("listen-1", "subscriptions/listen", `"notifications":{"toolsListChanged":true,"promptsListChanged":false,"resourceSubscriptions":["policy://a","policy://a"]}`))
	m := c.recv()
	if m.Method != "notifications/subscriptions/acknowledged" {
		t.Fatalf("the first message of a listen must be its ack, got %s", m.raw)
	}
	jsonEq(t, "ack", m.Params, `{"_meta":{"io.modelcontextprotocol/subscriptionId":"listen-1"},"notifications":{"toolsListChanged":true,"resourceSubscriptions":["policy://a"]}}`)

	c.send(reqLine(7, "subscriptions/listen", `"notifications":{"promptsListChanged":true,"resourcesListChanged":true}`))
	jsonEq(t, "ack 7", c.recv().Params, `{"_meta":{"io.modelcontextprotocol/subscriptionId":7},"notifications":{"promptsListChanged":true,"resourcesListChanged":true}}`)

	steps := []struct {
		name   string
		notify func()
		method string
		params string
	}{
		{"tools changed", f.srv.NotifyToolsListChanged, "notifications/tools/list_changed", `{"_meta":{"io.modelcontextprotocol/subscriptionId":"listen-1"}}`},
		{"resource updated", func() { f.srv.NotifyResourceUpdated("policy://a") }, "notifications/resources/updated", `{"_meta":{"io.modelcontextprotocol/subscriptionId":"listen-1"},"uri":"policy://a"}`},
		{"unsubscribed resource", func() { f.srv.NotifyResourceUpdated("policy://public") }, "", ""},
		{"prompts changed", f.srv.NotifyPromptsListChanged, "notifications/prompts/list_changed", `{"_meta":{"io.modelcontextprotocol/subscriptionId":7}}`},
		{"resources changed", f.srv.NotifyResourcesListChanged, "notifications/resources/list_changed", `{"_meta":{"io.modelcontextprotocol/subscriptionId":7}}`},
	}
	for _, st := range steps {
		st.notify()
		if st.method == "" {
			continue
		}
		m := c.recv()
		if m.Method != st.method {
			t.Fatalf("%s: want %s, got %s", st.name, st.method, m.raw)
		}
		jsonEq(t, st.name, m.Params, st.params)
	}
	// Nothing else was sent: the next message is a response.
	c.call("probe", "server/discover", "")

	// The client ends listen 7; it gets no result and no more notifications.
	c.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7}}`)
	for deadline := time.Now().Add(5 * time.Second); listenerCount(f.srv) != 1; {
		if time.Now().After(deadline) {
			t.Fatal("listen 7 was not ended by notifications/cancelled")
		}
		time.Sleep(time.Millisecond)
	}
	f.srv.NotifyPromptsListChanged()
	c.call("probe2", "server/discover", "")

	// On shutdown (EOF) the open listen ends with its result.
	err, rest := c.closeAndWait()
	if err != nil {
		t.Fatal(err)
	}
	if len(rest) != 1 || string(rest[0].ID) != `"listen-1"` {
		t.Fatalf("want only the result of listen-1 after EOF, got %v", rest)
	}
	jsonEq(t, "listen result", rest[0].Result, `{"resultType":"complete","_meta":{"io.modelcontextprotocol/subscriptionId":"listen-1",`+info+`}}`)
}

func TestListenHonouredSubsetAndErrors(t *testing.T) {
	s := NewServer(Options{})
	s.AddTool(ToolDef{Name: "t", Definition: toolDef("t"), Call: func(ctx context.Context, args []byte) (*ToolResult, error) { return nil, nil }})
	c := startClient(t, s, StdioOptions{})
	c.send(reqLine("l", "subscriptions/listen", `"notifications":{"toolsListChanged":true,"promptsListChanged":true,"resourcesListChanged":true,"resourceSubscriptions":["x://y"]}`))
	jsonEq(t, "ack", c.recv().Params, `{"_meta":{"io.modelcontextprotocol/subscriptionId":"l"},"notifications":{"toolsListChanged":true}}`)
	for name, params := range map[string]string{
		"no filter":          ``,
		"filter not object":  `"notifications":5`,
		"subscriptions type": `"notifications":{"resourceSubscriptions":[1]}`,
	} {
		m := c.call("bad", "subscriptions/listen", params)
		if m.Error == nil || m.Error.Code != CodeInvalidParams {
			t.Errorf("%s: want -32602, got %s", name, m.raw)
		}
	}
}

// TestListenAckComesFirst races notifications against a new listen: none
// may overtake the acknowledgement.
func TestListenAckComesFirst(t *testing.T) {
	f := newFixture(t, Options{})
	c := startClient(t, f.srv, StdioOptions{})
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			select {
			case <-stop:
				return
			default:
				f.srv.NotifyToolsListChanged()
			}
		}
	}()
	for i := range 20 {
		id := "race-" + strings.Repeat("x", i)
		c.send(reqLine(id, "subscriptions/listen", `"notifications":{"toolsListChanged":true}`))
		for {
			m := c.recv()
			if !strings.Contains(string(m.Params), `"`+id+`"`) {
				continue // a notification for an earlier subscription
			}
			if m.Method != "notifications/subscriptions/acknowledged" {
				t.Fatalf("subscription %s: first message %s", id, m.raw)
			}
			break
		}
	}
	close(stop)
	// Keep reading: the notifier may be blocked writing to us.
	for {
		select {
		case <-done:
			return
		case <-c.lines:
		}
	}
}
