package schema

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/mcpgen-dev/mcpgen/spec"
)

// Loss is one lossy rewrite a client profile made to a published schema:
// where, in the rewritten document, and what the listed schema no longer
// says. Every loss relaxes the schema (it accepts more), never the
// reverse, so a client validating against it never refuses a value the
// server accepts.
type Loss struct {
	// Pointer is the JSON pointer of the rewritten node ("" is the root).
	Pointer string
	What    string
}

// errInlineTooLarge stops an inlining that grows past its node budget.
var errInlineTooLarge = errors.New("schema: inlined document over its budget")

// InlineRefs returns doc with every "$ref" into its "$defs" replaced by
// the definition, and no "$defs": the form hosts without "$ref" support
// accept. Keywords beside a "$ref" (title, description, default, ...)
// win over the definition's. A recursive definition is expanded depth
// times along a path; the next use becomes {} (any value) with a
// description naming the type, reported as a Loss, and every "oneOf"
// above such a cut becomes "anyOf" (the cut variant would match values of
// the others), reported too. Non-recursive definitions are inlined whole,
// however deep, which loses nothing.
//
// maxNodes bounds the schema nodes of the result (0: no bound); past it,
// InlineRefs fails with errInlineTooLarge (see IsInlineTooLarge), and the
// caller lists a shallow document instead. doc is never changed; the
// result shares the subtrees it did not rewrite.
func InlineRefs(doc Object, depth, maxNodes int) (Object, []Loss, error) {
	var defs Object
	root := make(Object, 0, len(doc))
	for _, m := range doc {
		if m.Key == "$defs" {
			if d, ok := m.Value.(Object); ok {
				defs = d
				continue
			}
		}
		root = append(root, m)
	}
	if defs == nil {
		return doc, nil, nil
	}
	in := &inliner{defs: map[string]Object{}, depth: depth, maxNodes: maxNodes,
		onPath: map[string]int{}, done: map[string]Object{}}
	for _, m := range defs {
		in.defs[m.Key] = m.Value.(Object)
	}
	in.recursive = recursiveDefs(in.defs)
	out, _, err := in.schema(root, "")
	if err != nil {
		return nil, nil, err
	}
	return out, in.losses, nil
}

// IsInlineTooLarge reports whether err is InlineRefs running out of nodes.
func IsInlineTooLarge(err error) bool { return errors.Is(err, errInlineTooLarge) }

type inliner struct {
	defs      map[string]Object
	recursive map[string]bool
	depth     int
	maxNodes  int
	nodes     int
	// onPath counts the expansions of each recursive definition on the
	// path from the root to the current node.
	onPath map[string]int
	// done holds the expansions of non-recursive definitions, which do
	// not depend on the path.
	done   map[string]Object
	losses []Loss
}

// defName is the definition a "$ref" names, "" when it is not into $defs.
func defName(o Object) string {
	for _, m := range o {
		if m.Key == "$ref" {
			if s, ok := m.Value.(string); ok {
				return strings.TrimPrefix(s, "#/$defs/")
			}
		}
	}
	return ""
}

// schema rewrites the schema node o at pointer ptr; cut reports whether a
// recursion was cut in it.
func (in *inliner) schema(o Object, ptr string) (Object, bool, error) {
	in.nodes++
	if in.maxNodes > 0 && in.nodes > in.maxNodes {
		return nil, false, errInlineTooLarge
	}
	if name := defName(o); name != "" {
		if def, ok := in.defs[name]; ok {
			return in.ref(o, name, def, ptr)
		}
	}
	out := make(Object, 0, len(o))
	cut := false
	for _, m := range o {
		v, c, err := in.member(m, ptr)
		if err != nil {
			return nil, false, err
		}
		if c && m.Key == "oneOf" {
			in.losses = append(in.losses, Loss{ptr, "oneOf listed as anyOf, because a variant holds a recursion cut (a value matching several variants is no longer refused)"})
			m.Key = "anyOf"
		}
		cut = cut || c
		out = append(out, Member{m.Key, v})
	}
	return out, cut, nil
}

// schemaKeys are the keywords whose value is a schema, and schemaListKeys
// those whose value is a list of schemas; "properties" maps names to
// schemas.
var (
	schemaKeys     = map[string]bool{"items": true, "additionalProperties": true, "not": true, "contains": true, "propertyNames": true, "unevaluatedProperties": true, "unevaluatedItems": true, "if": true, "then": true, "else": true}
	schemaListKeys = map[string]bool{"oneOf": true, "anyOf": true, "allOf": true, "prefixItems": true}
)

func (in *inliner) member(m Member, ptr string) (any, bool, error) {
	p := ptr + "/" + spec.PointerToken(m.Key)
	switch v := m.Value.(type) {
	case Object:
		switch {
		case schemaKeys[m.Key]:
			return in.schema(v, p)
		case m.Key == "properties" || m.Key == "patternProperties" || m.Key == "dependentSchemas":
			out := make(Object, 0, len(v))
			cut := false
			for _, pm := range v {
				s, ok := pm.Value.(Object)
				if !ok {
					out = append(out, pm)
					continue
				}
				r, c, err := in.schema(s, p+"/"+spec.PointerToken(pm.Key))
				if err != nil {
					return nil, false, err
				}
				cut = cut || c
				out = append(out, Member{pm.Key, r})
			}
			return out, cut, nil
		}
	case []Object:
		if schemaListKeys[m.Key] {
			out := make([]Object, len(v))
			cut := false
			for i, s := range v {
				r, c, err := in.schema(s, fmt.Sprintf("%s/%d", p, i))
				if err != nil {
					return nil, false, err
				}
				cut = cut || c
				out[i] = r
			}
			return out, cut, nil
		}
	}
	return m.Value, false, nil
}

// ref inlines the definition name at the reference site site.
func (in *inliner) ref(site Object, name string, def Object, ptr string) (Object, bool, error) {
	if !in.recursive[name] {
		if body, ok := in.done[name]; ok {
			return overlay(body, site), false, nil
		}
		// A non-recursive definition expands the same wherever it is:
		// none of the types it reaches can be on the path above it (it
		// would reach itself through them). Only an expansion without
		// cuts is kept, so that every cut is reported at its own pointer.
		before := len(in.losses)
		body, cut, err := in.schema(def, ptr)
		if err != nil {
			return nil, false, err
		}
		if len(in.losses) == before {
			in.done[name] = body
		}
		return overlay(body, site), cut, nil
	}
	// The root is always expanded: a tool's schema must say its type
	// ("object" for inputSchema and outputSchema), which a cut would not.
	if in.onPath[name] >= in.depth && ptr != "" {
		in.losses = append(in.losses, Loss{ptr, fmt.Sprintf("recursive type %s listed as any value after %d expansion(s)", name, in.depth)})
		return cutNode(site, def, name, in.depth), true, nil
	}
	in.onPath[name]++
	body, cut, err := in.schema(def, ptr)
	in.onPath[name]--
	if err != nil {
		return nil, false, err
	}
	return overlay(body, site), cut, nil
}

// overlay is def with the keywords of the reference site (except "$ref")
// in place of its own.
func overlay(def, site Object) Object {
	if len(site) == 1 {
		return def
	}
	out := make(Object, 0, len(def)+len(site))
	has := map[string]bool{}
	for _, m := range site {
		has[m.Key] = true
	}
	for _, m := range def {
		if !has[m.Key] {
			out = append(out, m)
			continue
		}
		for _, s := range site {
			if s.Key == m.Key {
				out = append(out, s)
			}
		}
		has[m.Key] = false
	}
	for _, s := range site {
		if s.Key != "$ref" && has[s.Key] {
			out = append(out, s)
		}
	}
	return out
}

// cutNode is what a reference to a recursive type becomes past the
// depth: any value, described.
func cutNode(site, def Object, name string, depth int) Object {
	var title, desc, header any
	for _, m := range def {
		if m.Key == "description" {
			desc = m.Value
		}
	}
	for _, m := range site {
		switch m.Key {
		case "title":
			title = m.Value
		case "description":
			desc = m.Value
		case "x-mcp-header":
			header = m.Value
		}
	}
	var o Object
	if title != nil {
		o = append(o, Member{"title", title})
	}
	d, _ := desc.(string)
	if d != "" {
		d += "\n\n"
	}
	d += fmt.Sprintf("A %s (recursive: its schema is listed %d level(s) deep, and not below).", name, depth)
	o = append(o, Member{"description", d})
	if header != nil {
		o = append(o, Member{"x-mcp-header", header})
	}
	return o
}

// recursiveDefs finds the definitions that reach themselves.
func recursiveDefs(defs map[string]Object) map[string]bool {
	refs := map[string][]string{}
	for name, d := range defs {
		refs[name] = collectRefs(d, nil)
	}
	out := map[string]bool{}
	names := make([]string, 0, len(defs))
	for name := range defs {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		seen := map[string]bool{}
		todo := append([]string(nil), refs[name]...)
		for len(todo) > 0 {
			n := todo[len(todo)-1]
			todo = todo[:len(todo)-1]
			if n == name {
				out[name] = true
				break
			}
			if seen[n] {
				continue
			}
			seen[n] = true
			todo = append(todo, refs[n]...)
		}
	}
	return out
}

// collectRefs appends the definitions v refers to.
func collectRefs(v any, out []string) []string {
	switch x := v.(type) {
	case Object:
		for _, m := range x {
			if m.Key == "$ref" {
				if s, ok := m.Value.(string); ok && strings.HasPrefix(s, "#/$defs/") {
					out = append(out, strings.TrimPrefix(s, "#/$defs/"))
				}
				continue
			}
			out = collectRefs(m.Value, out)
		}
	case []Object:
		for _, e := range x {
			out = collectRefs(e, out)
		}
	}
	return out
}
