package runtime

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"testing"
)

// localBroker is an in-process Broker for tests: Publish delivers to every
// subscriber, in order, on one goroutine per subscription.
type localBroker struct {
	mu   sync.Mutex
	subs map[string][]chan []byte
}

func (b *localBroker) Publish(subject string, data []byte) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, ch := range b.subs[subject] {
		ch <- data
	}
	return nil
}

func (b *localBroker) Subscribe(subject string, handle func([]byte) []byte) (func(), error) {
	ch := make(chan []byte, 64)
	b.mu.Lock()
	if b.subs == nil {
		b.subs = map[string][]chan []byte{}
	}
	b.subs[subject] = append(b.subs[subject], ch)
	b.mu.Unlock()
	go func() {
		for data := range ch {
			handle(data)
		}
	}()
	return func() {}, nil
}

func (b *localBroker) Request(context.Context, string, []byte) ([]byte, error) {
	return nil, errors.New("localBroker: no requests")
}

// TestTaskStatusAcrossReplicas: a task runs on one replica; its creator's
// listen stream on another replica hears its status changes through the
// broker, and another caller's stream does not.
func TestTaskStatusAcrossReplicas(t *testing.T) {
	broker := &localBroker{}
	a := newTaskFixture(t, Options{Broker: broker})
	b := newTaskFixture(t, Options{Broker: broker})
	creator := startClient(t, a.srv, StdioOptions{Identity: &Identity{Subject: "alice"}})
	listener := startClient(t, b.srv, StdioOptions{Identity: &Identity{Subject: "alice"}})
	other := startClient(t, b.srv, StdioOptions{Identity: &Identity{Subject: "bob"}})
	for _, c := range []*testClient{listener, other} {
		c.send(reqLineMeta("l", "subscriptions/listen", tasksMeta, `"notifications":{}`))
		if m := c.recv(); m.Method != "notifications/subscriptions/acknowledged" {
			t.Fatalf("want the listen ack, got %s", m.raw)
		}
	}

	id := taskCall(creator, "c", "tools/call", `"name":"job"`).res(t)["taskId"].(string)
	<-a.ctxs
	a.release <- "elsewhere"
	m := listener.recv()
	var note map[string]any
	json.Unmarshal(m.Params, &note)
	if m.Method != "notifications/tasks" || note["taskId"] != id || note["status"] != "completed" {
		t.Fatalf("listener on the other replica: %s %s", m.Method, m.Params)
	}
	// bob's stream heard nothing: its next message is the probe's answer.
	other.call("probe", "server/discover", "")
}
