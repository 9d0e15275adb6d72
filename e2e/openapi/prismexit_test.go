package openapi

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A Prism that exits before it listens is reported with its own output,
// not waited for: here the document's example holds a "$ref" to a URL
// nothing serves, which Prism tries to download (as with GitHub's SCIM
// examples before the sweep's mock copy left them out).
func TestPrismExitReported(t *testing.T) {
	needE2E(t)
	doc := filepath.Join(t.TempDir(), "external-example.yaml")
	const text = `openapi: 3.0.3
info: {title: t, version: "1"}
paths:
  /groups:
    get:
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: {type: object}
              example: {members: [{"$ref": "http://127.0.0.1:9/Users/1"}]}
`
	if err := os.WriteFile(doc, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := tryStartPrism(t, doc)
	if err == nil {
		p.stop()
		t.Fatal("Prism listened on a document whose $ref it cannot resolve")
	}
	if msg := err.Error(); !strings.Contains(msg, "exited before listening") || !strings.Contains(msg, "127.0.0.1:9") {
		t.Errorf("error does not say Prism exited, with its output: %v", err)
	}
}
