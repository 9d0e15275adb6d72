package schema

import (
	"encoding/json"

	"github.com/mcpgen-dev/mcpgen/spec"
)

// pinTag returns the published variant node of a discriminated union with
// its discriminator pinned to the values that select it: the tag property
// gets a "const" (an "enum" for several mapped values) and is required.
//
// The server reads the tag first and refuses a value whose tag is missing
// or maps to no variant; a variant selected by the mapping alone (its tag
// declares no const) would otherwise be published as accepting any tag, or
// none, and a client's JSON Schema validator would accept values the server
// refuses. A variant whose tag already declares the value and is required
// comes back unchanged.
//
// node is shared with other documents (see def and node), so it is copied,
// never changed.
func (b *Builder) pinTag(node Object, d *spec.Discriminator, variant string) Object {
	var values []string
	for _, c := range d.Mapping {
		if c.Type == variant {
			values = append(values, c.Value)
		}
	}
	tag := d.PropertyName
	if len(values) == 0 || tag == "" || b.declaresTag(variant, tag, values) {
		return node
	}
	props, ok := member(node, "properties").(Object)
	ts, hasTag := member(props, tag).(Object)
	if !ok || !hasTag {
		// A "$ref" to the variant's definition, or an elided one: the
		// pin goes beside it in an allOf ("properties" beside a "$ref"
		// would read, to a host that inlines references, as replacing
		// the definition's).
		pin := Object{{"properties", Object{{tag, pinValues(nil, values)}}}, {"required", []string{tag}}}
		return Object{{"allOf", []Object{node, pin}}}
	}
	node = with(node, "properties", with(props, tag, pinValues(ts, values)))
	required, _ := member(node, "required").([]string)
	for _, r := range required {
		if r == tag {
			return node
		}
	}
	required = append(append([]string(nil), required...), tag)
	if member(node, "required") != nil {
		return with(node, "required", required)
	}
	// "required" goes after "properties", where the builder puts it.
	out := make(Object, 0, len(node)+1)
	for _, m := range node {
		out = append(out, m)
		if m.Key == "properties" {
			out = append(out, Member{"required", required})
		}
	}
	return out
}

// declaresTag reports whether the named type variant already requires its
// tag property and allows it only the one value in values, so that the
// published variant says what the server enforces as it is.
func (b *Builder) declaresTag(variant, tag string, values []string) bool {
	s := b.resolved(variant)
	if s == nil || len(values) != 1 {
		return false
	}
	for _, p := range s.Properties {
		if p.Name != tag {
			continue
		}
		ps := p.Schema
		if ps.Ref != "" {
			ps = b.resolved(ps.Ref)
		}
		if !p.Required || ps == nil {
			return false
		}
		raw := ps.Const
		if raw == nil && len(ps.Enum) == 1 {
			raw = ps.Enum[0]
		}
		var v string
		return raw != nil && json.Unmarshal(raw, &v) == nil && v == values[0]
	}
	return false
}

// resolved is the schema of the named type name, past references to other
// named types; nil when it names none.
func (b *Builder) resolved(name string) *spec.Schema {
	for range maxRefHops {
		nt := b.types[name]
		if nt == nil {
			return nil
		}
		if nt.Schema.Ref == "" {
			return nt.Schema
		}
		name = nt.Schema.Ref
	}
	return nil
}

// maxRefHops bounds the reference chains resolved follows (the spec
// refuses cycles of bare references; this keeps a bad API from looping).
const maxRefHops = 64

// pinValues returns the tag property's schema ts (nil when there is none)
// allowing only values: a "const" for one, an "enum" for several. Values an
// existing enum leaves out are dropped (they select the variant, whose own
// check then refuses them), so the published schema keeps refusing them.
func pinValues(ts Object, values []string) Object {
	if allowed, ok := member(ts, "enum").([]json.RawMessage); ok {
		var kept []string
		for _, v := range values {
			for _, a := range allowed {
				var s string
				if json.Unmarshal(a, &s) == nil && s == v {
					kept = append(kept, v)
					break
				}
			}
		}
		if len(kept) == 0 {
			return ts // the enum already refuses every value that selects the variant
		}
		values = kept
	}
	if c, ok := member(ts, "const").(json.RawMessage); ok {
		var s string
		if json.Unmarshal(c, &s) == nil && len(values) == 1 && s == values[0] {
			return ts
		}
	}
	var out Object
	for _, m := range ts {
		if m.Key != "const" && m.Key != "enum" {
			out = append(out, m)
		}
	}
	if len(values) == 1 {
		raw, _ := json.Marshal(values[0]) // a string always encodes
		return append(out, Member{"const", json.RawMessage(raw)})
	}
	enum := make([]json.RawMessage, len(values))
	for i, v := range values {
		enum[i], _ = json.Marshal(v)
	}
	return append(out, Member{"enum", enum})
}

// member returns the value of o's member key, or nil.
func member(o Object, key string) any {
	for _, m := range o {
		if m.Key == key {
			return m.Value
		}
	}
	return nil
}

// with returns a copy of o whose member key is v: replaced in place, or
// added at the end.
func with(o Object, key string, v any) Object {
	out := make(Object, 0, len(o)+1)
	found := false
	for _, m := range o {
		if m.Key == key {
			m.Value, found = v, true
		}
		out = append(out, m)
	}
	if !found {
		out = append(out, Member{key, v})
	}
	return out
}
