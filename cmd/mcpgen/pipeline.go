package main

import (
	"errors"
	"fmt"
	"go/token"
	"io/fs"
	"os"
	"path"
	"path/filepath"

	"github.com/mcpgen-dev/mcpgen/generator"
	"github.com/mcpgen-dev/mcpgen/spec"
	"github.com/mcpgen-dev/mcpgen/surface"
)

// buildGeneration loads the spec at specPath and generates its files in
// memory. Spec problems come back as a located error (exit 1); a missing
// spec file is a problemError.
func buildGeneration(specPath string) (*generation, error) {
	root, base := filepath.Split(specPath)
	root = filepath.Clean(root)
	if _, err := os.Stat(specPath); errors.Is(err, fs.ErrNotExist) {
		return nil, &problemError{msg: fmt.Sprintf("%s: no such file (create one with 'mcpgen init', or name it with -f)", specPath)}
	}
	api, err := spec.Load(os.DirFS(root), base)
	if err != nil {
		return nil, locate(root, err)
	}
	if err := fillPackage(api, root); err != nil {
		return nil, locate(root, err)
	}
	files, err := generator.Generate(api, generator.Options{Version: mcpgenVersion()})
	if err != nil {
		return nil, locate(root, err)
	}
	g := &generation{
		Root:        root,
		OutDir:      outDir(api),
		IsGenerated: generator.IsGenerated,
	}
	for _, f := range files {
		g.Files = append(g.Files, genFile{Path: f.Path, Data: f.Data})
	}
	g.Files = append(g.Files, genFile{Path: surface.LockFile, Data: surface.FromAPI(api).Marshal()})
	return g, nil
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
