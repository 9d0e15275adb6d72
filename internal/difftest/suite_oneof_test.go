package difftest

import "encoding/json"

// unionVariants rewrites the oneOf of a suite schema s into the union
// mcpgen takes: a type beside oneOf moves into each variant that has none
// (type T with oneOf [A, B] is oneOf [T and A, T and B], as exactly one of
// A and B holds exactly when one of those does), an untyped variant gets
// the type its keywords imply, and each variant is converted like a case
// schema (objects left open, required names declared). variantsOf skips the
// instances of another type than an implied one, which that variant would
// let through.
func unionVariants(s map[string]any) {
	list, _ := s["oneOf"].([]any)
	if len(list) == 0 {
		return
	}
	base, typed := s["type"]
	delete(s, "type")
	for i, v := range list {
		m, ok := v.(map[string]any)
		if !ok {
			continue
		}
		if _, has := m["type"]; !has && typed {
			m["type"] = base
		}
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
