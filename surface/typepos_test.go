package surface_test

import (
	"strings"
	"testing"

	"github.com/mcpgen-dev/mcpgen/spec"
	"github.com/mcpgen-dev/mcpgen/surface"
)

// TestChangeInsideNamedType: a change inside a named type is reported at
// the type's definition and names the use it was reached through (the
// nearest one, for a type inside a type); a change of the using property
// itself names no type. Against a lock file the current spec still gives
// both places.
func TestChangeInsideNamedType(t *testing.T) {
	const types = `types:
  Money:
    type: object
    properties:
      amount: {type: %s}
      currency: {type: string}
    required: [amount]
  Order:
    type: object
    properties:
      total: {$ref: Money}
tools:
  pay:
    input:
      properties:
        price: {$ref: Money}
      required: [%s]
  ship:
    input:
      properties:
        order: {$ref: Order}
`
	prev := load(t, strings.NewReplacer("%s", "number").Replace(strings.Replace(types, "[%s]", "[]", 1)))
	cur := load(t, strings.Replace(strings.Replace(types, "{type: %s}", "{type: string}", 1), "[%s]", "[price]", 1))
	at := func(p spec.Pos) string { return spec.Diagnostic{Pos: p}.String() }
	for _, previous := range []*surface.Surface{surface.FromAPI(prev), relock(t, surface.FromAPI(prev))} {
		var got []string
		for _, c := range surface.Compare(previous, surface.FromAPI(cur)) {
			if !c.Breaking {
				continue
			}
			line := at(c.Pos) + c.Detail(func(f string) string { return f })
			got = append(got, line)
		}
		want := []string{
			`mcpgen.yaml:18:9: ARG_NO_NEW_REQUIRED: tool "pay": input property "price" became required`,
			`mcpgen.yaml:7:7: FIELD_SAME_TYPE: tool "pay": input field "/price/amount" changed type from "number" to "string" (in type "Money", used at mcpgen.yaml:18:9)`,
			`mcpgen.yaml:7:7: FIELD_SAME_TYPE: tool "ship": input field "/order/total/amount" changed type from "number" to "string" (in type "Money", used at mcpgen.yaml:13:7)`,
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("changes:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
}
