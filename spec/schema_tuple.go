package spec

import (
	"fmt"

	"gopkg.in/yaml.v3"
)

// Tuple holds the JSON Schema 2020-12 keywords that evaluate the items of
// an array by position (prefixItems, and items or unevaluatedItems after
// it) and the keyword the remaining members of an object were written
// with (additionalProperties or unevaluatedProperties).
//
// In mcpgen the evaluated items of an array are its prefixItems positions
// and, when items is stated, every other item; the evaluated members of
// an object are its declared properties, the members a patternProperties
// pattern names and, when additionalProperties is stated, every other
// member. Constraint subschemas (allOf, anyOf, not, if/then/else,
// dependentSchemas) only narrow properties the object declares and carry
// no items keywords, so they evaluate nothing the schema itself does not.
// unevaluatedItems is then what items would be, and unevaluatedProperties
// what additionalProperties would be: the loader keeps them in Items
// (with ClosedItems) and in AllowAdditional and AdditionalProperties, and
// records the keyword so the published schema says what the spec says.
type Tuple struct {
	// PrefixItems are the schemas of the first items of an array, by
	// position (a position's Go field). An array may be shorter: a
	// position at or past minItems may be absent. The items after them
	// are of Items (any JSON value when nil) unless ClosedItems.
	PrefixItems []*Schema
	// ClosedItems says no item may follow the PrefixItems positions
	// (items: false or unevaluatedItems: false).
	ClosedItems bool
	// ItemsKeyword is the keyword Items or ClosedItems was written with
	// after prefixItems, or on an array without items: "items" (also
	// when neither is stated) or "unevaluatedItems".
	ItemsKeyword string
	// PropertiesKeyword is "unevaluatedProperties" when AllowAdditional
	// and AdditionalProperties come from that keyword, "" otherwise.
	PropertiesKeyword string
}

// IsTuple reports whether s is an array with prefixItems.
func (s *Schema) IsTuple() bool { return len(s.PrefixItems) > 0 }

// ItemAt is the schema of the item at index i of an array of s: its
// prefixItems position, else items (nil when any value, or when
// ClosedItems forbids the item; see ClosedItems).
func (s *Schema) ItemAt(i int) *Schema {
	if i < len(s.PrefixItems) {
		return s.PrefixItems[i]
	}
	return s.Items
}

// isBoolNode reports whether n is the YAML boolean true or false.
func isBoolNode(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!bool"
}

// anySchema is the schema `true` stands for: any JSON value.
func (l *loader) anySchema(n *yaml.Node) *Schema {
	return &Schema{Pos: l.pos(n)}
}

// tuple parses prefixItems, a boolean items, unevaluatedItems and
// unevaluatedProperties; schemaImplied has parsed items when it is a
// schema, and additionalProperties.
func (l *loader) tuple(info *schemaInfo) {
	s, ctx, v := info.s, info.ctx, info.vals
	if s.Type == KindArray {
		l.prefixItems(info)
		l.restItems(info)
	}
	n, ok := v["unevaluatedProperties"]
	if !ok || s.Type != KindObject {
		return
	}
	key := info.keys["unevaluatedProperties"]
	if _, stated := v["additionalProperties"]; stated {
		l.errorf(key, ctx, "unevaluatedProperties has no effect beside additionalProperties, which evaluates every member no property or pattern names: remove one of them")
		return
	}
	switch {
	case isBoolNode(n):
		s.AllowAdditional, _ = l.boolean(n, ctx+": unevaluatedProperties")
	case n.Kind == yaml.MappingNode:
		s.AllowAdditional = true
		s.AdditionalProperties = l.schema(n, ctx+": unevaluatedProperties", info.origin)
	default:
		l.expected(n, ctx+": unevaluatedProperties", "true, false or a schema")
		return
	}
	s.PropertiesKeyword = "unevaluatedProperties"
	// What additionalProperties would be: patternProperties reports
	// against it at this key.
	info.keys["additionalProperties"] = key
}

// prefixItems parses prefixItems of an array. A tuple's Go type is a
// struct of one field per position, so the keywords that look at every
// item alike (contains, uniqueItems, enum, const, the applicators) are
// refused beside it.
func (l *loader) prefixItems(info *schemaInfo) {
	s, ctx, v := info.s, info.ctx, info.vals
	n, ok := v["prefixItems"]
	if !ok {
		return
	}
	if n.Kind != yaml.SequenceNode {
		l.expected(n, ctx+": prefixItems", "a list of schemas")
		return
	}
	if len(n.Content) == 0 {
		l.errorf(n, ctx, "prefixItems must not be empty")
		return
	}
	for i, c := range n.Content {
		pctx := fmt.Sprintf("%s: prefixItems[%d]", ctx, i)
		// true is any item there; false none: the array ends before
		// that position (a json.RawMessage field that must stay nil).
		ps := l.booleanValue(c)
		if ps == nil {
			ps = l.schema(c, pctx, info.origin)
		} else if ps.Not != nil && s.MinItems != nil && *s.MinItems > int64(i) {
			l.errorf(c, pctx, "a prefixItems position of false admits no item there, but minItems %d asks for one", *s.MinItems)
		}
		s.PrefixItems = append(s.PrefixItems, ps)
	}
	for _, k := range []string{"contains", "minContains", "maxContains", "uniqueItems", "enum", "const", "allOf", "anyOf", "not", "if", "then", "else"} {
		if _, ok := v[k]; ok {
			l.errorf(info.keys[k], ctx, "%s is not supported beside prefixItems: a tuple's Go type is a struct of one field per position, whose items have no one type to check alike", k)
			delete(v, k)
		}
	}
}

// restItems parses a boolean items, and unevaluatedItems, of an array.
func (l *loader) restItems(info *schemaInfo) {
	s, ctx, v := info.s, info.ctx, info.vals
	s.ItemsKeyword = "items"
	items, hasItems := v["items"]
	if hasItems && isBoolNode(items) {
		if items.Value == "true" {
			s.Items = l.anySchema(items)
		} else {
			s.ClosedItems = true
		}
	}
	n, ok := v["unevaluatedItems"]
	if ok {
		key := info.keys["unevaluatedItems"]
		switch {
		case hasItems:
			l.errorf(key, ctx, "unevaluatedItems has no effect beside items, which evaluates every item after prefixItems: remove one of them")
			ok = false
		case v["contains"] != nil:
			l.errorf(key, ctx, "unevaluatedItems beside contains is not supported: the items contains matches would be evaluated and the others not, which the items' one Go type cannot express (write items)")
			ok = false
		case isBoolNode(n) && n.Value == "true":
			s.Items = l.anySchema(n)
		case isBoolNode(n):
			s.ClosedItems = true
		case n.Kind == yaml.MappingNode:
			s.Items = l.schema(n, ctx+": unevaluatedItems", info.origin)
		default:
			l.expected(n, ctx+": unevaluatedItems", "true, false or a schema")
			ok = false
		}
		if ok {
			s.ItemsKeyword = "unevaluatedItems"
		}
	}
	// Without prefixItems, items: false (or unevaluatedItems: false)
	// admits the empty array only: a slice of any value (json.RawMessage)
	// that must have no item.
	switch {
	case s.ClosedItems && s.MinItems != nil && *s.MinItems > 0 && !s.IsTuple():
		l.errorf(info.keys["minItems"], ctx, "minItems %d beside %s: false admits no array: an array without prefixItems may then have no item", *s.MinItems, s.ItemsKeyword)
	case s.ClosedItems && s.MinItems != nil && *s.MinItems > int64(len(s.PrefixItems)):
		l.errorf(info.keys["minItems"], ctx, "minItems %d exceeds the %d prefixItems positions, after which no item is allowed", *s.MinItems, len(s.PrefixItems))
	}
}
