// Package golang lowers a spec.API to Go (every Go name and type decided
// once, in model.go) and emits the generated Go files as
// github.com/dave/jennifer trees, one function per output file.
package golang

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/mcpgen-dev/mcpgen/generator/naming"
	"github.com/mcpgen-dev/mcpgen/generator/schema"
	"github.com/mcpgen-dev/mcpgen/spec"
)

// kind is the Go shape of a node.
type kind int

const (
	kString kind = iota // string (or a named string type)
	kInt                // int64
	kFloat              // float64
	kBool               // bool
	kRaw                // json.RawMessage: any JSON value
	kSlice              // []elem
	kMap                // map[string]elem
	kStruct             // struct with fields
	kOneOf              // sealed interface implemented by the variant types
	kTuple              // struct with a field per prefixItems position (emit_tuple.go)
)

// node is one Go type: a declared type (named spec types, tool inputs and
// outputs, inline objects, enums and unions) or an anonymous one (scalars,
// and slices and maps, which get their own decode/validate/append
// functions named after where they occur).
type node struct {
	kind   kind
	schema *spec.Schema // the constraints; never a $ref
	// name is the declared type's name, or for anonymous slices and maps
	// the suffix of their functions (decodeX, validateX, appendX).
	name     string
	declared bool
	// alias declares name as an alias of target (a tool output that is a
	// named type keeps that type's methods).
	alias *node
	doc   []string // doc comment paragraphs (the first starts with name)
	enum  []enumConst
	elem  *slot // slice items, map values, additional properties of a struct
	// fields of a struct, in declaration order.
	fields []*field
	// extra holds the additional properties of a struct that allows them.
	extra    bool
	variants []*variant
	disc     *spec.Discriminator
	// validates says validateX exists: the node or something it contains
	// has a constraint. Computed by a fixpoint over the node graph.
	validates bool
	pos       spec.Pos
	// ext is the Go type (spec.Schema.GoType) of a declared node of a
	// code-first type: the user's type, referred to, never declared.
	ext string
	// goT is the Go type of a scalar of a code-first type ("int32",
	// "time.Time", "example.com/m.Status"); "" for spec-defined scalars.
	goT string
	// parsesDateTime marks the string read for a time.Time
	// (decodeConverted): its date-time check is the parse into tt, so
	// that the string is scanned once.
	parsesDateTime bool
}

// real follows aliases to the node that owns the functions.
func (n *node) real() *node {
	for n.alias != nil {
		n = n.alias
	}
	return n
}

// unit reports whether the node has its own functions. An alias (of a
// named slice or map, say) uses its target's.
func (n *node) unit() bool {
	return n.alias == nil && (n.declared || n.kind == kSlice || n.kind == kMap)
}

// enumConst is one constant of an enum type.
type enumConst struct {
	name  string
	value json.RawMessage
}

// slot is a use of a node: a field, an item, a map value, a variant.
//
// Nullability and optionality both need a way to say "no value", and Go's
// is a pointer, so:
//   - optional (no default): pointer, omitted when nil;
//   - required and nullable: pointer, written as null when nil;
//   - optional and nullable: pointer; absent and null both decode to nil,
//     and a bool field beside it (field.nullFlag) says which, since an API
//     may give them different meanings (OpenAI's turn_detection);
//   - slices, maps, json.RawMessage and unions (interfaces) are never
//     pointers: nil is their "no value" (absent when optional, null when
//     nullable and required, a violation when required);
//   - a field with a default is a value: decoding always sets it.
type slot struct {
	node     *node
	ptr      bool
	nullable bool
}

// nullValue reports whether the slot holds null in a pointer: it is
// nullable and its Go type has no nil of its own (slices, maps and
// json.RawMessage do). Items and map values need it as much as fields
// (Superset has arrays of nullable integers).
func (s *slot) nullValue() bool {
	k := s.node.real().kind
	return s.nullable && k != kSlice && k != kMap && k != kRaw && k != kOneOf && !s.node.real().isBytes()
}

type field struct {
	jsonName string
	goName   string
	slot
	required bool
	def      json.RawMessage
	doc      []string
	header   string
	// viaRef says the property's schema is a $ref: x-mcp-header does not
	// reach through references.
	viaRef bool
	// boxed says the field is a pointer only because a value would make
	// its struct contain itself (breakCycles): still required and not
	// nullable, so a nil one is a missing value to the validator.
	boxed bool
	// nullFlag is the Go name of the bool field that says an optional
	// nullable property was null rather than absent (see nullFlags); ""
	// for every other field.
	nullFlag string
	pos      spec.Pos
}

type variant struct {
	goName string
	node   *node
	// values are the discriminator values that select the variant (a
	// mapping may give several); value is the one value the union writes
	// into the variant's tag, "" when several select it (the caller's is
	// kept) or none does.
	values []string
	value  string
	// wrap is the name of the type that implements the union for a
	// variant whose own Go type cannot carry the marker method (see
	// wrapped); "" when the variant's type implements the union itself.
	wrap string
	// boxed says wrap is a struct holding the variant in its Value field:
	// the variant is itself a union, an interface, which a defined type
	// cannot give methods to.
	boxed bool
}

// tool is a lowered spec.Tool.
type tool struct {
	t      *spec.Tool
	method string
	input  *node
	output *node // nil when the tool returns free-form content
	// wrapped says the tool calls a REST operation whose JSON response is
	// its structured output: the response passes through, checked against
	// the schema files at run time (see WrappedOutput), so there is no
	// output type and output is nil.
	wrapped bool
}

// WrappedOutput reports whether t's output is the JSON response of the
// REST operation it wraps, returned as structuredContent without being
// decoded into Go types: the runtime checks it against the document's
// response schema (deviations are logged) and the tolerant one the tool
// lists (see schema.Tolerant and upstream.Client.StructuredResult).
// Responses are where wrapped APIs are large (a repository, a pull
// request) and where real APIs deviate from their documents; inputs keep
// their generated types, decoders and validators.
func WrappedOutput(t *spec.Tool) bool {
	return t.Upstream != nil && t.Output != nil && t.Output.GoType == ""
}

type template struct {
	t      *spec.ResourceTemplate
	method string
	params *node
	vars   []*templateVar
}

type templateVar struct {
	v        *spec.Variable
	field    *field
	complete string // handler method name for complete: handler
}

type prompt struct {
	p        *spec.Prompt
	method   string
	args     string // the Args struct type name
	fields   []promptField
	complete []string
}

type promptField struct {
	a        *spec.PromptArgument
	goName   string
	complete string // handler method name for complete: handler
}

type resource struct {
	r      *spec.Resource
	method string
}

// Model is everything the emitters need, decided once. It is read-only
// after Lower: the files are emitted from it side by side, and an emitter
// that finds things out as it goes (the validate file) keeps them itself.
type Model struct {
	api       *spec.API
	nodes     []*node // declared and anonymous units, in the order they are emitted
	tools     []*tool
	resources []*resource
	templates []*template
	prompts   []*prompt
	patterns  []pattern
	// completeFrom is whether a completion lists fixed values, which the
	// server file's completeFrom function serves.
	completeFrom bool
	// inputs are the code-first types that are tool inputs (they get an
	// unmarshalX function).
	inputs map[*node]bool
}

type pattern struct {
	name, expr string
}

// Lower decides every Go name and type of api. Name collisions are
// returned as spec.Diagnostics at the spec positions involved.
func Lower(api *spec.API) (*Model, error) {
	l := &lowerer{
		m:        &Model{api: api, inputs: map[*node]bool{}},
		named:    map[string]*node{},
		names:    map[string]spec.Pos{},
		specType: map[string]*spec.NamedType{},
		patterns: map[string]string{},
		typeName: map[string]string{},
		unfilled: map[*spec.Property]bool{},
	}
	for _, t := range api.Tools {
		if t.Upstream != nil {
			l.lenient = true
		}
	}
	for _, reserved := range []string{"Handler", "UnimplementedHandler", "NewServer"} {
		l.names[reserved] = spec.Pos{}
	}
	for _, nt := range api.Types {
		l.specType[nt.Name] = nt
	}
	for _, t := range api.Tools {
		for _, p := range deprecatedArgs(t, l.specType) {
			l.unfilled[p] = true
		}
	}
	if l.lenient {
		for _, reserved := range UpstreamNames {
			l.names[reserved] = spec.Pos{}
		}
		// Named types claim their names before any inline type does, so
		// that an inline type (Account.business_profile) yields to the
		// named one (account_business_profile) whatever the order.
		for _, nt := range api.Types {
			l.typeName[nt.Name] = l.claim(l.goName(nt.Name, nt.Pos, "type "+quote(nt.Name)), nt.Pos)
		}
	}
	// Named types first, so that references resolve whatever the order;
	// those only the responses of wrapped operations use need no Go type.
	used := typesInGo(api)
	for _, nt := range api.Types {
		if used == nil || used[nt.Name] {
			l.namedNode(nt)
		}
	}
	methods := map[string]spec.Pos{}
	if l.lenient {
		// Upstream's field and the *upstream.Client embedded in
		// UpstreamClient are both named Client: an operation named
		// client gets a method of another name (Client2).
		methods["Client"] = spec.Pos{}
	}
	method := func(name string, pos spec.Pos, what string) string {
		if prev, dup := methods[name]; dup {
			if l.lenient {
				name = suffixed(name, func(s string) bool { _, ok := methods[s]; return ok })
			} else {
				l.diag(pos, "%s: Handler method %s collides with the one from %s", what, name, posString(prev))
			}
		}
		methods[name] = pos
		return name
	}
	for _, t := range api.Tools {
		base := l.goName(t.Name, t.Pos, "tool "+quote(t.Name))
		lt := &tool{t: t, method: method(base, t.Pos, "tool "+quote(t.Name))}
		if t.Input.GoType != "" {
			lt.input = l.external(base+"Input", t.Input, t.Pos)
			l.m.inputs[lt.input] = true
		} else {
			in := *t.Input
			in.Type = spec.KindObject
			lt.input = l.declare(base+"Input", &in, t.Pos)
			lt.input.doc = append([]string{fmt.Sprintf("%s is the input of the %q tool.", lt.input.name, t.Name)}, lt.input.doc[1:]...)
		}
		if WrappedOutput(t) {
			lt.wrapped = true
		} else if t.Output != nil && t.Output.GoType != "" {
			lt.output = l.external(base+"Output", t.Output, t.Pos)
		} else if t.Output != nil {
			lt.output = l.output(base+"Output", t)
		}
		l.m.tools = append(l.m.tools, lt)
	}
	for _, r := range api.Resources {
		base := l.goName(r.Name, r.Pos, "resource "+quote(r.Name))
		l.m.resources = append(l.m.resources, &resource{r: r, method: method("Read"+base, r.Pos, "resource "+quote(r.Name))})
	}
	for _, t := range api.Templates {
		l.template(t, method)
	}
	for _, p := range api.Prompts {
		l.prompt(p, method)
	}
	if len(l.diags) > 0 {
		l.diags.Sort()
		return nil, l.diags
	}
	breakCycles(l.m.nodes)
	noteTags(l.m.nodes)
	computeValidates(l.m.nodes)
	return l.m, nil
}

// typesInGo returns the named types that Go code uses: those every tool
// input and every output but the wrapped ones reach. It is nil (all of
// them) when no tool is wrapped, so that a hand-written spec keeps the Go
// types of all its named types.
func typesInGo(api *spec.API) map[string]bool {
	wrapped := false
	for _, t := range api.Tools {
		wrapped = wrapped || WrappedOutput(t)
	}
	if !wrapped {
		return nil
	}
	byName := make(map[string]*spec.NamedType, len(api.Types))
	for _, nt := range api.Types {
		byName[nt.Name] = nt
	}
	used := map[string]bool{}
	var visit func(s *spec.Schema)
	visit = func(s *spec.Schema) {
		if s == nil {
			return
		}
		if s.Ref != "" {
			if nt := byName[s.Ref]; nt != nil && !used[s.Ref] {
				used[s.Ref] = true
				visit(nt.Schema)
			}
			return
		}
		for _, c := range schema.Children(s) {
			visit(c)
		}
	}
	for _, t := range api.Tools {
		visit(t.Input)
		if !WrappedOutput(t) {
			visit(t.Output)
		}
	}
	return used
}

type lowerer struct {
	m        *Model
	named    map[string]*node
	specType map[string]*spec.NamedType
	names    map[string]spec.Pos // every package-level Go name taken, with where it came from
	patterns map[string]string   // regexp → variable name
	diags    spec.Diagnostics
	// lenient is set for OpenAPI-derived APIs (a tool has an Upstream):
	// nobody wrote their names for Go, so collisions are resolved by the
	// rule of suffixed instead of being reported.
	lenient bool
	// typeName is the Go name of each named type, decided up front when
	// lenient.
	typeName map[string]string
	// plainFormats keeps date-time, date and base64 strings Go strings
	// (see formatType) while set: resource template variables are
	// strings cut from a URI.
	plainFormats bool
	// unfilled are the arguments of API calls whose default is not filled
	// in: deprecated optional ones (see deprecatedArgs).
	unfilled map[*spec.Property]bool
}

// deprecatedArgs returns the optional deprecated arguments of t, a tool
// that calls an API (its parameters and body fields), that have a
// default. A default is what the API assumes when the argument is absent,
// so sending it says nothing the API does not know; for a deprecated
// argument it also uses, unasked, what the API is retiring (GitHub's
// search_code sends order=desc otherwise, and a mock warns that "order
// is deprecated"). Such an argument is left absent unless the caller
// gives it; its published schema keeps the default, as documentation.
func deprecatedArgs(t *spec.Tool, types map[string]*spec.NamedType) []*spec.Property {
	if t.Upstream == nil || t.Input == nil {
		return nil
	}
	var out []*spec.Property
	for _, p := range t.Input.Properties {
		if p.Required || p.Schema == nil || !p.Schema.Deprecated {
			continue
		}
		if def, _ := spec.PropertyDefault(p, types); def != nil {
			out = append(out, p)
		}
	}
	return out
}

// suffixed resolves a Go name collision of an OpenAPI-derived API: the
// first of name2, name3, … that is not taken. Lowering visits the document
// in a fixed order (named types in document order, then tools), so the
// same document always gets the same names.
func suffixed(name string, taken func(string) bool) string {
	for i := 2; ; i++ {
		if s := fmt.Sprintf("%s%d", name, i); !taken(s) {
			return s
		}
	}
}

func (l *lowerer) diag(pos spec.Pos, format string, args ...any) {
	l.diags = append(l.diags, spec.Diagnostic{Pos: pos, Message: fmt.Sprintf(format, args...)})
}

func quote(s string) string { return fmt.Sprintf("%q", s) }

func posString(p spec.Pos) string {
	if p.Line == 0 {
		return "the generated code"
	}
	return fmt.Sprintf("line %d", p.Line)
}

// goName is naming.Exported, reporting names that yield no identifier.
func (l *lowerer) goName(name string, pos spec.Pos, what string) string {
	g := naming.Exported(name)
	if g == "" {
		l.diag(pos, "%s: cannot make a Go name of %q", what, name)
		return "X"
	}
	return g
}

// claim reserves a package-level Go name and returns it, reporting a
// collision, or (lenient) returning the suffixed name that avoids it.
func (l *lowerer) claim(name string, pos spec.Pos) string {
	if prev, dup := l.names[name]; dup {
		if !l.lenient {
			l.diag(pos, "Go name %s collides with the one from %s", name, posString(prev))
			return name
		}
		name = suffixed(name, func(s string) bool { _, ok := l.names[s]; return ok })
	}
	l.names[name] = pos
	return name
}

// namedNode returns the node of a named spec type, lowering it once.
func (l *lowerer) namedNode(nt *spec.NamedType) *node {
	if n := l.named[nt.Name]; n != nil {
		return n
	}
	name, preclaimed := l.typeName[nt.Name]
	if !preclaimed {
		name = l.goName(nt.Name, nt.Pos, "type "+quote(nt.Name))
	}
	s := nt.Schema
	if s.GoType != "" {
		n := l.newClaimedNode(name, s, nt.Pos)
		if !preclaimed {
			n.name = l.claim(name, nt.Pos)
		}
		n.ext = strings.TrimPrefix(s.GoType, "*")
		l.named[nt.Name] = n
		l.fill(n)
		return n
	}
	if s.Ref != "" || s.IsAnyValue() && s.Type != spec.KindNull {
		// A type that is another type or any JSON value: a Go alias.
		if !preclaimed {
			name = l.claim(name, nt.Pos)
		}
		n := &node{kind: kRaw, name: name, schema: s, pos: nt.Pos}
		l.named[nt.Name] = n
		if s.Ref != "" {
			target := l.ref(s.Ref, nt.Pos)
			n.kind, n.alias = target.kind, target
		}
		n.doc = docOf(name, "", s)
		l.m.nodes = append(l.m.nodes, n)
		return n
	}
	if goT := l.formatType(s); goT != "" && s.GoType == "" {
		return l.formatAlias(nt, name, preclaimed, goT)
	}
	var n *node
	if preclaimed {
		n = l.newClaimedNode(name, s, nt.Pos)
	} else {
		n = l.newNode(name, s, nt.Pos)
	}
	switch {
	case nt.Binding != "":
		n.doc[0] = fmt.Sprintf("%s is %s.", name, nt.Binding)
	case n.doc[0] == "":
		n.doc[0] = fmt.Sprintf("%s is the %q type of the spec.", name, nt.Name)
	}
	l.named[nt.Name] = n
	l.fill(n)
	return n
}

func (l *lowerer) ref(name string, pos spec.Pos) *node {
	nt := l.specType[name]
	if nt == nil {
		l.diag(pos, "unknown type %q", name)
		return &node{kind: kRaw, schema: &spec.Schema{}}
	}
	return l.namedNode(nt)
}

// newNode makes the node of a schema that becomes a declared type and
// registers it (before its children, so that recursion terminates).
func (l *lowerer) newNode(name string, s *spec.Schema, pos spec.Pos) *node {
	return l.newClaimedNode(l.claim(name, pos), s, pos)
}

// newClaimedNode is newNode for a name already claimed.
func (l *lowerer) newClaimedNode(name string, s *spec.Schema, pos spec.Pos) *node {
	n := &node{kind: shapeOf(s), name: name, schema: s, declared: true, pos: pos}
	n.doc = docOf(name, "", s)
	l.m.nodes = append(l.m.nodes, n)
	return n
}

// declare lowers an inline schema that must be a declared type.
func (l *lowerer) declare(name string, s *spec.Schema, pos spec.Pos) *node {
	n := l.newNode(name, s, pos)
	l.fill(n)
	return n
}

// shapeOf is the Go kind of a non-$ref schema.
func shapeOf(s *spec.Schema) kind {
	if len(s.OneOf) > 0 {
		return kOneOf
	}
	switch s.Type {
	case spec.KindString:
		return kString
	case spec.KindInteger:
		return kInt
	case spec.KindNumber:
		return kFloat
	case spec.KindBoolean:
		return kBool
	case spec.KindArray:
		if s.IsTuple() {
			return kTuple
		}
		return kSlice
	case spec.KindObject:
		if len(s.Properties) == 0 && s.AllowAdditional && len(s.PatternProperties) == 0 {
			return kMap
		}
		return kStruct
	}
	return kRaw
}

// fill lowers the children of a declared node.
func (l *lowerer) fill(n *node) {
	s := n.schema
	switch n.kind {
	case kString, kInt:
		if s.Enum != nil {
			l.enum(n)
		}
	case kSlice:
		n.elem = l.slotOf(n.name+"Item", s.Items, n.pos)
		n.elem.ptr = s.Items != nil && (strings.HasPrefix(s.Items.GoType, "*") || s.Items.GoType == "" && n.elem.nullValue())
	case kMap:
		n.elem = l.slotOf(n.name+"Value", s.AdditionalProperties, n.pos)
		n.elem.ptr = s.AdditionalProperties != nil && (strings.HasPrefix(s.AdditionalProperties.GoType, "*") || s.AdditionalProperties.GoType == "" && n.elem.nullValue())
	case kStruct:
		l.fields(n)
	case kTuple:
		l.tupleFields(n)
	case kOneOf:
		l.variants(n)
	}
	if s.Pattern != "" {
		l.pattern(n.name, s.Pattern)
	}
	l.constraintPatterns(n.name, s)
}

func (l *lowerer) pattern(owner, expr string) {
	if _, ok := l.patterns[expr]; ok {
		return
	}
	name := l.claim("pattern"+owner, spec.Pos{})
	l.patterns[expr] = name
	l.m.patterns = append(l.m.patterns, pattern{name: name, expr: expr})
}

func (m *Model) patternVar(expr string) string {
	for _, p := range m.patterns {
		if p.expr == expr {
			return p.name
		}
	}
	panic("golang: pattern not lowered: " + expr)
}

func (l *lowerer) enum(n *node) {
	seen := map[string]bool{}
	values := map[string]bool{}
	for i, v := range n.schema.Enum {
		_, ok := enumKey(v, n.kind)
		if ok && n.kind == kInt {
			v, ok = canonicalInt(v) // 1.0 and 1e3 are the constants 1 and 1000
		}
		if !ok {
			// No value of the Go type is this one (null in a nullable
			// enum, 1.5 or "" in an integer enum): no constant, as the
			// validator's switch has no case for it.
			continue
		}
		if l.lenient && values[string(v)] {
			continue // a repeated value adds nothing
		}
		values[string(v)] = true
		var word string
		var s string
		if n.kind == kString && json.Unmarshal(v, &s) == nil {
			word = naming.Exported(s)
			switch {
			case s == "":
				word = "Empty"
			case s[0] == '-' || s[0] == '+':
				// "+1" and "-1" (GitHub reactions) must not both be X1.
				word = signWord(s[:1]) + naming.Exported(s[1:])
			}
			if seen[n.name+word] {
				// "Etc/GMT-0" after "Etc/GMT+0": spell the signs out.
				word = naming.Exported(strings.NewReplacer("-", " Minus ", "+", " Plus ").Replace(s))
			}
		} else {
			// The type name comes first, so digits can start the word.
			word = string(v)
			if len(v) > 0 && v[0] == '-' {
				word = "Minus" + word[1:]
			}
		}
		if word == "" {
			word = fmt.Sprintf("Value%d", i)
		}
		name := n.name + word
		if seen[name] {
			if !l.lenient {
				l.diag(n.schema.Pos, "enum value %s: Go constant %s is already taken by another value", v, name)
				continue
			}
			name = suffixed(name, func(s string) bool { return seen[s] })
		}
		name = l.claim(name, n.schema.Pos)
		seen[name] = true
		n.enum = append(n.enum, enumConst{name: name, value: v})
	}
}

// canonicalInt is the integer literal of an integral JSON number, which a
// document may write with a fraction or an exponent (1.0, 1e3): the name
// and value of its constant. enumKey has already said it is integral; it
// is false beyond int64, where no value of the Go type can be it.
func canonicalInt(v json.RawMessage) (json.RawMessage, bool) {
	if _, err := strconv.ParseInt(string(v), 10, 64); err == nil {
		return v, true
	}
	x, _ := strconv.ParseFloat(string(v), 64)
	if x < -(1<<63) || x >= 1<<63 {
		return nil, false
	}
	return json.RawMessage(strconv.FormatInt(int64(x), 10)), true
}

// slotOf lowers a schema used at a place (owner is the name an inline
// declared type there gets).
func (l *lowerer) slotOf(owner string, s *spec.Schema, pos spec.Pos) *slot {
	if s == nil {
		return &slot{node: &node{kind: kRaw, schema: &spec.Schema{}}}
	}
	if s.Pos.Line != 0 {
		pos = s.Pos
	}
	sl := &slot{nullable: s.Nullable}
	if s.Ref != "" {
		sl.node = l.ref(s.Ref, pos)
		sl.nullable = sl.nullable || sl.node.schema.Nullable
		return sl
	}
	k := shapeOf(s)
	switch {
	case s.GoType != "" && k <= kRaw:
		// A scalar of a code-first type keeps its Go type.
		sl.node = &node{kind: k, schema: s, pos: pos, goT: strings.TrimPrefix(s.GoType, "*")}
		if s.Pattern != "" {
			l.pattern(owner, s.Pattern)
		}
		l.constraintPatterns(owner, s)
	case k == kStruct || k == kTuple || k == kOneOf || (k == kString || k == kInt) && s.Enum != nil:
		sl.node = l.declare(owner, s, pos)
	case k == kSlice || k == kMap:
		n := &node{kind: k, name: l.claim(owner, pos), schema: s, pos: pos}
		l.m.nodes = append(l.m.nodes, n)
		l.fill(n)
		sl.node = n
	default:
		sl.node = &node{kind: k, schema: s, pos: pos, goT: l.formatType(s)}
		if s.Pattern != "" {
			l.pattern(owner, s.Pattern)
		}
		l.constraintPatterns(owner, s)
	}
	return sl
}

func (l *lowerer) fields(n *node) {
	s := n.schema
	goNames := map[string]*spec.Property{}
	if l.lenient && s.AllowAdditional {
		goNames["AdditionalProperties"] = &spec.Property{}
	}
	for _, p := range s.Properties {
		var g string
		if n.ext != "" {
			g = p.GoName // the user's field (path); Go already made it unique
		} else {
			g = l.goName(p.Name, p.Pos, "property "+quote(p.Name))
		}
		if prev := goNames[g]; prev != nil && n.ext == "" {
			if !l.lenient {
				l.diag(p.Pos, "property %q: Go field %s.%s collides with property %q", p.Name, n.name, g, prev.Name)
				continue
			}
			g = suffixed(g, func(s string) bool { return goNames[s] != nil })
		}
		goNames[g] = p
		// The default is the one spec.Load checked for endless filling in.
		def, _ := spec.PropertyDefault(p, l.specType)
		var note string
		if l.unfilled[p] {
			note = fmt.Sprintf("Nil unless the caller gives it; the API assumes %s when it is absent.", def)
			def = nil
		}
		if string(def) == "null" {
			// "absent means null" leaves nothing to fill in: the field stays
			// absent, so the API applies its own default. Filled in, it was
			// the zero value ("" for OpenAI's nullable suffix, which its
			// minLength refuses) or a null the schema refuses.
			def = nil
		}
		f := &field{jsonName: p.Name, goName: g, required: p.Required, pos: p.Pos,
			header: p.Schema.Header, def: def, viaRef: p.Schema.Ref != ""}
		f.slot = *l.slotOf(n.name+f.ident(), p.Schema, p.Pos)
		f.doc = docOf(g, p.Schema.Title, p.Schema)[1:]
		if p.Implied {
			f.doc = impliedDoc(g, p.Name)
		}
		if p.Schema.MatchesNothing() {
			f.doc = append(f.doc, fmt.Sprintf("%s must stay nil: the schema of %q is false, so the member must be absent.", g, p.Name))
		}
		if note != "" {
			// Before the Deprecated paragraph, which docOf puts last.
			i := len(f.doc)
			if i > 0 && strings.HasPrefix(f.doc[i-1], "Deprecated:") {
				i--
			}
			f.doc = slices.Insert(f.doc, i, note)
		}
		if n.ext != "" {
			f.ptr = strings.HasPrefix(p.Schema.GoType, "*")
		} else if k := f.node.real().kind; k != kSlice && k != kMap && k != kRaw && k != kOneOf && !f.node.real().isBytes() {
			f.ptr = f.nullable || (!f.required && f.def == nil)
		}
		n.fields = append(n.fields, f)
	}
	if n.ext == "" {
		nullFlags(n, func(g string) bool { return goNames[g] != nil })
	}
	if s.AllowAdditional || len(s.PatternProperties) > 0 {
		if _, dup := goNames["AdditionalProperties"]; dup && !l.lenient {
			l.diag(s.Pos, "Go field %s.AdditionalProperties is taken by a property", n.name)
		}
		n.extra = true
		if len(s.PatternProperties) > 0 {
			n.elem = l.slotOf(n.name+"Value", l.patternValue(n.name, s), n.pos)
		} else {
			n.elem = l.slotOf(n.name+"Value", s.AdditionalProperties, n.pos)
		}
		n.elem.ptr = n.ext == "" && n.elem.nullValue()
	}
}

// nullFlags names the flag of each optional nullable property of n (no
// default, not a json.RawMessage, which holds the null itself): its Go
// value is nil both when the property is absent and when it is null, and
// the flag tells the two apart, since an API may read them differently
// (OpenAI's turn_detection: null turns detection off, absent keeps the
// server's default). The flag is the field's name with "Null" appended
// (a number after it when a property already has that name).
func nullFlags(n *node, taken func(string) bool) {
	for _, f := range n.fields {
		if f.required || f.def != nil || !f.nullable || f.node.real().kind == kRaw {
			continue
		}
		g := f.goName + "Null"
		if taken(g) || g == "AdditionalProperties" {
			g = suffixed(g, taken)
		}
		f.nullFlag = g
	}
}

func (l *lowerer) variants(n *node) {
	s := n.schema
	seen := map[string]bool{}
	// direct holds the types that implement the union themselves: a type
	// listed twice (through an alias) is wrapped the second time, as a
	// type switch cannot have the same case twice.
	direct := map[*node]bool{}
	for i, v := range s.OneOf {
		var vn *node
		var g string
		if v.Ref != "" {
			vn = l.ref(v.Ref, v.Pos)
			g = naming.Exported(v.Ref)
		} else {
			g = naming.Exported(v.Title)
			if g == "" {
				g = naming.Exported(string(shapeName(v)))
			}
			if g == "" || seen[g] {
				g = fmt.Sprintf("Variant%d", i+1)
			}
			node := n.name + g
			if shapeOf(v) == kOneOf && !l.lenient {
				// A union inside a union is wrapped (an interface cannot
				// implement another's marker): the wrapper takes the
				// variant's name, the inner union the same with "Union".
				// OpenAPI documents keep the names they always had
				// (the wrapper's numbered by claim), which generated
				// code may already use.
				node += "Union"
			}
			sl := l.slotOf(node, v, v.Pos)
			vn = sl.node
			if !vn.declared && v.GoType == "" {
				// A scalar variant stays a string: the union's
				// wrapper types convert to and from their variants.
				vn.goT = ""
			}
		}
		if seen[g] {
			g = fmt.Sprintf("%sVariant%d", g, i+1)
		}
		seen[g] = true
		vr := &variant{goName: g, node: vn}
		if r := vn.real(); wrapped(r) || direct[r] {
			vr.wrap = l.claim(n.name+g, v.Pos)
			vr.boxed = r.kind == kOneOf && r.ext == ""
		} else {
			direct[r] = true
		}
		if d := s.Discriminator; d != nil {
			for _, c := range d.Mapping {
				if c.Type == v.Ref {
					vr.values = append(vr.values, c.Value)
				}
			}
			if len(vr.values) == 0 && v.Ref != "" {
				vr.values = []string{v.Ref}
			}
			if len(vr.values) == 1 {
				vr.value = vr.values[0]
			}
		}
		n.variants = append(n.variants, vr)
	}
	n.disc = s.Discriminator
}

// wrapped reports whether a variant's Go type (r, followed through
// aliases) cannot implement a union: only the struct, enum, slice and map
// types this package declares can have the marker method. Scalars,
// anonymous slices and maps, any JSON value (json.RawMessage), the user's
// code-first types and other unions (interfaces) are wrapped.
func wrapped(r *node) bool {
	return !r.declared || r.ext != "" || r.kind == kRaw || r.kind == kOneOf
}

func shapeName(s *spec.Schema) string {
	switch shapeOf(s) {
	case kString:
		return "string"
	case kInt:
		return "integer"
	case kFloat:
		return "number"
	case kBool:
		return "boolean"
	case kSlice, kTuple:
		return "array"
	case kStruct, kMap:
		return "object"
	}
	return ""
}

// output lowers a tool's output: a named type keeps its name through an
// alias, anything else becomes the declared type <Tool>Output.
func (l *lowerer) output(name string, t *spec.Tool) *node {
	s := t.Output
	doc := fmt.Sprintf("%s is the structured output of the %q tool.", name, t.Name)
	// A named type keeps its methods through an alias (a nullable root
	// output is not representable as a Go value of that type, so nullable
	// is ignored there); any JSON value stays raw bytes.
	if s.Ref != "" || shapeOf(s) == kRaw {
		n := &node{kind: kRaw, name: name, schema: s, pos: t.Pos, doc: []string{doc}}
		if s.Ref != "" {
			n.alias = l.ref(s.Ref, t.Pos)
			n.kind, n.schema = n.alias.kind, n.alias.schema
		}
		n.name = l.claim(name, t.Pos)
		n.doc[0] = strings.Replace(doc, name, n.name, 1)
		l.m.nodes = append(l.m.nodes, n)
		return n
	}
	n := l.declare(name, s, t.Pos)
	n.doc = append([]string{strings.Replace(doc, name, n.name, 1)}, n.doc[1:]...)
	return n
}

func (l *lowerer) template(t *spec.ResourceTemplate, method func(string, spec.Pos, string) string) {
	what := "resource template " + quote(t.Name)
	base := l.goName(t.Name, t.Pos, what)
	lt := &template{t: t, method: method("Read"+base, t.Pos, what)}
	obj := &spec.Schema{Type: spec.KindObject, Pos: t.Pos}
	for _, v := range t.Variables {
		obj.Properties = append(obj.Properties, &spec.Property{Name: v.Name, Schema: v.Schema, Required: true, Pos: v.Pos})
	}
	l.plainFormats = true
	lt.params = l.declare(base+"Params", obj, t.Pos)
	l.plainFormats = false
	lt.params.doc = []string{fmt.Sprintf("%s holds the variables of the %q resource template (%s).", lt.params.name, t.Name, t.URITemplate)}
	for i, v := range t.Variables {
		if i >= len(lt.params.fields) {
			break
		}
		tv := &templateVar{v: v, field: lt.params.fields[i]}
		if v.Complete != nil && v.Complete.Handler {
			tv.complete = method("Complete"+base+lt.params.fields[i].goName, v.Complete.Pos, what)
		}
		if v.Complete != nil && len(v.Complete.Values) > 0 {
			l.m.completeFrom = true
		}
		lt.vars = append(lt.vars, tv)
	}
	l.m.templates = append(l.m.templates, lt)
}

func (l *lowerer) prompt(p *spec.Prompt, method func(string, spec.Pos, string) string) {
	what := "prompt " + quote(p.Name)
	base := l.goName(p.Name, p.Pos, what)
	lp := &prompt{p: p, method: method("Get"+base, p.Pos, what), args: base + "Args"}
	lp.args = l.claim(lp.args, p.Pos)
	seen := map[string]bool{}
	for _, a := range p.Arguments {
		g := l.goName(a.Name, a.Pos, what+": argument "+quote(a.Name))
		if seen[g] {
			l.diag(a.Pos, "%s: argument %q: Go field %s.%s is taken by another argument", what, a.Name, lp.args, g)
			continue
		}
		seen[g] = true
		pf := promptField{a: a, goName: g}
		if a.Complete != nil && a.Complete.Handler {
			pf.complete = method("Complete"+base+g, a.Complete.Pos, what)
		}
		if a.Complete != nil && len(a.Complete.Values) > 0 {
			l.m.completeFrom = true
		}
		lp.fields = append(lp.fields, pf)
	}
	l.m.prompts = append(l.m.prompts, lp)
}

// docOf returns the doc paragraphs of a declared name: a sentence starting
// with name, the description, and a Deprecated paragraph.
func docOf(name, title string, s *spec.Schema) []string {
	first := name + " is "
	switch {
	case title != "":
		first += "the " + title + "."
	case s.Title != "":
		first += "the " + s.Title + "."
	default:
		first = ""
	}
	doc := []string{first}
	if s.Description != "" {
		doc = append(doc, s.Description)
	}
	if s.Deprecated {
		doc = append(doc, "Deprecated: do not use in new code; the spec marks it as deprecated.")
	}
	return doc
}

// breakCycles makes pointers of the value fields through which a struct
// would contain itself, an invalid recursive Go type: a required,
// non-nullable property whose type refers back to the enclosing one,
// directly (TreeNode.parent in ReadMe's circular-request-bodies) or
// through other such properties (A.b: B, B.a: A). Every field on such a
// cycle is boxed, not just enough of them to break it, so the choice does
// not depend on the order of the document. Slices, maps and unions (an
// interface) already end a cycle; code-first types are the user's and
// compile as they are.
func breakCycles(nodes []*node) {
	// Tarjan's strongly connected components over the struct nodes, with
	// an edge for each value field of struct type: an edge lies on a cycle
	// exactly when both its ends are in the same component.
	valueStruct := func(f *field) *node {
		if f.ptr {
			return nil
		}
		if r := f.node.real(); (r.kind == kStruct || r.kind == kTuple) && r.ext == "" {
			return r
		}
		return nil
	}
	index := map[*node]int{}
	low := map[*node]int{}
	comp := map[*node]int{}
	var stack []*node
	onStack := map[*node]bool{}
	var visit func(n *node)
	visit = func(n *node) {
		index[n] = len(index)
		low[n] = index[n]
		stack = append(stack, n)
		onStack[n] = true
		for _, f := range n.fields {
			w := valueStruct(f)
			if w == nil {
				continue
			}
			if _, seen := index[w]; !seen {
				visit(w)
				low[n] = min(low[n], low[w])
			} else if onStack[w] {
				low[n] = min(low[n], index[w])
			}
		}
		if low[n] == index[n] {
			id := len(comp)
			for {
				w := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				onStack[w] = false
				comp[w] = id
				if w == n {
					break
				}
			}
		}
	}
	for _, n := range nodes {
		if n.kind != kStruct && n.kind != kTuple || n.alias != nil || n.ext != "" {
			continue
		}
		if _, seen := index[n]; !seen {
			visit(n)
		}
	}
	for _, n := range nodes {
		if _, ok := comp[n]; !ok {
			continue
		}
		for _, f := range n.fields {
			if w := valueStruct(f); w != nil && comp[w] == comp[n] {
				f.ptr, f.boxed = true, true
				f.doc = append(f.doc, fmt.Sprintf("%s is required: it is a pointer only because %s would otherwise contain itself, and nil is not a valid value.", f.goName, n.name))
			}
		}
	}
}

// computeValidates marks the nodes that have a validateX function: those
// with a constraint of their own or a child that validates. Iterated to a
// fixpoint because types can be recursive.
func computeValidates(nodes []*node) {
	for changed := true; changed; {
		changed = false
		for _, n := range nodes {
			if !n.validates && (n.alias == nil && n.ownChecks() || n.childValidates()) {
				n.validates = true
				changed = true
			}
		}
	}
}

// maxItems is the largest number of items an array of s may have (nil
// when unbounded): maxItems, or none at all when items: false closes an
// array without prefixItems.
func maxItems(s *spec.Schema) *int64 {
	if s.ClosedItems && !s.IsTuple() {
		return new(int64(0))
	}
	return s.MaxItems
}

// ownChecks reports whether the node itself has a constraint.
func (n *node) ownChecks() bool {
	s := n.schema
	switch n.kind {
	case kOneOf:
		return true
	case kStruct:
		// A boxed field is a pointer that must not be nil.
		return s.MinProperties != nil || s.MaxProperties != nil || s.HasApplicators() || s.Const != nil || s.Enum != nil || slices.ContainsFunc(n.fields, func(f *field) bool { return f.boxed })
	case kMap:
		return s.MinProperties != nil || s.MaxProperties != nil || s.Const != nil || s.Enum != nil || s.PropertyNames != nil
	case kSlice:
		return s.MinItems != nil || maxItems(s) != nil || s.UniqueItems || s.Const != nil || s.Enum != nil || s.HasApplicators()
	case kTuple:
		return tupleChecks(n)
	}
	return scalarChecks(s, n.kind)
}

// scalarChecks reports whether a value of kind k has a constraint of s to
// check. Keywords of another type's vocabulary do not count (JSON Schema
// ignores them, and so does the emitter): Slack's post_at is an integer
// with a pattern.
func scalarChecks(s *spec.Schema, k kind) bool {
	if s.Enum != nil || s.Const != nil || s.HasApplicators() || k == kRaw && len(s.Types) > 0 {
		return true
	}
	switch k {
	case kString:
		return s.MinLength != nil || s.MaxLength != nil || s.Pattern != "" || knownFormat(s.Format)
	case kInt, kFloat:
		return s.Minimum != nil || s.Maximum != nil || s.ExclusiveMinimum != nil ||
			s.ExclusiveMaximum != nil || s.MultipleOf != nil
	}
	return false
}

func knownFormat(f string) bool {
	switch f {
	case "date", "date-time", "email", "uri", "uuid":
		return true
	}
	return false
}

func (n *node) childValidates() bool {
	if n.alias != nil {
		return n.alias.validates
	}
	if n.elem != nil && n.elem.checks() {
		return true
	}
	for _, f := range n.fields {
		if f.checks() {
			return true
		}
	}
	for _, v := range n.variants {
		if v.node.validates || !v.node.unit() && scalarChecks(v.node.schema, v.node.kind) {
			return true
		}
	}
	return false
}

// checks reports whether a value in the slot needs validation.
func (s *slot) checks() bool {
	if s.node.isTime() {
		return false // a time.Time is always a valid date-time
	}
	if s.node.unit() || s.node.alias != nil {
		return s.node.validates
	}
	return scalarChecks(s.node.schema, s.node.kind)
}

func signWord(sign string) string {
	if sign == "-" {
		return "Minus"
	}
	return "Plus"
}
