package spec

import (
	"fmt"

	"gopkg.in/yaml.v3"
)

// Collection holds the JSON Schema 2020-12 keywords that constrain the
// members of an object or the items of an array through a subschema,
// without changing the Go type of the value: propertyNames and
// dependentSchemas on objects, contains (with minContains and
// maxContains) on arrays.
type Collection struct {
	// PropertyNames is the string schema every property name of the
	// object must satisfy (its Type is always string).
	PropertyNames *Schema
	// Contains is the schema of the items contains counts. It applies to
	// values of the array's item type and takes that type (none when the
	// items are any JSON value; a constraint subschema, as in allOf, when
	// they are objects); MinContains (default 1) and MaxContains bound how
	// many items match it.
	Contains    *Schema
	MinContains *int64
	MaxContains *int64
	// DependentSchemas lists, per property, a constraint schema the whole
	// object must satisfy when the property is present (declaration order).
	DependentSchemas []DependentSchema
	// PatternProperties lists, in declaration order, the schema every
	// member of the object whose name matches a pattern (an RE2 regular
	// expression, unanchored) must satisfy; every matching pattern
	// applies. The schemas all have one scalar type (string, integer,
	// number or boolean), or all none (any JSON value, compared with const
	// or enum only): the Go type of the object's other members, which
	// additionalProperties, when it is a schema, shares. It then applies
	// only to the members no property and no pattern names.
	PatternProperties []PatternProperty
}

// PatternProperty is one entry of patternProperties.
type PatternProperty struct {
	Pattern string
	Schema  *Schema
}

// DependentSchema is one entry of dependentSchemas.
type DependentSchema struct {
	Property string
	Schema   *Schema
}

func (c *Collection) present() bool {
	return c.PropertyNames != nil || c.Contains != nil || len(c.DependentSchemas) > 0 || len(c.PatternProperties) > 0
}

func (c *Collection) subschemas() []*Schema {
	var out []*Schema
	for _, s := range []*Schema{c.PropertyNames, c.Contains} {
		if s != nil {
			out = append(out, s)
		}
	}
	for _, d := range c.DependentSchemas {
		out = append(out, d.Schema)
	}
	for _, p := range c.PatternProperties {
		out = append(out, p.Schema)
	}
	return out
}

// collection parses propertyNames, contains, minContains, maxContains and
// dependentSchemas. localChecks reports them on a schema of another type.
func (l *loader) collection(info *schemaInfo) {
	s, ctx, v := info.s, info.ctx, info.vals
	if n, ok := v["propertyNames"]; ok && s.Type == KindObject && (n.ShortTag() == "!!bool" || l.schemaNode(n, ctx+": propertyNames")) {
		// A property name is a string: the subschema holds string
		// keywords (and applicators over them).
		s.PropertyNames = l.constraint(n, ctx+": propertyNames", info.origin, &Schema{Type: KindString})
		// Published with its type: the name is a string whatever the
		// object's own schema says.
		s.PropertyNames.Constraint = false
	}
	if s.Type == KindArray {
		l.contains(info)
	}
	if n, ok := v["dependentSchemas"]; ok && s.Type == KindObject {
		ps, _ := l.mapping(n, ctx+": dependentSchemas")
		for _, p := range ps {
			if p.val.ShortTag() != "!!bool" && !l.schemaNode(p.val, fmt.Sprintf("%s: dependentSchemas: %q", ctx, p.key.Value)) {
				continue
			}
			if l.subschemaProperty(s, p.key.Value, p.key) == nil {
				l.errorf(p.key, ctx, "dependentSchemas names %q, which is not a property%s", p.key.Value, undeclaredHint)
				continue
			}
			c := l.constraint(p.val, fmt.Sprintf("%s: dependentSchemas: %q", ctx, p.key.Value), info.origin, s)
			s.DependentSchemas = append(s.DependentSchemas, DependentSchema{Property: p.key.Value, Schema: c})
		}
	}
	if s.Type == KindObject {
		l.patternProperties(info)
	}
}

// patternProperties parses patternProperties. The members a pattern
// names are kept, with the additional ones, in one Go map beside the
// struct's fields, so every pattern's schema (and additionalProperties
// when it is a schema) must have the same scalar type: the map's values
// are of that type, and each member is checked against the schemas of
// the patterns its name matches.
func (l *loader) patternProperties(info *schemaInfo) {
	s, ctx, v := info.s, info.ctx, info.vals
	n, ok := v["patternProperties"]
	if !ok {
		return
	}
	ps, _ := l.mapping(n, ctx+": patternProperties")
	var kind Kind
	var first *yaml.Node
	for _, p := range ps {
		pctx := fmt.Sprintf("%s: patternProperties: %q", ctx, p.key.Value)
		if _, err := l.compile(p.key.Value); err != nil {
			l.errorf(p.key, ctx, "patternProperties pattern %q is not supported by Go's RE2 regular expressions (no lookaround or backreferences): %v", p.key.Value, err)
			continue
		}
		ps := l.booleanValue(p.val)
		if ps == nil {
			if !l.schemaNode(p.val, pctx) {
				continue
			}
			ps = l.schema(p.val, pctx, info.origin)
		}
		switch {
		case ps.Ref != "" || len(ps.OneOf) > 0:
			l.errorf(p.val, pctx, "a patternProperties schema must be declared inline with a type (string, integer, number or boolean): the members it names share one Go map with the object's other members")
			continue
		case ps.Nullable:
			l.errorf(p.val, pctx, "a nullable patternProperties schema is not supported (a null member has no value in the object's Go map)")
			continue
		case ps.Type == KindAny:
			// Members of any JSON value (json.RawMessage): the schema may
			// only compare whole values (const, enum), which need no type.
			// A boolean schema is any value (true) or none (false).
			bad := false
			if p.val.Kind == yaml.MappingNode {
				kvs, _ := l.mapping(p.val, pctx)
				for _, kv := range kvs {
					if contains(constraintRefused, kv.key.Value) {
						l.errorf(kv.key, pctx, "keyword %q is not supported in a patternProperties schema without type", kv.key.Value)
						bad = true
					}
				}
			}
			if bad {
				continue
			}
		case ps.Type != KindString && ps.Type != KindInteger && ps.Type != KindNumber && ps.Type != KindBoolean:
			l.errorf(p.val, pctx, "a patternProperties schema has type %s: declare type string, integer, number or boolean, or none (the members it names are kept in a Go map of that type, or of json.RawMessage)", string(ps.Type))
			continue
		case kind == "":
			kind, first = ps.Type, p.key
		case ps.Type != kind:
			l.errorf(p.val, pctx, "type %s differs from type %s of pattern %q: the members every pattern names share one Go map, so the patterns' schemas need one type", string(ps.Type), string(kind), first.Value)
			continue
		}
		s.PatternProperties = append(s.PatternProperties, PatternProperty{Pattern: p.key.Value, Schema: ps})
	}
	if kind == "" || !s.AllowAdditional {
		return
	}
	ap := s.AdditionalProperties
	switch {
	case kind == KindAny && (ap == nil || ap.Type == KindAny && ap.Ref == "" && len(ap.OneOf) == 0):
		// Members of any value, in a map of json.RawMessage.
	case ap == nil:
		l.errorf(info.keys["additionalProperties"], ctx, "additionalProperties: true beside patternProperties is not supported (the other members would be of any type, the pattern members of type %s, in one Go map): write additionalProperties: false or a schema of type %s", string(kind), string(kind))
	case kind == KindAny:
		l.errorf(info.keys["additionalProperties"], ctx, "additionalProperties beside patternProperties without type must be true, false or an inline schema without type: the members of both share one Go map of json.RawMessage")
	case ap.Ref != "" || len(ap.OneOf) > 0 || ap.Nullable || ap.Type != kind:
		l.errorf(info.keys["additionalProperties"], ctx, "additionalProperties beside patternProperties must be false or an inline, non-nullable schema of the patterns' type %s: the members of both share one Go map", string(kind))
	}
}

// contains parses contains, minContains and maxContains of an array.
func (l *loader) contains(info *schemaInfo) {
	s, ctx, v := info.s, info.ctx, info.vals
	count := func(k string) *int64 {
		n, ok := v[k]
		if !ok {
			return nil
		}
		x, ok := l.integer(n, ctx+": "+k)
		if !ok {
			return nil
		}
		if x < 0 {
			l.errorf(n, ctx, "%s must not be negative, got %d", k, x)
			return nil
		}
		return &x
	}
	s.MinContains, s.MaxContains = count("minContains"), count("maxContains")
	n, ok := v["contains"]
	if ok && !isBoolNode(n) && !l.schemaNode(n, ctx+": contains") {
		return
	}
	if !ok {
		for _, k := range []string{"minContains", "maxContains"} {
			if _, ok := v[k]; ok {
				l.errorf(info.keys[k], ctx, "%s needs contains", k)
			}
		}
		return
	}
	if s.MinContains != nil && s.MaxContains != nil && *s.MinContains > *s.MaxContains {
		l.errorf(info.keys["minContains"], ctx, "minContains %d exceeds maxContains %d", *s.MinContains, *s.MaxContains)
	}
	if s.MaxItems != nil && s.MinContains != nil && *s.MinContains > *s.MaxItems {
		l.errorf(info.keys["minContains"], ctx, "minContains %d exceeds maxItems %d: no array can hold that many matching items", *s.MinContains, *s.MaxItems)
	}
	items := s.Items
	if items == nil {
		items = &Schema{Type: KindAny}
	}
	cctx := ctx + ": contains"
	switch {
	case items.Ref != "" || len(items.OneOf) > 0:
		l.errorf(info.keys["contains"], ctx, "contains needs the array's items declared inline with a type (string, integer, number, boolean or object) or left out: it applies to a value of the items' type")
		return
	case items.Nullable:
		l.errorf(info.keys["contains"], ctx, "contains is not supported on an array of nullable items (a null item would match a subschema of the items' type in JSON Schema but not in Go)")
		return
	}
	switch items.Type {
	case KindString, KindInteger, KindNumber, KindBoolean:
		s.Contains = l.constraint(n, cctx, info.origin, items)
		s.Contains.Constraint = false // published with the items' type
	case KindObject:
		// A constraint subschema of the item object, as in its allOf.
		s.Contains = l.constraint(n, cctx, info.origin, items)
	case KindAny:
		// Items of any JSON value: the subschema may only compare whole
		// values (const, enum), which need no type. true matches every
		// item, false none.
		if b := l.booleanValue(n); b != nil {
			s.Contains = b
			return
		}
		if ps, ok := l.mapping(n, cctx); ok {
			for _, p := range ps {
				if contains(constraintRefused, p.key.Value) {
					l.errorf(p.key, cctx, "keyword %q is not supported in contains (it applies to the items, whose Go type is the array's)", p.key.Value)
				}
			}
		}
		s.Contains = l.schema(n, cctx, info.origin)
		if s.Contains.Type != KindAny {
			l.errorf(n, cctx, "type %q is not the items' type (they have none): declare items: {type: %s} on the array", string(s.Contains.Type), string(s.Contains.Type))
		}
	default:
		l.errorf(info.keys["contains"], ctx, "contains is not supported on an array of %s items (only string, integer, number, boolean and object items, or items of any value)", string(items.Type))
	}
}

// schemaNode reports whether n is a schema mcpgen reads (a mapping), and
// reports once when it is not: boolean schemas are not in mcpgen's subset.
func (l *loader) schemaNode(n *yaml.Node, ctx string) bool {
	if n.Kind == yaml.MappingNode {
		return true
	}
	if n.Kind == yaml.ScalarNode && n.ShortTag() == "!!bool" {
		l.errorf(n, ctx, "a boolean schema is not supported: write a schema (a mapping; {} matches any value)")
	} else {
		l.expected(n, ctx, "a schema (a mapping)")
	}
	return false
}
