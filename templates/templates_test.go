package templates

import (
	"go/parser"
	"go/token"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/mcpgen-dev/mcpgen/spec"
)

func sample() Starter {
	return Starter{
		ServerName: "hello",
		GenDir:     "mcpserver",
		GenPackage: "mcpserver",
		GenImport:  "example.com/hello/mcpserver",
		SpecPath:   "mcpgen.yaml",
	}
}

func TestNamesAreTheStarterFiles(t *testing.T) {
	want := []string{"generate.go", "main.go", "mcpgen.yaml", "service.go"}
	if got := Names(); !slices.Equal(got, want) {
		t.Fatalf("Names() = %q, want %q", got, want)
	}
}

// Every Go starter must parse, be package main and import the generated
// package under the path init computed, or the user's first build fails.
func TestGoStartersImportTheGeneratedPackage(t *testing.T) {
	for _, name := range []string{"service.go", "main.go"} {
		t.Run(name, func(t *testing.T) {
			src, err := Render(name, sample())
			if err != nil {
				t.Fatal(err)
			}
			f, err := parser.ParseFile(token.NewFileSet(), name, src, parser.ImportsOnly)
			if err != nil {
				t.Fatalf("%v\n%s", err, src)
			}
			if f.Name.Name != "main" {
				t.Errorf("package %s, want main", f.Name.Name)
			}
			var imports []string
			for _, imp := range f.Imports {
				p, _ := strconv.Unquote(imp.Path.Value)
				imports = append(imports, p)
			}
			if !slices.Contains(imports, "example.com/hello/mcpserver") {
				t.Errorf("imports %q, missing the generated package", imports)
			}
		})
	}
}

func TestGenerateDirectiveNamesTheSpec(t *testing.T) {
	d := sample()
	d.SpecPath = "../api/mcpgen.yaml"
	src, err := Render("generate.go", d)
	if err != nil {
		t.Fatal(err)
	}
	want := "\n//go:generate go tool mcpgen generate -f ../api/mcpgen.yaml\n"
	if !strings.Contains(string(src), want) {
		t.Errorf("generate.go lacks %q:\n%s", want, src)
	}
}

func TestSpecStarterUsesTheOutputSettings(t *testing.T) {
	d := sample()
	d.GenDir = "internal/mcp"
	d.GenPackage = "mcp"
	src, err := Render("mcpgen.yaml", d)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"\n  package: mcp\n", "\n  dir: internal/mcp\n", "\n  name: hello\n"} {
		if !strings.Contains(string(src), want) {
			t.Errorf("mcpgen.yaml lacks %q:\n%s", want, src)
		}
	}
}

func TestRenderErrors(t *testing.T) {
	if _, err := Render("nosuch.go", sample()); err == nil {
		t.Error("unknown template: no error")
	}
	// Data without the fields the templates use must fail loudly instead of
	// writing "<no value>" into a user's file.
	if _, err := Render("service.go", struct{}{}); err == nil {
		t.Error("missing fields: no error")
	}
	if _, err := Render("mcpgen.yaml", map[string]string{}); err == nil {
		t.Error("missing map keys: no error")
	}
}

// The starter spec must load without diagnostics, or `mcpgen init` would
// greet every new user with errors.
func TestSpecStarterLoads(t *testing.T) {
	src, err := Render("mcpgen.yaml", sample())
	if err != nil {
		t.Fatal(err)
	}
	api, err := spec.Load(fstest.MapFS{"mcpgen.yaml": {Data: src}}, "mcpgen.yaml")
	if err != nil {
		t.Fatalf("starter spec does not load:\n%v\n%s", err, src)
	}
	if len(api.Tools) != 1 || len(api.Resources) != 1 || len(api.Prompts) != 1 {
		t.Errorf("starter has %d tools, %d resources, %d prompts; want one of each", len(api.Tools), len(api.Resources), len(api.Prompts))
	}
	if api.Generate.Dir != "mcpserver" || api.Generate.Package != "mcpserver" || api.Server.Name != "hello" {
		t.Errorf("generate %+v, server name %q", api.Generate, api.Server.Name)
	}
}

// The --openapi starters: main.go imports the generated package and uses
// its upstream API; the config names the document and loads as an OpenAPI
// config (the loader reports the missing document, not the config's shape).
func TestOpenAPIStarters(t *testing.T) {
	d := OpenAPIStarter{Starter: sample(), DocPath: "../api/pets.yaml"}
	if got, want := OpenAPINames(), []string{"main.go", "mcpgen.yaml"}; !slices.Equal(got, want) {
		t.Fatalf("OpenAPINames() = %q, want %q", got, want)
	}
	src, err := RenderOpenAPI("main.go", d)
	if err != nil {
		t.Fatal(err)
	}
	f, err := parser.ParseFile(token.NewFileSet(), "main.go", src, parser.ImportsOnly)
	if err != nil {
		t.Fatalf("%v\n%s", err, src)
	}
	found := false
	for _, imp := range f.Imports {
		found = found || imp.Path.Value == `"example.com/hello/mcpserver"`
	}
	for _, want := range []string{"mcpserver.NewUpstream(", "mcpserver.UpstreamURL", "mcpserver.UpstreamCredentialsFromEnv()", `flag.String("upstream"`, `flag.String("http"`} {
		if !strings.Contains(string(src), want) {
			t.Errorf("main.go lacks %q", want)
		}
	}
	if f.Name.Name != "main" || !found {
		t.Errorf("package %s, imports the generated package: %v", f.Name.Name, found)
	}
	cfg, err := RenderOpenAPI("mcpgen.yaml", d)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"\n  file: ../api/pets.yaml\n", "\n  package: mcpserver\n", "\n  dir: mcpserver\n"} {
		if !strings.Contains(string(cfg), want) {
			t.Errorf("mcpgen.yaml lacks %q:\n%s", want, cfg)
		}
	}
}
