package openapi

import (
	"bytes"
	"mime/multipart"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestPrismPatched checks that patch-prism.mjs, which npm ci runs, has
// patched the installed Prism (see docs/openapi.md, "Prism's form
// arrays").
func TestPrismPatched(t *testing.T) {
	if _, err := os.Stat("node_modules"); err != nil {
		t.Skip("npm ci has not run in e2e/openapi")
	}
	if out, err := exec.Command("node", "patch-prism.mjs", "-check").CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
}

// TestPrismFormArrays sends Prism form and multipart bodies whose array
// properties have no `encoding`, each item as its own key=value pair or
// part (OpenAPI's default, style form, explode true, and what the
// generated server sends): with the patch, Prism builds the array and
// judges every item, so it accepts valid arrays of one or more items and
// refuses an invalid item in any place. Unpatched, it refuses every one
// ("must be array").
func TestPrismFormArrays(t *testing.T) {
	needE2E(t)
	p := startPrism(t, "testdata/form-array-api.yaml")
	post := func(path, ctype, body string) prismVerdict {
		t.Helper()
		p.settle()
		from := len(p.log.String())
		resp, err := http.Post(p.URL+path, ctype, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		p.settle()
		return p.verdict(from)
	}
	const form = "application/x-www-form-urlencoded"
	for body, accepted := range map[string]bool{
		"To=a&Event=initiated":                               true,
		"To=a&Event=initiated&Event=ringing&Count=1&Count=2": true,
		"To=a%2Cb&Event=answered":                            true,
		"To=a&Event=initiated&Event=bogus":                   false,
		"To=a&Event=bogus&Event=initiated":                   false,
		"To=a&Count=1&Count=x":                               false,
		"Event=initiated&Event=ringing":                      false,
	} {
		if v := post("/calls", form, body); v.accepted() != accepted {
			t.Errorf("form %s: accepted %v, want %v (%s)", body, v.accepted(), accepted, v.reason())
		}
	}
	for _, tc := range []struct {
		include  []string
		accepted bool
	}{
		{[]string{"words"}, true},
		{[]string{"logprobs", "words"}, true},
		{[]string{"logprobs", "bogus"}, false},
	} {
		var b bytes.Buffer
		w := multipart.NewWriter(&b)
		w.WriteField("model", "m")
		for _, s := range tc.include {
			w.WriteField("include", s)
		}
		w.Close()
		if v := post("/transcriptions", w.FormDataContentType(), b.String()); v.accepted() != tc.accepted {
			t.Errorf("multipart include %q: accepted %v, want %v (%s)", tc.include, v.accepted(), tc.accepted, v.reason())
		}
	}
}
