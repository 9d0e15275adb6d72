package schema

import "github.com/mcpgen-dev/mcpgen/spec"

// side is the side of the API a document describes. A named type is shared
// by requests and responses, but OpenAPI's readOnly properties are set by
// the API (a client must not send them: a strict API or mock refuses
// them) and writeOnly ones are never returned, so a tool's input document
// leaves out readOnly properties and its output document writeOnly ones,
// at every depth. A named type with such properties somewhere below it has
// one definition per side; the others are shared by both.
type side uint8

const (
	bothSides side = iota // every property (Document: the schema files)
	inputSide
	outputSide
)

// omits reports whether p is left out of documents of this side.
func (sd side) omits(p *spec.Property) bool {
	return sd == inputSide && p.ReadOnly || sd == outputSide && p.WriteOnly
}

// findSided returns the named types that reach a readOnly or writeOnly
// property, directly or through other named types.
func (b *Builder) findSided() map[string]bool {
	sided := map[string]bool{}
	for _, nt := range b.order {
		if b.hasSidedProperty(nt.Schema, map[string]bool{}) {
			sided[nt.Name] = true
		}
	}
	return sided
}

func (b *Builder) hasSidedProperty(s *spec.Schema, seen map[string]bool) bool {
	if s == nil {
		return false
	}
	if s.Ref != "" {
		if seen[s.Ref] {
			return false
		}
		seen[s.Ref] = true
		nt := b.types[s.Ref]
		return nt != nil && b.hasSidedProperty(nt.Schema, seen)
	}
	for _, p := range s.Properties {
		if p.ReadOnly || p.WriteOnly {
			return true
		}
	}
	for _, c := range Children(s) {
		if b.hasSidedProperty(c, seen) {
			return true
		}
	}
	return false
}

// defKey names a definition: a named type as seen from one side (always
// bothSides for a type that is not sided).
type defKey struct {
	name string
	side side
}
