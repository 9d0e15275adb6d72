package spec_test

import (
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"golang.org/x/tools/txtar"

	"github.com/mcpgen-dev/mcpgen/spec"
)

var update = flag.Bool("update", false, "rewrite the expected stderr of testdata/diag cases")

// TestDiagnostics loads the mcpgen.yaml of every testdata/diag/*.txtar case
// and compares the diagnostics with the case's stderr file.
func TestDiagnostics(t *testing.T) {
	files, err := filepath.Glob("../testdata/diag/*.txtar")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 20 {
		t.Fatalf("found %d diagnostics cases, want at least 20", len(files))
	}
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".txtar")
		t.Run(name, func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			fsys := fstest.MapFS{}
			var want []byte
			stderrAt := -1
			for i, f := range ar.Files {
				if f.Name == "stderr" {
					want, stderrAt = f.Data, i
					continue
				}
				fsys[f.Name] = &fstest.MapFile{Data: f.Data}
			}
			if fsys["mcpgen.yaml"] == nil {
				t.Fatal("case has no mcpgen.yaml")
			}
			_, err = spec.Load(fsys, "mcpgen.yaml")
			var ds spec.Diagnostics
			if !errors.As(err, &ds) {
				t.Fatalf("Load returned %v, want spec.Diagnostics", err)
			}
			got := []byte(ds.Error() + "\n")
			if *update {
				if stderrAt < 0 {
					ar.Files = append(ar.Files, txtar.File{Name: "stderr", Data: got})
				} else {
					ar.Files[stderrAt].Data = got
				}
				if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			if string(got) != string(want) {
				t.Errorf("diagnostics differ\ngot:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}
