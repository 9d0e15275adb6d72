package spec

import (
	"fmt"
	"regexp"
	"strings"

	"gopkg.in/yaml.v3"
)

// Dialect2020 is the only "$schema" a spec may declare: mcpgen reads and
// publishes JSON Schema draft 2020-12.
const Dialect2020 = "https://json-schema.org/draft/2020-12/schema"

// Applied holds the JSON Schema 2020-12 keywords that apply subschemas to
// the value of the schema itself (allOf, anyOf, not, if/then/else), the
// object keyword dependentRequired, and the core keywords $schema, $anchor
// and $comment.
//
// The subschemas of allOf, anyOf, not, if, then and else are constraint
// schemas (Constraint is set on them): they take the type of the schema
// they sit on and only narrow its values, so the Go type of the value is
// that schema's. On an object they may require properties (Requires) and
// constrain the values of its declared properties (Properties, whose
// schemas are checked against those properties' values); on a string,
// number, integer or boolean they carry that type's validation keywords.
type Applied struct {
	AllOf        []*Schema
	AnyOfSchemas []*Schema
	// OneOfSchemas are constraint schemas of which exactly one must
	// match: an OpenAPI document's oneOf beside properties
	// ("oneOf: [{required: [a]}, {required: [b]}]"). In mcpgen.yaml,
	// oneOf is a union of types (Schema.OneOf) instead.
	OneOfSchemas []*Schema
	Not          *Schema
	If           *Schema
	Then         *Schema
	Else         *Schema
	// DependentRequired lists, per property, the properties that must be
	// present when it is (object schemas only; declaration order).
	DependentRequired []Dependency

	// Dialect is the "$schema" declared on a tool input or output ("" when
	// none): published as the first member of the tool's schema.
	Dialect string
	// Anchor is the "$anchor" of a named type: the type is published under
	// "$defs" with it, and "$ref: '#Anchor'" refers to the type.
	Anchor string
	// Comment is the "$comment", published as it is.
	Comment string
	// ID is the "$id" of a named type: "$ref" with the same URI refers
	// to the type (schema_ids.go). It is not published.
	ID string

	// Constraint marks a subschema of allOf, anyOf, not, if, then or else.
	Constraint bool
	// OnAny marks a constraint on a value of any type (a json.RawMessage,
	// schema_untyped.go): its Type is its own, checked on the raw value.
	OnAny bool
	// Requires are the properties a constraint schema requires; they name
	// properties of the object it applies to.
	Requires []string
	// Unevaluated is the unevaluatedProperties (true or false) of a
	// constraint schema on an object; nil when it has none
	// (schema_unevaluated.go).
	Unevaluated *bool
	// UnevaluatedKeyword is "additionalProperties" when Unevaluated was
	// written so (it means the same in a subschema without subschemas),
	// "" for unevaluatedProperties.
	UnevaluatedKeyword string

	// Collection holds propertyNames, contains and dependentSchemas
	// (schema_collections.go).
	Collection
}

// Dependency is one entry of dependentRequired.
type Dependency struct {
	Property string
	Requires []string
}

// HasApplicators reports whether s carries a keyword that constrains its
// value through subschemas or dependentRequired.
func (s *Schema) HasApplicators() bool {
	a := &s.Applied
	return len(a.AllOf) > 0 || len(a.AnyOfSchemas) > 0 || len(a.OneOfSchemas) > 0 || a.Not != nil ||
		a.If != nil && (a.Then != nil || a.Else != nil) || len(a.DependentRequired) > 0 ||
		a.Collection.present()
}

// Subschemas returns the constraint subschemas of s, in keyword order.
func (s *Schema) Subschemas() []*Schema {
	a := &s.Applied
	out := append(append(append([]*Schema(nil), a.AllOf...), a.AnyOfSchemas...), a.OneOfSchemas...)
	for _, c := range []*Schema{a.Not, a.If, a.Then, a.Else} {
		if c != nil {
			out = append(out, c)
		}
	}
	return append(out, a.Collection.subschemas()...)
}

var (
	anchorRE = regexp.MustCompile(`^[A-Za-z_][-A-Za-z0-9._]*$`)
	// applicatorKeywords are the keywords whose subschemas are
	// constraint schemas.
	applicatorKeywords = []string{"allOf", "anyOf", "not", "if", "then", "else"}
	// constraintRefused are the keywords a constraint schema cannot carry:
	// they would change the Go type, the wire name or the default of the
	// value it applies to, or need a type of their own.
	constraintRefused = []string{"$ref", "oneOf", "discriminator", "x-mcp-header", "go", "nullable", "$anchor", "$schema", "default", "additionalProperties", "items",
		"prefixItems", "unevaluatedItems", "unevaluatedProperties"}
	// arrayConstraintRefused are the array keywords a constraint schema
	// of an array cannot carry besides constraintRefused: contains needs
	// the items' type, which the subschema does not declare, and enum and
	// const compare whole arrays, which the array itself can say.
	arrayConstraintRefused = []string{"contains", "minContains", "maxContains", "enum", "const"}
	// objectConstraintKeywords are what a constraint schema on an object
	// may hold.
	objectConstraintKeywords = []string{"type", "title", "description", "$comment", "required", "properties", "minProperties", "maxProperties", "allOf", "anyOf", "not", "if", "then", "else", "dependentRequired"}
)

// anchorRef reports whether ref is a plain-name fragment ("#name"), and
// the name.
func anchorRef(ref string) (string, bool) {
	if !strings.HasPrefix(ref, "#") || strings.HasPrefix(ref, "#/") {
		return "", false
	}
	return ref[1:], anchorRE.MatchString(ref[1:])
}

// applicators parses the keywords of Applied on a schema whose own
// keywords are parsed.
func (l *loader) applicators(info *schemaInfo) {
	s, ctx, v := info.s, info.ctx, info.vals
	kw := func(k string) string { return ctx + ": " + k }
	if n, ok := v["$schema"]; ok {
		if d, ok := l.str(n, kw("$schema")); ok {
			if strings.TrimSuffix(d, "#") != Dialect2020 {
				l.errorf(n, ctx, "$schema %q is not supported: mcpgen reads JSON Schema 2020-12 only (%s)", d, Dialect2020)
			} else if info.origin != originInput && info.origin != originOutput {
				l.errorf(n, ctx, "$schema belongs on a tool's input or output (the root of a published schema)")
			} else {
				s.Dialect = Dialect2020
			}
		}
	}
	if n, ok := v["$anchor"]; ok {
		if a, ok := l.str(n, kw("$anchor")); ok {
			if !anchorRE.MatchString(a) {
				l.errorf(n, ctx, "$anchor %q must be a plain name (a letter or _, then letters, digits, -, _ or .)", a)
			} else {
				s.Anchor = a
			}
		}
	}
	if n, ok := v["$comment"]; ok {
		if c, ok := l.str(n, kw("$comment")); ok {
			s.Comment = c
		}
	}
	l.schemaID(info)
	if n, ok := v["dependentRequired"]; ok {
		s.DependentRequired = l.dependentRequired(n, kw("dependentRequired"), s)
	}
	l.collection(info)
	present := false
	for _, k := range applicatorKeywords {
		if _, ok := v[k]; ok {
			present = true
		}
	}
	if !present {
		return
	}
	if s.Ref != "" || len(s.OneOf) > 0 {
		return // localChecks reports the combination
	}
	switch s.Type {
	case KindObject, KindArray, KindString, KindInteger, KindNumber, KindBoolean:
	case KindAny:
		l.untypedSubschemas(info)
		return
	default:
		for _, k := range applicatorKeywords {
			if _, ok := v[k]; ok {
				l.errorf(info.keys[k], ctx, "%s is not supported on type %q (only on object, array, string, integer, number and boolean schemas)", k, string(s.Type))
				break
			}
		}
		return
	}
	l.subschemas(info, s)
}

// subschemas parses allOf, anyOf, not, if, then and else of info as
// constraint schemas on values of base.
func (l *loader) subschemas(info *schemaInfo, base *Schema) {
	l.parseApplicators(info, func(n *yaml.Node, ctx string) *Schema {
		return l.constraint(n, ctx, info.origin, base)
	})
}

// parseApplicators sets allOf, anyOf, not, if, then and else of info.s, each
// subschema parsed by parse (a constraint on a typed value, or on a value
// of any type).
func (l *loader) parseApplicators(info *schemaInfo, parse func(n *yaml.Node, ctx string) *Schema) {
	s, ctx, v := info.s, info.ctx, info.vals
	list := func(k string) []*Schema {
		n, ok := v[k]
		if !ok {
			return nil
		}
		if n.Kind != yaml.SequenceNode {
			l.expected(n, ctx+": "+k, "a list of schemas")
			return nil
		}
		if len(n.Content) == 0 {
			l.errorf(n, ctx, "%s must not be empty", k)
		}
		var out []*Schema
		for i, c := range n.Content {
			out = append(out, parse(c, fmt.Sprintf("%s: %s[%d]", ctx, k, i)))
		}
		return out
	}
	one := func(k string) *Schema {
		if n, ok := v[k]; ok {
			return parse(n, ctx+": "+k)
		}
		return nil
	}
	s.AllOf = list("allOf")
	s.AnyOfSchemas = list("anyOf")
	s.Not, s.If, s.Then, s.Else = one("not"), one("if"), one("then"), one("else")
	for _, k := range []string{"then", "else"} {
		if _, ok := v[k]; ok && s.If == nil {
			l.errorf(info.keys[k], ctx, "%s needs if", k)
		}
	}
}

// constraint parses a subschema of allOf, anyOf, not, if, then or else
// that applies to values of base.
func (l *loader) constraint(n *yaml.Node, ctx string, o origin, base *Schema) *Schema {
	t := base.Type
	if t == KindObject {
		t = KindAny // an object's constraints state no type
	}
	if b := l.booleanConstraint(n, t, false); b != nil {
		return b
	}
	if base.Type != KindObject {
		// A scalar's or an array's constraints are that type's keywords:
		// parsed as a schema of the base's type.
		if ps, ok := l.mapping(n, ctx); ok {
			for _, p := range ps {
				if contains(constraintRefused, p.key.Value) {
					l.errorf(p.key, ctx, "keyword %q is not supported in a constraint subschema (it applies to the value of the schema it sits on, whose Go type is that schema's)", p.key.Value)
				} else if base.Type == KindArray && contains(arrayConstraintRefused, p.key.Value) {
					l.errorf(p.key, ctx, "keyword %q is not supported in a constraint subschema of an array (write it on the array itself)", p.key.Value)
				}
			}
		}
		s := l.schemaImplied(n, ctx, o, base.Type)
		if s.Type != base.Type {
			l.errorf(n, ctx, "type %q differs from the type %q of the schema this subschema applies to", string(s.Type), string(base.Type))
		}
		s.Constraint = true
		return s
	}
	s := &Schema{Pos: l.pos(n), Applied: Applied{Constraint: true}}
	info := &schemaInfo{s: s, ctx: ctx, node: n, origin: o, keys: map[string]*yaml.Node{}, vals: map[string]*yaml.Node{}}
	ps, ok := l.mapping(n, ctx)
	if !ok {
		return s
	}
	for _, p := range ps {
		k := p.key.Value
		if !contains(objectConstraintKeywords, k) && k != "unevaluatedProperties" && k != "additionalProperties" {
			l.errorf(p.key, ctx, "keyword %q is not supported in a constraint subschema of an object (use %s)", k, strings.Join(objectConstraintKeywords, ", "))
			continue
		}
		info.keys[k] = p.key
		info.vals[k] = p.val
	}
	v := info.vals
	if n, ok := v["type"]; ok {
		if t, ok := l.str(n, ctx+": type"); ok && Kind(t) != KindObject {
			l.errorf(n, ctx, "type %q differs from the type \"object\" of the schema this subschema applies to", t)
		}
	}
	if n, ok := v["title"]; ok {
		s.Title, _ = l.str(n, ctx+": title")
	}
	if n, ok := v["description"]; ok {
		s.Description, _ = l.str(n, ctx+": description")
	}
	if n, ok := v["$comment"]; ok {
		s.Comment, _ = l.str(n, ctx+": $comment")
	}
	count := func(k string) *int64 {
		n, ok := v[k]
		if !ok {
			return nil
		}
		x, ok := l.integer(n, ctx+": "+k)
		if ok && x < 0 {
			l.errorf(n, ctx, "%s must not be negative, got %d", k, x)
		}
		if !ok || x < 0 {
			return nil
		}
		return &x
	}
	// The members the object's value has, counted as on the object.
	s.MinProperties, s.MaxProperties = count("minProperties"), count("maxProperties")
	if n, ok := v["required"]; ok {
		if n.Kind != yaml.SequenceNode {
			l.expected(n, ctx+": required", "a list of property names")
		} else {
			for _, at := range n.Content {
				name, ok := l.str(at, ctx+": required")
				if !ok {
					continue
				}
				if l.subschemaProperty(base, name, at) == nil {
					l.errorf(at, ctx, "required names %q, which is not a property of the object this subschema applies to%s", name, undeclaredHint)
					continue
				}
				if contains(s.Requires, name) {
					l.errorf(at, ctx, "required lists %q more than once", name)
					continue
				}
				s.Requires = append(s.Requires, name)
			}
		}
	}
	if n, ok := v["properties"]; ok {
		props, _ := l.mapping(n, ctx+": properties")
		for _, p := range props {
			bp := l.subschemaProperty(base, p.key.Value, p.key)
			if bp == nil {
				l.errorf(p.key, ctx, "properties names %q, which is not a property of the object this subschema applies to%s", p.key.Value, undeclaredHint)
				continue
			}
			pctx := fmt.Sprintf("%s: property %q", ctx, p.key.Value)
			var ps *Schema
			switch bp.Schema.Type {
			case KindString, KindInteger, KindNumber, KindBoolean:
				ps = l.constraint(p.val, pctx, o, bp.Schema)
			case KindAny:
				if bp.Schema.Ref == "" {
					ps = l.rawConstraint(p.val, pctx, o)
					break
				}
				// A named type: its kind is known once types are; the
				// check pass holds it to a scalar.
				ps = l.schema(p.val, pctx, o)
				ps.Constraint = true
				l.refConstraints = append(l.refConstraints, refConstraint{bp.Schema, ps, p.key, ctx})
			default:
				l.errorf(p.key, ctx, "property %q is of type %q: a constraint subschema may only constrain string, integer, number and boolean properties", p.key.Value, string(bp.Schema.Type))
				continue
			}
			s.Properties = append(s.Properties, &Property{Name: p.key.Value, Pos: l.pos(p.key), Schema: ps})
		}
	}
	if n, ok := v["dependentRequired"]; ok {
		s.DependentRequired = l.dependentRequired(n, ctx+": dependentRequired", base)
	}
	l.subschemas(info, base)
	l.innerUnevaluated(info, base)
	return s
}

// refConstraint is a constraint on a property whose schema is a $ref,
// checked once types are known.
type refConstraint struct {
	prop, constraint *Schema
	key              *yaml.Node
	ctx              string
}

// baseProperty is the property name of the object base, or nil.
func baseProperty(base *Schema, name string) *Property {
	for _, p := range base.Properties {
		if p.Name == name {
			return p
		}
	}
	return nil
}

// dependentRequired parses {property: [required, ...]} over the
// properties of base.
func (l *loader) dependentRequired(n *yaml.Node, ctx string, base *Schema) []Dependency {
	if base.Type != KindObject {
		l.errorf(n, ctx, "dependentRequired applies to object schemas only")
		return nil
	}
	ps, _ := l.mapping(n, ctx)
	var out []Dependency
	for _, p := range ps {
		if baseProperty(base, p.key.Value) == nil {
			l.errorf(p.key, ctx, "%q is not a property", p.key.Value)
			continue
		}
		d := Dependency{Property: p.key.Value, Requires: []string{}}
		if p.val.Kind != yaml.SequenceNode {
			l.expected(p.val, ctx, "a list of property names")
			continue
		}
		for _, at := range p.val.Content {
			name, ok := l.str(at, ctx)
			if !ok {
				continue
			}
			if baseProperty(base, name) == nil {
				l.errorf(at, ctx, "%q is not a property", name)
				continue
			}
			if contains(d.Requires, name) {
				l.errorf(at, ctx, "%q is listed more than once", name)
				continue
			}
			d.Requires = append(d.Requires, name)
		}
		out = append(out, d)
	}
	return out
}

// checkApplicators is the part of the second pass the keywords of Applied
// need: anchors are unique and on named types, "$ref: '#anchor'" names
// one, and constraints on properties of named types constrain scalars.
func (l *loader) checkApplicators(api *API) {
	anchors := map[string]string{}
	roots := map[*Schema]bool{}
	for _, nt := range api.Types {
		roots[nt.Schema] = true
		if a := nt.Schema.Anchor; a != "" {
			if other, dup := anchors[a]; dup {
				info := l.infoOf(nt.Schema)
				l.errorf(info.vals["$anchor"], info.ctx, "$anchor %q is already the anchor of type %q", a, other)
				continue
			}
			anchors[a] = nt.Name
		}
	}
	for _, info := range l.infos {
		if info.s.Anchor != "" && !roots[info.s] {
			l.errorf(info.vals["$anchor"], info.ctx, "$anchor belongs on a named type (under types), which is published under $defs")
		}
		if info.anchorRef != "" {
			if name, ok := anchors[info.anchorRef]; ok {
				info.s.Ref = name
			} else {
				l.errorf(info.vals["$ref"], info.ctx, "$ref \"#%s\" names no $anchor of a type", info.anchorRef)
			}
		}
	}
	l.checkIDs(api, roots)
	for _, rc := range l.refConstraints {
		t := l.resolve(rc.prop)
		if t == nil {
			continue
		}
		switch t.Type {
		case KindString, KindInteger, KindNumber, KindBoolean:
			if rc.constraint.Type != KindAny && rc.constraint.Type != t.Type {
				l.errorf(rc.key, rc.ctx, "type %q differs from the property's type %q", string(rc.constraint.Type), string(t.Type))
			}
			// The constraint is checked as a value of the named type.
			rc.constraint.Type = t.Type
		default:
			l.errorf(rc.key, rc.ctx, "property %q is a %s: a constraint subschema may only constrain string, integer, number and boolean properties", rc.key.Value, kindNoun(t))
		}
	}
}

func kindNoun(s *Schema) string {
	if s.Type == KindAny {
		return "value of any type"
	}
	return string(s.Type)
}
