// Package templates holds the starter files that `mcpgen init` creates once
// and the user owns from then on: a small mcpgen.yaml, service.go, main.go and
// generate.go. Regenerated code never comes from here; it is emitted by the
// generator package.
package templates

import (
	"bytes"
	"embed"
	"fmt"
	"go/format"
	"io/fs"
	"path"
	"strings"
	"text/template"
)

//go:embed starter/*.tmpl openapi/*.tmpl
var starterFS embed.FS

// OpenAPIStarter is the data the starters of `mcpgen init --openapi` (a
// server wrapping a REST API) are rendered with.
type OpenAPIStarter struct {
	Starter
	// DocPath is the OpenAPI or Swagger document as a slash path relative
	// to the spec file's directory.
	DocPath string
}

// OpenAPINames lists the starter templates of `mcpgen init --openapi`.
func OpenAPINames() []string { return names("openapi") }

// RenderOpenAPI is Render for the starters of `mcpgen init --openapi`.
func RenderOpenAPI(name string, data OpenAPIStarter) ([]byte, error) {
	return render("openapi", name, data)
}

// Starter is the data every starter template is rendered with.
type Starter struct {
	// ServerName is the MCP server name written into mcpgen.yaml.
	ServerName string
	// GenDir is the output directory of the generated package, as a slash
	// path relative to the spec file's directory.
	GenDir string
	// GenPackage is the Go package name of the generated code.
	GenPackage string
	// GenImport is the import path of the generated package.
	GenImport string
	// SpecPath is the spec file as a slash path relative to the directory of
	// the hand-written files; go:generate runs there.
	SpecPath string
}

// Names lists the starter templates, sorted: the file names they produce.
func Names() []string { return names("starter") }

func names(dir string) []string {
	entries, err := fs.ReadDir(starterFS, dir)
	if err != nil {
		// The directory is embedded at build time, so this cannot happen.
		panic(err)
	}
	names := make([]string, 0, len(entries))
	for _, e := range entries {
		names = append(names, strings.TrimSuffix(e.Name(), ".tmpl"))
	}
	return names
}

// Render executes the starter template that produces the file called name
// (for example "service.go") with data. Go files are gofmt-formatted, so a
// template mistake shows up as an error here rather than as a file the user
// has to fix.
func Render(name string, data any) ([]byte, error) {
	return render("starter", name, data)
}

func render(dir, name string, data any) ([]byte, error) {
	src, err := starterFS.ReadFile(path.Join(dir, name+".tmpl"))
	if err != nil {
		return nil, fmt.Errorf("no starter template %q", name)
	}
	t, err := template.New(name).Option("missingkey=error").Parse(string(src))
	if err != nil {
		return nil, fmt.Errorf("template %s: %w", name, err)
	}
	var buf bytes.Buffer
	if err := t.Execute(&buf, data); err != nil {
		return nil, fmt.Errorf("template %s: %w", name, err)
	}
	if !strings.HasSuffix(name, ".go") {
		return buf.Bytes(), nil
	}
	out, err := format.Source(buf.Bytes())
	if err != nil {
		return nil, fmt.Errorf("template %s: rendered Go does not parse: %w", name, err)
	}
	return out, nil
}
