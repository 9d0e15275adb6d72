// Package oatest checks the generator on real OpenAPI documents: that they
// generate, compile and vet, and that a generated upstream server calls the
// wrapped API as the document describes.
package oatest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpgen-dev/mcpgen/generator"
	"github.com/mcpgen-dev/mcpgen/spec"
)

// realDocs is where the team keeps the real OpenAPI documents.
const realDocs = "../../../shared/openapi"

func generate(t *testing.T, doc string) (*spec.API, []generator.File) {
	t.Helper()
	if _, err := os.Stat(realDocs); err != nil {
		t.Skipf("no OpenAPI documents at %s: %v", realDocs, err)
	}
	api, err := spec.LoadOpenAPI(os.DirFS(realDocs), doc, spec.OpenAPIConfig{})
	if err != nil {
		t.Fatalf("load %s: %v", doc, err)
	}
	files, err := generator.Generate(api, generator.Options{})
	if err != nil {
		t.Fatalf("generate %s: %v", doc, err)
	}
	return api, files
}

// writeModule writes files (and extra ones) into a temporary module that
// uses this checkout's runtime and returns its directory.
func writeModule(t *testing.T, files []generator.File, extra map[string]string) string {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	write := func(rel string, data []byte) {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// The reference validator of the tests is the one mcpgen's own tests
	// use; go.sum is this checkout's.
	write("go.mod", []byte("module example.com/gen\n\ngo 1.26\n\nrequire (\n\tgithub.com/mcpgen-dev/mcpgen v0.0.0\n\tgithub.com/santhosh-tekuri/jsonschema/v6 v6.0.3\n)\n\nreplace github.com/mcpgen-dev/mcpgen => "+root+"\n"))
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	write("go.sum", sum)
	for _, f := range files {
		write(f.Path, f.Data)
	}
	for name, src := range extra {
		write(name, []byte(src))
	}
	return dir
}

func runGo(t *testing.T, dir string, args ...string) {
	t.Helper()
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go is not on PATH")
	}
	cmd := exec.Command(gobin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// TestPetstoreUpstreamEndToEnd generates the petstore 3.0 server, serves
// it over stdio in front of a fake petstore that checks every request, and
// calls tools the way an MCP client does.
func TestPetstoreUpstreamEndToEnd(t *testing.T) {
	_, files := generate(t, "petstore/swagger-petstore-openapi-3.0.yaml")
	dir := writeModule(t, files, map[string]string{"e2e_test.go": petstoreE2E})
	runGo(t, dir, "test", "-count=1", "./...")
}

const petstoreE2E = `package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/mcpgen-dev/mcpgen/runtime"
	"github.com/mcpgen-dev/mcpgen/runtime/upstream"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

const meta = ` + "`" + `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}` + "`" + `

// fakePetstore answers the requests the tools must send, and fails the
// test on anything else.
func fakePetstore(t *testing.T) *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if r.Header.Get("X-Client-Secret") != "" {
			t.Errorf("an inbound header reached the upstream")
		}
		got := r.Method + " " + r.URL.Path + "?" + r.URL.RawQuery
		w.Header().Set("Content-Type", "application/json")
		switch got {
		case "GET /api/v3/pet/7?":
			if r.Header.Get("Authorization") != "Bearer tok" {
				t.Errorf("getPetById: Authorization %q", r.Header.Get("Authorization"))
			}
			io.WriteString(w, ` + "`" + `{"id":7,"name":"Rex","photoUrls":[],"status":"available"}` + "`" + `)
		case "GET /api/v3/pet/404?":
			w.WriteHeader(404)
			io.WriteString(w, ` + "`" + `{"message":"Pet not found"}` + "`" + `)
		case "GET /api/v3/pet/findByStatus?status=sold":
			io.WriteString(w, ` + "`" + `[{"id":1,"name":"a","photoUrls":["u"]}]` + "`" + `)
		case "POST /api/v3/pet?":
			var p map[string]any
			if err := json.Unmarshal(body, &p); err != nil || p["name"] != "Tom" || r.Header.Get("Content-Type") != "application/json" {
				t.Errorf("addPet: body %s (%v), content type %q", body, err, r.Header.Get("Content-Type"))
			}
			w.Write(body)
		case "DELETE /api/v3/pet/3?":
			w.Header().Set("Content-Type", "text/plain")
			io.WriteString(w, "deleted")
		case "POST /api/v3/pet/3/uploadImage?additionalMetadata=cute":
			if string(body) != "\x89PNG" || r.Header.Get("Content-Type") != "application/octet-stream" {
				t.Errorf("uploadFile: body %q, content type %q", body, r.Header.Get("Content-Type"))
			}
			io.WriteString(w, ` + "`" + `{"code":200,"type":"ok","message":"uploaded"}` + "`" + `)
		default:
			t.Errorf("unexpected request %s %s", got, body)
			w.WriteHeader(500)
		}
	}))
}

type client struct {
	w   io.Writer
	sc  *bufio.Scanner
	ids int
}

func serve(t *testing.T, h Handler) *client {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	srv := NewServer(h, runtime.Options{})
	go func() { srv.ServeStdio(ctx, inR, outW, runtime.StdioOptions{}); outW.Close() }()
	t.Cleanup(func() { cancel(); inW.Close() })
	sc := bufio.NewScanner(outR)
	sc.Buffer(nil, 1<<20)
	return &client{w: inW, sc: sc}
}

func (c *client) call(t *testing.T, tool, args string) map[string]any {
	t.Helper()
	c.ids++
	fmt.Fprintf(c.w, ` + "`" + `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{%s,"name":%q,"arguments":%s}}` + "`" + `+"\n", c.ids, meta, tool, args)
	if !c.sc.Scan() {
		t.Fatalf("%s: no answer", tool)
	}
	var resp struct {
		Result map[string]any
		Error  any
	}
	if err := json.Unmarshal(c.sc.Bytes(), &resp); err != nil || resp.Error != nil {
		t.Fatalf("%s: %s", tool, c.sc.Bytes())
	}
	return resp.Result
}

func text(r map[string]any) string {
	b, _ := json.Marshal(r["content"])
	return string(b)
}

func TestUpstreamTools(t *testing.T) {
	up := fakePetstore(t)
	defer up.Close()
	u := NewUpstream(up.URL+"/api/v3", upstream.WithCredentials(upstream.Credentials{"petstore_auth": {Token: "tok"}}))
	c := serve(t, u)

	r := c.call(t, "getPetById", ` + "`" + `{"petId":7}` + "`" + `)
	if sc, _ := r["structuredContent"].(map[string]any); sc["name"] != "Rex" || r["isError"] == true {
		t.Errorf("getPetById: %v", r)
	}
	r = c.call(t, "getPetById", ` + "`" + `{"petId":404}` + "`" + `)
	if r["isError"] != true || !strings.Contains(text(r), "404") || !strings.Contains(text(r), "Pet not found") {
		t.Errorf("getPetById 404: %v", r)
	}
	r = c.call(t, "findPetsByStatus", ` + "`" + `{"status":"sold"}` + "`" + `)
	if r["isError"] == true || r["structuredContent"] == nil {
		t.Errorf("findPetsByStatus: %v", r)
	}
	r = c.call(t, "addPet", ` + "`" + `{"name":"Tom","photoUrls":["x"]}` + "`" + `)
	if sc, _ := r["structuredContent"].(map[string]any); sc["name"] != "Tom" {
		t.Errorf("addPet: %v", r)
	}
	r = c.call(t, "deletePet", ` + "`" + `{"petId":3}` + "`" + `)
	if r["isError"] == true || !strings.Contains(text(r), "deleted") {
		t.Errorf("deletePet: %v", r)
	}
	r = c.call(t, "uploadFile", ` + "`" + `{"petId":3,"additionalMetadata":"cute","body":"iVBORw=="}` + "`" + `)
	if sc, _ := r["structuredContent"].(map[string]any); sc["message"] != "uploaded" {
		t.Errorf("uploadFile: %v", r)
	}
}

// TestResponseDeviations: the petstore API answers what its document does
// not say (a required property missing, an undocumented one, an unlisted
// enum value, a null where no null is allowed). The data still comes back
// as structuredContent, valid against the outputSchema the tool lists (as
// checked by a reference validator), and the server logs each deviation
// with the tool and the JSON pointer. A response outside even the tolerant
// shape is an isError result carrying the data, never "invalid arguments".
func TestResponseDeviations(t *testing.T) {
	const deviant = ` + "`" + `{"id":1,"photoUrls":["u"],"status":"adopted","category":null,"nickname":"Bo","tags":[{"id":null,"name":"x"}]}` + "`" + `
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/api/v3/pet/1":
			io.WriteString(w, "{\n  "+deviant[1:])
		case "/api/v3/pet/2":
			io.WriteString(w, ` + "`" + `{"id":"two","name":"x","photoUrls":[]}` + "`" + `)
		default:
			w.WriteHeader(404)
		}
	}))
	defer up.Close()
	var logs syncBuffer
	logger := slog.New(slog.NewTextHandler(&logs, nil))
	c := serve(t, NewUpstream(up.URL+"/api/v3", upstream.WithLogger(logger)))

	schemas := map[string]*jsonschema.Schema{}
	for _, tool := range c.list(t) {
		if tool.OutputSchema == nil {
			continue
		}
		comp := jsonschema.NewCompiler()
		comp.DefaultDraft(jsonschema.Draft2020)
		comp.AssertFormat()
		doc, err := jsonschema.UnmarshalJSON(strings.NewReader(string(tool.OutputSchema)))
		if err != nil {
			t.Fatal(err)
		}
		if err := comp.AddResource(tool.Name+".json", doc); err != nil {
			t.Fatal(err)
		}
		if schemas[tool.Name], err = comp.Compile(tool.Name + ".json"); err != nil {
			t.Fatalf("%s: the outputSchema does not compile: %v", tool.Name, err)
		}
	}

	r := c.call(t, "getPetById", ` + "`" + `{"petId":1}` + "`" + `)
	if r["isError"] == true {
		t.Fatalf("getPetById: the deviating response is an error: %v", r)
	}
	got, _ := json.Marshal(r["structuredContent"])
	var want any
	json.Unmarshal([]byte(deviant), &want)
	if w, _ := json.Marshal(want); string(got) != string(w) {
		t.Errorf("structuredContent %s, want the response %s", got, w)
	}
	if err := schemas["getPetById"].Validate(r["structuredContent"]); err != nil {
		t.Errorf("structuredContent breaks the listed outputSchema: %v", err)
	}
	for _, want := range []string{"pointer=/name", "pointer=/status", "pointer=/category", "pointer=/tags/0/id"} {
		if !strings.Contains(logs.String(), "tool=getPetById "+want) {
			t.Errorf("no deviation log with tool=getPetById %s:\n%s", want, logs.String())
		}
	}
	// The same deviations again are not logged again.
	before := strings.Count(logs.String(), "\n")
	c.call(t, "getPetById", ` + "`" + `{"petId":1}` + "`" + `)
	if after := strings.Count(logs.String(), "\n"); after != before {
		t.Errorf("the same deviations were logged again:\n%s", logs.String())
	}

	r = c.call(t, "getPetById", ` + "`" + `{"petId":2}` + "`" + `)
	if r["isError"] != true || r["structuredContent"] != nil || !strings.Contains(text(r), "outside its documented shape") ||
		!strings.Contains(text(r), ` + "`" + `\"id\":\"two\"` + "`" + `) || strings.Contains(text(r), "invalid arguments") {
		t.Errorf("getPetById with a string id: %v", r)
	}
	if !strings.Contains(logs.String(), "outside its documented shape") || !strings.Contains(logs.String(), "pointer=/id") {
		t.Errorf("the shape error was not logged:\n%s", logs.String())
	}
}

// syncBuffer is a bytes.Buffer safe for the server's goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

type listedTool struct {
	Name         string
	OutputSchema json.RawMessage
}

func (c *client) list(t *testing.T) []listedTool {
	t.Helper()
	c.ids++
	fmt.Fprintf(c.w, ` + "`" + `{"jsonrpc":"2.0","id":%d,"method":"tools/list","params":{%s}}` + "`" + `+"\n", c.ids, meta)
	if !c.sc.Scan() {
		t.Fatalf("tools/list: no answer")
	}
	var resp struct {
		Result struct{ Tools []listedTool }
	}
	if err := json.Unmarshal(c.sc.Bytes(), &resp); err != nil || len(resp.Result.Tools) == 0 {
		t.Fatalf("tools/list: %s", c.sc.Bytes())
	}
	return resp.Result.Tools
}

// myPets replaces one operation and keeps the generated others.
type myPets struct{ *Upstream }

func (myPets) GetPetByID(ctx context.Context, in GetPetByIDInput) (*runtime.ToolResult, error) {
	if in.PetID != 7 {
		return nil, fmt.Errorf("pet %d: the input was not decoded", in.PetID)
	}
	return runtime.StructuredResult([]byte(` + "`" + `{"name":"mine","photoUrls":[]}` + "`" + `)), nil
}

func TestOverrideOneOperation(t *testing.T) {
	up := fakePetstore(t)
	defer up.Close()
	c := serve(t, myPets{NewUpstream(up.URL + "/api/v3")})
	if sc, _ := c.call(t, "getPetById", ` + "`" + `{"petId":7}` + "`" + `)["structuredContent"].(map[string]any); sc["name"] != "mine" {
		t.Errorf("the override was not called: %v", sc)
	}
	if r := c.call(t, "findPetsByStatus", ` + "`" + `{"status":"sold"}` + "`" + `); r["structuredContent"] == nil {
		t.Errorf("the generated operation is gone: %v", r)
	}
}
`
