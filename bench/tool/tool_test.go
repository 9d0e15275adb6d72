package tool_test

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"

	"github.com/mcpgen-dev/mcpgen/bench/tool"
	"github.com/mcpgen-dev/mcpgen/bench/tool/benchmcp"
	"github.com/mcpgen-dev/mcpgen/runtime"
)

const meta = `{"io.modelcontextprotocol/protocolVersion":"2026-07-28",` +
	`"io.modelcontextprotocol/clientInfo":{"name":"bench","version":"0"},` +
	`"io.modelcontextprotocol/clientCapabilities":{}}`

func request(id int) string {
	return `{"jsonrpc":"2.0","id":` + strconv.Itoa(id) + `,"method":"tools/call","params":{"_meta":` + meta +
		`,"name":"get_order_status","arguments":{"order_id":"A1001","quantity":3}}}`
}

var want = tool.AppendExpected([]byte(`"structuredContent":`), "A1001", 3)

func newServer() *runtime.Server {
	return benchmcp.NewServer(tool.Handler{}, runtime.Options{Logger: slog.New(slog.DiscardHandler)})
}

// TestAnswer: mcpgen's side answers what the side-by-side drivers expect
// of every implementation, over both transports.
func TestAnswer(t *testing.T) {
	srv := newServer()
	var out bytes.Buffer
	if err := srv.ServeStdio(context.Background(), bytes.NewReader([]byte(request(1)+"\n")), &out, runtime.StdioOptions{}); err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(out.Bytes(), want) {
		t.Errorf("stdio answered %s", out.Bytes())
	}
	w := httpCall(srv.Handler(runtime.HTTPOptions{}))
	if w.Code != 200 || !bytes.Contains(w.Body.Bytes(), want) {
		t.Errorf("HTTP answered %d %s", w.Code, w.Body.Bytes())
	}
}

func httpCall(h interface {
	ServeHTTP(w http.ResponseWriter, r *http.Request)
}) *httptest.ResponseRecorder {
	req := httptest.NewRequest("POST", "http://127.0.0.1/mcp", bytes.NewReader([]byte(request(1))))
	req.Header["Content-Type"] = []string{"application/json"}
	req.Header["Accept"] = []string{"application/json, text/event-stream"}
	req.Header["Mcp-Protocol-Version"] = []string{"2026-07-28"}
	req.Header["Mcp-Method"] = []string{"tools/call"}
	req.Header["Mcp-Name"] = []string{"get_order_status"}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	return w
}

// stdioPipe is a ServeStdio connection over in-process pipes.
type stdioPipe struct {
	b    *testing.B
	in   *io.PipeWriter
	out  *bufio.Reader
	done chan error
}

func newStdioPipe(b *testing.B) *stdioPipe {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	p := &stdioPipe{b: b, in: inW, out: bufio.NewReaderSize(outR, 64<<10), done: make(chan error, 1)}
	go func() {
		p.done <- newServer().ServeStdio(context.Background(), inR, outW, runtime.StdioOptions{})
		outW.Close()
	}()
	return p
}

// send writes line (newline included) and, when an answer is due,
// returns it (valid until the next call).
func (p *stdioPipe) send(line []byte, answered bool) []byte {
	if _, err := p.in.Write(line); err != nil {
		p.b.Fatal(err)
	}
	if !answered {
		return nil
	}
	resp, err := p.out.ReadSlice('\n')
	if err != nil {
		p.b.Fatal(err)
	}
	return resp
}

// bench times sequential calls of line, each answer checked.
func (p *stdioPipe) bench(line []byte) {
	p.b.ReportAllocs()
	for p.b.Loop() {
		if resp := p.send(line, true); !bytes.Contains(resp, want) {
			p.b.Fatalf("unexpected response %s", resp)
		}
	}
	p.b.StopTimer()
	p.in.Close()
	<-p.done
}

// BenchmarkToolsCallStdio: one sequential tools/call of the benchmark tool
// through ServeStdio (in-process pipes), the generated decoder, validator
// and encoder included. allocs/op is the runtime's cost per call plus the
// generated code's (the decoded order_id string, the output value).
func BenchmarkToolsCallStdio(b *testing.B) {
	newStdioPipe(b).bench([]byte(request(1) + "\n"))
}

// BenchmarkToolsCallStdioLegacy: BenchmarkToolsCallStdio for a
// 2025-11-25 client, the era most hosts still speak: the session starts
// with initialize, and the calls carry no per-request _meta.
func BenchmarkToolsCallStdioLegacy(b *testing.B) {
	p := newStdioPipe(b)
	if resp := p.send([]byte(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25",`+
		`"capabilities":{},"clientInfo":{"name":"bench","version":"0"}}}`+"\n"), true); !bytes.Contains(resp, []byte(`"2025-11-25"`)) {
		b.Fatalf("initialize answered %s", resp)
	}
	p.send([]byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n"), false)
	p.bench([]byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_order_status","arguments":{"order_id":"A1001","quantity":3}}}` + "\n"))
}

// BenchmarkToolsCallHTTP: one tools/call through the Streamable HTTP
// handler without the network (httptest's request and recorder are
// included in allocs/op).
func BenchmarkToolsCallHTTP(b *testing.B) {
	h := newServer().Handler(runtime.HTTPOptions{})
	b.ReportAllocs()
	for b.Loop() {
		if w := httpCall(h); w.Code != 200 || !bytes.Contains(w.Body.Bytes(), want) {
			b.Fatalf("unexpected response %d %s", w.Code, w.Body)
		}
	}
}
