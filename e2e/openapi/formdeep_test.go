package openapi

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
)

// TestFormDeepObjectEmptyMember: deepObject form fields carry scalars
// only, so an empty object inside one (Stripe's shipping.address: {})
// would reach the API as nothing, and a member the API requires would go
// missing. The server refuses such a call with an error at the member's
// path and sends nothing; a filled-in member is sent nested.
func TestFormDeepObjectEmptyMember(t *testing.T) {
	needE2E(t)
	t.Parallel()
	bin := buildServer(t, "testdata/form-deepobject-api.yaml")
	var bodies []string
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		bodies = append(bodies, string(b))
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"id":"cus_1"}`)
	}))
	t.Cleanup(up.Close)
	c := startServer(t, bin, up.URL)

	r := c.callTool("PostCustomers", map[string]any{"shipping": map[string]any{"name": "Ada", "address": map[string]any{}}})
	if !r.IsError || !strings.Contains(r.text(), "/shipping/address") || !strings.Contains(r.text(), "empty object or array") {
		t.Errorf("an empty nested object was not refused at its path: %s", r.text())
	}
	if len(bodies) != 0 {
		t.Errorf("the refused call reached the API: %q", bodies)
	}

	r = c.callTool("PostCustomers", map[string]any{"shipping": map[string]any{"name": "Ada", "address": map[string]any{"line1": "1 Main St"}}})
	if r.IsError {
		t.Fatalf("a filled-in address was refused: %s", r.text())
	}
	if len(bodies) != 1 {
		t.Fatalf("upstream got %q", bodies)
	}
	got, err := url.ParseQuery(bodies[0])
	if err != nil || got.Get("shipping[name]") != "Ada" || got.Get("shipping[address][line1]") != "1 Main St" {
		t.Errorf("upstream got %q (%v)", bodies[0], err)
	}
}
