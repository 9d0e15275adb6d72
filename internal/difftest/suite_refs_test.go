package difftest

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// A suite schema that refers to itself ("$ref": "#", "#/$defs/...", a
// JSON pointer, "#anchor") resolves those references against its own
// root. As the property v of a tool input its root would be the input, so
// such a schema becomes a named type, the root its references resolve
// against, and v refers to it.

// refKeywords are the keywords that make a suite schema a named type.
var refKeywords = []string{`"$ref"`, `"$defs"`, `"$anchor"`, `"$id"`, `"$dynamicRef"`, `"$dynamicAnchor"`}

// asNamedType returns the schema text of v for the converted suite
// schema b: b itself, or, when the suite schema refers to itself, a $ref
// to the named type g.typ then declares.
func asNamedType(g *suiteGroup, b []byte) []byte {
	refers := false
	for _, k := range refKeywords {
		refers = refers || strings.Contains(string(g.Schema), k)
	}
	if !refers {
		return b
	}
	name := suiteTypeName(g.tool)
	g.typ = fmt.Sprintf("  %s: %s\n", name, b)
	ref, _ := json.Marshal(map[string]string{"$ref": name})
	return ref
}

// suiteTypeName is the type name of the schema of a suite tool
// ("ref_3" → "Ref3Schema").
func suiteTypeName(tool string) string {
	var b strings.Builder
	for _, w := range strings.Split(tool, "_") {
		if w != "" {
			b.WriteString(strings.ToUpper(w[:1]) + w[1:])
		}
	}
	return b.String() + "Schema"
}

// typesSection is the types: section of the spec that holds types, or ""
// when there are none.
func typesSection(types string) string {
	if types == "" {
		return ""
	}
	return "types:\n" + types
}

// convertDefs gives the $defs entries of s (at any depth of $defs) the
// conversions suiteTool gives the root: the type their keywords imply,
// their required names declared, and, when open, an open object unless it is closed. Under a referring
// schema's unevaluatedProperties an entry stays without
// additionalProperties: the $ref and its sibling properties then merge
// into one object (docs/spec.md), which unevaluatedProperties closes, as
// JSON Schema's evaluated members would.
func convertDefs(s map[string]any, open bool) {
	defs, _ := s["$defs"].(map[string]any)
	for _, d := range defs {
		m, ok := d.(map[string]any)
		if !ok {
			continue
		}
		convertDefs(m, open)
		if _, typed := m["type"]; !typed {
			if kind := impliedType(m); kind != "" {
				m["type"] = kind
			}
		}
		if req, ok := m["required"].([]any); ok {
			// declared as any value, as at the root
			props, _ := m["properties"].(map[string]any)
			if props == nil {
				props = map[string]any{}
			}
			for _, name := range req {
				if n, ok := name.(string); ok && props[n] == nil {
					props[n] = map[string]any{}
				}
			}
			m["properties"] = props
		}
		_, ap := m["additionalProperties"]
		_, uneval := m["unevaluatedProperties"]
		if m["type"] == "object" && !ap && !uneval && open {
			m["additionalProperties"] = true
		}
	}
}

// refOtherType are the suite tests whose data reaches a referenced schema
// with a value of another type than the one its keywords imply (the root
// here, an object): as at the top level, mcpgen types that value, so the
// data is a type error where JSON Schema lets the keywords ignore it.
var refOtherType = map[string]bool{
	"ref.json: root pointer ref / match":           true, // {"foo": false}
	"ref.json: root pointer ref / recursive match": true, // {"foo": {"foo": false}}
}

// otherDialect refuses a suite schema whose $schema names a meta-schema
// other than 2020-12's (vocabulary.json): its $vocabulary decides which
// keywords apply, and mcpgen reads the 2020-12 dialect with all of its
// vocabularies (the meta-schemas are remote documents besides).
func otherDialect(s map[string]any) error {
	if d, ok := s["$schema"].(string); ok && strings.TrimSuffix(d, "#") != "https://json-schema.org/draft/2020-12/schema" {
		return errors.New("$schema " + d + " is a meta-schema of its own (its $vocabulary decides which keywords apply): mcpgen reads the 2020-12 dialect only")
	}
	return nil
}
