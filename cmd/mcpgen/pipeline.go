package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"

	"github.com/mcpgen-dev/mcpgen/generator"
	"github.com/mcpgen-dev/mcpgen/spec"
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
	return g, nil
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
