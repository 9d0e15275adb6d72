package schema

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestPublishedPatternsCompileInECMAScript compiles the translation of
// every pattern of the shared OpenAPI documents (../shared/openapi beside
// the repository), and of the table above, with new RegExp(p, "u") in
// Node: what Ajv does for the official TypeScript SDK.
func TestPublishedPatternsCompileInECMAScript(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed")
	}
	patterns := map[string]bool{`^[a-zA-Z0-9_\-\:]+$`: true, `(?i)straße`: true, `[^\d\s]+`: true, `a.b`: true}
	files, _ := filepath.Glob("../../../shared/openapi/*/*.json")
	key := regexp.MustCompile(`"pattern"\s*:\s*("(?:[^"\\]|\\.)*")`)
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range key.FindAllSubmatch(data, -1) {
			var p string
			if json.Unmarshal(m[1], &p) == nil {
				patterns[p] = true
			}
		}
	}
	var translated []string
	for p := range patterns {
		if out, ok := PublishedPattern(p); ok {
			translated = append(translated, out)
		}
	}
	in, _ := json.Marshal(translated)
	script := `const ps = JSON.parse(require("fs").readFileSync(0, "utf8")); let bad = 0;
for (const p of ps) { try { new RegExp(p, "u") } catch (e) { bad++; console.log(JSON.stringify(p) + ": " + e.message) } }
console.log("checked " + ps.length + ", failed " + bad); process.exit(bad ? 1 : 0)`
	cmd := exec.Command(node, "-e", script)
	cmd.Stdin = strings.NewReader(string(in))
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	t.Logf("%d patterns of the shared documents; %s", len(patterns), out)
}
