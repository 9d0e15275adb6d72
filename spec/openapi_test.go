package spec

import (
	"errors"
	"fmt"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

func loadTestOpenAPI(t *testing.T, file string, cfg OpenAPIConfig) *API {
	t.Helper()
	api, err := LoadOpenAPI(os.DirFS("../testdata/openapi"), file, cfg)
	if err != nil {
		t.Fatalf("load %s: %v", file, err)
	}
	return api
}

func toolByName(t *testing.T, api *API, name string) *Tool {
	t.Helper()
	var names []string
	for _, tool := range api.Tools {
		if tool.Name == name {
			return tool
		}
		names = append(names, tool.Name)
	}
	t.Fatalf("no tool %q; have %v", name, names)
	return nil
}

func prop(t *testing.T, s *Schema, name string) *Property {
	t.Helper()
	for _, p := range s.Properties {
		if p.Name == name {
			return p
		}
	}
	t.Fatalf("no property %q", name)
	return nil
}

func upParam(t *testing.T, tool *Tool, property string) UpstreamParam {
	t.Helper()
	for _, p := range tool.Upstream.Params {
		if p.Property == property {
			return p
		}
	}
	t.Fatalf("%s: no upstream param for %q", tool.Name, property)
	return UpstreamParam{}
}

func typeByName(t *testing.T, api *API, name string) *NamedType {
	t.Helper()
	for _, nt := range api.Types {
		if nt.Name == name {
			return nt
		}
	}
	t.Fatalf("no type %q", name)
	return nil
}

func propNames(s *Schema) string {
	var n []string
	for _, p := range s.Properties {
		n = append(n, p.Name)
	}
	return strings.Join(n, ",")
}

func TestOpenAPI30Tools(t *testing.T) {
	api := loadTestOpenAPI(t, "petshop-3.0.yaml", OpenAPIConfig{})
	if api.Server.Name != "Pet_Shop" || api.Server.Version != "1.2.3" || api.UpstreamURL != "https://api.example.com/v1" {
		t.Errorf("server %+v, upstream %q", api.Server, api.UpstreamURL)
	}
	var names []string
	for _, tool := range api.Tools {
		names = append(names, tool.Name)
	}
	// Document order; x-mcp skip drops batch; "/" → "_"; x-mcp name wins;
	// the long id is abbreviated word by word to fit 64.
	want := "pets_update remove_pet listPets createPetWithAVeryLongOperationIdForTheRepoConfigOfOrgs uploadRaw formPet odd"
	if got := strings.Join(names, " "); got != want {
		t.Errorf("tools\n got %s\nwant %s", got, want)
	}

	up := toolByName(t, api, "pets_update")
	// Body fields keep their names; the path parameter "name" collides with
	// the body's "name" and moves to name_path; readOnly id is not an input.
	if got := propNames(up.Input); got != "name,tag,parent,born,name_path,include,created_lt" {
		t.Errorf("pets_update input = %s", got)
	}
	if p := upParam(t, up, "name_path"); p.Name != "name" || p.In != "path" || p.Style != "simple" {
		t.Errorf("name_path → %+v", p)
	}
	if p := upParam(t, up, "name"); p.In != "body" {
		t.Errorf("name → %+v", p)
	}
	if p := upParam(t, up, "include"); p.Name != "include[]" || p.In != "query" || p.Style != "form" || p.Explode {
		t.Errorf("include → %+v", p)
	}
	if p := upParam(t, up, "created_lt"); p.Name != "created<" || !p.Explode {
		t.Errorf("created_lt → %+v", p)
	}
	if !prop(t, up.Input, "name").Required || !prop(t, up.Input, "name_path").Required || prop(t, up.Input, "tag").Required {
		t.Error("required: body-required name and path name must be required, tag optional")
	}
	if up.Upstream.BodyContentType != "application/json" || up.Upstream.Method != "PUT" || up.Upstream.Path != "/pets/{name}" {
		t.Errorf("upstream %+v", up.Upstream)
	}
	if got := up.Upstream.Security; len(got) != 2 || got[0][0] != "oauth" || got[1][0] != "key" {
		t.Errorf("security %v", got)
	}
	if strings.Join(up.Scopes, ",") != "pets:write" {
		t.Errorf("scopes %v", up.Scopes)
	}
	if up.Output == nil || up.Output.Ref != "Pet" {
		t.Errorf("output %+v", up.Output)
	}
	if a := up.Annotations; !*a.Idempotent || *a.ReadOnly || *a.Destructive || !*a.OpenWorld || a.Title != "Update a pet" {
		t.Errorf("PUT annotations %+v", a)
	}
	// Credentials never become arguments, and say so.
	notes := Diagnostics(api.Notes).Error()
	for _, want := range []string{
		`petshop-3.0.yaml:44:11: PUT /pets/{name}: header parameter "X-API-Key" carries the credential of security scheme "key"`,
		`petshop-3.0.yaml:45:11: PUT /pets/{name}: header "Authorization" is a credential`,
	} {
		if !strings.Contains(notes, want) {
			t.Errorf("notes lack %q:\n%s", want, notes)
		}
	}

	rm := toolByName(t, api, "remove_pet")
	if a := rm.Annotations; *a.Destructive || *a.ReadOnly || !*a.Idempotent || a.Title != "Remove" {
		t.Errorf("x-mcp hints must override DELETE defaults: %+v", a)
	}
	if strings.Join(rm.Scopes, ",") != "admin" || rm.Output != nil {
		t.Errorf("remove_pet scopes %v output %v", rm.Scopes, rm.Output)
	}

	list := toolByName(t, api, "listPets")
	if a := list.Annotations; !*a.ReadOnly || !*a.Idempotent || *a.Destructive {
		t.Errorf("GET annotations %+v", a)
	}
	// 200 wins over 201.
	if list.Output == nil || list.Output.Type != KindArray || list.Output.Items.Ref != "Pet" {
		t.Errorf("listPets output %+v", list.Output)
	}
	if d := string(prop(t, list.Input, "limit").Schema.Default); d != "10" {
		t.Errorf("limit default %s", d)
	}

	mp := toolByName(t, api, "createPetWithAVeryLongOperationIdForTheRepoConfigOfOrgs")
	photo := prop(t, mp.Input, "photo").Schema
	if photo.Type != KindString || photo.ContentEncoding != "base64" || photo.ContentMediaType != "image/png" || photo.Format != "" {
		t.Errorf("multipart file %+v", photo)
	}
	if mp.Upstream.BodyContentType != "multipart/form-data" || mp.Output != nil {
		t.Errorf("multipart upstream %+v output %v", mp.Upstream, mp.Output)
	}
	if a := mp.Annotations; *a.Idempotent || *a.ReadOnly {
		t.Errorf("POST annotations %+v", a)
	}

	raw := toolByName(t, api, "uploadRaw")
	body := prop(t, raw.Input, "body")
	if !body.Required || body.Schema.ContentEncoding != "base64" || upParam(t, raw, "body").In != "bodyAll" || raw.Output != nil {
		t.Errorf("octet-stream body %+v %+v, output %v", body, body.Schema, raw.Output)
	}

	if len(raw.Upstream.Security) != 0 || len(raw.Scopes) != 0 {
		t.Errorf("security: [] means no credentials: %v %v", raw.Upstream.Security, raw.Scopes)
	}

	form := toolByName(t, api, "formPet")
	if form.Upstream.BodyContentType != "application/x-www-form-urlencoded" || *form.Annotations.OpenWorld {
		t.Errorf("form %+v %+v", form.Upstream, form.Annotations)
	}
	if p := upParam(t, form, "name"); p.In != "body" || p.Style != "form" || !p.Explode {
		t.Errorf("form field defaults to style form, explode: %+v", p)
	}
	if p := upParam(t, form, "shape"); p.Style != "deepObject" || !p.Explode {
		t.Errorf("form field style from the encoding object: %+v", p)
	}
	if form.Output == nil || form.Output.Ref != "IdOrPet" {
		t.Errorf("form output %+v", form.Output)
	}

	// Named types: allOf merged, the cycle Pet.parent → Pet is a $ref.
	pet := typeByName(t, api, "Pet").Schema
	if got := propNames(pet); got != "name,tag,parent,born,id" {
		t.Errorf("Pet properties %s", got)
	}
	if id := prop(t, pet, "id"); id.Required || !id.ReadOnly || id.WriteOnly {
		t.Errorf("readOnly id must be marked and not required in the shared type: %+v", id)
	}
	if p := prop(t, pet, "name"); p.ReadOnly || p.WriteOnly {
		t.Errorf("name is neither readOnly nor writeOnly: %+v", p)
	}
	if !prop(t, pet, "name").Required || !prop(t, pet, "tag").Schema.Nullable || prop(t, pet, "parent").Schema.Ref != "Pet" {
		t.Errorf("Pet %+v", pet)
	}
	if f := prop(t, pet, "born").Schema.Format; f != "date-wacky" {
		t.Errorf("unknown formats are carried: %q", f)
	}
	shape := typeByName(t, api, "Shape").Schema
	if len(shape.OneOf) != 2 || shape.AnyOf || shape.Discriminator == nil || shape.Discriminator.PropertyName != "kind" ||
		shape.Discriminator.Mapping[0] != (DiscriminatorCase{Value: "c", Type: "Circle"}) {
		t.Errorf("Shape %+v %+v", shape, shape.Discriminator)
	}
	r := prop(t, typeByName(t, api, "Circle").Schema, "r").Schema
	if r.ExclusiveMinimum == nil || *r.ExclusiveMinimum != 0 || r.Minimum != nil {
		t.Errorf("3.0 exclusiveMinimum: %+v", r)
	}
	ip := typeByName(t, api, "IdOrPet").Schema
	if !ip.AnyOf || len(ip.OneOf) != 2 || ip.OneOf[0].Type != KindString || ip.OneOf[1].Ref != "Pet" {
		t.Errorf("anyOf %+v", ip)
	}
}

func TestOpenAPISelection(t *testing.T) {
	cases := []struct {
		name string
		cfg  OpenAPIConfig
		want string
	}{
		{"tags", OpenAPIConfig{Include: OpenAPISelector{Tags: []string{"read"}}}, "listPets"},
		{"methods", OpenAPIConfig{Include: OpenAPISelector{Methods: []string{"put", "DELETE"}}}, "pets_update remove_pet"},
		{"path glob within a segment", OpenAPIConfig{Include: OpenAPISelector{Paths: []string{"/pets/*"}}}, "pets_update remove_pet uploadRaw formPet"},
		{"path glob across segments", OpenAPIConfig{Include: OpenAPISelector{Paths: []string{"/**"}}, Exclude: OpenAPISelector{Paths: []string{"/pets/*"}}}, "listPets createPetWithAVeryLongOperationIdForTheRepoConfigOfOrgs odd"},
		{"include dimensions all match", OpenAPIConfig{Include: OpenAPISelector{Paths: []string{"/pets/**"}, Methods: []string{"post"}}}, "uploadRaw formPet"},
		{"exclude any dimension", OpenAPIConfig{Exclude: OpenAPISelector{Methods: []string{"post"}, Operations: []string{"odd"}}}, "pets_update remove_pet listPets"},
		{"operations", OpenAPIConfig{Include: OpenAPISelector{Operations: []string{"odd", "uploadRaw"}}}, "uploadRaw odd"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			api := loadTestOpenAPI(t, "petshop-3.0.yaml", c.cfg)
			var names []string
			for _, tool := range api.Tools {
				names = append(names, tool.Name)
			}
			if got := strings.Join(names, " "); got != c.want {
				t.Errorf("got %s, want %s", got, c.want)
			}
		})
	}
}

func TestOpenAPINameBudget(t *testing.T) {
	api := loadTestOpenAPI(t, "petshop-3.0.yaml", OpenAPIConfig{MaxToolNameLength: 20})
	seen := map[string]bool{}
	for _, tool := range api.Tools {
		if len(tool.Name) > 20 || seen[tool.Name] {
			t.Errorf("name %q over budget or repeated", tool.Name)
		}
		seen[tool.Name] = true
	}
	again := loadTestOpenAPI(t, "petshop-3.0.yaml", OpenAPIConfig{MaxToolNameLength: 20})
	for i := range api.Tools {
		if api.Tools[i].Name != again.Tools[i].Name {
			t.Errorf("names must be stable: %q then %q", api.Tools[i].Name, again.Tools[i].Name)
		}
	}
	// Abbreviation alone cannot fit 20: cut + hash of the full name.
	if got := api.Tools[3].Name; !strings.HasPrefix(got, "createPetWi_") || len(got) != 20 {
		t.Errorf("hashed name %q", got)
	}
	if a, b := shortenName("aaaaaaaaaaaaaaaaaaaaaaaaa_x", 20), shortenName("aaaaaaaaaaaaaaaaaaaaaaaaa_y", 20); a == b {
		t.Errorf("long names sharing a prefix must differ: %q", a)
	}
}

func TestOpenAPI31Schemas(t *testing.T) {
	api := loadTestOpenAPI(t, "shapes-3.1.yaml", OpenAPIConfig{})
	tool := toolByName(t, api, "thing.update")
	in := tool.Input
	// Path id and query id both collide with the body's id.
	if got := propNames(in); got != "id,kind,tuple,nothing,maybe,tree,id_path,id_query" {
		t.Errorf("input %s", got)
	}
	if s := prop(t, in, "id_path").Schema; s.Type != KindString || !s.Nullable {
		t.Errorf(`type [string, "null"] → nullable string: %+v`, s)
	}
	if s := prop(t, in, "id").Schema; len(s.OneOf) != 2 || s.OneOf[0].Type != KindInteger || s.OneOf[1].Type != KindString {
		t.Errorf("type [integer, string] → union: %+v", s)
	}
	if s := prop(t, in, "kind").Schema; string(s.Const) != `"thing"` {
		t.Errorf("const %s", s.Const)
	}
	if s := prop(t, in, "nothing").Schema; s.Type != KindNull {
		t.Errorf("type null: %+v", s)
	}
	if s := prop(t, in, "maybe").Schema; s.Type != KindString || !s.Nullable || len(s.OneOf) != 0 {
		t.Errorf("oneOf [string, null] → nullable string: %+v", s)
	}
	if s := prop(t, in, "tuple").Schema; s.Type != KindArray || s.Items != nil {
		t.Errorf("prefixItems must drop items too (accept more): %+v", s)
	}
	if len(api.Notes) != 1 || !strings.Contains(api.Notes[0].String(), "shapes-3.1.yaml:18:24: prefixItems is not supported") {
		t.Errorf("notes %v", api.Notes)
	}
	if tool.Output == nil || tool.Output.Type != KindString {
		t.Errorf("scalar output %+v", tool.Output)
	}
	// A $ref into $defs names a type; its self-reference is recursion.
	if s := prop(t, in, "tree").Schema; s.Ref != "Tree" {
		t.Errorf("$defs ref %+v", s)
	}
	if kids := prop(t, typeByName(t, api, "Tree").Schema, "kids").Schema; kids.Items == nil || kids.Items.Ref != "Tree" {
		t.Errorf("Tree.kids %+v", kids)
	}
}

func TestSwagger20(t *testing.T) {
	api := loadTestOpenAPI(t, "petstore-2.0.json", OpenAPIConfig{})
	if api.UpstreamURL != "https://pets.example.com/v2" {
		t.Errorf("upstream %q", api.UpstreamURL)
	}
	up := toolByName(t, api, "uploadFile")
	if got := propNames(up.Input); got != "file,note,petId,tags" {
		t.Errorf("input %s (api_key is a credential)", got)
	}
	if f := prop(t, up.Input, "file"); !f.Required || f.Schema.ContentEncoding != "base64" {
		t.Errorf("formData file %+v", f.Schema)
	}
	if p := upParam(t, up, "tags"); p.Style != "form" || !p.Explode {
		t.Errorf("collectionFormat multi → %+v", p)
	}
	// The items' default is theirs, not the array's (libopenapi finds a
	// parameter's "default" in its items too).
	if s := prop(t, up.Input, "tags").Schema; s.Default != nil || string(s.Items.Default) != `"cat"` {
		t.Errorf("tags default %s, items default %s", s.Default, s.Items.Default)
	}
	if s := prop(t, up.Input, "petId").Schema; s.Type != KindInteger || s.Format != "int64" {
		t.Errorf("petId %+v", s)
	}
	if up.Upstream.BodyContentType != "multipart/form-data" || up.Output == nil || up.Output.Ref != "Pet" {
		t.Errorf("upload %+v %+v", up.Upstream, up.Output)
	}
	add := toolByName(t, api, "addPet")
	if got := propNames(add.Input); got != "name,children" || !prop(t, add.Input, "name").Required {
		t.Errorf("body params spread: %s", got)
	}
	if add.Upstream.BodyContentType != "application/json" || add.Output != nil {
		t.Errorf("addPet %+v", add.Upstream)
	}
	if c := prop(t, typeByName(t, api, "Pet").Schema, "children").Schema; c.Items == nil || c.Items.Ref != "Pet" {
		t.Errorf("recursive definition %+v", c)
	}
	if len(api.SecuritySchemes) != 1 || api.SecuritySchemes[0].In != "query" || api.SecuritySchemes[0].ParamName != "api_key" {
		t.Errorf("schemes %+v", api.SecuritySchemes)
	}
}

func TestOpenAPIErrors(t *testing.T) {
	cases := []struct{ file, want string }{
		{"collision.yaml", `collision.yaml:9:5: tool name "repos_get" of GET /b (operationId repos_get) is also the name of GET /a (operationId repos/get) at 5:5`},
		{"remote.yaml", `remote.yaml:11:30: remote $ref "https://example.com/schemas/pet.json" is not allowed`},
	}
	for _, c := range cases {
		_, err := LoadOpenAPI(os.DirFS("../testdata/openapi"), c.file, OpenAPIConfig{})
		var ds Diagnostics
		if !errors.As(err, &ds) {
			t.Fatalf("%s: want Diagnostics, got %v", c.file, err)
		}
		if !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s:\n got %v\nwant %s", c.file, err, c.want)
		}
		// The example value that looks like a remote $ref is data.
		if strings.Contains(err.Error(), "this/is/data") {
			t.Errorf("example values must not be taken for refs: %v", err)
		}
	}
}

// TestOpenAPIRemoteRefMembers: a remote $ref is refused wherever it is a
// reference, also in the schema of a property whose name is spelled like a
// keyword ("properties", "example"); a property called "$ref" is a member,
// and an example value data, whatever they hold.
func TestOpenAPIRemoteRefMembers(t *testing.T) {
	const remote = `"https://example.com/pet.json"`
	for _, c := range []struct {
		name, props string
		refused     bool
		schemas     string // components.schemas
	}{
		{"property", `pet: {$ref: ` + remote + `}`, true, ""},
		{"property called properties", `properties: {$ref: ` + remote + `}`, true, ""},
		{"property called example", `example: {$ref: ` + remote + `}`, true, ""},
		{"nested under a property called properties", `properties: {type: object, properties: {pet: {$ref: ` + remote + `}}}`, true, ""},
		{"property called $ref", `$ref: {type: string}`, false, ""},
		{"example of a property called properties", `properties: {type: object, example: {$ref: ` + remote + `}}`, false, ""},
		{"component schema called example", `pet: {$ref: "#/components/schemas/example"}`, true, `example: {$ref: ` + remote + `}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			doc := "openapi: 3.0.3\ninfo: {title: t, version: \"1\"}\npaths:\n  /a:\n    get:\n      operationId: getA\n      responses:\n        \"200\":\n          description: ok\n          content:\n            application/json:\n              schema: {type: object, properties: {" + c.props + "}}\ncomponents: {schemas: {" + c.schemas + "}}\n"
			_, err := LoadOpenAPI(fstest.MapFS{"a.yaml": {Data: []byte(doc)}}, "a.yaml", OpenAPIConfig{})
			refused := err != nil && strings.Contains(err.Error(), `remote $ref "https://example.com/pet.json" is not allowed`)
			if refused != c.refused {
				t.Errorf("error %v; want the remote $ref refused: %v", err, c.refused)
			}
		})
	}
}

func TestOpenAPIRelativeFileRef(t *testing.T) {
	api := loadTestOpenAPI(t, "split/main.yaml", OpenAPIConfig{})
	tool := toolByName(t, api, "getA")
	if tool.Output == nil || tool.Output.Ref != "Thing" {
		t.Fatalf("output %+v", tool.Output)
	}
	if got := propNames(typeByName(t, api, "Thing").Schema); got != "name" {
		t.Errorf("Thing %s", got)
	}
}

func TestLoadTakesOpenAPI(t *testing.T) {
	fsys := os.DirFS("../testdata/openapi")
	// A document given directly.
	api, err := Load(fsys, "petstore-2.0.json")
	if err != nil {
		t.Fatal(err)
	}
	if len(api.Tools) != 2 || api.Server.Name != "Swagger_Pets" || api.Generate.Dir != "." {
		t.Errorf("direct document: %d tools, server %+v, generate %+v", len(api.Tools), api.Server, api.Generate)
	}
	if api.MaxSchemaBytes != DefaultMaxSchemaBytes {
		t.Errorf("direct document: schema budget %d, want the default %d", api.MaxSchemaBytes, DefaultMaxSchemaBytes)
	}
	// An mcpgen.yaml with an openapi: section: selection, budget and
	// overrides apply.
	api, err = Load(fsys, "wrapped/mcpgen.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if len(api.Tools) != 1 || api.Tools[0].Name != "listPets" {
		t.Errorf("wrapped tools %v", api.Tools)
	}
	if api.MaxSchemaBytes != 4096 {
		t.Errorf("wrapped: schema budget %d, want the config's 4096", api.MaxSchemaBytes)
	}
	if sf, err := Load(fsys, "wrapped/surface-ok.yaml"); err != nil {
		t.Error(err)
	} else if want := (Surface{DefaultToolsets: []string{"pets"}, OmitOutputSchemas: true, FieldSelection: true,
		Glossary: []GlossaryTerm{{Term: "pets", Phrases: []string{"animals", "companions"}, Pos: Pos{File: "wrapped/surface-ok.yaml", Line: 9, Col: 5}}},
		Pos:      Pos{File: "wrapped/surface-ok.yaml", Line: 4, Col: 1}}); !reflect.DeepEqual(sf.Surface, want) {
		t.Errorf("surface: %+v, want %+v", sf.Surface, want)
	}
	if unbounded, _ := LoadOpenAPI(fsys, "petstore-2.0.json", OpenAPIConfig{MaxSchemaBytes: -1}); unbounded == nil || unbounded.MaxSchemaBytes != 0 {
		t.Errorf("maxSchemaBytes -1 must mean no budget, got %+v", unbounded)
	}
	if api.Server.Name != "pets" || api.Server.Version != "9.9.9" || api.Server.Instructions != "Use the pet tools." || api.Server.Title != "Pet Shop" {
		t.Errorf("server %+v", api.Server)
	}
	if api.Generate.Package != "petsmcp" || api.Generate.Dir != "gen" || api.File != "wrapped/mcpgen.yaml" {
		t.Errorf("generate %+v file %s", api.Generate, api.File)
	}
	for _, c := range []struct{ file, want string }{
		{"wrapped/bad.yaml", `wrapped/bad.yaml:5:1: invalid config: unknown key "includes"`},
		{"wrapped/tools.yaml", "wrapped/tools.yaml:4:1: tools: not supported beside openapi:"},
		{"wrapped/surface.yaml", `wrapped/surface.yaml:4:1: surface: defaultToolsets: unknown toolset "store"; the toolsets are "pets"`},
		{"wrapped/glossary.yaml", "wrapped/glossary.yaml:6:11: surface: glossary: pets: expected a list of strings, got a string\n" +
			`wrapped/glossary.yaml:7:5: surface: glossary: term "a b c d": want 1 to 3 words, got 4`},
	} {
		_, err := Load(fsys, c.file)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want %s", c.file, err, c.want)
		}
	}
}

// A document whose $refs all stay inside it must not make the loader index
// its directory: beside GitHub's 1.1.4 description lies the 13 MB full one,
// and a property named "$ref" (an object, in GitHub's SCIM schemas) once
// made loading 1.1.4 parse both.
func TestHasFileRefs(t *testing.T) {
	cases := []struct {
		doc  string
		want bool
	}{
		{`{"$ref": "#/components/schemas/A"}`, false},
		{`{"$ref": "https://example.com/a.json"}`, false},
		{`{"properties": {"$ref": {"type": "string"}}}`, false},
		{`{"properties": {"$ref": ["x"]}}`, false},
		{`{"$ref": "common.yaml#/A"}`, true},
		{"a:\n  $ref: ./b.yaml\n", true},
		{"a:\n  $ref: '#/b'\n", false},
		{"a:\n  '$ref': 'other.json'\n", true},
	}
	for _, c := range cases {
		if got := hasFileRefs([]byte(c.doc)); got != c.want {
			t.Errorf("hasFileRefs(%s) = %v, want %v", c.doc, got, c.want)
		}
	}
}

// A default that fills itself in again without end would overflow the
// generated decoder's stack; a vendor's document is not ours to fix, so
// the default is dropped with a note and the rest is generated.
func TestOpenAPIEndlessDefaultDropped(t *testing.T) {
	doc := `{"openapi": "3.1.0", "info": {"title": "t", "version": "1"},
  "paths": {"/nodes": {"post": {"operationId": "addNode",
    "requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Node"}}}},
    "responses": {"204": {"description": "ok"}}}}},
  "components": {"schemas": {"Node": {"type": "object", "default": {"name": "kid"}, "properties": {
    "name": {"type": "string", "default": "root"},
    "child": {"$ref": "#/components/schemas/Node"}}}}}}`
	fsys := fstest.MapFS{"api.json": {Data: []byte(doc)}}
	api, err := LoadOpenAPI(fsys, "api.json", OpenAPIConfig{})
	if err != nil {
		t.Fatal(err)
	}
	var notes []string
	for _, n := range api.Notes {
		notes = append(notes, n.String())
	}
	want := `api.json:7:14: property "child": filling in the default of its type "Node" fills the same default in again without end (Node.child -> Node.child), so decoding would never finish; give the default a value for the property that repeats, or drop one of the defaults; the default is dropped`
	if !slices.Contains(notes, want) {
		t.Errorf("notes:\n%s\nwant among them:\n%s", strings.Join(notes, "\n"), want)
	}
	if endless, _ := endlessDefaults(api); len(endless) != 0 {
		t.Error("the endless default is still there")
	}
	for _, nt := range api.Types {
		for _, p := range nt.Schema.Properties {
			if p.Name == "name" && string(p.Schema.Default) != `"root"` {
				t.Errorf("Node.name lost its default: %s", p.Schema.Default)
			}
		}
	}
}

// In OpenAPI 3.1 the annotations beside a $ref apply (JSON Schema 2020-12);
// 3.0 says to ignore them.
func TestOpenAPIRefSiblings(t *testing.T) {
	for _, c := range []struct {
		version string
		kept    bool
	}{{"3.1.0", true}, {"3.0.3", false}} {
		doc := `{"openapi": "` + c.version + `", "info": {"title": "t", "version": "1"},
  "paths": {"/items": {"post": {"operationId": "addItem",
    "requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Item"}}}},
    "responses": {"204": {"description": "ok"}}}}},
  "components": {"schemas": {
    "Status": {"type": "string", "enum": ["active", "archived"]},
    "Item": {"type": "object", "properties": {
      "status": {"$ref": "#/components/schemas/Status", "default": "active",
        "description": "Where the item is.", "examples": ["archived"], "deprecated": true}}}}}}`
		api, err := LoadOpenAPI(fstest.MapFS{"api.json": {Data: []byte(doc)}}, "api.json", OpenAPIConfig{})
		if err != nil {
			t.Fatal(err)
		}
		var status *Schema
		for _, nt := range api.Types {
			for _, p := range nt.Schema.Properties {
				if nt.Name == "Item" && p.Name == "status" {
					status = p.Schema
				}
			}
		}
		for _, tl := range api.Tools {
			for _, p := range tl.Input.Properties {
				if p.Name == "status" && status == nil {
					status = p.Schema
				}
			}
		}
		if status == nil || status.Ref != "Status" {
			t.Fatalf("%s: Item.status is %+v, want a reference to Status", c.version, status)
		}
		got := fmt.Sprintf("default=%s description=%q examples=%d deprecated=%v",
			status.Default, status.Description, len(status.Examples), status.Deprecated)
		want := `default= description="" examples=0 deprecated=false`
		if c.kept {
			want = `default="active" description="Where the item is." examples=1 deprecated=true`
		}
		if got != want {
			t.Errorf("%s: Item.status has %s, want %s", c.version, got, want)
		}
	}
}

func TestToolsetName(t *testing.T) {
	for in, want := range map[string]string{
		"repos": "repos", "Pull Requests": "pull_requests", "code-scanning": "code_scanning",
		"  ": "", "v2/Billing": "v2_billing", "__x__": "x",
	} {
		if got := ToolsetName(in); got != want {
			t.Errorf("ToolsetName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestPathToolset(t *testing.T) {
	for in, want := range map[string]string{
		"/v1/customers/{customer}": "customers", "/api/v2/items": "items", "/{id}": "", "/": "",
		"/pets": "pets", "/2023-10-16/test-clocks": "test_clocks", "/v2beta/Billing.Alerts": "billing_alerts",
	} {
		if got := pathToolset(in); got != want {
			t.Errorf("pathToolset(%q) = %q, want %q", in, got, want)
		}
	}
}
