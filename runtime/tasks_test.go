package runtime

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

// tasksMeta declares elicitation and the tasks extension.
const tasksMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{},"extensions":{"io.modelcontextprotocol/tasks":{}}}}`

// taskFixture is a server with task-capable tools whose handlers the test
// steps through channels: no test waits on a clock.
type taskFixture struct {
	srv     *Server
	clock   *fakeClock
	release chan string          // what "job" returns
	ctxs    chan context.Context // the handler contexts of "job" and "hold"
}

func newTaskFixture(t *testing.T, opts Options) *taskFixture {
	t.Helper()
	f := newFixture(t, opts)
	tf := &taskFixture{srv: f.srv, clock: &fakeClock{}, release: make(chan string, 1), ctxs: make(chan context.Context, 4)}
	f.srv.now = tf.clock.now
	def := func(name string) string { return `{"name":"` + name + `","inputSchema":{"type":"object"}}` }
	// job becomes a task at once and returns what the test releases.
	f.srv.AddTool(ToolDef{Name: "job", Definition: def("job"), Task: TaskOptional,
		Call: func(ctx context.Context, args []byte) (*ToolResult, error) {
			StartTask(ctx)
			tf.ctxs <- ctx
			select {
			case s := <-tf.release:
				if s == "rpc-error" {
					return nil, &Error{Code: -32099, Message: "backend down"}
				}
				return &ToolResult{Content: []Content{TextContent(s)}}, nil
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}})
	// quick answers before it could become a task.
	f.srv.AddTool(ToolDef{Name: "quick", Definition: def("quick"), Task: TaskRequired,
		Call: func(ctx context.Context, args []byte) (*ToolResult, error) {
			return &ToolResult{Content: []Content{TextContent("quick")}}, nil
		}})
	// ask_task becomes a task, then asks for a name.
	f.srv.AddTool(ToolDef{Name: "ask_task", Definition: def("ask_task"), Task: TaskOptional,
		Call: func(ctx context.Context, args []byte) (*ToolResult, error) {
			StartTask(ctx)
			res, err := Elicit(ctx, "name", ElicitRequest{Message: "Name?", Schema: `{"type":"object","properties":{"name":{"type":"string"}}}`})
			if err != nil {
				return nil, err
			}
			return &ToolResult{Content: []Content{TextContent(fmt.Sprint("hello ", res.Content["name"]))}}, nil
		}})
	// prelude asks in the call (MRTR), then becomes a task.
	f.srv.AddTool(ToolDef{Name: "prelude", Definition: def("prelude"), Task: TaskOptional,
		Call: func(ctx context.Context, args []byte) (*ToolResult, error) {
			res, err := Elicit(ctx, "name", ElicitRequest{Message: "Name?", Schema: `{"type":"object","properties":{"name":{"type":"string"}}}`})
			if err != nil {
				return nil, err
			}
			StartTask(ctx)
			tf.ctxs <- ctx
			<-tf.release
			return &ToolResult{Content: []Content{TextContent(fmt.Sprint("later ", res.Content["name"]))}}, nil
		}})
	return tf
}

// recvResponse returns the response to id, handing notifications to note.
func recvResponse(c *testClient, id string, note func(wireMsg)) wireMsg {
	c.t.Helper()
	for {
		m := c.recv()
		if m.Method != "" && m.ID == nil {
			if note != nil {
				note(m)
			}
			continue
		}
		if string(m.ID) != `"`+id+`"` {
			c.t.Fatalf("want the response to %s, got %s", id, m.raw)
		}
		return m
	}
}

func taskCall(c *testClient, id, method, params string) wireMsg {
	c.t.Helper()
	c.send(reqLineMeta(id, method, tasksMeta, params))
	return recvResponse(c, id, nil)
}

func TestTaskLifecycle(t *testing.T) {
	tf := newTaskFixture(t, Options{TaskTTL: time.Minute, TaskPollInterval: 250 * time.Millisecond})
	c := startClient(t, tf.srv, StdioOptions{Identity: &Identity{Subject: "alice"}})

	// The discovery result advertises the extension.
	d := c.call("d", "server/discover", "").res(t)
	if ext, _ := d["capabilities"].(map[string]any)["extensions"].(map[string]any); ext[TasksExtension] == nil {
		t.Fatalf("server/discover must advertise %s: %v", TasksExtension, d["capabilities"])
	}

	// A listen stream that declared the extension hears status changes.
	c.send(reqLineMeta("l", "subscriptions/listen", tasksMeta, `"notifications":{}`))
	if m := c.recv(); m.Method != "notifications/subscriptions/acknowledged" {
		t.Fatalf("want the listen ack, got %s", m.raw)
	}

	created := taskCall(c, "c1", "tools/call", `"name":"job","arguments":{}`).res(t)
	id, _ := created["taskId"].(string)
	if created["resultType"] != "task" || len(id) < 20 || created["status"] != "working" ||
		created["ttlMs"] != float64(60000) || created["pollIntervalMs"] != float64(250) {
		t.Fatalf("want a CreateTaskResult, got %v", created)
	}
	for _, k := range []string{"result", "error", "inputRequests", "requestState", "task"} {
		if _, ok := created[k]; ok {
			t.Errorf("CreateTaskResult must not carry %q", k)
		}
	}
	<-tf.ctxs
	got := taskCall(c, "g1", "tasks/get", `"taskId":"`+id+`"`).res(t)
	if got["resultType"] != "complete" || got["status"] != "working" || got["result"] != nil {
		t.Fatalf("working task: %v", got)
	}

	tf.release <- "done!"
	// The completion is announced on the listen stream.
	m := c.recv()
	if m.Method != "notifications/tasks" {
		t.Fatalf("want notifications/tasks, got %s", m.raw)
	}
	var note map[string]any
	json.Unmarshal(m.Params, &note)
	if note["taskId"] != id || note["status"] != "completed" {
		t.Fatalf("notification: %s", m.Params)
	}
	got = taskCall(c, "g2", "tasks/get", `"taskId":"`+id+`"`).res(t)
	jsonEq(t, "inlined result", mustJSON(got["result"].(map[string]any)["content"]), `[{"type":"text","text":"done!"}]`)
	if got["status"] != "completed" {
		t.Fatalf("completed task: %v", got)
	}

	// Cancelling a terminal task is acknowledged and changes nothing.
	ack := taskCall(c, "x1", "tasks/cancel", `"taskId":"`+id+`"`).res(t)
	if ack["resultType"] != "complete" || ack["status"] != nil || ack["taskId"] != nil {
		t.Fatalf("cancel ack: %v", ack)
	}
	if s := taskCall(c, "g3", "tasks/get", `"taskId":"`+id+`"`).res(t)["status"]; s != "completed" {
		t.Fatalf("status after a late cancel: %v", s)
	}
}

func TestTaskFailedAndCancelled(t *testing.T) {
	tf := newTaskFixture(t, Options{})
	c := startClient(t, tf.srv, StdioOptions{})

	// A JSON-RPC error of the handler fails the task, with the error inlined.
	id := taskCall(c, "c1", "tools/call", `"name":"job"`).res(t)["taskId"].(string)
	<-tf.ctxs
	tf.release <- "rpc-error"
	got := waitTask(c, id, "failed")
	jsonEq(t, "error", mustJSON(got["error"]), `{"code":-32099,"message":"backend down"}`)
	if got["result"] != nil {
		t.Error("a failed task must not carry a result")
	}

	// tasks/cancel cancels the handler's context.
	id = taskCall(c, "c2", "tools/call", `"name":"job"`).res(t)["taskId"].(string)
	hctx := <-tf.ctxs
	taskCall(c, "x", "tasks/cancel", `"taskId":"`+id+`"`)
	<-hctx.Done()
	waitTask(c, id, "cancelled")
}

// waitTask polls tasks/get until the task has status, which it must reach
// without the test's clock moving (the handler's goroutine finishes it).
func waitTask(c *testClient, id, status string) map[string]any {
	c.t.Helper()
	for i := 0; ; i++ {
		got := taskCall(c, fmt.Sprint("w", i), "tasks/get", `"taskId":"`+id+`"`).res(c.t)
		if got["status"] == status {
			return got
		}
		if i > 1000 {
			c.t.Fatalf("task %s never became %s: %v", id, status, got)
		}
		time.Sleep(time.Millisecond)
	}
}

func TestTaskInput(t *testing.T) {
	tf := newTaskFixture(t, Options{})
	c := startClient(t, tf.srv, StdioOptions{})

	id := taskCall(c, "c1", "tools/call", `"name":"ask_task"`).res(t)["taskId"].(string)
	got := waitTask(c, id, "input_required")
	jsonEq(t, "inputRequests", mustJSON(got["inputRequests"]), `{"name":{"method":"elicitation/create","params":{"mode":"form","message":"Name?","requestedSchema":{"type":"object","properties":{"name":{"type":"string"}}}}}}`)
	// An answer to a question nobody asked is acknowledged and ignored.
	if ack := taskCall(c, "u0", "tasks/update", `"taskId":"`+id+`","inputResponses":{"other":{}}`).res(t); ack["resultType"] != "complete" {
		t.Fatalf("update ack: %v", ack)
	}
	taskCall(c, "u1", "tasks/update", `"taskId":"`+id+`","inputResponses":{"name":{"action":"accept","content":{"name":"Ada"}}}`)
	got = waitTask(c, id, "completed")
	jsonEq(t, "result", mustJSON(got["result"].(map[string]any)["content"]), `[{"type":"text","text":"hello Ada"}]`)
}

func TestTaskAfterMRTR(t *testing.T) {
	tf := newTaskFixture(t, Options{})
	c := startClient(t, tf.srv, StdioOptions{})

	// Round 1 is an ordinary input_required answer to the call.
	r := taskCall(c, "c1", "tools/call", `"name":"prelude"`).res(t)
	if r["resultType"] != "input_required" || r["taskId"] != nil {
		t.Fatalf("round 1: %v", r)
	}
	state, _ := json.Marshal(r["requestState"])
	// Round 2 has the answer: the call becomes a task.
	r = taskCall(c, "c2", "tools/call", `"name":"prelude","inputResponses":{"name":{"action":"accept","content":{"name":"Bo"}}},"requestState":`+string(state)).res(t)
	id, _ := r["taskId"].(string)
	if r["resultType"] != "task" || id == "" || r["requestState"] != nil {
		t.Fatalf("round 2: %v", r)
	}
	<-tf.ctxs
	tf.release <- ""
	got := waitTask(c, id, "completed")
	jsonEq(t, "result", mustJSON(got["result"].(map[string]any)["content"]), `[{"type":"text","text":"later Bo"}]`)
}

func TestTaskGating(t *testing.T) {
	tf := newTaskFixture(t, Options{})
	c := startClient(t, tf.srv, StdioOptions{})

	// Without the extension: a required tool is -32021 with the
	// extension named, the tasks methods too.
	m := c.call("q", "tools/call", `"name":"quick"`)
	if m.Error == nil || m.Error.Code != CodeMissingRequiredClientCapability || !strings.Contains(string(m.Error.Data), TasksExtension) {
		t.Fatalf("required tool without the extension: %s", m.raw)
	}
	for _, method := range []string{"tasks/get", "tasks/update", "tasks/cancel"} {
		if m := c.call(method, method, `"taskId":"x"`); m.Error == nil || m.Error.Code != CodeMissingRequiredClientCapability {
			t.Errorf("%s without the extension: %s", method, m.raw)
		}
	}
	// The removed 2025-11-25 methods stay -32601.
	for _, method := range []string{"tasks/result", "tasks/list"} {
		if m := taskCall(c, method, method, `"taskId":"x"`); m.Error == nil || m.Error.Code != CodeMethodNotFound {
			t.Errorf("%s: %s", method, m.raw)
		}
	}
	// With it: a handler that returns at once is answered directly.
	if r := taskCall(c, "q2", "tools/call", `"name":"quick"`).res(t); r["resultType"] != "complete" || r["taskId"] != nil {
		t.Fatalf("quick: %v", r)
	}
	// An unknown task is -32602.
	if m := taskCall(c, "g", "tasks/get", `"taskId":"nope"`); m.Error == nil || m.Error.Code != CodeInvalidParams {
		t.Fatalf("unknown task: %s", m.raw)
	}
}

func TestTaskOwnerAndExpiry(t *testing.T) {
	tf := newTaskFixture(t, Options{TaskTTL: time.Minute})
	alice := startClient(t, tf.srv, StdioOptions{Identity: &Identity{Subject: "alice"}})
	bob := startClient(t, tf.srv, StdioOptions{Identity: &Identity{Subject: "bob"}})

	id := taskCall(alice, "c", "tools/call", `"name":"job"`).res(t)["taskId"].(string)
	hctx := <-tf.ctxs
	// Another identity cannot see, answer or cancel it: not found.
	for _, method := range []string{"tasks/get", "tasks/update", "tasks/cancel"} {
		if m := taskCall(bob, method, method, `"taskId":"`+id+`","inputResponses":{}`); m.Error == nil || m.Error.Code != CodeInvalidParams {
			t.Errorf("bob %s: %s", method, m.raw)
		}
	}
	if s := taskCall(alice, "g", "tasks/get", `"taskId":"`+id+`"`).res(t)["status"]; s != "working" {
		t.Fatalf("alice's task after bob's cancel: %v", s)
	}
	// Past its ttl the task is gone and its handler cancelled.
	tf.clock.offset.Add(int64(time.Minute))
	if m := taskCall(alice, "g2", "tasks/get", `"taskId":"`+id+`"`); m.Error == nil || m.Error.Code != CodeInvalidParams {
		t.Fatalf("expired task: %s", m.raw)
	}
	<-hctx.Done()
	if !errors.Is(hctx.Err(), context.Canceled) {
		t.Fatalf("handler context: %v", hctx.Err())
	}
}

func TestTaskThroughCallOperation(t *testing.T) {
	tf := newTaskFixture(t, Options{Discovery: true})
	c := startClient(t, tf.srv, StdioOptions{})
	// call_operation of a task-capable tool answers as its tools/call.
	r := taskCall(c, "c", "tools/call", `"name":"call_operation","arguments":{"name":"job","arguments":{}}`).res(t)
	id, _ := r["taskId"].(string)
	if r["resultType"] != "task" || id == "" {
		t.Fatalf("call_operation of a task-capable tool: %v", r)
	}
	<-tf.ctxs
	tf.release <- "via discovery"
	waitTask(c, id, "completed")
	// Without the extension, a task-required tool is refused as by tools/call.
	if m := c.call("q", "tools/call", `"name":"call_operation","arguments":{"name":"quick","arguments":{}}`); m.Error == nil || m.Error.Code != CodeMissingRequiredClientCapability {
		t.Fatalf("call_operation of a required tool without the extension: %s", m.raw)
	}
}

// FuzzTasksParams feeds arbitrary params to tasks/get, tasks/update and
// tasks/cancel: any input is answered (a result or an error), never a
// panic, and an unknown task is never found.
func FuzzTasksParams(f *testing.F) {
	f.Add(`{"taskId":"x"}`)
	f.Add(`{"taskId":"x","inputResponses":{"a":{"action":"accept"}}}`)
	f.Add(`{"taskId":null,"inputResponses":[]}`)
	f.Add(`{"taskId":1}`)
	f.Add(`[]`)
	srv := NewServer(Options{})
	srv.AddTool(ToolDef{Name: "t", Definition: `{"name":"t","inputSchema":{"type":"object"}}`, Task: TaskOptional,
		Call: func(context.Context, []byte) (*ToolResult, error) { return &ToolResult{}, nil }})
	caps := json.RawMessage(`{"extensions":{"` + TasksExtension + `":{}}}`)
	f.Fuzz(func(t *testing.T, params string) {
		for _, method := range []string{methodTasksGet, methodTasksUpdate, methodTasksCancel} {
			rs := &reqState{method: method, meta: &RequestMeta{ProtocolVersion: ProtocolVersion, ClientCapabilities: caps}}
			r := srv.tasksCall(context.Background(), rs, json.RawMessage(params))
			if r.err == nil {
				t.Fatalf("%s %s: found a task that does not exist: %s", method, params, r.result)
			}
		}
	})
}
