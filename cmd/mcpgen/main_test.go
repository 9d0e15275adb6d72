package main

import (
	"flag"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

var update = flag.Bool("update", false, "rewrite the scripts' expected files with the actual output")

func TestMain(m *testing.M) {
	// Scripts run mcpgen as a command; it is this test binary re-executed.
	testscript.Main(m, map[string]func(){"mcpgen": main})
}

// TestScript runs the CLI scripts in testdata/script. Scripts that build a
// user module (exec go ...) get the environment they need: the real build
// and module caches, no network, and MCPGEN_ROOT for a replace directive.
func TestScript(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	goEnv := map[string]string{}
	if out, err := exec.Command("go", "env", "GOCACHE", "GOMODCACHE").Output(); err == nil {
		lines := strings.Split(strings.TrimSpace(string(out)), "\n")
		if len(lines) == 2 {
			goEnv["GOCACHE"], goEnv["GOMODCACHE"] = lines[0], lines[1]
		}
	}
	testscript.Run(t, testscript.Params{
		Dir:           "testdata/script",
		UpdateScripts: *update,
		Setup: func(env *testscript.Env) error {
			env.Setenv("MCPGEN_ROOT", root)
			for k, v := range goEnv {
				env.Setenv(k, v)
			}
			env.Setenv("GOPROXY", "off")
			env.Setenv("GOFLAGS", "-mod=mod")
			env.Setenv("GOTOOLCHAIN", "local")
			env.Setenv("GOWORK", "off")
			return nil
		},
	})
}
