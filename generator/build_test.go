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
	// invopop/jsonschema is for the agreement test (agreement_test.go),
	// at the version of this module's go.mod, whose go.sum serves both.
	gomod := "module example.com/gen\n\ngo 1.26\n\nrequire (\n\tgithub.com/mcpgen-dev/mcpgen v0.0.0\n\tgithub.com/invopop/jsonschema " + moduleVersion(t, root, "github.com/invopop/jsonschema") + "\n)\n\nreplace github.com/mcpgen-dev/mcpgen => " + root + "\n"
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
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	write("go.sum", sum)
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
	// The module uses this checkout's go.sum and the module cache only.
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// TestGoldenBuilds compiles and vets the generated code of every case,
// and runs the agreement test (agreement_test.go) in it: the Go types,
// reflected by invopop/jsonschema, must describe the same JSON as the
// emitted schemas.
func TestGoldenBuilds(t *testing.T) {
	gobin := goTool(t)
	for _, name := range goldenCases(t) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			files := generateCase(t, name)
			src := agreementTest(t, loadCase(t, name), files)
			dir := writeModule(t, files, map[string]string{"agreement_test.go": src})
			runGo(t, gobin, dir, "vet", "./...")
			runGo(t, gobin, dir, "test", "-run", "TestSchemasAgree", "./...")
		})
	}
}
