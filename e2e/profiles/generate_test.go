package profiles

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/mcpgen-dev/mcpgen/generator"
	"github.com/mcpgen-dev/mcpgen/spec"
)

var versionLine = regexp.MustCompile(`(?m)^// mcpgen .*\n`)

// TestGeneratedUpToDate fails when ./profilesmcp is not what mcpgen.yaml
// generates today, so the end-to-end test never drives stale code.
func TestGeneratedUpToDate(t *testing.T) {
	api, err := spec.Load(os.DirFS("."), "mcpgen.yaml")
	if err != nil {
		t.Fatal(err)
	}
	files, err := generator.Generate(api, generator.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		got, err := os.ReadFile(filepath.FromSlash(f.Path))
		if err != nil {
			t.Fatalf("%v (run go generate ./e2e/profiles)", err)
		}
		// The CLI records its version in one line that Generate leaves out
		// without Options.Version.
		got = versionLine.ReplaceAll(got, nil)
		if !bytes.Equal(got, f.Data) {
			t.Errorf("%s is stale: run go generate ./e2e/profiles", f.Path)
		}
	}
}
