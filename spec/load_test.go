package spec_test

import (
	"encoding/json"
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/mcpgen-dev/mcpgen/spec"
)

func loadString(t *testing.T, path, src string) *spec.API {
	t.Helper()
	api, err := spec.Load(fstest.MapFS{path: {Data: []byte(src)}}, path)
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	return api
}

func raw(s string) json.RawMessage { return json.RawMessage(s) }

func pretty(v any) string {
	b, _ := json.MarshalIndent(v, "", "  ")
	return string(b)
}

func TestLoadGenerateDefaults(t *testing.T) {
	const server = "version: 1\nserver: {name: s, version: 1.0.0}\n"
	tests := []struct {
		name, path, src string
		want            spec.GenerateConfig
	}{
		{"package from the spec's directory", "examples/orders/mcpgen.yaml", server,
			spec.GenerateConfig{Package: "orders", Dir: "."}},
		{"package from dir", "examples/orders/mcpgen.yaml", server + "generate: {dir: gen/ordersmcp}\n",
			spec.GenerateConfig{Package: "ordersmcp", Dir: "gen/ordersmcp", Pos: spec.Pos{File: "examples/orders/mcpgen.yaml", Line: 3, Col: 1}}},
		{"explicit package", "mcpgen.yaml", server + "generate: {package: api, dir: ./out/}\n",
			spec.GenerateConfig{Package: "api", Dir: "out", Pos: spec.Pos{File: "mcpgen.yaml", Line: 3, Col: 1}}},
		{"spec at the root: package left to the caller", "mcpgen.yaml", server,
			spec.GenerateConfig{Package: "", Dir: "."}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			api := loadString(t, tt.path, tt.src)
			if !reflect.DeepEqual(api.Generate, tt.want) {
				t.Errorf("Generate = %+v, want %+v", api.Generate, tt.want)
			}
		})
	}
}

func TestLoadTool(t *testing.T) {
	src := `version: 1
server: {name: orders, version: 1.0.0}
tools:
  create_order:
    title: Create
    annotations: {readOnlyHint: false, openWorldHint: true}
    scopes: [orders:write]
    input:
      properties:
        quantity: {type: integer, minimum: 1, maximum: 0x64, default: 10}
        ratio: {type: number, default: 1.5, examples: [1.0, 2e3]}
        name: {type: string, default: "10", x-mcp-header: Name}
        tags: {type: array, items: {type: string, enum: [a, b]}, uniqueItems: true}
        extra: {type: object, additionalProperties: true}
        labels: {type: object, additionalProperties: {type: string}}
        closed: {type: object, additionalProperties: false}
        obj: {type: object, properties: {a: {type: string}}, default: {z: 1, a: "<x>"}, additionalProperties: true}
      required: [name, quantity]
  ping: {}
`
	api := loadString(t, "mcpgen.yaml", src)
	if len(api.Tools) != 2 || api.Tools[0].Name != "create_order" || api.Tools[1].Name != "ping" {
		t.Fatalf("tools not in declaration order: %s", pretty(api.Tools))
	}
	tool := api.Tools[0]
	if tool.Title != "Create" || !reflect.DeepEqual(tool.Scopes, []string{"orders:write"}) {
		t.Errorf("title/scopes = %q %v", tool.Title, tool.Scopes)
	}
	if tool.Annotations.ReadOnly == nil || *tool.Annotations.ReadOnly || tool.Annotations.OpenWorld == nil || !*tool.Annotations.OpenWorld || tool.Annotations.Destructive != nil {
		t.Errorf("annotations = %s", pretty(tool.Annotations))
	}
	in := tool.Input
	if in.Type != spec.KindObject || in.AllowAdditional {
		t.Errorf("input: type %q allowAdditional %v, want object and false", in.Type, in.AllowAdditional)
	}
	var names []string
	props := map[string]*spec.Property{}
	for _, p := range in.Properties {
		names = append(names, p.Name)
		props[p.Name] = p
	}
	if want := []string{"quantity", "ratio", "name", "tags", "extra", "labels", "closed", "obj"}; !reflect.DeepEqual(names, want) {
		t.Errorf("property order = %v, want %v", names, want)
	}
	q := props["quantity"]
	if !q.Required || q.Schema.Type != spec.KindInteger || *q.Schema.Minimum != 1 || *q.Schema.Maximum != 100 || string(q.Schema.Default) != "10" {
		t.Errorf("quantity = %s", pretty(q))
	}
	if q.Pos != (spec.Pos{File: "mcpgen.yaml", Line: 10, Col: 9}) || q.Schema.Pos != (spec.Pos{File: "mcpgen.yaml", Line: 10, Col: 19}) {
		t.Errorf("quantity positions = %v, %v", q.Pos, q.Schema.Pos)
	}
	r := props["ratio"].Schema
	if string(r.Default) != "1.5" || len(r.Examples) != 2 || string(r.Examples[0]) != "1" || string(r.Examples[1]) != "2000" {
		t.Errorf("ratio default/examples = %s %s", r.Default, r.Examples)
	}
	n := props["name"]
	if !n.Required || string(n.Schema.Default) != `"10"` || n.Schema.Header != "Name" {
		t.Errorf("name = %s", pretty(n))
	}
	tags := props["tags"].Schema
	if tags.Items == nil || !reflect.DeepEqual(tags.Items.Enum, []json.RawMessage{raw(`"a"`), raw(`"b"`)}) || !tags.UniqueItems {
		t.Errorf("tags = %s", pretty(tags))
	}
	if e := props["extra"].Schema; !e.AllowAdditional || e.AdditionalProperties != nil {
		t.Errorf("additionalProperties: true gave %v %v", e.AllowAdditional, e.AdditionalProperties)
	}
	if l := props["labels"].Schema; !l.AllowAdditional || l.AdditionalProperties == nil || l.AdditionalProperties.Type != spec.KindString {
		t.Errorf("additionalProperties schema gave %s", pretty(l))
	}
	if c := props["closed"].Schema; c.AllowAdditional {
		t.Error("additionalProperties: false allows additional properties")
	}
	if d := string(props["obj"].Schema.Default); d != `{"a":"<x>","z":1}` {
		t.Errorf("object default = %s, want canonical JSON", d)
	}
	if p := api.Tools[1]; p.Input == nil || p.Input.Type != spec.KindObject || len(p.Input.Properties) != 0 || p.Output != nil {
		t.Errorf("tool without input: %s", pretty(p))
	}
	if tool.Pos != (spec.Pos{File: "mcpgen.yaml", Line: 4, Col: 3}) {
		t.Errorf("tool pos = %v", tool.Pos)
	}
}

func TestLoadTypesAndDiscriminator(t *testing.T) {
	src := `version: 1
server: {name: s, version: 1.0.0}
types:
  Node:
    type: object
    properties:
      children: {type: array, items: {$ref: Node}}
      parent: {$ref: "#/types/Node", nullable: true, description: up}
  Circle:
    type: object
    properties: {kind: {type: string}, r: {type: number}}
  Square:
    type: object
    properties: {kind: {type: string}, side: {type: number}}
  Shape:
    oneOf: [{$ref: Circle}, {$ref: Square}]
    discriminator: {propertyName: kind, mapping: {sq: Square, round: "#/types/Circle"}}
  Bare:
    oneOf: [{$ref: Circle}, {$ref: Square}]
    discriminator: {propertyName: kind}
`
	api := loadString(t, "a/mcpgen.yaml", src)
	var names []string
	for _, nt := range api.Types {
		names = append(names, nt.Name)
	}
	if want := []string{"Node", "Circle", "Square", "Shape", "Bare"}; !reflect.DeepEqual(names, want) {
		t.Fatalf("types = %v, want %v", names, want)
	}
	node := api.Types[0].Schema
	if node.Properties[0].Schema.Items.Ref != "Node" {
		t.Errorf("recursive items ref = %q", node.Properties[0].Schema.Items.Ref)
	}
	parent := node.Properties[1].Schema
	if parent.Ref != "Node" || !parent.Nullable || parent.Description != "up" {
		t.Errorf("parent = %s", pretty(parent))
	}
	shape := api.Types[3].Schema
	want := &spec.Discriminator{
		PropertyName: "kind",
		Mapping:      []spec.DiscriminatorCase{{Value: "round", Type: "Circle"}, {Value: "sq", Type: "Square"}},
		Pos:          spec.Pos{File: "a/mcpgen.yaml", Line: 17, Col: 5},
	}
	if !reflect.DeepEqual(shape.Discriminator, want) {
		t.Errorf("discriminator = %s, want %s", pretty(shape.Discriminator), pretty(want))
	}
	bare := api.Types[4].Schema.Discriminator
	if want := []spec.DiscriminatorCase{{Value: "Circle", Type: "Circle"}, {Value: "Square", Type: "Square"}}; !reflect.DeepEqual(bare.Mapping, want) {
		t.Errorf("implicit mapping = %v, want %v", bare.Mapping, want)
	}
}

func TestLoadResourcesTemplatesPrompts(t *testing.T) {
	src := `version: 1
server:
  name: s
  version: 1.0.0
  website: https://example.com
  icons: [{src: "https://example.com/i.png", sizes: ["48x48"], theme: dark}]
  cache:
    list: {ttlMs: 60000, cacheScope: public}
resources:
  policy:
    uri: policy://after-sales/current
    mimeType: text/plain
    size: 12
    cache: {ttlMs: 5}
resourceTemplates:
  invoice:
    uriTemplate: invoice://{year}/{id}
    variables:
      id: {complete: handler}
      year: {type: integer, minimum: 2000, complete: ["2025", "2026"]}
prompts:
  reply:
    arguments:
      order_id: {required: true, complete: [A1, A2]}
      tone: {complete: handler}
`
	api := loadString(t, "mcpgen.yaml", src)
	s := api.Server
	if s.WebsiteURL != "https://example.com" || len(s.Icons) != 1 || s.Icons[0].Theme != "dark" || s.ListCache == nil || s.ListCache.TTLMs != 60000 || s.ListCache.Scope != "public" || s.ReadCache != nil {
		t.Errorf("server = %s", pretty(s))
	}
	r := api.Resources[0]
	if r.Name != "policy" || r.URI != "policy://after-sales/current" || *r.Size != 12 || r.Cache.TTLMs != 5 || r.Cache.Scope != "private" {
		t.Errorf("resource = %s", pretty(r))
	}
	tm := api.Templates[0]
	if len(tm.Variables) != 2 || tm.Variables[0].Name != "year" || tm.Variables[1].Name != "id" {
		t.Fatalf("variables not in template order: %s", pretty(tm.Variables))
	}
	year, id := tm.Variables[0], tm.Variables[1]
	if year.Schema.Type != spec.KindInteger || *year.Schema.Minimum != 2000 || !reflect.DeepEqual(year.Complete.Values, []string{"2025", "2026"}) {
		t.Errorf("year = %s", pretty(year))
	}
	if id.Schema.Type != spec.KindString || id.Complete == nil || !id.Complete.Handler {
		t.Errorf("untyped variable id = %s, want a string with a handler completion", pretty(id))
	}
	args := api.Prompts[0].Arguments
	if len(args) != 2 || !args[0].Required || !reflect.DeepEqual(args[0].Complete.Values, []string{"A1", "A2"}) || args[1].Required || !args[1].Complete.Handler {
		t.Errorf("prompt arguments = %s", pretty(args))
	}
}

func TestLoadKitchenSink(t *testing.T) {
	api, err := spec.Load(os.DirFS("../testdata/generate/kitchen_sink"), "mcpgen.yaml")
	if err != nil {
		t.Fatalf("kitchen sink must load: %v", err)
	}
	var tools []string
	for _, tl := range api.Tools {
		tools = append(tools, tl.Name)
	}
	if want := []string{"create_order", "map", "list_orders", "ping.v2", "draw-shape"}; !reflect.DeepEqual(tools, want) {
		t.Errorf("tools = %v, want %v", tools, want)
	}
	var props []string
	for _, p := range api.Tools[1].Input.Properties {
		props = append(props, p.Name)
	}
	if want := []string{"type", "func", "range", "default", "interface", "select", "chan"}; !reflect.DeepEqual(props, want) {
		t.Errorf("map tool properties = %v, want %v", props, want)
	}
	// The nested header is kept on the nested property.
	shipping := api.Tools[0].Input.Properties[4]
	if shipping.Name != "shipping" || shipping.Schema.Properties[0].Schema.Header != "Ship-Country" {
		t.Errorf("nested x-mcp-header lost: %s", pretty(shipping))
	}
	if api.Generate.Package != "kitchensink" {
		t.Errorf("package = %q", api.Generate.Package)
	}
}

func TestLoadErrors(t *testing.T) {
	_, err := spec.Load(fstest.MapFS{}, "missing.yaml")
	var ds spec.Diagnostics
	if err == nil || errors.As(err, &ds) {
		t.Errorf("missing file: err = %v, want a plain error", err)
	}
	_, err = spec.Load(fstest.MapFS{"x/m.yaml": {Data: []byte("version: 1\nserver: {name: s}\n")}}, "x/m.yaml")
	if !errors.As(err, &ds) || len(ds) != 1 || ds[0].Pos != (spec.Pos{File: "x/m.yaml", Line: 2, Col: 1}) {
		t.Fatalf("err = %v, want one diagnostic at x/m.yaml:2:1", err)
	}
	if !strings.Contains(ds[0].Message, "version is required") {
		t.Errorf("message = %q", ds[0].Message)
	}
}

func TestLoadDeepNesting(t *testing.T) {
	src := "version: 1\nserver: {name: s, version: 1.0.0}\ntypes:\n  A: " + strings.Repeat("{items: ", 200) + "{}" + strings.Repeat("}", 200) + "\n"
	_, err := spec.Load(fstest.MapFS{"m.yaml": {Data: []byte(src)}}, "m.yaml")
	var ds spec.Diagnostics
	if !errors.As(err, &ds) || len(ds) != 1 || !strings.Contains(ds[0].Message, "nesting deeper than 64 levels") {
		t.Errorf("err = %v, want one nesting diagnostic", err)
	}
}
