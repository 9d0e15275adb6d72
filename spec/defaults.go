package spec

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// endlessDefault is a property whose default, once filled in, leads to the
// same default being filled in again: the generated decoder fills a
// missing property's default and decodes it like any value, so
// Node.child: {$ref: Node, default: {name: kid}} fills child's default,
// finds child missing in it, fills it again, and never returns (a stack
// overflow, which no recover stops, takes the whole server down).
type endlessDefault struct {
	prop *Property
	// ofType is set when the default is the named type's own default (the
	// property is a bare $ref to it), not one written at the property.
	ofType *NamedType
	// chain names the properties of the loop, from prop back to prop.
	chain []string
}

func (e endlessDefault) message() string {
	whose := "its default"
	if e.ofType != nil {
		whose = fmt.Sprintf("the default of its type %q", e.ofType.Name)
	}
	return fmt.Sprintf("property %q: filling in %s fills the same default in again without end (%s), so decoding would never finish; give the default a value for the property that repeats, or drop one of the defaults",
		e.prop.Name, whose, strings.Join(e.chain, " -> "))
}

// drop removes the default e found, so that generation can go on.
func (e endlessDefault) drop() {
	if e.ofType != nil {
		e.ofType.Schema.Default = nil
		return
	}
	e.prop.Schema.Default = nil
}

// maxDefaultSteps bounds the work of endlessDefaults on huge documents;
// past it, the properties left are not checked. maxDefaultDepth bounds
// its recursion (a oneOf that lists its own type goes round without
// consuming the value).
const (
	maxDefaultSteps = 1000000
	maxDefaultDepth = 1000
)

// endlessDefaults finds the properties of api whose defaults fill
// themselves in again without end, in the order of api's types and tools.
func endlessDefaults(api *API) []endlessDefault {
	f := &defaultFiller{types: map[string]*NamedType{}, label: map[*Property]string{}, seen: map[*Schema]bool{}}
	for _, nt := range api.Types {
		f.types[nt.Name] = nt
	}
	for _, nt := range api.Types {
		f.collect(nt.Schema, nt.Name)
	}
	for _, t := range api.Tools {
		f.collect(t.Input, t.Name+" input")
		f.collect(t.Output, t.Name+" output")
	}
	var found []endlessDefault
	for _, p := range f.props {
		def, nt := f.effective(p)
		var v any
		if def == nil || json.Unmarshal(def, &v) != nil {
			continue
		}
		f.stack = append(f.stack[:0], p)
		if chain := f.fill(v, p.Schema, 0); chain != nil {
			found = append(found, endlessDefault{prop: p, ofType: nt, chain: chain})
		}
		if f.steps > maxDefaultSteps {
			break
		}
	}
	return found
}

// defaultFiller walks default values the way the generated decoder fills
// them in.
type defaultFiller struct {
	types map[string]*NamedType
	// props are every property with a schema, in walk order; label names
	// each ("Node.child", "walk input.node").
	props []*Property
	label map[*Property]string
	seen  map[*Schema]bool
	// stack holds the properties whose defaults are being filled in.
	stack []*Property
	steps int
}

func (f *defaultFiller) collect(s *Schema, where string) {
	if s == nil || f.seen[s] {
		return
	}
	f.seen[s] = true
	for _, p := range s.Properties {
		if p.Schema == nil {
			continue
		}
		if _, ok := f.label[p]; !ok {
			f.label[p] = where + "." + p.Name
			f.props = append(f.props, p)
		}
		f.collect(p.Schema, where+"."+p.Name)
	}
	f.collect(s.Items, where+"[]")
	f.collect(s.AdditionalProperties, where+"{}")
	for _, v := range s.OneOf {
		f.collect(v, where)
	}
}

// effective is the default the generated decoder fills in for p when it
// is missing: the property's own, else (for a bare $ref) the named type's.
func (f *defaultFiller) effective(p *Property) (json.RawMessage, *NamedType) {
	if p.Schema.Default != nil {
		return p.Schema.Default, nil
	}
	if p.Schema.Ref == "" {
		return nil, nil
	}
	nt := f.resolveType(p.Schema)
	if nt == nil || nt.Schema.Default == nil {
		return nil, nil
	}
	return nt.Schema.Default, nt
}

// resolveType follows s's $ref chain to the last named type.
func (f *defaultFiller) resolveType(s *Schema) *NamedType {
	var nt *NamedType
	for i := 0; s != nil && s.Ref != "" && i < maxRefHops; i++ {
		next := f.types[s.Ref]
		if next == nil {
			break
		}
		nt, s = next, next.Schema
	}
	return nt
}

// fill fills in the defaults missing from v, a value of schema s, and
// returns the loop when one leads back to the property at the bottom of
// the stack. A loop back to another property of the stack ends the walk
// without a result: that property reports its own loop.
func (f *defaultFiller) fill(v any, s *Schema, depth int) []string {
	f.steps++
	if f.steps > maxDefaultSteps || depth > maxDefaultDepth {
		return nil
	}
	depth++
	if nt := f.resolveType(s); nt != nil {
		s = nt.Schema
	}
	if s == nil {
		return nil
	}
	for _, variant := range s.OneOf {
		if chain := f.fill(v, variant, depth); chain != nil {
			return chain
		}
	}
	switch v := v.(type) {
	case map[string]any:
		for _, p := range s.Properties {
			if p.Schema == nil {
				continue
			}
			if pv, ok := v[p.Name]; ok {
				if chain := f.fill(pv, p.Schema, depth); chain != nil {
					return chain
				}
				continue
			}
			def, _ := f.effective(p)
			var dv any
			if def == nil || json.Unmarshal(def, &dv) != nil {
				continue
			}
			for i, q := range f.stack {
				if q != p {
					continue
				}
				if i > 0 {
					return nil
				}
				chain := make([]string, 0, len(f.stack)+1)
				for _, q := range f.stack {
					chain = append(chain, f.label[q])
				}
				return append(chain, f.label[p])
			}
			f.stack = append(f.stack, p)
			chain := f.fill(dv, p.Schema, depth)
			f.stack = f.stack[:len(f.stack)-1]
			if chain != nil {
				return chain
			}
		}
		if s.AdditionalProperties != nil {
			// Sorted, so that the loop reported is the same every run.
			for _, k := range slices.Sorted(maps.Keys(v)) {
				if !s.hasProperty(k) {
					if chain := f.fill(v[k], s.AdditionalProperties, depth); chain != nil {
						return chain
					}
				}
			}
		}
	case []any:
		if s.Items != nil {
			for _, e := range v {
				if chain := f.fill(e, s.Items, depth); chain != nil {
					return chain
				}
			}
		}
	}
	return nil
}

func (s *Schema) hasProperty(name string) bool {
	for _, p := range s.Properties {
		if p.Name == name {
			return true
		}
	}
	return false
}
