package surface_test

import (
	"strings"
	"testing"

	"github.com/mcpgen-dev/mcpgen/surface"
)

// TestDigestPatternProperties: adding, changing or removing a
// patternProperties pattern or its schema changes the tool's digest, so
// mcpgen check and the lock file see it.
func TestDigestPatternProperties(t *testing.T) {
	const src = `tools:
  t:
    input:
      properties:
        labels: {type: object, patternProperties: {"^x-": {type: string, maxLength: 8}}}
`
	d := func(src string) string { return surface.FromAPI(load(t, src)).Tools[0].InputDigest }
	base := d(src)
	for name, cur := range map[string]string{
		"pattern changed":  strings.Replace(src, `"^x-"`, `"^y-"`, 1),
		"schema changed":   strings.Replace(src, "maxLength: 8", "maxLength: 9", 1),
		"pattern added":    strings.Replace(src, `{type: string, maxLength: 8}}`, `{type: string, maxLength: 8}, "^z": {type: string}}`, 1),
		"patterns removed": strings.Replace(src, `, patternProperties: {"^x-": {type: string, maxLength: 8}}`, ``, 1),
	} {
		if cur == src {
			t.Fatalf("%s: the edit did not apply", name)
		}
		if d(cur) == base {
			t.Errorf("%s: the digest did not change", name)
		}
	}
}
