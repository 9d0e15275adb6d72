package spec

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"github.com/pb33f/go-yaml"
	"github.com/pb33f/libopenapi/datamodel/high/base"
	"github.com/pb33f/libopenapi/orderedmap"
)

// schemaMode says which side of the API a schema describes.
type schemaMode int

const (
	modeInput schemaMode = iota
	modeOutput
)

// maxSchemaDepth bounds inline nesting; deeper schemas become any-value.
const maxSchemaDepth = 64

// OpenAPI schemas → spec.Schema.
//
// Every $ref becomes a NamedType (named after the last segment of the
// reference, sanitised to a letter followed by letters, digits and "_",
// made unique with "_2", "_3"… in the order first met) and a Schema.Ref, so
// reference cycles are plain recursion. A named type is shared by inputs and
// outputs: readOnly properties are dropped from the top level of a tool's
// input and writeOnly ones from the top level of its output; inside named
// types such properties are marked (Property.ReadOnly, WriteOnly), so that
// the published documents leave them out on the side they do not belong to,
// and are no longer required, so that neither a client nor the upstream API
// is asked for a value it cannot give.
func (l *oaLoader) schema(sp *base.SchemaProxy, mode schemaMode, depth int) *Schema {
	if sp == nil {
		return &Schema{}
	}
	if sp.IsReference() {
		return l.ref(sp)
	}
	s := sp.Schema()
	p := l.proxyPos(sp)
	if s == nil {
		l.notef(p, "schema cannot be read (%v): any value accepted", sp.GetBuildError())
		return &Schema{Pos: p}
	}
	if depth > maxSchemaDepth {
		l.notef(p, "schema nested deeper than %d: any value accepted", maxSchemaDepth)
		return &Schema{Pos: p}
	}
	return l.convert(s, p, mode, depth)
}

func (l *oaLoader) proxyPos(sp *base.SchemaProxy) Pos {
	// A reference's value node is the schema it points to, elsewhere in the
	// document; the $ref itself is where the property is.
	if sp.IsReference() {
		if n := sp.GetReferenceNode(); n != nil {
			return l.pos(n)
		}
	}
	if lo := sp.GoLow(); lo != nil {
		if n := lo.GetValueNode(); n != nil {
			return l.pos(n)
		}
		if n := lo.GetKeyNode(); n != nil {
			return l.pos(n)
		}
	}
	return Pos{File: l.file}
}

// ref returns a reference to the named type of sp's $ref, converting the
// target the first time.
func (l *oaLoader) ref(sp *base.SchemaProxy) *Schema {
	ref := sp.GetReference()
	p := Pos{File: l.file}
	if n := sp.GetReferenceNode(); n != nil {
		p = l.pos(n)
	}
	if nt, ok := l.types[ref]; ok {
		return l.withSiblings(&Schema{Ref: nt.Name, Pos: p}, sp)
	}
	nt := &NamedType{Name: l.typeName(ref), Pos: p}
	l.types[ref] = nt
	l.api.Types = append(l.api.Types, nt)
	s := sp.Schema()
	if s == nil {
		l.notef(p, "$ref %q cannot be resolved (%v): any value accepted", ref, sp.GetBuildError())
		nt.Schema = &Schema{Pos: p}
	} else {
		tp := p
		if lo := sp.GoLow(); lo != nil && lo.GetValueNode() != nil {
			tp = l.pos(lo.GetValueNode())
		}
		nt.Pos = tp
		nt.Schema = l.convert(s, tp, modeInput, 0)
		nt.Schema.Pos = tp
	}
	return l.withSiblings(&Schema{Ref: nt.Name, Pos: p}, sp)
}

// withSiblings adds to site, a reference, the annotations written beside
// its $ref in an OpenAPI 3.1 document ("status": {"$ref": "…", "default":
// "active", "description": "…"}): JSON Schema 2020-12 applies them, and a
// description at the use site is often the only one a property has.
// Other keywords beside a $ref are left to the named type.
func (l *oaLoader) withSiblings(site *Schema, sp *base.SchemaProxy) *Schema {
	n := sp.GetReferenceNode()
	if !l.refSiblings || n == nil || n.Kind != yaml.MappingNode {
		return site
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		v := n.Content[i+1]
		switch n.Content[i].Value {
		case "title":
			if v.Kind == yaml.ScalarNode {
				site.Title = v.Value
			}
		case "description":
			if v.Kind == yaml.ScalarNode {
				site.Description = v.Value
			}
		case "default":
			l.setDefault(site, v)
		case "examples":
			if v.Kind == yaml.SequenceNode {
				for _, e := range v.Content {
					if ex := nodeJSON(e); ex != nil {
						site.Examples = append(site.Examples, ex)
					}
				}
			}
		case "deprecated":
			site.Deprecated = v.Kind == yaml.ScalarNode && v.Value == "true"
		}
	}
	return site
}

func (l *oaLoader) typeName(ref string) string {
	seg := ref
	if i := strings.LastIndexAny(ref, "/#"); i >= 0 {
		seg = ref[i+1:]
	}
	if seg == "" {
		seg = strings.TrimSuffix(pathBase(ref), ".json")
	}
	var b strings.Builder
	up := true
	for _, r := range seg {
		switch {
		case r < 128 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9'):
			if up && r >= 'a' && r <= 'z' {
				r -= 'a' - 'A'
			}
			b.WriteRune(r)
			up = false
		case r == '_':
			b.WriteRune(r)
		default:
			// Dots, dashes and the like start a new word: io.k8s.api → IoK8sApi.
			up = true
		}
	}
	name := b.String()
	if name == "" || !(name[0] >= 'A' && name[0] <= 'Z' || name[0] >= 'a' && name[0] <= 'z') {
		name = "T" + name
	}
	base := name
	for i := 2; l.typeNames[name]; i++ {
		name = base + "_" + strconv.Itoa(i)
	}
	l.typeNames[name] = true
	return name
}

func pathBase(s string) string {
	if i := strings.LastIndexByte(s, '/'); i >= 0 {
		return s[i+1:]
	}
	return s
}

// convert maps one resolved schema.
func (l *oaLoader) convert(s *base.Schema, p Pos, mode schemaMode, depth int) *Schema {
	if s.BooleanSchema != nil {
		// true = anything; false = nothing, which mcpgen cannot state: any.
		if !*s.BooleanSchema {
			l.notef(p, "schema false (no value allowed) is not supported: any value accepted")
		}
		return &Schema{Pos: p}
	}
	if len(s.AllOf) > 0 {
		s = l.mergeAllOf(s, 0)
	}
	// Constraints are copied (own), not shared: libopenapi's pointers lead
	// into its model, and one kept pointer would keep the whole parsed
	// document (hundreds of MB for GitHub's) alive through generation.
	out := &Schema{
		Pos:              p,
		Title:            s.Title,
		Description:      s.Description,
		Pattern:          s.Pattern,
		Format:           s.Format,
		ContentEncoding:  s.ContentEncoding,
		ContentMediaType: s.ContentMediaType,
		MinLength:        own(s.MinLength),
		MaxLength:        own(s.MaxLength),
		Minimum:          own(s.Minimum),
		Maximum:          own(s.Maximum),
		MultipleOf:       own(s.MultipleOf),
		MinItems:         own(s.MinItems),
		MaxItems:         own(s.MaxItems),
		MinProperties:    own(s.MinProperties),
		MaxProperties:    own(s.MaxProperties),
	}
	if s.Deprecated != nil {
		out.Deprecated = *s.Deprecated
	}
	if s.UniqueItems != nil {
		out.UniqueItems = *s.UniqueItems
	}
	if s.Nullable != nil && *s.Nullable {
		out.Nullable = true
	}
	// exclusiveMinimum: a bool beside minimum in 3.0, a number in 3.1
	// (or a bool there too, in the draft-04 form).
	exMin, exMax := exclusiveBounds(s)
	if e := exMin; e != nil {
		if e.IsA() {
			if e.A && out.Minimum != nil {
				out.ExclusiveMinimum, out.Minimum = out.Minimum, nil
			}
		} else {
			v := e.B
			out.ExclusiveMinimum = &v
		}
	}
	if e := exMax; e != nil {
		if e.IsA() {
			if e.A && out.Maximum != nil {
				out.ExclusiveMaximum, out.Maximum = out.Maximum, nil
			}
		} else {
			v := e.B
			out.ExclusiveMaximum = &v
		}
	}
	l.setDefault(out, s.Default)
	out.Const = nodeJSON(s.Const)
	for _, e := range s.Enum {
		out.Enum = append(out.Enum, nodeJSON(e))
	}
	if ex := nodeJSON(s.Example); ex != nil {
		out.Examples = append(out.Examples, ex)
	}
	for _, e := range s.Examples {
		if ex := nodeJSON(e); ex != nil {
			out.Examples = append(out.Examples, ex)
		}
	}

	// Types: 3.1 arrays may hold "null" (→ Nullable) and several kinds (→ a union).
	var kinds []Kind
	for _, t := range s.Type {
		if t == "null" {
			out.Nullable = true
			continue
		}
		kinds = append(kinds, Kind(t))
	}
	if len(kinds) == 0 && out.Nullable && len(s.Type) > 0 {
		// type: 'null' alone.
		kinds = []Kind{KindNull}
		out.Nullable = false
	}
	if len(kinds) == 1 {
		out.Type = kinds[0]
	}

	// Object shape.
	if s.Properties != nil && s.Properties.Len() > 0 {
		if out.Type == KindAny && len(kinds) == 0 {
			out.Type = KindObject
		}
		req := map[string]bool{}
		for _, r := range s.Required {
			req[r] = true
		}
		for name, ps := range s.Properties.FromOldest() {
			cs := l.schema(ps, mode, depth+1)
			prop := &Property{Name: name, Schema: cs, Required: req[name], Pos: l.proxyPos(ps)}
			if inner := ps.Schema(); inner != nil {
				prop.ReadOnly = inner.ReadOnly != nil && *inner.ReadOnly
				prop.WriteOnly = inner.WriteOnly != nil && *inner.WriteOnly
				if prop.ReadOnly || prop.WriteOnly {
					prop.Required = false
				}
			}
			out.Properties = append(out.Properties, prop)
		}
	}
	// OpenAPI objects are open unless they say otherwise.
	out.AllowAdditional = out.Type == KindObject || out.Type == KindAny
	var allow, isBool bool
	out.AdditionalProperties, allow, isBool = l.additionalOf(s, mode, depth)
	if isBool {
		out.AllowAdditional = allow
	}
	// Required names the properties do not declare are required members
	// all the same (openapi_required.go); not on an untyped schema, where
	// required applies only if the value is an object, nor beside a union
	// without properties, which stays the union it was.
	if out.Type == KindObject && (len(out.Properties) > 0 || len(s.OneOf)+len(s.AnyOf) == 0) {
		out.Properties = append(out.Properties, l.undeclaredRequired(s, out.AdditionalProperties, isBool && !allow, p, mode, depth)...)
	}
	if it := s.Items; it != nil {
		if it.IsA() && it.A != nil {
			out.Items = l.schema(it.A, mode, depth+1)
		} else if it.IsB() && !it.B {
			l.notef(p, "items: false is not supported: any items accepted")
		}
		if out.Type == KindAny && len(kinds) == 0 {
			out.Type = KindArray
		}
	}

	// The applicators go onto Applied wherever its constraint schemas can
	// hold them (openapi_applicators.go); what cannot be represented is
	// dropped, each in the direction that accepts more, never less, and
	// noted with the reason.
	unionMapped := l.mapApplicators(s, out, p, mode, depth)
	if len(s.PrefixItems) > 0 {
		l.notef(p, "prefixItems is not supported: a Go slice has one item type, so the items are checked against items alone (none when absent); dropped, so more values are accepted")
		out.Items = nil
	}
	if s.UnevaluatedProperties != nil || s.UnevaluatedItems != nil {
		l.notef(p, "unevaluatedProperties/unevaluatedItems is not supported: it depends on what every subschema evaluated, which the generated validators do not track; dropped, so more values are accepted")
	}
	if s.DynamicRef != "" {
		l.notef(p, "$dynamicRef is not supported: its target depends on the dynamic scope, which generated types cannot follow; dropped, so more values are accepted")
	}

	// Unions.
	variants, isAny := s.OneOf, false
	if len(variants) == 0 && len(s.AnyOf) > 0 {
		variants, isAny = s.AnyOf, true
	}
	if !unionMapped && len(variants) > 0 && tagBesideNamedVariants(s, out) {
		// The discriminated union of the variants (see
		// tagBesideNamedVariants): the tag is the discriminator's.
		out.Properties = nil
	}
	switch {
	case unionMapped:
	case len(variants) > 0 && len(out.Properties) > 0:
		// An object with properties and a union beside them: keep the
		// object, accept what the union would have added.
		l.notef(p, "oneOf/anyOf beside properties is not supported: the object is kept, open to other properties")
		out.AllowAdditional = true
	case len(variants) > 0:
		for _, v := range variants {
			vs := l.schema(v, mode, depth+1)
			// A {type: null} variant is the nullability of the union.
			if vs.Type == KindNull && vs.Ref == "" && len(vs.OneOf) == 0 {
				out.Nullable = true
				continue
			}
			out.OneOf = append(out.OneOf, vs)
		}
		declared := out.Type
		out.AnyOf = isAny
		out.Type = KindAny
		if l.narrowUnionByEnum(out, declared) {
			return out
		}
		if len(out.OneOf) == 1 && out.OneOf[0].Ref == "" && !isAny {
			// oneOf: [X, null] is a nullable X.
			only := *out.OneOf[0]
			only.Nullable = only.Nullable || out.Nullable
			if only.Description == "" {
				only.Description = out.Description
			}
			if only.Title == "" {
				only.Title = out.Title
			}
			if only.Default == nil && out.Default != nil {
				// The union's default is the folded schema's: it is checked
				// against X (or null) like any other.
				only.Default = out.Default
				if pos, ok := l.defaultPos[out]; ok {
					l.defaultPos[&only] = pos
				}
			}
			if len(out.Examples) > 0 {
				only.Examples = slices.Concat(only.Examples, out.Examples)
			}
			return &only
		}
		if len(out.OneOf) == 0 {
			out.OneOf = nil
			out.AnyOf = false
		}
		if d := s.Discriminator; d != nil && len(out.OneOf) > 0 {
			out.Discriminator = l.discriminator(d, variants, p)
			if !selectsEvery(out.Discriminator, out.OneOf) {
				// A variant no tag selects (one declared in place, as in
				// OpenAI's turn_detection) could never be decoded by tag:
				// the variants are tried instead, as JSON Schema does.
				out.Discriminator = nil
			}
		}
	case len(kinds) > 1:
		for _, k := range kinds {
			out.OneOf = append(out.OneOf, &Schema{Type: k, Pos: p})
		}
		out.Type = KindAny
	}
	return out
}

// discriminator maps a discriminator object; the mapping's values are $refs
// (or bare names), turned into named types. Without a mapping, every variant
// that is a $ref is selected by the value its own schema fixes for the
// property (a const or a one-value enum, as mcpgen.yaml infers it), else by
// its type name, as OpenAPI says: a variant whose property allows only
// "user" refuses its type name, so the name could never select it (OpenAI's
// chat messages, discriminated by role without a mapping).
func (l *oaLoader) discriminator(d *base.Discriminator, variants []*base.SchemaProxy, p Pos) *Discriminator {
	out := &Discriminator{PropertyName: d.PropertyName, Pos: p}
	byRef := map[string]string{}
	for _, v := range variants {
		if v.IsReference() {
			byRef[v.GetReference()] = l.types[v.GetReference()].Name
		}
	}
	if d.Mapping != nil && d.Mapping.Len() > 0 {
		for value, ref := range d.Mapping.FromOldest() {
			name, ok := byRef[ref]
			if !ok {
				// A bare schema name or a ref not among the variants.
				for r, n := range byRef {
					if pathBase(r) == ref || pathBase(r) == pathBase(ref) {
						name, ok = n, true
						break
					}
				}
			}
			if ok {
				out.Mapping = append(out.Mapping, DiscriminatorCase{Value: value, Type: name})
			} else {
				l.notef(p, "discriminator mapping %q → %q is not one of the variants: ignored", value, ref)
			}
		}
		return out
	}
	for _, v := range variants {
		if v.IsReference() {
			r := v.GetReference()
			value, ok := fixedTag(v.Schema(), d.PropertyName, 0)
			if !ok {
				value = pathBase(r)
			}
			out.Mapping = append(out.Mapping, DiscriminatorCase{Value: value, Type: byRef[r]})
		}
	}
	return out
}

// selectsEvery reports whether every variant of a union is a named type
// some value of discriminator d selects.
func selectsEvery(d *Discriminator, variants []*Schema) bool {
	for _, v := range variants {
		if v.Ref == "" || !slices.ContainsFunc(d.Mapping, func(c DiscriminatorCase) bool { return c.Type == v.Ref }) {
			return false
		}
	}
	return true
}

// fixedTag is the one string a variant's schema s allows for its
// discriminator property prop (a const, or an enum of one value), looked for
// in its properties and in those of its allOf members.
func fixedTag(s *base.Schema, prop string, depth int) (string, bool) {
	if s == nil || depth > maxSchemaDepth {
		return "", false
	}
	if s.Properties != nil {
		if p, ok := s.Properties.Get(prop); ok && p != nil {
			ps := p.Schema()
			if ps == nil {
				return "", false
			}
			raw := nodeJSON(ps.Const)
			if raw == nil && len(ps.Enum) == 1 {
				raw = nodeJSON(ps.Enum[0])
			}
			var v string
			if raw == nil || json.Unmarshal(raw, &v) != nil {
				return "", false
			}
			return v, true
		}
	}
	for _, m := range s.AllOf {
		if v, ok := fixedTag(m.Schema(), prop, depth+1); ok {
			return v, true
		}
	}
	return "", false
}

// mergeAllOf folds allOf members (following $refs, recursively) into one
// schema: properties in order (later members win), required lists joined,
// other keywords taken from the first member that sets them.
func (l *oaLoader) mergeAllOf(s *base.Schema, depth int) *base.Schema {
	m := *s
	m.AllOf = nil
	if m.Properties != nil {
		props := orderedmap.New[string, *base.SchemaProxy]()
		for k, v := range m.Properties.FromOldest() {
			props.Set(k, v)
		}
		m.Properties = props
	}
	m.Required = append([]string(nil), s.Required...)
	for _, sp := range s.AllOf {
		part := sp.Schema()
		if part == nil {
			continue
		}
		if len(part.AllOf) > 0 && depth < maxSchemaDepth {
			part = l.mergeAllOf(part, depth+1)
		}
		if part.Properties != nil {
			if m.Properties == nil {
				m.Properties = orderedmap.New[string, *base.SchemaProxy]()
			}
			for k, v := range part.Properties.FromOldest() {
				m.Properties.Set(k, v)
			}
		}
		for _, r := range part.Required {
			if !containsString(m.Required, r) {
				m.Required = append(m.Required, r)
			}
		}
		if len(m.Type) == 0 {
			m.Type = part.Type
		}
		if m.Description == "" {
			m.Description = part.Description
		}
		if m.Title == "" {
			m.Title = part.Title
		}
		if m.Format == "" {
			m.Format = part.Format
		}
		if m.Pattern == "" {
			m.Pattern = part.Pattern
		}
		if m.Enum == nil {
			m.Enum = part.Enum
		}
		if m.Items == nil {
			m.Items = part.Items
		}
		if m.AdditionalProperties == nil {
			m.AdditionalProperties = part.AdditionalProperties
		}
		if m.Nullable == nil {
			m.Nullable = part.Nullable
		}
		if len(m.OneOf) == 0 {
			m.OneOf = part.OneOf
		}
		if len(m.AnyOf) == 0 {
			m.AnyOf = part.AnyOf
		}
		if m.Discriminator == nil {
			m.Discriminator = part.Discriminator
		}
		for _, f := range []struct{ dst, src **int64 }{
			{&m.MinLength, &part.MinLength}, {&m.MaxLength, &part.MaxLength},
			{&m.MinItems, &part.MinItems}, {&m.MaxItems, &part.MaxItems},
		} {
			if *f.dst == nil {
				*f.dst = *f.src
			}
		}
		if m.Minimum == nil {
			m.Minimum = part.Minimum
		}
		if m.Maximum == nil {
			m.Maximum = part.Maximum
		}
	}
	return &m
}

// nodeJSON turns a YAML value into JSON; nil for no node.
func nodeJSON(n *yaml.Node) json.RawMessage {
	if n == nil {
		return nil
	}
	b, err := json.Marshal(nodeValue(n, 0))
	if err != nil {
		return nil
	}
	return b
}

func nodeValue(n *yaml.Node, depth int) any {
	if depth > 100 {
		return nil
	}
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) > 0 {
			return nodeValue(n.Content[0], depth+1)
		}
		return nil
	case yaml.AliasNode:
		if n.Alias != nil {
			return nodeValue(n.Alias, depth+1)
		}
		return nil
	case yaml.SequenceNode:
		out := make([]any, 0, len(n.Content))
		for _, c := range n.Content {
			out = append(out, nodeValue(c, depth+1))
		}
		return out
	case yaml.MappingNode:
		out := map[string]any{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			out[n.Content[i].Value] = nodeValue(n.Content[i+1], depth+1)
		}
		return out
	}
	switch n.Tag {
	case "!!null":
		return nil
	case "!!bool":
		if b, err := strconv.ParseBool(n.Value); err == nil {
			return b
		}
	case "!!int", "!!float":
		if json.Valid([]byte(n.Value)) {
			return json.RawMessage(n.Value)
		}
		if f, err := strconv.ParseFloat(n.Value, 64); err == nil {
			return f
		}
	}
	return n.Value
}

// own returns a pointer to a copy of *p (nil for nil), so that the result
// does not keep p's enclosing allocation alive.
func own[T any](p *T) *T {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}
