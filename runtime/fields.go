package runtime

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/mcpgen-dev/mcpgen/runtime/wire"
)

// Field selection (Options.FieldSelection): a caller asks for only some
// fields of a tool's result, through an optional argument (fieldsArg,
// "_fields") whose values are the output schema's field paths: dotted
// names into objects, through array items ("items.title" is the title of
// every element), to maxFieldDepth segments. The argument is an enum in
// the tool's input schema, so a client's validator checks it as the
// server does.
//
// The result's structuredContent keeps only the selected fields, and its
// text copy matches. tools/list advertises one outputSchema, against which
// clients validate every result; with selection on it is relaxed
// (relaxSchema: nothing required) so that a selection validates against
// it, and the schema of the call's own selection is in the result's
// _meta["io.mcpgen/fields"]: it requires the selected members the exact
// schema requires. Selection comes before the result budget:
// what is selected is what is cut.

// fieldsArg is the argument's name. An operation with its own argument of
// that name keeps it: the selection then takes one more leading
// underscore, until the name is free.
const fieldsArg = "_fields"

// metaFields is the _meta key of a result whose fields were selected.
const metaFields = "io.mcpgen/fields"

// fieldSelector is what a tool needs to serve selections.
type fieldSelector struct {
	arg   string          // the argument's name
	paths map[string]bool // the selectable paths
	// outputJSON is the relaxed output schema, with the exact required
	// lists under requiredMark, read into a tree on the
	// first selection: a tree per tool would hold tens of megabytes for a
	// large API whose callers seldom select.
	outputJSON []byte
	once       sync.Once
	tree       *jnode
}

// output is the relaxed output schema as a tree.
func (f *fieldSelector) output() *jnode {
	f.once.Do(func() {
		f.tree, _ = parseJNode(f.outputJSON) // written by withFieldSelection
	})
	return f.tree
}

// fieldSel is a selection as a tree: all keeps the whole value; kids
// select some of an object's members (and of its array elements').
type fieldSel struct {
	all  bool
	kids map[string]*fieldSel
}

// newFieldSel builds the tree of a list of paths.
func newFieldSel(paths []string) *fieldSel {
	root := &fieldSel{kids: map[string]*fieldSel{}}
	for _, p := range paths {
		n := root
		for _, seg := range strings.Split(p, ".") {
			if n.all {
				break
			}
			kid := n.kids[seg]
			if kid == nil {
				kid = &fieldSel{kids: map[string]*fieldSel{}}
				n.kids[seg] = kid
			}
			n = kid
		}
		n.all, n.kids = true, nil
	}
	return root
}

// withFieldSelection rewrites a tool definition for field selection: its
// input schema gains the selection argument and its output schema is
// relaxed. ok is false when the tool has no object output schema with
// fields to select, or the definition cannot be read.
func withFieldSelection(def string) (string, *fieldSelector, bool) {
	root, err := parseJNode([]byte(def))
	if err != nil || root.kind != '{' {
		return def, nil, false
	}
	out := root.get("outputSchema")
	in := root.get("inputSchema")
	if out == nil || out.kind != '{' || in == nil || in.kind != '{' {
		return def, nil, false
	}
	paths := fieldPaths(out)
	if len(paths) == 0 {
		return def, nil, false
	}
	props := in.get("properties")
	if props == nil || props.kind != '{' {
		props = &jnode{kind: '{'}
		in.set("properties", props)
	}
	arg := fieldsArg
	for props.get(arg) != nil {
		arg = "_" + arg
	}
	enum := &jnode{kind: '['}
	for _, p := range paths {
		enum.items = append(enum.items, &jnode{raw: wire.AppendString(nil, p)})
	}
	schema, _ := parseJNode([]byte(`{"type":"array","description":` + string(wire.AppendString(nil,
		"Return only these fields of the result (dotted paths; a path into a list applies to each element). Leave out for the whole result.")) +
		`,"items":{"type":"string"},"minItems":1,"uniqueItems":true}`))
	schema.get("items").set("enum", enum)
	props.set(arg, schema)
	relaxSchema(out, true)
	sel := &fieldSelector{arg: arg, paths: make(map[string]bool, len(paths)), outputJSON: out.appendInternal(nil)}
	for _, p := range paths {
		sel.paths[p] = true
	}
	return string(root.appendJSON(make([]byte, 0, len(def)+len(paths)*24))), sel, true
}

// takeSelection removes the selection argument from args and checks it:
// it returns the arguments for the tool, the selected paths (nil when
// none), or a message naming what is wrong with them.
func (f *fieldSelector) takeSelection(args []byte) ([]byte, []string, string) {
	if !bytes.Contains(args, []byte(`"`+f.arg+`"`)) {
		return args, nil, ""
	}
	var members []json.RawMessage
	var keys []string
	var raw map[string]json.RawMessage
	if json.Unmarshal(args, &raw) != nil {
		return args, nil, "" // the tool's own decoder reports it
	}
	value, ok := raw[f.arg]
	if !ok {
		return args, nil, ""
	}
	rest := make([]byte, 0, len(args))
	rest = append(rest, '{')
	dec := json.NewDecoder(bytes.NewReader(args))
	_, _ = dec.Token()
	for dec.More() {
		k, _ := dec.Token()
		var v json.RawMessage
		if dec.Decode(&v) != nil {
			return args, nil, ""
		}
		key, _ := k.(string)
		if key == f.arg {
			continue
		}
		keys, members = append(keys, key), append(members, v)
	}
	for i, k := range keys {
		if i > 0 {
			rest = append(rest, ',')
		}
		rest = wire.AppendString(rest, k)
		rest = append(rest, ':')
		rest = append(rest, members[i]...)
	}
	rest = append(rest, '}')
	var paths []string
	if json.Unmarshal(value, &paths) != nil || paths == nil {
		return nil, nil, fmt.Sprintf("invalid arguments: /%s: must be an array of field paths", f.arg)
	}
	if len(paths) == 0 {
		return nil, nil, fmt.Sprintf("invalid arguments: /%s: must have at least 1 item", f.arg)
	}
	var bad []string
	for i, p := range paths {
		switch {
		case !f.paths[p]:
			bad = append(bad, fmt.Sprintf("/%s/%d: %q is not a field of the result (the input schema lists them)", f.arg, i, p))
		case slices.Index(paths, p) < i:
			bad = append(bad, fmt.Sprintf("/%s/%d: %q is selected twice", f.arg, i, p))
		}
	}
	if len(bad) > 0 {
		return nil, nil, "invalid arguments: " + strings.Join(bad, "; ")
	}
	return rest, paths, ""
}

// describeWithFields adds the fields argument to describe_operation's
// definition, when the server offers field selection.
func describeWithFields(def string) string {
	const props = `"properties":{"name":{"type":"string","description":"The operation's name, as search_operations returns it."}`
	return strings.Replace(def, props, props+`,"fields":{"type":"array","items":{"type":"string"},`+
		`"description":"Show the output schema of a call that selects these fields (the paths its `+fieldsArg+` argument lists)."}`, 1)
}

// describeSelection returns tool's definition with the output schema of
// a call that selects fields (a JSON array of paths), or a message
// naming what is wrong with them.
func describeSelection(tool *ToolDef, fields json.RawMessage) (string, string) {
	f := tool.fields
	if f == nil {
		return "", "/fields: the operation " + strconvQuote(tool.Name) + " offers no field selection"
	}
	_, paths, msg := f.takeSelection(append(append([]byte(`{`+string(wire.AppendString(nil, f.arg))+`:`), fields...), '}'))
	if msg != "" {
		return "", strings.Replace(msg, "/"+f.arg, "/fields", -1)
	}
	root, err := parseJNode([]byte(tool.Definition))
	if err != nil {
		return "", "internal error: invalid definition"
	}
	schema, err := parseJNode(f.projectedSchema(newFieldSel(paths)))
	if err != nil {
		return "", "internal error: invalid projected schema"
	}
	root.set("outputSchema", schema)
	return string(root.appendJSON(nil)), ""
}

func strconvQuote(s string) string { return string(wire.AppendString(nil, s)) }

// projectedSchema is the output schema of a selection.
func (f *fieldSelector) projectedSchema(sel *fieldSel) []byte {
	output := f.output()
	p := projectSchema(output, output, sel, 0)
	p.del("$defs")
	p.del("definitions")
	// Only the definitions the projection still refers to, transitively:
	// most of a large API's are left behind with the fields not selected.
	used := map[string]bool{}
	var walk func(n *jnode)
	walk = func(n *jnode) {
		for i, k := range n.keys {
			if ref, ok := n.vals[i].str(); ok && k == "$ref" && !used[ref] {
				used[ref] = true
				if target := resolve(output, n); target != n {
					walk(target)
				}
			}
			walk(n.vals[i])
		}
		for _, it := range n.items {
			walk(it)
		}
	}
	walk(p)
	for _, kw := range [...]string{"$defs", "definitions"} {
		defs := output.get(kw)
		if defs == nil || defs.kind != '{' {
			continue
		}
		kept := &jnode{kind: '{'}
		for i, name := range defs.keys {
			if used["#/"+kw+"/"+strings.ReplaceAll(strings.ReplaceAll(name, "~", "~0"), "/", "~1")] {
				kept.keys, kept.vals = append(kept.keys, name), append(kept.vals, defs.vals[i])
			}
		}
		if len(kept.keys) > 0 {
			p.set(kw, kept)
		}
	}
	return p.appendJSON(nil)
}

// selectionMeta is the _meta member of a result whose fields were
// selected: the selection and the schema the result validates against.
func (f *fieldSelector) selectionMeta(paths []string, sel *fieldSel) []byte {
	b := append([]byte(`"`+metaFields+`":{"fields":`), appendStringList(nil, paths)...)
	b = append(b, `,"outputSchema":`...)
	b = append(b, f.projectedSchema(sel)...)
	return append(b, '}')
}

// errBadJSON reports structured content that is not JSON.
var errBadJSON = errors.New("invalid JSON")

// projectJSON appends to dst the JSON value src keeps of sel: an
// object's selected members (recursively), each element of an array
// projected alike, and scalars as they are. src is one valid JSON value.
func projectJSON(dst, src []byte, sel *fieldSel) ([]byte, error) {
	out, rest, err := projectValue(dst, src, sel)
	if err != nil {
		return dst, err
	}
	if len(skipSpace(rest)) != 0 {
		return dst, errBadJSON
	}
	return out, nil
}

func skipSpace(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t' || b[0] == '\n' || b[0] == '\r') {
		b = b[1:]
	}
	return b
}

// projectValue projects the value at the start of src and returns the
// bytes after it.
func projectValue(dst, src []byte, sel *fieldSel) ([]byte, []byte, error) {
	src = skipSpace(src)
	if len(src) == 0 {
		return dst, src, errBadJSON
	}
	switch src[0] {
	case '{':
		dst = append(dst, '{')
		src = skipSpace(src[1:])
		n := 0
		if len(src) > 0 && src[0] == '}' {
			return append(dst, '}'), src[1:], nil
		}
		for {
			src = skipSpace(src)
			end, err := stringEnd(src)
			if err != nil {
				return dst, src, err
			}
			key := src[:end]
			src = skipSpace(src[end:])
			if len(src) == 0 || src[0] != ':' {
				return dst, src, errBadJSON
			}
			src = skipSpace(src[1:])
			if len(src) == 0 {
				return dst, src, errBadJSON
			}
			var kid *fieldSel
			if inner := key[1 : len(key)-1]; bytes.IndexByte(inner, '\\') < 0 {
				kid = sel.kids[string(inner)] // no allocation: the compiler looks up the bytes
			} else {
				kid = sel.kids[keyName(key)]
			}
			if kid != nil {
				if n > 0 {
					dst = append(dst, ',')
				}
				n++
				dst = append(dst, key...)
				dst = append(dst, ':')
			}
			switch {
			case kid == nil:
				if src, err = skipValue(src); err != nil {
					return dst, src, err
				}
			case kid.all || (src[0] != '{' && src[0] != '['):
				rest, err := skipValue(src)
				if err != nil {
					return dst, src, err
				}
				dst = append(dst, src[:len(src)-len(rest)]...)
				src = rest
			default:
				if dst, src, err = projectValue(dst, src, kid); err != nil {
					return dst, src, err
				}
			}
			src = skipSpace(src)
			if len(src) == 0 {
				return dst, src, errBadJSON
			}
			if src[0] == '}' {
				return append(dst, '}'), src[1:], nil
			}
			if src[0] != ',' {
				return dst, src, errBadJSON
			}
			src = src[1:]
		}
	case '[':
		dst = append(dst, '[')
		src = skipSpace(src[1:])
		if len(src) > 0 && src[0] == ']' {
			return append(dst, ']'), src[1:], nil
		}
		for i := 0; ; i++ {
			if i > 0 {
				dst = append(dst, ',')
			}
			var err error
			if dst, src, err = projectValue(dst, src, sel); err != nil {
				return dst, src, err
			}
			src = skipSpace(src)
			if len(src) == 0 {
				return dst, src, errBadJSON
			}
			if src[0] == ']' {
				return append(dst, ']'), src[1:], nil
			}
			if src[0] != ',' {
				return dst, src, errBadJSON
			}
			src = src[1:]
		}
	}
	rest, err := skipValue(src)
	if err != nil {
		return dst, src, err
	}
	return append(dst, src[:len(src)-len(rest)]...), rest, nil
}

// keyName is the name a raw JSON string (quotes included) spells.
func keyName(raw []byte) string {
	inner := raw[1 : len(raw)-1]
	if bytes.IndexByte(inner, '\\') < 0 {
		return string(inner)
	}
	var s string
	_ = json.Unmarshal(raw, &s)
	return s
}

// stringEnd returns the length of the JSON string at the start of b.
func stringEnd(b []byte) (int, error) {
	if len(b) == 0 || b[0] != '"' {
		return 0, errBadJSON
	}
	for i := 1; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case '"':
			return i + 1, nil
		}
	}
	return 0, errBadJSON
}

// skipValue returns the bytes after the JSON value at the start of b,
// which is valid JSON (runTool compacts structured content first).
func skipValue(b []byte) ([]byte, error) {
	if b = skipSpace(b); len(b) == 0 || bytes.IndexByte([]byte(",:}]"), b[0]) >= 0 {
		return b, errBadJSON
	}
	depth := 0
	for i := 0; i < len(b); i++ {
		switch c := b[i]; c {
		case '"':
			n, err := stringEnd(b[i:])
			if err != nil {
				return b, err
			}
			i += n - 1
			if depth == 0 {
				return b[i+1:], nil
			}
		case '{', '[':
			depth++
		case '}', ']':
			if depth == 0 {
				return b[i:], nil
			}
			depth--
			if depth == 0 {
				return b[i+1:], nil
			}
		case ',', ' ', '\t', '\n', '\r', ':':
			if depth == 0 {
				return b[i:], nil
			}
		}
	}
	if depth != 0 || len(b) == 0 {
		return b, errBadJSON
	}
	return b[len(b):], nil
}

// applySelection projects a result in place to the selected paths: its
// structuredContent, and its text blocks, which become the projected
// JSON. It returns the _meta member to add, or nil when there was
// nothing to project.
func (f *fieldSelector) applySelection(res *ToolResult, structured *[]byte, paths []string) []byte {
	if res.IsError || *structured == nil {
		return nil
	}
	sel := newFieldSel(paths)
	out, err := projectJSON(make([]byte, 0, len(*structured)/2), *structured, sel)
	if err != nil {
		return nil
	}
	*structured = out
	kept := make([]Content, 0, len(res.Content))
	for _, c := range res.Content {
		if c.Type != "text" {
			kept = append(kept, c)
		}
	}
	if len(kept) == 0 {
		res.Content = nil // the runtime adds the text copy of structured
	} else {
		res.Content = append([]Content{{Type: "text", Text: string(out)}}, kept...)
	}
	return f.selectionMeta(paths, sel)
}
