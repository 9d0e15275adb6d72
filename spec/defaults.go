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
// checked is false when the work bound ran out before every default was
// followed.
func endlessDefaults(api *API) (found []endlessDefault, checked bool) {
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
	for _, p := range f.props {
		def, nt := PropertyDefault(p, f.types)
		var v any
		if def == nil || json.Unmarshal(def, &v) != nil {
			continue
		}
		f.stack = append(f.stack[:0], p)
		if chain := f.fill(v, p.Schema, 0); chain != nil {
			found = append(found, endlessDefault{prop: p, ofType: nt, chain: chain})
		}
		if f.steps > maxDefaultSteps {
			return found, false
		}
	}
	return found, true
}

// uncheckedDefaults is the message when endlessDefaults ran out of work.
const uncheckedDefaults = "the defaults are too entangled to follow within the loader's work bound: whether filling them in ends was not checked"

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
	for _, it := range s.PrefixItems {
		f.collect(it, where+"[]")
	}
	f.collect(s.AdditionalProperties, where+"{}")
	for _, v := range s.OneOf {
		f.collect(v, where)
	}
}

// PropertyDefault is the default a decoder fills in for p when the
// property is missing: its own, else, for a $ref, the named type's own
// default (one reference away: an alias's default, not that of the type
// it refers to further down). nt is that named type, nil when the default
// is the property's own. The generator fills in exactly this default, so
// that endlessDefaults checks what the generated code does.
func PropertyDefault(p *Property, types map[string]*NamedType) (def json.RawMessage, nt *NamedType) {
	if p.Schema.Default != nil || p.Schema.Ref == "" {
		return p.Schema.Default, nil
	}
	if nt = types[p.Schema.Ref]; nt == nil || nt.Schema.Default == nil {
		return nil, nil
	}
	return nt.Schema.Default, nt
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
	if s = resolveRef(f.types, s); s == nil {
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
			def, _ := PropertyDefault(p, f.types)
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
		for i, e := range v {
			if it := s.ItemAt(i); it != nil {
				if chain := f.fill(e, it, depth); chain != nil {
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
