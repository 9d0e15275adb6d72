package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// TestJSONSchema2020Tool drives json_schema_2020_12_tool over stdio: the
// generated validator holds the arguments to its allOf/anyOf and
// if/then/else before the handler runs.
func TestJSONSchema2020Tool(t *testing.T) {
	for _, tc := range []struct {
		args string
		want string // a substring of the response line
	}{
		{`{"contactMethod":"phone","phone":"555"}`, `"text":"ok"`},
		{`{"email":"a@b.c","address":{"city":"Oslo","zip":"0150"}}`, `"text":"ok"`},
		{`{"name":"x"}`, `must match at least one of the anyOf schemas`},
		{`{"contactMethod":"phone","email":"a@b.c"}`, `/phone`},
		{`{"contactMethod":"email","phone":"555"}`, `/email`},
		{`{"phone":"555","fax":"1"}`, `/fax`},
	} {
		in := strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},"name":"json_schema_2020_12_tool","arguments":` + tc.args + `}}` + "\n")
		var out, errOut bytes.Buffer
		if code := run(context.Background(), nil, in, &out, &errOut); code != 0 {
			t.Fatalf("exit %d, stderr %s", code, errOut.String())
		}
		if !strings.Contains(out.String(), tc.want) {
			t.Errorf("arguments %s: want %q in %s", tc.args, tc.want, out.String())
		}
		if tc.want != `"text":"ok"` && strings.Contains(out.String(), `"text":"ok"`) {
			t.Errorf("arguments %s reached the handler: %s", tc.args, out.String())
		}
	}
}
