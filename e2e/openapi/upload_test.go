package openapi

import (
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// recorded is the upload request a recording upstream received.
type recorded struct {
	method, path, query, contentType string
	body                             []byte
}

// recordingUpstream answers every request with the petstore's ApiResponse
// and keeps the last one.
func recordingUpstream(t *testing.T) (*httptest.Server, func() recorded) {
	t.Helper()
	var mu sync.Mutex
	var last recorded
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		last = recorded{r.Method, r.URL.Path, r.URL.RawQuery, r.Header.Get("Content-Type"), b}
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"code":200,"type":"ok","message":"uploaded"}`)
	}))
	t.Cleanup(srv.Close)
	return srv, func() recorded { mu.Lock(); defer mu.Unlock(); return last }
}

// uploaded is the decoded sample file (see sampleString).
const uploaded = "hello, upstream!"

// checkMultipartUpload calls the Swagger 2.0 uploadFile (formData with a
// file) and checks the multipart body field by field.
func checkMultipartUpload(t *testing.T, bin string) {
	t.Helper()
	up, last := recordingUpstream(t)
	c := startServer(t, bin, up.URL, petstoreCredentials()...)
	res := c.callTool("uploadFile", map[string]any{"petId": 7, "additionalMetadata": "front view", "file": "aGVsbG8sIHVwc3RyZWFtIQ=="})
	if res.IsError || !strings.Contains(string(res.StructuredContent), `"uploaded"`) {
		t.Fatalf("uploadFile: %s %s", res.StructuredContent, res.text())
	}
	r := last()
	mt, params, err := mime.ParseMediaType(r.contentType)
	if r.method != "POST" || r.path != "/pet/7/uploadImage" || err != nil || mt != "multipart/form-data" {
		t.Fatalf("request %s %s, Content-Type %q (%v)", r.method, r.path, r.contentType, err)
	}
	parts := map[string]string{}
	mr := multipart.NewReader(strings.NewReader(string(r.body)), params["boundary"])
	for {
		p, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("multipart body %q: %v", r.body, err)
		}
		b, _ := io.ReadAll(p)
		parts[p.FormName()] = string(b)
		if p.FormName() == "file" && p.FileName() == "" {
			t.Errorf("the file part has no filename, so servers read it as a plain field")
		}
	}
	if parts["file"] != uploaded || parts["additionalMetadata"] != "front view" || len(parts) != 2 {
		t.Errorf("multipart fields %q, want file=%q and additionalMetadata", parts, uploaded)
	}
}

// checkOctetStreamUpload calls the OpenAPI 3.0 uploadFile, whose body is
// the raw file (application/octet-stream) and metadata a query parameter.
func checkOctetStreamUpload(t *testing.T, bin string) {
	t.Helper()
	up, last := recordingUpstream(t)
	c := startServer(t, bin, up.URL, petstoreCredentials()...)
	res := c.callTool("uploadFile", map[string]any{"petId": 7, "additionalMetadata": "front view", "body": "aGVsbG8sIHVwc3RyZWFtIQ=="})
	if res.IsError || !strings.Contains(string(res.StructuredContent), `"uploaded"`) {
		t.Fatalf("uploadFile: %s %s", res.StructuredContent, res.text())
	}
	r := last()
	if r.method != "POST" || r.path != "/pet/7/uploadImage" || r.query != "additionalMetadata=front+view" && r.query != "additionalMetadata=front%20view" ||
		r.contentType != "application/octet-stream" || string(r.body) != uploaded {
		t.Errorf("request %s %s?%s, Content-Type %q, body %q; want the raw file", r.method, r.path, r.query, r.contentType, r.body)
	}
}
