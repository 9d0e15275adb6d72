package runtime

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"testing/fstest"
)

func TestWithoutOutputSchema(t *testing.T) {
	tests := []struct{ def, want string }{
		{`{"name":"a","inputSchema":{},"outputSchema":{"type":"object","properties":{"x":{}}},"annotations":{}}`,
			`{"name":"a","inputSchema":{},"annotations":{}}`},
		{`{"outputSchema":{"a":[1,{"b":"}"}]},"name":"a"}`, `{"name":"a"}`},
		{`{"name":"a","outputSchema":{}}`, `{"name":"a"}`},
		{`{"outputSchema":{}}`, `{}`},
		{`{"name":"a","inputSchema":{"properties":{"outputSchema":{}}}}`, `{"name":"a","inputSchema":{"properties":{"outputSchema":{}}}}`},
		{`{"name":"a"}`, `{"name":"a"}`},
	}
	for _, tt := range tests {
		got := withoutOutputSchema(tt.def)
		if got != tt.want {
			t.Errorf("withoutOutputSchema(%s) = %s, want %s", tt.def, got, tt.want)
		}
		if !json.Valid([]byte(got)) {
			t.Errorf("withoutOutputSchema(%s) = %s: not JSON", tt.def, got)
		}
	}
}

// With OmitOutputSchemas, tools/list leaves the output schema out while
// the call still returns structured content and describe_operation still
// shows the whole definition.
func TestOmitOutputSchemas(t *testing.T) {
	schemas := fstest.MapFS{
		"schemas/in.json":  {Data: []byte(`{"type":"object","properties":{"id":{"type":"string"}},"additionalProperties":false}`)},
		"schemas/out.json": {Data: []byte(`{"type":"object","properties":{"total":{"type":"integer"}}}`)},
	}
	newServer := func(opts Options) *Server {
		opts.Info = Implementation{Name: "shop", Version: "1"}
		s := NewServer(opts)
		s.AddTool(ToolDef{
			Name:       "get_total",
			Definition: ToolDefinition(ToolInfo{Name: "get_total", Annotations: ToolAnnotations{ReadOnlyHint: true}}, schemas, "schemas/in.json", "schemas/out.json"),
			Call: func(context.Context, []byte) (*ToolResult, error) {
				return StructuredResult([]byte(`{"total":3}`)), nil
			},
		})
		return s
	}
	// describe_operation shows the whole definition, output schema included.
	c := startClient(t, newServer(Options{OmitOutputSchemas: true, Discovery: true}), StdioOptions{})
	if got := string(c.call(1, "tools/call", `"name":"describe_operation","arguments":{"name":"get_total"}`).raw); !strings.Contains(got, `outputSchema`) {
		t.Errorf("describe_operation lost the output schema: %s", got)
	}
	for _, omit := range []bool{false, true} {
		s := newServer(Options{OmitOutputSchemas: omit})
		c := startClient(t, s, StdioOptions{})
		list := string(c.call(1, "tools/list", "").raw)
		if got := strings.Contains(list, `"outputSchema"`); got == omit {
			t.Errorf("omit=%v: tools/list has outputSchema: %v: %s", omit, got, list)
		}
		if !strings.Contains(list, `"readOnlyHint":true`) {
			t.Errorf("omit=%v: tools/list lost the annotations: %s", omit, list)
		}
		call := string(c.call(2, "tools/call", `"name":"get_total","arguments":{}`).raw)
		if !strings.Contains(call, `"structuredContent":{"total":3}`) {
			t.Errorf("omit=%v: tools/call = %s", omit, call)
		}
	}
}

// FuzzWithoutOutputSchema checks that any JSON object loses its top-level
// outputSchema member and nothing else.
func FuzzWithoutOutputSchema(f *testing.F) {
	f.Add(`{"name":"a","inputSchema":{},"outputSchema":{"type":"object"},"annotations":{}}`)
	f.Add(`{"outputSchema":1}`)
	f.Add(`{"outputSchema":1,"outputSchema":2}`)
	f.Add(`{"a":{"outputSchema":2},"outputSchema":[{}],"b":"outputSchema"}`)
	f.Fuzz(func(t *testing.T, def string) {
		var in map[string]json.RawMessage
		if json.Unmarshal([]byte(def), &in) != nil {
			return
		}
		got := withoutOutputSchema(def)
		var out map[string]json.RawMessage
		if err := json.Unmarshal([]byte(got), &out); err != nil {
			t.Fatalf("withoutOutputSchema(%q) = %q: %v", def, got, err)
		}
		delete(in, "outputSchema")
		if len(in) != len(out) {
			t.Fatalf("withoutOutputSchema(%q) = %q: members %d, want %d", def, got, len(out), len(in))
		}
		for k, v := range in {
			if string(out[k]) != string(v) {
				t.Fatalf("withoutOutputSchema(%q) = %q: member %q changed", def, got, k)
			}
		}
	})
}
