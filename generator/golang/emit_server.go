package golang

import (
	"encoding/json"
	"fmt"

	. "github.com/dave/jennifer/jen"

	"github.com/mcpgen-dev/mcpgen/generator/schema"
	"github.com/mcpgen-dev/mcpgen/generator/searchterms"
	"github.com/mcpgen-dev/mcpgen/runtime/search"
	"github.com/mcpgen-dev/mcpgen/spec"
)

// HandlerFile emits mcpgen_handler_gen.go: the Handler interface and
// UnimplementedHandler.
func (m *Model) HandlerFile(f *File) {
	type method struct {
		name   string
		doc    string
		params []Code
		result []Code
		what   string
		zero   bool // the first result is a value, not a pointer or slice
	}
	ctx := func() *Statement { return Id("ctx").Qual("context", "Context") }
	var ms []method
	for _, t := range m.tools {
		res := []Code{Op("*").Add(rt("ToolResult")), Error()}
		if t.output != nil {
			res = []Code{goType(t.output), Error()}
		}
		ms = append(ms, method{t.method, withDesc(fmt.Sprintf("%s implements the %q tool.", t.method, t.t.Name), t.t.Description),
			[]Code{ctx(), Id("in").Add(goType(t.input))}, res, fmt.Sprintf("tool %q", t.t.Name), t.output != nil})
	}
	contents := []Code{Index().Add(rt("ResourceContents")), Error()}
	for _, r := range m.resources {
		ms = append(ms, method{r.method, withDesc(fmt.Sprintf("%s reads the %q resource (%s).", r.method, r.r.Name, r.r.URI), r.r.Description),
			[]Code{ctx()}, contents, fmt.Sprintf("resource %q", r.r.Name), false})
	}
	for _, t := range m.templates {
		ms = append(ms, method{t.method, withDesc(fmt.Sprintf("%s reads a resource of the %q template (%s).", t.method, t.t.Name, t.t.URITemplate), t.t.Description),
			[]Code{ctx(), Id("in").Id(t.params.name)}, contents, fmt.Sprintf("resource template %q", t.t.Name), false})
	}
	for _, p := range m.prompts {
		ms = append(ms, method{p.method, withDesc(fmt.Sprintf("%s renders the %q prompt.", p.method, p.p.Name), p.p.Description),
			[]Code{ctx(), Id("in").Id(p.args)}, []Code{Op("*").Add(rt("PromptResult")), Error()}, fmt.Sprintf("prompt %q", p.p.Name), false})
	}
	completion := []Code{rt("Completion"), Error()}
	for _, p := range m.prompts {
		for _, pf := range p.fields {
			if pf.complete != "" {
				ms = append(ms, method{pf.complete, fmt.Sprintf("%s completes the %q argument of the %q prompt.", pf.complete, pf.a.Name, p.p.Name),
					[]Code{ctx(), Id("req").Add(rt("CompleteRequest"))}, completion, fmt.Sprintf("completion of %q", pf.a.Name), true})
			}
		}
	}
	for _, t := range m.templates {
		for _, v := range t.vars {
			if v.complete != "" {
				ms = append(ms, method{v.complete, fmt.Sprintf("%s completes the %q variable of the %q resource template.", v.complete, v.v.Name, t.t.Name),
					[]Code{ctx(), Id("req").Add(rt("CompleteRequest"))}, completion, fmt.Sprintf("completion of %q", v.v.Name), true})
			}
		}
	}
	var decls []Code
	for i, mt := range ms {
		c := Comment(lc(mt.doc)).Line().Id(mt.name).Params(mt.params...).Params(mt.result...)
		if i > 0 {
			c = Line().Add(c)
		}
		decls = append(decls, c)
	}
	f.Comment(lc("Handler is implemented by the service: one method per tool, resource,\nresource template, prompt and completion of the spec."))
	f.Type().Id("Handler").Interface(decls...)
	f.Comment(lc("UnimplementedHandler implements every Handler method with an error.\nEmbed it to implement Handler step by step."))
	f.Type().Id("UnimplementedHandler").Struct()
	f.Var().Id("_").Id("Handler").Op("=").Id("UnimplementedHandler").Values()
	for _, mt := range ms {
		msg := Qual("errors", "New").Call(Lit(mt.what + " is not implemented"))
		results := mt.result
		ret := Return(Nil(), msg)
		if mt.zero {
			// Named results give the zero value of any output type.
			results = []Code{Id("out").Add(mt.result[0]), Err().Error()}
			ret = Return(Id("out"), msg)
		}
		f.Comment(lcf("%s returns an error saying %s is not implemented.", mt.name, mt.what))
		f.Func().Params(Id("UnimplementedHandler")).Id(mt.name).Params(mt.params...).Params(results...).Block(ret)
	}
}

func withDesc(first, desc string) string {
	if desc == "" {
		return first
	}
	return first + "\n\n" + desc
}

// ServerFile emits mcpgen_server_gen.go: the embedded schema files, the
// definitions of resources, templates and prompts, and NewServer. docs are
// the tools' schema documents: a tool lists the output schema file there is.
func (m *Model) ServerFile(f *File, docs map[*spec.Tool]ToolDocs) error {
	api := m.api
	f.Comment(lc("This file needs a runtime at least as new as the one it was generated for."))
	f.Const().Id("_").Op("=").Add(rt("IsAtLeastVersion0_1_0"))
	if len(m.tools) > 0 {
		f.Comment(lc("schemaFiles holds the tools' JSON Schemas as published in schemas/:\nNewServer lists them in the tool definitions.") + "\n//\n//go:embed schemas/*.json")
		f.Var().Id("schemaFiles").Qual("embed", "FS")
	}
	var defs, body []Code
	var enc schema.Encoder
	srv := api.Server
	info := &ordered{}
	info.add("Name", Lit(srv.Name))
	if srv.Title != "" {
		info.add("Title", Lit(srv.Title))
	}
	info.add("Version", Lit(srv.Version))
	if srv.Description != "" {
		info.add("Description", Lit(srv.Description))
	}
	if srv.WebsiteURL != "" {
		info.add("WebsiteURL", Lit(srv.WebsiteURL))
	}
	if len(srv.Icons) > 0 {
		info.add("Icons", iconsLit(srv.Icons))
	}
	body = append(body, If(Id("opts").Dot("Info").Dot("Name").Op("==").Lit("")).Block(
		Id("opts").Dot("Info").Op("=").Add(rt("Implementation")).Add(info.values())))
	if srv.Instructions != "" {
		body = append(body, If(Id("opts").Dot("Instructions").Op("==").Lit("")).Block(
			Id("opts").Dot("Instructions").Op("=").Lit(srv.Instructions)))
	}
	cache := func(field string, c *spec.CacheHint) {
		if c == nil {
			return
		}
		body = append(body, If(Id("opts").Dot(field).Op("==").Parens(rt("CacheHint").Values())).Block(
			Id("opts").Dot(field).Op("=").Add(cacheLit(c))))
	}
	cache("ListCache", srv.ListCache)
	cache("ReadCache", srv.ReadCache)
	body = append(body, surfaceDefaults(api.Surface)...)
	body = append(body, Id("s").Op(":=").Add(rt("NewServer")).Call(Id("opts")))

	glossary := searchterms.NewGlossary(api)
	for _, t := range m.tools {
		d := &ordered{}
		name := docs[t.t].ListedName(t.t)
		d.add("Name", Lit(name))
		d.add("Definition", m.toolDefinition(t, name, docs[t.t].Out != nil))
		if len(t.t.Scopes) > 0 {
			var ss []Code
			for _, s := range t.t.Scopes {
				ss = append(ss, Lit(s))
			}
			d.add("Scopes", Index().String().Values(ss...))
		}
		if t.t.Toolset != "" {
			d.add("Toolset", Lit(t.t.Toolset))
		}
		if c := taskSupport(t.t.Task); c != nil {
			d.add("Task", c)
		}
		if hs := paramHeaders(t.input, nil); len(hs) > 0 {
			d.add("ParamHeaders", Index().Add(rt("ParamHeader")).Add((&ordered{items: hs}).values()))
		}
		if kw := searchterms.Keywords(t.t); kw != "" {
			d.add("SearchKeywords", Lit(kw))
		}
		if g := glossary.Phrases(t.t); g != "" {
			d.add("SearchGlossary", Lit(g))
		}
		if up := t.t.Upstream; up != nil {
			d.add("SearchRoute", Lit(up.Method+" "+up.Path))
		}
		if out := docs[t.t].Out; out != nil {
			data, err := json.Marshal(out)
			if err != nil {
				return err
			}
			if r := search.ResultDescription(data); r != "" {
				d.add("SearchReturns", Lit(r))
			}
		}
		d.add("Call", m.toolCall(t))
		body = append(body, Id("s").Dot("AddTool").Call(rt("ToolDef").Add(d.values())))
	}
	for _, r := range m.resources {
		def, err := resourceDefinition(&enc, r.r)
		if err != nil {
			return err
		}
		name := "resource" + r.method[len("Read"):]
		defs = append(defs, Id(name).Op("=").Lit(def))
		d := &ordered{}
		d.add("URI", Lit(r.r.URI))
		d.add("Definition", Id(name))
		if r.r.MimeType != "" {
			d.add("MimeType", Lit(r.r.MimeType))
		}
		if r.r.Cache != nil {
			d.add("Cache", Op("&").Add(cacheLit(r.r.Cache)))
		}
		d.add("Read", Func().Params(Id("ctx").Qual("context", "Context"), Id("_").String()).Params(Index().Add(rt("ResourceContents")), Error()).Block(
			Return(Id("h").Dot(r.method).Call(Id("ctx")))))
		body = append(body, Id("s").Dot("AddResource").Call(rt("ResourceDef").Add(d.values())))
	}
	for _, t := range m.templates {
		def, err := templateDefinition(&enc, t.t)
		if err != nil {
			return err
		}
		name := "template" + t.method[len("Read"):]
		defs = append(defs, Id(name).Op("=").Lit(def))
		d := &ordered{}
		d.add("URITemplate", Lit(t.t.URITemplate))
		d.add("Definition", Id(name))
		if t.t.MimeType != "" {
			d.add("MimeType", Lit(t.t.MimeType))
		}
		if t.t.Cache != nil {
			d.add("Cache", Op("&").Add(cacheLit(t.t.Cache)))
		}
		d.add("Read", m.templateRead(t))
		comp := &ordered{}
		for _, v := range t.vars {
			if c := completeFunc(v.v.Complete, v.complete); c != nil {
				comp.addCode(Lit(v.v.Name), c)
			}
		}
		if len(comp.items) > 0 {
			d.add("Complete", Map(String()).Add(rt("CompleteFunc")).Add(comp.values()))
		}
		body = append(body, Id("s").Dot("AddResourceTemplate").Call(rt("TemplateDef").Add(d.values())))
	}
	for _, p := range m.prompts {
		def, err := promptDefinition(&enc, p.p)
		if err != nil {
			return err
		}
		name := "prompt" + p.method[len("Get"):]
		defs = append(defs, Id(name).Op("=").Lit(def))
		d := &ordered{}
		d.add("Name", Lit(p.p.Name))
		d.add("Definition", Id(name))
		d.add("Get", m.promptGet(p))
		comp := &ordered{}
		for _, pf := range p.fields {
			if c := completeFunc(pf.a.Complete, pf.complete); c != nil {
				comp.addCode(Lit(pf.a.Name), c)
			}
		}
		if len(comp.items) > 0 {
			d.add("Complete", Map(String()).Add(rt("CompleteFunc")).Add(comp.values()))
		}
		body = append(body, Id("s").Dot("AddPrompt").Call(rt("PromptDef").Add(d.values())))
	}
	body = append(body, Return(Id("s")))
	if len(defs) > 0 {
		f.Comment(lc("The definitions of the resources, templates and prompts as listed to\nclients, in compact JSON."))
		f.Const().Defs(defs...)
	}
	f.Comment(lc("NewServer returns a server for the spec's tools, resources and prompts,\nserved by h. Fields of opts left unset are filled from the spec."))
	f.Func().Id("NewServer").Params(Id("h").Id("Handler"), Id("opts").Add(rt("Options"))).Op("*").Add(rt("Server")).Block(body...)
	if m.completeFrom {
		f.Comment(lc("completeFrom completes from a fixed list: the values that start with\nwhat was typed, ignoring case."))
		f.Func().Id("completeFrom").Params(Id("values").Index().String()).Add(rt("CompleteFunc")).Block(
			Return(Func().Params(Id("_").Qual("context", "Context"), Id("req").Add(rt("CompleteRequest"))).Params(rt("Completion"), Error()).Block(
				Var().Id("out").Index().String(),
				For(List(Id("_"), Id("v")).Op(":=").Range().Id("values")).Block(
					If(Len(Id("v")).Op(">=").Len(Id("req").Dot("Value")).Op("&&").Qual("strings", "EqualFold").Call(Id("v").Index(Empty(), Len(Id("req").Dot("Value"))), Id("req").Dot("Value"))).Block(
						Id("out").Op("=").Append(Id("out"), Id("v")),
					),
				),
				Return(rt("Completion").Values(Id("Values").Op(":").Id("out"), Id("Total").Op(":").Len(Id("out"))), Nil()),
			)),
		)
	}
	return nil
}

// surfaceDefaults fills the options of the spec's surface: section: the
// default toolsets, unless the caller chose some, and definitions without
// output schemas.
func surfaceDefaults(sf spec.Surface) []Code {
	var out []Code
	if len(sf.DefaultToolsets) > 0 {
		var names []Code
		for _, n := range sf.DefaultToolsets {
			names = append(names, Lit(n))
		}
		out = append(out, If(Id("opts").Dot("DefaultToolsets").Op("==").Nil()).Block(
			Id("opts").Dot("DefaultToolsets").Op("=").Index().String().Values(names...)))
	}
	if sf.OmitOutputSchemas {
		out = append(out, Id("opts").Dot("OmitOutputSchemas").Op("=").True())
	}
	if sf.FieldSelection {
		out = append(out, Id("opts").Dot("FieldSelection").Op("=").True())
	}
	return out
}

func cacheLit(c *spec.CacheHint) *Statement {
	return rt("CacheHint").Values(Id("TTLMs").Op(":").Lit(int(c.TTLMs)), Id("Scope").Op(":").Lit(c.Scope))
}

func completeFunc(c *spec.Completion, method string) Code {
	switch {
	case method != "":
		return Id("h").Dot(method)
	case c != nil && len(c.Values) > 0:
		var vs []Code
		for _, v := range c.Values {
			vs = append(vs, Lit(v))
		}
		return Id("completeFrom").Call(Index().String().Values(vs...))
	}
	return nil
}

// paramHeaders lists the x-mcp-header properties reachable through
// properties only, as the protocol requires.
func paramHeaders(n *node, path []string) []Code {
	var out []Code
	if n.kind != kStruct {
		return nil
	}
	for _, f := range n.fields {
		p := append(append([]string(nil), path...), f.jsonName)
		if f.header != "" {
			var ps []Code
			for _, s := range p {
				ps = append(ps, Lit(s))
			}
			out = append(out, Values(Id("Name").Op(":").Lit(f.header), Id("Path").Op(":").Index().String().Values(ps...), Id("Type").Op(":").Lit(shapeName(f.node.real().schema))))
		}
		if !f.viaRef && f.node.kind == kStruct {
			out = append(out, paramHeaders(f.node, p)...)
		}
	}
	return out
}

// toolCall is the Call of a tool: runtime.StructuredCall or
// runtime.ContentCall over the handler's method where the input and output
// types have the methods those need, a function of its own otherwise
// (code-first types, outputs of any JSON value).
func (m *Model) toolCall(t *tool) Code {
	typed := t.input.ext == ""
	var validate Code = Nil()
	if t.output != nil {
		r := t.output.real()
		typed = typed && r.ext == "" && r.declared && r.kind != kRaw && r.kind != kOneOf
		if r.unit() && r.validates {
			validate = Id("validate" + r.name)
		}
	}
	switch {
	case typed && t.output == nil:
		return rt("ContentCall").Call(Id("h").Dot(t.method))
	case typed:
		return rt("StructuredCall").Call(Lit(t.t.Name), Id("h").Dot(t.method), validate)
	}
	body := []Code{
		Var().Id("in").Add(goType(t.input)),
		If(Err().Op(":=").Add(decodeInput(t.input)), Err().Op("!=").Nil()).Block(Return(Nil(), Err())),
	}
	if t.output == nil {
		body = append(body, Return(Id("h").Dot(t.method).Call(Id("ctx"), Id("in"))))
	} else {
		body = append(body,
			List(Id("out"), Err()).Op(":=").Id("h").Dot(t.method).Call(Id("ctx"), Id("in")),
			If(Err().Op("!=").Nil()).Block(Return(Nil(), Err())),
		)
		if r := t.output.real(); r.unit() && r.validates {
			body = append(body,
				Var().Id("root").Add(wire("Path")),
				Var().Id("e").Add(wire("Errors")),
				Id("validate"+r.name).Call(Op("&").Id("root"), Op("&").Id("out"), Op("&").Id("e")),
				Comment(lc("A handler returning what the schema forbids is a bug in the\nserver, not in the call: the runtime logs it and answers -32603.")),
				If(Err().Op(":=").Id("e").Dot("Err").Call(), Err().Op("!=").Nil()).Block(
					Return(Nil(), Op("&").Add(rt("InvalidOutputError")).Values(Dict{Id("Tool"): Lit(t.t.Name), Id("Err"): Err()})),
				),
			)
		}
		enc := appendValue(t.output, Id("out"), false)
		body = append(body, Var().Id("b").Index().Byte(), Id("b").Op("=").Add(enc), Return(rt("StructuredResult").Call(Id("b")), Nil()))
	}
	return Func().Params(Id("ctx").Qual("context", "Context"), Id("args").Index().Byte()).Params(Op("*").Add(rt("ToolResult")), Error()).Block(body...)
}

// toolDefinition is the Definition of a tool: runtime.ToolDefinition over
// its fields and its embedded schema files. An output that may be any
// value has an empty schema document, which is neither written nor listed.
func (m *Model) toolDefinition(t *tool, name string, hasOutput bool) Code {
	info := &ordered{}
	info.add("Name", Lit(name))
	if t.t.Title != "" {
		info.add("Title", Lit(t.t.Title))
	}
	if t.t.Description != "" {
		info.add("Description", Lit(t.t.Description))
	}
	if len(t.t.Icons) > 0 {
		info.add("Icons", iconsLit(t.t.Icons))
	}
	a := t.t.Annotations
	// Every hint is listed, with MCP's defaults where the spec is silent,
	// so that clients need not know the defaults; the literal leaves out
	// the false ones.
	var ann []Code
	if a.Title != "" {
		ann = append(ann, Id("Title").Op(":").Lit(a.Title))
	}
	hint := func(field string, v *bool, def bool) {
		if v != nil {
			def = *v
		}
		if def {
			ann = append(ann, Id(field).Op(":").True())
		}
	}
	hint("ReadOnlyHint", a.ReadOnly, false)
	hint("DestructiveHint", a.Destructive, true)
	hint("IdempotentHint", a.Idempotent, false)
	hint("OpenWorldHint", a.OpenWorld, true)
	if len(ann) > 0 {
		info.add("Annotations", rt("ToolAnnotations").Values(ann...))
	}
	if t.t.Input != nil && t.t.Input.Dialect != "" || t.t.Output != nil && t.t.Output.Dialect != "" {
		info.add("Dialect", True())
	}
	output := Lit("")
	if hasOutput {
		output = Lit("schemas/" + t.t.Name + ".output.schema.json")
	}
	return rt("ToolDefinition").Call(rt("ToolInfo").Add(info.values()), Id("schemaFiles"), Lit("schemas/"+t.t.Name+".input.schema.json"), output)
}

// iconsLit is the []runtime.Icon literal of ics.
func iconsLit(ics []spec.Icon) Code {
	var icons []Code
	for _, ic := range ics {
		d := &ordered{}
		d.add("Src", Lit(ic.Src))
		if ic.MimeType != "" {
			d.add("MimeType", Lit(ic.MimeType))
		}
		if len(ic.Sizes) > 0 {
			var ss []Code
			for _, s := range ic.Sizes {
				ss = append(ss, Lit(s))
			}
			d.add("Sizes", Index().String().Values(ss...))
		}
		if ic.Theme != "" {
			d.add("Theme", Lit(ic.Theme))
		}
		icons = append(icons, d.values())
	}
	return Index().Add(rt("Icon")).Values(icons...)
}

func (m *Model) templateRead(t *template) Code {
	body := []Code{Var().Id("in").Id(t.params.name)}
	for _, v := range t.vars {
		f := v.field
		r := f.node.real()
		src := Id("vars").Index(Lit(v.v.Name))
		target := Id("in").Dot(f.goName)
		conv := func(c Code) Code {
			if f.node.hasTypeName() {
				return Id(f.node.name).Call(c)
			}
			return c
		}
		notFound := Return(Nil(), rt("ResourceNotFound").Call(Id("uri")))
		switch r.kind {
		case kInt:
			body = append(body, If(List(Id("n"), Err()).Op(":=").Qual("strconv", "ParseInt").Call(src, Lit(10), Lit(64)), Err().Op("!=").Nil()).Block(notFound).
				Else().Block(Add(target).Op("=").Add(conv(Id("n")))))
		case kFloat:
			body = append(body, If(List(Id("n"), Err()).Op(":=").Qual("strconv", "ParseFloat").Call(src, Lit(64)), Err().Op("!=").Nil()).Block(notFound).
				Else().Block(Add(target).Op("=").Add(conv(Id("n")))))
		case kBool:
			body = append(body, Switch(src).Block(
				Case(Lit("true")).Block(Add(target).Op("=").True()),
				Case(Lit("false")).Block(Add(target).Op("=").False()),
				Default().Block(notFound)))
		default:
			body = append(body, Add(target).Op("=").Add(conv(src)))
		}
	}
	if t.params.validates {
		body = append(body,
			Var().Id("root").Add(wire("Path")),
			Var().Id("e").Add(wire("Errors")),
			Id("validate"+t.params.name).Call(Op("&").Id("root"), Op("&").Id("in"), Op("&").Id("e")),
			Comment(lc("A value the template's variables do not allow names no resource.")),
			If(Id("e").Dot("Len").Call().Op(">").Lit(0)).Block(Return(Nil(), rt("ResourceNotFound").Call(Id("uri")))),
		)
	}
	body = append(body, Return(Id("h").Dot(t.method).Call(Id("ctx"), Id("in"))))
	return Func().Params(Id("ctx").Qual("context", "Context"), Id("uri").String(), Id("vars").Map(String()).String()).
		Params(Index().Add(rt("ResourceContents")), Error()).Block(body...)
}

func (m *Model) promptGet(p *prompt) Code {
	body := []Code{Var().Id("in").Id(p.args)}
	for _, pf := range p.fields {
		if pf.a.Required {
			body = append(body, If(List(Id("v"), Id("ok")).Op(":=").Id("args").Index(Lit(pf.a.Name)), Id("ok")).Block(
				Id("in").Dot(pf.goName).Op("=").Id("v"),
			).Else().Block(Return(Nil(), rt("InvalidParams").Call(Lit("missing required argument %q"), Lit(pf.a.Name)))))
		} else {
			body = append(body, If(List(Id("v"), Id("ok")).Op(":=").Id("args").Index(Lit(pf.a.Name)), Id("ok")).Block(
				Id("in").Dot(pf.goName).Op("=").Op("&").Id("v"),
			))
		}
	}
	body = append(body, Return(Id("h").Dot(p.method).Call(Id("ctx"), Id("in"))))
	argsName := "args"
	if len(p.fields) == 0 {
		argsName = "_"
	}
	return Func().Params(Id("ctx").Qual("context", "Context"), Id(argsName).Map(String()).String()).
		Params(Op("*").Add(rt("PromptResult")), Error()).Block(body...)
}

func icons(ics []spec.Icon) []schema.Object {
	var out []schema.Object
	for _, ic := range ics {
		o := schema.Object{kv("src", ic.Src)}
		if ic.MimeType != "" {
			o = append(o, kv("mimeType", ic.MimeType))
		}
		if len(ic.Sizes) > 0 {
			o = append(o, kv("sizes", ic.Sizes))
		}
		if ic.Theme != "" {
			o = append(o, kv("theme", ic.Theme))
		}
		out = append(out, o)
	}
	return out
}

func common(o schema.Object, title, desc string, ics []spec.Icon) schema.Object {
	if title != "" {
		o = append(o, kv("title", title))
	}
	if desc != "" {
		o = append(o, kv("description", desc))
	}
	if len(ics) > 0 {
		o = append(o, kv("icons", icons(ics)))
	}
	return o
}

// ToolDocs are the input and output (nil when none) schema documents of a
// tool, and how each was cut to the schema budget (nil when it was not;
// see schema.Builder.ToolDocument). The output of a wrapped operation
// (WrappedOutput) is the tolerant form of its response schema, which is
// Response (nil for other tools).
type ToolDocs struct {
	In, Out       schema.Object
	InCut, OutCut *schema.Cut
	Response      schema.Object
	// Name is the name the tool is listed and called by when a client
	// profile shortened it; "" lists the spec's name.
	Name string
}

// ListedName is the name t is listed and called by.
func (d ToolDocs) ListedName(t *spec.Tool) string {
	if d.Name != "" {
		return d.Name
	}
	return t.Name
}

// ResponseSchemaSuffix ends the name of the file holding a wrapped
// operation's response schema as its document gives it (beside the
// tolerant output schema the tool lists), which the server checks
// responses against to log deviations.
const ResponseSchemaSuffix = ".response.schema.json"

// ToolDocuments builds the schema documents of every tool of api, once
// for the schema files and the server file, which embeds them.
func ToolDocuments(api *spec.API, b *schema.Builder) (map[*spec.Tool]ToolDocs, error) {
	docs := make(map[*spec.Tool]ToolDocs, len(api.Tools))
	tolerant := schema.NewTolerant()
	for _, t := range api.Tools {
		var d ToolDocs
		var err error
		d.In, d.InCut, err = b.ToolDocument(t.Input, true)
		switch {
		case err != nil || t.Output == nil:
		case WrappedOutput(t):
			d.Out, d.Response, d.OutCut, err = b.TolerantDocument(t.Output, tolerant)
		default:
			d.Out, d.OutCut, err = b.ToolDocument(t.Output, false)
		}
		if err != nil {
			return nil, fmt.Errorf("generator: tool %q: %w", t.Name, err)
		}
		docs[t] = d
	}
	return docs, nil
}

func resourceDefinition(enc *schema.Encoder, r *spec.Resource) (string, error) {
	o := common(schema.Object{kv("uri", r.URI), kv("name", r.Name)}, r.Title, r.Description, nil)
	if r.MimeType != "" {
		o = append(o, kv("mimeType", r.MimeType))
	}
	if r.Size != nil {
		o = append(o, kv("size", *r.Size))
	}
	if len(r.Icons) > 0 {
		o = append(o, kv("icons", icons(r.Icons)))
	}
	return enc.Compact(o)
}

func templateDefinition(enc *schema.Encoder, t *spec.ResourceTemplate) (string, error) {
	o := common(schema.Object{kv("uriTemplate", t.URITemplate), kv("name", t.Name)}, t.Title, t.Description, nil)
	if t.MimeType != "" {
		o = append(o, kv("mimeType", t.MimeType))
	}
	if len(t.Icons) > 0 {
		o = append(o, kv("icons", icons(t.Icons)))
	}
	return enc.Compact(o)
}

func promptDefinition(enc *schema.Encoder, p *spec.Prompt) (string, error) {
	o := common(schema.Object{kv("name", p.Name)}, p.Title, p.Description, nil)
	if len(p.Arguments) > 0 {
		var args []schema.Object
		for _, a := range p.Arguments {
			ao := common(schema.Object{kv("name", a.Name)}, a.Title, a.Description, nil)
			ao = append(ao, kv("required", a.Required))
			args = append(args, ao)
		}
		o = append(o, kv("arguments", args))
	}
	if len(p.Icons) > 0 {
		o = append(o, kv("icons", icons(p.Icons)))
	}
	return enc.Compact(o)
}

func kv(k string, v any) schema.Member { return schema.Member{Key: k, Value: v} }

// ordered is a keyed composite literal whose fields keep the order they
// were added in, one per line.
type ordered struct{ items []Code }

func (o *ordered) add(field string, v Code) { o.addCode(Id(field), v) }

func (o *ordered) addCode(key, v Code) { o.items = append(o.items, Add(key).Op(":").Add(v)) }

func (o *ordered) values() *Statement {
	return Custom(Options{Open: "{", Close: "}", Separator: ",", Multi: true}, o.items...)
}
