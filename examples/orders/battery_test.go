package orders_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// wire multiplexes one orders-mcp process: several goroutines write whole
// lines and wait for the responses to their own ids, so that a bad input
// and the valid traffic around it can be checked independently.
type wire struct {
	p   *proc
	wmu sync.Mutex

	mu      sync.Mutex
	waiting map[string]chan response // by raw id
	stray   []string                 // lines nobody waited for
}

func newWire(p *proc) *wire {
	w := &wire{p: p, waiting: map[string]chan response{}}
	go func() {
		for l := range p.lines {
			var r response
			if err := json.Unmarshal(l, &r); err != nil {
				w.mu.Lock()
				w.stray = append(w.stray, "not JSON: "+string(l))
				w.mu.Unlock()
				continue
			}
			w.mu.Lock()
			if ch, ok := w.waiting[string(r.ID)]; ok {
				select {
				case ch <- r:
				default:
					w.stray = append(w.stray, "overflow: "+string(l))
				}
			} else {
				w.stray = append(w.stray, string(l))
			}
			w.mu.Unlock()
		}
	}()
	return w
}

// expect registers interest in responses with the raw id before the
// request is written, so that a fast response is not lost.
func (w *wire) expect(id string) chan response {
	ch := make(chan response, 4)
	w.mu.Lock()
	w.waiting[id] = ch
	w.mu.Unlock()
	return ch
}

func (w *wire) forget(id string) {
	w.mu.Lock()
	delete(w.waiting, id)
	w.mu.Unlock()
}

// write sends raw bytes as one line, never interleaved with another writer.
func (w *wire) write(t *testing.T, line string) {
	w.wmu.Lock()
	defer w.wmu.Unlock()
	if _, err := io.WriteString(w.p.stdin, line+"\n"); err != nil {
		t.Errorf("write: %v", err)
	}
}

func (w *wire) wait(t *testing.T, ch chan response, what string) (response, bool) {
	t.Helper()
	select {
	case r := <-ch:
		return r, true
	case <-time.After(10 * time.Second):
		t.Errorf("%s: no response in 10s; stderr:\n%s", what, w.p.stderr)
		return response{}, false
	}
}

// strays returns and clears the lines nobody waited for.
func (w *wire) strays() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	s := w.stray
	w.stray = nil
	return s
}

// probe checks that a valid get_order_status call under id is answered
// with alice's A1001.
func (w *wire) probe(t *testing.T, id string) {
	t.Helper()
	ch := w.expect(id)
	defer w.forget(id)
	w.write(t, toolLine(id, "get_order_status", `{"order_id":"A1001"}`))
	r, ok := w.wait(t, ch, "probe "+id)
	if !ok {
		return
	}
	var res toolResult
	if r.Error != nil || json.Unmarshal(r.Result, &res) != nil || res.IsError ||
		compact(t, res.Structured) != `{"found":true,"order_id":"A1001","status":"SHIPPED"}` {
		t.Errorf("probe %s: got %+v %s, want A1001 SHIPPED", id, r.Error, r.Result)
	}
}

func toolLine(id, name, args string) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":"tools/call","params":{"_meta":%s,"name":%q,"arguments":%s}}`, id, meta, name, args)
}

func reqLine(id, method, params string) string {
	p := `{"_meta":` + meta
	if params != "" {
		p += "," + params
	}
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":%q,"params":%s}`, id, method, p+"}")
}

// badInput is one hostile line and the answer it must get.
type badInput struct {
	name string
	line string
	// id is the raw id the answer carries ("null" for unparseable
	// messages); empty when the line must get no answer at all.
	id string
	// code is the JSON-RPC error code; 0 means an isError tool result
	// whose text contains every entry of fields.
	code   int
	fields []string
	// absent marks a null the server reads as an absent optional member
	// (as many JSON-RPC peers send it): a normal result is expected.
	absent bool
}

// jsonKinds are values of every JSON type, to put where another is expected.
var jsonKinds = []struct{ kind, v string }{
	{"null", `null`}, {"bool", `true`}, {"int", `7`}, {"float", `1.5`}, {"string", `"s"`},
	{"array", `[]`}, {"object", `{}`},
}

// envelopeBattery puts wrong types in every member of the JSON-RPC
// envelope and of params/_meta.
func envelopeBattery() []badInput {
	var in []badInput
	for _, k := range jsonKinds {
		kind, v := k.kind, k.v
		if kind != "string" {
			in = append(in,
				badInput{name: "jsonrpc " + kind, line: `{"jsonrpc":` + v + `,"id":1,"method":"tools/list","params":{"_meta":` + meta + `}}`, id: "1", code: -32600},
				badInput{name: "method " + kind, line: `{"jsonrpc":"2.0","id":1,"method":` + v + `,"params":{"_meta":` + meta + `}}`, id: "1", code: -32600},
				badInput{name: "tool name " + kind, line: reqLine("1", "tools/call", `"name":`+v+`,"arguments":{}`), id: "1", code: -32602},
				badInput{name: "protocolVersion " + kind, line: `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":` + v + `,"io.modelcontextprotocol/clientCapabilities":{}}}}`, id: "1", code: -32602},
				badInput{name: "cursor " + kind, line: reqLine("1", "tools/list", `"cursor":`+v), id: "1", code: -32602, absent: kind == "null"},
				badInput{name: "resource uri " + kind, line: reqLine("1", "resources/read", `"uri":`+v), id: "1", code: -32602},
			)
		}
		if kind != "int" && kind != "string" {
			in = append(in, badInput{name: "id " + kind, line: `{"jsonrpc":"2.0","id":` + v + `,"method":"tools/list","params":{"_meta":` + meta + `}}`, id: "null", code: -32600})
		}
		if kind != "object" {
			in = append(in,
				badInput{name: "params " + kind, line: `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":` + v + `}`, id: "1", code: -32602},
				badInput{name: "_meta " + kind, line: `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":` + v + `}}`, id: "1", code: -32602},
				badInput{name: "clientCapabilities " + kind, line: `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":` + v + `}}}`, id: "1", code: -32602},
				badInput{name: "arguments " + kind, line: reqLine("1", "tools/call", `"name":"get_order_status","arguments":`+v), id: "1", code: -32602, absent: kind == "null"},
				badInput{name: "whole message " + kind, line: v, id: "null", code: -32600},
			)
		}
	}
	return in
}

// argumentBattery puts every wrong JSON type in every argument of the
// three tools, one field at a time with the others valid; the isError
// result must name the field.
func argumentBattery() []badInput {
	type field struct{ name, valid, kind string }
	tools := []struct {
		name   string
		fields []field
	}{
		{"get_order_status", []field{{"order_id", `"A1001"`, "string"}}},
		{"search_orders", []field{{"status", `"SHIPPED"`, "string"}, {"limit", `5`, "int"}, {"cursor", `"c"`, "string"}}},
		{"create_return", []field{{"order_id", `"A1001"`, "string"}, {"reason", `"r"`, "string"}, {"idempotency_key", `"k"`, "string"}}},
	}
	var in []badInput
	for _, tool := range tools {
		for _, bad := range tool.fields {
			for _, k := range jsonKinds {
				if k.kind == bad.kind {
					continue
				}
				var parts []string
				for _, f := range tool.fields {
					v := f.valid
					if f.name == bad.name {
						v = k.v
					}
					parts = append(parts, fmt.Sprintf("%q:%s", f.name, v))
				}
				in = append(in, badInput{
					name: fmt.Sprintf("%s.%s %s", tool.name, bad.name, k.kind),
					line: toolLine("1", tool.name, "{"+strings.Join(parts, ",")+"}"),
					id:   "1", fields: []string{"/" + bad.name},
				})
			}
		}
	}
	return in
}

// hostileBattery are the malformed, oversized and out-of-protocol lines.
func hostileBattery() []badInput {
	deep := strings.Repeat("[", 100_000)
	huge := strings.Repeat("1,", 200_000) + "1"
	return []badInput{
		{name: "malformed", line: `{"jsonrpc":"2.0","id":1,"method":`, id: "null", code: -32700},
		{name: "not JSON at all", line: `hello`, id: "null", code: -32700},
		{name: "truncated request", line: reqLine("1", "tools/list", "")[:40], id: "null", code: -32700},
		{name: "truncated string", line: `{"jsonrpc":"2.0","id":1,"method":"tools/li`, id: "null", code: -32700},
		{name: "trailing garbage", line: reqLine("1", "tools/list", "") + `}`, id: "null", code: -32700},
		{name: "two messages on a line", line: reqLine("1", "tools/list", "") + reqLine("2", "tools/list", ""), id: "null", code: -32700},
		{name: "over the size limit", line: `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":` + meta + `,"x":"` + strings.Repeat("a", 4<<20+10) + `"}}`, id: "null", code: -32600},
		{name: "deep nesting", line: deep, id: "null", code: -32700},
		{name: "deep nesting in arguments", line: toolLine("1", "get_order_status", `{"order_id":"A1001","x":`+deep+strings.Repeat("]", 100_000)+`}`), id: "null", code: -32700},
		{name: "deep objects in params", line: reqLine("1", "tools/list", `"x":`+strings.Repeat(`{"a":`, 50_000)+"1"+strings.Repeat("}", 50_000)), id: "null", code: -32700},
		{name: "invalid UTF-8 in method", line: "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"\xff\"}", id: "null", code: -32700},
		{name: "invalid UTF-8 in argument", line: toolLine("1", "get_order_status", "{\"order_id\":\"A\xff\xfe\"}"), id: "null", code: -32700},
		{name: "overlong UTF-8 NUL", line: toolLine("1", "get_order_status", "{\"order_id\":\"A10\xc0\x80\"}"), id: "null", code: -32700},
		{name: "raw control character", line: toolLine("1", "get_order_status", "{\"order_id\":\"A1\x01\"}"), id: "null", code: -32700},
		{name: "lone surrogate escape", line: toolLine("1", "get_order_status", `{"order_id":"A1001\ud800"}`), id: "1", fields: []string{"/order_id", "pattern"}},
		{name: "newline escape", line: toolLine("1", "get_order_status", `{"order_id":"A1001\n"}`), id: "1", fields: []string{"/order_id", "pattern"}},
		{name: "non-ASCII digits", line: toolLine("1", "get_order_status", `{"order_id":"A١٢٣"}`), id: "1", fields: []string{"/order_id", "pattern"}},
		{name: "huge array argument", line: toolLine("1", "search_orders", `{"limit":[`+huge+`]}`), id: "1", fields: []string{"/limit"}},
		{name: "huge array unknown property", line: toolLine("1", "search_orders", `{"junk":[`+huge+`]}`), id: "1", fields: []string{"junk"}},
		{name: "number overflow", line: toolLine("1", "search_orders", `{"limit":1e400}`), id: "1", fields: []string{"/limit"}},
		{name: "integer overflow", line: toolLine("1", "search_orders", `{"limit":99999999999999999999999}`), id: "1", fields: []string{"/limit"}},
		{name: "fractional integer", line: toolLine("1", "search_orders", `{"limit":1.5}`), id: "1", fields: []string{"/limit"}},
		{name: "below minimum", line: toolLine("1", "search_orders", `{"limit":0}`), id: "1", fields: []string{"/limit"}},
		{name: "above maximum", line: toolLine("1", "search_orders", `{"limit":51}`), id: "1", fields: []string{"/limit"}},
		{name: "not in enum", line: toolLine("1", "search_orders", `{"status":"LOST"}`), id: "1", fields: []string{"/status"}},
		{name: "cursor too long", line: toolLine("1", "search_orders", `{"cursor":"`+strings.Repeat("c", 257)+`"}`), id: "1", fields: []string{"/cursor"}},
		{name: "order id too long", line: toolLine("1", "get_order_status", `{"order_id":"A12345678"}`), id: "1", fields: []string{"/order_id"}},
		{name: "missing required", line: toolLine("1", "create_return", `{}`), id: "1", fields: []string{"order_id", "reason", "idempotency_key"}},
		{name: "unknown property", line: toolLine("1", "get_order_status", `{"order_id":"A1001","admin":true}`), id: "1", fields: []string{"admin"}},
		{name: "unknown tool", line: toolLine("1", "drop_tables", `{}`), id: "1", code: -32602},
		{name: "unknown method", line: reqLine("1", "orders/delete", ""), id: "1", code: -32601},
		{name: "removed method", line: reqLine("1", "ping", ""), id: "1", code: -32601},
		{name: "request without params", line: `{"jsonrpc":"2.0","id":1,"method":"tools/call"}`, id: "1", code: -32602},
		{name: "request without _meta", line: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_order_status","arguments":{"order_id":"A1001"}}}`, id: "1", code: -32602},
		{name: "no method", line: `{"jsonrpc":"2.0","id":1}`, id: "1", code: -32600},
		{name: "batch", line: `[` + reqLine("1", "tools/list", "") + `]`, id: "null", code: -32600},
		{name: "empty batch", line: `[]`, id: "null", code: -32600},
		{name: "notification where a request is expected", line: `{"jsonrpc":"2.0","method":"tools/call","params":{"_meta":` + meta + `,"name":"create_return","arguments":{"order_id":"A1001","reason":"r","idempotency_key":"notif"}}}`},
		{name: "notification without params", line: `{"jsonrpc":"2.0","method":"tools/list"}`},
		{name: "unknown notification", line: `{"jsonrpc":"2.0","method":"notifications/frobnicate","params":{}}`},
		{name: "cancel of nothing", line: `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"nobody"}}`},
		{name: "response from the client", line: `{"jsonrpc":"2.0","id":1,"result":{}}`},
		{name: "error response from the client", line: `{"jsonrpc":"2.0","id":1,"error":{"code":-1,"message":"no"}}`},
		{name: "blank line", line: `   `},
	}
}

func alive(t *testing.T, p *proc) bool {
	t.Helper()
	if err := p.cmd.Process.Signal(syscall.Signal(0)); err != nil {
		t.Errorf("orders-mcp died: %v; stderr:\n%s", err, p.stderr)
		return false
	}
	return true
}

// TestBadInputBattery sends every hostile input the server should survive
// and checks each answer, that the process lives on, and that a valid
// request right after — and a stream of them from another goroutine — is
// answered correctly.
func TestBadInputBattery(t *testing.T) {
	p := start(t, "alice")
	w := newWire(p)

	// Valid traffic interleaved from another goroutine for the whole run.
	stop := make(chan struct{})
	var bg sync.WaitGroup
	var bgCalls atomic.Int64
	bg.Add(1)
	go func() {
		defer bg.Done()
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			w.probe(t, fmt.Sprintf(`"bg-%d"`, i))
			bgCalls.Add(1)
		}
	}()

	battery := append(append(envelopeBattery(), argumentBattery()...), hostileBattery()...)
	for i, in := range battery {
		t.Run(in.name, func(t *testing.T) {
			var ch chan response
			if in.id != "" {
				ch = w.expect(in.id)
				defer w.forget(in.id)
			}
			w.write(t, in.line)
			if in.id != "" {
				r, ok := w.wait(t, ch, in.name)
				if !ok {
					return
				}
				checkBad(t, in, r)
			}
			w.probe(t, fmt.Sprintf(`"after-%d"`, i))
		})
		if !alive(t, p) {
			break
		}
	}

	// Two requests with one id back to back: either both are served one
	// after the other, or the second is rejected as a duplicate in flight;
	// never two errors, never a lost answer.
	t.Run("duplicate id in flight", func(t *testing.T) {
		ch := w.expect(`"dup"`)
		defer w.forget(`"dup"`)
		line := toolLine(`"dup"`, "search_orders", `{}`)
		w.write(t, line+"\n"+line)
		var served, rejected int
		for range 2 {
			r, ok := w.wait(t, ch, "dup")
			if !ok {
				return
			}
			switch {
			case r.Error != nil && r.Error.Code == -32600 && strings.Contains(r.Error.Message, "in flight"):
				rejected++
			case r.Error == nil:
				served++
			default:
				t.Errorf("dup: unexpected answer %+v %s", r.Error, r.Result)
			}
		}
		if served < 1 || served+rejected != 2 {
			t.Errorf("duplicate ids: %d served, %d rejected; want at least one served", served, rejected)
		}
	})

	close(stop)
	bg.Wait()
	alive(t, p)
	if s := w.strays(); len(s) != 0 {
		t.Errorf("%d unexpected lines, e.g. %.300s", len(s), s[0])
	}
	// The notification naming create_return must not have filed a return.
	ch := w.expect(`"last"`)
	w.write(t, reqLine(`"last"`, "resources/read", `"uri":"order://A1001/summary"`))
	if r, ok := w.wait(t, ch, "summary"); ok {
		var summary struct {
			Contents []struct{ Text string } `json:"contents"`
		}
		if r.Error != nil || json.Unmarshal(r.Result, &summary) != nil || len(summary.Contents) != 1 ||
			strings.Contains(summary.Contents[0].Text, "return_id") {
			t.Errorf("summary after a create_return notification = %+v %s, want no return filed", r.Error, r.Result)
		}
	}
	t.Logf("bad inputs tried: %d (+1 duplicate-id pair); valid calls interleaved from another goroutine: %d", len(battery), bgCalls.Load())
}

func checkBad(t *testing.T, in badInput, r response) {
	t.Helper()
	if in.absent {
		var res toolResult
		if r.Error != nil || json.Unmarshal(r.Result, &res) != nil ||
			(strings.Contains(in.line, "arguments") && !strings.Contains(res.text(), "/order_id: is required")) {
			t.Errorf("null read as absent: want a result, got %+v %.200s", r.Error, r.Result)
		}
		return
	}
	if in.code != 0 {
		if r.Error == nil || r.Error.Code != in.code {
			t.Errorf("want error %d, got %+v %.200s", in.code, r.Error, r.Result)
		}
		return
	}
	var res toolResult
	if r.Error != nil || json.Unmarshal(r.Result, &res) != nil || !res.IsError {
		t.Errorf("want an isError result, got %+v %.200s", r.Error, r.Result)
		return
	}
	for _, f := range in.fields {
		if !strings.Contains(res.text(), f) {
			t.Errorf("error %q does not name %s", res.text(), f)
		}
	}
}

// loadCall is one request of the load test and a check of its answer.
type loadCall struct {
	line  string
	check func(r response) error
}

// loadMix returns the n-th call of writer w: the three tools and the two
// kinds of reads in turn, each with an answer known in advance (or, for
// create_return, tied to its own idempotency key).
func loadMix(w, n int) (id string, c loadCall) {
	id = fmt.Sprintf(`"w%d-%d"`, w, n)
	tool := func(want func(structured string) error) func(r response) error {
		return func(r response) error {
			var res toolResult
			if r.Error != nil || json.Unmarshal(r.Result, &res) != nil || res.IsError {
				return fmt.Errorf("want a tool result, got %+v %.200s", r.Error, r.Result)
			}
			var b bytes.Buffer
			if err := json.Compact(&b, res.Structured); err != nil {
				return err
			}
			return want(b.String())
		}
	}
	exact := func(want string) func(string) error {
		return func(got string) error {
			if got != want {
				return fmt.Errorf("got %s, want %s", got, want)
			}
			return nil
		}
	}
	switch n % 6 {
	case 0:
		return id, loadCall{toolLine(id, "get_order_status", `{"order_id":"A1001"}`), tool(exact(`{"found":true,"order_id":"A1001","status":"SHIPPED"}`))}
	case 1:
		return id, loadCall{toolLine(id, "get_order_status", `{"order_id":"A1002"}`), tool(exact(`{"found":false,"order_id":"A1002"}`))}
	case 2:
		return id, loadCall{toolLine(id, "search_orders", `{"limit":1}`), tool(func(got string) error {
			if !strings.HasPrefix(got, `{"orders":[{"order_id":"A1001","status":"SHIPPED"}],"next_cursor":"`) {
				return fmt.Errorf("first page = %s", got)
			}
			return nil
		})}
	case 3:
		order := []string{"A1001", "A1003"}[(w+n)%2]
		key := fmt.Sprintf("k-%d-%d", w, n)
		return id, loadCall{toolLine(id, "create_return", fmt.Sprintf(`{"order_id":%q,"reason":"load","idempotency_key":%q}`, order, key)), tool(func(got string) error {
			if !strings.Contains(got, `"order_id":"`+order+`"`) || !strings.Contains(got, `"status":"REQUESTED"`) {
				return fmt.Errorf("return for %s = %s", order, got)
			}
			return nil
		})}
	case 4:
		return id, loadCall{reqLine(id, "resources/read", `"uri":"policy://after-sales/current"`), func(r response) error {
			if r.Error != nil || !strings.Contains(string(r.Result), `"uri":"policy://after-sales/current"`) {
				return fmt.Errorf("policy read = %+v %.200s", r.Error, r.Result)
			}
			return nil
		}}
	default:
		return id, loadCall{reqLine(id, "tools/list", ""), func(r response) error {
			if r.Error != nil || strings.Count(string(r.Result), `"inputSchema"`) != 5 {
				return fmt.Errorf("tools/list = %+v %.200s", r.Error, r.Result)
			}
			return nil
		}}
	}
}

// hammer runs writers goroutines each pipelining calls requests on one
// connection, then checks that every request got exactly one answer, the
// right one, and nothing else came out. It returns the calls answered.
func hammer(t *testing.T, p *proc, writers, calls int) int {
	w := newWire(p)
	var answered atomic.Int64
	var wg sync.WaitGroup
	for wi := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ids := make([]string, calls)
			chans := make([]chan response, calls)
			checks := make([]loadCall, calls)
			for n := range calls {
				ids[n], checks[n] = loadMix(wi, n)
				chans[n] = w.expect(ids[n])
				w.write(t, checks[n].line)
			}
			for n := range calls {
				r, ok := w.wait(t, chans[n], ids[n])
				if !ok {
					return
				}
				if err := checks[n].check(r); err != nil {
					t.Errorf("%s: %v", ids[n], err)
				}
				answered.Add(1)
			}
			// Give a duplicated answer the time of one more round trip
			// to show up, then look for it.
			w.probe(t, fmt.Sprintf(`"w%d-probe"`, wi))
			for n := range calls {
				if len(chans[n]) != 0 {
					t.Errorf("%s answered twice", ids[n])
				}
				w.forget(ids[n])
			}
		}()
	}
	wg.Wait()
	if s := w.strays(); len(s) != 0 {
		t.Errorf("%d unexpected lines, e.g. %.300s", len(s), s[0])
	}
	alive(t, p)
	return int(answered.Load())
}

// TestStdioLoad pipelines thousands of mixed calls from concurrent writers
// on one connection, and on several processes at once: no answer may be
// lost, duplicated or given to the wrong request.
func TestStdioLoad(t *testing.T) {
	const writers, calls = 16, 500
	procs := 4
	if testing.Short() {
		procs = 1
	}
	var total atomic.Int64
	t.Run("one connection", func(t *testing.T) {
		total.Add(int64(hammer(t, start(t, "alice"), writers, calls)))
	})
	t.Run("processes in parallel", func(t *testing.T) {
		for i := range procs {
			t.Run(fmt.Sprint(i), func(t *testing.T) {
				t.Parallel()
				total.Add(int64(hammer(t, start(t, "alice"), 4, 250)))
			})
		}
	})
	if want := int64(writers*calls + procs*4*250); total.Load() != want {
		t.Errorf("answered %d calls, want %d", total.Load(), want)
	}
	t.Logf("load: %d writers x %d calls on one connection, then %d processes x 4 writers x 250 calls; %d answered, 0 lost", writers, calls, procs, total.Load())
}
