package schema

import (
	"strings"
	"testing"
)

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	s, err := new(Encoder).Compact(v)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestInlineRefs(t *testing.T) {
	node := Object{{"type", "object"}, {"description", "A node."}, {"properties", Object{
		{"next", Object{{"$ref", "#/$defs/Node"}, {"description", "The next one."}}},
		{"tag", Object{{"$ref", "#/$defs/Tag"}}},
	}}}
	tag := Object{{"type", "string"}, {"enum", []string{"a", "b"}}}
	doc := Object{{"$ref", "#/$defs/Node"}, {"$defs", Object{{"Node", node}, {"Tag", tag}}}}

	for _, c := range []struct {
		depth int
		want  string
		cuts  []string
	}{
		// The root is expanded even at depth 0: it must keep its type.
		{0, `{"type":"object","description":"A node.","properties":{"next":{"description":"The next one.\n\nA Node (recursive: its schema is listed 0 level(s) deep, and not below)."},"tag":{"type":"string","enum":["a","b"]}}}`,
			[]string{"/properties/next"}},
		{1, `{"type":"object","description":"A node.","properties":{"next":{"description":"The next one.\n\nA Node (recursive: its schema is listed 1 level(s) deep, and not below)."},"tag":{"type":"string","enum":["a","b"]}}}`,
			[]string{"/properties/next"}},
		{2, `{"type":"object","description":"A node.","properties":{"next":{"type":"object","description":"The next one.","properties":{"next":{"description":"The next one.\n\nA Node (recursive: its schema is listed 2 level(s) deep, and not below)."},"tag":{"type":"string","enum":["a","b"]}}},"tag":{"type":"string","enum":["a","b"]}}}`,
			[]string{"/properties/next/properties/next"}},
	} {
		got, losses, err := InlineRefs(doc, c.depth, 0)
		if err != nil {
			t.Fatal(err)
		}
		if s := mustJSON(t, got); s != c.want {
			t.Errorf("depth %d:\n got %s\nwant %s", c.depth, s, c.want)
		}
		var ptrs []string
		for _, l := range losses {
			ptrs = append(ptrs, l.Pointer)
		}
		if strings.Join(ptrs, " ") != strings.Join(c.cuts, " ") {
			t.Errorf("depth %d: losses at %v, want %v", c.depth, ptrs, c.cuts)
		}
	}
	// doc is not changed, and a document without $defs is returned as is.
	if s := mustJSON(t, doc); !strings.Contains(s, `"$defs"`) {
		t.Errorf("InlineRefs changed its input: %s", s)
	}
	plain := Object{{"type", "string"}}
	if got, losses, _ := InlineRefs(plain, 2, 0); len(losses) != 0 || mustJSON(t, got) != `{"type":"string"}` {
		t.Errorf("plain document rewritten: %s", mustJSON(t, got))
	}
	// Past the node budget, InlineRefs says so.
	if _, _, err := InlineRefs(doc, 50, 10); !IsInlineTooLarge(err) {
		t.Errorf("err = %v, want too large", err)
	}
}

func TestGemini(t *testing.T) {
	doc := Object{{"type", "object"}, {"properties", Object{
		{"n", Object{{"type", []string{"integer", "null"}}, {"exclusiveMinimum", 0.0}, {"format", "int64"}}},
		{"s", Object{{"anyOf", []Object{{{"type", "string"}, {"format", "email"}}, {{"type", "null"}}}}, {"description", "Mail."}}},
		{"k", Object{{"type", "string"}, {"const", "x"}}},
		{"u", Object{{"oneOf", []Object{{{"type", "string"}}, {{"type", "integer"}}}}}},
	}}, {"additionalProperties", false}}
	got, losses := Gemini(doc)
	want := `{"type":"object","properties":{"n":{"type":"integer","nullable":true,"minimum":1,"format":"int64"},"s":{"type":"string","description":"Mail.\n\nFormat: email.","nullable":true},"k":{"type":"string","enum":["x"]},"u":{"anyOf":[{"type":"string"},{"type":"integer"}]}}}`
	if s := mustJSON(t, got); s != want {
		t.Errorf("\n got %s\nwant %s", s, want)
	}
	var what []string
	for _, l := range losses {
		what = append(what, l.Pointer+": "+l.What)
	}
	wantLosses := []string{
		`/properties/s/format: format "email" (not one Gemini knows for string) moved into the description`,
		`/properties/u: oneOf listed as anyOf (a value matching several variants is no longer refused)`,
		`/additionalProperties: additionalProperties false dropped (unknown properties are no longer refused by the listed schema; the server still refuses them)`,
	}
	if strings.Join(what, "\n") != strings.Join(wantLosses, "\n") {
		t.Errorf("losses:\n%s\nwant:\n%s", strings.Join(what, "\n"), strings.Join(wantLosses, "\n"))
	}
}
