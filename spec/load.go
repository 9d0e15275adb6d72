package spec

import (
	"bytes"
	"errors"
	"fmt"
	"go/token"
	"io"
	"io/fs"
	"net/url"
	"path"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// loader holds the state of one Load: the diagnostics found so far and what
// the second (cross-reference) pass needs.
type loader struct {
	file  string
	diags Diagnostics
	// valueChecker holds the named types (types), the compiled patterns
	// and the work of the current value check.
	valueChecker
	// infos has one entry per parsed schema, in parse order.
	infos      []*schemaInfo
	bySchema   map[*Schema]*schemaInfo
	totalSteps int
	// refConstraints are constraints on properties of named types
	// (schema_applicators.go).
	refConstraints []refConstraint
	// bindings are the types bindDynamic made, with what they bind
	// (schema_dynamic.go).
	bindings map[string]string
}

var (
	// toolNameRE is the tool name rule of the MCP spec (§7).
	toolNameRE = regexp.MustCompile(`^[A-Za-z0-9_.-]{1,128}$`)
	// typeNameRE keeps named types usable as Go identifiers after CamelCasing.
	typeNameRE = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_]*$`)
	// uriSchemeRE is the scheme part of an absolute URI (RFC 3986 §3.1).
	uriSchemeRE = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*:`)
)

// Load reads the mcpgen.yaml at path in fsys and returns the API it
// describes. Problems in the file are returned as Diagnostics (all of them,
// sorted, each with the position in path); other failures, such as a missing
// file, as plain errors.
func Load(fsys fs.FS, path string) (*API, error) {
	data, err := fs.ReadFile(fsys, path)
	if err != nil {
		return nil, fmt.Errorf("load spec: %w", err)
	}
	// An OpenAPI/Swagger document, or an mcpgen.yaml with an openapi:
	// section, is read by the OpenAPI loader (openapi_config.go).
	if api, err, ok := openAPIEntry(fsys, path, data); ok {
		return api, err
	}
	return load(data, path)
}

func load(data []byte, file string) (*API, error) {
	l := &loader{
		file:         file,
		valueChecker: newValueChecker(map[string]*NamedType{}),
		bySchema:     map[*Schema]*schemaInfo{},
	}
	if !utf8.Valid(data) {
		line, col := invalidUTF8Pos(data)
		l.diags = append(l.diags, Diagnostic{Pos: Pos{File: file, Line: line, Col: col}, Message: "invalid UTF-8 encoding"})
		return nil, l.diags
	}
	var doc yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&doc); err != nil && err != io.EOF {
		l.diags = append(l.diags, l.yamlError(err))
		return nil, l.diags
	}
	var more yaml.Node
	if err := dec.Decode(&more); err == nil {
		l.diags = append(l.diags, Diagnostic{Pos: l.pos(&more), Message: "only one yaml document is allowed"})
		return nil, l.diags
	}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		l.diags = append(l.diags, Diagnostic{Pos: Pos{File: file, Line: 1, Col: 1}, Message: "empty spec: version is required (version: 1)"})
		return nil, l.diags
	}
	if l.checkDepth(&doc, 0) || len(l.diags) > 0 {
		l.diags.Sort()
		return nil, l.diags
	}
	l.hoistLocalRefs(doc.Content[0])
	api := l.root(doc.Content[0])
	l.check(api)
	if len(l.diags) == 0 {
		endless, checked := endlessDefaults(api)
		for _, e := range endless {
			l.diags = append(l.diags, Diagnostic{Pos: e.prop.Pos, Message: e.message()})
		}
		if !checked {
			l.diags = append(l.diags, Diagnostic{Pos: Pos{File: file}, Message: uncheckedDefaults})
		}
	}
	if len(l.diags) > 0 {
		l.diags.Sort()
		return nil, l.diags
	}
	return api, nil
}

// invalidUTF8Pos is the 1-based line and column (in characters, as yaml.v3
// counts them) of the first invalid UTF-8 sequence in data.
func invalidUTF8Pos(data []byte) (line, col int) {
	line, col = 1, 1
	for len(data) > 0 {
		r, size := utf8.DecodeRune(data)
		if r == utf8.RuneError && size <= 1 {
			return line, col
		}
		if r == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
		data = data[size:]
	}
	return line, col
}

var yamlLineRE = regexp.MustCompile(`^yaml: (?:line (\d+): )?(.*)$`)

// yamlError turns a yaml.v3 syntax error ("yaml: line 3: …") into a
// positioned diagnostic.
func (l *loader) yamlError(err error) Diagnostic {
	msg := err.Error()
	var te *yaml.TypeError
	if errors.As(err, &te) && len(te.Errors) > 0 {
		msg = te.Errors[0]
	}
	d := Diagnostic{Pos: Pos{File: l.file, Line: 1, Col: 1}, Message: "invalid yaml: " + msg}
	if m := yamlLineRE.FindStringSubmatch(msg); m != nil {
		if m[1] != "" {
			if n, err := strconv.Atoi(m[1]); err == nil {
				d.Pos.Line = n
			}
		}
		d.Message = "invalid yaml: " + m[2]
	}
	return d
}

func (l *loader) root(n *yaml.Node) *API {
	api := &API{File: l.file}
	f, ok := l.fields(n, "", "version", "generate", "server", "surface", "types", "tools", "resources", "resourceTemplates", "prompts")
	if !ok {
		return api
	}
	if p, ok := f["version"]; !ok {
		l.errorf(n, "", "version is required (version: 1)")
	} else if p.val.ShortTag() != "!!int" || p.val.Value != "1" {
		if p.val.ShortTag() == "!!int" {
			l.errorf(p.val, "", "version must be 1, got %s", p.val.Value)
		} else {
			l.errorf(p.val, "", "version must be the integer 1, got %s", describe(p.val))
		}
	}
	l.generate(n, f, api)
	if p, ok := f["server"]; ok {
		l.server(p, &api.Server)
	} else {
		l.errorf(n, "", "server is required (with name and version)")
	}
	// Types first, so that the refs of everything else can be resolved in
	// the second pass whatever the order of the file.
	if p, ok := f["types"]; ok {
		ps, _ := l.mapping(p.val, "types")
		for _, e := range ps {
			name := e.key.Value
			ctx := fmt.Sprintf("type %q", name)
			if !typeNameRE.MatchString(name) {
				l.errorf(e.key, "", "type name %q must start with a letter and hold only letters, digits and _", name)
			}
			nt := &NamedType{Name: name, Pos: l.pos(e.key), Binding: l.bindings[name]}
			nt.Schema = l.schema(e.val, ctx, originType)
			l.types[name] = nt
			api.Types = append(api.Types, nt)
		}
	}
	if p, ok := f["tools"]; ok {
		ps, _ := l.mapping(p.val, "tools")
		for _, e := range ps {
			api.Tools = append(api.Tools, l.tool(e))
		}
	}
	if p, ok := f["resources"]; ok {
		ps, _ := l.mapping(p.val, "resources")
		for _, e := range ps {
			api.Resources = append(api.Resources, l.resource(e))
		}
	}
	if p, ok := f["resourceTemplates"]; ok {
		ps, _ := l.mapping(p.val, "resourceTemplates")
		for _, e := range ps {
			api.Templates = append(api.Templates, l.template(e))
		}
	}
	if p, ok := f["prompts"]; ok {
		ps, _ := l.mapping(p.val, "prompts")
		for _, e := range ps {
			api.Prompts = append(api.Prompts, l.prompt(e))
		}
	}
	if p, ok := f["surface"]; ok {
		l.surface(p, api)
	}
	return api
}

// surface reads the surface: section, once the tools (and so their
// toolsets) are known.
func (l *loader) surface(p pair, api *API) {
	const ctx = "surface"
	api.Surface.Pos = l.pos(p.key)
	f, ok := l.fields(p.val, ctx, "defaultToolsets", "outputSchemas", "fieldSelection", "glossary")
	if !ok {
		return
	}
	if d, ok := f["defaultToolsets"]; ok {
		if names, ok := l.strs(d.val, ctx+": defaultToolsets"); ok {
			api.Surface.DefaultToolsets = names
			if msg := unknownToolsets(api, names); msg != "" {
				l.errorf(d.val, ctx, "%s", msg)
			}
		}
	}
	if b := l.optBool(f, "outputSchemas", ctx); b != nil {
		api.Surface.OmitOutputSchemas = !*b
	}
	if b := l.optBool(f, "fieldSelection", ctx); b != nil {
		api.Surface.FieldSelection = *b
	}
	if g, ok := f["glossary"]; ok {
		api.Surface.Glossary = l.glossary(g.val, ctx+": glossary")
	}
}

func (l *loader) generate(root *yaml.Node, f map[string]pair, api *API) {
	g := &api.Generate
	g.Dir = "."
	at := root
	if p, ok := f["generate"]; ok {
		at = p.key
		g.Pos = l.pos(p.key)
		gf, _ := l.fields(p.val, "generate", "package", "dir", "profile", "types")
		if pr, ok := gf["profile"]; ok {
			g.Profiles = l.profiles(pr.val)
		}
		if ty, ok := gf["types"]; ok {
			g.StringFormats = l.formatTypes(ty.val)
		}
		if d, ok := gf["dir"]; ok {
			if s, ok := l.str(d.val, "generate: dir"); ok {
				switch {
				case s == "" || path.IsAbs(s) || strings.HasPrefix(s, "\\") || (len(s) > 1 && s[1] == ':'):
					l.errorf(d.val, "generate", "dir %q must be a relative path", s)
				default:
					g.Dir = path.Clean(s)
				}
			}
		}
		if pk, ok := gf["package"]; ok {
			if s, ok := l.str(pk.val, "generate: package"); ok {
				g.Package = s
				if !token.IsIdentifier(s) {
					l.errorf(pk.val, "generate", "package %q is not a valid Go identifier", s)
				}
				return
			}
			return
		}
	}
	dir := g.Dir
	if dir == "." {
		dir = path.Dir(l.file)
	}
	base := path.Base(dir)
	if base == "." || base == ".." || base == "/" {
		// The spec sits at the root of fsys, so its directory's name is
		// unknown here: the caller, which knows it, fills Package in.
		return
	}
	if !token.IsIdentifier(base) {
		l.errorf(at, "generate", "package name %q derived from directory %q is not a valid Go identifier: set generate.package", base, dir)
		return
	}
	g.Package = base
}

// formatTypes reads generate.types: "native" (the default: date-time,
// date and base64 strings are time.Time, runtime.Date and []byte in Go) or
// "strings" (they stay Go strings). It reports whether strings was asked
// for.
func (l *loader) formatTypes(n *yaml.Node) bool {
	s, ok := l.str(n, "generate: types")
	if !ok {
		return false
	}
	switch s {
	case "native":
		return false
	case "strings":
		return true
	}
	l.errorf(n, "generate", "types %q must be native (time.Time, runtime.Date and []byte for date-time, date and base64 strings) or strings", s)
	return false
}

func (l *loader) server(p pair, s *Server) {
	const ctx = "server"
	s.Pos = l.pos(p.key)
	f, ok := l.fields(p.val, ctx, "name", "title", "version", "description", "instructions", "website", "icons", "cache")
	if !ok {
		return
	}
	l.optStr(f, "title", ctx, &s.Title)
	l.optStr(f, "description", ctx, &s.Description)
	l.optStr(f, "instructions", ctx, &s.Instructions)
	l.reqStr(f, "name", ctx, p.key, &s.Name)
	l.reqStr(f, "version", ctx, p.key, &s.Version)
	if w, ok := f["website"]; ok {
		if v, ok := l.str(w.val, ctx+": website"); ok {
			u, err := url.Parse(v)
			if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
				l.errorf(w.val, ctx, "website %q must be an absolute http or https URL", v)
			}
			s.WebsiteURL = v
		}
	}
	if ic, ok := f["icons"]; ok {
		s.Icons = l.icons(ic.val, ctx+": icons")
	}
	if c, ok := f["cache"]; ok {
		cf, _ := l.fields(c.val, ctx+": cache", "list", "read")
		if e, ok := cf["list"]; ok {
			s.ListCache = l.cache(e, ctx+": cache: list")
		}
		if e, ok := cf["read"]; ok {
			s.ReadCache = l.cache(e, ctx+": cache: read")
		}
	}
}

// optStr sets *dst to the string under key, when present.
func (l *loader) optStr(f map[string]pair, key, ctx string, dst *string) {
	if p, ok := f[key]; ok {
		if s, ok := l.str(p.val, ctx+": "+key); ok {
			*dst = s
		}
	}
}

// reqStr is optStr for a required, non-empty string; at is where a missing
// key is reported.
func (l *loader) reqStr(f map[string]pair, key, ctx string, at *yaml.Node, dst *string) bool {
	p, ok := f[key]
	if !ok {
		l.errorf(at, ctx, "%s is required", key)
		return false
	}
	s, ok := l.str(p.val, ctx+": "+key)
	if !ok {
		return false
	}
	if s == "" {
		l.errorf(p.val, ctx, "%s must not be empty", key)
		return false
	}
	*dst = s
	return true
}

func (l *loader) optBool(f map[string]pair, key, ctx string) *bool {
	if p, ok := f[key]; ok {
		if b, ok := l.boolean(p.val, ctx+": "+key); ok {
			return &b
		}
	}
	return nil
}

func (l *loader) icons(n *yaml.Node, ctx string) []Icon {
	if n.Kind != yaml.SequenceNode {
		l.expected(n, ctx, "a list of icons")
		return nil
	}
	var out []Icon
	for i, c := range n.Content {
		ictx := fmt.Sprintf("%s[%d]", ctx, i)
		f, ok := l.fields(c, ictx, "src", "mimeType", "sizes", "theme")
		if !ok {
			continue
		}
		var ic Icon
		l.reqStr(f, "src", ictx, c, &ic.Src)
		if ic.Src != "" && !uriSchemeRE.MatchString(ic.Src) {
			l.errorf(f["src"].val, ictx, "src %q must be an absolute URI", ic.Src)
		}
		l.optStr(f, "mimeType", ictx, &ic.MimeType)
		if p, ok := f["sizes"]; ok {
			ic.Sizes, _ = l.strs(p.val, ictx+": sizes")
		}
		l.optStr(f, "theme", ictx, &ic.Theme)
		if ic.Theme != "" && ic.Theme != "light" && ic.Theme != "dark" {
			l.errorf(f["theme"].val, ictx, "theme %q must be light or dark", ic.Theme)
		}
		out = append(out, ic)
	}
	return out
}

func (l *loader) cache(p pair, ctx string) *CacheHint {
	h := &CacheHint{Scope: "private", Pos: l.pos(p.key)}
	f, ok := l.fields(p.val, ctx, "ttlMs", "cacheScope")
	if !ok {
		return h
	}
	if t, ok := f["ttlMs"]; ok {
		if v, ok := l.integer(t.val, ctx+": ttlMs"); ok {
			if v < 0 {
				l.errorf(t.val, ctx, "ttlMs must not be negative, got %d", v)
			}
			h.TTLMs = v
		}
	}
	if s, ok := f["cacheScope"]; ok {
		if v, ok := l.str(s.val, ctx+": cacheScope"); ok {
			if v != "public" && v != "private" {
				l.errorf(s.val, ctx, "cacheScope %q must be public or private", v)
			}
			h.Scope = v
		}
	}
	return h
}

func (l *loader) tool(e pair) *Tool {
	name := e.key.Value
	t := &Tool{Name: name, Pos: l.pos(e.key)}
	ctx := fmt.Sprintf("tool %q", name)
	if !toolNameRE.MatchString(name) {
		l.errorf(e.key, "", "tool name %q must be 1-128 characters of A-Z a-z 0-9 _ . -", name)
	}
	f, ok := l.fields(e.val, ctx, "title", "description", "icons", "annotations", "scopes", "toolset", "task", "input", "output")
	if !ok {
		f = nil
	}
	l.optStr(f, "title", ctx, &t.Title)
	l.toolTask(f, ctx, t)
	l.optStr(f, "toolset", ctx, &t.Toolset)
	if t.Toolset != "" && ToolsetName(t.Toolset) != t.Toolset {
		l.errorf(f["toolset"].val, ctx, "toolset %q must be lowercase letters, digits and _ (for example %q)", t.Toolset, ToolsetName(t.Toolset))
	}
	if t.Toolset == "" {
		t.Toolset = DefaultToolset
	}
	l.optStr(f, "description", ctx, &t.Description)
	if p, ok := f["icons"]; ok {
		t.Icons = l.icons(p.val, ctx+": icons")
	}
	if p, ok := f["annotations"]; ok {
		actx := ctx + ": annotations"
		af, _ := l.fields(p.val, actx, "title", "readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint")
		l.optStr(af, "title", actx, &t.Annotations.Title)
		t.Annotations.ReadOnly = l.optBool(af, "readOnlyHint", actx)
		t.Annotations.Destructive = l.optBool(af, "destructiveHint", actx)
		t.Annotations.Idempotent = l.optBool(af, "idempotentHint", actx)
		t.Annotations.OpenWorld = l.optBool(af, "openWorldHint", actx)
	}
	if p, ok := f["scopes"]; ok {
		t.Scopes, _ = l.strs(p.val, ctx+": scopes")
	}
	if p, ok := f["input"]; ok {
		t.Input = l.schemaImplied(p.val, ctx+": input", originInput, KindObject)
		in := t.Input
		switch {
		case in.Ref != "":
			l.errorf(p.val, ctx, "input must be an inline object schema, not a $ref")
		case len(in.OneOf) > 0:
			l.errorf(p.val, ctx, "input must be an object schema, not a oneOf")
		case in.Type != KindObject:
			l.errorf(p.val, ctx, "input must be an object schema, got type %q", string(in.Type))
		}
		in.Type = KindObject
	} else {
		t.Input = &Schema{Type: KindObject, Pos: t.Pos}
	}
	if p, ok := f["output"]; ok {
		t.Output = l.schema(p.val, ctx+": output", originOutput)
	}
	return t
}

func (l *loader) resource(e pair) *Resource {
	name := e.key.Value
	r := &Resource{Name: name, Pos: l.pos(e.key)}
	ctx := fmt.Sprintf("resource %q", name)
	f, ok := l.fields(e.val, ctx, "uri", "title", "description", "mimeType", "size", "icons", "cache")
	if !ok {
		return r
	}
	if l.reqStr(f, "uri", ctx, e.key, &r.URI) {
		u, err := url.Parse(r.URI)
		if err != nil || !u.IsAbs() {
			l.errorf(f["uri"].val, ctx, "uri %q must be an absolute URI", r.URI)
		}
	}
	l.optStr(f, "title", ctx, &r.Title)
	l.optStr(f, "description", ctx, &r.Description)
	l.optStr(f, "mimeType", ctx, &r.MimeType)
	if p, ok := f["size"]; ok {
		if v, ok := l.integer(p.val, ctx+": size"); ok {
			if v < 0 {
				l.errorf(p.val, ctx, "size must not be negative, got %d", v)
			}
			r.Size = &v
		}
	}
	if p, ok := f["icons"]; ok {
		r.Icons = l.icons(p.val, ctx+": icons")
	}
	if p, ok := f["cache"]; ok {
		r.Cache = l.cache(p, ctx+": cache")
	}
	return r
}

// templateExprRE is a simple RFC 6570 level 1 expression: {varname}.
var templateExprRE = regexp.MustCompile(`^[A-Za-z0-9_]+$`)

func (l *loader) template(e pair) *ResourceTemplate {
	name := e.key.Value
	t := &ResourceTemplate{Name: name, Pos: l.pos(e.key)}
	ctx := fmt.Sprintf("template %q", name)
	f, ok := l.fields(e.val, ctx, "uriTemplate", "title", "description", "mimeType", "icons", "cache", "variables")
	if !ok {
		return t
	}
	l.optStr(f, "title", ctx, &t.Title)
	l.optStr(f, "description", ctx, &t.Description)
	l.optStr(f, "mimeType", ctx, &t.MimeType)
	if p, ok := f["icons"]; ok {
		t.Icons = l.icons(p.val, ctx+": icons")
	}
	if p, ok := f["cache"]; ok {
		t.Cache = l.cache(p, ctx+": cache")
	}
	// Declared variables, by name.
	declared := map[string]*Variable{}
	var declOrder []*Variable
	if p, ok := f["variables"]; ok {
		ps, _ := l.mapping(p.val, ctx+": variables")
		for _, v := range ps {
			vctx := fmt.Sprintf("%s: variable %q", ctx, v.key.Value)
			va := &Variable{Name: v.key.Value, Pos: l.pos(v.key)}
			va.Schema = l.schemaImplied(v.val, vctx, originVariable, KindString)
			info := l.infoOf(va.Schema)
			if info.complete != nil {
				va.Complete = l.completion(*info.complete, vctx)
			}
			switch va.Schema.Type {
			case KindString, KindInteger, KindNumber, KindBoolean:
			default:
				l.errorf(info.keyNode("type"), vctx, "type %q is not allowed: use string, integer, number or boolean", string(va.Schema.Type))
			}
			if va.Schema.Ref != "" || len(va.Schema.OneOf) > 0 {
				l.errorf(v.val, vctx, "a template variable cannot be a $ref or oneOf")
			}
			declared[va.Name] = va
			declOrder = append(declOrder, va)
		}
	}
	p, ok := f["uriTemplate"]
	if !ok {
		l.errorf(e.key, ctx, "uriTemplate is required")
		return t
	}
	tmpl, ok := l.str(p.val, ctx+": uriTemplate")
	if !ok {
		return t
	}
	t.URITemplate = tmpl
	if !uriSchemeRE.MatchString(tmpl) {
		l.errorf(p.val, ctx, "uriTemplate %q must be an absolute URI template (scheme:…)", tmpl)
	}
	used := map[string]bool{}
	rest := tmpl
	for {
		open := strings.IndexAny(rest, "{}")
		if open < 0 {
			break
		}
		if rest[open] == '}' {
			l.errorf(p.val, ctx, "uriTemplate %q has an unmatched }", tmpl)
			break
		}
		end := strings.IndexAny(rest[open+1:], "{}")
		if end < 0 || rest[open+1+end] == '{' {
			l.errorf(p.val, ctx, "uriTemplate %q has an unclosed {", tmpl)
			break
		}
		expr := rest[open+1 : open+1+end]
		rest = rest[open+1+end+1:]
		if !templateExprRE.MatchString(expr) {
			l.errorf(p.val, ctx, "uriTemplate expression {%s} is not supported: only simple {var} expressions are", expr)
			continue
		}
		if used[expr] {
			l.errorf(p.val, ctx, "uriTemplate variable %q appears more than once", expr)
			continue
		}
		used[expr] = true
		v, ok := declared[expr]
		if !ok {
			l.errorf(p.val, ctx, "uriTemplate variable %q is not declared under variables", expr)
			continue
		}
		t.Variables = append(t.Variables, v)
	}
	for _, v := range declOrder {
		if !used[v.Name] {
			l.errorf(l.yamlNodeAt(v.Pos), ctx, "variable %q does not appear in uriTemplate %q", v.Name, tmpl)
		}
	}
	return t
}

// yamlNodeAt makes a node carrying pos, for reporting at a position kept in
// the model.
func (l *loader) yamlNodeAt(p Pos) *yaml.Node {
	return &yaml.Node{Line: p.Line, Column: p.Col}
}

func (l *loader) prompt(e pair) *Prompt {
	name := e.key.Value
	pr := &Prompt{Name: name, Pos: l.pos(e.key)}
	ctx := fmt.Sprintf("prompt %q", name)
	f, ok := l.fields(e.val, ctx, "title", "description", "icons", "arguments")
	if !ok {
		return pr
	}
	l.optStr(f, "title", ctx, &pr.Title)
	l.optStr(f, "description", ctx, &pr.Description)
	if p, ok := f["icons"]; ok {
		pr.Icons = l.icons(p.val, ctx+": icons")
	}
	if p, ok := f["arguments"]; ok {
		// Argument names are mapping keys: mapping reports duplicates.
		ps, _ := l.mapping(p.val, ctx+": arguments")
		for _, a := range ps {
			actx := fmt.Sprintf("%s: argument %q", ctx, a.key.Value)
			arg := &PromptArgument{Name: a.key.Value, Pos: l.pos(a.key)}
			if a.key.Value == "" {
				l.errorf(a.key, ctx, "argument names must not be empty")
			}
			af, _ := l.fields(a.val, actx, "title", "description", "required", "complete")
			l.optStr(af, "title", actx, &arg.Title)
			l.optStr(af, "description", actx, &arg.Description)
			if b := l.optBool(af, "required", actx); b != nil {
				arg.Required = *b
			}
			if c, ok := af["complete"]; ok {
				arg.Complete = l.completion(c, actx)
			}
			pr.Arguments = append(pr.Arguments, arg)
		}
	}
	return pr
}

// completion decodes `complete:`, a list of strings or the word handler.
func (l *loader) completion(p pair, ctx string) *Completion {
	c := &Completion{Pos: l.pos(p.key)}
	switch {
	case p.val.Kind == yaml.ScalarNode && p.val.ShortTag() == "!!str" && p.val.Value == "handler":
		c.Handler = true
	case p.val.Kind == yaml.SequenceNode:
		c.Values, _ = l.strs(p.val, ctx+": complete")
		if len(p.val.Content) > 100 {
			l.errorf(p.val, ctx, "complete lists %d values, more than the 100 a completion may return", len(p.val.Content))
		}
	default:
		l.errorf(p.val, ctx, "complete must be a list of strings or the word handler, got %s", describe(p.val))
	}
	return c
}
