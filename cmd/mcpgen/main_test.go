package main

import (
	"crypto/sha256"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

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
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"replace":  cmdReplace,
			"backdate": cmdBackdate,
			"snapshot": cmdSnapshot,
		},
	})
}

// cmdReplace edits a file as a user would: replace file old new replaces
// the first occurrence of old, which must be present.
func cmdReplace(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: replace file old new")
	}
	data := ts.ReadFile(args[0])
	if !strings.Contains(data, args[1]) {
		ts.Fatalf("%s does not contain %q", args[0], args[1])
	}
	data = strings.Replace(data, args[1], args[2], 1)
	ts.Check(os.WriteFile(ts.MkAbs(args[0]), []byte(data), 0o644))
}

// cmdBackdate sets the mtime of every file under dir to a time far enough
// in the past that any later rewrite shows.
func cmdBackdate(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: backdate dir")
	}
	backdateTime := time.Date(2001, 2, 3, 4, 5, 6, 0, time.UTC)
	ts.Check(filepath.WalkDir(ts.MkAbs(args[0]), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		return os.Chtimes(p, backdateTime, backdateTime)
	}))
}

// cmdSnapshot writes one line per file under dir (path, mtime, SHA-256 of
// the content) to out, so two snapshots compare bytes and mtimes at once.
func cmdSnapshot(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: snapshot dir out")
	}
	root := ts.MkAbs(args[0])
	var b strings.Builder
	ts.Check(filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		fmt.Fprintf(&b, "%s %s %x\n", filepath.ToSlash(rel), fi.ModTime().UTC().Format(time.RFC3339Nano), sha256.Sum256(data))
		return nil
	}))
	ts.Check(os.WriteFile(ts.MkAbs(args[1]), []byte(b.String()), 0o644))
}
