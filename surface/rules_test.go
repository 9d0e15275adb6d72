package surface_test

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpgen-dev/mcpgen/spec"
	"github.com/mcpgen-dev/mcpgen/surface"
)

var update = flag.Bool("update", false, "rewrite the want.txt files of testdata/breaking")

// TestRuleCases runs the cases of ../testdata/breaking, laid out as buf's:
// previous/<RULE>/mcpgen.yaml against current/<RULE>/mcpgen.yaml must report
// RULE as breaking, and against safe/<RULE>/mcpgen.yaml (a nearby change
// that keeps clients working) nothing breaking. Every breaking rule has a
// case, and each case's whole output is kept in want.txt beside it.
func TestRuleCases(t *testing.T) {
	const root = "../testdata/breaking"
	for _, r := range surface.Rules() {
		if !r.Breaking {
			continue
		}
		t.Run(r.ID, func(t *testing.T) {
			prev := loadDir(t, filepath.Join(root, "previous", r.ID))
			for _, kind := range []string{"current", "safe"} {
				dir := filepath.Join(root, kind, r.ID)
				cs := surface.Compare(surface.FromAPI(prev), surface.FromAPI(loadDir(t, dir)))
				var lines []string
				found, breaking := false, false
				for _, c := range cs {
					line := spec.Diagnostic{Pos: c.Pos, Message: c.Detail(func(f string) string { return f })}.String()
					if !c.Breaking {
						line = "safe: " + line
					}
					lines = append(lines, line)
					found = found || (c.Breaking && c.Rule == r.ID)
					breaking = breaking || c.Breaking
				}
				if kind == "current" && !found {
					t.Errorf("%s: no %s change:\n%s", dir, r.ID, strings.Join(lines, "\n"))
				}
				if kind == "safe" && breaking {
					t.Errorf("%s: a safe change was judged breaking:\n%s", dir, strings.Join(lines, "\n"))
				}
				got := ""
				for _, l := range lines {
					got += l + "\n"
				}
				wantFile := filepath.Join(dir, "want.txt")
				if *update {
					if err := os.WriteFile(wantFile, []byte(got), 0o644); err != nil {
						t.Fatal(err)
					}
					continue
				}
				want, err := os.ReadFile(wantFile)
				if err != nil {
					t.Fatal(err)
				}
				if got != string(want) {
					t.Errorf("%s:\n%s\nwant:\n%s", dir, got, want)
				}
			}
		})
	}
}

func loadDir(t *testing.T, dir string) *spec.API {
	t.Helper()
	api, err := spec.Load(os.DirFS(dir), "mcpgen.yaml")
	if err != nil {
		t.Fatalf("%s: %v", dir, err)
	}
	return api
}
