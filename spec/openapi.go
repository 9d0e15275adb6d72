package spec

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/pb33f/go-yaml"
	"github.com/pb33f/libopenapi"
	"github.com/pb33f/libopenapi/datamodel"
	"github.com/pb33f/libopenapi/datamodel/high/base"
	v3 "github.com/pb33f/libopenapi/datamodel/high/v3"
	"github.com/pb33f/libopenapi/orderedmap"
)

// OpenAPIConfig selects and shapes the tools made from an OpenAPI document.
type OpenAPIConfig struct {
	// Include keeps only the operations matching it (all when empty). Every
	// non-empty dimension must match: {tags: [a], methods: [get]} keeps the
	// GET operations tagged a.
	Include OpenAPISelector
	// Exclude drops the operations matching any of its non-empty dimensions:
	// {tags: [admin], methods: [delete]} drops every admin operation and
	// every DELETE. Operations with x-mcp: {skip: true} are dropped too.
	Exclude OpenAPISelector
	// MaxToolNameLength is the tool name budget; 0 means 64, what most MCP
	// clients accept.
	MaxToolNameLength int
	// MaxSchemaBytes is the budget of each tool's JSON Schemas (API.MaxSchemaBytes):
	// 0 means 64 KiB, negative means none. Real documents (Stripe, Argo,
	// GitHub) have types whose closure is megabytes; a model gains nothing
	// from a schema that size.
	MaxSchemaBytes int
	// ServerName and ServerVersion override info.title / info.version.
	ServerName    string
	ServerVersion string
	// Generate is copied into API.Generate (Dir defaults to ".").
	Generate GenerateConfig
}

// OpenAPISelector matches operations. Within a dimension any entry may match.
type OpenAPISelector struct {
	Tags []string
	// Paths are globs over the path template: * matches within a segment,
	// ** across segments ("/repos/**", "/pets/*").
	Paths []string
	// Methods are HTTP methods, case-insensitive.
	Methods []string
	// Operations are operationIds.
	Operations []string
}

func (s OpenAPISelector) empty() bool {
	return len(s.Tags)+len(s.Paths)+len(s.Methods)+len(s.Operations) == 0
}

// DefaultMaxSchemaBytes is the schema budget of an OpenAPI-derived tool
// when the config names none: 64 KiB of JSON is already far more than a
// model reads with profit.
const DefaultMaxSchemaBytes = 64 << 10

// defaultToolNameBudget is the length most MCP clients accept for tool names.
const defaultToolNameBudget = 64

// oaLoader holds the state of one LoadOpenAPI.
type oaLoader struct {
	file  string
	cfg   OpenAPIConfig
	diags Diagnostics
	notes Diagnostics
	api   *API
	// types maps a $ref string to the named type made from it.
	types map[string]*NamedType
	// typeNames holds the names taken so far.
	typeNames map[string]bool
	// credParams are "in\x00name" keys (header names lower-cased) of
	// parameters that carry a security scheme's credential.
	credParams map[string]string
	// schemes by name, for scopes.
	oauthSchemes map[string]bool
	isV2         bool
	// refSiblings is set for OpenAPI 3.1 and later, where keywords beside a
	// $ref apply (JSON Schema 2020-12); 3.0 and 2.0 ignore them.
	refSiblings bool
	// defaultPos is where each schema's default is written, for the notes
	// of dropBrokenDefaults.
	defaultPos map[*Schema]Pos
}

// LoadOpenAPI reads an OpenAPI 3.0/3.1 or Swagger 2.0 document (JSON or YAML)
// at path in fsys and returns the API whose tools call its operations.
//
// $refs are followed within the document and to relative files; a remote
// (http, https) $ref is a positioned error, nothing is ever fetched. Problems
// are Diagnostics; what was dropped or weakened on the way (credential
// parameters, unsupported schema keywords) is listed in API.Notes.
func LoadOpenAPI(fsys fs.FS, file string, cfg OpenAPIConfig) (*API, error) {
	data, err := fs.ReadFile(fsys, file)
	if err != nil {
		return nil, fmt.Errorf("load openapi: %w", err)
	}
	return loadOpenAPI(fsys, file, data, cfg)
}

func loadOpenAPI(fsys fs.FS, file string, data []byte, cfg OpenAPIConfig) (*API, error) {
	if cfg.MaxToolNameLength <= 0 {
		cfg.MaxToolNameLength = defaultToolNameBudget
	}
	switch {
	case cfg.MaxSchemaBytes == 0:
		cfg.MaxSchemaBytes = DefaultMaxSchemaBytes
	case cfg.MaxSchemaBytes < 0:
		cfg.MaxSchemaBytes = 0
	}
	l := &oaLoader{
		file:         file,
		cfg:          cfg,
		types:        map[string]*NamedType{},
		typeNames:    map[string]bool{},
		credParams:   map[string]string{},
		oauthSchemes: map[string]bool{},
		defaultPos:   map[*Schema]Pos{},
	}
	dcfg := &datamodel.DocumentConfiguration{
		AllowRemoteReferences: false,
		// Reference cycles are mapped to recursive named types; the check
		// only costs time.
		SkipCircularReferenceCheck: true,
		// The loader reads the model, never the index's metadata lists
		// (descriptions, enums, summaries), which cost a third of the
		// load's memory on large documents.
		SkipMetadataCollection: true,
		SpecFilePath:           path.Base(file),
	}
	// Relative file $refs are served from fsys, next to the document; any
	// other file is out of reach. The library then indexes the directory, so
	// only documents that seem to have such refs pay for it.
	if hasFileRefs(data) {
		sub, err := fs.Sub(fsys, path.Dir(file))
		if err != nil {
			return nil, fmt.Errorf("load openapi: %w", err)
		}
		dcfg.BasePath = "."
		dcfg.LocalFS = sub
	}
	doc, err := libopenapi.NewDocumentWithConfiguration(data, dcfg)
	if err != nil {
		l.errorf(Pos{File: file, Line: 1, Col: 1}, "not an OpenAPI document: %v", err)
		return nil, l.diags
	}
	if info := doc.GetSpecInfo(); info != nil && info.RootNode != nil {
		l.scanRefs(info.RootNode, false, 0)
	}
	if len(l.diags) > 0 {
		l.diags.Sort()
		return nil, l.diags
	}
	l.api = &API{File: file, Generate: cfg.Generate, MaxSchemaBytes: cfg.MaxSchemaBytes}
	if l.api.Generate.Dir == "" {
		l.api.Generate.Dir = "."
	}
	info := doc.GetSpecInfo()
	l.refSiblings = strings.HasPrefix(info.Version, "3.") && !strings.HasPrefix(info.Version, "3.0")
	var ops []*oaOp
	if info.SpecFormat == "oas2" || strings.HasPrefix(info.Version, "2") {
		l.isV2 = true
		m, errs := doc.BuildV2Model()
		if m == nil {
			l.modelErrors(errs)
			return nil, l.diags
		}
		ops = l.v2Ops(&m.Model)
	} else {
		m, errs := doc.BuildV3Model()
		if m == nil {
			l.modelErrors(errs)
			return nil, l.diags
		}
		ops = l.v3Ops(&m.Model)
	}
	l.tools(ops)
	if len(l.diags) > 0 {
		l.diags.Sort()
		return nil, l.diags
	}
	// A vendor's document is not ours to fix: a default its own schema
	// refuses is dropped, with a note (openapi_defaults.go), and so is a
	// default that would fill itself in without end; the rest is generated.
	l.dropBrokenDefaults()
	// Dropping one can end other loops, so look again after each drop;
	// every round drops a default, so the rounds end.
	for {
		endless, checked := endlessDefaults(l.api)
		if !checked {
			l.notef(Pos{File: file}, "%s", uncheckedDefaults)
		}
		if len(endless) == 0 {
			break
		}
		e := endless[0]
		l.notef(e.prop.Pos, "%s; the default is dropped", e.message())
		e.drop()
	}
	// A schema reached along several paths is converted, and noted, more
	// than once; one note per position and message is enough.
	l.notes.Sort()
	for i, n := range l.notes {
		if i == 0 || n != l.notes[i-1] {
			l.api.Notes = append(l.api.Notes, n)
		}
	}
	return l.api, nil
}

func (l *oaLoader) modelErrors(err error) {
	if err == nil {
		err = errors.New("unknown error")
	}
	l.errorf(Pos{File: l.file, Line: 1, Col: 1}, "cannot build the OpenAPI model: %v", err)
}

func (l *oaLoader) errorf(p Pos, format string, args ...any) {
	l.diags = append(l.diags, Diagnostic{Pos: p, Message: fmt.Sprintf(format, args...)})
}

func (l *oaLoader) notef(p Pos, format string, args ...any) {
	l.notes = append(l.notes, Diagnostic{Pos: p, Message: fmt.Sprintf(format, args...)})
}

func (l *oaLoader) pos(n *yaml.Node) Pos {
	if n == nil {
		return Pos{File: l.file}
	}
	return Pos{File: l.file, Line: n.Line, Col: n.Column}
}

// scanRefs reports remote $refs as errors before the model is built, so
// that nothing is fetched and each error has a position. Example values are
// data, not references, and are not searched. names says that the keys of
// n are names (n is the value of properties or another keyword holding a
// map of schemas, or of components.schemas or Swagger's definitions),
// never keywords: a property called "$ref" or "example" is a member like
// any other, and the schema of a property called "properties" has keywords
// of its own.
func (l *oaLoader) scanRefs(n *yaml.Node, names bool, depth int) {
	if n == nil || depth > 10000 {
		return
	}
	switch n.Kind {
	case yaml.DocumentNode, yaml.SequenceNode:
		for _, c := range n.Content {
			l.scanRefs(c, false, depth+1)
		}
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			switch {
			case names:
				l.scanRefs(v, false, depth+1)
			case k.Value == "example" || k.Value == "examples" || k.Value == "x-examples":
			case k.Value == "$ref" && v.Kind == yaml.ScalarNode:
				if u := strings.ToLower(v.Value); strings.HasPrefix(u, "http://") || strings.HasPrefix(u, "https://") || strings.HasPrefix(u, "//") {
					l.errorf(l.pos(v), "remote $ref %q is not allowed (nothing is fetched): copy the document next to this one and use a relative path", v.Value)
				}
			default:
				l.scanRefs(v, subschemaKeywords[k.Value] == subschemaMap || k.Value == "schemas" || k.Value == "definitions", depth+1)
			}
		}
	}
}

// hasFileRefs reports whether data may hold a $ref to another file: a
// cheap over-approximation (example values count too). It looks at every
// string value of a "$ref" key in JSON or YAML ("$ref": "…", $ref: '…',
// $ref: …); a "$ref" key holding an object or array is a property named
// $ref (GitHub's SCIM schemas have one), not a reference.
func hasFileRefs(data []byte) bool {
	rest := data
	for {
		i := bytes.Index(rest, []byte("$ref"))
		if i < 0 {
			return false
		}
		rest = rest[i+len("$ref"):]
		v := rest
		if len(v) > 0 && (v[0] == '"' || v[0] == '\'') {
			v = v[1:]
		}
		v = bytes.TrimLeft(v, " \t")
		if len(v) == 0 || v[0] != ':' {
			continue
		}
		v = bytes.TrimLeft(v[1:], " \t")
		if len(v) > 0 && (v[0] == '"' || v[0] == '\'') {
			v = v[1:]
		}
		end := bytes.IndexAny(v, "\"' \t\r\n,}")
		if end < 0 {
			end = len(v)
		}
		ref := strings.ToLower(string(v[:end]))
		switch {
		case ref == "", ref[0] == '{', ref[0] == '[', ref[0] == '#',
			strings.HasPrefix(ref, "http:"), strings.HasPrefix(ref, "https:"), strings.HasPrefix(ref, "//"):
			continue
		}
		return true
	}
}

// oaOp is one operation, the same for 2.0 and 3.x documents.
type oaOp struct {
	method, path string
	id           string
	summary      string
	description  string
	tags         []string
	deprecated   bool
	params       []oaParam
	body         *oaBody
	output       *base.SchemaProxy
	security     []*base.SecurityRequirement
	ext          *orderedmap.Map[string, *yaml.Node]
	pos          Pos
}

// oaParam is a path, query, header or cookie parameter with its schema
// already converted (2.0 parameters have no schema object).
type oaParam struct {
	name, in string
	style    string
	explode  bool
	required bool
	// multiSegment: x-multi-segment or x-mcp-multi-segment is true.
	multiSegment bool
	schema       *Schema
	pos          Pos
}

// fieldStyle is how one form field is serialised.
type fieldStyle struct {
	style   string
	explode *bool
}

// oaBody is the chosen request body media type.
type oaBody struct {
	contentType string
	required    bool
	// schema is the body schema, or props when 2.0 formData made it.
	schema      *base.SchemaProxy
	form        *Schema
	description string
	// binary fields of multipart bodies: property → content type.
	encoding map[string]string
	// style and explode of form fields from the encoding object.
	styles map[string]fieldStyle
	pos    Pos
}

var methodOrder = map[string]int{"get": 0, "put": 1, "post": 2, "delete": 3, "options": 4, "head": 5, "patch": 6, "trace": 7, "query": 8}

func (l *oaLoader) v3Ops(d *v3.Document) []*oaOp {
	if len(d.Servers) > 0 {
		l.api.UpstreamURL = d.Servers[0].URL
	}
	l.info(d.Info)
	if d.Components != nil && d.Components.SecuritySchemes != nil {
		for name, ss := range d.Components.SecuritySchemes.FromOldest() {
			p := Pos{File: l.file}
			if lo := ss.GoLow(); lo != nil {
				p = l.pos(lo.RootNode)
			}
			l.scheme(&SecurityScheme{Name: name, Type: ss.Type, In: ss.In, ParamName: ss.Name, Scheme: strings.ToLower(ss.Scheme), Pos: p})
		}
	}
	var ops []*oaOp
	if d.Paths == nil || d.Paths.PathItems == nil {
		return nil
	}
	for pth, item := range d.Paths.PathItems.FromOldest() {
		for method, op := range item.GetOperations().FromOldest() {
			o := &oaOp{
				method: strings.ToUpper(method), path: pth, id: op.OperationId,
				summary: op.Summary, description: op.Description, tags: op.Tags,
				ext: op.Extensions, pos: Pos{File: l.file},
			}
			if op.Deprecated != nil {
				o.deprecated = *op.Deprecated
			}
			if lo := op.GoLow(); lo != nil {
				o.pos = l.pos(lo.KeyNode)
			}
			o.security = d.Security
			if op.Security != nil {
				o.security = op.Security
			}
			// Operation parameters override path-item ones of the same name+in.
			seen := map[string]bool{}
			var params []*v3.Parameter
			for _, p := range op.Parameters {
				seen[p.In+"\x00"+p.Name] = true
				params = append(params, p)
			}
			for _, p := range item.Parameters {
				if !seen[p.In+"\x00"+p.Name] {
					params = append(params, p)
				}
			}
			for _, p := range params {
				o.params = append(o.params, l.v3Param(p))
			}
			if op.RequestBody != nil {
				o.body = l.v3Body(op.RequestBody)
			}
			if op.Responses != nil {
				o.output = l.v3Output(op.Responses)
			}
			ops = append(ops, o)
		}
	}
	return ops
}

func (l *oaLoader) info(i *base.Info) {
	s := &l.api.Server
	if i != nil {
		s.Title = i.Title
		s.Name = i.Title
		s.Version = i.Version
		s.Description = i.Description
	}
	s.Name = toolNameChars(s.Name)
	if s.Name == "" {
		s.Name = "api"
	}
	if l.cfg.ServerName != "" {
		s.Name = l.cfg.ServerName
	}
	if l.cfg.ServerVersion != "" {
		s.Version = l.cfg.ServerVersion
	}
	if s.Version == "" {
		s.Version = "0.0.0"
	}
}

func (l *oaLoader) scheme(ss *SecurityScheme) {
	l.api.SecuritySchemes = append(l.api.SecuritySchemes, ss)
	switch ss.Type {
	case "apiKey":
		key := ss.In + "\x00" + ss.ParamName
		if ss.In == "header" {
			key = "header\x00" + strings.ToLower(ss.ParamName)
		}
		l.credParams[key] = ss.Name
	case "oauth2", "openIdConnect":
		l.oauthSchemes[ss.Name] = true
	}
}

func (l *oaLoader) v3Param(p *v3.Parameter) oaParam {
	op := oaParam{name: p.Name, in: p.In, style: p.Style, pos: Pos{File: l.file}}
	if lo := p.GoLow(); lo != nil {
		op.pos = l.pos(lo.RootNode)
	}
	if op.style == "" {
		switch p.In {
		case "query", "cookie":
			op.style = "form"
		default:
			op.style = "simple"
		}
	}
	op.explode = op.style == "form"
	if p.Explode != nil {
		op.explode = *p.Explode
	}
	op.required = p.In == "path" || (p.Required != nil && *p.Required)
	op.multiSegment = p.In == "path" && multiSegment(p.Extensions)
	sp := p.Schema
	if sp == nil && p.Content != nil {
		if _, mt := pickMedia(p.Content); mt != nil {
			sp = mt.Schema
		}
	}
	op.schema = l.schema(sp, modeInput, 0)
	if p.Description != "" && op.schema.Description == "" {
		op.schema = withDescription(op.schema, p.Description)
	}
	if p.Deprecated {
		op.schema.Deprecated = true
	}
	return op
}

// withDescription returns s with a description, copying s when it is a
// shared named-type reference so that the named type stays untouched.
func withDescription(s *Schema, d string) *Schema {
	c := *s
	c.Description = d
	return &c
}

// bodyRank orders request media types: JSON first, then forms, then raw bytes.
func bodyRank(ct string) int {
	ct = strings.ToLower(ct)
	switch {
	case ct == "application/json":
		return 0
	case strings.HasSuffix(ct, "+json") || strings.HasSuffix(ct, "/json"):
		return 1
	case ct == "application/x-www-form-urlencoded":
		return 2
	case ct == "multipart/form-data":
		return 3
	case ct == "application/octet-stream":
		return 4
	case strings.HasPrefix(ct, "text/"):
		return 5
	}
	return 6
}

func pickMedia(content *orderedmap.Map[string, *v3.MediaType]) (string, *v3.MediaType) {
	best, bestRank := "", 99
	var bestMT *v3.MediaType
	for ct, mt := range content.FromOldest() {
		if r := bodyRank(ct); r < bestRank {
			best, bestRank, bestMT = ct, r, mt
		}
	}
	return best, bestMT
}

func (l *oaLoader) v3Body(rb *v3.RequestBody) *oaBody {
	if rb.Content == nil || rb.Content.Len() == 0 {
		return nil
	}
	ct, mt := pickMedia(rb.Content)
	b := &oaBody{contentType: ct, description: rb.Description, pos: Pos{File: l.file}}
	if lo := rb.GoLow(); lo != nil {
		b.pos = l.pos(lo.RootNode)
	}
	if rb.Required != nil {
		b.required = *rb.Required
	}
	if mt != nil {
		b.schema = mt.Schema
		if mt.Encoding != nil {
			for name, enc := range mt.Encoding.FromOldest() {
				if enc != nil && (enc.Style != "" || enc.Explode != nil) {
					if b.styles == nil {
						b.styles = map[string]fieldStyle{}
					}
					b.styles[name] = fieldStyle{enc.Style, enc.Explode}
				}
				if enc != nil && enc.ContentType != "" {
					if b.encoding == nil {
						b.encoding = map[string]string{}
					}
					b.encoding[name] = enc.ContentType
				}
			}
		}
	}
	return b
}

// successCode picks the primary success response: 200, then 201, then the
// lowest other 2xx, then 2XX.
func successCode(codes []string) string {
	var best string
	for _, c := range codes {
		switch {
		case c == "200":
			return c
		case c == "201":
			best = "201"
		case best != "201" && len(c) == 3 && c[0] == '2' && c[1] >= '0' && c[1] <= '9':
			if best == "" || best == "2XX" || best == "2xx" || c < best {
				best = c
			}
		case best == "" && (c == "2XX" || c == "2xx"):
			best = c
		}
	}
	return best
}

func (l *oaLoader) v3Output(r *v3.Responses) *base.SchemaProxy {
	if r.Codes == nil {
		return nil
	}
	var codes []string
	for c := range r.Codes.KeysFromOldest() {
		codes = append(codes, c)
	}
	c := successCode(codes)
	if c == "" {
		return nil
	}
	resp := r.Codes.GetOrZero(c)
	if resp == nil || resp.Content == nil {
		return nil
	}
	ct, mt := pickMedia(resp.Content)
	if mt == nil || bodyRank(ct) > 1 {
		return nil
	}
	return mt.Schema
}

// tools turns the selected operations into tools, in document order.
func (l *oaLoader) tools(ops []*oaOp) {
	byName := map[string]*oaOp{}
	for _, o := range ops {
		x := l.xmcp(o)
		if x.skip || !l.selected(o) {
			continue
		}
		t := &Tool{Pos: o.pos, Title: o.summary, Description: o.description}
		if t.Description == "" {
			t.Description = o.summary
		}
		if x.title != "" {
			t.Title = x.title
		}
		if x.description != "" {
			t.Description = x.description
		}
		t.Name = l.toolName(o, x.name)
		if prev, ok := byName[t.Name]; ok {
			l.errorf(o.pos, "tool name %q of %s %s (%s) is also the name of %s %s (%s) at %d:%d: set x-mcp: {name: …} on one of them",
				t.Name, o.method, o.path, opLabel(o), prev.method, prev.path, opLabel(prev), prev.pos.Line, prev.pos.Col)
			continue
		}
		byName[t.Name] = o
		t.Annotations = annotationsFor(o.method, x)
		t.Annotations.Title = t.Title
		t.Upstream = &Upstream{Method: o.method, Path: o.path, OperationID: o.id}
		t.Toolset = DefaultToolset
		if x.toolset != "" {
			t.Toolset = x.toolset
		} else if len(o.tags) > 0 && ToolsetName(o.tags[0]) != "" {
			t.Toolset = ToolsetName(o.tags[0])
		} else if ts := pathToolset(o.path); ts != "" {
			t.Toolset = ts
		}
		t.Scopes = x.scopes
		for _, req := range o.security {
			var alt []string
			if req == nil || req.Requirements == nil {
				t.Upstream.Security = append(t.Upstream.Security, []string{})
				continue
			}
			for name, scopes := range req.Requirements.FromOldest() {
				alt = append(alt, name)
				if x.scopes == nil && l.oauthSchemes[name] {
					for _, s := range scopes {
						if !containsString(t.Scopes, s) {
							t.Scopes = append(t.Scopes, s)
						}
					}
				}
			}
			t.Upstream.Security = append(t.Upstream.Security, alt)
		}
		t.Input = l.input(o, t.Upstream)
		if o.output != nil {
			t.Output = l.schema(o.output, modeOutput, 0)
		}
		l.api.Tools = append(l.api.Tools, t)
	}
}

func opLabel(o *oaOp) string {
	if o.id != "" {
		return "operationId " + o.id
	}
	return "no operationId"
}

func containsString(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

func (l *oaLoader) selected(o *oaOp) bool {
	in, ex := l.cfg.Include, l.cfg.Exclude
	if !in.empty() {
		if (len(in.Tags) > 0 && !anyTag(o.tags, in.Tags)) ||
			(len(in.Paths) > 0 && !anyGlob(o.path, in.Paths)) ||
			(len(in.Methods) > 0 && !anyFold(o.method, in.Methods)) ||
			(len(in.Operations) > 0 && !containsString(in.Operations, o.id)) {
			return false
		}
	}
	if anyTag(o.tags, ex.Tags) || anyGlob(o.path, ex.Paths) || anyFold(o.method, ex.Methods) || (o.id != "" && containsString(ex.Operations, o.id)) {
		return false
	}
	return true
}

func anyTag(tags, want []string) bool {
	for _, t := range tags {
		if containsString(want, t) {
			return true
		}
	}
	return false
}

func anyFold(s string, list []string) bool {
	for _, v := range list {
		if strings.EqualFold(s, v) {
			return true
		}
	}
	return false
}

func anyGlob(p string, globs []string) bool {
	for _, g := range globs {
		if globMatch(g, p) {
			return true
		}
	}
	return false
}

// globMatch matches a path template against a glob where * stays within a
// segment and ** crosses segments.
func globMatch(glob, p string) bool {
	var re strings.Builder
	re.WriteByte('^')
	for i := 0; i < len(glob); i++ {
		switch {
		case strings.HasPrefix(glob[i:], "**"):
			re.WriteString(".*")
			i++
		case glob[i] == '*':
			re.WriteString("[^/]*")
		default:
			re.WriteString(regexp.QuoteMeta(glob[i : i+1]))
		}
	}
	re.WriteByte('$')
	ok, _ := regexp.MatchString(re.String(), p)
	return ok
}

// xmcp is the per-operation x-mcp extension.
type xmcp struct {
	name, title, description                     string
	skip                                         bool
	readOnly, destructive, idempotent, openWorld *bool
	scopes                                       []string
	toolset                                      string
}

func (l *oaLoader) xmcp(o *oaOp) xmcp {
	var x xmcp
	if o.ext == nil {
		return x
	}
	n := o.ext.GetOrZero("x-mcp")
	if n == nil {
		return x
	}
	if n.Kind == yaml.ScalarNode && n.Tag == "!!bool" {
		// x-mcp: false skips the operation, as in other generators.
		x.skip = n.Value == "false"
		return x
	}
	if n.Kind != yaml.MappingNode {
		l.errorf(l.pos(n), "x-mcp must be a mapping or a boolean")
		return x
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		boolv := func() *bool {
			b, err := strconv.ParseBool(v.Value)
			if err != nil || v.Kind != yaml.ScalarNode {
				l.errorf(l.pos(v), "x-mcp: %s must be true or false", k.Value)
				return nil
			}
			return &b
		}
		switch k.Value {
		case "name":
			x.name = v.Value
		case "title":
			x.title = v.Value
		case "description":
			x.description = v.Value
		case "skip":
			if b := boolv(); b != nil {
				x.skip = *b
			}
		case "readOnlyHint":
			x.readOnly = boolv()
		case "destructiveHint":
			x.destructive = boolv()
		case "idempotentHint":
			x.idempotent = boolv()
		case "openWorldHint":
			x.openWorld = boolv()
		case "toolset":
			x.toolset = v.Value
			if ToolsetName(v.Value) != v.Value {
				l.errorf(l.pos(v), "x-mcp: toolset %q must be lowercase letters, digits and _ (for example %q)", v.Value, ToolsetName(v.Value))
			}
		case "scopes":
			x.scopes = []string{}
			for _, s := range v.Content {
				x.scopes = append(x.scopes, s.Value)
			}
		default:
			l.errorf(l.pos(k), "x-mcp: unknown key %q (name, title, description, skip, readOnlyHint, destructiveHint, idempotentHint, openWorldHint, scopes, toolset)", k.Value)
		}
	}
	return x
}

func boolp(b bool) *bool { return &b }

// annotationsFor derives hints from HTTP semantics (RFC 9110 §9.2): GET and
// HEAD are safe, PUT and DELETE idempotent, DELETE destructive; a REST API is
// an open world. x-mcp hints win.
func annotationsFor(method string, x xmcp) Annotations {
	a := Annotations{OpenWorld: boolp(true)}
	switch method {
	case "GET", "HEAD", "OPTIONS", "TRACE", "QUERY":
		a.ReadOnly, a.Idempotent, a.Destructive = boolp(true), boolp(true), boolp(false)
	case "PUT":
		a.ReadOnly, a.Idempotent, a.Destructive = boolp(false), boolp(true), boolp(false)
	case "DELETE":
		a.ReadOnly, a.Idempotent, a.Destructive = boolp(false), boolp(true), boolp(true)
	default: // POST, PATCH
		a.ReadOnly, a.Idempotent, a.Destructive = boolp(false), boolp(false), boolp(false)
	}
	if x.readOnly != nil {
		a.ReadOnly = x.readOnly
	}
	if x.destructive != nil {
		a.Destructive = x.destructive
	}
	if x.idempotent != nil {
		a.Idempotent = x.idempotent
	}
	if x.openWorld != nil {
		a.OpenWorld = x.openWorld
	}
	return a
}

// Tool names.
//
// The base is x-mcp.name, else the operationId, else "<method>_<path>" with
// template braces removed ("get_pets_petId"). Characters outside
// [A-Za-z0-9_.-] become "_" (GitHub's "repos/get" → "repos_get": "_" rather
// than "." because several clients split names on "."); runs of "_" made by
// that collapse to one. A name over the budget is first abbreviated word by
// word (repository → repo, …, see nameAbbrev), then, if still too long, cut
// and ended with "_" and 8 hex digits of the SHA-256 of the full sanitised
// name, so it is the same on every run and differs between long names that
// share a prefix. Two operations that still end up with one name are an
// error naming both; nothing is renamed silently.
func (l *oaLoader) toolName(o *oaOp, override string) string {
	base := override
	if base == "" {
		base = o.id
	}
	if base == "" {
		var b strings.Builder
		b.WriteString(strings.ToLower(o.method))
		for _, seg := range strings.Split(o.path, "/") {
			seg = strings.Trim(seg, "{}")
			if seg != "" {
				b.WriteByte('_')
				b.WriteString(seg)
			}
		}
		base = b.String()
	}
	return shortenName(toolNameChars(base), l.cfg.MaxToolNameLength)
}

var nameAbbrev = [][2]string{
	{"administrator", "admin"}, {"application", "app"}, {"applications", "apps"},
	{"attachment", "attach"}, {"attachments", "attachs"}, {"authentication", "authn"}, {"authorization", "authz"},
	{"configuration", "config"}, {"configurations", "configs"}, {"definition", "def"}, {"definitions", "defs"},
	{"deployment", "deploy"}, {"deployments", "deploys"}, {"description", "desc"}, {"environment", "env"},
	{"environments", "envs"}, {"identifier", "id"}, {"information", "info"}, {"management", "mgmt"},
	{"notification", "notif"}, {"notifications", "notifs"}, {"organization", "org"}, {"organizations", "orgs"},
	{"permission", "perm"}, {"permissions", "perms"}, {"reference", "ref"}, {"references", "refs"},
	{"repositories", "repos"}, {"repository", "repo"}, {"subscription", "sub"}, {"subscriptions", "subs"},
}

// shortenName fits name into budget (see toolName).
func shortenName(name string, budget int) string {
	if len(name) <= budget {
		return name
	}
	full := name
	// Abbreviate whole words between separators, case-insensitively,
	// keeping the case of the first letter.
	parts := wordSplitRE.FindAllStringIndex(name, -1)
	var b strings.Builder
	last := 0
	for _, p := range parts {
		b.WriteString(name[last:p[0]])
		w := name[p[0]:p[1]]
		lw := strings.ToLower(w)
		for _, ab := range nameAbbrev {
			if lw == ab[0] {
				short := ab[1]
				if w[0] >= 'A' && w[0] <= 'Z' {
					short = strings.ToUpper(short[:1]) + short[1:]
				}
				w = short
				break
			}
		}
		b.WriteString(w)
		last = p[1]
	}
	b.WriteString(name[last:])
	name = b.String()
	if len(name) <= budget {
		return name
	}
	sum := sha256.Sum256([]byte(full))
	suffix := "_" + hex.EncodeToString(sum[:4])
	cut := budget - len(suffix)
	if cut < 1 {
		return hex.EncodeToString(sum[:])[:budget]
	}
	return strings.TrimRight(name[:cut], "_.-") + suffix
}

// wordSplitRE finds words: lower-case runs optionally led by one capital
// (camelCase parts), or upper-case runs.
var wordSplitRE = regexp.MustCompile(`[A-Z]?[a-z]+|[A-Z]+`)

// toolNameChars maps characters outside [A-Za-z0-9_.-] to "_" and collapses
// the runs this makes.
func toolNameChars(s string) string {
	var b strings.Builder
	prevSub := false
	for _, r := range s {
		ok := r < 128 && (r == '_' || r == '.' || r == '-' || (r >= '0' && r <= '9') || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z'))
		if ok {
			b.WriteRune(r)
			prevSub = false
			continue
		}
		if !prevSub {
			b.WriteByte('_')
		}
		prevSub = true
	}
	return strings.Trim(b.String(), "_")
}

// Input arguments.
//
// The request body and the parameters are merged into one object:
//   - an object body (after $ref and allOf) gives its properties as they are
//     (In "body"); readOnly ones are dropped; they are required when the body
//     is required and the schema requires them;
//   - any other body (array, scalar, union, binary, free-form object) is one
//     property "body" (In "bodyAll");
//   - then parameters, in the order path, query, header, cookie (document
//     order within each), named by their name with characters outside
//     [A-Za-z0-9_.-] mapped ("<" → "_lt", ">" → "_gt", others → "_", "[]"
//     dropped) so that every client accepts them;
//   - a name already taken (by a body property or an earlier parameter) gets
//     the location suffix ("name_path", "name_query", …), and if that is taken
//     too, "_2", "_3"…: the body keeps its field names, a parameter moves.
//
// Upstream.Params records, for every property, its HTTP name and location.
func (l *oaLoader) input(o *oaOp, up *Upstream) *Schema {
	in := &Schema{Type: KindObject, Pos: o.pos}
	taken := map[string]bool{}
	add := func(prop, name, where, style string, explode bool, s *Schema, required bool, p Pos) {
		in.Properties = append(in.Properties, &Property{Name: prop, Schema: s, Required: required, Pos: p})
		taken[prop] = true
		up.Params = append(up.Params, UpstreamParam{Property: prop, Name: name, In: where, Style: style, Explode: explode})
	}
	if b := o.body; b != nil {
		up.BodyContentType = b.contentType
		up.BodyRequired = b.required || b.form != nil
		l.bodyArgs(o, b, add)
		if b.schema != nil {
			if flat := l.flatObject(b.schema); flat != nil {
				for i := range up.Params {
					if up.Params[i].In == "body" && slices.Contains(flat.Required, up.Params[i].Property) {
						up.Params[i].RequiredInBody = true
					}
				}
			}
		}
	}
	locs := []string{"path", "query", "header", "cookie"}
	for _, loc := range locs {
		for _, p := range o.params {
			if p.in != loc {
				continue
			}
			if scheme, ok := l.credParam(p); ok {
				l.notef(p.pos, "%s %s: %s parameter %q carries the credential of security scheme %q: not a tool argument", o.method, o.path, p.in, p.name, scheme)
				continue
			}
			if p.in == "header" && (strings.EqualFold(p.name, "Authorization") || strings.EqualFold(p.name, "Cookie")) {
				l.notef(p.pos, "%s %s: header %q is a credential: not a tool argument", o.method, o.path, p.name)
				continue
			}
			prop := propertyName(p.name)
			if taken[prop] {
				prop = propertyName(p.name + "_" + p.in)
				for i := 2; taken[prop]; i++ {
					prop = propertyName(p.name+"_"+p.in) + "_" + strconv.Itoa(i)
				}
			}
			add(prop, p.name, p.in, p.style, p.explode, p.schema, p.required, p.pos)
			up.Params[len(up.Params)-1].MultiSegment = p.multiSegment
		}
	}
	return in
}

func (l *oaLoader) credParam(p oaParam) (string, bool) {
	key := p.in + "\x00" + p.name
	if p.in == "header" {
		key = "header\x00" + strings.ToLower(p.name)
	}
	s, ok := l.credParams[key]
	return s, ok
}

// propertyName makes a parameter name acceptable to clients that restrict
// property names to ^[A-Za-z0-9_.-]{1,64}$.
func propertyName(n string) string {
	n = strings.TrimSuffix(n, "[]")
	if strings.ContainsAny(n, "<>") {
		n = strings.NewReplacer("<", "_lt", ">", "_gt").Replace(n)
	}
	var b strings.Builder
	for _, r := range n {
		if r < 128 && (r == '_' || r == '.' || r == '-' || (r >= '0' && r <= '9') || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z')) {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	out := b.String()
	if out == "" {
		out = "_"
	}
	if len(out) > 64 {
		out = out[:64]
	}
	return out
}

type addFunc func(prop, name, where, style string, explode bool, s *Schema, required bool, p Pos)

func (l *oaLoader) bodyArgs(o *oaOp, b *oaBody, add addFunc) {
	ct := strings.ToLower(b.contentType)
	isForm := ct == "multipart/form-data" || ct == "application/x-www-form-urlencoded"
	if b.form != nil {
		// Swagger 2.0 formData parameters, already converted.
		for _, p := range b.form.Properties {
			add(p.Name, p.Name, "body", "form", true, p.Schema, p.Required, p.Pos)
		}
		return
	}
	raw := bodyRank(ct) > 3 && !strings.HasPrefix(ct, "text/")
	if b.schema == nil || raw {
		s := &Schema{Type: KindString, Pos: b.pos}
		if !strings.HasPrefix(ct, "text/") {
			s.ContentEncoding = "base64"
			s.ContentMediaType = b.contentType
		}
		if b.description != "" {
			s.Description = b.description
		}
		add("body", "", "bodyAll", "", false, s, b.required, b.pos)
		return
	}
	if strings.HasPrefix(ct, "text/") {
		s := l.schema(b.schema, modeInput, 0)
		add("body", "", "bodyAll", "", false, s, b.required, b.pos)
		return
	}
	flat := l.flatObject(b.schema)
	if flat == nil {
		s := l.schema(b.schema, modeInput, 0)
		if b.description != "" && s.Description == "" {
			s = withDescription(s, b.description)
		}
		add("body", "", "bodyAll", "", false, s, b.required, b.pos)
		return
	}
	fieldStyle := func(name string) (style string, explode bool) {
		if !isForm {
			return "", false
		}
		// Form fields default to style form, explode true (OpenAPI 3.1
		// §4.8.15); the encoding object may say otherwise (Stripe's nested
		// objects are deepObject).
		style, explode = "form", true
		if fs, ok := b.styles[name]; ok {
			if fs.style != "" {
				style = fs.style
			}
			if fs.explode != nil {
				explode = *fs.explode
			}
		}
		return style, explode
	}
	req := map[string]bool{}
	for _, r := range flat.Required {
		req[r] = true
	}
	for name, sp := range flat.Properties.FromOldest() {
		ps := sp.Schema()
		if ps != nil && ps.ReadOnly != nil && *ps.ReadOnly {
			continue
		}
		s := l.schema(sp, modeInput, 0)
		style, explode := fieldStyle(name)
		if ct == "multipart/form-data" {
			s = l.binaryField(s, b.encoding[name])
		}
		add(name, name, "body", style, explode, s, b.required && req[name], l.proxyPos(sp))
	}
	// Required members the body's properties do not declare
	// (openapi_required.go), sent like the others.
	ap, allow, isBool := l.additionalOf(flat, modeInput, 0)
	for _, p := range l.undeclaredRequired(flat, ap, isBool && !allow, b.pos, modeInput, 0) {
		style, explode := fieldStyle(p.Name)
		add(p.Name, p.Name, "body", style, explode, p.Schema, b.required, p.Pos)
	}
}

// binaryField turns a multipart "format: binary" string (or an array of
// them) into a base64 string with its media type.
func (l *oaLoader) binaryField(s *Schema, mediaType string) *Schema {
	if s.Type == KindArray && s.Items != nil {
		c := *s
		c.Items = l.binaryField(s.Items, mediaType)
		return &c
	}
	if s.Type == KindString && (s.Format == "binary" || s.Format == "byte" || s.ContentMediaType != "") {
		c := *s
		c.Format = ""
		c.ContentEncoding = "base64"
		if mediaType == "" {
			mediaType = "application/octet-stream"
		}
		if c.ContentMediaType == "" {
			c.ContentMediaType = mediaType
		}
		return &c
	}
	return s
}

// flatObject returns the merged object schema of a body whose properties can
// be spread into the arguments, or nil.
func (l *oaLoader) flatObject(sp *base.SchemaProxy) *base.Schema {
	s := sp.Schema()
	if s == nil {
		return nil
	}
	if len(s.AllOf) > 0 {
		s = l.mergeAllOf(s, 0)
	}
	if len(s.OneOf) > 0 || len(s.AnyOf) > 0 || s.Properties == nil || s.Properties.Len() == 0 {
		return nil
	}
	if len(s.Type) > 0 && !containsString(s.Type, "object") {
		return nil
	}
	return s
}

// multiSegment reports whether a path parameter's extensions allow a value
// of several segments: GitHub's x-multi-segment, or x-mcp-multi-segment.
func multiSegment(ext *orderedmap.Map[string, *yaml.Node]) bool {
	if ext == nil {
		return false
	}
	for _, key := range []string{"x-mcp-multi-segment", "x-multi-segment"} {
		if n := ext.GetOrZero(key); n != nil && n.Kind == yaml.ScalarNode && n.Value == "true" {
			return true
		}
	}
	return false
}
