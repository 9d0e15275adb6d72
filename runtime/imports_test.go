package runtime

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestImportDirection holds the runtime's packages to their one-way
// imports: upstream → runtime → wire, runtime → search, and wire and
// search → the standard library only; otelmcp → runtime and the
// OpenTelemetry API, which nothing else of the runtime imports. Test files
// may import more (a test of the core builds wire values). A path ending in
// "/" allows the packages under it.
func TestImportDirection(t *testing.T) {
	const module = "github.com/mcpgen-dev/mcpgen/"
	allowed := map[string][]string{
		".":        {module + "runtime/wire", module + "runtime/search"},
		"wire":     nil,
		"search":   nil,
		"upstream": {module + "runtime", module + "runtime/wire"},
		"otelmcp":  {module + "runtime", "go.opentelemetry.io/otel", "go.opentelemetry.io/otel/"},
	}
	for dir, ours := range allowed {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil || len(files) == 0 {
			t.Fatalf("%s: no Go files (%v)", dir, err)
		}
		for _, file := range files {
			if strings.HasSuffix(file, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.ImportsOnly)
			if err != nil {
				t.Fatal(err)
			}
			for _, spec := range f.Imports {
				path, _ := strconv.Unquote(spec.Path.Value)
				first, _, _ := strings.Cut(path, "/")
				if !strings.Contains(first, ".") {
					continue // the standard library
				}
				ok := false
				for _, p := range ours {
					ok = ok || path == p || strings.HasSuffix(p, "/") && strings.HasPrefix(path, p)
				}
				if !ok {
					t.Errorf("%s imports %s; the package may import only the standard library and %q", file, path, ours)
				}
			}
		}
	}
}
