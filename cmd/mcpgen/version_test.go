package main

import (
	"runtime/debug"
	"strings"
	"testing"
)

func TestDescribeBuild(t *testing.T) {
	settings := func(kv ...string) []debug.BuildSetting {
		var s []debug.BuildSetting
		for i := 0; i < len(kv); i += 2 {
			s = append(s, debug.BuildSetting{Key: kv[i], Value: kv[i+1]})
		}
		return s
	}
	platform := []string{"GOOS", "linux", "GOARCH", "arm64"}
	vcs := []string{"vcs", "git", "vcs.revision", "0123456789abcdef0123456789abcdef01234567",
		"vcs.time", "2026-11-20T10:00:00Z", "vcs.modified", "false"}
	const vcsLines = "commit:   0123456789abcdef0123456789abcdef01234567\n" +
		"time:     2026-11-20T10:00:00Z\n" +
		"modified: false\n"
	for _, tc := range []struct {
		name    string
		bi      *debug.BuildInfo
		stamped string
		want    string
	}{{
		name:    "release build: the stamped version, the commit of the checkout",
		bi:      &debug.BuildInfo{GoVersion: "go1.26.10", Main: debug.Module{Path: modulePath, Version: "v0.0.0-20261120100000-0123456789ab"}, Settings: settings(append(platform, vcs...)...)},
		stamped: "v0.1.0-rc.1",
		want:    "mcpgen v0.1.0-rc.1\n" + vcsLines + "go:       go1.26.10 linux/arm64\n",
	}, {
		name: "tagged checkout: Go's own VCS version stamp",
		bi:   &debug.BuildInfo{GoVersion: "go1.26.10", Main: debug.Module{Path: modulePath, Version: "v0.1.0"}, Settings: settings(append(platform, vcs...)...)},
		want: "mcpgen v0.1.0\n" + vcsLines + "go:       go1.26.10 linux/arm64\n",
	}, {
		name: "go install …@v0.2.0: a module version, no VCS information",
		bi:   &debug.BuildInfo{GoVersion: "go1.26.10", Main: debug.Module{Path: modulePath, Version: "v0.2.0"}, Settings: settings(platform...)},
		want: "mcpgen v0.2.0\ngo:       go1.26.10 linux/arm64\n",
	}, {
		name: "go tool mcpgen: a dependency; the VCS settings are the user's repository",
		bi: &debug.BuildInfo{GoVersion: "go1.26.10", Main: debug.Module{Path: "example.com/user", Version: "(devel)"},
			Deps: []*debug.Module{{Path: "golang.org/x/mod", Version: "v0.42.0"}, {Path: modulePath, Version: "v0.3.1"}}, Settings: settings(append(platform, vcs...)...)},
		want: "mcpgen v0.3.1\ngo:       go1.26.10 linux/arm64\n",
	}, {
		name: "a dependency replaced by a directory",
		bi: &debug.BuildInfo{GoVersion: "go1.26.10", Main: debug.Module{Path: "example.com/user"},
			Deps: []*debug.Module{{Path: modulePath, Version: "v0.3.1", Replace: &debug.Module{Path: "../mcpgen"}}}},
		want: "mcpgen (devel)\ngo:       go1.26.10\n",
	}, {
		name: "a local build with uncommitted changes",
		bi: &debug.BuildInfo{GoVersion: "go1.26.10", Main: debug.Module{Path: modulePath, Version: "v0.1.1-0.20261120100000-0123456789ab+dirty"},
			Settings: settings("vcs.revision", "0123456789abcdef0123456789abcdef01234567", "vcs.modified", "true")},
		want: "mcpgen v0.1.1-0.20261120100000-0123456789ab+dirty\ncommit:   0123456789abcdef0123456789abcdef01234567\nmodified: true\ngo:       go1.26.10\n",
	}, {
		name: "no build information",
		want: "mcpgen (devel)\n",
	}} {
		t.Run(tc.name, func(t *testing.T) {
			var out strings.Builder
			describeBuild(tc.bi, tc.stamped).print(&out)
			if got := out.String(); got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}
