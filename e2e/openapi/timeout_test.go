package openapi

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestUpstreamTimeout: the generated main.go bounds each attempt of an API
// call by --upstream-timeout (env MCPGEN_UPSTREAM_TIMEOUT). The upstream
// here never answers until the test ends, so the only way the call can
// come back is the configured timeout: with the default 30 s the three
// attempts of the GET would outlast the client's wait, a generous bound
// for three 300 ms attempts.
func TestUpstreamTimeout(t *testing.T) {
	needE2E(t)
	bin := buildServer(t, "testdata/swagger-petstore-openapi-3.0.yaml")
	hang := make(chan struct{})
	var calls atomic.Int64
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		select {
		case <-hang:
		case <-r.Context().Done():
		}
	}))
	t.Cleanup(api.Close)
	t.Cleanup(func() { close(hang) })
	for _, tc := range []struct {
		name string
		env  []string
	}{
		{"environment", []string{"MCPGEN_UPSTREAM_TIMEOUT=300ms"}},
		{"flag over environment", []string{"MCPGEN_UPSTREAM_TIMEOUT=1h", "--upstream-timeout=300ms"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var env, flags []string
			for _, e := range tc.env {
				if strings.HasPrefix(e, "--") {
					flags = append(flags, e)
				} else {
					env = append(env, e)
				}
			}
			c := startServerArgs(t, bin, append([]string{"--upstream", api.URL}, flags...), append(env, "MCPGEN_API_KEY_API_KEY=k")...)
			c.wait = 30 * time.Second
			before := calls.Load()
			res := c.callTool("getOrderById", map[string]any{"orderId": 1})
			if !res.IsError || !strings.Contains(res.text(), "Client.Timeout exceeded") {
				t.Fatalf("want an isError result naming the timeout, got %+v", res)
			}
			// getOrderById is a GET: retried twice after a timeout.
			if n := calls.Load() - before; n != 3 {
				t.Errorf("the upstream saw %d attempts, want 3 (one and two retries)", n)
			}
		})
	}
}
