package runtime

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

func TestResultBudget(t *testing.T) {
	s := NewServer(Options{ResultBudgetTokens: 100}) // 400 bytes
	items := make([]string, 50)
	for i := range items {
		items[i] = fmt.Sprintf(`{"id":%d,"name":"item number %d"}`, i, i)
	}
	array := "[" + strings.Join(items, ",") + "]"
	shared := &ToolResult{Content: []Content{{Type: "text", Text: strings.Repeat("é", 1000)}}}
	add := func(name, def string, res func() *ToolResult) {
		s.AddTool(ToolDef{Name: name, Definition: def, Call: func(context.Context, []byte) (*ToolResult, error) { return res(), nil }})
	}
	add("list_root", `{"name":"list_root","inputSchema":{"type":"object","properties":{"page":{"type":"integer"},"per_page":{"type":"integer"}}}}`,
		func() *ToolResult { return StructuredResult([]byte(array)) })
	add("list_member", `{"name":"list_member","inputSchema":{"type":"object","properties":{"cursor":{"type":"string"}}}}`,
		func() *ToolResult { return StructuredResult([]byte(`{"total":50,"items":` + array + `}`)) })
	add("text", `{"name":"text","inputSchema":{"type":"object"}}`, func() *ToolResult { return shared })
	add("small", `{"name":"small","inputSchema":{"type":"object"}}`, func() *ToolResult { return StructuredResult([]byte(`{"a":[1,2]}`)) })
	c := startClient(t, s, StdioOptions{})

	type result struct {
		Content []struct {
			Text string `json:"text"`
		} `json:"content"`
		StructuredContent json.RawMessage            `json:"structuredContent"`
		Meta              map[string]json.RawMessage `json:"_meta"`
	}
	call := func(name string) result {
		t.Helper()
		m := c.call(name, "tools/call", `"name":"`+name+`"`)
		var r result
		if err := json.Unmarshal(m.Result, &r); err != nil {
			t.Fatalf("%s: %s", name, m.raw)
		}
		return r
	}

	r := call("list_root")
	var kept []json.RawMessage
	if err := json.Unmarshal(r.StructuredContent, &kept); err != nil || len(kept) == 0 || len(kept) >= 50 || len(r.StructuredContent) > 400 {
		t.Fatalf("root array not cut to a prefix under 400 bytes: %d items, %d bytes", len(kept), len(r.StructuredContent))
	}
	if string(kept[0]) != items[0] || string(kept[len(kept)-1]) != items[len(kept)-1] {
		t.Errorf("not a prefix: %s", r.StructuredContent)
	}
	marker := r.Content[len(r.Content)-1].Text
	if !strings.Contains(marker, fmt.Sprintf("%d of the 50 items are here", len(kept))) || !strings.Contains(marker, "page, per_page") {
		t.Errorf("marker: %q", marker)
	}
	if r.Content[0].Text != string(r.StructuredContent) {
		t.Errorf("the text copy is not the cut structured content")
	}
	jsonEq(t, "truncated meta", r.Meta[metaTruncated], fmt.Sprintf(`{"omittedBytes":%d,"keptItems":%d,"omittedItems":%d,"pagination":["page","per_page"]}`,
		len(array)-len(r.StructuredContent), len(kept), 50-len(kept)))

	r = call("list_member")
	var obj struct {
		Total int               `json:"total"`
		Items []json.RawMessage `json:"items"`
	}
	if err := json.Unmarshal(r.StructuredContent, &obj); err != nil || obj.Total != 50 || len(obj.Items) == 0 || len(obj.Items) >= 50 || len(r.StructuredContent) > 400 {
		t.Fatalf("member array not cut: %s", r.StructuredContent)
	}
	if m := r.Content[len(r.Content)-1].Text; !strings.Contains(m, `of the 50 items of "items"`) || !strings.Contains(m, "cursor") {
		t.Errorf("marker: %q", m)
	}

	r = call("text")
	if len(r.Content) != 2 || len(r.Content[0].Text) > 400 || !strings.HasPrefix(r.Content[1].Text, "[The result was cut") {
		t.Errorf("text not cut: %d blocks", len(r.Content))
	}
	if !strings.HasPrefix(strings.Repeat("é", 200), r.Content[0].Text) {
		t.Errorf("text not cut at a character boundary")
	}
	if len(shared.Content) != 1 || len(shared.Content[0].Text) != 2000 {
		t.Errorf("the handler's shared result was modified")
	}

	r = call("small")
	if _, cut := r.Meta[metaTruncated]; cut || string(r.StructuredContent) != `{"a":[1,2]}` {
		t.Errorf("a result within budget was changed: %s", r.StructuredContent)
	}
}
