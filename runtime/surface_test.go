package runtime

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"testing/fstest"
)

// surfaceServer registers four tools over two toolsets: two reads, a
// write and a destructive write, one of them behind a scope.
func surfaceServer(t *testing.T, opts Options) *Server {
	t.Helper()
	opts.Info = Implementation{Name: "shop", Version: "1.0.0"}
	s := NewServer(opts)
	schemas := fstest.MapFS{
		"schemas/in.json": {Data: []byte(`{"type":"object","properties":{"id":{"type":"string"}},"required":["id"],"additionalProperties":false}`)},
	}
	add := func(name, toolset, title string, a ToolAnnotations, scopes ...string) {
		s.AddTool(ToolDef{
			Name: name, Toolset: toolset, Scopes: scopes,
			Definition: ToolDefinition(ToolInfo{Name: name, Title: title, Annotations: a}, schemas, "schemas/in.json", ""),
			Call: func(ctx context.Context, args []byte) (*ToolResult, error) {
				var in struct{ ID *string }
				if err := json.Unmarshal(args, &in); err != nil || in.ID == nil {
					return nil, &errString{"/id: required"}
				}
				return StructuredResult([]byte(`{"tool":"` + name + `","id":"` + *in.ID + `"}`)), nil
			},
		})
	}
	add("get_order", "orders", "Get an order by its id", ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true})
	add("cancel_order", "orders", "Cancel an order", ToolAnnotations{DestructiveHint: true, OpenWorldHint: true}, "orders:write")
	add("list_invoices", "billing", "List the invoices of a customer", ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true})
	add("refund_invoice", "billing", "Refund an invoice", ToolAnnotations{IdempotentHint: true})
	return s
}

type errString struct{ s string }

func (e *errString) Error() string { return e.s }

func toolNames(t *testing.T, m wireMsg) []string {
	t.Helper()
	var r struct {
		Tools []struct{ Name string } `json:"tools"`
	}
	if err := json.Unmarshal(m.Result, &r); err != nil {
		t.Fatalf("tools/list: %s", m.raw)
	}
	var names []string
	for _, tl := range r.Tools {
		names = append(names, tl.Name)
	}
	return names
}

func TestToolsetsAndReadOnly(t *testing.T) {
	tests := []struct {
		name   string
		opts   Options
		listed string
	}{
		{"all", Options{}, "get_order,cancel_order,list_invoices,refund_invoice"},
		{"one toolset", Options{Toolsets: []string{"billing"}}, "list_invoices,refund_invoice"},
		{"all special", Options{Toolsets: []string{"orders", "all"}}, "get_order,cancel_order,list_invoices,refund_invoice"},
		{"default special", Options{Toolsets: []string{"default"}, DefaultToolsets: []string{"orders"}}, "get_order,cancel_order"},
		{"default when none chosen", Options{DefaultToolsets: []string{"billing"}}, "list_invoices,refund_invoice"},
		{"all over default", Options{Toolsets: []string{"all"}, DefaultToolsets: []string{"billing"}}, "get_order,cancel_order,list_invoices,refund_invoice"},
		{"read-only", Options{ReadOnly: true}, "get_order,list_invoices"},
		{"read-only toolset", Options{ReadOnly: true, Toolsets: []string{"orders"}}, "get_order"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := startClient(t, surfaceServer(t, tt.opts), StdioOptions{})
			if got := strings.Join(toolNames(t, c.call(1, "tools/list", "")), ","); got != tt.listed {
				t.Errorf("tools/list = %s, want %s", got, tt.listed)
			}
		})
	}

	c := startClient(t, surfaceServer(t, Options{ReadOnly: true, Toolsets: []string{"orders"}}), StdioOptions{})
	// A write is refused at dispatch with a tool error, whatever lists it.
	m := c.call(2, "tools/call", `"name":"cancel_order","arguments":{"id":"A1"}`)
	if !strings.Contains(string(m.Result), `"isError":true`) || !strings.Contains(string(m.Result), "read-only") {
		t.Errorf("write in read-only mode: %s", m.raw)
	}
	// A tool outside the selected toolsets is unknown.
	m = c.call(3, "tools/call", `"name":"list_invoices","arguments":{"id":"A1"}`)
	if m.Error == nil || m.Error.Code != CodeInvalidParams {
		t.Errorf("tool of an unselected toolset: %s", m.raw)
	}
	m = c.call(4, "tools/call", `"name":"get_order","arguments":{"id":"A1"}`)
	if !strings.Contains(string(m.Result), `"structuredContent":{"tool":"get_order","id":"A1"}`) {
		t.Errorf("read in read-only mode: %s", m.raw)
	}
	// The instructions say what is served.
	m = c.call(5, "server/discover", "")
	if !strings.Contains(string(m.Result), `Enabled toolsets: orders. Not enabled (the server's operator can enable them): billing. The server is read-only`) {
		t.Errorf("instructions: %s", m.raw)
	}
}

func TestCheckToolsets(t *testing.T) {
	if err := surfaceServer(t, Options{Toolsets: []string{"orders", "default", "all"}}).CheckToolsets(); err != nil {
		t.Error(err)
	}
	err := surfaceServer(t, Options{Toolsets: []string{"ordrs"}}).CheckToolsets()
	if err == nil || err.Error() != `unknown toolset "ordrs"; the toolsets are "billing", "orders" (and "all", "default")` {
		t.Errorf("CheckToolsets = %v", err)
	}
}

func TestDiscoveryMode(t *testing.T) {
	c := startClient(t, surfaceServer(t, Options{Discovery: true}), StdioOptions{})
	m := c.call(1, "tools/list", "")
	if got := strings.Join(toolNames(t, m), ","); got != "search_operations,describe_operation,call_operation" {
		t.Fatalf("tools/list = %s", got)
	}
	// call_operation's annotations are the least permissive of what it reaches.
	var list struct {
		Tools []struct {
			Name        string
			Annotations map[string]bool
		}
	}
	json.Unmarshal(m.Result, &list)
	want := map[string]bool{"readOnlyHint": false, "destructiveHint": true, "idempotentHint": false, "openWorldHint": true}
	for k, v := range want {
		if list.Tools[2].Annotations[k] != v {
			t.Errorf("call_operation %s = %v, want %v", k, list.Tools[2].Annotations[k], v)
		}
	}
	if !list.Tools[0].Annotations["readOnlyHint"] || list.Tools[0].Annotations["destructiveHint"] {
		t.Errorf("search_operations annotations: %v", list.Tools[0].Annotations)
	}

	m = c.call(2, "tools/call", `"name":"search_operations","arguments":{"query":"reimburse that invoice"}`)
	var found struct {
		StructuredContent struct {
			Results []struct {
				Name        string
				ReadOnly    bool
				InputSchema json.RawMessage
			}
		}
	}
	if err := json.Unmarshal(m.Result, &found); err != nil || len(found.StructuredContent.Results) == 0 {
		t.Fatalf("search: %s", m.raw)
	}
	if r := found.StructuredContent.Results[0]; r.Name != "refund_invoice" || r.ReadOnly || len(r.InputSchema) == 0 {
		t.Errorf("first result: %+v", r)
	}

	m = c.call(3, "tools/call", `"name":"describe_operation","arguments":{"name":"get_order"}`)
	if !strings.Contains(string(m.Result), `"structuredContent":{"toolset":"orders","tool":{"name":"get_order"`) {
		t.Errorf("describe: %s", m.raw)
	}
	m = c.call(4, "tools/call", `"name":"call_operation","arguments":{"name":"get_order","arguments":{"id":"A7"}}`)
	direct := c.call(5, "tools/call", `"name":"get_order","arguments":{"id":"A7"}`)
	if string(m.Result) != string(direct.Result) {
		t.Errorf("call_operation and tools/call differ:\n%s\n%s", m.Result, direct.Result)
	}
	m = c.call(6, "tools/call", `"name":"call_operation","arguments":{"name":"get_order","arguments":{}}`)
	if !strings.Contains(string(m.Result), `/id: required`) || !strings.Contains(string(m.Result), `"isError":true`) {
		t.Errorf("invalid arguments through call_operation: %s", m.raw)
	}
	m = c.call(7, "tools/call", `"name":"call_operation","arguments":{"name":"nope"}`)
	if !strings.Contains(string(m.Result), `unknown operation \"nope\"`) {
		t.Errorf("unknown operation: %s", m.raw)
	}
	m = c.call(8, "tools/call", `"name":"search_operations","arguments":{"query":"x","bogus":1}`)
	if !strings.Contains(string(m.Result), `"isError":true`) {
		t.Errorf("unknown meta argument: %s", m.raw)
	}
}

func TestDiscoveryReadOnlyAndScopes(t *testing.T) {
	s := surfaceServer(t, Options{Discovery: true, ReadOnly: true})
	c := startClient(t, s, StdioOptions{})
	m := c.call(1, "tools/list", "")
	if !strings.Contains(string(m.Result), `"name":"call_operation","description"`) ||
		!strings.Contains(string(m.Result), `"annotations":{"readOnlyHint":true,"destructiveHint":false,"idempotentHint":true,"openWorldHint":false}}]`) {
		t.Errorf("read-only call_operation annotations: %s", m.raw)
	}
	m = c.call(2, "tools/call", `"name":"call_operation","arguments":{"name":"refund_invoice","arguments":{"id":"I1"}}`)
	if !strings.Contains(string(m.Result), `is refused: the server is read-only`) {
		t.Errorf("write through call_operation in read-only mode: %s", m.raw)
	}
	m = c.call(3, "tools/call", `"name":"search_operations","arguments":{"query":"refund an invoice"}`)
	if strings.Contains(string(m.Result), `"name":"refund_invoice"`) {
		t.Errorf("search reaches a write in read-only mode: %s", m.raw)
	}

	// A caller without a tool's scopes reaches it through no meta-tool.
	ctx := withScopeEnforcement(WithIdentity(context.Background(), Identity{Subject: "u", Scopes: []string{}}))
	s2 := surfaceServer(t, Options{Discovery: true})
	res := s2.metaCall(ctx, &reqState{}, toolCallOperation, []byte(`{"name":"cancel_order","arguments":{"id":"A1"}}`))
	if !strings.Contains(string(res.result), `needs the scopes \"orders:write\"`) {
		t.Errorf("call_operation without scopes: %s", res.result)
	}
}

// TestDiscoverySearchReadsWhatToolsReturn: search_operations finds an
// operation by the description of the object it returns
// (ToolDef.SearchReturns), which its own title and description do not
// say.
func TestDiscoverySearchReadsWhatToolsReturn(t *testing.T) {
	s := NewServer(Options{Info: Implementation{Name: "pay", Version: "1.0.0"}, Discovery: true})
	schemas := fstest.MapFS{"in.json": {Data: []byte(`{"type":"object","properties":{"customer":{"type":"string"}},"additionalProperties":false}`)}}
	for name, returns := range map[string]string{
		"post_setup_intents": "A SetupIntent saves a customer's card for future payments.",
		"post_charges":       "A Charge moves money from a customer's card now.",
		"post_sources":       "",
	} {
		s.AddTool(ToolDef{Name: name, SearchReturns: returns,
			Definition: ToolDefinition(ToolInfo{Name: name, Title: "Create a " + strings.TrimPrefix(name, "post_")}, schemas, "in.json", ""),
			Call:       func(context.Context, []byte) (*ToolResult, error) { return StructuredResult([]byte(`{"id":"x"}`)), nil }})
	}
	c := startClient(t, s, StdioOptions{})
	m := c.call(1, "tools/call", `"name":"search_operations","arguments":{"query":"keep her card on file for future payments"}`)
	var found struct {
		StructuredContent struct{ Results []struct{ Name string } }
	}
	if err := json.Unmarshal(m.Result, &found); err != nil || len(found.StructuredContent.Results) == 0 || found.StructuredContent.Results[0].Name != "post_setup_intents" {
		t.Errorf("search: %s", m.raw)
	}
}

// TestDiscoverySearchReadsTheGlossary checks that search_operations finds a
// tool by the everyday words the generator wrote for its jargon
// (SearchGlossary), which neither its name nor its definition holds.
func TestDiscoverySearchReadsTheGlossary(t *testing.T) {
	s := NewServer(Options{Info: Implementation{Name: "code", Version: "1.0.0"}, Discovery: true})
	schemas := fstest.MapFS{"in.json": {Data: []byte(`{"type":"object","properties":{"repo":{"type":"string"}},"additionalProperties":false}`)}}
	for name, glossary := range map[string]string{
		"get_top_referrers": "sites that send visitors, traffic sources",
		"get_top_paths":     "",
		"list_codespaces":   "cloud development environment, online dev environment",
	} {
		s.AddTool(ToolDef{Name: name, SearchGlossary: glossary,
			Definition: ToolDefinition(ToolInfo{Name: name, Title: strings.ReplaceAll(name, "_", " ")}, schemas, "in.json", ""),
			Call:       func(context.Context, []byte) (*ToolResult, error) { return StructuredResult([]byte(`{"id":"x"}`)), nil }})
	}
	c := startClient(t, s, StdioOptions{})
	for query, want := range map[string]string{
		"which sites send people to our repo?":     "get_top_referrers",
		"which online dev environments do I have?": "list_codespaces",
	} {
		m := c.call(1, "tools/call", `"name":"search_operations","arguments":{"query":"`+query+`"}`)
		var found struct {
			StructuredContent struct{ Results []struct{ Name string } }
		}
		if err := json.Unmarshal(m.Result, &found); err != nil || len(found.StructuredContent.Results) == 0 || found.StructuredContent.Results[0].Name != want {
			t.Errorf("search %q: want %s first: %s", query, want, m.raw)
		}
	}
}
