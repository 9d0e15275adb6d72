package generator

import (
	"bytes"
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/generate/*/want")

const goldenDir = "../testdata/generate"

// goldenCases lists the case directories (those holding an mcpgen.yaml).
func goldenCases(t *testing.T) []string {
	t.Helper()
	entries, err := os.ReadDir(goldenDir)
	if err != nil {
		t.Fatal(err)
	}
	var cases []string
	for _, e := range entries {
		if _, err := os.Stat(filepath.Join(goldenDir, e.Name(), "mcpgen.yaml")); err == nil {
			cases = append(cases, e.Name())
		}
	}
	if len(cases) == 0 {
		t.Fatal("no golden cases")
	}
	return cases
}

// generateCase loads and generates one golden case, paths relative to the
// case directory.
func generateCase(t *testing.T, name string) []File {
	t.Helper()
	files, err := Generate(loadCase(t, name), Options{})
	if err != nil {
		t.Fatalf("generate: %v", err)
	}
	return files
}

func TestGolden(t *testing.T) {
	for _, name := range goldenCases(t) {
		t.Run(name, func(t *testing.T) {
			files := generateCase(t, name)
			want := filepath.Join(goldenDir, name, "want")
			if *update {
				if err := os.RemoveAll(want); err != nil {
					t.Fatal(err)
				}
				for _, f := range files {
					p := filepath.Join(want, filepath.FromSlash(f.Path))
					if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(p, f.Data, 0o644); err != nil {
						t.Fatal(err)
					}
				}
				return
			}
			got := map[string][]byte{}
			for _, f := range files {
				got[f.Path] = f.Data
				if !IsGenerated(f.Data) {
					t.Errorf("%s: not recognised by IsGenerated", f.Path)
				}
			}
			err := filepath.WalkDir(want, func(p string, d os.DirEntry, err error) error {
				if err != nil || d.IsDir() {
					return err
				}
				rel, _ := filepath.Rel(want, p)
				rel = filepath.ToSlash(rel)
				data, err := os.ReadFile(p)
				if err != nil {
					return err
				}
				g, ok := got[rel]
				switch {
				case !ok:
					t.Errorf("%s: in want/ but not generated", rel)
				case !bytes.Equal(g, data):
					t.Errorf("%s: differs from want/ (run go test ./generator -run TestGolden -update)\n%s", rel, firstDiff(string(data), string(g)))
				}
				delete(got, rel)
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			for p := range got {
				t.Errorf("%s: generated but not in want/", p)
			}
		})
	}
}

// firstDiff shows the first differing line.
func firstDiff(want, got string) string {
	wl, gl := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(wl) || i < len(gl); i++ {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w != g {
			return "line " + itoa(i+1) + ":\n  want: " + w + "\n  got:  " + g
		}
	}
	return ""
}

func itoa(i int) string {
	var b []byte
	for ; i > 0 || len(b) == 0; i /= 10 {
		b = append([]byte{byte('0' + i%10)}, b...)
	}
	return string(b)
}

func osDirFS(name string) fs.FS { return os.DirFS(filepath.Join(goldenDir, name)) }
