package spec

import (
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/mcpgen-dev/mcpgen/runtime/wire"
	"unicode/utf8"
)

// maxRefHops bounds how far $ref chains and value checks follow references,
// so that recursive types cannot make a check loop.
const maxRefHops = 64

// maxValueSteps bounds the schema visits spent checking one default, example,
// enum or const value.
const maxValueSteps = 10000

// maxTotalValueSteps bounds the work of all value checks of one load;
// values past it are not checked.
const maxTotalValueSteps = 2000000

// check is the second pass: everything that needs the whole spec (refs,
// discriminators, x-mcp-header reachability, values against schemas,
// uniqueness across entries).
func (l *loader) check(api *API) {
	l.checkApplicators(api)
	for _, info := range l.infos {
		if info.s.Ref != "" && l.types[info.s.Ref] == nil {
			l.errorf(info.vals["$ref"], info.ctx, "$ref %q does not name a type under types", info.s.Ref)
		}
	}
	l.refCycles(api)
	for _, info := range l.infos {
		if info.s.Discriminator != nil {
			l.checkDiscriminator(info)
		}
	}
	l.checkHeaders(api)
	l.checkGoTypes(api)
	for _, info := range l.infos {
		for _, v := range info.values {
			l.totalSteps += l.steps
			l.steps = 0
			if l.totalSteps > maxTotalValueSteps {
				return
			}
			if path, problem := l.checkValue(info.s, v.v, v.self, 0); problem != "" {
				msg := fmt.Sprintf("%s %s %s", v.label, snippet(v.v), problem)
				if path != "" {
					msg = fmt.Sprintf("%s %s: at %s: %s", v.label, snippet(v.v), path, problem)
				}
				l.errorf(v.node, info.ctx, "%s", msg)
			}
		}
	}
	uris := map[string]*Resource{}
	for _, r := range api.Resources {
		if r.URI == "" {
			continue
		}
		if first, dup := uris[r.URI]; dup {
			l.errorf(l.yamlNodeAt(r.Pos), fmt.Sprintf("resource %q", r.Name), "uri %q is already used by resource %q", r.URI, first.Name)
			continue
		}
		uris[r.URI] = r
	}
	tmpls := map[string]*ResourceTemplate{}
	for _, t := range api.Templates {
		if t.URITemplate == "" {
			continue
		}
		if first, dup := tmpls[t.URITemplate]; dup {
			l.errorf(l.yamlNodeAt(t.Pos), fmt.Sprintf("template %q", t.Name), "uriTemplate %q is already used by template %q", t.URITemplate, first.Name)
			continue
		}
		tmpls[t.URITemplate] = t
	}
}

// resolve follows s's $ref chain to a schema that is not a bare reference.
// It returns nil for dangling refs and cycles.
func (l *loader) resolve(s *Schema) *Schema { return resolveRef(l.types, s) }

// resolveRef is resolve over the named types of types.
func resolveRef(types map[string]*NamedType, s *Schema) *Schema {
	for i := 0; s != nil && s.Ref != ""; i++ {
		if i == maxRefHops {
			return nil
		}
		nt := types[s.Ref]
		if nt == nil {
			return nil
		}
		s = nt.Schema
	}
	return s
}

// refCycles reports named types that are only references to each other
// (A: {$ref: B}, B: {$ref: A}) and so describe no value at all. Recursion
// through properties, items or oneOf is fine.
func (l *loader) refCycles(api *API) {
	for _, nt := range api.Types {
		seen := map[string]bool{nt.Name: true}
		chain := []string{nt.Name}
		for s := nt.Schema; s.Ref != ""; {
			next := l.types[s.Ref]
			if next == nil {
				break
			}
			chain = append(chain, next.Name)
			if seen[next.Name] {
				if next.Name == nt.Name {
					l.errorf(l.yamlNodeAt(nt.Pos), fmt.Sprintf("type %q", nt.Name), "$ref cycle %s describes no value", strings.Join(chain, " -> "))
				}
				break
			}
			seen[next.Name] = true
			s = next.Schema
		}
	}
}

func (l *loader) checkDiscriminator(info *schemaInfo) {
	s, d := info.s, info.s.Discriminator
	ctx := info.ctx + ": discriminator"
	at := info.keyNode("discriminator")
	variants := map[string]bool{}
	// consts are the discriminator values the variants fix themselves
	// with a const (or a one-value enum) on the discriminator property.
	consts := map[string]fixedValue{}
	// enums are the variants whose discriminator property lists several
	// allowed values, and the property.
	enums := map[string]*Schema{}
	for i, v := range s.OneOf {
		vctx := fmt.Sprintf("%s: oneOf[%d]", info.ctx, i)
		if v.Ref == "" {
			l.errorf(l.yamlNodeAt(v.Pos), vctx, "with a discriminator every oneOf variant must be a $ref to an object type")
			continue
		}
		variants[v.Ref] = true
		t := l.resolve(v)
		if t == nil || d.PropertyName == "" {
			continue
		}
		if t.Type != KindObject {
			l.errorf(l.yamlNodeAt(v.Pos), vctx, "discriminator variant %q is not an object type", v.Ref)
			continue
		}
		var prop *Property
		for _, p := range t.Properties {
			if p.Name == d.PropertyName {
				prop = p
			}
		}
		if prop != nil {
			if ps := l.resolve(prop.Schema); ps != nil && ps.Type != KindString {
				l.errorf(l.yamlNodeAt(v.Pos), vctx, "variant %q: discriminator property %q must be of type string", v.Ref, d.PropertyName)
			} else if fv, ok := fixedString(ps); ok {
				consts[v.Ref] = fv
			} else if ps != nil && len(ps.Enum) > 1 {
				enums[v.Ref] = ps
			}
		}
		if prop == nil {
			l.errorf(l.yamlNodeAt(v.Pos), vctx, "variant %q has no property %q (the discriminator)", v.Ref, d.PropertyName)
		}
	}
	for i, c := range d.Mapping {
		entry := at
		if i < len(d.casePos) {
			entry = l.yamlNodeAt(d.casePos[i])
		}
		if !variants[c.Type] {
			l.errorf(entry, ctx, "mapping %q names %q, which is not a oneOf variant", c.Value, c.Type)
			continue
		}
		if ps := enums[c.Type]; ps != nil && !enumHasString(ps.Enum, c.Value) {
			l.errorf(entry, ctx, "mapping %q selects %q, whose %q allows only %s (%s): the variant refuses the value that selects it; map one of those values to it",
				c.Value, c.Type, d.PropertyName, snippet(ps.Enum), l.relPos(ps.Pos))
		}
		if fv, ok := consts[c.Type]; ok && fv.value != c.Value {
			l.errorf(entry, ctx, "mapping %q selects %q, whose %q is %s %q (%s): no valid value could select it; map %q to it, or leave it out of the mapping to infer it from the %s",
				c.Value, c.Type, d.PropertyName, fv.keyword, fv.value, l.relPos(fv.pos), fv.value, fv.keyword)
		}
	}
	// Order the cases as the variants. A variant the mapping does not
	// mention is selected by the value its const fixes, else by its type
	// name (OpenAPI's rule).
	var cases []DiscriminatorCase
	for _, v := range s.OneOf {
		if v.Ref == "" {
			continue
		}
		n := len(cases)
		for _, c := range d.Mapping {
			if c.Type == v.Ref {
				cases = append(cases, c)
			}
		}
		if len(cases) == n {
			value := v.Ref
			if fv, ok := consts[v.Ref]; ok {
				value = fv.value
			}
			cases = append(cases, DiscriminatorCase{Value: value, Type: v.Ref})
		}
	}
	selects := map[string]string{}
	for _, c := range cases {
		if other, dup := selects[c.Value]; dup && other != c.Type {
			l.errorf(at, ctx, "value %q would select both %q and %q: give each variant its own value (a const on %q, or a mapping entry)", c.Value, other, c.Type, d.PropertyName)
			continue
		}
		selects[c.Value] = c.Type
	}
	d.Mapping, d.casePos = cases, nil
}

// enumHasString reports whether enum lists the string v.
func enumHasString(enum []json.RawMessage, v string) bool {
	for _, e := range enum {
		var s string
		if json.Unmarshal(e, &s) == nil && s == v {
			return true
		}
	}
	return false
}

// fixedValue is a string a schema allows alone, and where it says so.
type fixedValue struct {
	value, keyword string
	pos            Pos
}

// fixedString returns the one string s allows: its const, or the single
// value of its enum.
func fixedString(s *Schema) (fixedValue, bool) {
	if s == nil {
		return fixedValue{}, false
	}
	raw, keyword := s.Const, "const"
	if raw == nil && len(s.Enum) == 1 {
		raw, keyword = s.Enum[0], "the only enum value"
	}
	var v string
	if raw == nil || json.Unmarshal(raw, &v) != nil {
		return fixedValue{}, false
	}
	return fixedValue{value: v, keyword: keyword, pos: s.Pos}, true
}

// relPos is "line:col", or "file:line:col" when p is in another file than
// the spec.
func (l *loader) relPos(p Pos) string {
	if p.File != "" && p.File != l.file {
		return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
	}
	return fmt.Sprintf("line %d:%d", p.Line, p.Col)
}

// checkHeaders enforces the x-mcp-header rules (reference §7.1): only in tool
// inputs, only on string, integer or boolean properties reached from the
// input through properties alone, names unique per tool ignoring case.
func (l *loader) checkHeaders(api *API) {
	reachable := map[*Schema]bool{}
	for _, t := range api.Tools {
		names := map[string]string{}
		var walk func(s *Schema)
		walk = func(s *Schema) {
			for _, p := range s.Properties {
				ps := p.Schema
				reachable[ps] = true
				if ps.Header != "" {
					key := strings.ToLower(ps.Header)
					if first, dup := names[key]; dup {
						l.errorf(l.infoOf(ps).vals["x-mcp-header"], l.infoOf(ps).ctx, "x-mcp-header %q duplicates %q (header names ignore case)", ps.Header, first)
					} else {
						names[key] = ps.Header
					}
				}
				walk(ps)
			}
		}
		walk(t.Input)
	}
	for _, info := range l.infos {
		s := info.s
		if s.Header == "" {
			continue
		}
		at := info.vals["x-mcp-header"]
		switch {
		case info.origin != originInput:
			l.errorf(at, info.ctx, "x-mcp-header is only allowed in tool input schemas")
			continue
		case !reachable[s]:
			l.errorf(at, info.ctx, "x-mcp-header must be on a property reached from the tool input through properties only (not items, oneOf, additionalProperties or $ref)")
			continue
		}
		t := l.resolve(s)
		if t == nil {
			continue
		}
		switch t.Type {
		case KindString, KindInteger, KindBoolean:
		case KindAny:
			l.errorf(at, info.ctx, "x-mcp-header needs type string, integer or boolean, and the schema has no type")
		default:
			l.errorf(at, info.ctx, "x-mcp-header is not allowed on type %q (only string, integer or boolean)", string(t.Type))
		}
	}
}

// snippet is a short JSON rendering of v for messages.
func snippet(v any) string {
	s := string(canonical(v))
	if utf8.RuneCountInString(s) > 40 {
		r := []rune(s)
		s = string(r[:37]) + "..."
	}
	return s
}

// jsonKind is the JSON type of a value made by jsonValue; integral numbers
// are integers.
func jsonKind(v any) Kind {
	switch x := v.(type) {
	case nil:
		return KindNull
	case bool:
		return KindBoolean
	case string:
		return KindString
	case json.Number:
		if strings.ContainsAny(string(x), ".eE") {
			return KindNumber
		}
		return KindInteger
	case []any:
		return KindArray
	case map[string]any:
		return KindObject
	}
	return KindAny
}

// formatOK checks the formats mcpgen knows with the very checkers the
// generated validators call, so that a default, example, const or enum
// value the spec accepts is one the server accepts (and its clients: see
// wire.IsEmail).
func formatOK(format, v string) bool {
	switch format {
	case "date":
		return wire.IsDate(v)
	case "date-time":
		return wire.IsDateTime(v)
	case "email":
		return wire.IsEmail(v)
	case "uri":
		return wire.IsURI(v)
	case "uuid":
		return wire.IsUUID(v)
	}
	return true
}

// checkValue reports the first way v violates s: the JSON pointer of the
// offending part ("" for v itself) and the problem. self skips the enum and
// const of s itself (used when checking those very values).
func (c *valueChecker) checkValue(s *Schema, v any, self bool, depth int) (string, string) {
	// Unions of recursive types can branch at every level: the step budget
	// keeps a check linear in the budget; past it the value is let through.
	c.steps++
	if depth > maxRefHops || s == nil || c.steps > maxValueSteps {
		return "", ""
	}
	if s.Ref != "" {
		if v == nil && s.Nullable {
			return "", ""
		}
		nt := c.types[s.Ref]
		if nt == nil {
			return "", ""
		}
		return c.checkValue(nt.Schema, v, false, depth+1)
	}
	if v == nil && s.Nullable {
		return "", ""
	}
	if s.MatchesNothing() {
		return "", "is there, but its schema is false (no value is allowed)"
	}
	if !self {
		if s.Const != nil && !jsonEqual(canonical(v), s.Const) {
			return "", fmt.Sprintf("does not equal const %s", s.Const)
		}
		if s.Enum != nil {
			raw := canonical(v)
			in := false
			for _, e := range s.Enum {
				if jsonEqual(raw, e) {
					in = true
				}
			}
			if !in {
				return "", "is not one of the enum values"
			}
		}
	}
	if len(s.OneOf) > 0 {
		n := 0
		for _, o := range s.OneOf {
			if _, p := c.checkValue(o, v, false, depth+1); p == "" {
				n++
			}
		}
		switch {
		case n == 0 && s.AnyOf:
			return "", "matches no anyOf variant"
		case n == 0:
			return "", "matches no oneOf variant"
		case n > 1 && !s.AnyOf:
			return "", "matches more than one oneOf variant"
		}
		return "", ""
	}
	k := jsonKind(v)
	if s.Type != KindAny && s.Type != k && !(s.Type == KindNumber && k == KindInteger) {
		return "", fmt.Sprintf("is not of type %q", string(s.Type))
	}
	if msg := typeListValue(s, k); msg != "" {
		return "", msg
	}
	switch x := v.(type) {
	case string:
		n := int64(utf8.RuneCountInString(x))
		if s.MinLength != nil && n < *s.MinLength {
			return "", fmt.Sprintf("is shorter than minLength %d", *s.MinLength)
		}
		if s.MaxLength != nil && n > *s.MaxLength {
			return "", fmt.Sprintf("is longer than maxLength %d", *s.MaxLength)
		}
		if s.Pattern != "" {
			if re, err := c.compile(s.Pattern); err == nil && !re.MatchString(x) {
				return "", fmt.Sprintf("does not match pattern %q", s.Pattern)
			}
		}
		if s.Format != "" && (!formatOK(s.Format, x) || c.documentedFormats && !documentedFormatOK(s.Format, x)) {
			return "", fmt.Sprintf("is not a valid %s", s.Format)
		}
	case json.Number:
		f, err := x.Float64()
		if err != nil {
			return "", ""
		}
		switch {
		case s.Minimum != nil && f < *s.Minimum:
			return "", fmt.Sprintf("is less than minimum %s", fmtNum(*s.Minimum))
		case s.Maximum != nil && f > *s.Maximum:
			return "", fmt.Sprintf("is greater than maximum %s", fmtNum(*s.Maximum))
		case s.ExclusiveMinimum != nil && f <= *s.ExclusiveMinimum:
			return "", fmt.Sprintf("is not greater than exclusiveMinimum %s", fmtNum(*s.ExclusiveMinimum))
		case s.ExclusiveMaximum != nil && f >= *s.ExclusiveMaximum:
			return "", fmt.Sprintf("is not less than exclusiveMaximum %s", fmtNum(*s.ExclusiveMaximum))
		case s.MultipleOf != nil && *s.MultipleOf > 0:
			q := f / *s.MultipleOf
			if math.Abs(q-math.Round(q)) > 1e-9 {
				return "", fmt.Sprintf("is not a multiple of %s", fmtNum(*s.MultipleOf))
			}
		}
	case []any:
		n := int64(len(x))
		if s.MinItems != nil && n < *s.MinItems {
			return "", fmt.Sprintf("has fewer items than minItems %d", *s.MinItems)
		}
		if s.MaxItems != nil && n > *s.MaxItems {
			return "", fmt.Sprintf("has more items than maxItems %d", *s.MaxItems)
		}
		if s.UniqueItems {
			seen := map[string]bool{}
			for _, e := range x {
				c := string(canonical(e))
				if seen[c] {
					return "", "has duplicate items but uniqueItems is set"
				}
				seen[c] = true
			}
		}
		if s.ClosedItems && !s.IsTuple() && len(x) > 0 {
			return "", "has items, but items: false admits none"
		}
		if s.ClosedItems && len(x) > len(s.PrefixItems) {
			return "", fmt.Sprintf("has more items than the %d prefixItems positions", len(s.PrefixItems))
		}
		for i, e := range x {
			if p, problem := c.checkValue(s.ItemAt(i), e, false, depth+1); problem != "" {
				return fmt.Sprintf("/%d%s", i, p), problem
			}
		}
	case map[string]any:
		n := int64(len(x))
		if s.MinProperties != nil && n < *s.MinProperties {
			return "", fmt.Sprintf("has fewer properties than minProperties %d", *s.MinProperties)
		}
		if s.MaxProperties != nil && n > *s.MaxProperties {
			return "", fmt.Sprintf("has more properties than maxProperties %d", *s.MaxProperties)
		}
		if s.Type != KindObject {
			return "", ""
		}
		for _, p := range s.Properties {
			if _, ok := x[p.Name]; !ok && p.Required {
				return "", fmt.Sprintf("lacks required property %q", p.Name)
			}
		}
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			var ps *Schema
			for _, p := range s.Properties {
				if p.Name == k {
					ps = p.Schema
				}
			}
			if ps == nil {
				matched := false
				for _, pp := range s.PatternProperties {
					if re, err := c.compile(pp.Pattern); err == nil && re.MatchString(k) {
						matched = true
						if p, problem := c.checkValue(pp.Schema, x[k], false, depth+1); problem != "" {
							return "/" + PointerToken(k) + p, problem
						}
					}
				}
				if matched {
					continue
				}
				if !s.AllowAdditional {
					return "", fmt.Sprintf("has property %q, which is not allowed", k)
				}
				ps = s.AdditionalProperties
			}
			if p, problem := c.checkValue(ps, x[k], false, depth+1); problem != "" {
				return "/" + PointerToken(k) + p, problem
			}
		}
	}
	return "", ""
}
