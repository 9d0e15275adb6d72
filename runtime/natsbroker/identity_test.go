package natsbroker_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mcpgen-dev/mcpgen/runtime"
	"github.com/mcpgen-dev/mcpgen/runtime/natsbroker"
)

// tokens maps bearer tokens to subjects.
type tokens map[string]string

func (v tokens) Verify(ctx context.Context, token string, r *http.Request) (runtime.Identity, error) {
	if sub, ok := v[token]; ok {
		return runtime.Identity{Subject: sub}, nil
	}
	return runtime.Identity{}, errors.New("unknown token")
}

// TestSessionBoundToIdentityAcrossReplicas: a session id made for alice on
// replica A is a session on replica B for alice only; bob, presenting the
// same id, meets 404 there as for an unknown id.
func TestSessionBoundToIdentityAcrossReplicas(t *testing.T) {
	ns := startNATS(t, 0)
	var urls []string
	for range 2 {
		b, err := natsbroker.Connect(natsbroker.Options{URL: ns.ClientURL(), Prefix: "auth", Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
		if err != nil {
			t.Fatal(err)
		}
		defer b.Close()
		srv := runtime.NewServer(runtime.Options{StateKeys: [][]byte{sharedKey}, Broker: b, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
		ts := httptest.NewServer(srv.Handler(runtime.HTTPOptions{Auth: &runtime.AuthOptions{Verifier: tokens{"tok-alice": "alice", "tok-bob": "bob"}}}))
		defer ts.Close()
		urls = append(urls, ts.URL)
	}
	post := func(url, token, sid, body string) *http.Response {
		req, _ := http.NewRequest("POST", url, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Authorization", "Bearer "+token)
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
	init := post(urls[0], "tok-alice", "", initializeBody)
	sid := init.Header.Get("Mcp-Session-Id")
	if init.StatusCode != 200 || sid == "" {
		t.Fatalf("initialize: %d", init.StatusCode)
	}
	ping := `{"jsonrpc":"2.0","id":1,"method":"ping"}`
	if r := post(urls[1], "tok-bob", sid, ping); r.StatusCode != 404 {
		t.Errorf("bob with alice's session on replica B: %d, want 404", r.StatusCode)
	}
	if r := post(urls[1], "tok-alice", sid, ping); r.StatusCode != 200 {
		t.Errorf("alice on replica B: %d, want 200", r.StatusCode)
	}
	// Bob is refused on B even now that B holds a copy of the session.
	if r := post(urls[1], "tok-bob", sid, ping); r.StatusCode != 404 {
		t.Errorf("bob on replica B after alice: %d, want 404", r.StatusCode)
	}
}
