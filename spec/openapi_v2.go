package spec

import (
	"strings"

	"github.com/pb33f/go-yaml"

	v2 "github.com/pb33f/libopenapi/datamodel/high/v2"
)

// Swagger 2.0 is read into the same oaOp as 3.x: body parameters become the
// request body, formData parameters a form body, collectionFormat a style.

func (l *oaLoader) v2Ops(d *v2.Swagger) []*oaOp {
	if d.Host != "" {
		scheme := "https"
		if len(d.Schemes) > 0 && !containsString(d.Schemes, "https") {
			scheme = d.Schemes[0]
		}
		l.api.UpstreamURL = scheme + "://" + d.Host + d.BasePath
	} else {
		l.api.UpstreamURL = d.BasePath
	}
	l.info(d.Info)
	if d.SecurityDefinitions != nil && d.SecurityDefinitions.Definitions != nil {
		for name, ss := range d.SecurityDefinitions.Definitions.FromOldest() {
			p := Pos{File: l.file}
			if lo := ss.GoLow(); lo != nil {
				p = l.pos(lo.Type.KeyNode)
			}
			s := &SecurityScheme{Name: name, Type: ss.Type, In: ss.In, ParamName: ss.Name, Pos: p}
			if ss.Type == "basic" {
				s.Type, s.Scheme = "http", "basic"
			}
			l.scheme(s)
		}
	}
	if d.Paths == nil || d.Paths.PathItems == nil {
		return nil
	}
	var ops []*oaOp
	for pth, item := range d.Paths.PathItems.FromOldest() {
		for method, op := range item.GetOperations().FromOldest() {
			o := &oaOp{
				method: strings.ToUpper(method), path: pth, id: op.OperationId,
				summary: op.Summary, description: op.Description, tags: op.Tags,
				deprecated: op.Deprecated, ext: op.Extensions, pos: Pos{File: l.file},
			}
			if lo := op.GoLow(); lo != nil {
				// 2.0 low-level operations keep no node of their own: the
				// first key they have stands for them.
				for _, n := range []*yaml.Node{lo.OperationId.KeyNode, lo.Summary.KeyNode, lo.Tags.KeyNode, lo.Parameters.KeyNode, lo.Responses.KeyNode} {
					if n != nil {
						o.pos = l.pos(n)
						break
					}
				}
			}
			o.security = d.Security
			if op.Security != nil {
				o.security = op.Security
			}
			consumes := op.Consumes
			if len(consumes) == 0 {
				consumes = d.Consumes
			}
			seen := map[string]bool{}
			var params []*v2.Parameter
			for _, p := range op.Parameters {
				seen[p.In+"\x00"+p.Name] = true
				params = append(params, p)
			}
			for _, p := range item.Parameters {
				if !seen[p.In+"\x00"+p.Name] {
					params = append(params, p)
				}
			}
			var form *Schema
			hasFile := false
			for _, p := range params {
				pp := Pos{File: l.file}
				if lo := p.GoLow(); lo != nil {
					pp = l.pos(lo.Name.KeyNode)
				}
				required := p.Required != nil && *p.Required
				switch p.In {
				case "body":
					ct := "application/json"
					if len(consumes) > 0 {
						best := 99
						for _, c := range consumes {
							if r := bodyRank(c); r < best {
								best, ct = r, c
							}
						}
					}
					o.body = &oaBody{contentType: ct, required: required, schema: p.Schema, description: p.Description, pos: pp}
				case "formData":
					if form == nil {
						form = &Schema{Type: KindObject, Pos: pp}
					}
					s := l.v2ParamSchema(p, pp)
					if p.Type == "file" {
						hasFile = true
					}
					form.Properties = append(form.Properties, &Property{Name: p.Name, Schema: s, Required: required, Pos: pp})
				default:
					op := oaParam{name: p.Name, in: p.In, required: required || p.In == "path", multiSegment: p.In == "path" && multiSegment(p.Extensions), pos: pp}
					op.style, op.explode = v2Style(p.In, p.CollectionFormat)
					op.schema = l.v2ParamSchema(p, pp)
					o.params = append(o.params, op)
				}
			}
			if form != nil {
				ct := "application/x-www-form-urlencoded"
				if hasFile || (containsString(consumes, "multipart/form-data") && !containsString(consumes, ct)) {
					ct = "multipart/form-data"
				}
				o.body = &oaBody{contentType: ct, form: form, pos: form.Pos}
			}
			if op.Responses != nil && op.Responses.Codes != nil {
				var codes []string
				for c := range op.Responses.Codes.KeysFromOldest() {
					codes = append(codes, c)
				}
				if c := successCode(codes); c != "" {
					if r := op.Responses.Codes.GetOrZero(c); r != nil && r.Schema != nil {
						produces := op.Produces
						if len(produces) == 0 {
							produces = d.Produces
						}
						if jsonProduced(produces) {
							o.output = r.Schema
						}
					}
				}
			}
			ops = append(ops, o)
		}
	}
	return ops
}

func jsonProduced(produces []string) bool {
	if len(produces) == 0 {
		return true
	}
	for _, p := range produces {
		if bodyRank(p) <= 1 {
			return true
		}
	}
	return false
}

// v2Style maps collectionFormat to the 3.x style/explode pair.
func v2Style(in, cf string) (string, bool) {
	switch cf {
	case "multi":
		return "form", true
	case "ssv":
		return "spaceDelimited", false
	case "pipes":
		return "pipeDelimited", false
	case "tsv":
		// No 3.x style: recorded as is for the client to honour.
		return "tabDelimited", false
	}
	if in == "query" || in == "formData" {
		return "form", false
	}
	return "simple", false
}

// v2ParamSchema builds the schema of a non-body 2.0 parameter from its
// inline type keywords. libopenapi looks for a parameter's (or items')
// "default" one level down too, so an array parameter without a default
// would get its items' one (the petstore's status: default "available" on
// an array, which the Go SDK's jsonschema-go refuses when it resolves the
// tool): a default that is the items' own node is not the parameter's.
func (l *oaLoader) v2ParamSchema(p *v2.Parameter, pos Pos) *Schema {
	s := &Schema{Pos: pos, Description: p.Description, Format: p.Format, Pattern: p.Pattern}
	switch p.Type {
	case "file":
		s.Type, s.ContentEncoding, s.ContentMediaType = KindString, "base64", "application/octet-stream"
		s.Format = ""
	case "string", "integer", "number", "boolean", "array", "object":
		s.Type = Kind(p.Type)
	}
	if p.Schema != nil {
		// Not allowed by 2.0 outside body, but some documents do it.
		return l.schema(p.Schema, modeInput, 0)
	}
	if lo := p.GoLow(); lo == nil || lo.Items.Value == nil || lo.Default.ValueNode != lo.Items.Value.Default.ValueNode {
		l.setDefault(s, p.Default)
	}
	for _, e := range p.Enum {
		s.Enum = append(s.Enum, nodeJSON(e))
	}
	i64 := func(v *int) *int64 {
		if v == nil {
			return nil
		}
		x := int64(*v)
		return &x
	}
	f64 := func(v *int) *float64 {
		if v == nil {
			return nil
		}
		x := float64(*v)
		return &x
	}
	s.MinLength, s.MaxLength = i64(p.MinLength), i64(p.MaxLength)
	s.MinItems, s.MaxItems = i64(p.MinItems), i64(p.MaxItems)
	s.Minimum, s.Maximum, s.MultipleOf = f64(p.Minimum), f64(p.Maximum), f64(p.MultipleOf)
	if p.ExclusiveMinimum != nil && *p.ExclusiveMinimum && s.Minimum != nil {
		s.ExclusiveMinimum, s.Minimum = s.Minimum, nil
	}
	if p.ExclusiveMaximum != nil && *p.ExclusiveMaximum && s.Maximum != nil {
		s.ExclusiveMaximum, s.Maximum = s.Maximum, nil
	}
	if p.UniqueItems != nil {
		s.UniqueItems = *p.UniqueItems
	}
	if p.Items != nil {
		s.Items = v2Items(p.Items, pos, 0)
	}
	return s
}

func v2Items(it *v2.Items, pos Pos, depth int) *Schema {
	s := &Schema{Pos: pos, Format: it.Format, Pattern: it.Pattern}
	switch it.Type {
	case "string", "integer", "number", "boolean", "array", "object":
		s.Type = Kind(it.Type)
	}
	for _, e := range it.Enum {
		s.Enum = append(s.Enum, nodeJSON(e))
	}
	if lo := it.GoLow(); lo == nil || lo.Items.Value == nil || lo.Default.ValueNode != lo.Items.Value.Default.ValueNode {
		s.Default = nodeJSON(it.Default)
	}
	if it.Items != nil && depth < maxSchemaDepth {
		s.Items = v2Items(it.Items, pos, depth+1)
	}
	return s
}
