package spec

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"github.com/pb33f/go-yaml"
	"github.com/pb33f/libopenapi/datamodel/high/base"
)

// The JSON Schema applicators of an OpenAPI schema (oneOf or anyOf beside
// properties, not, if/then/else, dependentRequired, dependentSchemas,
// propertyNames, contains, patternProperties) are mapped onto Applied, the
// model mcpgen.yaml's own applicators use, whenever their subschemas are
// constraint schemas that model can hold: on an object, schemas that
// require its declared properties and constrain the values of its scalar
// ones; on a string, number, integer or boolean, that type's keywords.
// The generated validators then enforce them and the published schema
// carries them. A keyword whose subschemas say more (a property of their
// own, a $ref, a nested object) is dropped in the direction that accepts
// more, with a note that says why.

// objectConstraintKeys are the keywords a constraint schema on an object
// may hold in an OpenAPI document.
var objectConstraintKeys = []string{"type", "title", "description", "$comment", "required", "properties",
	"allOf", "anyOf", "oneOf", "not", "if", "then", "else", "dependentRequired"}

// scalarConstraintKeys are the keywords a constraint schema on a string,
// number, integer or boolean may hold.
var scalarConstraintKeys = []string{"type", "title", "description", "$comment", "enum", "const",
	"pattern", "format", "minLength", "maxLength", "minimum", "maximum", "exclusiveMinimum",
	"exclusiveMaximum", "multipleOf"}

// annotationKeys are ignored in a constraint schema: they change no verdict.
var annotationKeys = []string{"example", "examples", "deprecated", "readOnly", "writeOnly", "default", "nullable"}

// constraintOf maps sp, a subschema that applies to values of on, to a
// constraint schema, or returns "" and why it cannot.
func (l *oaLoader) constraintOf(sp *base.SchemaProxy, on *Schema, mode schemaMode, depth int) (*Schema, string) {
	if sp == nil {
		return nil, "a subschema is missing"
	}
	if sp.IsReference() {
		return nil, "a subschema is a $ref (a constraint schema is written in place)"
	}
	if depth > maxSchemaDepth {
		return nil, "subschemas nest too deep"
	}
	s := sp.Schema()
	if s == nil {
		return nil, "a subschema cannot be read"
	}
	if s.BooleanSchema != nil {
		return nil, "a subschema is a boolean schema"
	}
	p := l.proxyPos(sp)
	switch on.Type {
	case KindObject:
		return l.objectConstraint(sp, s, on, p, mode, depth)
	case KindString, KindInteger, KindNumber, KindBoolean:
		return l.scalarConstraint(sp, s, on.Type, p, mode, depth)
	}
	return nil, fmt.Sprintf("it applies to a value of %s (only objects and strings, numbers, integers and booleans take constraint schemas)", kindNoun(on))
}

// schemaKeys are the keywords written on sp's schema, extensions left out.
func schemaKeys(sp *base.SchemaProxy) []string {
	lo := sp.GoLow()
	if lo == nil {
		return nil
	}
	n := lo.GetValueNode()
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	var out []string
	for i := 0; i+1 < len(n.Content); i += 2 {
		if k := n.Content[i].Value; !strings.HasPrefix(k, "x-") {
			out = append(out, k)
		}
	}
	return out
}

// unsupportedKey is the first keyword of sp that neither allowed nor
// annotationKeys lists, or "".
func unsupportedKey(sp *base.SchemaProxy, allowed []string) string {
	for _, k := range schemaKeys(sp) {
		if !containsString(allowed, k) && !containsString(annotationKeys, k) {
			return k
		}
	}
	return ""
}

func (l *oaLoader) objectConstraint(sp *base.SchemaProxy, s *base.Schema, on *Schema, p Pos, mode schemaMode, depth int) (*Schema, string) {
	if k := unsupportedKey(sp, objectConstraintKeys); k != "" {
		return nil, fmt.Sprintf("a subschema holds %q (a constraint schema on an object may only require and constrain the object's own properties)", k)
	}
	if len(s.Type) > 0 && !(len(s.Type) == 1 && s.Type[0] == "object") {
		return nil, fmt.Sprintf("a subschema's type %v is not the object's", s.Type)
	}
	c := &Schema{Pos: p, Title: s.Title, Description: s.Description, Applied: Applied{Constraint: true}}
	for _, name := range s.Required {
		if why := l.constrainable(on, name); why != "" {
			return nil, why
		}
		if !containsString(c.Requires, name) {
			c.Requires = append(c.Requires, name)
		}
	}
	if s.Properties != nil {
		for name, ps := range s.Properties.FromOldest() {
			if why := l.constrainable(on, name); why != "" {
				return nil, why
			}
			bp := baseProperty(on, name)
			switch t := bp.Schema; {
			case t.Ref != "" || len(t.OneOf) > 0:
				return nil, fmt.Sprintf("a subschema constrains property %q, which is a named type or a union (only properties of type string, number, integer or boolean declared in place can be constrained)", name)
			case t.Type != KindString && t.Type != KindInteger && t.Type != KindNumber && t.Type != KindBoolean:
				return nil, fmt.Sprintf("a subschema constrains property %q of %s (only string, number, integer and boolean properties can be constrained)", name, kindNoun(t))
			}
			pc, why := l.constraintOf(ps, bp.Schema, mode, depth+1)
			if pc == nil {
				return nil, why
			}
			c.Properties = append(c.Properties, &Property{Name: name, Pos: l.proxyPos(ps), Schema: pc})
		}
	}
	if s.DependentRequired != nil {
		deps, why := l.dependencies(s, on)
		if why != "" {
			return nil, why
		}
		c.DependentRequired = deps
	}
	if why := l.applicatorsOf(s, c, on, mode, depth); why != "" {
		return nil, why
	}
	return c, ""
}

// constrainable says why a constraint on the object on cannot name its
// property name, or "".
func (l *oaLoader) constrainable(on *Schema, name string) string {
	bp := baseProperty(on, name)
	switch {
	case bp == nil:
		return fmt.Sprintf("a subschema names %q, which is not a declared property of the object", name)
	case bp.ReadOnly || bp.WriteOnly:
		return fmt.Sprintf("a subschema names %q, which is readOnly or writeOnly (left out of one side of the API)", name)
	}
	return ""
}

func (l *oaLoader) scalarConstraint(sp *base.SchemaProxy, s *base.Schema, kind Kind, p Pos, mode schemaMode, depth int) (*Schema, string) {
	if k := unsupportedKey(sp, scalarConstraintKeys); k != "" {
		return nil, fmt.Sprintf("a subschema on a value of type %s holds %q (only that type's keywords)", kind, k)
	}
	for _, t := range s.Type {
		if Kind(t) != kind && !(kind == KindNumber && t == "integer") {
			return nil, fmt.Sprintf("a subschema's type %q is not the value's type %q", t, kind)
		}
	}
	if s.Pattern != "" {
		if _, err := regexp.Compile(s.Pattern); err != nil {
			return nil, fmt.Sprintf("a subschema's pattern %q is not supported by Go's RE2 regular expressions", s.Pattern)
		}
	}
	c := l.convert(s, p, mode, depth+1)
	c.Type = kind
	c.Nullable = false
	c.Default = nil
	c.Examples = nil
	c.Deprecated = false
	c.AllowAdditional = false
	c.Constraint = true
	return c, ""
}

// dependencies maps dependentRequired over the properties of on.
func (l *oaLoader) dependencies(s *base.Schema, on *Schema) ([]Dependency, string) {
	var out []Dependency
	for prop, names := range s.DependentRequired.FromOldest() {
		if why := l.constrainable(on, prop); why != "" {
			return nil, "dependentRequired: " + why
		}
		d := Dependency{Property: prop, Requires: []string{}}
		for _, n := range names {
			if why := l.constrainable(on, n); why != "" {
				return nil, "dependentRequired: " + why
			}
			if !containsString(d.Requires, n) {
				d.Requires = append(d.Requires, n)
			}
		}
		out = append(out, d)
	}
	return out, ""
}

// applicatorsOf maps allOf (of a constraint schema only: a schema's own
// allOf is merged), anyOf, oneOf, not and if/then/else of s onto c, whose
// values are those of on, or says why it cannot.
func (l *oaLoader) applicatorsOf(s *base.Schema, c, on *Schema, mode schemaMode, depth int) string {
	list := func(sps []*base.SchemaProxy) ([]*Schema, string) {
		var out []*Schema
		for _, sp := range sps {
			x, why := l.constraintOf(sp, on, mode, depth+1)
			if x == nil {
				return nil, why
			}
			out = append(out, x)
		}
		return out, ""
	}
	var why string
	if c.Constraint {
		if c.AllOf, why = list(s.AllOf); why != "" {
			return why
		}
	}
	if c.AnyOfSchemas, why = list(s.AnyOf); why != "" {
		return why
	}
	if c.OneOfSchemas, why = list(s.OneOf); why != "" {
		return why
	}
	one := func(sp *base.SchemaProxy) (*Schema, string) {
		if sp == nil {
			return nil, ""
		}
		return l.constraintOf(sp, on, mode, depth+1)
	}
	if s.Not != nil {
		if c.Not, why = one(s.Not); why != "" {
			return why
		}
	}
	if s.If != nil && (s.Then != nil || s.Else != nil) {
		var i, t, e *Schema
		if i, why = one(s.If); why != "" {
			return why
		}
		if t, why = one(s.Then); why != "" {
			return why
		}
		if e, why = one(s.Else); why != "" {
			return why
		}
		c.If, c.Then, c.Else = i, t, e
	}
	return ""
}

// mapApplicators maps the applicators of s onto out, the schema being
// converted (its type and properties already known), noting each one it
// cannot hold. It reports whether a oneOf or anyOf beside properties was
// mapped, so that it is not taken as a union.
func (l *oaLoader) mapApplicators(s *base.Schema, out *Schema, p Pos, mode schemaMode, depth int) (unionMapped bool) {
	drop := func(kw, why string) {
		l.notef(p, "%s is not supported here: %s; dropped, so more values are accepted", kw, why)
	}
	// A schema whose oneOf or anyOf is a union of types takes no
	// constraint schemas: its value is one of the variants'.
	union := (len(s.OneOf) > 0 || len(s.AnyOf) > 0) && !(len(out.Properties) > 0 && out.Type == KindObject)
	if union {
		out = &Schema{Type: KindAny}
	}
	typed := out.Ref == "" && (out.Type == KindObject || out.Type == KindString || out.Type == KindInteger ||
		out.Type == KindNumber || out.Type == KindBoolean)
	untyped := func(kw string) {
		drop(kw, "the schema it sits on is a union or declares no single type (object, string, number, integer or boolean) for its subschemas to apply to")
	}
	one := func(kw string, sp *base.SchemaProxy) *Schema {
		c, why := l.constraintOf(sp, out, mode, depth+1)
		if c == nil {
			drop(kw, why)
		}
		return c
	}
	if s.Not != nil {
		if typed {
			out.Not = one("not", s.Not)
		} else {
			untyped("not")
		}
	}
	if s.If != nil && (s.Then != nil || s.Else != nil) {
		switch {
		case !typed:
			untyped("if/then/else")
		default:
			probe := &Schema{Applied: Applied{Constraint: true}}
			if why := l.applicatorsOf(&base.Schema{If: s.If, Then: s.Then, Else: s.Else}, probe, out, mode, depth); why != "" {
				drop("if/then/else", why)
			} else {
				out.If, out.Then, out.Else = probe.If, probe.Then, probe.Else
			}
		}
	}
	if s.DependentRequired != nil && s.DependentRequired.Len() > 0 {
		if out.Type != KindObject || out.Ref != "" {
			untyped("dependentRequired")
		} else if deps, why := l.dependencies(s, out); why != "" {
			drop("dependentRequired", why)
		} else {
			out.DependentRequired = deps
		}
	}
	if s.DependentSchemas != nil && s.DependentSchemas.Len() > 0 {
		l.dependentSchemas(s, out, p, mode, depth, drop)
	}
	if s.PropertyNames != nil {
		l.propertyNames(s, out, mode, depth, drop)
	}
	if s.Contains != nil {
		l.containsOf(s, out, mode, depth, drop)
	}
	if s.PatternProperties != nil && s.PatternProperties.Len() > 0 {
		l.patternPropertiesOf(s, out, mode, depth, drop)
	}
	// A oneOf or anyOf beside properties: constraint schemas over them.
	variants, isAny := s.OneOf, false
	if len(variants) == 0 && len(s.AnyOf) > 0 {
		variants, isAny = s.AnyOf, true
	}
	if len(variants) == 0 || len(out.Properties) == 0 || out.Type != KindObject {
		return false
	}
	if tagBesideNamedVariants(s, out) {
		return false // a discriminated union (convert)
	}
	kw := "oneOf"
	if isAny {
		kw = "anyOf"
	}
	var cs []*Schema
	for _, v := range variants {
		c, why := l.constraintOf(v, out, mode, depth+1)
		if c == nil {
			l.notef(p, "%s beside properties is not supported here: %s; the object is kept, open to other properties", kw, why)
			out.AllowAdditional = true
			return true
		}
		cs = append(cs, c)
	}
	if isAny {
		out.AnyOfSchemas = cs
	} else {
		out.OneOfSchemas = cs
	}
	return true
}

// tagBesideNamedVariants reports whether s, converted to out, is an object
// whose one property is its discriminator's tag, beside a oneOf or anyOf
// of $refs (readme-oas-examples' mapping-with-duplicate-schemas): the
// variants say everything about the value, the tag selects among them as
// the mapping says, and the tag's own schema admits no more than the
// mapping's values do, so the object is the discriminated union of the
// variants, as if the tag were declared on each. The variants' required
// properties are then enforced, as they are on any union, instead of the
// object being kept open with the union dropped.
func tagBesideNamedVariants(s *base.Schema, out *Schema) bool {
	d := s.Discriminator
	if d == nil || d.Mapping == nil || d.Mapping.Len() == 0 || len(out.Properties) != 1 ||
		out.Properties[0].Name != d.PropertyName || out.HasApplicators() {
		return false
	}
	variants := s.OneOf
	if len(variants) == 0 {
		variants = s.AnyOf
	}
	for _, v := range variants {
		if !v.IsReference() {
			return false
		}
	}
	// The tag's schema: a string, at most the mapping's values.
	tag := out.Properties[0].Schema
	if tag.Ref != "" || len(tag.OneOf) > 0 || tag.Type != KindString || tag.HasApplicators() {
		return false
	}
	for _, e := range tag.Enum {
		var v string
		if json.Unmarshal(e, &v) != nil {
			return false
		}
		if _, ok := d.Mapping.Get(v); !ok {
			return false
		}
	}
	return len(tag.Enum) > 0
}

func (l *oaLoader) dependentSchemas(s *base.Schema, out *Schema, p Pos, mode schemaMode, depth int, drop func(kw, why string)) {
	if out.Type != KindObject || out.Ref != "" {
		drop("dependentSchemas", "the schema it sits on is not an object")
		return
	}
	var deps []DependentSchema
	for prop, sp := range s.DependentSchemas.FromOldest() {
		if why := l.constrainable(out, prop); why != "" {
			drop("dependentSchemas", why)
			return
		}
		c, why := l.constraintOf(sp, out, mode, depth+1)
		if c == nil {
			drop("dependentSchemas", why)
			return
		}
		deps = append(deps, DependentSchema{Property: prop, Schema: c})
	}
	out.DependentSchemas = deps
}

func (l *oaLoader) propertyNames(s *base.Schema, out *Schema, mode schemaMode, depth int, drop func(kw, why string)) {
	if out.Type != KindObject || out.Ref != "" {
		drop("propertyNames", "the schema it sits on is not an object")
		return
	}
	c, why := l.constraintOf(s.PropertyNames, &Schema{Type: KindString}, mode, depth+1)
	if c == nil {
		drop("propertyNames", why)
		return
	}
	c.Constraint = false // published with its type: a name is a string
	out.PropertyNames = c
}

func (l *oaLoader) containsOf(s *base.Schema, out *Schema, mode schemaMode, depth int, drop func(kw, why string)) {
	items := out.Items
	switch {
	case out.Type != KindArray || out.Ref != "":
		drop("contains", "the schema it sits on is not an array")
		return
	case items == nil || items.Ref != "" || len(items.OneOf) > 0 || items.Nullable:
		drop("contains", "the array's items are not declared in place with one type, not nullable (contains applies to a value of the items' type)")
		return
	case items.Type != KindString && items.Type != KindInteger && items.Type != KindNumber && items.Type != KindBoolean && items.Type != KindObject:
		drop("contains", fmt.Sprintf("the array's items are of %s (only string, number, integer, boolean and object items)", kindNoun(items)))
		return
	}
	c, why := l.constraintOf(s.Contains, items, mode, depth+1)
	if c == nil {
		drop("contains", why)
		return
	}
	minC, maxC := own(s.MinContains), own(s.MaxContains)
	if minC != nil && maxC != nil && *minC > *maxC || minC != nil && *minC < 0 || maxC != nil && *maxC < 0 {
		drop("contains", "minContains and maxContains contradict each other")
		return
	}
	if items.Type != KindObject {
		c.Constraint = false // published with the items' type
	}
	out.Contains, out.MinContains, out.MaxContains = c, minC, maxC
}

// patternPropertiesOf maps patternProperties when the members the patterns
// name can share one Go map with the object's other members: every
// pattern's schema is of one scalar type, declared in place, and the object
// allows no other members or only ones of that type.
func (l *oaLoader) patternPropertiesOf(s *base.Schema, out *Schema, mode schemaMode, depth int, drop func(kw, why string)) {
	fail := func(why string) {
		drop("patternProperties", why)
		out.AllowAdditional = true
		out.AdditionalProperties = nil
	}
	if out.Type != KindObject || out.Ref != "" {
		fail("the schema it sits on is not an object")
		return
	}
	var kind Kind
	var pats []PatternProperty
	for pat, sp := range s.PatternProperties.FromOldest() {
		if _, err := regexp.Compile(pat); err != nil {
			fail(fmt.Sprintf("pattern %q is not supported by Go's RE2 regular expressions", pat))
			return
		}
		ps := l.schema(sp, mode, depth+1)
		switch {
		case ps.Ref != "" || len(ps.OneOf) > 0 || ps.Nullable || ps.HasApplicators():
			fail(fmt.Sprintf("the schema of pattern %q is a named type, a union, nullable or has subschemas (the members a pattern names share one Go map of one scalar type)", pat))
			return
		case ps.Type != KindString && ps.Type != KindInteger && ps.Type != KindNumber && ps.Type != KindBoolean:
			fail(fmt.Sprintf("the schema of pattern %q is of %s (only string, number, integer or boolean)", pat, kindNoun(ps)))
			return
		case kind == "":
			kind = ps.Type
		case ps.Type != kind:
			fail("the patterns' schemas are of different types (the members they name share one Go map)")
			return
		}
		pats = append(pats, PatternProperty{Pattern: pat, Schema: ps})
	}
	ap := out.AdditionalProperties
	switch {
	case !out.AllowAdditional:
	case ap != nil && ap.Ref == "" && len(ap.OneOf) == 0 && !ap.Nullable && ap.Type == kind && !ap.HasApplicators():
	default:
		fail(fmt.Sprintf("the object allows other members that are not of the patterns' type %s (additionalProperties would need to be false or a schema of that type: the members share one Go map)", kind))
		return
	}
	out.PatternProperties = pats
}
