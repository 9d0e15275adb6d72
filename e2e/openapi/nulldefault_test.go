package openapi

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
)

// TestNullDefaultStaysAbsent: a property whose default is null (OpenAI's
// fine-tuning suffix, a nullable string with minLength 1, and logit_bias,
// an object that is not nullable) is left out of the request when the call
// omits it, so the API applies its own default; the server neither sends
// the zero value ("") nor refuses the null it filled in itself. Given, the
// values are sent as they are.
func TestNullDefaultStaysAbsent(t *testing.T) {
	needE2E(t)
	t.Parallel()
	bin := buildServer(t, "testdata/null-default-api.yaml")
	var bodies []string
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		bodies = append(bodies, string(b))
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"id":"c1"}`)
	}))
	t.Cleanup(up.Close)
	c := startServer(t, bin, up.URL)
	for _, args := range []map[string]any{
		{"model": "m"},
		{"model": "m", "suffix": "custom", "logit_bias": map[string]any{"50256": -100}},
	} {
		if r := c.callTool("createJob", args); r.IsError {
			t.Errorf("%v refused: %s", args, r.text())
		}
	}
	want := []string{`{"model":"m"}`, `{"model":"m","suffix":"custom","logit_bias":{"50256":-100}}`}
	if len(bodies) != 2 || bodies[0] != want[0] || bodies[1] != want[1] {
		t.Errorf("upstream got %q, want %q", bodies, want)
	}
	if r := c.callTool("createJob", map[string]any{"model": "m", "suffix": ""}); !r.IsError {
		t.Errorf("an empty suffix (minLength 1) was accepted")
	}
}
