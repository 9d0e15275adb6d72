package spec

import (
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"gopkg.in/yaml.v3"
)

// $defs, "$ref: '#'", JSON-pointer refs and nested $anchor inside one
// schema. A schema pasted from elsewhere refers to its own parts: its root
// ("#"), an entry of its $defs ("#/$defs/node"), any subschema by JSON
// pointer ("#/properties/foo", "#/prefixItems/0"), or a subschema carrying
// "$anchor" ("#name"). Before the spec is read, each root schema (a named
// type, a tool's input or output) is resolved against itself: every
// subschema such a reference reaches, and every $defs entry, becomes a
// named type under types, named after its owner and its place
// (types.Tree's $defs.node is TreeNode; a tool get_order's input
// properties.address is GetOrderInputAddress; a number suffix when the name
// is taken), and each reference becomes "$ref: Name". The root of a named
// type is that type; the root of a tool's output moves to a type of its
// own, and that of a tool's input (which stays an inline object) is copied
// into one (<Tool>InputRoot) for the references to reach. The $defs
// members and the nested $anchor keywords are then dropped: they were
// names inside that schema only. A reference that the schema does not
// resolve ("#/$defs/Name" with no such entry, "#name" with no such anchor,
// an $id) is left to the spec-wide rules (a type name, the $anchor or $id
// of a type). Positions are kept: a hoisted subschema is the same YAML
// node, so diagnostics inside it point where it was written.

// localSchema is one root schema being resolved against itself.
type localSchema struct {
	root *yaml.Node
	// owner prefixes the names of its hoisted subschemas; self is the
	// type name of the root ("" for a tool's input or output).
	owner, self string
	ctx         string
	// schemas are the subschema nodes, with their paths from the root.
	schemas map[*yaml.Node][]schemaStep
	// defs are the $defs entries in document order; defParents the
	// mappings that hold a $defs member.
	defs       []*yaml.Node
	defParents []*yaml.Node
	// anchors maps a nested $anchor to its subschema; anchorParents are
	// the mappings holding one.
	anchors       map[string]*yaml.Node
	anchorParents []*yaml.Node
	refs          []*yaml.Node // the string values of $ref members
	// dynRefs are the string values of $dynamicRef members, dynKeys
	// their keys; rootDyn is the $dynamicAnchor of the root ("" when
	// none) and dynParents the mappings holding one
	// (schema_dynamic.go).
	dynRefs    []*yaml.Node
	dynKeys    map[*yaml.Node]*yaml.Node
	rootDyn    string
	dynParents []*yaml.Node
	// refParent maps a $ref value to the subschema holding it.
	refParent map[*yaml.Node]*yaml.Node
}

// hoister resolves the local references of every root schema of a spec.
type hoister struct {
	l     *loader
	types *yaml.Node // the types mapping (created when needed)
	doc   *yaml.Node
	taken map[string]bool
	added []*yaml.Node // key, value pairs to append to types
	dyn   dynamicScopes
	// copies are the types bindDynamic made.
	copies []string
}

// hoistLocalRefs rewrites the document mapping doc as described above.
func (l *loader) hoistLocalRefs(doc *yaml.Node) {
	if doc.Kind != yaml.MappingNode {
		return
	}
	h := &hoister{l: l, doc: doc, taken: map[string]bool{}, dyn: newDynamicScopes()}
	types, tools := mapValue(doc, "types"), mapValue(doc, "tools")
	if types != nil && types.Kind != yaml.MappingNode {
		return
	}
	h.types = types
	if types != nil {
		for i := 0; i+1 < len(types.Content); i += 2 {
			h.taken[types.Content[i].Value] = true
		}
		for i := 0; i+1 < len(types.Content); i += 2 {
			name := types.Content[i].Value
			h.resolve(&types.Content[i+1], name, name, fmt.Sprintf("type %q", name))
		}
	}
	if tools != nil && tools.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(tools.Content); i += 2 {
			name, tool := tools.Content[i].Value, tools.Content[i+1]
			if tool.Kind != yaml.MappingNode {
				continue
			}
			base := typeName(name)
			for j := 0; j+1 < len(tool.Content); j += 2 {
				switch k := tool.Content[j].Value; k {
				case "input", "output":
					h.resolve(&tool.Content[j+1], base+typeName(k), "", fmt.Sprintf("tool %q: %s", name, k))
				}
			}
		}
	}
	defer h.dropUnusedCopies()
	defer h.mergeRefSiblings()
	if len(h.added) > 0 {
		if h.types == nil {
			h.types = &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: doc.Line, Column: doc.Column}
			doc.Content = append(doc.Content, scalarAt("types", doc), h.types)
		}
		h.types.Content = append(h.types.Content, h.added...)
	}
	h.refsByID()
	h.bindDynamic()
}

// resolve resolves the references of the root schema at *at.
func (h *hoister) resolve(at **yaml.Node, owner, self, ctx string) {
	ls := &localSchema{root: *at, owner: owner, self: self, ctx: ctx, schemas: map[*yaml.Node][]schemaStep{}, anchors: map[string]*yaml.Node{}, refParent: map[*yaml.Node]*yaml.Node{}, dynKeys: map[*yaml.Node]*yaml.Node{}}
	ls.walk(h.l, ls.root, nil)
	res := self
	if res == "" {
		res = ctx
	}
	dynamic := ls.dynamicRefs(h.l, h.dyn.deferred)
	if len(ls.defs) == 0 && len(ls.refs) == 0 && len(ls.anchors) == 0 && ls.rootDyn == "" {
		return
	}
	targets := map[*yaml.Node]bool{}
	var order []*yaml.Node
	target := func(n *yaml.Node) {
		if !targets[n] {
			targets[n] = true
			order = append(order, n)
		}
	}
	for _, d := range ls.defs {
		target(d)
	}
	// A root that a $dynamicRef may bind to needs a type of its own.
	rootRef := ls.rootDyn != ""
	resolved := map[*yaml.Node]*yaml.Node{} // $ref value → subschema
	for _, r := range ls.refs {
		if n, ok := ls.lookup(h.l, r); ok && n != nil {
			resolved[r] = n
		}
	}
	globals := map[*yaml.Node]string{} // $ref value → a reference left to the spec-wide rules
	for _, r := range ls.refs {
		n, ok := resolved[r]
		if !ok {
			continue
		}
		// A pointer to a subschema that is only a $ref means that
		// reference's target: no type is made for the alias.
		for range len(ls.refs) {
			inner := refOnly(n)
			if inner == nil || n == ls.root || isDefEntry(ls, n) {
				break
			}
			next, local := resolved[inner]
			if !local {
				globals[r] = inner.Value
				break
			}
			n = next
		}
		if _, ok := globals[r]; ok {
			delete(resolved, r)
			continue
		}
		resolved[r] = n
		if n == ls.root {
			rootRef = true
			continue
		}
		target(n)
	}
	for r, ref := range globals {
		r.Value = ref
	}
	for _, n := range ls.anchors {
		target(n)
	}
	names := map[*yaml.Node]string{}
	for _, n := range order {
		names[n] = h.name(owner + pathName(ls.schemas[n]))
	}
	rootName := self
	if rootRef && self == "" {
		rootName = h.name(owner + "Root")
	}
	names[ls.root] = rootName
	for r, n := range resolved {
		r.Value, r.Tag, r.Style, r.Kind = names[n], "!!str", 0, yaml.ScalarNode
	}
	h.dyn.record(ls, res, names, resolved, dynamic)
	// The $defs members and nested anchors were names inside this schema.
	for _, p := range ls.defParents {
		dropMember(p, "$defs")
	}
	for _, p := range ls.anchorParents {
		dropMember(p, "$anchor")
	}
	for _, p := range ls.dynParents {
		dropMember(p, "$dynamicAnchor")
	}
	isDef := map[*yaml.Node]bool{}
	for _, d := range ls.defs {
		isDef[d] = true
	}
	for _, n := range order {
		moved := n
		if !isDef[n] {
			// A subschema in place: it moves to the type, and a
			// reference to the type takes its place.
			moved = new(yaml.Node)
			*moved = *n
			*n = *refTo(names[n], n)
		}
		if isBoolSchema(moved) {
			moved = boolAsMapping(moved)
		}
		h.add(names[n], moved)
	}
	if rootRef && self == "" {
		if strings.HasSuffix(ctx, ": input") {
			// A tool's input stays an inline object: the type is a copy,
			// of the type the input implies.
			c := deepCopy(*at)
			if c.Kind == yaml.MappingNode && mapValue(c, "type") == nil {
				c.Content = append([]*yaml.Node{scalarAt("type", c), scalarAt("object", c)}, c.Content...)
			}
			h.add(rootName, c)
		} else {
			h.add(rootName, *at)
			*at = refTo(rootName, *at)
		}
	}
}

// add appends the named type name with schema n to types.
func (h *hoister) add(name string, n *yaml.Node) {
	h.added = append(h.added, scalarAt(name, n), n)
}

// name is a free type name for base: base itself, or base with the
// smallest number from 2 up that makes it free.
func (h *hoister) name(base string) string {
	name := base
	for i := 2; h.taken[name]; i++ {
		name = base + strconv.Itoa(i)
	}
	h.taken[name] = true
	return name
}

// pathName names the subschema at path (under its owner) by the meaning of
// each step, never by the spelling of a token: the items keyword is Item,
// additionalProperties Value, an entry of a list its keyword and index
// (AllOf0), a member of a map its own name alone, whatever keyword it is
// spelled like (a property called "items" is Items), and any other keyword
// its name (Not, If).
func pathName(path []schemaStep) string {
	var b strings.Builder
	for _, s := range path {
		switch {
		case s.keyword == "items":
			b.WriteString("Item")
		case s.keyword == "additionalProperties":
			b.WriteString("Value")
		case subschemaKeywords[s.keyword] == subschemaMap:
			b.WriteString(typeName(s.token))
		case subschemaKeywords[s.keyword] == subschemaList:
			b.WriteString(typeName(s.keyword) + s.token)
		default:
			b.WriteString(typeName(s.keyword))
		}
	}
	return b.String()
}

// typeName is s as a type name: its ASCII letters and digits, each word
// capitalised ("tilde~field" → "TildeField"); "Def" when s has none.
func typeName(s string) string {
	var b strings.Builder
	up := true
	for _, r := range s {
		if r >= unicode.MaxASCII || !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			up = true
			continue
		}
		if up {
			r = unicode.ToUpper(r)
			up = false
		}
		b.WriteRune(r)
	}
	if b.Len() == 0 {
		return "Def"
	}
	out := b.String()
	if unicode.IsDigit(rune(out[0])) {
		out = "N" + out
	}
	return out
}

// walk records the subschemas, $defs entries, nested anchors and $ref
// values under n (the subschema at path).
func (ls *localSchema) walk(l *loader, n *yaml.Node, path []schemaStep) {
	if n.Kind != yaml.MappingNode && !isBoolSchema(n) {
		return
	}
	if _, seen := ls.schemas[n]; seen {
		return
	}
	ls.schemas[n] = path
	if n.Kind != yaml.MappingNode {
		return
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		switch {
		case k.Value == "$ref" && v.Kind == yaml.ScalarNode:
			ls.refs = append(ls.refs, v)
			ls.refParent[v] = n
		case k.Value == "$anchor" && n != ls.root && v.Kind == yaml.ScalarNode:
			if other, dup := ls.anchors[v.Value]; dup && other != n {
				l.errorf(v, ls.ctx, "$anchor %q is already an anchor of this schema", v.Value)
				continue
			}
			ls.anchors[v.Value] = n
			ls.anchorParents = append(ls.anchorParents, n)
		case k.Value == "$dynamicRef" && v.Kind == yaml.ScalarNode:
			ls.dynRefs = append(ls.dynRefs, v)
			ls.dynKeys[v] = k
			ls.refParent[v] = n
		case k.Value == "$dynamicAnchor" && v.Kind == yaml.ScalarNode:
			// Also a plain anchor, as $anchor is.
			ls.dynParents = append(ls.dynParents, n)
			if n == ls.root {
				ls.rootDyn = v.Value
				continue
			}
			if other, dup := ls.anchors[v.Value]; dup && other != n {
				l.errorf(v, ls.ctx, "$dynamicAnchor %q is already an anchor of this schema", v.Value)
				continue
			}
			ls.anchors[v.Value] = n
			ls.anchorParents = append(ls.anchorParents, n)
		case k.Value == "$id" && n != ls.root:
			l.errorf(k, ls.ctx, "an $id inside a schema starts a schema resource of its own, which mcpgen does not support: declare it as a named type under types (where $id is one more name for it)")
			defer dropMember(n, "$id") // reported once
		default:
			if k.Value == "$defs" && v.Kind == yaml.MappingNode {
				ls.defParents = append(ls.defParents, n)
			}
			memberSubschemas(k.Value, v, func(token string, s *yaml.Node) {
				at := append(slices.Clip(path), schemaStep{k.Value, token})
				if k.Value == "$defs" {
					ls.defs = append(ls.defs, s)
				}
				ls.walk(l, s, at)
			})
		}
	}
}

// lookup resolves the $ref value r against the schema: the subschema it
// names, or ok false when the spec-wide rules decide (or r is an error,
// reported here).
func (ls *localSchema) lookup(l *loader, r *yaml.Node) (*yaml.Node, bool) {
	ref := r.Value
	fail := func(format string, args ...any) (*yaml.Node, bool) {
		l.errorf(r, ls.ctx, format, args...)
		dropMember(ls.refParent[r], "$ref") // reported once
		return nil, false
	}
	if ref == "#" {
		return ls.root, true
	}
	if anchor, ok := anchorRef(ref); ok {
		if anchor == ls.rootDyn {
			return ls.root, true
		}
		n, ok := ls.anchors[anchor]
		return n, ok
	}
	if !strings.HasPrefix(ref, "#/") {
		return nil, false
	}
	n := ls.root
	tokens := strings.Split(ref[2:], "/")
	for i, t := range tokens {
		t, err := url.PathUnescape(t)
		if err != nil {
			return fail("$ref %q: %v", ref, err)
		}
		t = strings.ReplaceAll(strings.ReplaceAll(t, "~1", "/"), "~0", "~")
		next := (*yaml.Node)(nil)
		switch n.Kind {
		case yaml.MappingNode:
			next = mapValue(n, t)
		case yaml.SequenceNode:
			if j, err := strconv.Atoi(t); err == nil && j >= 0 && j < len(n.Content) {
				next = n.Content[j]
			}
		}
		if next == nil {
			if i == 0 || len(tokens) == 2 && (tokens[0] == "$defs" || tokens[0] == "types") {
				// Not a place in this schema: a named type ("#/$defs/Name",
				// "#/types/Name"), or an error the spec-wide rules report.
				return nil, false
			}
			return fail("$ref %q points at nothing in this schema", ref)
		}
		n = next
	}
	if _, ok := ls.schemas[n]; !ok {
		return fail("$ref %q points at no subschema of this schema", ref)
	}
	return n, true
}

// refOnly is the $ref value of a subschema that holds nothing else, or nil.
func refOnly(n *yaml.Node) *yaml.Node {
	if n.Kind == yaml.MappingNode && len(n.Content) == 2 && n.Content[0].Value == "$ref" && n.Content[1].Kind == yaml.ScalarNode {
		return n.Content[1]
	}
	return nil
}

// isDefEntry reports whether n is an entry of a $defs of the schema.
func isDefEntry(ls *localSchema, n *yaml.Node) bool {
	for _, d := range ls.defs {
		if d == n {
			return true
		}
	}
	return false
}

// mapValue is the value of key k in mapping n, or nil.
func mapValue(n *yaml.Node, k string) *yaml.Node {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == k {
			return n.Content[i+1]
		}
	}
	return nil
}

// dropMember removes member k from mapping n.
func dropMember(n *yaml.Node, k string) {
	var out []*yaml.Node
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value != k {
			out = append(out, n.Content[i], n.Content[i+1])
		}
	}
	n.Content = out
}

// isBoolSchema reports whether n is the boolean schema true or false.
func isBoolSchema(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!bool"
}

// boolAsMapping is the boolean schema n as a named type can hold it: true
// is {} (any value), false is {not: {}} (no value).
func boolAsMapping(n *yaml.Node) *yaml.Node {
	m := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: n.Line, Column: n.Column}
	if n.Value == "false" {
		m.Content = []*yaml.Node{scalarAt("not", n), {Kind: yaml.MappingNode, Tag: "!!map", Line: n.Line, Column: n.Column}}
	}
	return m
}

// scalarAt is a string scalar at the position of n.
func scalarAt(s string, n *yaml.Node) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s, Line: n.Line, Column: n.Column}
}

// refTo is the schema {$ref: name} at the position of n.
func refTo(name string, n *yaml.Node) *yaml.Node {
	return &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: n.Line, Column: n.Column,
		Content: []*yaml.Node{scalarAt("$ref", n), scalarAt(name, n)}}
}

// deepCopy copies n and everything under it.
func deepCopy(n *yaml.Node) *yaml.Node {
	c := *n
	c.Content = make([]*yaml.Node, len(n.Content))
	for i, x := range n.Content {
		c.Content[i] = deepCopy(x)
	}
	return &c
}

// refSiblingsKept may sit beside $ref without changing what it means (the
// loader accepts them there); any other keyword beside a $ref to a named
// type is merged with the type's keywords when that is exact (mergeRef).
var refSiblingsKept = []string{"$ref", "title", "description", "nullable", "deprecated", "default", "examples", "x-mcp-header", "$comment", "$id"}

// mergeRefSiblings rewrites each {$ref: T, k: v, ...} in the spec's types
// and tool schemas whose keywords k and T's own are disjoint (but for an
// equal type, properties of distinct names and required) into one schema
// with both: in JSON Schema 2020-12 the $ref and its siblings both apply,
// and the union of disjoint keywords asks exactly that. It is not exact,
// and left to the loader's "cannot be combined with $ref", when T closes
// or tracks members the siblings add (additionalProperties,
// unevaluatedProperties, unevaluatedItems, patternProperties, items,
// prefixItems: refMergeBlocked) or the siblings close members T declares.
func (h *hoister) mergeRefSiblings() {
	types := map[string]*yaml.Node{}
	if h.types != nil {
		for i := 0; i+1 < len(h.types.Content); i += 2 {
			types[h.types.Content[i].Value] = h.types.Content[i+1]
		}
	}
	seen := map[*yaml.Node]bool{}
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		if n == nil || seen[n] || n.Kind != yaml.MappingNode {
			return
		}
		seen[n] = true
		if r := mapValue(n, "$ref"); r != nil && r.Kind == yaml.ScalarNode {
			if t := types[r.Value]; t != nil && t != n {
				mergeRef(n, t)
			}
		}
		eachSubschema(n, func(_, _ string, s *yaml.Node) { walk(s) })
	}
	if h.types != nil {
		for i := 1; i < len(h.types.Content); i += 2 {
			walk(h.types.Content[i])
		}
	}
	if tools := mapValue(h.doc, "tools"); tools != nil && tools.Kind == yaml.MappingNode {
		for i := 1; i < len(tools.Content); i += 2 {
			walk(mapValue(tools.Content[i], "input"))
			walk(mapValue(tools.Content[i], "output"))
		}
	}
}

// refMergeBlocked maps a keyword of a named type whose meaning depends on
// the other keywords of its schema to the siblings of a $ref that would
// change it if merged in (nil: any sibling).
var refMergeBlocked = map[string][]string{
	"additionalProperties":  {"properties", "patternProperties", "additionalProperties"},
	"patternProperties":     {"properties", "patternProperties", "additionalProperties"},
	"unevaluatedProperties": {"properties", "patternProperties", "additionalProperties", "unevaluatedProperties", "dependentSchemas", "allOf", "anyOf", "oneOf", "not", "if", "then", "else"},
	"items":                 {"items", "prefixItems"},
	"prefixItems":           {"items", "prefixItems"},
	"unevaluatedItems":      {"items", "prefixItems", "contains", "unevaluatedItems", "allOf", "anyOf", "oneOf", "not", "if", "then", "else"},
	"$ref":                  nil,
	"$anchor":               nil,
	"$id":                   nil,
	"oneOf":                 nil,
	"discriminator":         nil,
}

// mergeRef merges the named type t into the schema n = {$ref: t, ...}
// when that is exact (see mergeRefSiblings), leaving n alone otherwise.
func mergeRef(n, t *yaml.Node) {
	if t.Kind != yaml.MappingNode {
		return
	}
	var siblings []string
	for i := 0; i+1 < len(n.Content); i += 2 {
		if !contains(refSiblingsKept, n.Content[i].Value) {
			siblings = append(siblings, n.Content[i].Value)
		}
	}
	if len(siblings) == 0 {
		return
	}
	for i := 0; i+1 < len(t.Content); i += 2 {
		blocked, tracks := refMergeBlocked[t.Content[i].Value]
		if !tracks {
			continue
		}
		if blocked == nil {
			return
		}
		for _, k := range blocked {
			if mapValue(n, k) != nil {
				return
			}
		}
	}
	closes := mapValue(n, "additionalProperties") != nil || mapValue(n, "patternProperties") != nil
	if closes && (mapValue(t, "properties") != nil || mapValue(t, "patternProperties") != nil) {
		return
	}
	out := []*yaml.Node{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value != "$ref" {
			out = append(out, n.Content[i], n.Content[i+1])
		}
	}
	merged := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: n.Line, Column: n.Column, Content: out}
	for i := 0; i+1 < len(t.Content); i += 2 {
		k, v := t.Content[i], t.Content[i+1]
		mine := mapValue(merged, k.Value)
		switch {
		case mine == nil:
			merged.Content = append(merged.Content, k, deepCopy(v))
		case k.Value == "type" && mine.Value == v.Value && mine.Kind == yaml.ScalarNode && v.Kind == yaml.ScalarNode:
		case k.Value == "required" && mine.Kind == yaml.SequenceNode && v.Kind == yaml.SequenceNode:
			mine.Content = append(mine.Content, deepCopy(v).Content...)
		case k.Value == "properties" && mine.Kind == yaml.MappingNode && v.Kind == yaml.MappingNode:
			for j := 0; j+1 < len(v.Content); j += 2 {
				if mapValue(mine, v.Content[j].Value) != nil {
					return // the same property on both sides: both apply
				}
			}
			mine.Content = append(mine.Content, deepCopy(v).Content...)
		case contains([]string{"title", "description", "$comment", "default", "examples", "deprecated"}, k.Value):
			// the site's own annotation wins
		default:
			return // the same keyword on both sides: both apply
		}
	}
	*n = *merged
}
