package rest_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpgen-dev/mcpgen/examples/orders/rest"
	"github.com/mcpgen-dev/mcpgen/examples/orders/store"
)

func newServer(t *testing.T) *httptest.Server {
	t.Helper()
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "orders.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	srv := httptest.NewServer(rest.NewHandler(st, rest.Tokens{"tok-alice": "alice", "tok-bob": "bob"}, nil))
	t.Cleanup(srv.Close)
	return srv
}

type call struct {
	method, path, token, body string
}

func do(t *testing.T, srv *httptest.Server, c call) (int, map[string]any) {
	t.Helper()
	req, err := http.NewRequest(c.method, srv.URL+c.path, strings.NewReader(c.body))
	if err != nil {
		t.Fatal(err)
	}
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	if c.body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("%s %s: Content-Type %q", c.method, c.path, ct)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("%s %s: body %q is not a JSON object", c.method, c.path, b)
	}
	return resp.StatusCode, m
}

func TestStatusesAndBodies(t *testing.T) {
	srv := newServer(t)
	for _, tc := range []struct {
		call
		status int
		want   string // the body, re-marshalled with sorted keys
	}{
		{call{"GET", "/orders/A1001", "tok-alice", ""}, 200, `{"order_id":"A1001","status":"SHIPPED","total_cents":4990}`},
		{call{"GET", "/orders/A1002", "tok-alice", ""}, 404, `{"code":"not_found","message":"no order A1002"}`},
		{call{"GET", "/orders/A1002", "tok-bob", ""}, 200, `{"order_id":"A1002","status":"PENDING","total_cents":1250}`},
		{call{"GET", "/orders/A9999", "tok-bob", ""}, 404, `{"code":"not_found","message":"no order A9999"}`},
		{call{"GET", "/orders/B1", "tok-bob", ""}, 400, ``},
		{call{"GET", "/orders/A1001", "", ""}, 401, `{"code":"unauthorized","message":"a valid bearer token is required"}`},
		{call{"GET", "/orders/A1001", "tok-mallory", ""}, 401, ``},
		{call{"GET", "/orders", "tok-alice", ""}, 200, `{"orders":[{"order_id":"A1001","status":"SHIPPED"},{"order_id":"A1003","status":"DELIVERED"}]}`},
		{call{"GET", "/orders?status=DELIVERED", "tok-alice", ""}, 200, `{"orders":[{"order_id":"A1003","status":"DELIVERED"}]}`},
		{call{"GET", "/orders?status=PENDING", "tok-alice", ""}, 200, `{"orders":[]}`},
		{call{"GET", "/orders?limit=1", "tok-alice", ""}, 200, `{"next_cursor":"YWZ0ZXI6QTEwMDE","orders":[{"order_id":"A1001","status":"SHIPPED"}]}`},
		{call{"GET", "/orders?limit=1&cursor=YWZ0ZXI6QTEwMDE", "tok-alice", ""}, 200, `{"orders":[{"order_id":"A1003","status":"DELIVERED"}]}`},
		{call{"GET", "/orders?limit=0", "tok-alice", ""}, 400, ``},
		{call{"GET", "/orders?limit=51", "tok-alice", ""}, 400, ``},
		{call{"GET", "/orders?status=LOST", "tok-alice", ""}, 400, ``},
		{call{"GET", "/orders?cursor=A1001", "tok-alice", ""}, 400, ``},
		{call{"GET", "/orders?colour=red", "tok-alice", ""}, 400, ``},
		{call{"POST", "/orders/A1002/returns", "tok-alice", `{"reason":"x","idempotency_key":"k0"}`}, 404, ``},
		{call{"POST", "/orders/A1001/returns", "tok-alice", `{"reason":"","idempotency_key":"k1"}`}, 400, ``},
		{call{"POST", "/orders/A1001/returns", "tok-alice", `{"reason":"r","idempotency_key":"k1","x":1}`}, 400, ``},
		{call{"POST", "/orders/A1001/returns", "tok-alice", `{"reason":"r"}`}, 400, ``},
		{call{"DELETE", "/orders/A1001", "tok-alice", ""}, 404, ``},
	} {
		status, body := do(t, srv, tc.call)
		got, _ := json.Marshal(body)
		if status != tc.status || (tc.want != "" && string(got) != tc.want) {
			t.Errorf("%s %s as %q: %d %s, want %d %s", tc.method, tc.path, tc.token, status, got, tc.status, tc.want)
		}
		if status >= 400 && (body["code"] == nil || body["message"] == nil) {
			t.Errorf("%s %s: error body %s lacks code and message", tc.method, tc.path, got)
		}
	}
}

// A return is created once per idempotency key: 201, then 200 with the same
// return; the key used for another order is a 409.
func TestCreateReturnIsIdempotent(t *testing.T) {
	srv := newServer(t)
	body := `{"reason":"too small","idempotency_key":"k-1"}`
	status, first := do(t, srv, call{"POST", "/orders/A1001/returns", "tok-alice", body})
	if status != 201 || first["status"] != "REQUESTED" || first["order_id"] != "A1001" || first["reason"] != "too small" {
		t.Fatalf("first: %d %v", status, first)
	}
	status, again := do(t, srv, call{"POST", "/orders/A1001/returns", "tok-alice", body})
	if status != 200 || again["return_id"] != first["return_id"] {
		t.Fatalf("retry: %d %v, want 200 with return_id %v", status, again, first["return_id"])
	}
	if status, _ := do(t, srv, call{"POST", "/orders/A1003/returns", "tok-alice", body}); status != 409 {
		t.Errorf("key reused for another order: %d, want 409", status)
	}
	// Bob's own key space is separate from alice's.
	if status, _ := do(t, srv, call{"POST", "/orders/A1002/returns", "tok-bob", body}); status != 201 {
		t.Errorf("bob with alice's key: %d, want 201", status)
	}
}
