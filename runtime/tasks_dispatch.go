package runtime

import (
	"bytes"
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"time"

	"github.com/mcpgen-dev/mcpgen/runtime/wire"
)

// The methods of the tasks extension. tasks/result and tasks/list of the
// 2025-11-25 tasks are gone: the result is inlined in tasks/get.
const (
	methodTasksGet    = "tasks/get"
	methodTasksUpdate = "tasks/update"
	methodTasksCancel = "tasks/cancel"
)

func isTasksMethod(method string) bool {
	switch method {
	case methodTasksGet, methodTasksUpdate, methodTasksCancel:
		return true
	}
	return false
}

// errTasksNotDeclared is the -32021 answer to a request that needs the
// tasks extension from a client that did not declare it.
func errTasksNotDeclared() *Error {
	return &Error{
		Code:    CodeMissingRequiredClientCapability,
		Message: "Server requires the " + TasksExtension + " extension for this request",
		Data:    map[string]any{"requiredCapabilities": rawJSON(`{"extensions":{"` + TasksExtension + `":{}}}`)},
	}
}

// declaresTasks reports whether the request's client declared the tasks
// extension (in this request's _meta: 2026-07-28 negotiates per request).
// A 2025-11-25 session never does: tasks are a 2026-07-28 extension.
func (rs *reqState) declaresTasks() bool {
	if rs.session.ls != nil || rs.meta == nil {
		return false
	}
	return parseClientCaps(rs.meta.ClientCapabilities).tasks
}

// callTool runs a tools/call whose MRTR state has begun: as a task when the
// tool can run as one and the client declared the extension, else directly.
func (s *Server) callTool(ctx context.Context, rs *reqState, tool *ToolDef, args []byte) response {
	if tool.Task == TaskNever {
		return s.runTool(ctx, rs, tool, args)
	}
	if !rs.declaresTasks() {
		if tool.Task == TaskRequired {
			return response{err: errTasksNotDeclared()}
		}
		return s.runTool(ctx, rs, tool, args)
	}
	return s.runAsTask(ctx, rs, tool, args)
}

// runAsTask runs the handler and waits until it finishes (the direct
// answer) or the call becomes a task (StartTask, or Options.TaskStartAfter
// passed), whichever comes first.
func (s *Server) runAsTask(ctx context.Context, rs *reqState, tool *ToolDef, args []byte) response {
	s.sweepTasks()
	if s.tasks.len() >= maxTasks {
		return response{err: &Error{Code: CodeInternalError, Message: "too many tasks"}}
	}
	caller, _ := IdentityFrom(ctx)
	now := s.now()
	t := &task{
		srv:     s,
		id:      newTaskID(),
		owner:   caller.Subject,
		created: now,
		updated: now,
		ttl:     s.opts.TaskTTL,
		status:  taskWorking,
		decided: make(chan struct{}),
	}
	// The handler outlives the request once the call is a task: its
	// context keeps the request's values but not its cancellation.
	hctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	t.cancel = cancel
	hctx = withTask(hctx, t)
	// The request's buffers are reused once it is answered.
	args = bytes.Clone(args)
	go func() {
		defer cancel()
		var r response
		func() {
			defer func() {
				if p := recover(); p != nil {
					r = s.taskPanicked(rs, t, p)
				}
			}()
			r = s.runTool(hctx, rs, tool, args)
		}()
		s.finishTask(t, r)
	}()

	timer := time.NewTimer(s.opts.TaskStartAfter)
	defer timer.Stop()
	select {
	case <-t.decided:
	case <-timer.C:
	case <-ctx.Done():
		t.mu.Lock()
		decided := t.started || t.direct != nil
		if !decided {
			t.pinned = true // the client is gone: nothing to answer
		}
		t.mu.Unlock()
		if !decided {
			cancel()
			return response{err: &Error{Code: CodeInternalError, Message: "request cancelled"}}
		}
	}
	t.mu.Lock()
	if t.started || t.startLocked() {
		// Stored before the CreateTaskResult is sent, so that a tasks/get
		// right after it finds the task.
		s.tasks.put(t)
		b := s.appendTask(s.beginResult(make([]byte, 0, 256), "task"), t, false)
		t.mu.Unlock()
		return response{result: s.finishResult(b, nil, nil)}
	}
	t.mu.Unlock()
	// The call finished, or asked for an MRTR round, before becoming a
	// task: wait for its direct answer.
	<-t.decided
	cancel()
	return *t.direct
}

// taskPanicked logs a handler panic of a task-capable call. Before the call
// became a task it is answered as any panic; in a task it is a protocol
// error, so the task fails.
func (s *Server) taskPanicked(rs *reqState, t *task, p any) response {
	r := s.panicked(rs, p)
	if t.isStarted() {
		return response{err: errInternal()}
	}
	return r
}

// appendTask appends the members of a Task (and, with detail, of a
// DetailedTask: result, error or inputRequests); t.mu is held.
func (s *Server) appendTask(r resultBuilder, t *task, detail bool) resultBuilder {
	r.key("taskId")
	r.b = wire.AppendString(r.b, t.id)
	r.key("status")
	r.b = wire.AppendString(r.b, t.status)
	r.key("createdAt")
	r.b = appendTime(r.b, t.created)
	r.key("lastUpdatedAt")
	r.b = appendTime(r.b, t.updated)
	r.key("ttlMs")
	r.b = strconv.AppendInt(r.b, t.ttl.Milliseconds(), 10)
	r.key("pollIntervalMs")
	r.b = strconv.AppendInt(r.b, max(s.opts.TaskPollInterval.Milliseconds(), 1), 10)
	if !detail {
		return r
	}
	switch t.status {
	case taskCompleted:
		r.key("result")
		r.b = append(r.b, t.result...)
	case taskFailed:
		r.key("error")
		r.b = appendError(r.b, t.err)
	case taskInputRequired:
		r.key("inputRequests")
		r.b = append(r.b, '{')
		for i, k := range t.asks {
			if i > 0 {
				r.b = append(r.b, ',')
			}
			ir := t.waiting[k].req
			r.b = wire.AppendString(r.b, k)
			r.b = append(r.b, `:{"method":`...)
			r.b = wire.AppendString(r.b, ir.method)
			r.b = append(r.b, `,"params":`...)
			r.b = append(r.b, ir.params...)
			r.b = append(r.b, '}')
		}
		r.b = append(r.b, '}')
	}
	return r
}

func appendTime(b []byte, t time.Time) []byte {
	b = append(b, '"')
	b = t.UTC().AppendFormat(b, "2006-01-02T15:04:05.000Z")
	return append(b, '"')
}

// tasksCall serves tasks/get, tasks/update and tasks/cancel.
func (s *Server) tasksCall(ctx context.Context, rs *reqState, params json.RawMessage) response {
	if !rs.declaresTasks() {
		return response{err: errTasksNotDeclared()}
	}
	var p struct {
		TaskID         *string                    `json:"taskId"`
		InputResponses map[string]json.RawMessage `json:"inputResponses"`
	}
	if e := decodeParams(params, &p); e != nil {
		return response{err: e}
	}
	if p.TaskID == nil {
		return response{err: InvalidParams("missing params.taskId")}
	}
	t, e := s.lookupTask(ctx, *p.TaskID)
	if e != nil {
		return response{err: e}
	}
	switch rs.method {
	case methodTasksGet:
		t.mu.Lock()
		r := s.appendTask(s.beginResult(make([]byte, 0, 256+len(t.result)), "complete"), t, true)
		t.mu.Unlock()
		return response{result: s.finishResult(r, nil, nil)}
	case methodTasksUpdate:
		s.answerTask(t, p.InputResponses)
	case methodTasksCancel:
		s.cancelTask(t)
	}
	// Both are acknowledged with an empty result: the task's state is
	// what the next tasks/get reports.
	return response{result: s.finishResult(s.beginResult(make([]byte, 0, 64), "complete"), nil, nil)}
}

// taskIDTarget returns params.taskId of a tasks/* request, which the HTTP
// Mcp-Name header mirrors.
func taskIDTarget(params json.RawMessage) (id string, ok bool) {
	var p struct {
		TaskID *string `json:"taskId"`
	}
	if json.Unmarshal(params, &p) != nil || p.TaskID == nil {
		return "", false
	}
	return *p.TaskID, true
}

// notifyTaskStatus tells the listeners of t's creator that declared the
// tasks extension that its status changed (on every replica, with
// Options.Broker): notifications/tasks with the task's members.
func (s *Server) notifyTaskStatus(t *task) {
	t.mu.Lock()
	r := s.appendTask(resultBuilder{b: make([]byte, 0, 192)}, t, false)
	t.mu.Unlock()
	// The owner travels with the members so that every replica can pick
	// the listeners it belongs to.
	s.notify("task", t.owner+"\n"+string(r.b))
}

// notifyTaskLocal delivers a task status change (payload: owner, newline,
// the task's members) to this replica's listeners.
func (s *Server) notifyTaskLocal(payload string) {
	owner, members, ok := strings.Cut(payload, "\n")
	if !ok {
		return
	}
	s.fanOut("notifications/tasks", func(l *listener) bool { return l.tasks && l.subject == owner }, func(b []byte) []byte {
		return append(b, members...)
	})
}
