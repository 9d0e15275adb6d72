package surface

// Compare reads fields that stop at named types (Field.Ref). Before the
// rules look at a tool's input or output, or a template's variables,
// expand places the fields of the referenced types under the paths that
// use them, on both sides at once, so the rules see what a version 1 lock
// file listed: every field at its full path. It does so lazily:
//
//   - where both sides refer to types with the same closure digest,
//     nothing below can differ, so neither side is expanded;
//   - a pair of (previous, current) types is expanded at the first path
//     of one schema that reaches it; at later paths, recursive ones
//     included, only the using fields are compared. A change inside a
//     type is so reported once per tool and direction, at its full path,
//     and the work stays linear where a full expansion is exponential
//     (Stripe's types reach each other along millions of paths);
//   - where one side refers to a type and the other lists the fields
//     inline (a version 1 lock file, or a type inlined or extracted
//     between versions), the type is expanded to meet them;
//   - fields only one side has are kept without what is below them: the
//     rules report the field itself and never its descendants.

// flist is one flattened field list with its fields indexed by parent.
type flist struct {
	fields []Field
	root   int // index of the field at "", or -1
	// children holds the indexes of the fields under each path, in order.
	children map[string][]int
}

func newFlist(fs []Field) *flist {
	l := &flist{fields: fs, root: -1, children: map[string][]int{}}
	for i := range fs {
		p := fs[i].Path
		if p == "" {
			if l.root < 0 {
				l.root = i
			}
			continue
		}
		l.children[parent(p)] = append(l.children[parent(p)], i)
	}
	return l
}

// side is one surface's named types, with their lists indexed on demand.
type side struct {
	types map[string]*Type
	lists map[string]*flist
}

func newSide(s *Surface) *side {
	sd := &side{types: make(map[string]*Type, len(s.Types)), lists: map[string]*flist{}}
	for i := range s.Types {
		sd.types[s.Types[i].Name] = &s.Types[i]
	}
	return sd
}

// list returns the indexed fields of the named type, nil when the surface
// does not have it (a version 1 lock file has no types).
func (sd *side) list(name string) *flist {
	if l, ok := sd.lists[name]; ok {
		return l
	}
	var l *flist
	if t := sd.types[name]; t != nil {
		l = newFlist(t.Fields)
		if l.root < 0 {
			l = nil
		}
	}
	sd.lists[name] = l
	return l
}

// node is one field of one side during expansion: f is the field as the
// rules see it (full path, a referenced type's root merged in) and its
// children are those of rel in list.
type node struct {
	f    Field
	list *flist
	rel  string
	// typ is the named type the field refers to and expands, if any;
	// opaque is set for a field that refers to a type the side lacks.
	typ    string
	opaque bool
	// kids are the current side's expanded children, in its order.
	kids []*node
}

func (sd *side) node(l *flist, i int, path string) *node {
	f := l.fields[i]
	if f.Ref == "" {
		n := &node{f: f, list: l, rel: f.Path}
		n.f.Path = path
		return n
	}
	tl := sd.list(f.Ref)
	if tl == nil {
		n := &node{f: f, opaque: true}
		n.f.Path = path
		return n
	}
	// The site says where the field is, whether it is required and
	// whether it may be null; the type says the rest.
	m := tl.fields[tl.root]
	m.def = m.pos
	m.Path, m.Required, m.Ref, m.pos = path, f.Required, f.Ref, f.pos
	m.Nullable = f.Nullable || m.Nullable
	if f.Default != nil {
		m.Default = f.Default
	}
	if f.Type != "" {
		m.Type = f.Type
	}
	return &node{f: m, list: tl, rel: "", typ: f.Ref}
}

// expander expands the two field lists of one schema of one element.
type expander struct {
	prev, cur *side
	// done holds the (previous, current) type pairs expanded so far.
	done map[[2]string]bool
	// above holds the pairs being expanded, outermost first: a version 1
	// lock marks a recursive type with a bare ref, and its shape is that of
	// the field above where the current side entered the same type.
	above []*[2]*node
	// ps collects the previous fields in their order as pair walks them.
	ps []Field
}

// expand returns the fields of both lists with the referenced types
// placed where the rules need them, each list in its own order: the rules
// report deletions and changes in the previous order and additions in
// the current one.
func (x *expander) expand(prev, cur []Field) (ps, cs []Field) {
	pl, cl := newFlist(prev), newFlist(cur)
	x.ps = make([]Field, 0, len(prev))
	cs = make([]Field, 0, len(cur))
	if pl.root < 0 && cl.root < 0 {
		// Template variables: top-level fields without a root.
		c := &node{list: cl}
		x.children(&node{list: pl}, c, "")
		for _, k := range c.kids {
			cs = k.appendTo(cs)
		}
		return x.ps, cs
	}
	var pn, cn *node
	if pl.root >= 0 {
		pn = x.prev.node(pl, pl.root, "")
	}
	if cl.root >= 0 {
		cn = x.cur.node(cl, cl.root, "")
	}
	x.pair(pn, cn)
	if cn != nil {
		cs = cn.appendTo(cs)
	}
	return x.ps, cs
}

// appendTo appends the field of a current node and those expanded below
// it, depth first.
func (n *node) appendTo(fs []Field) []Field {
	fs = append(fs, n.f)
	for _, k := range n.kids {
		fs = k.appendTo(fs)
	}
	return fs
}

// pair expands the fields p and c at one path; either may be nil. The
// previous fields go to x.ps, the current ones to c.kids.
func (x *expander) pair(p, c *node) {
	if p != nil {
		x.ps = append(x.ps, p.f)
	}
	if p != nil && c != nil && p.opaque && !c.opaque && c.typ != p.f.Ref {
		// Where the current side still refers to the same type, the
		// comparison above it already covers this one.
		p = x.v1Shape(p)
	}
	if p == nil || c == nil || p.opaque || c.opaque {
		return
	}
	if p.typ != "" && c.typ != "" {
		if d := x.prev.types[p.typ].Digest; d != "" && d == x.cur.types[c.typ].Digest {
			return
		}
		k := [2]string{p.typ, c.typ}
		if x.done[k] {
			return
		}
		x.done[k] = true
	}
	pc := &[2]*node{p, c}
	x.above = append(x.above, pc)
	x.children(p, c, p.f.Path)
	x.above = x.above[:len(x.above)-1]
}

// v1Shape gives the bare ref p of a version 1 lock the fields it stands
// for: those of the previous field above it whose current counterpart
// entered the same type. It is expanded once per type and current type,
// like a version 2 pair, so recursion ends; p stays opaque when no field
// above entered the type.
func (x *expander) v1Shape(p *node) *node {
	for i := len(x.above) - 1; i >= 0; i-- {
		a := x.above[i]
		if a[1].typ != p.f.Ref || a[0].opaque {
			continue
		}
		k := [2]string{"v1:" + p.f.Ref, a[1].typ}
		if x.done[k] {
			return p
		}
		x.done[k] = true
		return &node{f: p.f, list: a[0].list, rel: a[0].rel}
	}
	return p
}

// children expands the fields below p and c, matched by last segment;
// path is their common full path.
func (x *expander) children(p, c *node, path string) {
	pk, ck := p.list.children[p.rel], c.list.children[c.rel]
	if len(ck) > 0 {
		c.kids = make([]*node, len(ck))
	}
	curAt := make(map[string]int, len(ck))
	for k, j := range ck {
		curAt[lastSegment(c.list.fields[j].Path)] = k
	}
	for _, i := range pk {
		seg := lastSegment(p.list.fields[i].Path)
		pn := x.prev.node(p.list, i, path+"/"+seg)
		var cn *node
		if k, ok := curAt[seg]; ok {
			cn = x.cur.node(c.list, ck[k], pn.f.Path)
			c.kids[k] = cn
		}
		x.pair(pn, cn)
	}
	for k, j := range ck {
		if c.kids[k] == nil {
			c.kids[k] = x.cur.node(c.list, j, path+"/"+lastSegment(c.list.fields[j].Path))
		}
	}
	// The current children say which use of a named type they were
	// expanded through, for a change found in them to name both places.
	use, useType := c.f.use, c.f.useType
	if c.typ != "" {
		use, useType = c.f.pos, c.typ
	}
	for _, k := range c.kids {
		k.f.use, k.f.useType = use, useType
	}
}
