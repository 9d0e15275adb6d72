package runtime

// The tasks extension (io.modelcontextprotocol/tasks, SEP-2663): a
// tools/call of a task-capable tool may answer a CreateTaskResult, after
// which the client polls tasks/get, answers input through tasks/update and
// stops the work with tasks/cancel.
//
// A task-capable call starts like any other: the handler runs while the
// request waits. It becomes a task when the handler calls StartTask or is
// still running after Options.TaskStartAfter; a handler that returns sooner
// is answered directly (the immediate-result shortcut SEP-2663 allows), and
// Elicit before that point is an ordinary MRTR round (input_required on the
// tools/call itself). Once the call is a task, the handler keeps running
// with a context that the request's end does not cancel and tasks/cancel
// does; Elicit then parks the task in input_required until tasks/update
// brings the answer.
//
// Tasks live in memory on the replica that runs them (taskStore). Behind a
// load balancer, a client's tasks/* requests must reach the replica that
// created the task; the store is a narrow interface so that a shared one
// can take its place.

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"sync"
	"time"
)

// TaskSupport says whether a tool can run as a task (ToolDef.Task).
type TaskSupport string

const (
	// TaskNever: the tool always answers its call directly (the zero value).
	TaskNever TaskSupport = ""
	// TaskOptional: the call becomes a task when the client declared the
	// tasks extension and the handler runs long (or calls StartTask);
	// otherwise it is answered directly.
	TaskOptional TaskSupport = "optional"
	// TaskRequired: like TaskOptional, but a client that did not declare
	// the extension gets -32021 (Missing Required Client Capability).
	TaskRequired TaskSupport = "required"
)

// TasksExtension is the extension identifier of SEP-2663.
const TasksExtension = "io.modelcontextprotocol/tasks"

// Defaults of the task options.
const (
	defaultTaskTTL          = time.Hour
	defaultTaskPollInterval = time.Second
	defaultTaskStartAfter   = 100 * time.Millisecond
	// maxTasks bounds the tasks one Server keeps, so that a client cannot
	// pin unbounded memory by creating tasks.
	maxTasks = 10000
)

// Task statuses.
const (
	taskWorking       = "working"
	taskInputRequired = "input_required"
	taskCompleted     = "completed"
	taskFailed        = "failed"
	taskCancelled     = "cancelled"
)

// task is one task: its record and, on the replica running it, the
// handler's cancel function and the input requests it waits on.
type task struct {
	srv     *Server
	id      string
	owner   string // Identity.Subject of the creator
	created time.Time
	ttl     time.Duration
	cancel  context.CancelFunc

	mu      sync.Mutex
	started bool // the call became a task (CreateTaskResult sent)
	pinned  bool // an MRTR round was asked: the call answers directly
	// decided is closed when the call either became a task or finished
	// before that; direct holds the answer in the second case.
	decided chan struct{}
	direct  *response
	status  string
	updated time.Time
	result  []byte // completed: the CallToolResult
	err     *Error // failed: the JSON-RPC error
	// asks are the input requests the handler waits on, by key, in order.
	asks    []string
	waiting map[string]*taskAsk
}

// taskAsk is one input request a running task waits on.
type taskAsk struct {
	req    inputRequest
	answer chan json.RawMessage // buffered: tasks/update never blocks
}

// terminal reports whether status is final; t.mu is held.
func (t *task) terminal() bool {
	switch t.status {
	case taskCompleted, taskFailed, taskCancelled:
		return true
	}
	return false
}

// taskStore keeps the tasks of one replica. It is deliberately narrow (put,
// get, remove, count, expired) so that a store shared by replicas can
// replace the in-memory one.
type taskStore interface {
	put(t *task)
	get(id string) (*task, bool)
	remove(id string)
	len() int
	expired(now time.Time) []*task
}

// memoryTaskStore is the default taskStore.
type memoryTaskStore struct {
	mu    sync.Mutex
	tasks map[string]*task
}

func (m *memoryTaskStore) put(t *task) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.tasks == nil {
		m.tasks = map[string]*task{}
	}
	m.tasks[t.id] = t
}

func (m *memoryTaskStore) get(id string) (*task, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	t, ok := m.tasks[id]
	return t, ok
}

func (m *memoryTaskStore) remove(id string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.tasks, id)
}

func (m *memoryTaskStore) len() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.tasks)
}

// expired returns the tasks whose ttl has passed at now.
func (m *memoryTaskStore) expired(now time.Time) []*task {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []*task
	for _, t := range m.tasks {
		if now.Sub(t.created) >= t.ttl {
			out = append(out, t)
		}
	}
	return out
}

type taskKey struct{}

func withTask(ctx context.Context, t *task) context.Context {
	return context.WithValue(ctx, taskKey{}, t)
}

func taskFrom(ctx context.Context) *task {
	t, _ := ctx.Value(taskKey{}).(*task)
	return t
}

// StartTask makes the running tools/call a task now, if it is a call of a
// task-capable tool from a client that declared the tasks extension: the
// client gets its CreateTaskResult at once and the handler continues in
// the background, cancelled by tasks/cancel instead of the request's end.
// Elsewhere it does nothing. Handlers call it before long work, or before
// asking for input that should park the task rather than the call.
func StartTask(ctx context.Context) {
	t := taskFrom(ctx)
	if t == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.startLocked()
}

// startLocked makes the call a task unless it was decided already; t.mu is
// held. It reports whether the call is a task.
func (t *task) startLocked() bool {
	if t.started {
		return true
	}
	if t.pinned || t.direct != nil {
		return false
	}
	t.started = true
	close(t.decided)
	return true
}

// pin keeps the call direct because the handler asks for input in an MRTR
// round. It reports false when the call is a task already.
func (t *task) pin() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.started {
		return false
	}
	t.pinned = true
	return true
}

// isStarted reports whether the call is a task.
func (t *task) isStarted() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.started
}

// newTaskID returns an unguessable task id (128 random bits).
func newTaskID() string {
	b := make([]byte, 16)
	rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// taskAskClient is Elicit, Sample and ListRoots inside a running task: the
// answer of an earlier MRTR round if there is one, else the task parks in
// input_required until tasks/update answers key, the task is cancelled, or
// ctx ends.
func (s *Server) taskAskClient(ctx context.Context, t *task, rs *reqState, key string, ir inputRequest) (json.RawMessage, error) {
	if m := rs.mrtr; m != nil {
		// answers and responses are read-only once the request began.
		if raw, ok := m.answers[key]; ok {
			return raw, nil
		}
		if raw, ok := m.responses[key]; ok {
			return raw, nil
		}
	}
	a := &taskAsk{req: ir, answer: make(chan json.RawMessage, 1)}
	t.mu.Lock()
	if t.terminal() {
		t.mu.Unlock()
		return nil, context.Canceled
	}
	if t.waiting == nil {
		t.waiting = map[string]*taskAsk{}
	}
	if old, dup := t.waiting[key]; dup {
		a = old
	} else {
		t.waiting[key] = a
		t.asks = append(t.asks, key)
	}
	changed := t.status != taskInputRequired
	t.status = taskInputRequired
	t.updated = s.now()
	t.mu.Unlock()
	if changed {
		s.notifyTaskStatus(t)
	}
	select {
	case raw := <-a.answer:
		return raw, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// answerTask delivers inputResponses to the requests t waits on; keys it
// does not wait on are ignored. The task is working again once nothing is
// pending.
func (s *Server) answerTask(t *task, responses map[string]json.RawMessage) {
	t.mu.Lock()
	answered := false
	for key, raw := range responses {
		a, ok := t.waiting[key]
		if !ok {
			continue
		}
		delete(t.waiting, key)
		for i, k := range t.asks {
			if k == key {
				t.asks = append(t.asks[:i], t.asks[i+1:]...)
				break
			}
		}
		a.answer <- raw
		answered = true
	}
	changed := answered && len(t.waiting) == 0 && t.status == taskInputRequired
	if changed {
		t.status = taskWorking
		t.updated = s.now()
	}
	t.mu.Unlock()
	if changed {
		s.notifyTaskStatus(t)
	}
}

// finishTask records the outcome of the handler of t. Before the call
// became a task, the outcome is the call's direct answer.
func (s *Server) finishTask(t *task, r response) {
	t.mu.Lock()
	if !t.started {
		t.direct = &r
		close(t.decided)
		t.mu.Unlock()
		return
	}
	if t.terminal() { // cancelled meanwhile: the outcome is dropped
		t.mu.Unlock()
		return
	}
	switch {
	case r.err != nil:
		t.status, t.err = taskFailed, r.err
	case isInputRequiredResult(r.result):
		// The handler returned Elicit's error from an MRTR round after the
		// call became a task: there is no round to answer it in.
		t.status = taskFailed
		t.err = &Error{Code: CodeInternalError, Message: "handler asked for input in a form a task cannot carry"}
	default:
		t.status, t.result = taskCompleted, r.result
	}
	t.updated = s.now()
	t.waiting, t.asks = nil, nil
	t.mu.Unlock()
	s.notifyTaskStatus(t)
}

// isInputRequiredResult reports whether an encoded result is an
// input_required one.
func isInputRequiredResult(b []byte) bool {
	const prefix = `{"resultType":"input_required"`
	return len(b) >= len(prefix) && string(b[:len(prefix)]) == prefix
}

// cancelTask moves t to cancelled (unless it is terminal) and cancels its
// handler.
func (s *Server) cancelTask(t *task) {
	t.mu.Lock()
	if t.terminal() {
		t.mu.Unlock()
		return
	}
	t.status = taskCancelled
	t.updated = s.now()
	t.waiting, t.asks = nil, nil
	t.mu.Unlock()
	t.cancel()
	s.notifyTaskStatus(t)
}

// sweepTasks forgets the tasks whose ttl has passed, cancelling those
// still running.
func (s *Server) sweepTasks() {
	for _, t := range s.tasks.expired(s.now()) {
		s.tasks.remove(t.id)
		t.mu.Lock()
		running := !t.terminal()
		t.mu.Unlock()
		if running {
			t.cancel()
		}
	}
}

// lookupTask returns the task id names if ctx's caller created it and it
// has not expired. Another caller's task is not found, as an unknown id is.
func (s *Server) lookupTask(ctx context.Context, id string) (*task, *Error) {
	s.sweepTasks()
	t, ok := s.tasks.get(id)
	caller, _ := IdentityFrom(ctx)
	if !ok || t.owner != caller.Subject {
		return nil, InvalidParams("Unknown taskId: %q", id)
	}
	return t, nil
}

// elicitInTask is Elicit inside a running task.
func elicitInTask(ctx context.Context, t *task, rs *reqState, key string, req ElicitRequest) (ElicitResult, error) {
	caps := rs.caps
	if caps == (clientCaps{}) && rs.meta != nil {
		caps = parseClientCaps(rs.meta.ClientCapabilities)
	}
	if req.URL != "" && !caps.elicitURL {
		return ElicitResult{}, missingCapability(`{"elicitation":{"url":{}}}`)
	}
	if req.URL == "" && !caps.elicitForm {
		return ElicitResult{}, missingCapability(`{"elicitation":{"form":{}}}`)
	}
	params, err := appendElicitParams(nil, req)
	if err != nil {
		return ElicitResult{}, err
	}
	raw, err := t.srv.taskAskClient(ctx, t, rs, key, inputRequest{method: "elicitation/create", params: params})
	if err != nil {
		return ElicitResult{}, err
	}
	res, e := decodeElicitResult(raw)
	if e != nil {
		return ElicitResult{}, e
	}
	return res, nil
}
