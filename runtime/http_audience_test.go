package runtime

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// audienceVerifier accepts tokens of the form "<audience> <subject>" and,
// as a real verifier must (reference §13: servers MUST check the token's
// audience), only when the audience is this server's canonical URI.
type audienceVerifier struct{ resource string }

func (v audienceVerifier) Verify(ctx context.Context, token string, r *http.Request) (Identity, error) {
	aud, sub, ok := strings.Cut(token, " ")
	if !ok {
		return Identity{}, errors.New("malformed token")
	}
	if aud != v.resource {
		return Identity{}, errors.New("token audience is not this server")
	}
	return Identity{Subject: sub}, nil
}

// TestHTTPTokenAudience shows the audience mitigation end to end: a token
// minted for another resource server is refused with 401 invalid_token
// before any handler runs, and neither the token nor the verifier's reason
// reaches the response body or the log.
func TestHTTPTokenAudience(t *testing.T) {
	const resource = "https://mcp.example.com/mcp"
	var logs bytes.Buffer
	f := httpFixture(t, Options{Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	mux := http.NewServeMux()
	f.srv.Mount(mux, "/mcp", HTTPOptions{Auth: &AuthOptions{Verifier: audienceVerifier{resource}, Resource: resource}})
	ts := httptest.NewServer(mux)
	defer ts.Close()

	call := func(token string) hresp {
		h := mcpHeaders("tools/call", "whoami")
		h["Authorization"] = "Bearer " + token
		return do(t, ts.URL+"/mcp", hreq{body: rpcBody(1, "tools/call", `"name":"whoami"`), header: h})
	}
	const foreign = "https://other.example.com/mcp mallory-secret-token"
	r := call(foreign)
	if r.status != http.StatusUnauthorized || !strings.Contains(r.header.Get("WWW-Authenticate"), `error="invalid_token"`) {
		t.Fatalf("token for another audience: %d %v %s", r.status, r.header, r.body)
	}
	for where, text := range map[string]string{"response": r.body, "log": logs.String()} {
		if strings.Contains(text, "mallory-secret-token") {
			t.Errorf("the rejected token appears in the %s: %s", where, text)
		}
	}
	if r := call(resource + " rita"); r.status != http.StatusOK || r.code(t) != 0 {
		t.Errorf("token for this server: %d %s", r.status, r.body)
	}
}
