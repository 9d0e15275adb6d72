package main

import (
	"fmt"
	"io"
	"runtime/debug"
)

// modulePath is mcpgen's own module, looked up in the build info.
const modulePath = "github.com/mcpgen-dev/mcpgen"

// releaseVersion is the version a release build stamps into the binary
// (scripts/release.sh links with -X main.releaseVersion=v0.1.0). It is a
// variable because the linker can set nothing else; no code assigns it.
var releaseVersion string

func (c *cli) version(args []string) error {
	fs := c.newFlags("version", "mcpgen version")
	if err := parse(fs, args); err != nil {
		return err
	}
	bi, _ := debug.ReadBuildInfo()
	describeBuild(bi, releaseVersion).print(c.stdout)
	return nil
}

// build is what `mcpgen version` says about the binary.
type build struct {
	version string // mcpgen's version, "(devel)" when unknown
	// The commit the binary was built from, its time (RFC 3339) and whether
	// the work tree had uncommitted changes ("true" or "false"). They are
	// known only when mcpgen's own repository was built with -buildvcs.
	commit, commitTime, modified string
	goVersion, platform          string // "go1.26.10", "linux/amd64"
}

// describeBuild reads the build information of a binary. stamped is the
// version a release build linked in; without one, the version is that of
// the mcpgen module in bi: the main module when built with `go install
// …@v1.2.3` or from a tagged checkout, a dependency when built as `go tool
// mcpgen` in a user's module. A directory replacement or an untagged
// build without VCS information is "(devel)".
func describeBuild(bi *debug.BuildInfo, stamped string) build {
	b := build{version: stamped}
	if bi == nil {
		if b.version == "" {
			b.version = "(devel)"
		}
		return b
	}
	b.goVersion = bi.GoVersion
	var goos, goarch string
	main := bi.Main.Path == modulePath
	for _, s := range bi.Settings {
		switch s.Key {
		case "GOOS":
			goos = s.Value
		case "GOARCH":
			goarch = s.Value
		}
		// The vcs settings describe the main module's repository, which
		// is the user's when mcpgen is one of its dependencies.
		if !main {
			continue
		}
		switch s.Key {
		case "vcs.revision":
			b.commit = s.Value
		case "vcs.time":
			b.commitTime = s.Value
		case "vcs.modified":
			b.modified = s.Value
		}
	}
	if goos != "" && goarch != "" {
		b.platform = goos + "/" + goarch
	}
	if b.version == "" {
		b.version = moduleVersion(bi)
	}
	return b
}

// moduleVersion is the version of the mcpgen module in bi, or "(devel)".
func moduleVersion(bi *debug.BuildInfo) string {
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

// print writes the version on the first line ("mcpgen v0.1.0"), then
// what else is known, one "key: value" per line.
func (b build) print(w io.Writer) {
	fmt.Fprintf(w, "mcpgen %s\n", b.version)
	line := func(key, value string) {
		if value != "" {
			fmt.Fprintf(w, "%-9s %s\n", key+":", value)
		}
	}
	line("commit", b.commit)
	line("time", b.commitTime)
	line("modified", b.modified)
	goVersion := b.goVersion
	if goVersion != "" && b.platform != "" {
		goVersion += " " + b.platform
	}
	line("go", goVersion)
}

// mcpgenVersion is the version of mcpgen this binary is, as `mcpgen
// version` prints it; generated files record it.
func mcpgenVersion() string {
	bi, _ := debug.ReadBuildInfo()
	return describeBuild(bi, releaseVersion).version
}
