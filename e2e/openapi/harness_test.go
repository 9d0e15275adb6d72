// Package openapi runs MCP servers generated from OpenAPI documents against
// upstreams that know the document: Stoplight Prism (npm
// @stoplight/prism-cli, pinned in package.json), which validates every
// request it receives against the document, and the orders example's real
// REST server. Each server is made the way a user makes one,
// `mcpgen init --openapi DOC --dir srv` in a fresh module, then built and
// driven over stdio.
//
// The tests build several modules and start Node.js processes, so they run
// only with MCPGEN_E2E=1 (scripts/test.sh sets it) and need `npm ci` in this
// directory; `go test ./...` skips them.
package openapi

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// needE2E skips the test unless MCPGEN_E2E is set.
func needE2E(t *testing.T) {
	t.Helper()
	if os.Getenv("MCPGEN_E2E") == "" {
		t.Skip("set MCPGEN_E2E=1 to run (scripts/test.sh does)")
	}
}

// repoRoot is mcpgen's module root, for the replace directive of the
// generated modules.
func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// goEnv is the environment of the go commands that build generated
// modules: the real caches, no network, mcpgen replaced by this checkout.
func goEnv(t *testing.T) []string {
	t.Helper()
	env := append(os.Environ(), "GOPROXY=off", "GOFLAGS=-mod=mod", "GOSUMDB=off", "GOWORK=off", "GOTOOLCHAIN=local")
	return env
}

func run(t *testing.T, dir string, env []string, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return string(out)
}

// buildServer makes the MCP server for doc as a user would (mcpgen init
// --openapi in a new module), builds it and returns the binary's path.
func buildServer(t *testing.T, doc string) string {
	t.Helper()
	root := repoRoot(t)
	mod := t.TempDir()
	env := goEnv(t)
	abs, err := filepath.Abs(doc)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(abs)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(mod, filepath.Base(doc)), data, 0o644); err != nil {
		t.Fatal(err)
	}
	gomod := "module example.com/wrapped\n\ngo 1.26\n\nrequire github.com/mcpgen-dev/mcpgen v0.0.0\n\nreplace github.com/mcpgen-dev/mcpgen => " + root + "\n"
	if err := os.WriteFile(filepath.Join(mod, "go.mod"), []byte(gomod), 0o644); err != nil {
		t.Fatal(err)
	}
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(mod, "go.sum"), sum, 0o644); err != nil {
		t.Fatal(err)
	}
	mcpgen := mcpgenBinary(t)
	run(t, mod, env, mcpgen, "init", "--openapi", filepath.Base(doc), "--dir", "srv")
	bin := filepath.Join(mod, "server")
	if runtime.GOOS == "windows" {
		bin += ".exe"
	}
	run(t, mod, env, "go", "build", "-o", bin, "./srv")
	return bin
}

var mcpgenOnce struct {
	sync.Once
	path string
	err  error
	out  []byte
}

// mcpgenBinary builds cmd/mcpgen once per test binary.
func mcpgenBinary(t *testing.T) string {
	t.Helper()
	mcpgenOnce.Do(func() {
		dir, err := os.MkdirTemp("", "mcpgen-e2e-")
		if err != nil {
			mcpgenOnce.err = err
			return
		}
		mcpgenOnce.path = filepath.Join(dir, "mcpgen")
		cmd := exec.Command("go", "build", "-o", mcpgenOnce.path, "./cmd/mcpgen")
		cmd.Dir = repoRoot(t)
		mcpgenOnce.out, mcpgenOnce.err = cmd.CombinedOutput()
	})
	if mcpgenOnce.err != nil {
		t.Fatalf("build mcpgen: %v\n%s", mcpgenOnce.err, mcpgenOnce.out)
	}
	return mcpgenOnce.path
}

// freeAddr returns a loopback address with a port that was free a moment ago.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

// syncBuffer is a log that a process writes while the test reads it.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// prism is a running validating mock of one document.
type prism struct {
	URL string
	log *syncBuffer
	// stop ends the process; the test's cleanup calls it too.
	stop func()
	// judge reads the part of the log one call produced; nil means
	// Prism's log (parsePrismLog). Other validating mocks (stripe-mock)
	// run as a prism with their own.
	judge func(log string) prismVerdict
	// done is the length of the log up to which every request Prism
	// received has been answered or ended (see settle).
	done int
	// exited is closed when the process has ended (nil: not known).
	exited <-chan struct{}
}

// crashed reports whether the mock's process has ended while the sweep
// still uses it, and the first line of the error it ended with (unpatched,
// Prism 5.14.2 dies on a request without an optional array header:
// "TypeError: Cannot read properties of undefined (reading 'split')";
// patch-prism.mjs fixes the crashes known).
func (p *prism) crashed() (string, bool) {
	if p.exited == nil {
		return "", false
	}
	select {
	case <-p.exited:
	default:
		return "", false
	}
	for _, line := range strings.Split(p.log.String(), "\n") {
		if strings.Contains(line, "Error:") {
			return strings.TrimSpace(line), true
		}
	}
	return "no error logged", true
}

// verdict is what the mock's log since offset from says about a call.
func (p *prism) verdict(from int) prismVerdict {
	log := p.log.String()[from:]
	if p.judge != nil {
		return p.judge(log)
	}
	return parsePrismLog(log)
}

// startPrism starts `prism mock --errors doc` on a loopback port: every
// request is validated against doc, and an invalid one is logged as a
// violation and answered 400/422 instead of with an example.
func startPrism(t *testing.T, doc string) *prism {
	t.Helper()
	p, err := tryStartPrism(t, doc)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// tryStartPrism is startPrism returning an error, with Prism's own output,
// when Prism exits before it listens or does not listen in time.
func tryStartPrism(t *testing.T, doc string) (*prism, error) {
	t.Helper()
	return tryStartPrismAt(t, doc, freeAddr(t))
}

// tryStartPrismAt is tryStartPrism on addr (host:port): a mock that died
// is started again where the server already sends its requests.
func tryStartPrismAt(t *testing.T, doc, addr string) (*prism, error) {
	t.Helper()
	bin := filepath.Join("node_modules", ".bin", "prism")
	if _, err := os.Stat(bin); err != nil {
		t.Fatalf("prism is not installed (run npm ci in e2e/openapi): %v", err)
	}
	// Without its patch, Prism refuses every form array and dies on some
	// parameter styles (patch-prism.mjs, which npm ci runs).
	if out, err := exec.Command("node", "patch-prism.mjs", "-check").CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	host, port, _ := net.SplitHostPort(addr)
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, bin, "mock", "--errors", "-h", host, "-p", port, doc)
	log := &syncBuffer{}
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		cancel()
		t.Fatal(err)
	}
	exited := make(chan struct{})
	var waitErr error
	go func() { waitErr = cmd.Wait(); close(exited) }()
	stop := sync.OnceFunc(func() { cancel(); <-exited })
	t.Cleanup(stop)
	p := &prism{URL: "http://" + addr, log: log, stop: stop, exited: exited}
	// Prism dereferences the whole document before it listens: seconds
	// for the petstores, minutes for the large documents of the sweep on
	// a loaded machine. A Prism that exits meanwhile (a document it
	// cannot resolve) is reported at once.
	if err := waitListening(p.URL, exited, 15*time.Minute); err != nil {
		stop()
		if errors.Is(err, errExited) {
			err = fmt.Errorf("prism exited before listening (%v)", waitErr)
		}
		return nil, fmt.Errorf("prism mock %s: %v; its output:\n%s", doc, err, log.String())
	}
	return p, nil
}

var errExited = errors.New("exited")

// waitListening waits up to wait until something answers HTTP at url, or
// until exited is closed.
func waitListening(url string, exited <-chan struct{}, wait time.Duration) error {
	deadline := time.Now().Add(wait)
	for time.Now().Before(deadline) {
		resp, err := http.Get(url)
		if err == nil {
			resp.Body.Close()
			return nil
		}
		select {
		case <-exited:
			return errExited
		case <-time.After(200 * time.Millisecond):
		}
	}
	return fmt.Errorf("nothing answers at %s after %v", url, wait)
}

// waitHTTP waits up to wait until something answers HTTP at url.
func waitHTTP(t *testing.T, url string, logs func() string, wait time.Duration) {
	t.Helper()
	if err := waitListening(url, nil, wait); err != nil {
		t.Fatalf("%v; log:\n%s", err, logs())
	}
}

// settleOpenWait bounds how long settle waits for Prism to finish the
// requests it received: longer than the server's upstream timeout in the
// sweep (90 s), since Prism goes on building an answer the server gave
// up on.
const settleOpenWait = 5 * time.Minute

// settle waits until Prism has finished every request it received (see
// openRequests) and its log has then been quiet for a moment: it logs a
// request's violations after it answered, and a request the server gave
// up on (its upstream timeout, on a loaded machine) is still being
// judged; without the wait, those lines would be read as the next call's.
// When Prism has not finished within settleOpenWait, or has exited,
// settle stops waiting for those requests, and later calls do not wait
// for them again.
func (p *prism) settle() {
	if p.judge == nil {
		for deadline := time.Now().Add(settleOpenWait); ; time.Sleep(50 * time.Millisecond) {
			log := p.log.String()
			_, dead := p.crashed()
			if openRequests(log[p.done:]) == 0 || dead || time.Now().After(deadline) {
				p.done = len(log)
				break
			}
		}
	}
	n := len(p.log.String())
	quiet := time.Now()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); {
		time.Sleep(25 * time.Millisecond)
		if m := len(p.log.String()); m != n {
			n, quiet = m, time.Now()
		} else if time.Since(quiet) > 200*time.Millisecond {
			return
		}
	}
}

// violations returns the validation failures prism logged.
func (p *prism) violations() []string {
	var v []string
	for _, line := range strings.Split(p.log.String(), "\n") {
		if strings.Contains(line, "Violation:") || strings.Contains(line, "did not pass the validation") {
			v = append(v, strings.TrimSpace(line))
		}
	}
	return v
}

// mcpClient speaks MCP 2026-07-28 over a server's stdio, one request at a time.
type mcpClient struct {
	t      *testing.T
	in     io.WriteCloser
	out    *bufio.Reader
	stderr *syncBuffer
	id     int
	// wait bounds the wait for one answer; 0 means callWait.
	wait time.Duration
}

// startServer runs the generated server binary against upstream with env
// added to the environment.
func startServer(t *testing.T, bin, upstream string, env ...string) *mcpClient {
	t.Helper()
	return startServerArgs(t, bin, []string{"--upstream", upstream}, env...)
}

// startServerArgs runs the generated server binary with args and with env
// added to the environment.
func startServerArgs(t *testing.T, bin string, args []string, env ...string) *mcpClient {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), env...)
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr := &syncBuffer{}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		in.Close()
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-done
			t.Errorf("server did not exit at end of input; stderr:\n%s", stderr.String())
		}
	})
	return &mcpClient{t: t, in: in, out: bufio.NewReader(out), stderr: stderr}
}

const meta = `{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`

// rpcResponse is a JSON-RPC response.
type rpcResponse struct {
	ID     int             `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// callWait bounds the wait for one answer. A call the server passes on
// waits for Prism, which builds its answer from the document: for the
// sweep's large documents (Argo's recursive Workflow schemas) on a loaded
// machine that takes long, and the server's upstream timeout (30 s by
// default, 90 s in the sweep) applies to each of up to three attempts of an
// idempotent call; the server's own isError answer must still arrive.
const callWait = 5 * time.Minute

// call sends one request and returns its response (notifications in
// between are skipped).
func (c *mcpClient) call(method string, params map[string]any) rpcResponse {
	c.t.Helper()
	c.id++
	if params == nil {
		params = map[string]any{}
	}
	params["_meta"] = json.RawMessage(meta)
	req, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": c.id, "method": method, "params": params})
	if err != nil {
		c.t.Fatal(err)
	}
	if _, err := c.in.Write(append(req, '\n')); err != nil {
		c.t.Fatalf("write: %v; stderr:\n%s", err, c.stderr.String())
	}
	type result struct {
		line []byte
		err  error
	}
	for {
		ch := make(chan result, 1)
		go func() { l, err := c.out.ReadBytes('\n'); ch <- result{l, err} }()
		wait := c.wait
		if wait == 0 {
			wait = callWait
		}
		var r result
		select {
		case r = <-ch:
		case <-time.After(wait):
			c.t.Fatalf("no answer to %s in %v; stderr:\n%s", req, wait, c.stderr.String())
		}
		if r.err != nil {
			c.t.Fatalf("read: %v; stderr:\n%s", r.err, c.stderr.String())
		}
		var resp rpcResponse
		if err := json.Unmarshal(r.line, &resp); err != nil {
			c.t.Fatalf("not JSON: %q", r.line)
		}
		if resp.ID == c.id {
			return resp
		}
	}
}

// tool is one entry of tools/list.
type tool struct {
	Name         string          `json:"name"`
	InputSchema  json.RawMessage `json:"inputSchema"`
	OutputSchema json.RawMessage `json:"outputSchema"`
}

func (c *mcpClient) tools() []tool {
	c.t.Helper()
	resp := c.call("tools/list", nil)
	if resp.Error != nil {
		c.t.Fatalf("tools/list: %+v", resp.Error)
	}
	var r struct {
		Tools []tool `json:"tools"`
	}
	if err := json.Unmarshal(resp.Result, &r); err != nil {
		c.t.Fatal(err)
	}
	return r.Tools
}

// toolResult is a tools/call result.
type toolResult struct {
	IsError           bool            `json:"isError"`
	StructuredContent json.RawMessage `json:"structuredContent"`
	Content           []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"content"`
}

func (r toolResult) text() string {
	var b strings.Builder
	for _, c := range r.Content {
		b.WriteString(c.Text)
	}
	return b.String()
}

func (c *mcpClient) callTool(name string, args any) toolResult {
	c.t.Helper()
	resp := c.call("tools/call", map[string]any{"name": name, "arguments": args})
	if resp.Error != nil {
		c.t.Fatalf("tools/call %s %s: JSON-RPC error %d %s", name, mustJSON(args), resp.Error.Code, resp.Error.Message)
	}
	var r toolResult
	if err := json.Unmarshal(resp.Result, &r); err != nil {
		c.t.Fatal(err)
	}
	return r
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}
