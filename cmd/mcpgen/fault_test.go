package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"
)

// faultBound is a hang detector, not a performance target.
const faultBound = 20 * time.Second

// runBounded runs the CLI on dir's mcpgen.yaml and fails when it takes
// longer than faultBound or grows the heap by more than 1 GiB. Paths are
// absolute, not relative to a working directory: a command still running
// after a timeout must not write into the package directory.
func runBounded(t *testing.T, dir string, args ...string) (int, string) {
	t.Helper()
	args = append([]string(nil), args...)
	for i, a := range args {
		if a == "mcpgen.yaml" {
			args[i] = filepath.Join(dir, a)
		}
	}
	var before runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	// Sample the live heap while the command runs: its peak, not the
	// total churn, is the memory the command holds.
	stop := make(chan struct{})
	peak := make(chan uint64, 1)
	go func() {
		var m runtime.MemStats
		var max uint64
		tick := time.NewTicker(5 * time.Millisecond)
		defer tick.Stop()
		for {
			runtime.ReadMemStats(&m)
			max = maxU64(max, m.HeapAlloc)
			select {
			case <-stop:
				peak <- max
				return
			case <-tick.C:
			}
		}
	}()
	type result struct {
		code int
		out  string
	}
	done := make(chan result, 1)
	go func() {
		var stdout, stderr bytes.Buffer
		code := run(args, strings.NewReader(""), &stdout, &stderr)
		done <- result{code, stdout.String() + stderr.String()}
	}()
	// The sampler stops however this returns, a failed bound included.
	defer close(stop)
	select {
	case r := <-done:
		stop <- struct{}{}
		if grown := <-peak - before.HeapAlloc; int64(grown) > 1<<30 {
			t.Errorf("mcpgen %v grew the heap by %d MiB, want under 1 GiB", args, grown>>20)
		}
		return r.code, r.out
	case <-time.After(faultBound):
		t.Fatalf("mcpgen %v did not finish within %v", args, faultBound)
	}
	return 0, ""
}

func maxU64(a, b uint64) uint64 {
	if a > b {
		return a
	}
	return b
}

// faultDir writes go.mod and mcpgen.yaml into a fresh directory.
func faultDir(t *testing.T, spec []byte) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/fault\n\ngo 1.26\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "mcpgen.yaml"), spec, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

const faultHead = "version: 1\ngenerate: {package: out, dir: out}\nserver: {name: fault, version: 1.0.0}\n"

// positioned matches a diagnostic naming the spec file, line and column.
var positioned = regexp.MustCompile(`mcpgen\.yaml:\d+:\d+: `)

// TestGeneratorUnderFault feeds the CLI hostile specs: each must either
// succeed or fail with a positioned diagnostic (exit 1), within bounded
// time and memory.
func TestGeneratorUnderFault(t *testing.T) {
	// Generation is linear but not fast (about 3 ms a tool, mostly
	// formatting, and several times that on a loaded machine): 1,500 tools
	// keep well inside the hang bound while still being a huge spec.
	nTools, nBlock := 1500, 2000
	if raceEnabled {
		nTools, nBlock = 250, 400
	}
	var huge strings.Builder
	huge.WriteString(faultHead + "tools:\n")
	for i := range nTools {
		fmt.Fprintf(&huge, "  tool_%d:\n    description: Tool %d.\n    input:\n      properties:\n        id: {type: string, maxLength: 8}\n        n: {type: integer, minimum: 0}\n      required: [id]\n", i, i)
	}
	// Block style needs one more column per level, so the file grows with
	// the square of the depth: 2,000 levels is already 12 MB. The flow
	// case below goes to 10,000.
	var deep strings.Builder
	deep.WriteString(faultHead + "tools:\n  deep:\n    input:\n     properties:\n")
	for i := range nBlock {
		ind := strings.Repeat(" ", 6+2*i)
		fmt.Fprintf(&deep, "%sa:\n%s type: object\n%s properties:\n", ind, ind, ind)
	}
	deep.WriteString(strings.Repeat(" ", 6+2*nBlock) + "leaf: {type: string}\n")
	var flowDeep = faultHead + "tools:\n  deep:\n    input: " + strings.Repeat("{properties: {a: ", 10000) + "{type: string}" + strings.Repeat("}}", 10000) + "\n"
	bomb := faultHead + "x0: &a0 [a, a, a, a, a, a, a, a, a, a]\n"
	for i := 1; i < 12; i++ {
		bomb += fmt.Sprintf("x%d: &a%d [*a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d]\n", i, i, i-1, i-1, i-1, i-1, i-1, i-1, i-1, i-1, i-1, i-1)
	}
	bomb += "tools:\n  t:\n    description: *a11\n    input: {properties: {x: {type: string}}}\n"
	cases := []struct {
		name string
		spec string
		ok   bool // generation must succeed
	}{
		{fmt.Sprintf("%d tools", nTools), huge.String(), true},
		{fmt.Sprintf("%d nested block levels", nBlock), deep.String(), false},
		{"10000 nested flow levels", flowDeep, false},
		{"cyclic refs", faultHead + "types:\n  A: {$ref: B}\n  B: {$ref: C}\n  C: {$ref: A}\ntools:\n  t:\n    input: {properties: {x: {$ref: A}}}\n", false},
		{"self ref", faultHead + "types:\n  A: {$ref: A}\ntools:\n  t:\n    input: {properties: {x: {$ref: A}}}\n", false},
		{"non-UTF-8 bytes", faultHead + "tools:\n  t:\n    description: \"caf\xe9 \xff\xfe\"\n    input: {properties: {x: {type: string}}}\n", false},
		{"NUL byte", faultHead + "tools:\n  t\x00:\n    input: {}\n", false},
		{"YAML bomb", bomb, false},
	}
	faults := 0
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := faultDir(t, []byte(c.spec))
			code, out := runBounded(t, dir, "generate", "-f", "mcpgen.yaml")
			faults++
			switch {
			case c.ok && code != exitOK:
				t.Errorf("exit %d, want success; output:\n%.2000s", code, out)
			case code == exitOK:
				if _, err := os.Stat(filepath.Join(dir, "out", "mcpgen_server_gen.go")); err != nil {
					t.Errorf("exit 0 but nothing generated: %v", err)
				}
			case code != exitProblem || !positioned.MatchString(out):
				t.Errorf("exit %d, want 0, or 1 with a positioned diagnostic; output:\n%.2000s", code, out)
			}
		})
	}
	t.Logf("faults injected into the generator: %d specs", faults)
}

// TestInterruptedGenerateKeepsFiles makes one write of a generate fail
// (a non-empty directory sits where a new schema file goes, which no
// rename can replace, even as root): the command fails and every file of
// the previous generation is intact byte for byte.
func TestInterruptedGenerateKeepsFiles(t *testing.T) {
	spec := faultHead + "tools:\n  t:\n    input: {properties: {x: {type: string}}}\n  u:\n    input: {properties: {y: {type: integer}}}\n"
	dir := faultDir(t, []byte(spec))
	if code, out := runBounded(t, dir, "generate", "-f", "mcpgen.yaml"); code != exitOK {
		t.Fatalf("first generate: exit %d\n%s", code, out)
	}
	// Change the spec so that every file changes and a tool is added,
	// whose schema path is blocked.
	changed := strings.ReplaceAll(spec, "type: string", "type: string, maxLength: 3")
	changed = strings.ReplaceAll(changed, "name: fault", "name: fault2")
	changed += "  v:\n    input: {properties: {z: {type: boolean}}}\n"
	if err := os.WriteFile(filepath.Join(dir, "mcpgen.yaml"), []byte(changed), 0o644); err != nil {
		t.Fatal(err)
	}
	block := filepath.Join(dir, "out", "schemas", "v.input.schema.json")
	if err := os.MkdirAll(block, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(block, "keep"), []byte("in the way"), 0o644); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, filepath.Join(dir, "out"))
	code, out := runBounded(t, dir, "generate", "-f", "mcpgen.yaml")
	if code == exitOK {
		t.Fatalf("generate into a read-only directory succeeded:\n%s", out)
	}
	after := snapshot(t, filepath.Join(dir, "out"))
	for name, data := range before {
		if !bytes.Equal(after[name], data) {
			t.Errorf("%s changed by the failed generate", name)
		}
	}
	for name := range after {
		if _, ok := before[name]; !ok {
			t.Errorf("the failed generate left %s behind", name)
		}
	}
}

func snapshot(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		defer f.Close()
		data, err := io.ReadAll(f)
		files[p] = data
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}
