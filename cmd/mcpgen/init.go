package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/mcpgen-dev/mcpgen/templates"
)

// genPackage is the package, and directory under --dir, that init sets up
// for generated code, keeping it apart from the user's own files.
const genPackage = "mcpserver"

// toolPath is what a user's go.mod names in its tool directive.
const toolPath = modulePath + "/cmd/mcpgen"

func (c *cli) initCmd(args []string) error {
	fs := c.newFlags("init", "mcpgen init [-f mcpgen.yaml] [--dir DIR] [--openapi FILE]")
	specFlag := fs.String("f", "", "where to create the spec `file` (default DIR/mcpgen.yaml)")
	dir := fs.String("dir", ".", "the `directory` of the hand-written files (package main); generated code goes to DIR/"+genPackage)
	openAPI := fs.String("openapi", "", "wrap the REST API this OpenAPI 3.x or Swagger 2.0 `file` describes: the config names it and main.go serves the generated client as an MCP server")
	if err := parse(fs, args); err != nil {
		return err
	}
	specPath := *specFlag
	if specPath == "" {
		specPath = filepath.Join(*dir, defaultSpec)
	}

	absDir, err := filepath.Abs(*dir)
	if err != nil {
		return err
	}
	absSpec, err := filepath.Abs(specPath)
	if err != nil {
		return err
	}
	mod, err := findModule(absDir)
	if err != nil {
		return err
	}
	absGen := filepath.Join(absDir, genPackage)
	genImport, err := importPath(mod, absGen)
	if err != nil {
		return err
	}
	genDir, err := filepath.Rel(filepath.Dir(absSpec), absGen)
	if err != nil {
		return &usageError{msg: fmt.Sprintf("init: the spec %s and --dir %s have no relative path: %v", specPath, *dir, err)}
	}
	specRel, err := filepath.Rel(absDir, absSpec)
	if err != nil {
		return &usageError{msg: fmt.Sprintf("init: the spec %s and --dir %s have no relative path: %v", specPath, *dir, err)}
	}
	dirImport, err := importPath(mod, absDir)
	if err != nil {
		return err
	}
	data := templates.Starter{
		ServerName: serverName(dirImport),
		GenDir:     filepath.ToSlash(genDir),
		GenPackage: genPackage,
		GenImport:  genImport,
		SpecPath:   filepath.ToSlash(specRel),
	}

	// Render everything before creating anything, so a template failure
	// leaves no half-initialised directory behind.
	type starter struct {
		template, target string
		render           func(name string) ([]byte, error)
	}
	plain := func(name string) ([]byte, error) { return templates.Render(name, data) }
	starters := []starter{
		{"mcpgen.yaml", specPath, plain},
		{"service.go", filepath.Join(*dir, "service.go"), plain},
		{"main.go", filepath.Join(*dir, "main.go"), plain},
		{"generate.go", filepath.Join(*dir, "generate.go"), plain},
	}
	if *openAPI != "" {
		// A wrapped API needs no service.go: the generated Upstream is the
		// Handler, and main.go points it at the REST API.
		od, err := c.openAPIStarter(*openAPI, absSpec, data)
		if err != nil {
			return err
		}
		wrap := func(name string) ([]byte, error) { return templates.RenderOpenAPI(name, od) }
		starters = []starter{
			{"mcpgen.yaml", specPath, wrap},
			{"main.go", filepath.Join(*dir, "main.go"), wrap},
			{"generate.go", filepath.Join(*dir, "generate.go"), plain},
		}
	}
	rendered := make([][]byte, len(starters))
	for i, s := range starters {
		if rendered[i], err = s.render(s.template); err != nil {
			return err
		}
	}
	for i, s := range starters {
		created, err := createOnce(s.target, rendered[i])
		if err != nil {
			return err
		}
		if created {
			fmt.Fprintf(c.stdout, "created %s\n", s.target)
		} else {
			fmt.Fprintf(c.stdout, "%s exists, left alone\n", s.target)
		}
	}

	if err := c.generateSpec(specPath, buildOptions{}, false, false); err != nil {
		return err
	}
	fmt.Fprintf(c.stdout, "generated %s\n", filepath.Join(*dir, genPackage))
	if *openAPI != "" {
		fmt.Fprintf(c.stdout, "\nServe the API as MCP over stdio with\n\n\tgo run ./%s --upstream URL\n\nor over HTTP at /mcp with --http 127.0.0.1:PORT; 'go run ./%s -h' lists the credential variables.\n", filepath.ToSlash(filepath.Clean(*dir)), filepath.ToSlash(filepath.Clean(*dir)))
	}
	if !mod.hasTool && mod.path != modulePath {
		fmt.Fprintf(c.stdout, "\nThe generated code imports mcpgen's runtime, and generate.go runs mcpgen as a Go tool.\nAdd both to %s with:\n\n\tgo get -tool %s\n", relToWD(mod.goMod), toolPath)
	}
	return nil
}

// openAPIStarter checks that doc is an OpenAPI or Swagger document and
// returns the data of the --openapi starters: its path relative to the
// spec file.
func (c *cli) openAPIStarter(doc, absSpec string, data templates.Starter) (templates.OpenAPIStarter, error) {
	od := templates.OpenAPIStarter{Starter: data}
	api, err := loadSpec(doc)
	if err != nil {
		return od, err
	}
	if len(api.Tools) == 0 || api.Tools[0].Upstream == nil {
		return od, &problemError{msg: fmt.Sprintf("%s: not an OpenAPI or Swagger document with operations to wrap", doc)}
	}
	absDoc, err := filepath.Abs(doc)
	if err != nil {
		return od, err
	}
	rel, err := filepath.Rel(filepath.Dir(absSpec), absDoc)
	if err != nil {
		return od, &usageError{msg: fmt.Sprintf("init: --openapi %s has no path relative to the spec: %v", doc, err)}
	}
	od.DocPath = filepath.ToSlash(rel)
	return od, nil
}

// relToWD shows an absolute path relative to the working directory when
// that is possible, as the user's other paths are.
func relToWD(abs string) string {
	wd, err := os.Getwd()
	if err != nil {
		return abs
	}
	if rel, err := filepath.Rel(wd, abs); err == nil {
		return rel
	}
	return abs
}

// createOnce writes data to a new file name. It never replaces an existing
// file: it reports created=false instead, since starter files belong to the
// user from the moment they exist.
func createOnce(name string, data []byte) (created bool, err error) {
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return false, err
	}
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(name)
		return false, err
	}
	return true, nil
}

// module is the Go module that contains the directory init sets up.
type module struct {
	goMod   string // path of its go.mod
	root    string // absolute directory of go.mod
	path    string // module path
	hasTool bool   // go.mod already mentions mcpgen's command (the tool directive)
}

// findModule finds the go.mod nearest to dir, walking up. The generated
// package's import path comes from it, so without one init cannot write a
// service.go that compiles.
func findModule(dir string) (*module, error) {
	for d := dir; ; {
		goMod := filepath.Join(d, "go.mod")
		data, err := os.ReadFile(goMod)
		if err == nil {
			p, ok := modulePathOf(data)
			if !ok {
				return nil, &problemError{msg: fmt.Sprintf("%s: no module directive", goMod)}
			}
			return &module{goMod: goMod, root: d, path: p, hasTool: bytes.Contains(data, []byte(toolPath))}, nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		parent := filepath.Dir(d)
		if parent == d {
			return nil, &problemError{msg: fmt.Sprintf("no go.mod in %s or any directory above it; mcpgen init needs the module path to import the generated package.\nCreate a module first (go mod init example.com/yourserver), then run mcpgen init again", dir)}
		}
		d = parent
	}
}

// modulePathOf returns the path in go.mod's module directive.
func modulePathOf(gomod []byte) (string, bool) {
	sc := bufio.NewScanner(bytes.NewReader(gomod))
	for sc.Scan() {
		line, _, _ := strings.Cut(sc.Text(), "//")
		f := strings.Fields(line)
		if len(f) != 2 || f[0] != "module" {
			continue
		}
		p := f[1]
		if strings.HasPrefix(p, `"`) || strings.HasPrefix(p, "`") {
			u, err := strconv.Unquote(p)
			if err != nil {
				return "", false
			}
			p = u
		}
		return p, p != ""
	}
	return "", false
}

// importPath is the import path of the package in absolute directory dir,
// which must be inside mod.
func importPath(mod *module, dir string) (string, error) {
	rel, err := filepath.Rel(mod.root, dir)
	if err != nil || !filepath.IsLocal(rel) && rel != "." {
		return "", fmt.Errorf("%s is not inside the module at %s", dir, mod.root)
	}
	if rel == "." {
		return mod.path, nil
	}
	return mod.path + "/" + filepath.ToSlash(rel), nil
}

// serverName derives the MCP server name from the last element of the
// package's import path: lower case letters, digits, '-' and '_', starting
// with a letter (so YAML reads it as a string).
func serverName(importPath string) string {
	base := importPath[strings.LastIndex(importPath, "/")+1:]
	var b strings.Builder
	for _, r := range strings.ToLower(base) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '_', r == '-':
			b.WriteRune(r)
		default:
			b.WriteRune('-')
		}
	}
	name := strings.Trim(b.String(), "-_")
	if name == "" || name[0] < 'a' || name[0] > 'z' {
		name = "mcp-" + name
	}
	return strings.TrimSuffix(name, "-")
}
