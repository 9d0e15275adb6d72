package spec

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"
)

// $dynamicRef and $dynamicAnchor. A spec is one document whose schema
// resources are its named types (as written under types) and its tools'
// inputs and outputs; the $defs entries and anchored subschemas hoisted
// out of one (schema_defs.go) stay in its resource. A $dynamicAnchor is
// an anchor of its resource, as $anchor is. A $dynamicRef first resolves
// as $ref does, against its own resource ("#name" or a JSON pointer);
// when that target carries a $dynamicAnchor of the fragment's name, the
// reference is dynamic: it means the schema that the outermost resource
// of the dynamic scope (the resources an evaluation has entered to reach
// it, from the tool's input or output down) declares with that
// $dynamicAnchor. Every step of an evaluation through a spec follows a
// $ref to a type known when the spec is read, so the dynamic scope of each
// path is known too: the loader binds each dynamic reference per path, as
// a generic type is instantiated per type argument. A type whose
// dynamic references bind otherwise than when the type is evaluated on its
// own becomes a copy named after its bindings (List reached from
// StringList, whose $defs declare the anchor item, is ListOfStringListItem),
// and the $dynamicRef a $ref to the bound type. Bindings depend only on the
// first resource that declares each anchor, so there are finitely many.

// maxInstances bounds the copies bindDynamic makes.
const maxInstances = 1000

// dynamicScopes are the resources and dynamic anchors that hoistLocalRefs
// records for bindDynamic.
type dynamicScopes struct {
	// resourceOf is the resource of a hoisted type (a named type as
	// written is its own).
	resourceOf map[string]string
	// anchors are the dynamic anchors of each resource: name → type.
	anchors map[string]map[string]string
	// anchorOf is the dynamic anchor a type carries.
	anchorOf map[string]string
	// plain are the other anchors of each resource: name → type.
	plain map[string]map[string]string
	// deferred are the $ref and $dynamicRef values that name another
	// type's anchor ("uri#name"), by their keys: bindDynamic resolves
	// them.
	deferred map[*yaml.Node]deferredRef
	// sites counts the dynamic references.
	sites int
}

func newDynamicScopes() dynamicScopes {
	return dynamicScopes{resourceOf: map[string]string{}, anchors: map[string]map[string]string{}, anchorOf: map[string]string{},
		plain: map[string]map[string]string{}, deferred: map[*yaml.Node]deferredRef{}}
}

// deferredRef is a $dynamicRef value to another type's anchor, with the
// subschema holding it and its context.
type deferredRef struct {
	v, parent *yaml.Node
	ctx       string
}

// dynamicRefs resolves the $dynamicRef members of the schema as $ref
// members (they take part in hoisting as references do) and returns the
// dynamic ones (value → anchor name): those whose first target carries a
// $dynamicAnchor of the fragment's name. Any other is a $ref, but for an
// anchor of another type ("uri#name"), which bindDynamic resolves
// (deferred, as are the $ref members that name one).
func (ls *localSchema) dynamicRefs(l *loader, deferred map[*yaml.Node]deferredRef) map[*yaml.Node]string {
	dynamic := map[*yaml.Node]string{}
	for _, v := range ls.refs {
		if i := strings.Index(v.Value, "#"); i > 0 {
			if _, ok := anchorRef(v.Value[i:]); ok && keyOf(ls.refParent[v], v) != nil {
				deferred[keyOf(ls.refParent[v], v)] = deferredRef{v, ls.refParent[v], ls.ctx}
			}
		}
	}
	for _, v := range ls.dynRefs {
		if kw := constraintAbove(ls.schemas[ls.refParent[v]]); kw != "" {
			l.errorf(v, ls.ctx, "$dynamicRef under %s is not supported: a constraint subschema narrows the value of the schema it applies to, and a bound reference would give that value a type of its own (write the $dynamicRef on the schema itself)", kw)
			dropMember(ls.refParent[v], "$dynamicRef") // reported once
			continue
		}
		if i := strings.Index(v.Value, "#"); i > 0 {
			if _, ok := anchorRef(v.Value[i:]); ok {
				deferred[ls.dynKeys[v]] = deferredRef{v, ls.refParent[v], ls.ctx}
				continue
			}
		}
		ls.dynKeys[v].Value = "$ref"
		ls.refs = append(ls.refs, v)
		n, ok := ls.lookup(l, v)
		name, isAnchor := anchorRef(v.Value)
		if ok && n != nil && isAnchor && ls.dynamicAnchor(n) == name {
			dynamic[v] = name
		}
	}
	return dynamic
}

// constraintAbove is the first constraint keyword (allOf, anyOf, not,
// if, then, else, dependentSchemas, propertyNames) on the path of a
// subschema, "" when none. Only keywords count: a member named like one (a
// property called "not") is no constraint.
func constraintAbove(path []schemaStep) string {
	for _, s := range path {
		switch s.keyword {
		case "allOf", "anyOf", "not", "if", "then", "else", "dependentSchemas", "propertyNames":
			return s.keyword
		}
	}
	return ""
}

// keyOf is the key of value v in mapping n.
func keyOf(n, v *yaml.Node) *yaml.Node {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i+1] == v {
			return n.Content[i]
		}
	}
	return nil
}

// dynamicAnchor is the $dynamicAnchor of subschema n ("" when none).
func (ls *localSchema) dynamicAnchor(n *yaml.Node) string {
	if n == ls.root {
		return ls.rootDyn
	}
	if a := mapValue(n, "$dynamicAnchor"); a != nil && a.Kind == yaml.ScalarNode {
		return a.Value
	}
	return ""
}

// record notes the resource res of the types named for the schema, its
// dynamic anchors, and turns its dynamic references (now naming the
// type of their first target) back into $dynamicRef members.
func (d *dynamicScopes) record(ls *localSchema, res string, names map[*yaml.Node]string, resolved map[*yaml.Node]*yaml.Node, dynamic map[*yaml.Node]string) {
	for _, name := range names {
		if name != "" {
			d.resourceOf[name] = res
		}
	}
	if d.plain[res] == nil {
		d.plain[res] = map[string]string{}
	}
	declare := func(a string, n *yaml.Node) {
		name := names[n]
		if name == "" {
			return
		}
		if d.anchors[res] == nil {
			d.anchors[res] = map[string]string{}
		}
		d.anchors[res][a] = name
		d.anchorOf[name] = a
	}
	if ls.rootDyn != "" {
		declare(ls.rootDyn, ls.root)
	}
	for a, n := range ls.anchors {
		if ls.dynamicAnchor(n) == a {
			declare(a, n)
		} else if names[n] != "" {
			d.plain[res][a] = names[n]
		}
	}
	for v := range dynamic {
		if _, ok := resolved[v]; ok {
			ls.dynKeys[v].Value = "$dynamicRef"
			d.sites++
		}
	}
}

// resource is the resource of type name.
func (d *dynamicScopes) resource(name string) string {
	if r, ok := d.resourceOf[name]; ok {
		return r
	}
	return name
}

// binding maps a dynamic anchor name to the type it binds to.
type binding map[string]string

// enter is b with the dynamic anchors of resource res that b does not
// bind yet (the outermost resource declaring an anchor wins).
func (d *dynamicScopes) enter(b binding, res string) binding {
	out := maps.Clone(b)
	if out == nil {
		out = binding{}
	}
	for a, t := range d.anchors[res] {
		if _, ok := out[a]; !ok {
			out[a] = t
		}
	}
	return out
}

// only is b restricted to the anchor names in uses, as "a=T;...".
func (b binding) only(uses map[string]bool) string {
	var parts []string
	for _, a := range slices.Sorted(maps.Keys(uses)) {
		if t, ok := b[a]; ok {
			parts = append(parts, a+"="+t)
		}
	}
	return strings.Join(parts, ";")
}

// eachRef calls f with the key and value of every $ref and $dynamicRef
// member in the schema n and its subschemas.
func eachRef(n *yaml.Node, f func(k, v *yaml.Node)) {
	seen := map[*yaml.Node]bool{}
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		if n == nil || seen[n] || n.Kind != yaml.MappingNode {
			return
		}
		seen[n] = true
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if (k.Value == "$ref" || k.Value == "$dynamicRef") && v.Kind == yaml.ScalarNode {
				f(k, v)
				continue
			}
			memberSubschemas(k.Value, v, func(_ string, s *yaml.Node) { walk(s) })
		}
	}
	walk(n)
}

// bindDynamic binds every dynamic reference of the spec per path (see
// above): each $dynamicRef becomes a $ref.
func (h *hoister) bindDynamic() {
	d := &h.dyn
	if d.sites == 0 && len(d.deferred) == 0 {
		return
	}
	var order []string
	types := map[string]*yaml.Node{}
	ids := map[string]string{}
	if h.types != nil {
		for i := 0; i+1 < len(h.types.Content); i += 2 {
			name := h.types.Content[i].Value
			order = append(order, name)
			types[name] = h.types.Content[i+1]
			if id := mapValue(types[name], "$id"); id != nil && id.Kind == yaml.ScalarNode {
				ids[strings.TrimSuffix(id.Value, "#")] = name
			}
		}
	}
	// typeOf is the type a $ref value names ("" when none): its name,
	// "#/types/Name", "#/$defs/Name" or its $id.
	typeOf := func(ref string) string {
		for _, p := range []string{"", "#/types/", "#/$defs/"} {
			if name, ok := strings.CutPrefix(ref, p); ok && types[name] != nil {
				return name
			}
		}
		return ids[strings.TrimSuffix(ref, "#")]
	}
	h.resolveDeferred(typeOf, types)
	// uses are the dynamic anchor names whose binding changes what a
	// type means: those of the dynamic references it reaches.
	bound := map[string][]string{} // anchor name → the types declaring it
	for _, t := range slices.Sorted(maps.Keys(d.anchorOf)) {
		bound[d.anchorOf[t]] = append(bound[d.anchorOf[t]], t)
	}
	uses := map[string]map[string]bool{}
	reach := map[string][]string{}
	for _, name := range order {
		uses[name] = map[string]bool{}
		eachRef(types[name], func(k, v *yaml.Node) {
			if k.Value == "$dynamicRef" {
				a := d.anchorOf[v.Value]
				uses[name][a] = true
				reach[name] = append(reach[name], bound[a]...)
			} else if t := typeOf(v.Value); t != "" {
				reach[name] = append(reach[name], t)
			}
		})
	}
	for changed := true; changed; {
		changed = false
		for _, name := range order {
			for _, r := range reach[name] {
				for a := range uses[r] {
					if !uses[name][a] {
						uses[name][a] = true
						changed = true
					}
				}
			}
		}
	}
	orig := map[string]*yaml.Node{}
	for _, name := range order {
		if len(uses[name]) > 0 {
			orig[name] = deepCopy(types[name])
		}
	}
	made := map[string]string{} // type and binding → the type that holds it
	copies := 0
	var inst func(t string, b binding, at *yaml.Node) string
	rewrite := func(n *yaml.Node, b binding) {
		eachRef(n, func(k, v *yaml.Node) {
			if k.Value == "$dynamicRef" {
				if t, ok := b[d.anchorOf[v.Value]]; ok {
					v.Value = t
				}
				k.Value = "$ref"
			}
			if t := typeOf(v.Value); t != "" {
				// A $ref stays as written unless it now means a copy.
				if name := inst(t, b, v); name != t {
					v.Value = name
				}
			}
		})
	}
	inst = func(t string, outer binding, at *yaml.Node) string {
		if len(uses[t]) == 0 {
			return t
		}
		b := d.enter(outer, d.resource(t))
		key := t + "|" + b.only(uses[t])
		if name, ok := made[key]; ok {
			return name
		}
		name, n := t, types[t]
		if own := d.enter(nil, d.resource(t)).only(uses[t]); own != b.only(uses[t]) {
			if copies++; copies > maxInstances {
				h.l.errorf(at, "$dynamicRef", "binding the dynamic references takes more than %d copies of the types they reach: write $ref to the types meant", maxInstances)
				return t
			}
			var of strings.Builder
			for _, a := range slices.Sorted(maps.Keys(uses[t])) {
				of.WriteString(b[a])
			}
			name = t + "Of" + of.String()
			for i := 2; h.taken[name]; i++ {
				name = fmt.Sprintf("%sOf%s%d", t, of.String(), i)
			}
			h.taken[name] = true
			var binds []string
			for _, a := range slices.Sorted(maps.Keys(uses[t])) {
				binds = append(binds, fmt.Sprintf("%s bound to %s", a, b[a]))
			}
			h.copies = append(h.copies, name)
			if h.l.bindings == nil {
				h.l.bindings = map[string]string{}
			}
			h.l.bindings[name] = fmt.Sprintf("%s with $dynamicAnchor %s", t, strings.Join(binds, ", "))
			n = deepCopy(orig[t])
			// A copy is no other name of the type, nor its anchor.
			dropMember(n, "$id")
			dropMember(n, "$anchor")
			d.resourceOf[name] = d.resource(t)
			types[name] = n
			h.types.Content = append(h.types.Content, scalarAt(name, n), n)
		}
		made[key] = name
		rewrite(n, b)
		return name
	}
	for _, name := range order {
		// A type without uses reaches no dynamic reference: it stays.
		if len(uses[name]) > 0 {
			inst(name, nil, types[name])
		}
	}
	if tools := mapValue(h.doc, "tools"); tools != nil && tools.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(tools.Content); i += 2 {
			for _, k := range []string{"input", "output"} {
				if n := mapValue(tools.Content[i+1], k); n != nil {
					rewrite(n, d.enter(nil, fmt.Sprintf("tool %q: %s", tools.Content[i].Value, k)))
				}
			}
		}
	}
}

// resolveDeferred resolves each $dynamicRef to an anchor of another type
// ("uri#name", the uri a type's name or $id): dynamic when the anchor is a
// $dynamicAnchor of that type's resource, a $ref otherwise.
func (h *hoister) resolveDeferred(typeOf func(string) string, types map[string]*yaml.Node) {
	d := &h.dyn
	for k, ref := range d.deferred {
		v := ref.v
		i := strings.Index(v.Value, "#")
		t, a := typeOf(v.Value[:i]), v.Value[i+1:]
		res := d.resource(t)
		if k.Value == "$ref" {
			// An anchor of another type: left to the spec-wide rules
			// (and their error) when that type has none of that name.
			if name := d.anchors[res][a] + d.plain[res][a]; t != "" && name != "" {
				v.Value = name
			} else if t != "" && mapValue(types[t], "$anchor") != nil && mapValue(types[t], "$anchor").Value == a {
				v.Value = t
			}
			continue
		}
		switch {
		case t == "":
			h.l.errorf(v, ref.ctx, "$dynamicRef %q: %q is no type name or $id of a type", v.Value, v.Value[:i])
			dropMember(ref.parent, k.Value) // reported once
		case d.anchors[res][a] != "":
			v.Value = d.anchors[res][a]
			d.sites++
		case d.plain[res][a] != "":
			k.Value, v.Value = "$ref", d.plain[res][a]
		case mapValue(types[t], "$anchor") != nil && mapValue(types[t], "$anchor").Value == a:
			k.Value, v.Value = "$ref", t
		default:
			h.l.errorf(v, ref.ctx, "$dynamicRef %q: type %q has no anchor %q", v.Value, t, a)
			dropMember(ref.parent, k.Value) // reported once
		}
	}
}

// dropUnusedCopies removes the copies bindDynamic made that no schema
// refers to any more (a $ref merged with its siblings, mergeRefSiblings,
// leaves its copy unused): a copy is a type only for its uses.
func (h *hoister) dropUnusedCopies() {
	if len(h.copies) == 0 {
		return
	}
	isCopy := map[string]bool{}
	for _, c := range h.copies {
		isCopy[c] = true
	}
	types := map[string]*yaml.Node{}
	for i := 0; i+1 < len(h.types.Content); i += 2 {
		types[h.types.Content[i].Value] = h.types.Content[i+1]
	}
	used := map[string]bool{}
	var visit func(n *yaml.Node)
	visit = func(n *yaml.Node) {
		eachRef(n, func(_, v *yaml.Node) {
			if isCopy[v.Value] && !used[v.Value] {
				used[v.Value] = true
				visit(types[v.Value])
			}
		})
	}
	for name, n := range types {
		if !isCopy[name] {
			visit(n)
		}
	}
	if tools := mapValue(h.doc, "tools"); tools != nil && tools.Kind == yaml.MappingNode {
		for i := 1; i < len(tools.Content); i += 2 {
			visit(mapValue(tools.Content[i], "input"))
			visit(mapValue(tools.Content[i], "output"))
		}
	}
	var kept []*yaml.Node
	for i := 0; i+1 < len(h.types.Content); i += 2 {
		if name := h.types.Content[i].Value; !isCopy[name] || used[name] {
			kept = append(kept, h.types.Content[i], h.types.Content[i+1])
		} else {
			delete(h.l.bindings, name)
		}
	}
	h.types.Content = kept
}

// refsByID rewrites each $ref that names a type by its $id (as written,
// a trailing "#" ignored) to the type's name, before mergeRefSiblings: a
// $ref by $id then merges with its siblings, or is refused beside them,
// exactly as $ref: Name is.
func (h *hoister) refsByID() {
	if h.types == nil {
		return
	}
	ids := map[string]string{}
	names := map[string]bool{}
	for i := 0; i+1 < len(h.types.Content); i += 2 {
		name := h.types.Content[i].Value
		names[name] = true
		if id := mapValue(h.types.Content[i+1], "$id"); id != nil && id.Kind == yaml.ScalarNode {
			ids[strings.TrimSuffix(id.Value, "#")] = name
		}
	}
	if len(ids) == 0 {
		return
	}
	rewrite := func(n *yaml.Node) {
		eachRef(n, func(k, v *yaml.Node) {
			if name, ok := ids[strings.TrimSuffix(v.Value, "#")]; ok && k.Value == "$ref" && !names[v.Value] {
				v.Value = name
			}
		})
	}
	for i := 1; i < len(h.types.Content); i += 2 {
		rewrite(h.types.Content[i])
	}
	if tools := mapValue(h.doc, "tools"); tools != nil && tools.Kind == yaml.MappingNode {
		for i := 1; i < len(tools.Content); i += 2 {
			rewrite(mapValue(tools.Content[i], "input"))
			rewrite(mapValue(tools.Content[i], "output"))
		}
	}
}
