package generator

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// writeModule writes the generated files of a case into a temporary module
// that uses this checkout's runtime, plus extra files (tests), and returns
// the directory of the generated package.
func writeModule(t *testing.T, files []File, extra map[string]string) string {
	t.Helper()
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	gomod := "module example.com/gen\n\ngo 1.26\n\nrequire github.com/mcpgen-dev/mcpgen v0.0.0\n\nreplace github.com/mcpgen-dev/mcpgen => " + root + "\n"
	write := func(rel string, data []byte) {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", []byte(gomod))
	pkgDir := ""
	for _, f := range files {
		write(f.Path, f.Data)
		if strings.HasSuffix(f.Path, "mcpgen_server_gen.go") {
			pkgDir = filepath.Dir(filepath.Join(dir, filepath.FromSlash(f.Path)))
		}
	}
	for name, src := range extra {
		write(filepath.Join(pkgDir[len(dir):], name), []byte(src))
	}
	return pkgDir
}

func goTool(t *testing.T) string {
	t.Helper()
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go is not on PATH")
	}
	return gobin
}

func runGo(t *testing.T, gobin, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command(gobin, args...)
	cmd.Dir = dir
	// The module has no go.sum entries of its own: it only needs the
	// replaced mcpgen module, which is std-lib only at runtime.
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// TestGoldenBuilds compiles and vets the generated code of every case.
func TestGoldenBuilds(t *testing.T) {
	gobin := goTool(t)
	for _, name := range goldenCases(t) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dir := writeModule(t, generateCase(t, name), nil)
			runGo(t, gobin, dir, "vet", "./...")
		})
	}
}
