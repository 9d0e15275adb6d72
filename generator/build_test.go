package generator

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// goldenModule is a temporary module holding the generated packages of
// golden cases, each under a directory named after its case, that builds
// against this checkout's runtime.
type goldenModule struct {
	dir string
	// pkgs holds the directory of each case's generated package.
	pkgs map[string]string
}

// newGoldenModule returns an empty golden module. Besides this checkout,
// it requires github.com/invopop/jsonschema, for the agreement test, at
// the version this test binary is built with; this checkout's go.sum
// serves both, and nothing is downloaded (the module cache must hold
// them: scripts/test.sh runs go mod download first).
func newGoldenModule(t *testing.T) *goldenModule {
	t.Helper()
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	m := &goldenModule{dir: t.TempDir(), pkgs: map[string]string{}}
	m.write(t, "go.mod", "module example.com/gen\n\ngo 1.26\n\nrequire (\n"+
		"\tgithub.com/mcpgen-dev/mcpgen v0.0.0\n"+
		"\tgithub.com/invopop/jsonschema "+moduleVersion(t, goTool(t), "github.com/invopop/jsonschema")+"\n)\n\n"+
		"replace github.com/mcpgen-dev/mcpgen => "+root+"\n")
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	m.write(t, "go.sum", string(sum))
	return m
}

func (m *goldenModule) write(t *testing.T, rel, data string) {
	t.Helper()
	p := filepath.Join(m.dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// add writes the generated files of case name, and extra files (tests,
// by name) into its generated package.
func (m *goldenModule) add(t *testing.T, name string, files []File, extra map[string]string) {
	t.Helper()
	for _, f := range files {
		m.write(t, name+"/"+f.Path, string(f.Data))
		if strings.HasSuffix(f.Path, "mcpgen_server_gen.go") {
			m.pkgs[name] = name + "/" + strings.TrimSuffix(strings.TrimSuffix(f.Path, "mcpgen_server_gen.go"), "/")
		}
	}
	if m.pkgs[name] == "" {
		t.Fatalf("%s: no mcpgen_server_gen.go", name)
	}
	for file, src := range extra {
		m.write(t, m.pkgs[name]+"/"+file, src)
	}
}

// moduleVersion is the version of module mod that this module selects,
// as the go command reports it (test binaries carry no module versions
// in their build information).
func moduleVersion(t *testing.T, gobin, mod string) string {
	t.Helper()
	cmd := exec.Command(gobin, "list", "-m", "-f", "{{.Version}}", mod)
	cmd.Env = append(os.Environ(), "GOPROXY=off", "GOWORK=off")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go list -m %s: %v\n%s", mod, err, out)
	}
	return strings.TrimSpace(string(out))
}

func goTool(t *testing.T) string {
	t.Helper()
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go is not on PATH")
	}
	return gobin
}

func runGo(t *testing.T, gobin, dir string, env []string, args ...string) {
	t.Helper()
	cmd := exec.Command(gobin, args...)
	cmd.Dir = dir
	// The module uses this checkout's go.sum and the module cache only.
	cmd.Env = append(append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off"), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// TestGoldenBuilds compiles and vets the generated code of every golden
// case, all in one temporary module (one go vet, one go test), runs the
// behaviour tests (behaviour_test.go) inside the cases that have them,
// and checks that the Go types, reflected by invopop/jsonschema, describe
// the same JSON as the emitted schemas (agreement_test.go).
func TestGoldenBuilds(t *testing.T) {
	gobin := goTool(t)
	mod := newGoldenModule(t)
	reflected := t.TempDir()
	cases := goldenCases(t)
	generated := map[string][]File{}
	for _, name := range cases {
		files := generateCase(t, name)
		generated[name] = files
		extra := map[string]string{
			"agreement_test.go": reflectTest(t, loadCase(t, name), files, filepath.Join(reflected, name+".json")),
		}
		if src, ok := behaviourTests[name]; ok {
			extra["behaviour_test.go"] = src
		}
		mod.add(t, name, files, extra)
	}
	for name := range behaviourTests {
		if mod.pkgs[name] == "" {
			t.Errorf("behaviour tests for %s, which is not a golden case", name)
		}
	}
	runGo(t, gobin, mod.dir, nil, "vet", "./...")
	runGo(t, gobin, mod.dir, nil, "test", "./...")
	for _, name := range cases {
		t.Run(name, func(t *testing.T) {
			files := generated[name]
			// Client profiles rewrite the listed schemas on purpose: the
			// Go types agree with the exact ones.
			if api := loadCase(t, name); len(api.Generate.Profiles) > 0 {
				api.Generate.Profiles = nil
				var err error
				if files, err = Generate(api, Options{}); err != nil {
					t.Fatal(err)
				}
			}
			for _, p := range agree(t, readReflected(t, reflected, name), files) {
				t.Error(p)
			}
		})
	}
	t.Run("drift", func(t *testing.T) {
		testAgreementCatchesDrift(t, readReflected(t, reflected, "orders"), generated["orders"])
	})
}
