package difftest

import (
	"encoding/json"
	"maps"
	"reflect"
)

// unionVariants rewrites the oneOf of a suite schema s into the union
// mcpgen takes: the keywords beside oneOf move into each variant that has
// none of its own (T with oneOf [A, B] is oneOf [T and A, T and B], as
// exactly one of A and B holds exactly when one of those does), an untyped variant gets
// the type its keywords imply, and each variant is converted like a case
// schema (objects left open, required names declared). variantsOf skips the
// instances of another type than an implied one, which that variant would
// let through.
func unionVariants(s map[string]any) {
	list, _ := s["oneOf"].([]any)
	if len(list) == 0 {
		return
	}
	// The keywords beside oneOf narrow the same value: they move into
	// each variant, except the unevaluated ones (whose meaning depends on
	// what the variants evaluate).
	base := map[string]any{}
	for k, v := range s {
		if k != "oneOf" && k != "unevaluatedProperties" && k != "unevaluatedItems" {
			base[k] = v
			delete(s, k)
		}
	}
	for _, v := range list {
		m, isMap := v.(map[string]any)
		for k, b := range base {
			if mv, has := m[k]; !isMap || has && !reflect.DeepEqual(mv, b) {
				// A boolean variant, or a variant that says something
				// of its own: no variant keeps both without allOf, so
				// the schema stays as written.
				maps.Copy(s, base)
				return
			}
		}
	}
	for i, v := range list {
		m, ok := v.(map[string]any)
		if !ok {
			continue
		}
		maps.Copy(m, base)
		list[i] = caseSchema(m)
	}
}

// impliedVariants are the types unionVariants gives the untyped variants of
// an untyped suite schema s.
func impliedVariants(s map[string]any) []string {
	if _, typed := s["type"]; typed {
		return nil
	}
	list, _ := s["oneOf"].([]any)
	var out []string
	for _, v := range list {
		m, _ := v.(map[string]any)
		if _, has := m["type"]; !has && m != nil {
			if kind := impliedType(m); kind != "" {
				out = append(out, kind)
			}
		}
	}
	return out
}

// variantsOf reports whether data has every type impliedVariants gives
// (one of another type passes such a variant in JSON Schema, and fails it
// in mcpgen).
func variantsOf(s map[string]any, data json.RawMessage) bool {
	for _, kind := range impliedVariants(s) {
		if kindOf(data) != kind {
			return false
		}
	}
	return true
}
