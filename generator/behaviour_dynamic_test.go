package generator

// dynamicRefsBehaviour runs in the dynamic_refs golden case: each use of
// a type with a $dynamicRef checks the type its dynamic scope binds (the
// strings of StringList, the labels of LabeledTree's every node, the tool
// output's non-empty strings), and the type on its own keeps its default.
const dynamicRefsBehaviour = `package dynamicrefs

import (
	"errors"
	"slices"
	"testing"

	"github.com/mcpgen-dev/mcpgen/runtime/wire"
)
` + problemsHelper + `
func TestDynamicRefsRoundTrip(t *testing.T) {
	const in = ` + "`" + `{"tags":["a","b"],"extra":[1,"x",null],"tree":{"label":"r","children":[{"label":"c"}]},"draft":{"children":[{}]}}` + "`" + `
	var v TagInput
	if err := v.UnmarshalJSON([]byte(in)); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(v.Tags, StringList{"a", "b"}) || len(v.Extra) != 3 || v.Tree.Children[0].Label != "c" {
		t.Errorf("decoded %+v", v)
	}
	if got := string(v.AppendJSON(nil)); got != in {
		t.Errorf("encoded\n%s\nwant\n%s", got, in)
	}
}

func TestDynamicRefsVerdicts(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		// StringList binds item to non-empty strings; List alone to any value.
		{` + "`" + `{"tags":["", 1],"extra":["", 1]}` + "`" + `, []string{"/tags/0", "/tags/1"}},
		// LabeledTree binds node to itself: every node needs a label; a
		// Tree's nodes do not.
		{` + "`" + `{"tags":[],"tree":{"label":"r","children":[{"children":[{}]}]},"draft":{"children":[{}]}}` + "`" + `, []string{"/tree/children/0/children/0/label", "/tree/children/0/label"}},
		{` + "`" + `{"tags":[],"tree":{"children":[]}}` + "`" + `, []string{"/tree/label"}},
	} {
		var v TagInput
		wantPointers(t, v.UnmarshalJSON([]byte(c.in)), c.want...)
	}
}

func TestDynamicRefsOutput(t *testing.T) {
	root := wire.Path{}
	var e wire.Errors
	out := StringList{"ok", ""}
	validateListOfStringListItem(&root, &out, &e)
	wantPointers(t, e.Err(), "/1")
}
`
