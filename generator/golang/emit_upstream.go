package golang

import (
	"slices"
	"strings"

	. "github.com/dave/jennifer/jen"

	"github.com/mcpgen-dev/mcpgen/spec"
)

// UpstreamNames are the package-level names of mcpgen_upstream_gen.go,
// kept free of types of OpenAPI-derived specs.
var UpstreamNames = []string{"Upstream", "NewUpstream", "UpstreamClient", "NewUpstreamClient",
	"UpstreamURL", "UpstreamSchemes", "UpstreamCredentialsFromEnv"}

// HasUpstream reports whether the spec binds tools to a REST API, so that
// mcpgen_upstream_gen.go is generated.
func (m *Model) HasUpstream() bool {
	for _, t := range m.tools {
		if t.t.Upstream != nil {
			return true
		}
	}
	return false
}

// UpstreamFile emits mcpgen_upstream_gen.go: UpstreamClient, with one
// method per operation that serialises the tool's input into an HTTP
// request, and Upstream, the Handler that serves each tool by calling its
// operation. Everything not specific to the spec is in runtime/upstream.
func (m *Model) UpstreamFile(f *File, docs map[*spec.Tool]ToolDocs) {
	api := m.api
	f.Comment(lc("UpstreamURL is the base URL of the wrapped API, from the document's servers."))
	f.Const().Id("UpstreamURL").Op("=").Lit(api.UpstreamURL)

	var schemes []Code
	for _, s := range api.SecuritySchemes {
		d := &ordered{}
		d.add("Name", Lit(s.Name))
		d.add("Type", Lit(s.Type))
		if s.In != "" {
			d.add("In", Lit(s.In))
		}
		if s.ParamName != "" {
			d.add("ParamName", Lit(s.ParamName))
		}
		if s.Scheme != "" {
			d.add("Scheme", Lit(s.Scheme))
		}
		schemes = append(schemes, d.values())
	}
	f.Comment(lc("UpstreamSchemes returns the security schemes of the wrapped API. Their\ncredentials come from configuration (upstream.Credentials), never from\ntool arguments."))
	f.Func().Id("UpstreamSchemes").Params().Index().Add(upstream("Scheme")).Block(
		Return(Index().Add(upstream("Scheme")).Custom(Options{Open: "{", Close: "}", Separator: ",", Multi: true}, schemes...)))
	f.Comment(lc("UpstreamCredentialsFromEnv reads the credentials of UpstreamSchemes from\nMCPGEN_<SCHEME>_<FIELD> environment variables (see\nupstream.CredentialsFromEnv)."))
	f.Func().Id("UpstreamCredentialsFromEnv").Params().Add(upstream("Credentials")).Block(
		Return(upstream("CredentialsFromEnv").Call(Qual("os", "Getenv"), Lit(""), Id("UpstreamSchemes").Call())))

	f.Comment(lc("UpstreamClient calls the operations of the wrapped API with typed\ninputs. The embedded upstream.Client holds the base URL, HTTP client,\ncredentials, retries and response cap."))
	f.Type().Id("UpstreamClient").Struct(Op("*").Add(upstream("Client")))
	f.Comment(lc("NewUpstreamClient returns a client of baseURL (UpstreamURL when empty)."))
	f.Func().Id("NewUpstreamClient").Params(Id("baseURL").String(), Id("opts").Op("...").Add(upstream("Option"))).Op("*").Id("UpstreamClient").Block(
		If(Id("baseURL").Op("==").Lit("")).Block(Id("baseURL").Op("=").Id("UpstreamURL")),
		Return(Op("&").Id("UpstreamClient").Values(upstream("NewClient").Call(Id("baseURL"), Id("UpstreamSchemes").Call(), Id("opts").Op("...")))),
	)
	f.Comment(lc("Upstream implements Handler by calling the wrapped API: serve it with\nNewServer(NewUpstream(\"\", opts...), runtime.Options{}). To replace one\noperation, embed *Upstream in a struct of your own and define that one\nmethod there; the generated files stay untouched."))
	f.Type().Id("Upstream").Struct(
		Id("UnimplementedHandler"),
		Comment("Client sends the requests."),
		Id("Client").Op("*").Id("UpstreamClient"),
	)
	f.Var().Id("_").Id("Handler").Op("=").Parens(Op("*").Id("Upstream")).Parens(Nil())
	f.Comment(lc("NewUpstream returns the Handler of the wrapped API at baseURL\n(UpstreamURL when empty)."))
	f.Func().Id("NewUpstream").Params(Id("baseURL").String(), Id("opts").Op("...").Add(upstream("Option"))).Op("*").Id("Upstream").Block(
		Return(Op("&").Id("Upstream").Values(Id("Client").Op(":").Id("NewUpstreamClient").Call(Id("baseURL"), Id("opts").Op("...")))),
	)
	for _, t := range m.tools {
		if t.t.Upstream != nil {
			m.upstreamOp(f, t, docs[t.t])
		}
	}
}

func (m *Model) upstreamOp(f *File, t *tool, docs ToolDocs) {
	up := t.t.Upstream
	fields := map[string]*field{}
	for _, fl := range t.input.fields {
		fields[fl.jsonName] = fl
	}
	ctx := Id("ctx").Qual("context", "Context")
	in := Id("in").Id(t.input.name)

	req := &ordered{}
	req.add("Tool", Lit(t.t.Name))
	req.add("Method", Lit(strings.ToUpper(up.Method)))
	if len(up.Security) > 0 {
		var alts []Code
		for _, alt := range up.Security {
			var names []Code
			for _, n := range alt {
				names = append(names, Lit(n))
			}
			alts = append(alts, Values(names...))
		}
		req.add("Security", Index().Index().String().Values(alts...))
	}
	body := []Code{
		Id("req").Op(":=").Op("&").Add(upstream("Request")).Add(req.values()),
	}
	// each runs stmts with b holding the JSON of the property, when
	// present; b is declared (after req) only when some parameter uses it.
	usesB := false
	// usesCheck: some argument is checked (upstream.ArgCheck) before the
	// request is sent.
	usesCheck := false
	each := func(p spec.UpstreamParam, stmts ...Code) Code {
		fl := fields[p.Property]
		if fl == nil {
			return Null()
		}
		usesB = true
		x := Id("in").Dot(fl.goName)
		set := append([]Code{Id("b").Op("=").Id("b").Index(Empty(), Lit(0)), Id("b").Op("=").Add(appendValue(fl.node, x, fl.ptr))}, stmts...)
		if fl.ptr || !fl.required && fl.def == nil {
			return If(Add(x).Op("!=").Nil()).Block(set...)
		}
		return Block(set...)
	}
	params := func(where string) []spec.UpstreamParam {
		var out []spec.UpstreamParam
		for _, p := range up.Params {
			if p.In == where {
				out = append(out, p)
			}
		}
		return out
	}
	// Path: literal segments and {name} templates.
	pathParams := map[string]spec.UpstreamParam{}
	for _, p := range params("path") {
		pathParams[p.Name] = p
	}
	// The path's literal text, and its {name} templates filled in from
	// the parameters; a path without parameters is one string.
	type segment struct {
		text  string
		param *spec.UpstreamParam
	}
	var segments []segment
	hasParams := false
	rest := up.Path
	for rest != "" {
		i := strings.Index(rest, "{")
		j := strings.Index(rest, "}")
		if i < 0 || j < i {
			segments = append(segments, segment{text: rest})
			break
		}
		if i > 0 {
			segments = append(segments, segment{text: rest[:i]})
		}
		if p, ok := pathParams[rest[i+1:j]]; ok {
			segments = append(segments, segment{param: &p})
			hasParams = true
		}
		rest = rest[j+1:]
	}
	if !hasParams {
		var path strings.Builder
		for _, sg := range segments {
			path.WriteString(sg.text)
		}
		body = append(body, Id("req").Dot("Path").Op("=").Lit(path.String()))
	} else {
		body = append(body, Var().Id("path").Index().Byte())
		for _, sg := range segments {
			if sg.param == nil {
				body = append(body, Id("path").Op("=").Append(Id("path"), Lit(sg.text).Op("...")))
				continue
			}
			p := *sg.param
			usesCheck = true
			body = append(body, each(p, Id("path").Op("=").Id("check").Dot("Path").Call(Id("path"), Lit(p.Property), Lit(p.Name), Lit(p.Style), Lit(p.Explode), Lit(p.MultiSegment), Id("b"))))
		}
		body = append(body, Id("req").Dot("Path").Op("=").String().Call(Id("path")))
	}
	if qs := params("query"); len(qs) > 0 {
		body = append(body, Var().Id("q").Index().Byte())
		for _, p := range qs {
			usesCheck = true
			body = append(body, each(p, Id("q").Op("=").Id("check").Dot("Query").Call(Id("q"), Lit(p.Property), Lit(p.Name), Lit(p.Style), Lit(p.Explode), Id("b"))))
		}
		body = append(body, Id("req").Dot("RawQuery").Op("=").String().Call(Id("q")))
	}
	if hs := params("header"); len(hs) > 0 {
		body = append(body, Id("req").Dot("Header").Op("=").Qual("net/http", "Header").Values())
		for _, p := range hs {
			usesCheck = true
			body = append(body, each(p, If(List(Id("h"), Id("ok")).Op(":=").Id("check").Dot("Header").Call(Lit(p.Property), Lit(p.Explode), Id("b")), Id("ok")).Block(
				Id("req").Dot("Header").Dot("Set").Call(Lit(p.Name), Id("h")))))
		}
	}
	for _, p := range params("cookie") {
		usesCheck = true
		body = append(body, each(p, If(List(Id("c"), Id("ok")).Op(":=").Id("check").Dot("Cookie").Call(Lit(p.Property), Lit(p.Name), Lit(p.Explode), Id("b")), Id("ok")).Block(
			Id("req").Dot("Cookies").Op("=").Append(Id("req").Dot("Cookies"), Id("c")))))
	}
	fail := func() Code {
		if t.output != nil {
			return Return(Id("out"), Nil(), Err())
		}
		return Return(Nil(), Err())
	}
	bodyCode, bodyChecks := m.upstreamBody(up, params("body"), params("bodyAll"), fields, each, fail)
	body = append(body, bodyCode...)
	usesCheck = usesCheck || bodyChecks
	if usesCheck {
		body = append(body, If(Err().Op(":=").Id("check").Dot("Err").Call(), Err().Op("!=").Nil()).Block(fail()))
		body = slices.Insert(body, 1, Code(Var().Id("check").Add(upstream("ArgCheck"))))
	}
	if usesB {
		body = slices.Insert(body, 1, Code(Var().Id("b").Index().Byte()))
	}

	// The client method and the Handler method.
	if t.output != nil {
		f.Comment(lcf("%s calls %s %s and decodes the JSON response into the tool's\noutput, which is validated against the output schema.", t.method, strings.ToUpper(up.Method), up.Path))
		body = append(body,
			List(Id("resp"), Err()).Op("=").Id("c").Dot("Client").Dot("Do").Call(Id("ctx"), Id("req")),
			If(Err().Op("!=").Nil()).Block(Return(Id("out"), Nil(), Err())),
			Return(Id("out"), Id("resp"), upstream("DecodeJSON").Call(Id("resp"), Op("&").Id("out"))),
		)
		f.Func().Params(Id("c").Op("*").Id("UpstreamClient")).Id(t.method).Params(ctx, in).
			Params(Id("out").Id(t.output.name), Id("resp").Op("*").Add(upstream("Response")), Err().Error()).Block(body...)
		f.Comment(lcf("%s implements the %q tool by calling the wrapped API.", t.method, t.t.Name))
		f.Func().Params(Id("u").Op("*").Id("Upstream")).Id(t.method).Params(ctx, in).Params(Id(t.output.name), Error()).Block(
			List(Id("out"), Id("_"), Err()).Op(":=").Id("u").Dot("Client").Dot(t.method).Call(Id("ctx"), Id("in")),
			Return(Id("out"), Err()),
		)
		return
	}
	if t.wrapped {
		f.Comment(lcf("%s calls %s %s.", t.method, strings.ToUpper(up.Method), up.Path))
		body = append(body, Return(Id("c").Dot("Client").Dot("Do").Call(Id("ctx"), Id("req"))))
		f.Func().Params(Id("c").Op("*").Id("UpstreamClient")).Id(t.method).Params(ctx, in).
			Params(Op("*").Add(upstream("Response")), Error()).Block(body...)
		out := &ordered{}
		out.add("Tool", Lit(t.t.Name))
		if docs.Out != nil {
			out.add("Schemas", Id("schemaFiles"))
			out.add("Published", Lit("schemas/"+t.t.Name+".output.schema.json"))
			out.add("Document", Lit("schemas/"+t.t.Name+ResponseSchemaSuffix))
		}
		f.Comment(lcf("%s implements the %q tool by calling the wrapped API; the\nJSON response is the structured output, as upstream.Client.StructuredResult\nchecks it.", t.method, t.t.Name))
		f.Func().Params(Id("u").Op("*").Id("Upstream")).Id(t.method).Params(ctx, in).Params(Op("*").Add(rt("ToolResult")), Error()).Block(
			List(Id("resp"), Err()).Op(":=").Id("u").Dot("Client").Dot(t.method).Call(Id("ctx"), Id("in")),
			If(Err().Op("!=").Nil()).Block(Return(Nil(), Err())),
			Return(Id("u").Dot("Client").Dot("Client").Dot("StructuredResult").Call(Id("ctx"), Id("resp"), upstream("Output").Add(out.values()))),
		)
		return
	}
	f.Comment(lcf("%s calls %s %s.", t.method, strings.ToUpper(up.Method), up.Path))
	body = append(body, Return(Id("c").Dot("Client").Dot("Do").Call(Id("ctx"), Id("req"))))
	f.Func().Params(Id("c").Op("*").Id("UpstreamClient")).Id(t.method).Params(ctx, in).
		Params(Op("*").Add(upstream("Response")), Error()).Block(body...)
	f.Comment(lcf("%s implements the %q tool by calling the wrapped API; the\nresponse is returned as text.", t.method, t.t.Name))
	f.Func().Params(Id("u").Op("*").Id("Upstream")).Id(t.method).Params(ctx, in).Params(Op("*").Add(rt("ToolResult")), Error()).Block(
		List(Id("resp"), Err()).Op(":=").Id("u").Dot("Client").Dot(t.method).Call(Id("ctx"), Id("in")),
		If(Err().Op("!=").Nil()).Block(Return(Nil(), Err())),
		Return(Id("resp").Dot("TextResult").Call(), Nil()),
	)
}

func isJSONMedia(ct string) bool {
	ct = strings.ToLower(ct)
	return ct == "application/json" || strings.HasSuffix(ct, "+json") || strings.HasSuffix(ct, "/json")
}

// upstreamBody serialises the request body per its media type. An
// optional body is sent only when the call gives one of its fields
// (never as "{}" or an empty form); once sent, the fields its schema
// requires must be given too, which upstream.ArgCheck reports, as it
// reports a form field it refuses. checks says the code records such
// refusals.
func (m *Model) upstreamBody(up *spec.Upstream, fieldsIn, all []spec.UpstreamParam, fields map[string]*field, each func(spec.UpstreamParam, ...Code) Code, fail func() Code) (code []Code, checks bool) {
	if len(fieldsIn) == 0 && len(all) == 0 {
		return nil, false
	}
	out := m.bodyCode(up, fieldsIn, all, fields, each, fail)
	// A form body's fields are checked as query values are
	// (upstream.ArgCheck.Query).
	form := strings.ToLower(up.BodyContentType) == "application/x-www-form-urlencoded"
	if up.BodyRequired || len(fieldsIn) == 0 {
		// A whole-body argument is present or not: each guards it.
		return out, form
	}
	// given: a field without a default was given (fields with one always
	// hold a value, so they alone do not make the body be sent).
	var given *Statement
	var missing []Code
	for _, p := range fieldsIn {
		fl := fields[p.Property]
		if fl == nil || fl.def != nil || !(fl.ptr || !fl.required) {
			continue
		}
		isGiven := Id("in").Dot(fl.goName).Op("!=").Nil()
		if fl.nullFlag != "" && isJSONMedia(up.BodyContentType) {
			isGiven = isGiven.Op("||").Id("in").Dot(fl.nullFlag)
		}
		if given == nil {
			given = isGiven
		} else {
			given = given.Op("||").Add(isGiven)
		}
		if p.RequiredInBody {
			absent := Id("in").Dot(fl.goName).Op("==").Nil()
			if fl.nullFlag != "" && isJSONMedia(up.BodyContentType) {
				absent = absent.Op("&&").Op("!").Id("in").Dot(fl.nullFlag)
			}
			missing = append(missing, If(absent).Block(Id("check").Dot("Missing").Call(Lit(p.Property))))
		}
	}
	if given == nil {
		return out, form
	}
	return []Code{If(given).Block(append(missing, out...)...)}, form || len(missing) > 0
}

// bodyCode builds req.Body and req.ContentType from the body arguments.
func (m *Model) bodyCode(up *spec.Upstream, fieldsIn, all []spec.UpstreamParam, fields map[string]*field, each func(spec.UpstreamParam, ...Code) Code, fail func() Code) []Code {
	ct := strings.ToLower(up.BodyContentType)
	setCT := Id("req").Dot("ContentType").Op("=").Lit(up.BodyContentType)
	var out []Code
	switch {
	case ct == "multipart/form-data":
		out = append(out, Var().Id("parts").Index().Add(upstream("MultipartField")))
		for _, p := range append(fieldsIn, all...) {
			fl := fields[p.Property]
			if fl == nil {
				continue
			}
			s := fl.node.real().schema
			if s.Items != nil && s.Type == spec.KindArray {
				s = s.Items
			}
			mf := &ordered{}
			mf.add("Name", Lit(p.Name))
			mf.add("Value", Append(Index().Byte().Parens(Nil()), Id("b").Op("...")))
			if s.ContentEncoding == "base64" {
				mf.add("Base64", True())
				mf.add("ContentType", Lit(s.ContentMediaType))
			}
			out = append(out, each(p, Id("parts").Op("=").Append(Id("parts"), upstream("MultipartField").Add(mf.values()))))
		}
		out = append(out,
			List(Id("body"), Id("ctype"), Err()).Op(":=").Add(upstream("MultipartBody")).Call(Id("parts")),
			If(Err().Op("!=").Nil()).Block(fail()),
			Id("req").Dot("Body").Op(",").Id("req").Dot("ContentType").Op("=").Id("body").Op(",").Id("ctype"),
		)
		return out
	case ct == "application/x-www-form-urlencoded":
		out = append(out, Id("body").Op(":=").Index().Byte().Values())
		for _, p := range fieldsIn {
			out = append(out, each(p, Id("body").Op("=").Id("check").Dot("Query").Call(Id("body"), Lit(p.Property), Lit(p.Name), Lit(p.Style), Lit(p.Explode), Id("b"))))
		}
		for _, p := range all {
			out = append(out, each(p, Id("body").Op("=").Id("check").Dot("Query").Call(Id("body"), Lit(p.Property), Lit(""), Lit("form"), True(), Id("b"))))
		}
		return append(out, Id("req").Dot("Body").Op("=").Id("body"), setCT)
	case isJSONMedia(ct) && len(all) > 0:
		return append(out, each(all[0], Id("req").Dot("Body").Op("=").Append(Index().Byte().Parens(Nil()), Id("b").Op("...")), setCT))
	case isJSONMedia(ct):
		out = append(out, Id("body").Op(":=").Index().Byte().Parens(Lit("{")))
		for _, p := range fieldsIn {
			put := []Code{
				If(Len(Id("body")).Op(">").Lit(1)).Block(Id("body").Op("=").Append(Id("body"), LitRune(','))),
				Id("body").Op("=").Add(wire("AppendString")).Call(Id("body"), Lit(p.Name)),
				Id("body").Op("=").Append(Id("body"), LitRune(':')),
				Id("body").Op("=").Append(Id("body"), Id("b").Op("...")),
			}
			c := each(p, put...)
			if fl := fields[p.Property]; fl != nil && fl.nullFlag != "" {
				// An explicit null goes out as null: the API may read it
				// otherwise than an absent member.
				if st, ok := c.(*Statement); ok {
					c = st.Else().If(Id("in").Dot(fl.nullFlag)).Block(append([]Code{
						Id("b").Op("=").Append(Id("b").Index(Empty(), Lit(0)), Lit("null").Op("...")),
					}, put...)...)
				}
			}
			out = append(out, c)
		}
		return append(out, Id("req").Dot("Body").Op("=").Append(Id("body"), LitRune('}')), setCT)
	}
	// Raw media types (octet-stream, text/*, XML): the "body" string.
	for _, p := range all {
		fl := fields[p.Property]
		if fl == nil {
			continue
		}
		b64 := fl.node.real().schema.ContentEncoding == "base64"
		out = append(out, each(p,
			List(Id("raw"), Err()).Op(":=").Add(upstream("RawBody")).Call(Id("b"), Lit(b64)),
			If(Err().Op("!=").Nil()).Block(fail()),
			Id("req").Dot("Body").Op("=").Id("raw"),
			setCT,
		))
	}
	return out
}
