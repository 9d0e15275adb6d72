package main

import (
	"errors"
	"fmt"
	"go/token"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/mcpgen-dev/mcpgen/generator"
	"github.com/mcpgen-dev/mcpgen/gotype"
	"github.com/mcpgen-dev/mcpgen/spec"
	"github.com/mcpgen-dev/mcpgen/surface"
)

// buildOptions override what the spec says about its output; zero values
// keep the spec's settings. They let `generate --spec FILE --out DIR` work on
// an OpenAPI document that has no config of its own.
type buildOptions struct {
	// Out is the output directory as the user named it (relative to the
	// working directory, not to the spec).
	Out string
	// Package is the Go package name of the generated code.
	Package string
	// BudgetTokens is the size of tools/list past which generate warns
	// (0: never).
	BudgetTokens int
	// Profiles is --profile, which replaces generate.profile when set.
	Profiles profileFlag
	// StrictProfile makes a lossy profile rewrite an error.
	StrictProfile bool
}

// buildGeneration loads the spec at specPath and generates its files in
// memory. Spec problems come back as a located error (exit 1); a missing
// spec file is a problemError.
func buildGeneration(specPath string, o buildOptions) (*generation, error) {
	root := filepath.Clean(filepath.Dir(specPath))
	api, loadRoot, err := loadSpecRoot(specPath)
	if err != nil {
		return nil, err
	}
	lockPath := surface.LockFile
	var source string // the "// source:" path, when the generator cannot derive it
	if o.Out != "" {
		// Absolute paths, so that a relative --out and an absolute spec
		// (or the reverse) still relate.
		absRoot, err := filepath.Abs(root)
		if err != nil {
			return nil, err
		}
		absOut, err := filepath.Abs(o.Out)
		if err != nil {
			return nil, err
		}
		rel, err := filepath.Rel(absRoot, absOut)
		if err != nil {
			return nil, &usageError{msg: fmt.Sprintf("--out %s: no path from the spec's directory %s: %v", o.Out, root, err)}
		}
		api.Generate.Dir = filepath.ToSlash(rel)
		if rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			back, err := filepath.Rel(absOut, filepath.Join(absRoot, filepath.Base(specPath)))
			if err != nil {
				return nil, &usageError{msg: fmt.Sprintf("--out %s: no path back to the spec %s: %v", o.Out, specPath, err)}
			}
			source = filepath.ToSlash(back)
		}
		// The lock file records the generated surface; beside a document
		// mcpgen does not own (a vendor's openapi.yaml) it would be litter.
		lockPath = path.Join(api.Generate.Dir, surface.LockFile)
		if o.Package == "" {
			api.Generate.Package = ""
		}
	}
	if o.Package != "" {
		if !token.IsIdentifier(o.Package) {
			return nil, &usageError{msg: fmt.Sprintf("--package %q is not a valid Go identifier", o.Package)}
		}
		api.Generate.Package = o.Package
	}
	if err := applyProfileFlag(api, o); err != nil {
		return nil, err
	}
	if err := fillPackage(api, root); err != nil {
		return nil, locate(root, err)
	}
	// Code-first types: the schemas of go: keys come from the Go source,
	// read here so that the generator stays pure.
	if err := gotype.Resolve(api, root); err != nil {
		return nil, locate(root, err)
	}
	// The lock file records the API as the generator reads it, and the
	// generator adds only notes to it: the two are built side by side.
	lock := make(chan []byte, 1)
	go func() { lock <- surface.FromAPI(api).Marshal() }()
	files, err := generator.Generate(api, generator.Options{Version: mcpgenVersion(), Source: source})
	lockData := <-lock
	if err != nil {
		return nil, locate(root, err)
	}
	if o.StrictProfile {
		if err := strictProfileError(loadRoot, api.Profiles); err != nil {
			return nil, err
		}
	}
	g := &generation{
		Profiles:    api.Profiles,
		Root:        root,
		OutDir:      outDir(api),
		IsGenerated: generator.IsGenerated,
		// The generator adds its notes (a schema cut to the budget) to the
		// loader's, at positions in the same files.
		Notes:   located{dir: loadRoot, ds: api.Notes},
		Surface: api.Surface,
	}
	if len(api.Tools) > 0 {
		g.FirstTool = api.Tools[0].Pos
	}
	for _, f := range files {
		g.Files = append(g.Files, genFile{Path: f.Path, Data: f.Data})
	}
	g.Files = append(g.Files, genFile{Path: lockPath, Data: lockData})
	return g, nil
}

// loadSpec loads the spec (an mcpgen.yaml, an OpenAPI or Swagger document,
// or an mcpgen.yaml with an openapi: section) at specPath. Diagnostics come
// back located, printable relative to the working directory.
//
// The loader reads through an fs.FS, which cannot climb above its root; a
// config whose openapi.file climbs ("../openapi.yaml") gets a root high
// enough to reach the document.
func loadSpec(specPath string) (*spec.API, error) {
	api, _, err := loadSpecRoot(specPath)
	return api, err
}

// loadSpecRoot is loadSpec, also returning the directory the positions of
// api.Notes are relative to (above the spec's own when openapi.file climbs).
func loadSpecRoot(specPath string) (*spec.API, string, error) {
	data, err := os.ReadFile(specPath)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, "", &problemError{msg: fmt.Sprintf("%s: no such file (create one with 'mcpgen init', or name it with -f)", specPath)}
	}
	if err != nil {
		return nil, "", err
	}
	root := filepath.Clean(filepath.Dir(specPath))
	name := filepath.Base(specPath)
	if climb := openAPIClimb(data); climb > 0 {
		// The names of the directories climbed out of come from the
		// absolute path: root is "." when go generate runs mcpgen in the
		// spec's own directory, and ".." has no name of its own.
		abs, err := filepath.Abs(root)
		if err != nil {
			return nil, "", err
		}
		for range climb {
			if filepath.Dir(abs) == abs {
				return nil, "", &problemError{msg: fmt.Sprintf("%s: openapi.file climbs above the file system root", specPath)}
			}
			name = filepath.Base(abs) + "/" + name
			abs = filepath.Dir(abs)
			root = filepath.Join(root, "..")
		}
	}
	api, err := spec.Load(os.DirFS(root), filepath.ToSlash(name))
	if err != nil {
		return nil, "", locate(root, err)
	}
	// Everything downstream treats paths as relative to the spec's own
	// directory; only the loader needed the wider root.
	api.File = path.Base(api.File)
	return api, root, nil
}

// maxConfigSize bounds the files openAPIClimb parses: an mcpgen.yaml is
// small, while an OpenAPI document can be megabytes and never climbs.
const maxConfigSize = 1 << 20

// openAPIClimb returns how many directories above its own the openapi.file
// of an mcpgen.yaml config reaches ("../../api.yaml" is 2), and 0 for
// anything else.
func openAPIClimb(data []byte) int {
	if len(data) > maxConfigSize {
		return 0
	}
	var cfg struct {
		OpenAPI yaml.Node `yaml:"openapi"`
	}
	if yaml.Unmarshal(data, &cfg) != nil || cfg.OpenAPI.Kind != yaml.MappingNode {
		return 0
	}
	for i := 0; i+1 < len(cfg.OpenAPI.Content); i += 2 {
		if cfg.OpenAPI.Content[i].Value != "file" {
			continue
		}
		n := 0
		for _, seg := range strings.Split(path.Clean(filepath.ToSlash(cfg.OpenAPI.Content[i+1].Value)), "/") {
			if seg != ".." {
				break
			}
			n++
		}
		return n
	}
	return 0
}

// fillPackage names the generated package after its directory when the spec
// does not name it and the loader could not tell the directory's name (the
// output directory is the spec's own directory, which fsys hides).
func fillPackage(api *spec.API, root string) error {
	if api.Generate.Package != "" {
		return nil
	}
	abs, err := filepath.Abs(filepath.Join(root, filepath.FromSlash(outDir(api))))
	if err != nil {
		return err
	}
	name := filepath.Base(abs)
	if !token.IsIdentifier(name) {
		pos := api.Generate.Pos
		if pos.File == "" {
			pos = spec.Pos{File: path.Base(filepath.ToSlash(api.File))}
		}
		return spec.Diagnostics{{Pos: pos, Message: fmt.Sprintf("generate: package name %q derived from directory %q is not a valid Go identifier: set generate.package", name, abs)}}
	}
	api.Generate.Package = name
	return nil
}

// locate attaches the spec directory to spec diagnostics so they print
// relative to the working directory; other errors pass through.
func locate(root string, err error) error {
	var ds spec.Diagnostics
	if errors.As(err, &ds) {
		return located{dir: root, ds: ds}
	}
	return err
}

// outDir is the spec's output directory as a clean slash path relative to
// the spec file's directory.
func outDir(api *spec.API) string {
	if api.Generate.Dir == "" {
		return "."
	}
	return path.Clean(api.Generate.Dir)
}
