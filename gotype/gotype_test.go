package gotype

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpgen-dev/mcpgen/spec"
)

// module writes a Go module (example.com/app) with the given files into a
// temporary directory and returns it.
func module(t *testing.T, files map[string]string) string {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	dir := t.TempDir()
	files["go.mod"] = "module example.com/app\n\ngo 1.26\n"
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// toolAPI is a spec with one tool whose input and output name Go types.
func toolAPI(in, out string) *spec.API {
	api := &spec.API{File: "mcpgen.yaml", Generate: spec.GenerateConfig{Dir: "mcpserver", Package: "mcpserver"}}
	t := &spec.Tool{Name: "t", Input: &spec.Schema{Type: spec.KindObject, GoType: in, GoPos: spec.Pos{File: "mcpgen.yaml", Line: 3, Col: 5}}}
	if out != "" {
		t.Output = &spec.Schema{GoType: out, GoPos: spec.Pos{File: "mcpgen.yaml", Line: 4, Col: 5}}
	}
	api.Tools = []*spec.Tool{t}
	return api
}

func prop(t *testing.T, s *spec.Schema, name string) *spec.Property {
	t.Helper()
	for _, p := range s.Properties {
		if p.Name == name {
			return p
		}
	}
	var names []string
	for _, p := range s.Properties {
		names = append(names, p.Name)
	}
	t.Fatalf("no property %q among %v", name, names)
	return nil
}

const orderGo = `// Package model is the domain.
package model

import "time"

// Status is where an order is.
type Status string

// Order is a customer's order.
//
// It has lines.
type Order struct {
	// ID identifies the order.
	ID       string            ` + "`" + `json:"id" jsonschema:"minLength=1,maxLength=20,pattern=^A[0-9]{1\\,3}$,title=Order ID"` + "`" + `
	Status   Status            ` + "`" + `json:"status" jsonschema:"enum=PENDING,enum=SHIPPED,default=PENDING"` + "`" + `
	Small    int8              ` + "`" + `json:"small"` + "`" + `
	Count    uint              ` + "`" + `json:"count,omitempty" jsonschema:"maximum=9"` + "`" + `
	Price    float64           ` + "`" + `json:"price" jsonschema:"exclusiveMinimum=0,multipleOf=0.01"` + "`" + `
	Note     *string           ` + "`" + `json:"note"` + "`" + `
	Forced   *string           ` + "`" + `json:"forced" jsonschema:"required"` + "`" + `
	Tags     []string          ` + "`" + `json:"tags,omitzero" jsonschema:"maxItems=3,uniqueItems,enum=a,enum=b"` + "`" + `
	At       time.Time         ` + "`" + `json:"at"` + "`" + `
	Lines    []*Line           ` + "`" + `json:"lines"` + "`" + `
	Parent   *Order            ` + "`" + `json:"parent,omitempty"` + "`" + `
	Meta     map[string]string ` + "`" + `json:"meta,omitempty"` + "`" + `
	Flag     bool              // Flag is a line comment.
	Base
	*Extra   ` + "`" + `json:"extra,omitempty"` + "`" + `
	hidden   int
	Skipped  string ` + "`" + `json:"-"` + "`" + `
}

// Base is embedded.
type Base struct {
	By string ` + "`" + `json:"by,omitempty"` + "`" + `
	ID int    // shadowed by Order.ID
}

// Extra is embedded with a JSON name, so it is a property.
type Extra struct {
	X int ` + "`" + `json:"x"` + "`" + `
}

// Line is one line.
type Line struct {
	SKU string ` + "`" + `json:"sku"` + "`" + `
}
`

func TestResolveShapes(t *testing.T) {
	dir := module(t, map[string]string{"model/order.go": orderGo, "mcpserver/doc.go": "package mcpserver\n"})
	api := toolAPI("example.com/app/model.Line", "example.com/app/model.Order")
	if err := Resolve(api, dir); err != nil {
		t.Fatal(err)
	}
	out := api.Tools[0].Output
	if out.Type != spec.KindObject || out.GoType != "example.com/app/model.Order" {
		t.Fatalf("output: type %q GoType %q", out.Type, out.GoType)
	}
	if out.Description != "Order is a customer's order.\n\nIt has lines." {
		t.Errorf("type doc: %q", out.Description)
	}
	var names []string
	for _, p := range out.Properties {
		names = append(names, p.Name)
	}
	// Declaration order; embedded Base flattened in place (its ID is the
	// JSON name "ID", not "id"); unexported and json:"-" fields skipped.
	if got, want := strings.Join(names, " "), "id status small count price note forced tags at lines parent meta Flag by ID extra"; got != want {
		t.Errorf("properties:\n got %s\nwant %s", got, want)
	}

	id := prop(t, out, "id")
	if !id.Required || id.GoName != "ID" || id.Schema.Description != "ID identifies the order." || id.Schema.Title != "Order ID" ||
		*id.Schema.MinLength != 1 || *id.Schema.MaxLength != 20 || id.Schema.Pattern != "^A[0-9]{1,3}$" {
		t.Errorf("id: %+v %+v", id, id.Schema)
	}
	st := prop(t, out, "status").Schema
	if st.GoType != "example.com/app/model.Status" || len(st.Enum) != 2 || string(st.Enum[1]) != `"SHIPPED"` || string(st.Default) != `"PENDING"` {
		t.Errorf("status: %+v", st)
	}
	small := prop(t, out, "small").Schema
	if small.Type != spec.KindInteger || *small.Minimum != -128 || *small.Maximum != 127 || small.GoType != "int8" {
		t.Errorf("int8: %+v", small)
	}
	count := prop(t, out, "count")
	if count.Required || *count.Schema.Minimum != 0 || *count.Schema.Maximum != 9 {
		t.Errorf("uint omitempty: %+v %+v", count, count.Schema)
	}
	price := prop(t, out, "price").Schema
	if price.Type != spec.KindNumber || *price.ExclusiveMinimum != 0 || *price.MultipleOf != 0.01 {
		t.Errorf("price: %+v", price)
	}
	if note := prop(t, out, "note"); note.Required || note.Schema.GoType != "*string" {
		t.Errorf("pointer is optional: %+v %+v", note, note.Schema)
	}
	if !prop(t, out, "forced").Required {
		t.Errorf("jsonschema:\"required\" makes a pointer required")
	}
	tags := prop(t, out, "tags")
	if tags.Required || tags.Schema.Type != spec.KindArray || *tags.Schema.MaxItems != 3 || !tags.Schema.UniqueItems ||
		len(tags.Schema.Items.Enum) != 2 || tags.Schema.GoType != "[]string" {
		t.Errorf("tags (item keywords go to the items): %+v %+v", tags, tags.Schema.Items)
	}
	if at := prop(t, out, "at").Schema; at.Type != spec.KindString || at.Format != "date-time" || at.GoType != "time.Time" {
		t.Errorf("time.Time: %+v", at)
	}
	lines := prop(t, out, "lines").Schema
	if lines.GoType != "[]*example.com/app/model.Line" || lines.Items.Ref == "" {
		t.Errorf("lines: %+v items %+v", lines, lines.Items)
	}
	parent := prop(t, out, "parent").Schema
	if parent.Ref == "" || parent.GoType != "*example.com/app/model.Order" {
		t.Errorf("recursion goes through a named type: %+v", parent)
	}
	if m := prop(t, out, "meta").Schema; m.Type != spec.KindObject || !m.AllowAdditional || m.AdditionalProperties.Type != spec.KindString {
		t.Errorf("map: %+v", m)
	}
	if f := prop(t, out, "Flag"); f.Schema.Description != "Flag is a line comment." || f.GoName != "Flag" {
		t.Errorf("untagged field: %+v %+v", f, f.Schema)
	}
	if by := prop(t, out, "by"); by.GoName != "Base.By" || by.Required {
		t.Errorf("promoted field: %+v", by)
	}
	// Go would resolve v.ID to Order.ID: the path keeps Base's own field.
	if id2 := prop(t, out, "ID"); id2.GoName != "Base.ID" {
		t.Errorf("shadowed promoted field: %+v", id2)
	}
	named := map[string]*spec.NamedType{}
	for _, nt := range api.Types {
		named[nt.Name] = nt
	}
	if named[parent.Ref] == nil || named[parent.Ref].Schema.GoType != "example.com/app/model.Order" {
		t.Errorf("named types: %v", named)
	}
	if line := named[lines.Items.Ref]; line == nil || line.Schema.Description != "Line is one line." || len(line.Schema.Properties) != 1 {
		t.Errorf("Line: %+v", line)
	}
	// The tool input names Line too, inline.
	if in := api.Tools[0].Input; len(in.Properties) != 1 || in.Properties[0].Name != "sku" {
		t.Errorf("input: %+v", in)
	}
	// The whole derived schema is valid for the JSON Schema builder.
	if _, err := json.Marshal(out); err != nil {
		t.Fatal(err)
	}
}

func TestResolveErrors(t *testing.T) {
	dir := module(t, map[string]string{
		"model/bad.go": `package model

type Bad struct {
	C  chan int          ` + "`json:\"c\"`" + `
	F  func()            ` + "`json:\"f\"`" + `
	I  interface{ M() }  ` + "`json:\"i\"`" + `
	K  map[int]string    ` + "`json:\"k\"`" + `
	Z  complex128        ` + "`json:\"z\"`" + `
	T  string            ` + "`json:\"t\" jsonschema:\"minimum=1\"`" + `
	U  string            ` + "`json:\"u\" jsonschema:\"bogus=1\"`" + `
	P  string            ` + "`json:\"p\" jsonschema:\"pattern=^a{4,}$\"`" + `
	OK string            ` + "`json:\"ok\"`" + `
}

type NotStruct string
`,
		"mcpserver/doc.go": "package mcpserver\n",
	})
	api := toolAPI("Missing", "example.com/app/model.Bad")
	api.Types = []*spec.NamedType{{Name: "N", Schema: &spec.Schema{GoType: "example.com/app/model.NotStruct", GoPos: spec.Pos{File: "mcpgen.yaml", Line: 9, Col: 3}}}}
	err := Resolve(api, dir)
	ds, ok := err.(spec.Diagnostics)
	if !ok {
		t.Fatalf("want diagnostics, got %v", err)
	}
	got := ds.Error()
	for _, want := range []string{
		"mcpgen.yaml:3:5: go Missing: the package generated into (mcpserver) has no type Missing",
		"mcpgen.yaml:4:5: go example.com/app/model.Bad: field Bad.C (model/bad.go:4:2): type chan int has no JSON Schema",
		"mcpgen.yaml:4:5: go example.com/app/model.Bad: field Bad.F (model/bad.go:5:2): type func() has no JSON Schema",
		"field Bad.I (model/bad.go:6:2): interface type interface{M()} has no JSON Schema",
		"field Bad.K (model/bad.go:7:2): map key type int is not supported",
		"field Bad.Z (model/bad.go:8:2): type complex128 has no JSON Schema",
		"field Bad.T (model/bad.go:9:2): jsonschema minimum=1: does not apply to a value of Go type string",
		"field Bad.U (model/bad.go:10:2): unknown jsonschema keyword \"bogus\"",
		`field Bad.P (model/bad.go:11:2): jsonschema tag: "}$" is not a keyword: a comma ends a value, so "pattern=^a{4" stopped before it`,
		"mcpgen.yaml:9:3: go example.com/app/model.NotStruct (model/bad.go:15:6): must name a struct type",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in:\n%s", want, got)
		}
	}
	if strings.Contains(got, "Bad.OK") {
		t.Errorf("a supported field is reported:\n%s", got)
	}
}

// A type of the package generated into is found even when that package's
// generated files are stale: here they declare the same type and refer to
// things that no longer exist, and a hand-written file uses generated code.
func TestResolveLocalWithStaleGeneratedFiles(t *testing.T) {
	dir := module(t, map[string]string{
		"mcpserver/query.go": `package mcpserver

// Query asks.
type Query struct {
	Q string ` + "`json:\"q\" jsonschema:\"maxLength=5\"`" + `
}
`,
		"mcpserver/service.go":            "package mcpserver\n\nvar _ Handler = UnimplementedHandler{}\n",
		"mcpserver/mcpgen_types_gen.go":   "// Code generated by mcpgen. DO NOT EDIT.\n\npackage mcpserver\n\ntype Query struct{ Old int }\n\nvar _ = gone\n",
		"mcpserver/mcpgen_handler_gen.go": "// Code generated by mcpgen. DO NOT EDIT.\n\npackage mcpserver\n\ntype Handler interface{ X(Query) }\n",
	})
	api := toolAPI("Query", "")
	if err := Resolve(api, dir); err != nil {
		t.Fatal(err)
	}
	in := api.Tools[0].Input
	if in.GoType != "Query" || len(in.Properties) != 1 || in.Properties[0].Name != "q" || *in.Properties[0].Schema.MaxLength != 5 {
		t.Errorf("input: %+v", in)
	}
}

// Without go: keys nothing is loaded (and nothing needs a Go toolchain).
func TestResolveNothing(t *testing.T) {
	api := &spec.API{Tools: []*spec.Tool{{Name: "t", Input: &spec.Schema{Type: spec.KindObject}}}}
	if err := Resolve(api, "/nonexistent"); err != nil {
		t.Fatal(err)
	}
}

// An unknown type gets the closest exported types as suggestions; a type in
// a package that imports the generated package (the Handler's, typically)
// is an import cycle, reported at the go: key with where the type may live.
func TestResolveDidYouMeanAndImportCycle(t *testing.T) {
	dir := module(t, map[string]string{
		"model/model.go": "package model\n\ntype Ticket struct{ ID string `json:\"id\"` }\n\ntype Tickets struct{ N int `json:\"n\"` }\n\ntype Agent struct{}\n",
		"service/service.go": `package service

import "example.com/app/mcpserver"

// CreateInput is the input of create, declared beside the Handler.
type CreateInput struct{ Title string ` + "`json:\"title\"`" + ` }

var _ = mcpserver.Marker
`,
		"mcpserver/doc.go": "package mcpserver\n\nconst Marker = 1\n\ntype TicketInput struct{}\n",
	})
	api := toolAPI("TiketInput", "example.com/app/model.Tiket")
	api.Types = []*spec.NamedType{
		{Name: "C", Schema: &spec.Schema{GoType: "example.com/app/service.CreateInput", GoPos: spec.Pos{File: "mcpgen.yaml", Line: 9, Col: 3}}},
		{Name: "X", Schema: &spec.Schema{GoType: "example.com/app/model.Zebra", GoPos: spec.Pos{File: "mcpgen.yaml", Line: 10, Col: 3}}},
	}
	err := Resolve(api, dir)
	ds, ok := err.(spec.Diagnostics)
	if !ok {
		t.Fatalf("want diagnostics, got %v", err)
	}
	got := ds.Error()
	for _, want := range []string{
		"mcpgen.yaml:3:5: go TiketInput: the package generated into (mcpserver) has no type TiketInput; did you mean TicketInput?",
		"mcpgen.yaml:4:5: go example.com/app/model.Tiket: package example.com/app/model has no type Tiket; did you mean Ticket?",
		"mcpgen.yaml:9:3: go example.com/app/service.CreateInput: package example.com/app/service imports the generated package example.com/app/mcpserver, which would import it back (an import cycle): move CreateInput to a package that does not import example.com/app/mcpserver",
		"mcpgen.yaml:10:3: go example.com/app/model.Zebra: package example.com/app/model has no type Zebra\n",
	} {
		if !strings.Contains(got+"\n", want) {
			t.Errorf("missing %q in:\n%s", want, got)
		}
	}
}

// A comma inside a tag value ends it early; the error says how to escape it.
func TestResolveTagComma(t *testing.T) {
	dir := module(t, map[string]string{
		"model/model.go":   "package model\n\ntype In struct {\n\tCode string `json:\"code\" jsonschema:\"pattern=^a{4,}$\"`\n\tOK string `json:\"ok\" jsonschema:\"pattern=^b{4\\\\,}$\"`\n}\n",
		"mcpserver/doc.go": "package mcpserver\n",
	})
	err := Resolve(toolAPI("example.com/app/model.In", ""), dir)
	ds, ok := err.(spec.Diagnostics)
	if !ok || len(ds) != 1 {
		t.Fatalf("want one diagnostic, got %v", err)
	}
	want := `mcpgen.yaml:3:5: go example.com/app/model.In: field In.Code (model/model.go:4:2): jsonschema tag: "}$" is not a keyword: a comma ends a value, so "pattern=^a{4" stopped before it; escape a comma inside a value with a backslash, written \\, inside the tag's quotes in Go source (pattern=^a{4\\,}$)`
	if ds.Error() != want {
		t.Errorf("got  %s\nwant %s", ds.Error(), want)
	}
}
