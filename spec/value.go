package spec

import (
	"bytes"
	"encoding/json"
	"math/big"
	"regexp"
)

// valueChecker checks JSON values (defaults, examples, enum and const
// values) against the schemas they sit on, the way the generated
// validators will: both loaders use it, the mcpgen.yaml loader to refuse a
// value that breaks its own schema, the OpenAPI loader to drop one.
type valueChecker struct {
	// types are the named types a $ref names.
	types map[string]*NamedType
	// regexps caches compiled patterns for the value checks.
	regexps map[string]*regexp.Regexp
	// steps counts the work of the current value check (see checkValue).
	steps int
}

func newValueChecker(types map[string]*NamedType) valueChecker {
	return valueChecker{types: types, regexps: map[string]*regexp.Regexp{}}
}

// sameJSON reports whether two JSON texts are the same value. Equal bytes
// are; otherwise both are decoded and compared with numbers by value, so
// that 1, 1.0 and 1e0 are one number, as JSON Schema's enum and const say
// (an OpenAPI document keeps numbers as written).
func sameJSON(a, b json.RawMessage) bool {
	if bytes.Equal(a, b) {
		return true
	}
	va, okA := decodeJSON(a)
	vb, okB := decodeJSON(b)
	return okA && okB && sameValue(va, vb)
}

// decodeJSON decodes one JSON text with numbers kept as json.Number.
func decodeJSON(raw json.RawMessage) (any, bool) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, false
	}
	return v, true
}

// sameValue compares two decoded JSON values, numbers by value.
func sameValue(a, b any) bool {
	switch x := a.(type) {
	case json.Number:
		y, ok := b.(json.Number)
		if !ok {
			return false
		}
		fx, okX := new(big.Float).SetString(string(x))
		fy, okY := new(big.Float).SetString(string(y))
		return okX && okY && fx.Cmp(fy) == 0
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !sameValue(x[i], y[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, v := range x {
			w, ok := y[k]
			if !ok || !sameValue(v, w) {
				return false
			}
		}
		return true
	}
	return a == b
}
