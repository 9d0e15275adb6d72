package surface

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/mcpgen-dev/mcpgen/spec"
)

// Change is one difference between two surfaces, judged by one rule.
type Change struct {
	// Rule is the ID of the rule that judged the change, such as
	// TOOL_NO_DELETE or (for a safe change) TOOL_ADDED.
	Rule string
	// Breaking is set when an existing client may fail after the change.
	Breaking bool
	// Message says what changed, in the past tense with names quoted.
	Message string
	// Pos is where the change is in the current spec: the changed element,
	// or its nearest surviving parent, or just the file (no line) when the
	// current surface was not built from a spec or nothing of it survives.
	Pos spec.Pos
	// Use is, when Pos is inside the definition of the named type Type,
	// where that type is used (the property referring to it) on the way
	// from the tool, template or type that holds the change; zero when
	// the change is not inside a named type.
	Use  spec.Pos
	Type string
}

// Detail is the rule and message of the change and, for a change inside a
// named type, the type and where it is used: "… (in type "Money", used at
// mcpgen.yaml:9:9)". file maps a spec file name to the one to print.
func (c Change) Detail(file func(string) string) string {
	d := c.Rule + ": " + c.Message
	if c.Type != "" {
		d += fmt.Sprintf(" (in type %q, used at %s:%d:%d)", c.Type, file(c.Use.File), c.Use.Line, c.Use.Col)
	}
	return d
}

// Rule IDs. The breaking ones are named for what they forbid, as buf's are.
const (
	RuleToolNoDelete            = "TOOL_NO_DELETE"
	RuleResourceNoDelete        = "RESOURCE_NO_DELETE"
	RuleTemplateNoDelete        = "TEMPLATE_NO_DELETE"
	RulePromptNoDelete          = "PROMPT_NO_DELETE"
	RuleArgNoDelete             = "ARG_NO_DELETE"
	RuleArgNoNewRequired        = "ARG_NO_NEW_REQUIRED"
	RulePromptArgNoDelete       = "PROMPT_ARG_NO_DELETE"
	RulePromptArgNoNewRequired  = "PROMPT_ARG_NO_NEW_REQUIRED"
	RuleFieldSameType           = "FIELD_SAME_TYPE"
	RuleVariantNoDelete         = "VARIANT_NO_DELETE"
	RuleDefaultNoChange         = "DEFAULT_NO_CHANGE"
	RuleEnumValueNoDelete       = "ENUM_VALUE_NO_DELETE"
	RuleOutputEnumValueNoAdd    = "OUTPUT_ENUM_VALUE_NO_ADD"
	RuleConstraintNoTighten     = "CONSTRAINT_NO_TIGHTEN"
	RuleOutputConstraintNoLoose = "OUTPUT_CONSTRAINT_NO_LOOSEN"
	RuleOutputFieldNoDelete     = "OUTPUT_FIELD_NO_DELETE"
	RuleOutputFieldNoOptional   = "OUTPUT_FIELD_NO_OPTIONAL"
	RuleToolNoDestructive       = "TOOL_NO_DESTRUCTIVE"
	RuleToolSameIdempotent      = "TOOL_SAME_IDEMPOTENT"
	RuleToolNoNewScope          = "TOOL_NO_NEW_SCOPE"
	RuleToolNoTaskRequired      = "TOOL_NO_TASK_REQUIRED"
	RuleResourceSameURI         = "RESOURCE_SAME_URI"
	RuleResourceSameMimeType    = "RESOURCE_SAME_MIME_TYPE"
	RuleTemplateSameURITemplate = "TEMPLATE_SAME_URI_TEMPLATE"
	RuleTemplateSameMimeType    = "TEMPLATE_SAME_MIME_TYPE"
	RuleConstraintNoUndecided   = "CONSTRAINT_NO_UNDECIDED_CHANGE"

	// Safe changes.
	RuleToolAdded              = "TOOL_ADDED"
	RuleResourceAdded          = "RESOURCE_ADDED"
	RuleTemplateAdded          = "TEMPLATE_ADDED"
	RulePromptAdded            = "PROMPT_ADDED"
	RuleArgAddedOptional       = "ARG_ADDED_OPTIONAL"
	RuleArgBecameOptional      = "ARG_BECAME_OPTIONAL"
	RulePromptArgAddedOptional = "PROMPT_ARG_ADDED_OPTIONAL"
	RulePromptArgBecameOpt     = "PROMPT_ARG_BECAME_OPTIONAL"
	RuleOutputAdded            = "OUTPUT_ADDED"
	RuleOutputFieldAdded       = "OUTPUT_FIELD_ADDED"
	RuleOutputFieldBecameReq   = "OUTPUT_FIELD_BECAME_REQUIRED"
	RuleTypeWidened            = "TYPE_WIDENED"
	RuleTypeNarrowed           = "TYPE_NARROWED"
	RuleEnumValueAdded         = "ENUM_VALUE_ADDED"
	RuleEnumValueDeleted       = "ENUM_VALUE_DELETED"
	RuleConstraintLoosened     = "CONSTRAINT_LOOSENED"
	RuleConstraintTightened    = "CONSTRAINT_TIGHTENED"
	RuleScopeRemoved           = "SCOPE_REMOVED"
	RuleTaskSupportChanged     = "TASK_SUPPORT_CHANGED"
	RuleDefaultChanged         = "DEFAULT_CHANGED"
)

// Compare judges every difference from prev to cur. Tools, resources,
// templates and prompts are matched by name, so a rename is a deletion
// (breaking, naming the old name) and an addition. Changes come in name
// order, each element's own changes before those of its fields.
//
// Direction matters: clients send input (tool arguments, template
// variables, prompt arguments), so an input may accept more but not less;
// clients read output, so an output may promise more but not less. In
// particular a value added to an output enum is breaking
// (OUTPUT_ENUM_VALUE_NO_ADD): a client that switches over the values it
// knows meets one it does not.
func Compare(prev, cur *Surface) []Change {
	c := &comparer{file: cur.file, prev: newSide(prev), cur: newSide(cur)}
	c.tools(prev.Tools, cur.Tools)
	c.resources(prev.Resources, cur.Resources)
	c.templates(prev.Templates, cur.Templates)
	c.prompts(prev.Prompts, cur.Prompts)
	return c.changes
}

type comparer struct {
	file      string
	prev, cur *side
	changes   []Change
}

func (c *comparer) add(rule string, breaking bool, pos spec.Pos, format string, args ...any) {
	if pos == (spec.Pos{}) {
		pos = spec.Pos{File: c.file}
	}
	c.changes = append(c.changes, Change{Rule: rule, Breaking: breaking, Message: fmt.Sprintf(format, args...), Pos: pos})
}

// byName indexes a list by name; matching by name keeps Compare
// independent of the lists' order.
func byName[T any](list []T, name func(T) string) map[string]*T {
	m := make(map[string]*T, len(list))
	for i := range list {
		m[name(list[i])] = &list[i]
	}
	return m
}

func (c *comparer) tools(prev, cur []Tool) {
	curBy := byName(cur, func(t Tool) string { return t.Name })
	prevBy := byName(prev, func(t Tool) string { return t.Name })
	for i := range prev {
		p := &prev[i]
		n := curBy[p.Name]
		if n == nil {
			c.add(RuleToolNoDelete, true, spec.Pos{}, "previously present tool %q was deleted", p.Name)
			continue
		}
		c.tool(p, n)
	}
	for i := range cur {
		if prevBy[cur[i].Name] == nil {
			c.add(RuleToolAdded, false, cur[i].pos, "tool %q was added", cur[i].Name)
		}
	}
}

func (c *comparer) tool(p, n *Tool) {
	ctx := fmt.Sprintf("tool %q", n.Name)
	switch {
	case !p.Annotations.destructive() && n.Annotations.destructive():
		c.add(RuleToolNoDestructive, true, n.pos, "%s became destructive", ctx)
	case p.Annotations.ReadOnly && !n.Annotations.ReadOnly:
		c.add(RuleToolNoDestructive, true, n.pos, "%s lost its read-only hint", ctx)
	}
	if p.Annotations.Idempotent && !n.Annotations.Idempotent {
		c.add(RuleToolSameIdempotent, true, n.pos, "%s lost its idempotent hint", ctx)
	}
	for _, s := range n.Scopes {
		if !contains(p.Scopes, s) {
			c.add(RuleToolNoNewScope, true, n.pos, "%s: scope %q was added", ctx, s)
		}
	}
	for _, s := range p.Scopes {
		if !contains(n.Scopes, s) {
			c.add(RuleScopeRemoved, false, n.pos, "%s: scope %q was removed", ctx, s)
		}
	}
	c.taskSupport(ctx, p, n)
	if p.InputDigest == "" || p.InputDigest != n.InputDigest {
		// Equal digests mean equal schemas, named types and all.
		c.fields(ctx, input, "input", p.Input, n.Input, n.pos)
	}
	switch {
	case len(p.Output) > 0 && len(n.Output) == 0:
		c.add(RuleOutputFieldNoDelete, true, n.pos, "%s: previously present output schema was deleted", ctx)
	case len(p.Output) == 0 && len(n.Output) > 0:
		c.add(RuleOutputAdded, false, n.pos, "%s: output schema was added", ctx)
	case p.OutputDigest == "" || p.OutputDigest != n.OutputDigest:
		c.fields(ctx, output, "output", p.Output, n.Output, n.pos)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func (c *comparer) resources(prev, cur []Resource) {
	curBy := byName(cur, func(r Resource) string { return r.Name })
	prevBy := byName(prev, func(r Resource) string { return r.Name })
	for _, p := range prev {
		n := curBy[p.Name]
		switch {
		case n == nil:
			c.add(RuleResourceNoDelete, true, spec.Pos{}, "previously present resource %q was deleted", p.Name)
		default:
			if p.URI != n.URI {
				c.add(RuleResourceSameURI, true, n.pos, "resource %q: uri changed from %q to %q", n.Name, p.URI, n.URI)
			}
			if p.MimeType != n.MimeType {
				c.add(RuleResourceSameMimeType, true, n.pos, "resource %q: mimeType changed from %q to %q", n.Name, p.MimeType, n.MimeType)
			}
		}
	}
	for _, n := range cur {
		if prevBy[n.Name] == nil {
			c.add(RuleResourceAdded, false, n.pos, "resource %q was added", n.Name)
		}
	}
}

func (c *comparer) templates(prev, cur []Template) {
	curBy := byName(cur, func(t Template) string { return t.Name })
	prevBy := byName(prev, func(t Template) string { return t.Name })
	for _, p := range prev {
		n := curBy[p.Name]
		if n == nil {
			c.add(RuleTemplateNoDelete, true, spec.Pos{}, "previously present resource template %q was deleted", p.Name)
			continue
		}
		ctx := fmt.Sprintf("resource template %q", n.Name)
		if p.URITemplate != n.URITemplate {
			c.add(RuleTemplateSameURITemplate, true, n.pos, "%s: uriTemplate changed from %q to %q", ctx, p.URITemplate, n.URITemplate)
		}
		if p.MimeType != n.MimeType {
			c.add(RuleTemplateSameMimeType, true, n.pos, "%s: mimeType changed from %q to %q", ctx, p.MimeType, n.MimeType)
		}
		c.fields(ctx, input, "variable", p.Variables, n.Variables, n.pos)
	}
	for _, n := range cur {
		if prevBy[n.Name] == nil {
			c.add(RuleTemplateAdded, false, n.pos, "resource template %q was added", n.Name)
		}
	}
}

func (c *comparer) prompts(prev, cur []Prompt) {
	curBy := byName(cur, func(p Prompt) string { return p.Name })
	prevBy := byName(prev, func(p Prompt) string { return p.Name })
	for _, p := range prev {
		n := curBy[p.Name]
		if n == nil {
			c.add(RulePromptNoDelete, true, spec.Pos{}, "previously present prompt %q was deleted", p.Name)
			continue
		}
		ctx := fmt.Sprintf("prompt %q", n.Name)
		curArgs := byName(n.Arguments, func(a PromptArgument) string { return a.Name })
		prevArgs := byName(p.Arguments, func(a PromptArgument) string { return a.Name })
		for _, pa := range p.Arguments {
			na := curArgs[pa.Name]
			switch {
			case na == nil:
				c.add(RulePromptArgNoDelete, true, n.pos, "%s: previously present argument %q was deleted", ctx, pa.Name)
			case !pa.Required && na.Required:
				c.add(RulePromptArgNoNewRequired, true, na.pos, "%s: argument %q became required", ctx, pa.Name)
			case pa.Required && !na.Required:
				c.add(RulePromptArgBecameOpt, false, na.pos, "%s: argument %q became optional", ctx, pa.Name)
			}
		}
		for _, na := range n.Arguments {
			switch {
			case prevArgs[na.Name] != nil:
			case na.Required:
				c.add(RulePromptArgNoNewRequired, true, na.pos, "%s: required argument %q was added", ctx, na.Name)
			default:
				c.add(RulePromptArgAddedOptional, false, na.pos, "%s: optional argument %q was added", ctx, na.Name)
			}
		}
	}
	for _, n := range cur {
		if prevBy[n.Name] == nil {
			c.add(RulePromptAdded, false, n.pos, "prompt %q was added", n.Name)
		}
	}
}

// direction says who writes the values of a schema.
type direction int

const (
	input  direction = iota // the client writes: may accept more, not less
	output                  // the server writes: may promise more, not less
)

// parent returns the path of the field that contains path.
func parent(path string) string {
	i := strings.LastIndexByte(path, '/')
	if i < 0 {
		return ""
	}
	return path[:i]
}

func lastSegment(path string) string { return path[strings.LastIndexByte(path, '/')+1:] }

func isVariant(path string) bool { return strings.HasPrefix(lastSegment(path), "oneOf[") }

// describe names the field at path: "input" for the root, `input property
// "x"` for a top-level property, `input field "/a/*/b"` below.
func describe(noun, path string) string {
	switch {
	case path == "":
		return noun
	case strings.Count(path, "/") == 1 && path != "/*" && path != "/{}" && !isVariant(path):
		if noun == "variable" {
			return fmt.Sprintf("variable %q", spec.UnescapePointerToken(path[1:]))
		}
		return fmt.Sprintf("%s property %q", noun, spec.UnescapePointerToken(path[1:]))
	default:
		return fmt.Sprintf("%s field %q", noun, path)
	}
}

// fields compares two flattened schemas of one direction, first expanding
// the named types they use as far as they may differ (see expand.go). ctx
// prefixes every message; anchor is the position of the element they
// belong to.
func (c *comparer) fields(ctx string, dir direction, noun string, prev, cur []Field, anchor spec.Pos) {
	x := &expander{prev: c.prev, cur: c.cur, done: map[[2]string]bool{}}
	prev, cur = x.expand(prev, cur)
	prevBy := byName(prev, func(f Field) string { return f.Path })
	curBy := byName(cur, func(f Field) string { return f.Path })
	// site finds path in cur, else its nearest parent there: the position
	// to report, and the use of the named type whose definition holds
	// that position, if any. A parent that refers to a named type is the
	// type's definition for what changed below it.
	site := func(path string) (at, use spec.Pos, typ string) {
		for exact := true; ; exact = false {
			if f := curBy[path]; f != nil && f.pos != (spec.Pos{}) {
				if !exact && f.def != (spec.Pos{}) {
					return f.def, f.pos, f.Ref
				}
				return f.pos, f.use, f.useType
			}
			if path == "" {
				return anchor, spec.Pos{}, ""
			}
			path = parent(path)
		}
	}
	pos := func(path string) spec.Pos {
		at, _, _ := site(path)
		return at
	}
	// located adds the use of a named type to the changes from mark on,
	// all about path.
	located := func(mark int, path string) {
		at, use, typ := site(path)
		for i := mark; i < len(c.changes); i++ {
			if ch := &c.changes[i]; ch.Pos == at && use != (spec.Pos{}) {
				ch.Use, ch.Type = use, typ
			}
		}
	}
	// comparable reports whether path's parent is in both with the same
	// type: only then are changes of path its own and not its parent's.
	comparable := func(path string) bool {
		if path == "" {
			return true
		}
		p, n := prevBy[parent(path)], curBy[parent(path)]
		if p == nil && n == nil && parent(path) == "" {
			// Template variables have no root: they are all top level.
			return true
		}
		return p != nil && n != nil && p.Type == n.Type
	}
	for _, p := range prev {
		if !comparable(p.Path) {
			continue
		}
		mark := len(c.changes)
		what := describe(noun, p.Path)
		n := curBy[p.Path]
		if n == nil {
			switch {
			case isVariant(p.Path) && dir == input:
				c.add(RuleVariantNoDelete, true, pos(p.Path), "%s: previously accepted %s was deleted; clients sending it fail", ctx, what)
			case isVariant(p.Path):
				c.add(RuleTypeNarrowed, false, pos(p.Path), "%s: %s was deleted", ctx, what)
			case dir == input && curBy[parent(p.Path)] != nil && curBy[parent(p.Path)].AdditionalProperties:
				c.add(RuleConstraintLoosened, false, pos(p.Path), "%s: %s was deleted; additional properties are accepted", ctx, what)
			case dir == input:
				c.add(RuleArgNoDelete, true, pos(p.Path), "%s: previously present %s was deleted", ctx, what)
			default:
				c.add(RuleOutputFieldNoDelete, true, pos(p.Path), "%s: previously present %s was deleted", ctx, what)
			}
		} else {
			c.field(ctx, dir, what, &p, n, pos(p.Path))
		}
		located(mark, p.Path)
	}
	for _, n := range cur {
		if prevBy[n.Path] != nil || !comparable(n.Path) {
			continue
		}
		mark := len(c.changes)
		what := describe(noun, n.Path)
		switch {
		case isVariant(n.Path) && dir == input:
			c.add(RuleTypeWidened, false, n.pos, "%s: %s was added", ctx, what)
		case isVariant(n.Path):
			c.add(RuleFieldSameType, true, pos(n.Path), "%s: %s was added; clients do not know it", ctx, what)
		case dir == input && n.Required:
			c.add(RuleArgNoNewRequired, true, pos(n.Path), "%s: required %s was added", ctx, what)
		case dir == input:
			c.add(RuleArgAddedOptional, false, pos(n.Path), "%s: optional %s was added", ctx, what)
		default:
			c.add(RuleOutputFieldAdded, false, pos(n.Path), "%s: %s was added", ctx, what)
		}
		located(mark, n.Path)
	}
}

// field compares one field present in both surfaces.
func (c *comparer) field(ctx string, dir direction, what string, p, n *Field, at spec.Pos) {
	if p.Type != n.Type {
		widened := typeCovers(n.Type, p.Type)
		narrowed := typeCovers(p.Type, n.Type)
		switch {
		case dir == input && widened:
			c.add(RuleTypeWidened, false, at, "%s: %s changed type from %q to %q", ctx, what, p.Type, n.Type)
		case dir == output && narrowed:
			c.add(RuleTypeNarrowed, false, at, "%s: %s changed type from %q to %q", ctx, what, p.Type, n.Type)
		default:
			c.add(RuleFieldSameType, true, at, "%s: %s changed type from %q to %q", ctx, what, p.Type, n.Type)
			// Constraints of different types do not compare.
			return
		}
	}
	switch {
	case p.Nullable && !n.Nullable && dir == input:
		c.add(RuleFieldSameType, true, at, "%s: %s is no longer nullable", ctx, what)
	case p.Nullable && !n.Nullable:
		c.add(RuleTypeNarrowed, false, at, "%s: %s is no longer nullable", ctx, what)
	case !p.Nullable && n.Nullable && dir == output:
		c.add(RuleFieldSameType, true, at, "%s: %s became nullable", ctx, what)
	case !p.Nullable && n.Nullable:
		c.add(RuleTypeWidened, false, at, "%s: %s became nullable", ctx, what)
	}
	if p.Path != "" && !isVariant(p.Path) && lastSegment(p.Path) != "*" && lastSegment(p.Path) != "{}" {
		switch {
		case !p.Required && n.Required && dir == input:
			c.add(RuleArgNoNewRequired, true, at, "%s: %s became required", ctx, what)
		case p.Required && !n.Required && dir == input:
			c.add(RuleArgBecameOptional, false, at, "%s: %s became optional", ctx, what)
		case p.Required && !n.Required:
			c.add(RuleOutputFieldNoOptional, true, at, "%s: %s became optional", ctx, what)
		case !p.Required && n.Required:
			c.add(RuleOutputFieldBecameReq, false, at, "%s: %s became required", ctx, what)
		}
	}
	c.enum(ctx, dir, what, p, n, at)
	c.defaults(ctx, dir, what, p, n, at)
	for _, d := range append(constraintDiffs(p, n), appliedDiffs(p.Applied, n.Applied)...) {
		breaking := d.undecided || (dir == input && d.tighter) || (dir == output && d.looser)
		rule := RuleConstraintLoosened
		switch {
		case d.undecided:
			rule = RuleConstraintNoUndecided
			d.msg += "; mcpgen cannot tell whether values are gained or lost, so it may break clients"
		case breaking && dir == input:
			rule = RuleConstraintNoTighten
		case breaking:
			rule = RuleOutputConstraintNoLoose
		case d.tighter:
			rule = RuleConstraintTightened
		}
		c.add(rule, breaking, at, "%s: %s: %s", ctx, what, d.msg)
	}
}

// defaults compares the defaults of a field. A caller that leaves an input
// property out relies on its default: changing or removing it changes
// what such a call does. Adding one where there was none only fills in
// what used to be absent, and an output's default is documentation.
func (c *comparer) defaults(ctx string, dir direction, what string, p, n *Field, at spec.Pos) {
	pd, nd := string(canonical(p.Default)), string(canonical(n.Default))
	switch {
	case pd == nd:
	case dir == input && p.Default != nil && n.Default != nil:
		c.add(RuleDefaultNoChange, true, at, "%s: %s: default changed from %s to %s; calls that leave it out now do something else", ctx, what, pd, nd)
	case dir == input && p.Default != nil:
		c.add(RuleDefaultNoChange, true, at, "%s: %s: default %s was removed; calls that leave it out now do something else", ctx, what, pd)
	case n.Default == nil:
		c.add(RuleDefaultChanged, false, at, "%s: %s: default %s was removed", ctx, what, pd)
	case p.Default == nil:
		c.add(RuleDefaultChanged, false, at, "%s: %s: default %s was added", ctx, what, nd)
	default:
		c.add(RuleDefaultChanged, false, at, "%s: %s: default changed from %s to %s", ctx, what, pd, nd)
	}
}

// values returns the allowed values of f as compact JSON texts, or nil
// when f is not restricted to a list. A const is a list of one.
func values(f *Field) []string {
	switch {
	case f.Enum != nil:
		vs := make([]string, len(f.Enum))
		for i, v := range f.Enum {
			vs[i] = string(canonical(v))
		}
		return vs
	case f.Const != nil:
		return []string{string(canonical(f.Const))}
	}
	return nil
}

func (c *comparer) enum(ctx string, dir direction, what string, p, n *Field, at spec.Pos) {
	pv, nv := values(p), values(n)
	switch {
	case pv == nil && nv == nil:
	case pv == nil && dir == input:
		c.add(RuleConstraintNoTighten, true, at, "%s: %s: enum %s was added", ctx, what, strings.Join(nv, ", "))
	case pv == nil:
		c.add(RuleConstraintTightened, false, at, "%s: %s: enum %s was added", ctx, what, strings.Join(nv, ", "))
	case nv == nil && dir == input:
		c.add(RuleConstraintLoosened, false, at, "%s: %s: enum was removed", ctx, what)
	case nv == nil:
		c.add(RuleOutputEnumValueNoAdd, true, at, "%s: %s: enum was removed; any value may be returned", ctx, what)
	default:
		for _, v := range pv {
			if !contains(nv, v) {
				if dir == input {
					c.add(RuleEnumValueNoDelete, true, at, "%s: %s: enum value %s was deleted", ctx, what, v)
				} else {
					c.add(RuleEnumValueDeleted, false, at, "%s: %s: enum value %s was deleted", ctx, what, v)
				}
			}
		}
		for _, v := range nv {
			if !contains(pv, v) {
				if dir == input {
					c.add(RuleEnumValueAdded, false, at, "%s: %s: enum value %s was added", ctx, what, v)
				} else {
					c.add(RuleOutputEnumValueNoAdd, true, at, "%s: %s: enum value %s was added", ctx, what, v)
				}
			}
		}
	}
}

// constraintDiff is one changed constraint: tighter accepts fewer values,
// looser more; a changed pattern or format may do both. An undecided
// change is one the comparison cannot order (see appliedDiffs).
type constraintDiff struct {
	tighter, looser, undecided bool
	msg                        string
}

func constraintDiffs(p, n *Field) []constraintDiff {
	var ds []constraintDiff
	lowerInt := func(name string, a, b *int64) {
		ds = appendBound(ds, name, ptrF(a), ptrF(b), true)
	}
	upperInt := func(name string, a, b *int64) {
		ds = appendBound(ds, name, ptrF(a), ptrF(b), false)
	}
	lowerInt("minLength", p.MinLength, n.MinLength)
	upperInt("maxLength", p.MaxLength, n.MaxLength)
	ds = appendBound(ds, "minimum", p.Minimum, n.Minimum, true)
	ds = appendBound(ds, "exclusiveMinimum", p.ExclusiveMinimum, n.ExclusiveMinimum, true)
	ds = appendBound(ds, "maximum", p.Maximum, n.Maximum, false)
	ds = appendBound(ds, "exclusiveMaximum", p.ExclusiveMaximum, n.ExclusiveMaximum, false)
	lowerInt("minItems", p.MinItems, n.MinItems)
	upperInt("maxItems", p.MaxItems, n.MaxItems)
	lowerInt("minProperties", p.MinProperties, n.MinProperties)
	upperInt("maxProperties", p.MaxProperties, n.MaxProperties)
	ds = appendString(ds, "pattern", p.Pattern, n.Pattern)
	ds = appendString(ds, "format", p.Format, n.Format)
	if a, b := p.MultipleOf, n.MultipleOf; !equalF(a, b) {
		switch {
		case a == nil:
			ds = append(ds, constraintDiff{tighter: true, msg: fmt.Sprintf("multipleOf %s was added", num(*b))})
		case b == nil:
			ds = append(ds, constraintDiff{looser: true, msg: fmt.Sprintf("multipleOf %s was removed", num(*a))})
		default:
			// Multiples of a are multiples of b when a/b is whole.
			d := constraintDiff{msg: fmt.Sprintf("multipleOf changed from %s to %s", num(*a), num(*b))}
			// Multiples of b include those of a when b divides a; when
			// neither divides the other, some values are lost and some gained.
			d.looser = isWhole(*a / *b)
			d.tighter = !d.looser
			if !d.looser && !isWhole(*b / *a) {
				d.looser = true
			}
			ds = append(ds, d)
		}
	}
	switch {
	case !p.UniqueItems && n.UniqueItems:
		ds = append(ds, constraintDiff{tighter: true, msg: "uniqueItems was added"})
	case p.UniqueItems && !n.UniqueItems:
		ds = append(ds, constraintDiff{looser: true, msg: "uniqueItems was removed"})
	}
	switch {
	case p.AdditionalProperties && !n.AdditionalProperties:
		ds = append(ds, constraintDiff{tighter: true, msg: "additional properties became forbidden"})
	case !p.AdditionalProperties && n.AdditionalProperties:
		ds = append(ds, constraintDiff{looser: true, msg: "additional properties became allowed"})
	}
	return ds
}

func ptrF(v *int64) *float64 {
	if v == nil {
		return nil
	}
	f := float64(*v)
	return &f
}

func equalF(a, b *float64) bool {
	return (a == nil) == (b == nil) && (a == nil || *a == *b)
}

func isWhole(f float64) bool { return f == math.Trunc(f) && !math.IsInf(f, 0) }

// num prints a number as JSON does.
func num(f float64) string {
	b, _ := json.Marshal(f)
	return string(bytes.TrimSpace(b))
}

// appendBound compares a lower (minimum-like) or upper bound.
func appendBound(ds []constraintDiff, name string, a, b *float64, lower bool) []constraintDiff {
	if equalF(a, b) {
		return ds
	}
	switch {
	case a == nil:
		return append(ds, constraintDiff{tighter: true, msg: fmt.Sprintf("%s %s was added", name, num(*b))})
	case b == nil:
		return append(ds, constraintDiff{looser: true, msg: fmt.Sprintf("%s %s was removed", name, num(*a))})
	}
	raised := *b > *a
	verb := "lowered"
	if raised {
		verb = "raised"
	}
	tighter := raised == lower
	return append(ds, constraintDiff{tighter: tighter, looser: !tighter,
		msg: fmt.Sprintf("%s was %s from %s to %s", name, verb, num(*a), num(*b))})
}

// appendString compares a pattern or format: any new or different value
// may reject what the old one accepted, and the other way round.
func appendString(ds []constraintDiff, name, a, b string) []constraintDiff {
	switch {
	case a == b:
		return ds
	case a == "":
		return append(ds, constraintDiff{tighter: true, msg: fmt.Sprintf("%s %q was added", name, b)})
	case b == "":
		return append(ds, constraintDiff{looser: true, msg: fmt.Sprintf("%s %q was removed", name, a)})
	}
	return append(ds, constraintDiff{tighter: true, looser: true, msg: fmt.Sprintf("%s changed from %q to %q", name, a, b)})
}

// Rule describes one rule of Compare.
type Rule struct {
	ID string
	// Breaking is set for the rules that report breaking changes; the
	// others name the safe changes Compare lists.
	Breaking bool
	// Doc says what the rule reports and why.
	Doc string
}

// Rules lists every rule Compare applies, breaking ones first.
func Rules() []Rule {
	return []Rule{
		{RuleToolNoDelete, true, "a tool was deleted or renamed: clients calling it fail"},
		{RuleResourceNoDelete, true, "a resource was deleted or renamed"},
		{RuleTemplateNoDelete, true, "a resource template was deleted or renamed"},
		{RulePromptNoDelete, true, "a prompt was deleted or renamed"},
		{RuleArgNoDelete, true, "an input property was deleted: unknown properties are rejected, so clients still sending it fail"},
		{RuleArgNoNewRequired, true, "an input property became required, or a required one was added"},
		{RulePromptArgNoDelete, true, "a prompt argument was deleted"},
		{RulePromptArgNoNewRequired, true, "a prompt argument became required, or a required one was added"},
		{RuleFieldSameType, true, "a type changed: an input narrowed (number to integer, a type removed from a list, no longer nullable) or an output widened (integer to number, a type added to a list, became nullable, a union variant added)"},
		{RuleVariantNoDelete, true, "a variant of an input union (oneOf) was deleted: clients still sending it fail"},
		{RuleDefaultNoChange, true, "an input default was changed or removed: calls that leave the property out now do something else"},
		{RuleEnumValueNoDelete, true, "a value was deleted from an input enum"},
		{RuleOutputEnumValueNoAdd, true, "a value was added to an output enum, or its enum was removed: clients meet values they do not know"},
		{RuleConstraintNoTighten, true, "an input constraint was tightened: minLength, minimum, minItems, minProperties raised; maxLength, maximum, maxItems, maxProperties lowered; pattern, format, multipleOf, enum or uniqueItems added or changed; additional properties forbidden; an allOf subschema, a dependentRequired or constraint required name, or a not/then/else added; an anyOf subschema removed"},
		{RuleOutputConstraintNoLoose, true, "an output constraint was loosened: clients relying on it meet values outside it"},
		{RuleOutputFieldNoDelete, true, "an output field, or the whole output schema, was deleted"},
		{RuleOutputFieldNoOptional, true, "a required output field became optional"},
		{RuleToolNoDestructive, true, "a tool became destructive (readOnlyHint lost, destructiveHint set or defaulted) or lost its read-only hint"},
		{RuleToolSameIdempotent, true, "a tool lost its idempotent hint: clients that retry it may repeat an effect"},
		{RuleToolNoNewScope, true, "a tool needs an OAuth scope it did not need: existing tokens lack it"},
		{RuleToolNoTaskRequired, true, "a tool became task-required: clients without the tasks extension (io.modelcontextprotocol/tasks) get -32021"},
		{RuleResourceSameURI, true, "a resource's URI changed"},
		{RuleResourceSameMimeType, true, "a resource's mimeType changed"},
		{RuleTemplateSameURITemplate, true, "a resource template's uriTemplate changed"},
		{RuleTemplateSameMimeType, true, "a resource template's mimeType changed"},
		{RuleConstraintNoUndecided, true, "a constraint changed in a way that may both refuse values accepted before and accept new ones (a changed not, if, then or else subschema, or a keyword mcpgen does not compare): reported as possibly breaking, in inputs and outputs, rather than left out"},

		{RuleToolAdded, false, "a tool was added"},
		{RuleResourceAdded, false, "a resource was added"},
		{RuleTemplateAdded, false, "a resource template was added"},
		{RulePromptAdded, false, "a prompt was added"},
		{RuleArgAddedOptional, false, "an optional input property was added"},
		{RuleArgBecameOptional, false, "an input property became optional"},
		{RulePromptArgAddedOptional, false, "an optional prompt argument was added"},
		{RulePromptArgBecameOpt, false, "a prompt argument became optional"},
		{RuleOutputAdded, false, "a tool gained an output schema"},
		{RuleOutputFieldAdded, false, "an output field was added"},
		{RuleOutputFieldBecameReq, false, "an output field became required"},
		{RuleTypeWidened, false, "an input type was widened (integer to number, a type added to a list, nullable, a union variant added)"},
		{RuleTypeNarrowed, false, "an output type was narrowed"},
		{RuleEnumValueAdded, false, "a value was added to an input enum"},
		{RuleEnumValueDeleted, false, "a value was deleted from an output enum"},
		{RuleConstraintLoosened, false, "an input constraint was loosened"},
		{RuleDefaultChanged, false, "an input default was added, or an output default changed"},
		{RuleConstraintTightened, false, "an output constraint was tightened"},
		{RuleScopeRemoved, false, "a tool no longer needs a scope"},
		{RuleTaskSupportChanged, false, "a tool's task support changed without becoming required (it may now or no longer run as a task)"},
	}
}

// taskSupport compares the task support of a tool: becoming required
// breaks clients without the tasks extension; any other change only
// changes whether a long call answers directly or as a task.
func (c *comparer) taskSupport(ctx string, p, n *Tool) {
	switch {
	case p.Task == n.Task:
	case n.Task == spec.TaskRequired:
		c.add(RuleToolNoTaskRequired, true, n.pos, "%s became task-required (was %s)", ctx, taskSupportName(p.Task))
	default:
		c.add(RuleTaskSupportChanged, false, n.pos, "%s: task support changed from %s to %s", ctx, taskSupportName(p.Task), taskSupportName(n.Task))
	}
}

func taskSupportName(task string) string {
	if task == "" {
		return "never"
	}
	return task
}

// typeCovers reports whether every value of field type narrow is one of
// field type wide: "any" covers every type, a list of types
// ("string|integer") the types it names, and number covers integer.
func typeCovers(wide, narrow string) bool {
	switch {
	case wide == "any":
		return true
	case narrow == "any", wide == "oneOf", narrow == "oneOf":
		return false
	}
	ws := strings.Split(wide, "|")
	for _, t := range strings.Split(narrow, "|") {
		if !slices.Contains(ws, t) && !(t == "integer" && slices.Contains(ws, "number")) {
			return false
		}
	}
	return true
}
