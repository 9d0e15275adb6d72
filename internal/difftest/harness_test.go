package difftest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// pkgFiles is the generated code of one package: path → bytes, paths
// relative to the package directory.
type pkgFiles map[string][]byte

// moduleRoot is this checkout, which the temporary module replaces
// mcpgen with.
func moduleRoot(t testing.TB) string {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// readPkg reads a generated package from disk.
func readPkg(t testing.TB, dir string) pkgFiles {
	files := pkgFiles{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if strings.HasSuffix(rel, "_test.go") {
			return nil
		}
		data, err := os.ReadFile(p)
		files[filepath.ToSlash(rel)] = data
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func pkgName(t testing.TB, files pkgFiles) string {
	for _, line := range strings.Split(string(files["mcpgen_server_gen.go"]), "\n") {
		if name, ok := strings.CutPrefix(line, "package "); ok {
			return strings.TrimSpace(name)
		}
	}
	t.Fatal("no package clause in mcpgen_server_gen.go")
	return ""
}

// buildServers writes every package into one temporary module, each with a
// main that serves it over stdio with UnimplementedHandler, builds them all
// at once and returns the binaries by package key.
func buildServers(t testing.TB, pkgs map[string]pkgFiles) map[string]string {
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go is not on PATH")
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
	write("go.mod", []byte("module example.com/difft\n\ngo 1.26\n\nrequire github.com/mcpgen-dev/mcpgen v0.0.0\n\nreplace github.com/mcpgen-dev/mcpgen => "+moduleRoot(t)+"\n"))
	for key, files := range pkgs {
		for rel, data := range files {
			write("gen/"+key+"/"+rel, data)
		}
		write("cmd/"+key+"/main.go", []byte(fmt.Sprintf(`package main

import (
	"context"
	"log/slog"
	"io"
	"os"

	gen "example.com/difft/gen/%s"
	"github.com/mcpgen-dev/mcpgen/runtime"
)

func main() {
	// Every toolset: a case may choose default toolsets (surface:), and
	// every tool is compared.
	s := gen.NewServer(gen.UnimplementedHandler{}, runtime.Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Toolsets: []string{runtime.ToolsetsAll}})
	s.ServeStdio(context.Background(), os.Stdin, os.Stdout, runtime.StdioOptions{})
}
`, key)))
	}
	bin := filepath.Join(dir, "bin")
	cmd := exec.Command(gobin, "build", "-o", bin+string(filepath.Separator), "./cmd/...")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("build servers: %v\n%s", err, out)
	}
	bins := map[string]string{}
	for key := range pkgs {
		bins[key] = filepath.Join(bin, key)
	}
	return bins
}

// server is a running generated server answering one call at a time.
type server struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Reader
	n   int
}

func startServer(t testing.TB, bin string) *server {
	cmd := exec.Command(bin)
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { in.Close(); cmd.Wait() })
	return &server{cmd: cmd, in: in, out: bufio.NewReaderSize(out, 1<<20)}
}

const meta = `{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`

// verdict calls tool with args and says whether the generated decoder and
// validator accepted them (the handler then says it is not implemented)
// and, when not, why.
func (s *server) verdict(t testing.TB, tool string, args []byte) (bool, string) {
	s.n++
	// stdio carries one message per line: a line break that is JSON
	// whitespace in args would split the request in two (two error
	// answers, and every later verdict read from the answer before it).
	var compact bytes.Buffer
	if err := json.Compact(&compact, args); err != nil {
		t.Fatalf("args %q: %v", args, err)
	}
	line := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"_meta":%s,"name":%q,"arguments":%s}}`+"\n", s.n, meta, tool, compact.Bytes())
	if _, err := io.WriteString(s.in, line); err != nil {
		t.Fatalf("write: %v", err)
	}
	resp, err := s.out.ReadBytes('\n')
	if err != nil {
		t.Fatalf("server died on %s: %v", args, err)
	}
	var r struct {
		ID     int
		Error  *struct{ Message string }
		Result struct {
			Content []struct{ Text string }
			IsError bool `json:"isError"`
		}
	}
	if err := json.Unmarshal(resp, &r); err != nil {
		t.Fatalf("bad response %q", resp)
	}
	if r.ID != s.n {
		t.Fatalf("response %q answers id %d, not the request sent (%d)", resp, r.ID, s.n)
	}
	if r.Error != nil {
		return false, "JSON-RPC error: " + r.Error.Message
	}
	text := ""
	if len(r.Result.Content) > 0 {
		text = r.Result.Content[0].Text
	}
	if r.Result.IsError && strings.Contains(text, "is not implemented") {
		return true, ""
	}
	return false, text
}

// compileSchema compiles a schema as santhosh-tekuri/jsonschema sees it:
// draft 2020-12, with format assertions on.
func compileSchema(t testing.TB, name string, data []byte) *jsonschema.Schema {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	url := "mem:///" + name
	if err := c.AddResource(url, doc); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	s, err := c.Compile(url)
	if err != nil {
		t.Fatalf("compile %s: %v", name, err)
	}
	return s
}

// oracle returns santhosh-tekuri's verdict on an instance, or an error
// when it cannot give one: besides unparsable text, it panics comparing a
// number math/big.Rat will not parse (1e1000010), a limit of the reference
// that callers skip like any other instance it cannot judge.
func oracle(s *jsonschema.Schema, instance []byte) (valid bool, err error) {
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(instance))
	if err != nil {
		return false, err
	}
	defer func() {
		if r := recover(); r != nil {
			valid, err = false, fmt.Errorf("reference validator cannot judge %.40s: %v", instance, r)
		}
	}()
	return s.Validate(v) == nil, nil
}

// tool is one tool input schema of a generated package.
type tool struct {
	pkg, name string
	schema    []byte
}

func tools(files pkgFiles, pkg string) []tool {
	var out []tool
	for rel, data := range files {
		if name, ok := strings.CutSuffix(strings.TrimPrefix(rel, "schemas/"), ".input.schema.json"); ok && strings.HasPrefix(rel, "schemas/") {
			out = append(out, tool{pkg: pkg, name: name, schema: data})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}
