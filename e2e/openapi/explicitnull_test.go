package openapi

import (
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
)

// TestExplicitNullReachesUpstream: an optional nullable property given as
// null reaches the API as null, at the top of a JSON body and nested in
// it, while one left out stays out (OpenAI's turn_detection: null turns
// detection off, absent keeps the server's default). A form has no null:
// there the null is sent as absent.
func TestExplicitNullReachesUpstream(t *testing.T) {
	needE2E(t)
	t.Parallel()
	bin := buildServer(t, "testdata/explicit-null-api.yaml")
	var mu sync.Mutex
	var bodies []string
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		bodies = append(bodies, string(b))
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"id":"s1"}`)
	}))
	t.Cleanup(up.Close)
	c := startServer(t, bin, up.URL)
	calls := []struct {
		tool string
		args map[string]any
		want string
	}{
		{"createSession", map[string]any{"model": "m"}, `{"model":"m"}`},
		{"createSession", map[string]any{"model": "m", "instructions": nil, "turn_detection": nil},
			`{"model":"m","instructions":null,"turn_detection":null}`},
		{"createSession", map[string]any{"model": "m", "turn_detection": map[string]any{"type": "server_vad"}},
			`{"model":"m","turn_detection":{"type":"server_vad"}}`},
		{"createSession", map[string]any{"model": "m", "audio": map[string]any{"input": map[string]any{"format": "pcm16"}}},
			`{"model":"m","audio":{"input":{"format":"pcm16"}}}`},
		{"createSession", map[string]any{"model": "m", "audio": map[string]any{"input": map[string]any{"format": "pcm16", "turn_detection": nil}}},
			`{"model":"m","audio":{"input":{"format":"pcm16","turn_detection":null}}}`},
		{"createForm", map[string]any{"name": "n", "note": nil}, `name=n`},
		{"createForm", map[string]any{"name": "n", "note": "x"}, `name=n&note=x`},
	}
	var want []string
	for _, call := range calls {
		if r := c.callTool(call.tool, call.args); r.IsError {
			t.Errorf("%s %s refused: %s", call.tool, mustJSON(call.args), r.text())
		}
		want = append(want, call.want)
	}
	mu.Lock()
	defer mu.Unlock()
	if !slices.Equal(bodies, want) {
		t.Errorf("upstream got\n%q\nwant\n%q", bodies, want)
	}
}
