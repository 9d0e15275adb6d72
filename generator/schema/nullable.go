package schema

import "github.com/mcpgen-dev/mcpgen/spec"

// maxNullHops bounds the $ref chain anyAcceptsNull follows.
const maxNullHops = 64

// anyAcceptsNull reports whether one of the variants accepts JSON null as
// published: it is nullable, says type null, or is a value without
// constraints (directly or through its named type).
func (b *Builder) anyAcceptsNull(variants []*spec.Schema) bool {
	for _, v := range variants {
		for hops := 0; v != nil && hops < maxNullHops; hops++ {
			if v.Nullable || v.Type == spec.KindNull || v.IsAnyValue() && !v.HasApplicators() {
				return true
			}
			if v.Ref == "" {
				break
			}
			nt := b.types[v.Ref]
			if nt == nil {
				break
			}
			v = nt.Schema
		}
	}
	return false
}
