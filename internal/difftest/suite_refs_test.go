package difftest

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/url"
	"slices"
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
	var s map[string]any
	if json.Unmarshal(b, &s) == nil {
		var types []string
		base, _ := url.Parse("https://mcpgen.invalid/" + g.tool + "/root")
		if id, ok := s["$id"].(string); ok {
			if u, err := base.Parse(id); err == nil {
				base = u
				s["$id"] = u.String()
			}
		}
		hoistIDs(s, name, base, &types)
		b, _ = json.Marshal(s)
		g.typ = strings.Join(types, "")
	}
	g.typ = fmt.Sprintf("  %s: %s\n", name, b) + g.typ
	ref, _ := json.Marshal(map[string]string{"$ref": name})
	return ref
}

// hoistIDs moves each subschema of s that carries an $id (a schema
// resource of its own, embedded) to a named type of its own, where the
// $id is one more name of the type, and puts {$ref: <$id>} in its place:
// a spec is one document, whose resources are its named types. The $id
// and the references that are not fragments ("list", "extended#meta")
// become absolute, resolved against base, the URI of the resource they
// are written in, as JSON Schema resolves them (the types of all
// groups share one spec). The types are named after owner (owner +
// "Id1", ...) and appended to types as lines of a types: section.
func hoistIDs(s map[string]any, owner string, base *url.URL, types *[]string) {
	for _, k := range []string{"$ref", "$dynamicRef"} {
		if r, ok := s[k].(string); ok && !strings.HasPrefix(r, "#") {
			if u, err := base.Parse(r); err == nil {
				s[k] = u.String()
			}
		}
	}
	var visit func(at func(any), v any)
	visit = func(at func(any), v any) {
		m, ok := v.(map[string]any)
		if !ok {
			return
		}
		id, ok := m["$id"].(string)
		if !ok {
			hoistIDs(m, owner, base, types)
			return
		}
		u, err := base.Parse(id)
		if err != nil {
			return
		}
		m["$id"] = u.String()
		// Its $defs entries get the conversions of the root's
		// (convertDefs), as those of a named type would.
		_, uneval := m["unevaluatedProperties"]
		convertDefs(m, !uneval)
		name := fmt.Sprintf("%sId%d", owner, len(*types)+1)
		*types = append(*types, "") // the name is taken
		i := len(*types) - 1
		hoistIDs(m, owner, u, types)
		b, _ := json.Marshal(m)
		(*types)[i] = fmt.Sprintf("  %s: %s\n", name, b)
		at(map[string]any{"$ref": u.String()})
	}
	for _, k := range []string{"items", "contains", "not", "if", "then", "else", "additionalProperties", "propertyNames", "unevaluatedItems", "unevaluatedProperties"} {
		visit(func(x any) { s[k] = x }, s[k])
	}
	for _, k := range []string{"allOf", "anyOf", "oneOf", "prefixItems"} {
		list, _ := s[k].([]any)
		for i := range list {
			visit(func(x any) { list[i] = x }, list[i])
		}
	}
	for _, k := range []string{"$defs", "properties", "patternProperties", "dependentSchemas"} {
		m, _ := s[k].(map[string]any)
		for _, name := range slices.Sorted(maps.Keys(m)) {
			visit(func(x any) { m[name] = x }, m[name])
		}
	}
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
