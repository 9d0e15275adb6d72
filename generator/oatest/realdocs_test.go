package oatest

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

var toolNameRE = regexp.MustCompile(`^[A-Za-z0-9_.-]{1,64}$`)

// maxBuildBytes is the generated size above which a document is not
// compiled with -short (GitHub, OpenAI, Argo, Discord, Stripe take
// minutes); its schemas and names are still checked.
const maxBuildBytes = 8 << 20

// TestRealDocumentsGenerate generates every shared OpenAPI document and
// checks what clients rely on: tool names valid and unique, every schema a
// valid draft 2020-12 schema to a reference validator, and the Go code
// compiling and vetting.
func TestRealDocumentsGenerate(t *testing.T) {
	var docs []string
	filepath.WalkDir(realDocs, func(p string, d fs.DirEntry, err error) error {
		switch strings.ToLower(filepath.Ext(p)) {
		case ".json", ".yaml", ".yml":
			rel, _ := filepath.Rel(realDocs, p)
			docs = append(docs, filepath.ToSlash(rel))
		}
		return nil
	})
	if len(docs) == 0 {
		t.Skipf("no documents under %s", realDocs)
	}
	for _, doc := range docs {
		t.Run(doc, func(t *testing.T) {
			if info, err := os.Stat(filepath.Join(realDocs, doc)); err == nil && testing.Short() && info.Size() > 3<<20 {
				t.Skip("-short: documents over 3 MB (GitHub, Stripe) take minutes")
			}
			start := time.Now()
			api, files := generate(t, doc)
			genTime := time.Since(start)
			seen := map[string]bool{}
			for _, tool := range api.Tools {
				if !toolNameRE.MatchString(tool.Name) {
					t.Errorf("tool name %q is not 1-64 chars of [A-Za-z0-9_.-]", tool.Name)
				}
				if seen[tool.Name] {
					t.Errorf("tool name %q twice", tool.Name)
				}
				seen[tool.Name] = true
			}
			size := 0
			c := jsonschema.NewCompiler()
			c.DefaultDraft(jsonschema.Draft2020)
			var urls []string
			for _, f := range files {
				size += len(f.Data)
				if !strings.HasSuffix(f.Path, ".schema.json") {
					continue
				}
				v, err := jsonschema.UnmarshalJSON(bytes.NewReader(f.Data))
				if err != nil {
					t.Fatalf("%s: %v", f.Path, err)
				}
				u := "mem:///" + f.Path
				if err := c.AddResource(u, v); err != nil {
					t.Fatalf("%s: %v", f.Path, err)
				}
				urls = append(urls, u)
			}
			for _, u := range urls {
				if _, err := c.Compile(u); err != nil {
					t.Errorf("%s does not compile as a 2020-12 schema: %v", u, err)
				}
			}
			if len(urls) != 0 && !json.Valid(files[0].Data) && strings.HasSuffix(files[0].Path, ".json") {
				t.Errorf("%s is not JSON", files[0].Path)
			}
			checked := time.Since(start) - genTime
			if testing.Short() && size > maxBuildBytes {
				t.Logf("%d tools, %.1f MB generated in %v, schemas checked in %v; build skipped with -short", len(api.Tools), float64(size)/(1<<20), genTime.Round(time.Millisecond), checked.Round(time.Millisecond))
				return
			}
			dir := writeModule(t, files, nil)
			b := time.Now()
			runGo(t, dir, "vet", "./...")
			t.Logf("%d tools, %.1f MB generated in %v, schemas checked in %v, vet in %v", len(api.Tools), float64(size)/(1<<20), genTime.Round(time.Millisecond), checked.Round(time.Millisecond), time.Since(b).Round(time.Millisecond))
		})
	}
}
