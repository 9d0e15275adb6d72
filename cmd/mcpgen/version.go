package main

import (
	"fmt"
	"runtime/debug"
)

// modulePath is mcpgen's own module, looked up in the build info.
const modulePath = "github.com/mcpgen-dev/mcpgen"

func (c *cli) version(args []string) error {
	fs := c.newFlags("version", "mcpgen version")
	if err := parse(fs, args); err != nil {
		return err
	}
	fmt.Fprintf(c.stdout, "mcpgen %s\n", mcpgenVersion())
	return nil
}

// mcpgenVersion is the version of the mcpgen module this binary was built
// from. Built with `go install …@v1.2.3` mcpgen is the main module; built as
// `go tool mcpgen` it is a dependency of the user's module. A local build or
// a directory replacement has no version: "(devel)".
func mcpgenVersion() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "(devel)"
	}
	m := &bi.Main
	if m.Path != modulePath {
		m = nil
		for _, d := range bi.Deps {
			if d.Path == modulePath {
				m = d
				break
			}
		}
	}
	if m == nil {
		return "(devel)"
	}
	if m.Replace != nil {
		m = m.Replace
	}
	if m.Version == "" {
		return "(devel)"
	}
	return m.Version
}
