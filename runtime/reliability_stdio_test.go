package runtime

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"
)

// relConn is an in-memory stdio connection whose answers are routed by id,
// so that many goroutines can pipeline requests on it.
type relConn struct {
	in   *io.PipeWriter
	wmu  sync.Mutex
	mu   sync.Mutex
	wait map[string]chan wireMsg
	odd  []string // lines nobody waited for
	done chan error
}

// relServer is a server whose tools misbehave on purpose: echo answers its
// text, boom panics with the value named by its argument, hang blocks until
// its context ends (then reports on freed), and stuck ignores its context
// until release is closed.
type relServer struct {
	srv     *Server
	entered chan string
	freed   chan string
	release chan struct{}
}

func newRelServer(t *testing.T) *relServer {
	t.Helper()
	r := &relServer{entered: make(chan string, 16), freed: make(chan string, 16), release: make(chan struct{})}
	r.srv = NewServer(Options{Info: Implementation{Name: "rel", Version: "1"},
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	arg := func(args []byte) string {
		var in struct{ Text string }
		json.Unmarshal(args, &in)
		return in.Text
	}
	r.srv.AddTool(ToolDef{Name: "echo", Definition: toolDef("echo"),
		Call: func(ctx context.Context, args []byte) (*ToolResult, error) {
			return &ToolResult{Content: []Content{TextContent(arg(args))}}, nil
		}})
	r.srv.AddTool(ToolDef{Name: "boom", Definition: toolDef("boom"),
		Call: func(ctx context.Context, args []byte) (*ToolResult, error) {
			switch arg(args) {
			case "nil map":
				var m map[string]int
				m["x"] = 1
			case "error":
				panic(errors.New("an error value"))
			case "nil":
				panic(nil)
			case "index":
				var s []int
				_ = s[len(args)]
			}
			panic("a string")
		}})
	r.srv.AddTool(ToolDef{Name: "hang", Definition: toolDef("hang"),
		Call: func(ctx context.Context, args []byte) (*ToolResult, error) {
			r.entered <- arg(args)
			<-ctx.Done()
			r.freed <- arg(args)
			return nil, ctx.Err()
		}})
	r.srv.AddTool(ToolDef{Name: "stuck", Definition: toolDef("stuck"),
		Call: func(ctx context.Context, args []byte) (*ToolResult, error) {
			r.entered <- arg(args)
			<-r.release
			return &ToolResult{Content: []Content{TextContent("released")}}, nil
		}})
	return r
}

func dialRel(t *testing.T, ctx context.Context, s *Server, opts StdioOptions) *relConn {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	c := &relConn{in: inW, wait: map[string]chan wireMsg{}, done: make(chan error, 1)}
	go func() {
		err := s.ServeStdio(ctx, inR, outW, opts)
		outW.Close()
		c.done <- err
	}()
	go func() {
		sc := bufio.NewScanner(outR)
		sc.Buffer(nil, 16<<20)
		for sc.Scan() {
			var m wireMsg
			if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
				m.ID = json.RawMessage("invalid")
			}
			m.raw = sc.Text()
			c.mu.Lock()
			if ch, ok := c.wait[string(m.ID)]; ok {
				select {
				case ch <- m:
				default:
					c.odd = append(c.odd, "again: "+m.raw)
				}
			} else {
				c.odd = append(c.odd, m.raw)
			}
			c.mu.Unlock()
		}
	}()
	t.Cleanup(func() { inW.Close() })
	return c
}

// send registers the id, writes the line whole, and returns where its
// answer will arrive.
func (c *relConn) send(t *testing.T, id, line string) chan wireMsg {
	ch := make(chan wireMsg, 2)
	c.mu.Lock()
	c.wait[id] = ch
	c.mu.Unlock()
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if _, err := io.WriteString(c.in, line+"\n"); err != nil {
		t.Errorf("write: %v", err)
	}
	return ch
}

// notify writes a notification; a server that stops reading fails the
// test instead of blocking it.
func (c *relConn) notify(t *testing.T, line string) {
	t.Helper()
	written := make(chan struct{})
	go func() {
		c.wmu.Lock()
		defer c.wmu.Unlock()
		io.WriteString(c.in, line+"\n")
		close(written)
	}()
	select {
	case <-written:
	case <-time.After(5 * time.Second):
		t.Fatalf("the server stopped reading: %s was not taken", line)
	}
}

func (c *relConn) oddLines() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.odd...)
}

func await(t *testing.T, ch chan wireMsg, what string) wireMsg {
	t.Helper()
	select {
	case m := <-ch:
		return m
	case <-time.After(5 * time.Second):
		t.Fatalf("%s: no answer", what)
	}
	return wireMsg{}
}

// toolText returns the text and isError of a tools/call answer.
func toolText(t *testing.T, m wireMsg) (string, bool) {
	t.Helper()
	var res struct {
		Content []struct{ Text string }
		IsError bool `json:"isError"`
	}
	if m.Error != nil || json.Unmarshal(m.Result, &res) != nil || len(res.Content) != 1 {
		t.Fatalf("want a tool result, got %s", m.raw)
	}
	return res.Content[0].Text, res.IsError
}

func callLine(id, tool, text string) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":"tools/call","params":{%s,"name":%q,"arguments":{"text":%q}}}`, id, testMeta, tool, text)
}

// TestReliabilityPanickingHandlers mixes panicking calls (every kind of
// panic value and runtime fault) with valid ones from many goroutines: each
// panic is an isError "internal error", every other call gets its own
// answer, and the connection ends cleanly.
func TestReliabilityPanickingHandlers(t *testing.T) {
	r := newRelServer(t)
	c := dialRel(t, context.Background(), r.srv, StdioOptions{})
	kinds := []string{"string", "error", "nil", "nil map", "index"}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := range 100 {
				id := fmt.Sprintf(`"g%d-%d"`, g, n)
				tool, text := "echo", fmt.Sprintf("payload %d/%d", g, n)
				if n%3 == 0 {
					tool, text = "boom", kinds[(g+n)%len(kinds)]
				}
				m := await(t, c.send(t, id, callLine(id, tool, text)), id)
				got, isErr := toolText(t, m)
				if tool == "boom" && (!isErr || got != "internal error") {
					t.Errorf("%s panic %q: got %q isError=%v, want an isError internal error", id, text, got, isErr)
				}
				if tool == "echo" && (isErr || got != text) {
					t.Errorf("%s: got %q isError=%v, want %q", id, got, isErr, text)
				}
			}
		}()
	}
	wg.Wait()
	c.in.Close()
	select {
	case err := <-c.done:
		if err != nil {
			t.Errorf("ServeStdio = %v, want nil at EOF", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("ServeStdio did not return after EOF")
	}
	if odd := c.oddLines(); len(odd) != 0 {
		t.Errorf("unexpected lines: %q", odd)
	}
}

// TestReliabilityHungHandlers fills the in-flight slots with handlers that
// never finish on their own: the free slot keeps serving, a cancellation
// frees a slot (and its handler) for a request that was waiting, and
// cancelling ServeStdio's context frees the rest. A handler that ignores
// cancellation keeps its slot until it returns, but gets no response.
func TestReliabilityHungHandlers(t *testing.T) {
	r := newRelServer(t)
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	c := dialRel(t, ctx, r.srv, StdioOptions{MaxInFlight: 3})

	c.send(t, `"h1"`, callLine(`"h1"`, "hang", "h1"))
	c.send(t, `"s1"`, callLine(`"s1"`, "stuck", "s1"))
	for range 2 {
		select {
		case <-r.entered:
		case <-time.After(5 * time.Second):
			t.Fatal("hung handlers did not start")
		}
	}
	// One slot is left: it serves a stream of calls.
	for n := range 100 {
		id := fmt.Sprintf(`"e%d"`, n)
		if got, _ := toolText(t, await(t, c.send(t, id, callLine(id, "echo", id)), id)); got != id {
			t.Fatalf("%s: got %q", id, got)
		}
	}
	// Fill it too: the next call waits for a slot.
	c.send(t, `"h2"`, callLine(`"h2"`, "hang", "h2"))
	<-r.entered
	waiting := c.send(t, `"w"`, callLine(`"w"`, "echo", "waited"))
	c.notify(t, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"h1"}}`)
	select {
	case id := <-r.freed:
		if id != "h1" {
			t.Fatalf("cancelling h1 freed %s", id)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("cancellation did not reach the hung handler")
	}
	if got, _ := toolText(t, await(t, waiting, "waiting call")); got != "waited" {
		t.Fatalf("waiting call got %q", got)
	}
	// stuck ignores its cancellation: no answer may come for it.
	c.notify(t, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"s1"}}`)
	if got, _ := toolText(t, await(t, c.send(t, `"x"`, callLine(`"x"`, "echo", "x")), "x")); got != "x" {
		t.Fatalf("x got %q", got)
	}

	stop()
	select {
	case id := <-r.freed:
		if id != "h2" {
			t.Fatalf("shutdown freed %s", id)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("cancelling ServeStdio's context did not free h2")
	}
	select {
	case err := <-c.done:
		t.Fatalf("ServeStdio returned (%v) while a handler still runs", err)
	case <-time.After(20 * time.Millisecond):
	}
	close(r.release)
	select {
	case err := <-c.done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("ServeStdio = %v, want context.Canceled", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("ServeStdio did not return once the stuck handler finished")
	}
	time.Sleep(10 * time.Millisecond) // let the reader route the last lines
	for _, l := range c.oddLines() {
		t.Errorf("unexpected line: %s", l)
	}
	for _, id := range []string{`"h1"`, `"s1"`} {
		c.mu.Lock()
		n := len(c.wait[id])
		c.mu.Unlock()
		if n != 0 {
			t.Errorf("the cancelled request %s got an answer", id)
		}
	}
}

// TestReliabilityPipelinedLoad pipelines 16 writers x 500 calls on one
// in-memory connection (run it with -race): every call gets exactly one
// answer, carrying its own payload.
func TestReliabilityPipelinedLoad(t *testing.T) {
	r := newRelServer(t)
	c := dialRel(t, context.Background(), r.srv, StdioOptions{})
	const writers, calls = 16, 500
	var wg sync.WaitGroup
	for g := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			chans := make([]chan wireMsg, calls)
			for n := range calls {
				id := fmt.Sprintf(`"p%d-%d"`, g, n)
				if n%10 == 9 {
					chans[n] = c.send(t, id, fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":"tools/list","params":{%s}}`, id, testMeta))
					continue
				}
				chans[n] = c.send(t, id, callLine(id, "echo", strings.Repeat(id, n%7+1)))
			}
			for n := range calls {
				id := fmt.Sprintf(`"p%d-%d"`, g, n)
				m := await(t, chans[n], id)
				if n%10 == 9 {
					if m.Error != nil || !strings.Contains(string(m.Result), `"name":"stuck"`) {
						t.Errorf("%s tools/list: %.200s", id, m.raw)
					}
					continue
				}
				if got, isErr := toolText(t, m); isErr || got != strings.Repeat(id, n%7+1) {
					t.Errorf("%s: got %q, want its own payload", id, got)
				}
			}
		}()
	}
	wg.Wait()
	c.in.Close()
	select {
	case <-c.done:
	case <-time.After(5 * time.Second):
		t.Fatal("ServeStdio did not return after EOF")
	}
	for _, l := range c.oddLines() {
		t.Errorf("unexpected or duplicate line: %.200s", l)
	}
	t.Logf("%d writers x %d pipelined calls answered, none lost or duplicated", writers, calls)
}
