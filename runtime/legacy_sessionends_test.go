package runtime

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// endsBroker is a Broker that delivers nothing and keeps a record of
// ended sessions in memory (SessionEnds), or fails to when err is set.
type endsBroker struct {
	mu    sync.Mutex
	ended map[string]bool
	err   error
	asked int // SessionEnded calls
}

func (b *endsBroker) Publish(string, []byte) error { return nil }
func (b *endsBroker) Subscribe(string, func([]byte) []byte) (func(), error) {
	return func() {}, nil
}
func (b *endsBroker) Request(context.Context, string, []byte) ([]byte, error) {
	return nil, errors.New("nobody")
}

func (b *endsBroker) EndSession(_ context.Context, key string) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.err != nil {
		return b.err
	}
	b.ended[key] = true
	return nil
}

func (b *endsBroker) SessionEnded(_ context.Context, key string) (bool, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.asked++
	return b.ended[key], b.err
}

func (b *endsBroker) WatchSessionEnds(func(string)) func() { return func() {} }

// TestSessionEndsRecord: DELETE records the end in the broker's record
// before answering; a replica that never saw the session refuses an id
// the record holds, restores one it does not, and, when the record cannot
// be read, goes on with what it knows and says so once.
func TestSessionEndsRecord(t *testing.T) {
	key := [][]byte{[]byte("0123456789abcdef0123456789abcdef")}
	replica := func(b *endsBroker) (*httptest.Server, *syncBuffer) {
		logs := &syncBuffer{}
		srv := NewServer(Options{StateKeys: key, Broker: b, Logger: slog.New(slog.NewTextHandler(logs, nil))})
		ts := httptest.NewServer(srv.Handler(HTTPOptions{}))
		t.Cleanup(ts.Close)
		return ts, logs
	}
	post := func(url, sid, body string) *http.Response {
		req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if sid != "" {
			req.Header.Set("Mcp-Session-Id", sid)
			req.Header.Set("MCP-Protocol-Version", "2025-11-25")
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp
	}
	initialize := func(url string) string {
		resp := post(url, "", `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
		sid := resp.Header.Get("Mcp-Session-Id")
		if resp.StatusCode != http.StatusOK || sid == "" {
			t.Fatalf("initialize: %d", resp.StatusCode)
		}
		return sid
	}
	const ping = `{"jsonrpc":"2.0","id":1,"method":"ping"}`

	shared := &endsBroker{ended: map[string]bool{}}
	a, _ := replica(shared)
	ended, live := initialize(a.URL), initialize(a.URL)
	del, _ := http.NewRequest(http.MethodDelete, a.URL, nil)
	del.Header.Set("Mcp-Session-Id", ended)
	resp, err := http.DefaultClient.Do(del)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("DELETE: %v %v", err, resp)
	}
	resp.Body.Close()
	if !shared.ended[endKey(ended)] || len(shared.ended) != 1 {
		t.Fatalf("record after DELETE = %v, want the ended session's key only", shared.ended)
	}

	// A replica that never saw either session: the record decides.
	b, _ := replica(shared)
	if got := post(b.URL, ended, ping).StatusCode; got != http.StatusNotFound {
		t.Errorf("ended session on a new replica: %d, want 404", got)
	}
	if got := post(b.URL, live, ping).StatusCode; got != http.StatusOK {
		t.Errorf("live session on a new replica: %d, want 200", got)
	}
	asked := shared.asked
	post(b.URL, live, ping)
	post(b.URL, ended, ping)
	if shared.asked != asked {
		t.Errorf("the record was asked again for sessions already known (%d more)", shared.asked-asked)
	}

	// The record fails: requests are served, the failure logged once.
	failing := &endsBroker{ended: map[string]bool{}, err: errors.New("no jetstream")}
	c, logs := replica(failing)
	for _, sid := range []string{live, initialize(a.URL)} {
		if got := post(c.URL, sid, ping).StatusCode; got != http.StatusOK {
			t.Errorf("session on a replica whose record fails: %d, want 200", got)
		}
	}
	if n := strings.Count(logs.String(), "record of ended sessions cannot be used"); n != 1 {
		t.Errorf("the failure was logged %d times, want once:\n%s", n, logs.String())
	}
}
