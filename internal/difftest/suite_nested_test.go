package difftest

import (
	"encoding/json"
	"maps"
	"slices"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// nestedSchemas converts, like a case schema, every untyped schema of a
// property, a pattern, the additional properties or the items of s whose keywords imply a type (mcpgen types
// every value, and rejects type-specific keywords without a type).
// sameMeaning skips the instances where that narrowed the schema.
func nestedSchemas(s map[string]any) {
	props, _ := s["properties"].(map[string]any)
	for _, name := range slices.Sorted(maps.Keys(props)) {
		if m, ok := props[name].(map[string]any); ok && untypedImplied(m) {
			props[name] = caseSchema(m)
		}
	}
	pats, _ := s["patternProperties"].(map[string]any)
	for _, p := range slices.Sorted(maps.Keys(pats)) {
		if m, ok := pats[p].(map[string]any); ok && untypedImplied(m) {
			pats[p] = caseSchema(m)
		}
	}
	for _, k := range []string{"items", "additionalProperties"} {
		if m, ok := s[k].(map[string]any); ok && untypedImplied(m) {
			s[k] = caseSchema(m)
		}
	}
}

// untypedImplied reports whether s has no type and keywords that imply one.
func untypedImplied(s map[string]any) bool {
	_, typed := s["type"]
	return !typed && impliedType(s) != ""
}

// sameMeaning reports whether the reference validator gives data the same
// verdict under the converted schema as under the suite's own: where it
// does not, the conversion (a type mcpgen needs, an object closed) decided
// the verdict, and the instance tests something mcpgen does not express.
// A verdict the reference cannot give counts as the same.
func sameMeaning(conv, orig *jsonschema.Schema, data json.RawMessage) bool {
	a, errA := oracle(conv, data)
	b, errB := oracle(orig, data)
	return errA != nil || errB != nil || a == b
}

// subschemasTyped handles an untyped suite schema s whose own keywords
// imply no type and one of whose applied subschemas states a type other
// than the one the others imply ({anyOf: [{type: integer}, {minimum: 2}]}):
// no one type fits s, so s stays untyped (a value of any type, whose
// subschemas each state their own) and each untyped subschema gets the
// type its keywords imply. It reports whether it did so.
func subschemasTyped(s map[string]any) bool {
	if ownType(s) != "" {
		return false
	}
	implied := impliedType(s)
	subs := applied(s)
	conflict := false
	for _, sub := range subs {
		if t, ok := sub["type"].(string); ok && implied != "" && t != implied {
			conflict = true
		}
	}
	if !conflict {
		return false
	}
	for _, sub := range subs {
		if untypedImplied(sub) {
			caseSchema(sub)
		}
	}
	return true
}

// ownType is the type the keywords of s itself imply, leaving out its
// applied subschemas.
func ownType(s map[string]any) string {
	own := maps.Clone(s)
	for _, k := range []string{"allOf", "anyOf", "not", "if", "then", "else", "dependentSchemas"} {
		delete(own, k)
	}
	return impliedType(own)
}
