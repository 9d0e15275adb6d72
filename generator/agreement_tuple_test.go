package generator

import (
	"fmt"

	"github.com/invopop/jsonschema"
)

// compareTuple compares an emitted tuple schema (prefixItems) with its
// reflected Go type: a struct whose fields are the positions, in order,
// then Rest (the items after them) unless no item may follow. invopop
// sees the struct as an object of those fields.
func (c *comparer) compareTuple(path string, o map[string]any, th *jsonschema.Schema) {
	c.compared++
	if th.Type != "object" || th.Properties == nil {
		c.failf("%s: a tuple schema, Go type %q is not a struct", path, th.Type)
		return
	}
	var fields []*jsonschema.Schema
	var names []string
	for p := th.Properties.Oldest(); p != nil; p = p.Next() {
		fields = append(fields, p.Value)
		names = append(names, p.Key)
	}
	positions, _ := o["prefixItems"].([]any)
	rest, restKey := o["items"], "items"
	if r, ok := o["unevaluatedItems"]; ok {
		rest, restKey = r, "unevaluatedItems"
	}
	closed := rest == false
	want := len(positions)
	if !closed {
		want++
	}
	if len(fields) != want {
		c.failf("%s: %d positions (%s %v), Go fields %q", path, len(positions), restKey, rest, names)
		return
	}
	for i, p := range positions {
		if ps, ok := p.(map[string]any); ok {
			c.compare(fmt.Sprintf("%s/prefixItems/%d", path, i), ps, fields[i])
		}
	}
	if closed {
		return
	}
	r := fields[len(fields)-1]
	if names[len(names)-1] != "Rest" || r.Type != "array" {
		c.failf("%s: the items after the positions: Go field %s of type %q, want Rest, an array", path, names[len(names)-1], r.Type)
		return
	}
	if rs, ok := rest.(map[string]any); ok && len(rs) > 0 && r.Items != nil {
		c.compare(path+"/"+restKey, rs, r.Items)
	}
}
