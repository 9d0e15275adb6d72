package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// startHTTP runs orders-mcp --http on a free loopback port with tokens for
// alice and bob, and returns the endpoint URL.
func startHTTP(t *testing.T) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	args := []string{"--db", filepath.Join(t.TempDir(), "orders.db"), "--http", "127.0.0.1:0",
		"--token", "tok-alice=alice", "--token", "tok-bob=bob"}
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, args, strings.NewReader(""), io.Discard, pw, func(string) string { return "" })
		pw.Close()
	}()
	urlRE := regexp.MustCompile(`url=(http://\S+/mcp)`)
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			if m := urlRE.FindStringSubmatch(sc.Text()); m != nil {
				found <- m[1]
			}
		}
	}()
	t.Cleanup(func() {
		cancel()
		select {
		case code := <-done:
			if code != 0 {
				t.Errorf("orders-mcp exited %d", code)
			}
		case <-time.After(10 * time.Second):
			t.Error("orders-mcp did not stop")
		}
	})
	select {
	case u := <-found:
		return u
	case code := <-done:
		t.Fatalf("orders-mcp exited %d before serving", code)
	case <-time.After(10 * time.Second):
		t.Fatal("orders-mcp did not start")
	}
	return ""
}

const meta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`

type httpResult struct {
	status int
	header http.Header
	Error  *struct {
		Code    int
		Message string
	}
	Result json.RawMessage
}

// post sends one request as a conforming client would: headers mirror the
// body.
func post(t *testing.T, url, token, method, name, params string, extra map[string]string) httpResult {
	t.Helper()
	body := fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":%q,"params":{%s%s}}`, method, meta, params)
	req, _ := http.NewRequest("POST", url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("MCP-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", method)
	if name != "" {
		req.Header.Set("Mcp-Name", name)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for k, v := range extra {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	r := httpResult{status: resp.StatusCode, header: resp.Header}
	if resp.Header.Get("Content-Type") == "application/json" {
		if err := json.Unmarshal(b, &r); err != nil {
			t.Fatalf("%s: body %s: %v", method, b, err)
		}
	}
	return r
}

func TestHTTPRequiresAToken(t *testing.T) {
	url := startHTTP(t)
	for _, token := range []string{"", "tok-mallory", "tok-alice2"} {
		r := post(t, url, token, "tools/list", "", "", nil)
		if r.status != 401 || !strings.Contains(r.header.Get("WWW-Authenticate"), "resource_metadata=") {
			t.Errorf("token %q: status %d, WWW-Authenticate %q", token, r.status, r.header.Get("WWW-Authenticate"))
		}
	}
	resp, err := http.Get(strings.Replace(url, "/mcp", "/.well-known/oauth-protected-resource/mcp", 1))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(b), `"resource":"`+url+`"`) {
		t.Errorf("metadata: %d %s", resp.StatusCode, b)
	}
}

// TestHTTPAliceNeverSeesBobsOrders drives every method that touches orders
// as alice, with bob's order A1002 as the target where one is named.
func TestHTTPAliceNeverSeesBobsOrders(t *testing.T) {
	url := startHTTP(t)
	tool := func(token, name, args, orderID string) string {
		t.Helper()
		var h map[string]string
		if orderID != "" {
			h = map[string]string{"Mcp-Param-Order-Id": orderID}
		}
		r := post(t, url, token, "tools/call", name, `,"name":"`+name+`","arguments":`+args, h)
		if r.status != 200 || r.Error != nil {
			t.Fatalf("%s %s: %d %+v", name, args, r.status, r.Error)
		}
		return string(r.Result)
	}

	if got := tool("tok-alice", "get_order_status", `{"order_id":"A1001"}`, "A1001"); !strings.Contains(got, `"found":true`) || !strings.Contains(got, "SHIPPED") {
		t.Errorf("alice's own order: %s", got)
	}
	if got := tool("tok-alice", "get_order_status", `{"order_id":"A1002"}`, "A1002"); !strings.Contains(got, `"found":false`) || strings.Contains(got, "PENDING") {
		t.Errorf("alice asking for bob's order: %s", got)
	}
	if got := tool("tok-bob", "get_order_status", `{"order_id":"A1002"}`, "A1002"); !strings.Contains(got, `"found":true`) || !strings.Contains(got, "PENDING") {
		t.Errorf("bob's own order: %s", got)
	}
	if got := tool("tok-alice", "search_orders", `{"limit":50}`, ""); strings.Contains(got, "A1002") || !strings.Contains(got, "A1001") || !strings.Contains(got, "A1003") {
		t.Errorf("alice's search: %s", got)
	}
	if got := tool("tok-alice", "create_return", `{"order_id":"A1002","reason":"mine now","idempotency_key":"k1"}`, "A1002"); !strings.Contains(got, `"isError":true`) {
		t.Errorf("alice returning bob's order: %s", got)
	}

	r := post(t, url, "tok-alice", "resources/read", "order://A1002/summary", `,"uri":"order://A1002/summary"`, nil)
	if r.Error == nil || r.Error.Code != -32602 || strings.Contains(string(r.Result), "A1002") {
		t.Errorf("alice reading bob's summary: %d %+v %s", r.status, r.Error, r.Result)
	}
	r = post(t, url, "tok-alice", "resources/read", "order://A1001/summary", `,"uri":"order://A1001/summary"`, nil)
	if r.Error != nil || !strings.Contains(string(r.Result), `\"order_id\":\"A1001\"`) {
		t.Errorf("alice reading her summary: %+v %s", r.Error, r.Result)
	}
	r = post(t, url, "tok-alice", "prompts/get", "reply_order_question", `,"name":"reply_order_question","arguments":{"order_id":"A1002"}`, nil)
	if r.Error == nil || strings.Contains(string(r.Result), "PENDING") {
		t.Errorf("alice's prompt for bob's order: %+v %s", r.Error, r.Result)
	}
	for _, ref := range []string{`{"type":"ref/prompt","name":"reply_order_question"}`, `{"type":"ref/resource","uri":"order://{order_id}/summary"}`} {
		r = post(t, url, "tok-alice", "completion/complete", "", `,"ref":`+ref+`,"argument":{"name":"order_id","value":"A"}`, nil)
		if r.Error != nil || strings.Contains(string(r.Result), "A1002") || !strings.Contains(string(r.Result), "A1001") {
			t.Errorf("alice's completions for %s: %+v %s", ref, r.Error, r.Result)
		}
	}
}

func TestHTTPFlagErrors(t *testing.T) {
	for _, args := range [][]string{
		{"--http", "127.0.0.1:0"},
		{"--token", "a=alice"},
		{"--http", "127.0.0.1:0", "--token", "no-user"},
		{"--http", "127.0.0.1:0", "--token", "a=alice", "--token", "a=bob"},
		{"--http", "127.0.0.1:0", "--token", "a=alice", "--nats", "nats://127.0.0.1:4222"},
		{"--nats", "nats://127.0.0.1:4222", "--state-key", "000102030405060708090a0b0c0d0e0f"},
	} {
		var stderr strings.Builder
		if code := run(context.Background(), args, strings.NewReader(""), io.Discard, &stderr, func(string) string { return "" }); code != 2 {
			t.Errorf("%q: exit %d, want 2 (%s)", args, code, stderr.String())
		}
	}
}
