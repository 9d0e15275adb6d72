package main

import (
	"errors"
	"path"

	"github.com/mcpgen-dev/mcpgen/spec"
)

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
