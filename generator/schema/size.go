package schema

import (
	"fmt"

	"github.com/mcpgen-dev/mcpgen/spec"
)

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

// maxShallowDepth bounds the search for the deepest shallow document that
// fits: no reader follows named types further down than this.
const maxShallowDepth = 16

// Cut describes a tool schema that was over its budget.
type Cut struct {
	// Full is the size in bytes of the exact document, as compact JSON.
	Full int
	// Depth is how many levels of named types below the root the shallow
	// document keeps; deeper ones are {} (any value) with a description
	// saying so.
	Depth int
	// Size is the size of the shallow document.
	Size int
}

// ToolDocument returns the JSON Schema of a tool's input (an object, whatever
// s says) or output s, computed once per schema: the server file and the
// schema files use the same document.
//
// The rule for documents over the budget (spec.API.MaxSchemaBytes, in
// bytes of compact JSON; 0 means none): an exact document that fits is returned as is (named types shared
// through "$defs" where large or recursive). One that does not fit is
// replaced by the deepest shallow one that does: every named type more than
// Depth levels below the root becomes {} with a description naming it,
// oneOf becomes anyOf (an elided variant would otherwise make values of
// the other variants ambiguous), and the rest is inlined. A shallow
// document accepts everything the exact one accepts, so a client that
// validates against it never rejects a valid value; the generated Go code
// still decodes and validates inputs against the exact spec. When even
// depth 0 is over the budget, depth 0 is returned. cut is nil when the
// exact document is returned.
func (b *Builder) ToolDocument(s *spec.Schema, input bool) (Object, *Cut, error) {
	key := toolKey{s, input}
	if d, ok := b.tools[key]; ok {
		return d.doc, d.cut, nil
	}
	if input {
		obj := *s
		obj.Type = spec.KindObject
		s = &obj
	}
	sd := outputSide
	if input {
		sd = inputSide
	}
	doc, cut, err := b.budgeted(s, sd)
	if err == nil {
		b.tools[key] = toolDoc{doc, cut}
	}
	return doc, cut, err
}

type toolKey struct {
	s     *spec.Schema
	input bool
}

type toolDoc struct {
	doc Object
	cut *Cut
}

func (b *Builder) budgeted(s *spec.Schema, sd side) (Object, *Cut, error) {
	max := b.max
	root, names := b.exact(s, sd)
	if max <= 0 {
		return b.withDefs(root, names, sd), nil, nil
	}
	// The exact document is built only when it is the answer: over the
	// budget, it can be megabytes, and only its size is needed.
	full, err := b.documentSize(root, names, sd)
	if err != nil {
		return nil, nil, err
	}
	if full <= max {
		return b.withDefs(root, names, sd), nil, nil
	}
	return b.shallowFit(s, max, full, sd)
}

// shallowFit returns the deepest shallow document of s that fits max
// bytes (depth 0 when none does); full is the exact document's size.
func (b *Builder) shallowFit(s *spec.Schema, max, full int, sd side) (Object, *Cut, error) {
	cut := &Cut{Full: full}
	var best Object
	var err error
	var buf []byte
	for depth := 0; depth <= maxShallowDepth; depth++ {
		w := &walk{used: map[string]bool{}, limit: depth, side: sd}
		if s.Ref == "" {
			w.depth = 1 // the root's own properties are one level down
		}
		d := b.build(s, w) // s may be a copy (ToolDocument's input)
		// Depth 0 is returned even over the budget, with its size;
		// deeper ones only have to fit.
		limit := noLimit
		if best != nil {
			limit = max
		}
		if buf, err = appendJSON(buf[:0], d, limit); err != nil {
			return nil, nil, err
		}
		n := len(buf)
		if n > max && best != nil {
			break
		}
		best, cut.Depth, cut.Size = d, depth, n
		if n > max || !w.elided {
			break
		}
	}
	return best, cut, nil
}

// elide renders a reference site beyond the depth limit of a shallow
// document: any value, described.
func (b *Builder) elide(s *spec.Schema, nt *spec.NamedType, w *walk) Object {
	w.elided = true
	var o Object
	if s.Title != "" {
		o = append(o, Member{"title", s.Title})
	}
	desc := s.Description
	if desc == "" {
		desc = nt.Schema.Description
	}
	if desc != "" {
		desc += "\n\n"
	}
	max := b.shallowBudget()
	budget := fmt.Sprintf("%d bytes", max)
	if max%1024 == 0 {
		budget = fmt.Sprintf("%d KiB", max>>10)
	}
	desc += fmt.Sprintf("Schema of %s left out to keep this tool's schema under %s.", nt.Name, budget)
	o = append(o, Member{"description", desc})
	if s.Header != "" {
		o = append(o, Member{"x-mcp-header", s.Header})
	}
	return o
}

// DefaultShallowBudget is the size, in bytes of compact JSON, that
// Shallow fits a document into when the API has no schema budget.
const DefaultShallowBudget = 64 << 10

// shallowBudget is the budget shallow documents are fitted into: the
// API's, else DefaultShallowBudget. One per Builder, since shallow nodes
// (whose descriptions name it) are shared.
func (b *Builder) shallowBudget() int {
	if b.max > 0 {
		return b.max
	}
	return DefaultShallowBudget
}

// Shallow returns the deepest shallow document of a tool's input (an
// object, whatever s says) or output s that fits the schema budget (see
// ToolDocument): a document without "$ref", for client profiles whose
// exact document, once inlined, is too large to list.
func (b *Builder) Shallow(s *spec.Schema, input bool) (Object, *Cut, error) {
	sd := outputSide
	if input {
		obj := *s
		obj.Type = spec.KindObject
		s = &obj
		sd = inputSide
	}
	root, names := b.exact(s, sd)
	full, err := b.documentSize(root, names, sd)
	if err != nil {
		return nil, nil, err
	}
	return b.shallowFit(s, b.shallowBudget(), full, sd)
}

// Budget is the schema budget shallow documents are fitted into, in
// bytes of compact JSON: the API's, else DefaultShallowBudget.
func (b *Builder) Budget() int { return b.shallowBudget() }

// Fits reports whether doc is within the API's schema budget (always,
// when the API has none).
func (b *Builder) Fits(doc Object) (bool, error) {
	if b.max <= 0 {
		return true, nil
	}
	data, err := appendJSON(nil, doc, b.max)
	return len(data) <= b.max, err
}
