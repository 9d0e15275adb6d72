package schema

import (
	"strings"

	"github.com/mcpgen-dev/mcpgen/spec"
)

// Tolerant rewrites the output schema documents of wrapped REST
// operations into the outputSchema their tools list.
//
// Real APIs deviate from their documents: a property the document calls
// required is missing, an undocumented one appears, a value is null where
// the document forgot "nullable", an enum gains a value, a string breaks
// its format. Clients validate structuredContent against the listed
// outputSchema (the official SDKs do), so listing the exact schema would
// turn every such answer into an error and lose the data the API did
// return. The tolerant document describes the same shape without
// rejecting those deviations:
//
//   - no "required" or "dependentRequired"; objects are open
//     ("additionalProperties": false and "unevaluatedProperties": false are
//     dropped, a schema stays);
//   - every typed value below the root also accepts null;
//   - "enum", "const", "format", "pattern", the length, number, item and
//     property-count bounds and "uniqueItems" move into the description
//     ("Documented: enum [...]; format ...") instead of being enforced;
//   - "oneOf" becomes "anyOf" (relaxed variants may overlap), and "not",
//     "if"/"then"/"else", "contains" and "propertyNames" are dropped.
//
// The server checks every response against both documents: it logs
// deviations from the exact one and guarantees the tolerant one (see
// runtime/upstream Client.StructuredResult).
//
// Documents share subtrees (the definitions of named types), so the
// rewrite never changes its input; it shares the rewritten copies of
// subtrees it has met before.
type Tolerant struct {
	done map[tolerantKey]Object
}

// tolerantKey identifies a subtree: documents share subtrees as slices.
type tolerantKey struct {
	first *Member
	n     int
}

// NewTolerant returns a rewriter; one serves all the documents of an API.
func NewTolerant() *Tolerant { return &Tolerant{done: map[tolerantKey]Object{}} }

// Document returns the tolerant form of the output schema document doc.
// The root keeps its type (a null response is not structured content).
func (t *Tolerant) Document(doc Object) Object {
	return t.schema(doc, true)
}

// documented are the keywords moved into the description, in the order
// they are listed there.
var documented = []string{"enum", "const", "format", "pattern", "minLength", "maxLength",
	"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf",
	"minItems", "maxItems", "uniqueItems", "minProperties", "maxProperties"}

// dropped are the keywords left out without a note: the structure they
// constrain is described by the other keywords.
var dropped = map[string]bool{"required": true, "dependentRequired": true, "not": true, "if": true,
	"then": true, "else": true, "contains": true, "minContains": true, "maxContains": true,
	"propertyNames": true, "unevaluatedItems": true}

func (t *Tolerant) schema(o Object, root bool) Object {
	if len(o) == 0 {
		return o
	}
	key := tolerantKey{&o[0], len(o)}
	if !root {
		if r, ok := t.done[key]; ok {
			return r
		}
	}
	var notes []string
	out := make(Object, 0, len(o))
	descAt := -1
	for _, m := range o {
		switch {
		case m.Key == "type" && !root:
			out = append(out, Member{"type", withNull(m.Value)})
		case m.Key == "description":
			descAt = len(out)
			out = append(out, m)
		case isDocumented(m.Key):
			notes = append(notes, m.Key+" "+compactValue(m.Value))
		case dropped[m.Key]:
		case m.Key == "additionalProperties" || m.Key == "unevaluatedProperties":
			if sub, ok := m.Value.(Object); ok {
				out = append(out, Member{m.Key, t.schema(sub, false)})
			}
		case m.Key == "items":
			if sub, ok := m.Value.(Object); ok {
				out = append(out, Member{m.Key, t.schema(sub, false)})
			} else {
				out = append(out, m)
			}
		case m.Key == "oneOf" || m.Key == "anyOf" || m.Key == "allOf" || m.Key == "prefixItems":
			k := m.Key
			if k == "oneOf" {
				k = "anyOf"
			}
			if list, ok := m.Value.([]Object); ok {
				rl := make([]Object, len(list))
				for i, s := range list {
					rl[i] = t.schema(s, false)
				}
				out = append(out, Member{k, rl})
			} else {
				out = append(out, Member{k, m.Value})
			}
		case m.Key == "properties" || m.Key == "patternProperties" || m.Key == "$defs" || m.Key == "dependentSchemas":
			if props, ok := m.Value.(Object); ok {
				rp := make(Object, len(props))
				for i, p := range props {
					if sub, ok := p.Value.(Object); ok {
						rp[i] = Member{p.Key, t.schema(sub, false)}
					} else {
						rp[i] = p
					}
				}
				out = append(out, Member{m.Key, rp})
			} else {
				out = append(out, m)
			}
		default:
			out = append(out, m)
		}
	}
	if len(notes) > 0 {
		note := "Documented: " + strings.Join(notes, "; ") + "."
		if descAt >= 0 {
			d, _ := out[descAt].Value.(string)
			out[descAt] = Member{"description", strings.TrimRight(d, " \n") + "\n\n" + note}
		} else {
			// The description goes after the type, where a schema keeps it.
			at := 0
			if len(out) > 0 && out[0].Key == "type" {
				at = 1
			}
			out = append(out[:at], append(Object{{"description", note}}, out[at:]...)...)
		}
	}
	if !root {
		t.done[key] = out
	}
	return out
}

func isDocumented(k string) bool {
	for _, d := range documented {
		if d == k {
			return true
		}
	}
	return false
}

// withNull adds "null" to a type keyword's value.
func withNull(v any) any {
	switch x := v.(type) {
	case string:
		if x == "null" {
			return x
		}
		return []string{x, "null"}
	case []string:
		for _, n := range x {
			if n == "null" {
				return x
			}
		}
		return append(append([]string(nil), x...), "null")
	}
	return v
}

// compactValue is v as compact JSON, for the description notes.
func compactValue(v any) string {
	b, err := appendJSON(nil, v, noLimit)
	if err != nil {
		return "?"
	}
	return string(b)
}

// TolerantDocument returns the tolerant output document of s (see
// Tolerant) within the schema budget, and the document it was made from,
// which is the response schema the server checks responses against. The
// budget applies to the tolerant document, the one tools list: when it is
// over, the deepest shallow document whose tolerant form fits is taken
// (depth 0 when none does), as ToolDocument does for exact ones. cut
// describes the tolerant document; it is nil when nothing was left out.
func (b *Builder) TolerantDocument(s *spec.Schema, t *Tolerant) (tolerant, from Object, cut *Cut, err error) {
	from, cut, err = b.ToolDocument(s, false)
	if err != nil {
		return nil, nil, nil, err
	}
	tolerant = t.Document(from)
	if b.max <= 0 {
		return tolerant, from, cut, nil
	}
	var buf []byte
	if buf, err = appendJSON(buf, tolerant, noLimit); err != nil {
		return nil, nil, nil, err
	}
	if len(buf) <= b.max {
		if cut != nil {
			cut = &Cut{Full: cut.Full, Depth: cut.Depth, Size: len(buf)}
		}
		return tolerant, from, cut, nil
	}
	full := len(buf)
	if cut != nil {
		full = cut.Full
	}
	start := maxShallowDepth
	if cut != nil {
		start = cut.Depth - 1
	}
	for depth := start; depth >= 0; depth-- {
		w := &walk{used: map[string]bool{}, limit: depth, side: outputSide}
		if s.Ref == "" {
			w.depth = 1 // the root's own properties are one level down
		}
		d := b.build(s, w)
		td := t.Document(d)
		if buf, err = appendJSON(buf[:0], td, noLimit); err != nil {
			return nil, nil, nil, err
		}
		if len(buf) <= b.max || depth == 0 {
			return td, d, &Cut{Full: full, Depth: depth, Size: len(buf)}, nil
		}
	}
	return tolerant, from, cut, nil // start < 0: the exact document was at depth 0 already
}

// CompactFile returns doc as the contents of a schema file that only the
// server reads (a response schema): "$comment" and "$schema" first, on one
// line, with a trailing newline. Large wrapped APIs embed thousands of these,
// and indentation would be most of their bytes.
func (e *Encoder) CompactFile(doc Object) ([]byte, error) {
	full := append(Object{{"$comment", Comment}, {"$schema", Dialect}}, doc...)
	b, err := appendJSON(e.buf[:0], full, noLimit)
	e.buf = b
	if err != nil {
		return nil, err
	}
	return append(append(make([]byte, 0, len(b)+1), b...), '\n'), nil
}
