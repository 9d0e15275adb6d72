package compattest

import (
	"bufio"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpgen-dev/mcpgen/surface"
)

// TestCurrentGeneration generates every case of cases.txt with this
// checkout's mcpgen, as scripts/compat-fixture.sh does for a release, and
// builds and vets the packages against this checkout's runtime.
func TestCurrentGeneration(t *testing.T) {
	gobin := goTool(t)
	root := repoRoot(t)
	tmp := t.TempDir()
	mcpgen := filepath.Join(tmp, "mcpgen")
	build := exec.Command(gobin, "build", "-o", mcpgen, "./cmd/mcpgen")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/mcpgen: %v\n%s", err, out)
	}

	mod := newModule(t, root)
	for _, c := range readCases(t, root) {
		out := filepath.Join(mod, "current", c.name)
		cmd := exec.Command(mcpgen, "generate", "-q", "-f", filepath.Join(root, filepath.FromSlash(c.spec)), "--out", out)
		if msg, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("mcpgen generate %s: %v\n%s", c.spec, err, msg)
		}
	}
	checkModule(t, gobin, mod, "this checkout's generator and runtime disagree")
}

// TestReleaseFixtures builds and vets the code that earlier releases
// generated (testdata/compat/<release>/<case>/) against this checkout's
// runtime, and reads their lock files with this checkout's reader. A
// runtime change that breaks one fails here with the compiler's message.
func TestReleaseFixtures(t *testing.T) {
	gobin := goTool(t)
	root := repoRoot(t)
	compat := filepath.Join(root, "testdata", "compat")
	releases, err := os.ReadDir(compat)
	if errors.Is(err, fs.ErrNotExist) {
		t.Skip("no release fixtures yet: once a release is tagged, add the code it generated with scripts/compat-fixture.sh vX.Y.Z vX.Y.Z (docs/compatibility.md)")
	}
	if err != nil {
		t.Fatal(err)
	}
	mod := newModule(t, root)
	n := 0
	for _, r := range releases {
		if !r.IsDir() {
			continue
		}
		pkgs := goPackages(t, filepath.Join(compat, r.Name()))
		if len(pkgs) == 0 {
			t.Errorf("testdata/compat/%s holds no generated Go package: generate it again with scripts/compat-fixture.sh", r.Name())
			continue
		}
		if err := os.CopyFS(filepath.Join(mod, r.Name()), os.DirFS(filepath.Join(compat, r.Name()))); err != nil {
			t.Fatal(err)
		}
		t.Logf("testdata/compat/%s: %s", r.Name(), strings.Join(pkgs, ", "))
		n += len(pkgs)
	}
	if n == 0 {
		t.Fatal("testdata/compat holds no fixture: add the code a release generated with scripts/compat-fixture.sh REV NAME (docs/compatibility.md), or remove the directory")
	}
	checkModule(t, gobin, mod, "the runtime no longer compiles code that a release generated, which it must for the releases docs/compatibility.md lists; keep the identifiers it uses")
}

type testCase struct{ name, spec string }

// readCases reads cases.txt: one "name spec-path" a line, # comments.
func readCases(t *testing.T, root string) []testCase {
	t.Helper()
	f, err := os.Open(filepath.Join(root, "internal", "compattest", "cases.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cases []testCase
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line, _, _ := strings.Cut(sc.Text(), "#")
		fields := strings.Fields(line)
		switch len(fields) {
		case 0:
			continue
		case 2:
			cases = append(cases, testCase{fields[0], fields[1]})
		default:
			t.Fatalf("cases.txt: %q is not \"name spec-path\"", sc.Text())
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(cases) == 0 {
		t.Fatal("cases.txt lists no case")
	}
	return cases
}

// newModule creates an empty module that requires mcpgen, replaced by this
// checkout, as a user's module that holds generated code does.
func newModule(t *testing.T, root string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "compat")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	gomod := "module example.com/compat\n\ngo 1.26\n\nrequire github.com/mcpgen-dev/mcpgen v0.0.0\n\nreplace github.com/mcpgen-dev/mcpgen => " + root + "\n"
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(gomod), 0o644); err != nil {
		t.Fatal(err)
	}
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "go.sum"), sum, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// checkModule builds and vets every package of the module at dir, and
// parses every lock file in it. what says what a failure means.
func checkModule(t *testing.T, gobin, dir, what string) {
	t.Helper()
	for _, args := range [][]string{{"build", "./..."}, {"vet", "./..."}} {
		if out, err := runGo(gobin, dir, args...); err != nil {
			t.Fatalf("%s:\ngo %s: %v\n%s", what, strings.Join(args, " "), err, out)
		}
	}
	locks := 0
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.Name() != "mcpgen.lock.json" {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		s, err := surface.Parse(data)
		if err != nil {
			t.Errorf("%s: %v", rel, err)
		} else if len(s.Tools) == 0 {
			t.Errorf("%s: no tools read", rel)
		}
		locks++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if locks == 0 {
		t.Error("no mcpgen.lock.json to read")
	}
}

// goPackages lists the directories under dir that hold Go files, relative
// to dir.
func goPackages(t *testing.T, dir string) []string {
	t.Helper()
	var pkgs []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if strings.HasSuffix(path, ".go") {
			rel, _ := filepath.Rel(dir, filepath.Dir(path))
			if len(pkgs) == 0 || pkgs[len(pkgs)-1] != rel {
				pkgs = append(pkgs, rel)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return pkgs
}

func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	return root
}

func goTool(t *testing.T) string {
	t.Helper()
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go is not on PATH")
	}
	return gobin
}

// runGo runs the go command in the module at dir, offline: its go.sum is
// this checkout's, and everything comes from the module cache.
func runGo(gobin, dir string, args ...string) ([]byte, error) {
	cmd := exec.Command(gobin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off")
	return cmd.CombinedOutput()
}
