package runtime

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"

	"github.com/mcpgen-dev/mcpgen/runtime/wire"
)

// The schema side of field selection (fields.go): which field paths an
// output schema offers, the schema tools/list advertises when fields can
// be left out, and the schema of one selection. Schemas are read once,
// when a tool is registered, into jnode trees that keep the order of
// their members, so that rewritten definitions read as their authors
// wrote them.

// maxFieldDepth bounds the field paths offered: "a", "a.b" and "a.b.c"
// (array items add no segment). Deeper fields come with their parent.
const maxFieldDepth = 3

// maxFieldPaths bounds the paths of one tool (shallowest first), so that
// the argument's enum stays a small part of the definition.
const maxFieldPaths = 400

// jnode is a JSON value whose object members keep their order: kind is
// '{' or '[' for containers, 0 for a scalar held as raw JSON.
type jnode struct {
	kind  byte
	keys  []string
	vals  []*jnode // object members, beside keys
	items []*jnode // array elements
	raw   []byte   // a scalar's JSON
}

// parseJNode reads one valid JSON value (a definition AddTool has
// checked, or a schema built here). Scalars keep their bytes (views into
// b, which must not change afterwards), and keys are unescaped only when
// they hold an escape: a server with field selection parses every tool
// definition at registration, megabytes for a large API.
func parseJNode(b []byte) (*jnode, error) {
	n, rest, err := readJNode(b)
	if err != nil {
		return nil, err
	}
	if len(skipSpace(rest)) != 0 {
		return nil, errors.New("data after the value")
	}
	return n, nil
}

// readJNode reads the value at the start of valid JSON b and returns the
// bytes after it.
func readJNode(b []byte) (*jnode, []byte, error) {
	b = skipSpace(b)
	if len(b) == 0 {
		return nil, b, errBadJSON
	}
	switch b[0] {
	case '{', '[':
		n := &jnode{kind: b[0]}
		closing := byte('}')
		if n.kind == '[' {
			closing = ']'
		}
		b = skipSpace(b[1:])
		if len(b) > 0 && b[0] == closing {
			return n, b[1:], nil
		}
		for {
			b = skipSpace(b)
			if n.kind == '{' {
				end, err := stringEnd(b)
				if err != nil {
					return nil, b, err
				}
				n.keys = append(n.keys, keyName(b[:end]))
				b = skipSpace(b[end:])
				if len(b) == 0 || b[0] != ':' {
					return nil, b, errBadJSON
				}
				b = b[1:]
			}
			v, rest, err := readJNode(b)
			if err != nil {
				return nil, rest, err
			}
			if n.kind == '{' {
				n.vals = append(n.vals, v)
			} else {
				n.items = append(n.items, v)
			}
			b = skipSpace(rest)
			if len(b) == 0 {
				return nil, b, errBadJSON
			}
			if b[0] == closing {
				return n, b[1:], nil
			}
			if b[0] != ',' {
				return nil, b, errBadJSON
			}
			b = b[1:]
		}
	}
	rest, err := skipValue(b)
	if err != nil {
		return nil, b, err
	}
	return &jnode{raw: b[:len(b)-len(rest)]}, rest, nil
}

// appendJSON appends n as compact JSON, without the requiredMark members
// (they are the server's own notes, never published).
func (n *jnode) appendJSON(b []byte) []byte { return n.appendNode(b, false) }

// appendInternal appends n as compact JSON with its requiredMark members,
// for the server's own copy of a relaxed schema.
func (n *jnode) appendInternal(b []byte) []byte { return n.appendNode(b, true) }

func (n *jnode) appendNode(b []byte, marks bool) []byte {
	switch n.kind {
	case '{':
		b = append(b, '{')
		first := true
		for i, k := range n.keys {
			if k == requiredMark && !marks {
				continue
			}
			if !first {
				b = append(b, ',')
			}
			first = false
			b = wire.AppendString(b, k)
			b = append(b, ':')
			b = n.vals[i].appendNode(b, marks)
		}
		return append(b, '}')
	case '[':
		b = append(b, '[')
		for i, it := range n.items {
			if i > 0 {
				b = append(b, ',')
			}
			b = it.appendNode(b, marks)
		}
		return append(b, ']')
	}
	return append(b, n.raw...)
}

// get returns the member key of an object, or nil.
func (n *jnode) get(key string) *jnode {
	if n == nil || n.kind != '{' {
		return nil
	}
	for i, k := range n.keys {
		if k == key {
			return n.vals[i]
		}
	}
	return nil
}

// set replaces or appends the member key.
func (n *jnode) set(key string, v *jnode) {
	for i, k := range n.keys {
		if k == key {
			n.vals[i] = v
			return
		}
	}
	n.keys = append(n.keys, key)
	n.vals = append(n.vals, v)
}

// del removes the member key.
func (n *jnode) del(key string) {
	for i, k := range n.keys {
		if k == key {
			n.keys = append(n.keys[:i:i], n.keys[i+1:]...)
			n.vals = append(n.vals[:i:i], n.vals[i+1:]...)
			return
		}
	}
}

// str returns a string scalar's value.
func (n *jnode) str() (string, bool) {
	if n == nil || n.kind != 0 || len(n.raw) == 0 || n.raw[0] != '"' {
		return "", false
	}
	if inner := n.raw[1 : len(n.raw)-1]; bytes.IndexByte(inner, '\\') < 0 {
		return string(inner), true
	}
	var s string
	return s, json.Unmarshal(n.raw, &s) == nil
}

// resolve follows a local $ref ("#/$defs/user") from root, a few hops at
// most; a schema without one is returned as it is.
func resolve(root, n *jnode) *jnode {
	for hops := 0; hops < 8; hops++ {
		ref, ok := n.get("$ref").str()
		if !ok || !strings.HasPrefix(ref, "#") {
			return n
		}
		target := root
		for _, tok := range strings.Split(strings.TrimPrefix(ref, "#"), "/")[1:] {
			tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
			target = target.get(tok)
		}
		if target == nil {
			return n
		}
		n = target
	}
	return n
}

// fieldProps collects the properties an instance of schema n may have,
// by name in first-seen order, with every schema each name has there: its
// own properties, those of its allOf/anyOf/oneOf branches, and those of
// its array items (an array's fields are its elements' fields).
func fieldProps(root, n *jnode, names *[]string, by map[string][]*jnode, hops int) {
	if n == nil || hops > 16 {
		return
	}
	n = resolve(root, n)
	if props := n.get("properties"); props != nil && props.kind == '{' {
		for i, k := range props.keys {
			if _, seen := by[k]; !seen {
				*names = append(*names, k)
			}
			by[k] = append(by[k], props.vals[i])
		}
	}
	for _, kw := range [...]string{"allOf", "anyOf", "oneOf"} {
		if list := n.get(kw); list != nil {
			for _, b := range list.items {
				fieldProps(root, b, names, by, hops+1)
			}
		}
	}
	if items := n.get("items"); items != nil && items.kind == '{' {
		fieldProps(root, items, names, by, hops+1)
	}
}

// fieldPaths lists the selectable field paths of an output schema,
// shallowest first: every property to maxFieldDepth segments, through
// array items. Property names with a dot cannot be told apart from a
// path and are left out (they come with their parent).
func fieldPaths(root *jnode) []string {
	type level struct {
		prefix  string
		schemas []*jnode
	}
	var out []string
	cur := []level{{schemas: []*jnode{root}}}
	for depth := 0; depth < maxFieldDepth && len(cur) > 0; depth++ {
		var next []level
		for _, lv := range cur {
			var names []string
			by := map[string][]*jnode{}
			for _, s := range lv.schemas {
				fieldProps(root, s, &names, by, 0)
			}
			for _, name := range names {
				if name == "" || strings.Contains(name, ".") {
					continue
				}
				if len(out) == maxFieldPaths {
					return out
				}
				out = append(out, lv.prefix+name)
				next = append(next, level{prefix: lv.prefix + name + ".", schemas: by[name]})
			}
		}
		cur = next
	}
	return out
}

// Schema keywords whose value is a schema, a list of schemas, or an
// object of schemas: where relaxSchema looks for more schemas.
var (
	schemaValued    = []string{"additionalProperties", "items", "contains", "propertyNames", "unevaluatedProperties", "unevaluatedItems"}
	schemaListed    = []string{"allOf", "anyOf", "oneOf", "prefixItems"}
	schemaPerMember = []string{"properties", "patternProperties", "$defs", "definitions"}
)

// requiredMark is the member under which the server's copy of a relaxed
// schema keeps the required list it dropped (relaxSchema with
// keepRequired): the schema of one selection requires again the selected
// members that the exact schema requires (projectSchema). appendJSON
// leaves it out, so no published schema carries it.
const requiredMark = "\x00required"

// relaxSchema rewrites an output schema, in place, so that any selection
// of its fields still validates: no member is required, nothing counts
// members or depends on their presence (minProperties, dependentRequired,
// dependentSchemas, if/then/else, not), and oneOf becomes anyOf, since
// branches told apart by a required member may all match a selection.
// With keepRequired, each dropped required list stays under requiredMark.
func relaxSchema(n *jnode, keepRequired bool) {
	if n == nil || n.kind != '{' {
		return
	}
	if req := n.get("required"); req != nil && keepRequired {
		n.set(requiredMark, req)
	}
	for _, kw := range [...]string{"required", "minProperties", "dependentRequired", "dependentSchemas", "if", "then", "else", "not"} {
		n.del(kw)
	}
	if one := n.get("oneOf"); one != nil {
		n.del("oneOf")
		if n.get("anyOf") == nil {
			n.set("anyOf", one)
		} else {
			all := n.get("allOf")
			if all == nil {
				all = &jnode{kind: '['}
				n.set("allOf", all)
			}
			all.items = append(all.items, &jnode{kind: '{', keys: []string{"anyOf"}, vals: []*jnode{one}})
		}
	}
	for _, kw := range schemaValued {
		relaxSchema(n.get(kw), keepRequired)
	}
	for _, kw := range schemaListed {
		if list := n.get(kw); list != nil {
			for _, s := range list.items {
				relaxSchema(s, keepRequired)
			}
		}
	}
	for _, kw := range schemaPerMember {
		if m := n.get(kw); m != nil && m.kind == '{' {
			for _, s := range m.vals {
				relaxSchema(s, keepRequired)
			}
		}
	}
}

// projectSchema returns the schema of the instances of n projected to
// sel: its properties (and those of its branches and array items) keep
// only the selected names, the selected subfields of each recursively.
// n is relaxed; nodes not on the selection are shared, not copied. Where
// n keeps its exact required list (requiredMark), the projection requires
// the selected members in it: the result was checked against the exact
// schema, so they are there. A field selected whole is described as
// listed (relaxed).
func projectSchema(root, n *jnode, sel *fieldSel, hops int) *jnode {
	if n == nil || n.kind != '{' || hops > 16 {
		return n
	}
	n = resolve(root, n)
	out := &jnode{kind: '{'}
	for i, k := range n.keys {
		v := n.vals[i]
		switch k {
		case "$ref":
			continue // resolved above
		case "properties":
			if v.kind != '{' {
				break
			}
			p := &jnode{kind: '{'}
			for j, name := range v.keys {
				kid := sel.kids[name]
				switch {
				case kid == nil:
					continue
				case kid.all:
					p.keys, p.vals = append(p.keys, name), append(p.vals, v.vals[j])
				default:
					p.keys, p.vals = append(p.keys, name), append(p.vals, projectSchema(root, v.vals[j], kid, hops+1))
				}
			}
			v = p
		case "items":
			v = projectSchema(root, v, sel, hops+1)
		case "allOf", "anyOf", "oneOf":
			l := &jnode{kind: '['}
			for _, b := range v.items {
				l.items = append(l.items, projectSchema(root, b, sel, hops+1))
			}
			v = l
		case "$defs", "definitions":
			if n != root {
				continue
			}
		case requiredMark:
			r := &jnode{kind: '['}
			for _, it := range v.items {
				if name, ok := it.str(); ok && sel.kids[name] != nil {
					r.items = append(r.items, it)
				}
			}
			if len(r.items) == 0 {
				continue
			}
			k, v = "required", r
		}
		out.keys, out.vals = append(out.keys, k), append(out.vals, v)
	}
	return out
}
