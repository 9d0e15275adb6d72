package spec

import (
	"bytes"
	"encoding/json"
	"reflect"
)

// narrowUnionByEnum resolves a union that has an enum or const beside it,
// as in `{enum: [1], allOf: [{$ref: ComponentTypes}]}` where ComponentTypes
// is a oneOf of titled consts (a common way to document each value of an
// enumeration). JSON Schema requires both, so the allowed values are the
// enum's values that the union accepts. mcpgen's types cannot hold an enum
// and a union on one schema, so when every variant is a plain const or
// enum the union is replaced by the enum of the values both allow;
// otherwise the union is kept and the enum dropped, with a note. declared
// is the schema's own type, used when the variants do not name one. It
// reports whether the union was replaced.
func (l *oaLoader) narrowUnionByEnum(out *Schema, declared Kind) bool {
	if len(out.OneOf) == 0 || (out.Enum == nil && out.Const == nil) {
		return false
	}
	kind, first := KindAny, true
	for _, v := range out.OneOf {
		if v.Ref != "" || len(v.OneOf) > 0 || (v.Const == nil && v.Enum == nil) || v.Nullable {
			l.notef(out.Pos, "enum or const beside oneOf/anyOf is not supported there: the union is kept and the enum is not checked")
			out.Enum, out.Const = nil, nil
			return false
		}
		if first {
			kind, first = v.Type, false
		} else if kind != v.Type {
			kind = KindAny
		}
	}
	allowed := out.Enum
	if out.Const != nil {
		allowed = []json.RawMessage{out.Const}
	}
	var kept []json.RawMessage
	for _, value := range allowed {
		matches := 0
		for _, v := range out.OneOf {
			if v.Const != nil && jsonEqual(v.Const, value) {
				matches++
				continue
			}
			for _, e := range v.Enum {
				if jsonEqual(e, value) {
					matches++
					break
				}
			}
		}
		if matches == 1 || (out.AnyOf && matches > 1) {
			kept = append(kept, value)
		}
	}
	out.OneOf, out.AnyOf, out.Discriminator = nil, false, nil
	if kind == KindAny {
		kind = declared
	}
	out.Type = kind
	if out.Const != nil && len(kept) == 1 {
		return true
	}
	out.Const = nil
	if len(kept) == 0 {
		// No value is allowed; an empty enum says so and refuses all.
		l.notef(out.Pos, "no value of the enum is accepted by the union beside it: every value is refused")
		kept = []json.RawMessage{}
	}
	out.Enum = kept
	return true
}

// jsonEqual reports whether two JSON texts hold the same value, numbers
// by value (1 and 1.0 are one number, as JSON Schema's enum and const say;
// an OpenAPI document keeps numbers as written). Equal texts are equal, and
// two different texts of strings (which both loaders write compact) are not.
func jsonEqual(a, b json.RawMessage) bool {
	if bytes.Equal(a, b) {
		return true
	}
	if len(a) > 0 && len(b) > 0 && a[0] == '"' && b[0] == '"' {
		return false
	}
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}
