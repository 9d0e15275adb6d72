package schema

import "github.com/mcpgen-dev/mcpgen/spec"

// MaxInline is the largest named type, in schema nodes once its own
// inlined references are expanded, that is inlined where it is used.
// Larger ones go to "$defs" like recursive ones. Inlining keeps small
// schemas readable for clients without $ref support; without a bound,
// real OpenAPI documents (Stripe, Argo) expand to megabytes per tool,
// because every use of a type copies everything it reaches.
const MaxInline = 32

// findLarge finds the named types whose inlined expansion exceeds MaxInline.
// Recursive types are never inlined and count as one node where used.
func (b *Builder) findLarge() map[string]bool {
	size := map[string]int{}
	big := map[string]bool{}
	var typeSize func(name string) int
	var nodeSize func(s *spec.Schema) int
	nodeSize = func(s *spec.Schema) int {
		if s == nil {
			return 0
		}
		if s.Ref != "" {
			return typeSize(s.Ref)
		}
		n := 1
		for _, c := range Children(s) {
			n += nodeSize(c)
			if n > MaxInline {
				return n
			}
		}
		return n
	}
	typeSize = func(name string) int {
		if n, ok := size[name]; ok {
			return n
		}
		nt := b.types[name]
		if nt == nil || b.recursive[name] {
			size[name] = 1
			return 1
		}
		size[name] = 1 // not reached again: the type is not recursive
		n := nodeSize(nt.Schema)
		if n > MaxInline {
			big[name] = true
			n = 1 // a $ref where used
		}
		size[name] = n
		return n
	}
	for _, nt := range b.order {
		typeSize(nt.Name)
	}
	return big
}
