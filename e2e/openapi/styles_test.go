package openapi

import (
	"bytes"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"
)

// prismSend sends one request to p and returns Prism's verdict on it,
// failing the test when Prism dies on it.
func prismSend(t *testing.T, p *prism, method, path string, header http.Header, body string) prismVerdict {
	t.Helper()
	p.settle()
	from := len(p.log.String())
	req, err := http.NewRequest(method, p.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for k, vs := range header {
		req.Header[k] = vs
	}
	if resp, err := http.DefaultClient.Do(req); err == nil {
		resp.Body.Close()
	}
	p.settle()
	if msg, dead := p.crashed(); dead {
		t.Fatalf("%s %s: the mock died: %s", method, path, msg)
	}
	return p.verdict(from)
}

// TestPrismParamStyles sends Prism parameters of every style it died on
// or misread before patch-prism.mjs (OpenAPI 3's style examples): array
// and object path parameters of the simple, label and matrix styles,
// exploded or not; optional array and object headers, given and left
// out; space- and pipe-delimited query arrays and objects. With the patch
// Prism decodes each as OpenAPI defines it and judges every item: valid
// values are accepted and a bad item in any of them is refused.
// Unpatched (checked by hand with curl), Prism dies on the simple and
// non-exploded matrix path parameters ("value.split is not a function",
// "parameters[name].startsWith is not a function"), on the request
// without headers ("Cannot read properties of undefined (reading
// 'split')") and on every request to /q, whose object parameters it
// throws on even when absent ("Space/pipe/comma.. delimited style is only
// applicable to array parameter"); it refuses the valid exploded label
// object, which it splits at "," ("obj.n must be integer"). It splits a
// spaceDelimited value at the text "%20", which its server has already
// decoded.
func TestPrismParamStyles(t *testing.T) {
	needE2E(t)
	p := startPrism(t, "testdata/param-styles-api.yaml")
	for _, tc := range []struct {
		path     string
		header   http.Header
		accepted bool
	}{
		{"/p/simple/1,2/n,3,m,4", nil, true},
		{"/p/simple/1/n,3", nil, true},
		{"/p/simple/1,x/n,3", nil, false},
		{"/p/simple/1,2/n,3,m,x", nil, false},
		{"/p/simplex/1,2/n=3,m=4", nil, true},
		{"/p/simplex/1,2/n=3,m=x", nil, false},
		{"/p/label/.1,2/.n,3,m,4", nil, true},
		{"/p/label/.x,2/.n,3", nil, false},
		{"/p/label/.1,2/.n,x", nil, false},
		{"/p/labelx/.1.2/.n=3.m=4", nil, true},
		{"/p/labelx/.1.x/.n=3", nil, false},
		{"/p/labelx/.1/.n=3.m=x", nil, false},
		{"/p/matrix/;arr=1,2/;obj=n,3,m,4", nil, true},
		{"/p/matrix/;arr=1,x/;obj=n,3", nil, false},
		{"/p/matrix/;arr=1/;obj=n,x", nil, false},
		{"/p/matrixx/;arr=1;arr=2/;n=3;m=4", nil, true},
		{"/p/matrixx/;arr=1;arr=x/;n=3", nil, false},
		{"/p/matrixx/;arr=1/;n=3;m=x", nil, false},
		{"/h", nil, true},
		{"/h", http.Header{"X-Arr": {"1,2"}, "X-Obj": {"n,3"}}, true},
		{"/h", http.Header{"X-Arr": {"1,x"}}, false},
		{"/h", http.Header{"X-Obj": {"n,x"}}, false},
		{"/q", nil, true},
		{"/q?s=1%202&so=n%203%20m%204&p=1|2&po=n|3|m|4", nil, true},
		{"/q?s=1%20x", nil, false},
		{"/q?so=n%203%20m%20x", nil, false},
		{"/q?p=1|x", nil, false},
		{"/q?po=n|x", nil, false},
		{"/qx?n=3", nil, true},
		{"/qx?n=x", nil, false},
	} {
		if v := prismSend(t, p, http.MethodGet, tc.path, tc.header, ""); v.accepted() != tc.accepted {
			t.Errorf("%s %v: accepted %v, want %v (%s)", tc.path, tc.header, v.accepted(), tc.accepted, v.reason())
		}
	}
}

// TestPrismNoConsumes sends Prism JSON bodies for a Swagger 2.0 body
// parameter whose operation and document give no `consumes`: with the
// patch Prism reads it as application/json (what mcpgen sends) and judges
// the body. Unpatched, it refuses every body ("No supported content
// types, but request included a non-empty body").
func TestPrismNoConsumes(t *testing.T) {
	needE2E(t)
	p := startPrism(t, "testdata/no-consumes-2.0.yaml")
	json := http.Header{"Content-Type": {"application/json"}}
	for body, accepted := range map[string]bool{
		`{"n": 1}`:   true,
		`{"n": "x"}`: false,
		`{}`:         false,
	} {
		if v := prismSend(t, p, http.MethodPost, "/things", json, body); v.accepted() != accepted {
			t.Errorf("%s: accepted %v, want %v (%s)", body, v.accepted(), accepted, v.reason())
		}
	}
}

// TestPrismMultipart sends Prism multipart bodies as OpenAPI defines them
// and the server sends them: an object property as a JSON part (its
// `encoding` style, which OpenAPI ignores for multipart, notwithstanding),
// an array as one part per item, an array of objects as one JSON part per
// item. With the patch Prism decodes each and judges it: valid values
// accepted, a bad property or item refused. Unpatched (seen in the
// readme-oas-examples sweep), it refuses the JSON part of a property with
// an `encoding` ("Reserved characters used in request body") and keeps
// any other as text ("must be object").
func TestPrismMultipart(t *testing.T) {
	needE2E(t)
	p := startPrism(t, "testdata/multipart-api.yaml")
	for _, tc := range []struct {
		parts    [][2]string
		accepted bool
	}{
		{[][2]string{{"obj", `{"n":1}`}, {"tags", "a"}, {"tags", "b"}}, true},
		{[][2]string{{"tags", "a"}}, true},
		{[][2]string{{"items", `{"n":1}`}, {"items", `{"n":2}`}}, true},
		{[][2]string{{"obj", `{"n":"x"}`}}, false},
		{[][2]string{{"tags", "a"}, {"tags", "c"}}, false},
		{[][2]string{{"items", `{"n":1}`}, {"items", `{"n":"x"}`}}, false},
	} {
		var b bytes.Buffer
		w := multipart.NewWriter(&b)
		for _, part := range tc.parts {
			w.WriteField(part[0], part[1])
		}
		w.Close()
		h := http.Header{"Content-Type": {w.FormDataContentType()}}
		if v := prismSend(t, p, http.MethodPost, "/m", h, b.String()); v.accepted() != tc.accepted {
			t.Errorf("%q: accepted %v, want %v (%s)", tc.parts, v.accepted(), tc.accepted, v.reason())
		}
	}
}
