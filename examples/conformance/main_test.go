package main

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// Without flags the fixture serves stdio: one request line in, one
// response line out, and a clean exit at EOF.
func TestServesStdioWithoutFlags(t *testing.T) {
	in := strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},"name":"test_simple_text","arguments":{}}}` + "\n")
	var out, errOut bytes.Buffer
	if code := run(context.Background(), nil, in, &out, &errOut); code != 0 {
		t.Fatalf("exit %d, stderr %s", code, errOut.String())
	}
	var resp struct {
		Result struct {
			Content []struct{ Type, Text string }
		}
	}
	if err := json.Unmarshal(out.Bytes(), &resp); err != nil {
		t.Fatalf("stdout is not one JSON response: %v\n%s", err, out.String())
	}
	if c := resp.Result.Content; len(c) != 1 || c[0].Text != "This is a simple text response for testing." {
		t.Errorf("unexpected result: %s", out.String())
	}
}

func TestRejectsStrayArguments(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run(context.Background(), []string{"serve"}, strings.NewReader(""), &out, &errOut); code != 2 {
		t.Errorf("exit %d, want 2", code)
	}
}

func TestLocalOrigins(t *testing.T) {
	for addr, want := range map[string]string{
		"127.0.0.1:3000": "http://localhost:3000 http://127.0.0.1:3000 http://[::1]:3000",
		"3000":           "http://localhost:3000 http://127.0.0.1:3000 http://[::1]:3000",
	} {
		if got := strings.Join(localOrigins(addr), " "); got != want {
			t.Errorf("%s: got %s", addr, got)
		}
	}
}
