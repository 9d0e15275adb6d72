package golang

import (
	. "github.com/dave/jennifer/jen"

	"github.com/mcpgen-dev/mcpgen/spec"
)

// structuredValueChecks checks the const and enum of a struct, slice or
// map node against the value *v, compared by meaning (wire.EqualJSON:
// member order, number spelling and string escapes do not count) on its
// JSON encoding. Only schemas with such a const or enum pay for the
// encoding.
func (m *validateEmitter) structuredValueChecks(n *node) []Code {
	s := n.schema
	if s.Const == nil && s.Enum == nil {
		return nil
	}
	values := &spec.Schema{Const: s.Const, Enum: s.Enum}
	x := Op("*").Id("v")
	if n.kind == kStruct {
		x = Id("v") // AppendJSON has a value receiver; v.AppendJSON reads it
	}
	return []Code{Block(append(append([]Code{Var().Id("b").Index().Byte()},
		appendSlot(&slot{node: n}, x)...),
		m.scalarChecks(values, kRaw, Id("b"), Id("p"))...)...)}
}
