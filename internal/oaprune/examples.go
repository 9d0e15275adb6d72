package oaprune

import (
	"slices"
	"strconv"
	"strings"
)

// WithoutExternalExampleRefs returns doc without the example values that
// hold a "$ref" key which is not a local "#/" reference, and the JSON
// pointers of what it left out, sorted. doc is not changed; the result
// shares every value it did not change.
//
// It is a workaround for a mock, not a correction of the document: an
// example is data, and data may well have a member named "$ref" (GitHub's
// SCIM examples carry SCIM's own "$ref": "https://api.github.com/scim/v2/…"
// member), but Prism resolves every "$ref" key of the document it loads,
// examples included, tries to download such a URL and exits before it
// listens. Without the example Prism makes that answer from the schema
// instead; requests are judged exactly as before, since examples do not
// take part in validation.
//
// What is left out: the value of an "example" keyword, or of an "examples"
// keyword (an OpenAPI map of Example Objects, or a JSON Schema array),
// that holds such a member itself or through a local $ref (an entry of
// components/examples); one Example Object of an "examples" map when only
// some hold one, and the map when none is left; and the entries of
// components/examples that hold one. Keywords are told from names: the
// members of properties, patternProperties, $defs, definitions, the
// component maps, paths and content are names, so a property called
// "example" stays; enum, default and const values are data and stay.
func WithoutExternalExampleRefs(doc map[string]any) (map[string]any, []string) {
	s := stripper{doc: doc}
	out, _ := s.object(doc, "", false)
	slices.Sort(s.dropped)
	return out, s.dropped
}

type stripper struct {
	doc     map[string]any
	dropped []string
}

// namesMaps are the keywords whose members are names, not keywords.
var namesMaps = map[string]bool{
	"properties": true, "patternProperties": true, "$defs": true, "definitions": true,
	"schemas": true, "responses": true, "parameters": true, "requestBodies": true,
	"headers": true, "securitySchemes": true, "links": true, "callbacks": true,
	"pathItems": true, "paths": true, "webhooks": true, "x-webhooks": true,
	"content": true, "encoding": true, "mapping": true,
}

// value rewrites v, found at ptr, and reports whether it changed it.
func (s *stripper) value(v any, ptr string, names bool) (any, bool) {
	switch v := v.(type) {
	case map[string]any:
		return s.object(v, ptr, names)
	case []any:
		var out []any
		for i, x := range v {
			y, changed := s.value(x, ptr+"/"+strconv.Itoa(i), false)
			if changed && out == nil {
				out = slices.Clone(v)
			}
			if out != nil {
				out[i] = y
			}
		}
		if out == nil {
			return v, false
		}
		return out, true
	}
	return v, false
}

// object rewrites m; names says that its members are names (of
// properties, schemas, media types, …), so that none of them is a keyword.
func (s *stripper) object(m map[string]any, ptr string, names bool) (map[string]any, bool) {
	var out map[string]any
	set := func(k string, v any, drop bool) {
		if out == nil {
			out = make(map[string]any, len(m))
			for k, v := range m {
				out[k] = v
			}
		}
		if drop {
			delete(out, k)
		} else {
			out[k] = v
		}
	}
	for _, k := range sortedKeys(m) {
		v := m[k]
		p := ptr + "/" + escape(k)
		switch {
		case names:
			if y, changed := s.value(v, p, false); changed {
				set(k, y, false)
			}
		case k == "example":
			if s.external(v, map[string]bool{}) {
				s.dropped = append(s.dropped, p)
				set(k, nil, true)
			}
		case k == "enum" || k == "default" || k == "const":
			// Data, not keywords.
		case k == "examples":
			// An OpenAPI map of Example Objects (components/examples
			// too) or a JSON Schema array.
			if y, changed := s.examples(v, p); changed {
				set(k, y, y == nil)
			}
		default:
			if y, changed := s.value(v, p, namesMaps[k]); changed {
				set(k, y, false)
			}
		}
	}
	if out == nil {
		return m, false
	}
	return out, true
}

// examples rewrites the value of an "examples" keyword: a map of Example
// Objects loses the entries that hold an external "$ref" (nil when none is
// left); any other value (a JSON Schema array) is kept or left out whole.
func (s *stripper) examples(v any, ptr string) (any, bool) {
	m, ok := v.(map[string]any)
	if !ok {
		if s.external(v, map[string]bool{}) {
			s.dropped = append(s.dropped, ptr)
			return nil, true
		}
		return v, false
	}
	var out map[string]any
	for _, k := range sortedKeys(m) {
		if !s.external(m[k], map[string]bool{}) {
			continue
		}
		if out == nil {
			out = make(map[string]any, len(m))
			for k, v := range m {
				out[k] = v
			}
		}
		delete(out, k)
		s.dropped = append(s.dropped, ptr+"/"+escape(k))
	}
	if out == nil {
		return v, false
	}
	if len(out) == 0 {
		return nil, true
	}
	return out, true
}

// external reports whether v holds a "$ref" member that is not a local
// "#/" reference, itself or through the local references it holds.
func (s *stripper) external(v any, seen map[string]bool) bool {
	switch v := v.(type) {
	case map[string]any:
		if ref, ok := v["$ref"].(string); ok {
			ptr, local := strings.CutPrefix(ref, "#/")
			if !local {
				return true
			}
			if !seen[ref] {
				seen[ref] = true
				if target, ok := lookup(s.doc, ptr); ok && s.external(target, seen) {
					return true
				}
			}
		}
		for _, x := range v {
			if s.external(x, seen) {
				return true
			}
		}
	case []any:
		for _, x := range v {
			if s.external(x, seen) {
				return true
			}
		}
	}
	return false
}

// lookup follows a JSON pointer (without its leading "#/") in doc.
func lookup(doc map[string]any, ptr string) (any, bool) {
	var v any = doc
	for _, seg := range strings.Split(ptr, "/") {
		seg = strings.ReplaceAll(strings.ReplaceAll(seg, "~1", "/"), "~0", "~")
		m, ok := v.(map[string]any)
		if !ok {
			return nil, false
		}
		if v, ok = m[seg]; !ok {
			return nil, false
		}
	}
	return v, true
}

func escape(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
