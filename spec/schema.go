package spec

import (
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"strings"

	"gopkg.in/yaml.v3"
)

// origin says which part of the spec a schema belongs to; x-mcp-header is
// only legal in tool inputs.
type origin int

const (
	originType origin = iota
	originInput
	originOutput
	originVariable
)

// schemaInfo is what the second pass needs to know about a parsed schema:
// where its keywords are and the JSON values to check against it.
type schemaInfo struct {
	s      *Schema
	ctx    string
	node   *yaml.Node
	origin origin
	// keys maps each keyword present to its key node.
	keys map[string]*yaml.Node
	vals map[string]*yaml.Node
	// values are default, examples and enum/const entries, checked against
	// the schema once refs can be resolved.
	values []valueInfo
	// complete is the `complete:` entry of a template variable.
	complete *pair
	// anchorRef is the anchor a "$ref: '#name'" names, resolved to a
	// type once every type is known (schema_applicators.go).
	anchorRef string
	// idRef is the $id a "$ref" that is neither a type name nor an
	// anchor names, resolved once every type is known (schema_ids.go).
	idRef string
}

type valueInfo struct {
	label string
	node  *yaml.Node
	v     any
	// self is true for enum and const entries, which are not checked
	// against the enum and const they belong to.
	self bool
}

// keyNode is the key node of keyword k, or the schema node when k is absent.
func (i *schemaInfo) keyNode(k string) *yaml.Node {
	if n, ok := i.keys[k]; ok {
		return n
	}
	return i.node
}

// infoOf finds the schemaInfo of s.
func (l *loader) infoOf(s *Schema) *schemaInfo {
	if info, ok := l.bySchema[s]; ok {
		return info
	}
	return &schemaInfo{s: s, keys: map[string]*yaml.Node{}, vals: map[string]*yaml.Node{}}
}

var schemaKeywords = []string{
	"type", "$ref", "title", "description", "nullable", "default", "examples", "enum", "const", "deprecated",
	"minLength", "maxLength", "pattern", "format", "contentEncoding", "contentMediaType",
	"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf",
	"items", "minItems", "maxItems", "uniqueItems",
	"properties", "required", "additionalProperties", "minProperties", "maxProperties",
	"oneOf", "discriminator", "x-mcp-header", "go",
	"allOf", "anyOf", "not", "if", "then", "else", "dependentRequired", "$schema", "$anchor", "$comment",
	"propertyNames", "contains", "minContains", "maxContains", "dependentSchemas", "patternProperties",
	"prefixItems", "unevaluatedItems", "unevaluatedProperties",
}

// keywordKinds lists the types each type-specific keyword applies to.
var keywordKinds = map[string][]Kind{
	"minLength":             {KindString},
	"maxLength":             {KindString},
	"pattern":               {KindString},
	"format":                {KindString},
	"contentEncoding":       {KindString},
	"contentMediaType":      {KindString},
	"minimum":               {KindInteger, KindNumber},
	"maximum":               {KindInteger, KindNumber},
	"exclusiveMinimum":      {KindInteger, KindNumber},
	"exclusiveMaximum":      {KindInteger, KindNumber},
	"multipleOf":            {KindInteger, KindNumber},
	"items":                 {KindArray},
	"minItems":              {KindArray},
	"maxItems":              {KindArray},
	"uniqueItems":           {KindArray},
	"properties":            {KindObject},
	"required":              {KindObject},
	"additionalProperties":  {KindObject},
	"minProperties":         {KindObject},
	"maxProperties":         {KindObject},
	"propertyNames":         {KindObject},
	"dependentSchemas":      {KindObject},
	"patternProperties":     {KindObject},
	"contains":              {KindArray},
	"minContains":           {KindArray},
	"maxContains":           {KindArray},
	"prefixItems":           {KindArray},
	"unevaluatedItems":      {KindArray},
	"unevaluatedProperties": {KindObject},
}

// refCompanions may sit beside $ref; oneOfCompanions beside oneOf.
var (
	refCompanions   = []string{"$ref", "title", "description", "nullable", "deprecated", "default", "examples", "x-mcp-header", "$comment", "$id"}
	oneOfCompanions = []string{"oneOf", "discriminator", "title", "description", "nullable", "deprecated", "$comment"}
	knownFormats    = []string{"date", "date-time", "email", "uri", "uuid"}
	// headerTokenRE is an RFC 9110 token (1*tchar).
	headerTokenRE = regexp.MustCompile("^[!#$%&'*+\\-.^_`|~0-9A-Za-z]+$")
)

func (l *loader) schema(n *yaml.Node, ctx string, o origin) *Schema {
	return l.schemaImplied(n, ctx, o, KindAny)
}

// schemaImplied parses one schema node; implied is the type assumed when
// the node states none (object for tool inputs, string for variables).
func (l *loader) schemaImplied(n *yaml.Node, ctx string, o origin, implied Kind) *Schema {
	s := &Schema{Pos: l.pos(n)}
	info := &schemaInfo{s: s, ctx: ctx, node: n, origin: o, keys: map[string]*yaml.Node{}, vals: map[string]*yaml.Node{}}
	l.infos = append(l.infos, info)
	l.bySchema[s] = info
	if n.Kind == yaml.ScalarNode && n.ShortTag() == "!!str" {
		switch Kind(n.Value) {
		case KindObject, KindString, KindInteger, KindNumber, KindBoolean, KindArray:
			l.errorf(n, ctx, "expected a schema, got %q (write {type: %s})", n.Value, n.Value)
			return s
		}
	}
	ps, ok := l.mapping(n, ctx)
	if !ok {
		return s
	}
	for _, p := range ps {
		k := p.key.Value
		if o == originVariable && k == "complete" {
			pc := p
			info.complete = &pc
			continue
		}
		if !contains(schemaKeywords, k) && k != "$id" {
			if why, ok := refusedKeywords[k]; ok {
				l.errorf(p.key, ctx, "keyword %q is not supported: %s", k, why)
			} else if m := suggest(k, schemaKeywords); m != "" {
				l.errorf(p.key, ctx, "unknown keyword %q (did you mean %q?)", k, m)
			} else {
				l.errorf(p.key, ctx, "unknown keyword %q", k)
			}
			continue
		}
		info.keys[k] = p.key
		info.vals[k] = p.val
	}
	kw := func(k string) string { return ctx + ": " + k }
	v := info.vals

	if n, ok := v["type"]; ok {
		if n.Kind == yaml.SequenceNode {
			l.typeList(n, ctx, s)
		} else if isNull(n) && n.Value != "" {
			l.errorf(n, ctx, "type %s is the YAML null: write type: \"null\"", n.Value)
		} else if t, ok := l.str(n, kw("type")); ok {
			switch Kind(t) {
			case KindObject, KindString, KindInteger, KindNumber, KindBoolean, KindArray, KindNull:
				s.Type = Kind(t)
			default:
				l.errorf(n, ctx, "type %q is not one of object, string, integer, number, boolean, array, null", t)
			}
		}
	}
	if n, ok := v["$ref"]; ok {
		if r, ok := l.str(n, kw("$ref")); ok {
			name := strings.TrimPrefix(strings.TrimPrefix(r, "#/types/"), "#/$defs/")
			if anchor, ok := anchorRef(r); ok {
				info.anchorRef = anchor
			} else if !typeNameRE.MatchString(name) {
				info.idRef = r // the $id of a type, or an error (checkIDs)
			} else {
				s.Ref = name
			}
		}
	}
	str := func(k string, dst *string) {
		if n, ok := v[k]; ok {
			if x, ok := l.str(n, kw(k)); ok {
				*dst = x
			}
		}
	}
	str("title", &s.Title)
	str("description", &s.Description)
	str("pattern", &s.Pattern)
	str("format", &s.Format)
	str("contentEncoding", &s.ContentEncoding)
	str("contentMediaType", &s.ContentMediaType)
	str("x-mcp-header", &s.Header)
	str("go", &s.GoType)
	boolean := func(k string, dst *bool) {
		if n, ok := v[k]; ok {
			if x, ok := l.boolean(n, kw(k)); ok {
				*dst = x
			}
		}
	}
	boolean("nullable", &s.Nullable)
	boolean("deprecated", &s.Deprecated)
	boolean("uniqueItems", &s.UniqueItems)
	count := func(k string) *int64 {
		n, ok := v[k]
		if !ok {
			return nil
		}
		x, ok := l.integer(n, kw(k))
		if !ok {
			return nil
		}
		if x < 0 {
			l.errorf(n, ctx, "%s must not be negative, got %d", k, x)
			return nil
		}
		return &x
	}
	s.MinLength, s.MaxLength = count("minLength"), count("maxLength")
	s.MinItems, s.MaxItems = count("minItems"), count("maxItems")
	s.MinProperties, s.MaxProperties = count("minProperties"), count("maxProperties")
	num := func(k string) *float64 {
		n, ok := v[k]
		if !ok {
			return nil
		}
		x, ok := l.number(n, kw(k))
		if !ok {
			return nil
		}
		return &x
	}
	s.Minimum, s.Maximum = num("minimum"), num("maximum")
	s.ExclusiveMinimum, s.ExclusiveMaximum = num("exclusiveMinimum"), num("exclusiveMaximum")
	s.MultipleOf = num("multipleOf")

	if n, ok := v["default"]; ok {
		if x, ok := l.jsonValue(n, kw("default")); ok {
			s.Default = canonical(x)
			info.values = append(info.values, valueInfo{label: "default", node: n, v: x})
		}
	}
	if n, ok := v["const"]; ok {
		if x, ok := l.jsonValue(n, kw("const")); ok {
			s.Const = canonical(x)
			info.values = append(info.values, valueInfo{label: "const", node: n, v: x, self: true})
		}
	}
	if n, ok := v["examples"]; ok {
		if n.Kind != yaml.SequenceNode {
			l.expected(n, kw("examples"), "a list")
		} else {
			for _, c := range n.Content {
				if x, ok := l.jsonValue(c, kw("examples")); ok {
					s.Examples = append(s.Examples, canonical(x))
					info.values = append(info.values, valueInfo{label: "example", node: c, v: x})
				}
			}
		}
	}
	if n, ok := v["enum"]; ok {
		if n.Kind != yaml.SequenceNode {
			l.expected(n, kw("enum"), "a list")
		} else {
			if len(n.Content) == 0 {
				l.errorf(n, ctx, "enum must not be empty")
			}
			s.Enum = []json.RawMessage{}
			seen := map[string]bool{}
			for _, c := range n.Content {
				x, ok := l.jsonValue(c, kw("enum"))
				if !ok {
					continue
				}
				raw := canonical(x)
				if seen[string(raw)] {
					l.errorf(c, ctx, "enum value %s appears more than once", raw)
					continue
				}
				seen[string(raw)] = true
				s.Enum = append(s.Enum, raw)
				info.values = append(info.values, valueInfo{label: "enum value", node: c, v: x, self: true})
			}
		}
	}

	if n, ok := v["items"]; ok && !isBoolNode(n) {
		s.Items = l.schema(n, ctx+": items", o)
	}
	if n, ok := v["properties"]; ok {
		props, _ := l.mapping(n, kw("properties"))
		for _, p := range props {
			if p.key.Value == "" {
				l.errorf(p.key, ctx, "property names must not be empty")
			}
			ps := l.booleanValue(p.val)
			if ps == nil {
				ps = l.schema(p.val, fmt.Sprintf("%s: property %q", ctx, p.key.Value), o)
			}
			s.Properties = append(s.Properties, &Property{Name: p.key.Value, Pos: l.pos(p.key), Schema: ps})
		}
	}
	if n, ok := v["required"]; ok {
		seen := map[string]bool{}
		if n.Kind != yaml.SequenceNode {
			l.expected(n, kw("required"), "a list of property names")
		}
		for _, at := range n.Content {
			if n.Kind != yaml.SequenceNode {
				break
			}
			name, ok := l.str(at, kw("required"))
			if !ok {
				continue
			}
			if seen[name] {
				l.errorf(at, ctx, "required lists %q more than once", name)
				continue
			}
			seen[name] = true
			found := false
			for _, p := range s.Properties {
				if p.Name == name {
					p.Required, found = true, true
				}
			}
			if !found {
				l.errorf(at, ctx, "required names %q, which is not a property", name)
			}
		}
	}
	if n, ok := v["additionalProperties"]; ok {
		if n.Kind == yaml.ScalarNode && n.ShortTag() == "!!bool" {
			s.AllowAdditional, _ = l.boolean(n, kw("additionalProperties"))
		} else if n.Kind == yaml.MappingNode {
			s.AllowAdditional = true
			s.AdditionalProperties = l.schema(n, ctx+": additionalProperties", o)
		} else {
			l.expected(n, kw("additionalProperties"), "true, false or a schema")
		}
	}
	if n, ok := v["oneOf"]; ok {
		if n.Kind != yaml.SequenceNode {
			l.expected(n, kw("oneOf"), "a list of schemas")
		} else {
			if len(n.Content) == 0 {
				l.errorf(n, ctx, "oneOf must not be empty")
			}
			for i, c := range n.Content {
				s.OneOf = append(s.OneOf, l.schema(c, fmt.Sprintf("%s: oneOf[%d]", ctx, i), o))
			}
		}
	}
	if n, ok := v["discriminator"]; ok {
		s.Discriminator = l.discriminator(info.keys["discriminator"], n, kw("discriminator"))
	}

	if s.Type == KindAny && s.Ref == "" && len(s.OneOf) == 0 && implied != KindAny {
		if _, stated := v["type"]; !stated {
			s.Type = implied
		}
	}
	l.tuple(info)
	l.applicators(info)
	l.checkImplied(info)
	l.localChecks(info)
	return s
}

func contains[T comparable](list []T, x T) bool {
	for _, y := range list {
		if x == y {
			return true
		}
	}
	return false
}

func (l *loader) discriminator(key, n *yaml.Node, ctx string) *Discriminator {
	d := &Discriminator{Pos: l.pos(key)}
	f, ok := l.fields(n, ctx, "propertyName", "mapping")
	if !ok {
		return d
	}
	l.reqStr(f, "propertyName", ctx, key, &d.PropertyName)
	if p, ok := f["mapping"]; ok {
		ps, _ := l.mapping(p.val, ctx+": mapping")
		for _, e := range ps {
			if t, ok := l.str(e.val, fmt.Sprintf("%s: mapping: %q", ctx, e.key.Value)); ok {
				d.Mapping = append(d.Mapping, DiscriminatorCase{Value: e.key.Value, Type: strings.TrimPrefix(t, "#/types/")})
				d.casePos = append(d.casePos, l.pos(e.key))
			}
		}
	}
	return d
}

// localChecks reports problems visible in the schema alone: keywords that
// do not fit its type or shape, and contradictory constraints.
func (l *loader) localChecks(info *schemaInfo) {
	s, ctx := info.s, info.ctx
	at := info.keyNode
	switch {
	case s.Ref != "":
		for k := range info.keys {
			if !contains(refCompanions, k) {
				l.errorf(at(k), ctx, "keyword %q cannot be combined with $ref (both would apply: mcpgen merges keywords beside a $ref to a named type only when the type's keywords do not depend on them and do not repeat them; see docs/spec.md)", k)
			}
		}
		return
	case info.keys["oneOf"] != nil:
		for k := range info.keys {
			if !contains(oneOfCompanions, k) {
				l.errorf(at(k), ctx, "keyword %q cannot be combined with oneOf", k)
			}
		}
		return
	}
	if info.keys["discriminator"] != nil {
		l.errorf(at("discriminator"), ctx, "discriminator needs oneOf")
	}
	l.typeListChecks(info)
	for k := range info.keys {
		kinds, ok := keywordKinds[k]
		if !ok || contains(kinds, s.Type) || len(s.Types) > 0 {
			continue
		}
		if s.Type == KindAny {
			l.errorf(at(k), ctx, "keyword %q does not apply to a schema without type", k)
		} else {
			l.errorf(at(k), ctx, "keyword %q does not apply to type %q", k, string(s.Type))
		}
	}
	if s.MinLength != nil && s.MaxLength != nil && *s.MinLength > *s.MaxLength {
		l.errorf(at("minLength"), ctx, "minLength %d exceeds maxLength %d", *s.MinLength, *s.MaxLength)
	}
	if s.MinItems != nil && s.MaxItems != nil && *s.MinItems > *s.MaxItems {
		l.errorf(at("minItems"), ctx, "minItems %d exceeds maxItems %d", *s.MinItems, *s.MaxItems)
	}
	if s.MinProperties != nil && s.MaxProperties != nil && *s.MinProperties > *s.MaxProperties {
		l.errorf(at("minProperties"), ctx, "minProperties %d exceeds maxProperties %d", *s.MinProperties, *s.MaxProperties)
	}
	if s.MaxProperties != nil && len(s.Properties) > 0 && !s.AllowAdditional {
		req := 0
		for _, p := range s.Properties {
			if p.Required {
				req++
			}
		}
		if int64(req) > *s.MaxProperties {
			l.errorf(at("maxProperties"), ctx, "maxProperties %d is less than the %d required properties", *s.MaxProperties, req)
		}
	}
	if s.MultipleOf != nil && *s.MultipleOf <= 0 {
		l.errorf(at("multipleOf"), ctx, "multipleOf must be greater than 0, got %s", fmtNum(*s.MultipleOf))
	}
	l.boundsCheck(info)
	if s.Pattern != "" || info.keys["pattern"] != nil {
		if _, err := l.compile(s.Pattern); err != nil {
			l.errorf(info.vals["pattern"], ctx, "pattern %q is not supported by Go's RE2 regular expressions (no lookaround or backreferences): %v", s.Pattern, err)
		}
	}
	if info.keys["format"] != nil && !contains(knownFormats, s.Format) {
		l.errorf(info.vals["format"], ctx, "format %q is not supported (use one of %s)", s.Format, strings.Join(knownFormats, ", "))
	}
	if h, ok := info.vals["x-mcp-header"]; ok && s.Header != "" && !headerTokenRE.MatchString(s.Header) {
		l.errorf(h, ctx, "x-mcp-header %q is not a valid HTTP header token (RFC 9110: letters, digits and !#$%%&'*+-.^_`|~)", s.Header)
	} else if ok && s.Header == "" && h.ShortTag() == "!!str" {
		l.errorf(h, ctx, "x-mcp-header must not be empty")
	}
}

// boundsCheck reports numeric bounds that leave no valid value.
func (l *loader) boundsCheck(info *schemaInfo) {
	s, ctx := info.s, info.ctx
	at := info.keyNode
	if s.Minimum != nil && s.Maximum != nil && *s.Minimum > *s.Maximum {
		l.errorf(at("minimum"), ctx, "minimum %s exceeds maximum %s", fmtNum(*s.Minimum), fmtNum(*s.Maximum))
		return
	}
	// Effective bounds: the tighter of the inclusive and exclusive one.
	type bound struct {
		v     float64
		excl  bool
		key   string
		found bool
	}
	var lo, hi bound
	if s.Minimum != nil {
		lo = bound{*s.Minimum, false, "minimum", true}
	}
	if s.ExclusiveMinimum != nil && (!lo.found || *s.ExclusiveMinimum >= lo.v) {
		lo = bound{*s.ExclusiveMinimum, true, "exclusiveMinimum", true}
	}
	if s.Maximum != nil {
		hi = bound{*s.Maximum, false, "maximum", true}
	}
	if s.ExclusiveMaximum != nil && (!hi.found || *s.ExclusiveMaximum <= hi.v) {
		hi = bound{*s.ExclusiveMaximum, true, "exclusiveMaximum", true}
	}
	if !lo.found || !hi.found {
		return
	}
	empty := lo.v > hi.v || (lo.v == hi.v && (lo.excl || hi.excl))
	if !empty && s.Type == KindInteger {
		// The smallest and largest integers inside the bounds.
		min := math.Ceil(lo.v)
		if lo.excl && min == lo.v {
			min++
		}
		max := math.Floor(hi.v)
		if hi.excl && max == hi.v {
			max--
		}
		if min > max {
			l.errorf(at(lo.key), ctx, "%s %s and %s %s leave no integer", lo.key, fmtNum(lo.v), hi.key, fmtNum(hi.v))
			return
		}
	}
	if empty {
		l.errorf(at(lo.key), ctx, "%s %s and %s %s leave no valid value", lo.key, fmtNum(lo.v), hi.key, fmtNum(hi.v))
	}
}

// compile compiles a pattern once per load.
func (c *valueChecker) compile(p string) (*regexp.Regexp, error) {
	if re, ok := c.regexps[p]; ok {
		return re, nil
	}
	re, err := regexp.Compile(p)
	if err != nil {
		return nil, err
	}
	c.regexps[p] = re
	return re, nil
}
