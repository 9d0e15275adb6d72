package runtime

// 2025-era sessions over Streamable HTTP. A POST without a modern _meta
// claim that is an initialize starts a session (Mcp-Session-Id in the
// response); later POSTs name it in the Mcp-Session-Id header, a GET opens
// its server-to-client event stream and a DELETE ends it. A POST with a
// modern claim never reaches this file: it is served statelessly.
//
// Sessions are bounded: at most MaxSessions exist at once (an initialize
// over the cap is answered 503 with a JSON-RPC error saying so), and one
// idle for SessionIdleTimeout (no request in flight, no GET stream open)
// is removed by its own timer, so an abandoned session costs nothing after
// that. Session ids are 128 random bits; a session created by an
// authenticated caller answers only that caller (others get 404, as for
// an unknown id).

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Defaults of the HTTPOptions session fields.
const (
	defaultSessionIdleTimeout = 10 * time.Minute
	defaultMaxSessions        = 1000
)

// legacySessions is the session table of one HTTP handler.
type legacySessions struct {
	h    *httpHandler
	idle time.Duration
	max  int

	// shared connects the table to the other replicas; nil without a
	// broker (legacy_replicas.go).
	shared *sharedSessions

	mu sync.Mutex
	m  map[string]*httpSession
}

// httpSession is one legacy session over HTTP.
type httpSession struct {
	id      string
	ls      *legacySession
	subject string
	cancel  context.CancelFunc

	mu       sync.Mutex
	active   int       // requests in flight plus an open GET stream
	lastUsed time.Time // when active last dropped to zero
	stream   bool      // a GET stream is open
	timer    *time.Timer
	inflight map[string]context.CancelCauseFunc
	gone     bool
}

func newLegacySessions(h *httpHandler) *legacySessions {
	idle := h.opts.SessionIdleTimeout
	if idle <= 0 {
		idle = defaultSessionIdleTimeout
	}
	n := h.opts.MaxSessions
	if n <= 0 {
		n = defaultMaxSessions
	}
	t := &legacySessions{h: h, idle: idle, max: n, m: map[string]*httpSession{}}
	if r := h.srv.repl; r != nil {
		t.startShared(r)
	}
	return t
}

// count is the number of live sessions.
func (t *legacySessions) count() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.m)
}

// isLegacyPost reports whether a parsed POST belongs to the 2025 era: it
// names a session, or it is an initialize; and it carries no modern claim.
// scan is req.Params scanned (unused for a response).
func isLegacyPost(r *http.Request, req *request, kind messageKind, scan *paramScan) bool {
	if kind != kindResponse {
		if _, claim := scan.claimed(); claim {
			return false
		}
	}
	if r.Header.Get("Mcp-Session-Id") != "" {
		return true
	}
	return kind == kindRequest && req.Method == "initialize"
}

// serveLegacyPost serves one POST of the 2025 era. ctx carries the caller's
// identity when Auth is set.
func (h *httpHandler) serveLegacyPost(ctx context.Context, w http.ResponseWriter, r *http.Request, req *request, kind messageKind, body []byte) {
	t := h.legacy
	if kind == kindRequest && req.Method == "initialize" {
		t.initialize(ctx, w, req)
		return
	}
	hs := t.lookup(ctx, r.Header.Get("Mcp-Session-Id"))
	if hs == nil {
		h.writeReject(w, idOf(req, kind), sessionNotFound())
		return
	}
	if v := r.Header.Get("MCP-Protocol-Version"); v != "" && v != hs.ls.version {
		h.writeReject(w, idOf(req, kind), reject(http.StatusBadRequest, CodeInvalidRequest,
			"Bad request: MCP-Protocol-Version %q is not the session's version %q", v, hs.ls.version))
		return
	}
	switch kind {
	case kindResponse:
		if !hs.ls.deliver(body) {
			if t.shared != nil {
				// Another replica may be waiting for it.
				t.publishControl(sessionControl{Op: "reply", Session: hs.id, Msg: body})
			} else {
				h.logger.Debug("http: response to no pending request", "session", hs.id)
			}
		}
		w.WriteHeader(http.StatusAccepted)
		return
	case kindNotification:
		if req.Method == notificationCancelled {
			if rid, ok := parseCancelled(req.Params); ok && !hs.cancelRequest(rid) && t.shared != nil {
				// The request may run on another replica.
				t.publishControl(sessionControl{Op: "cancel", Session: hs.id, ID: rid})
			}
		}
		w.WriteHeader(http.StatusAccepted)
		return
	}

	if req.Method == methodToolsCall && h.opts.Auth != nil {
		if name, ok := requestName(req.Method, req.Params); ok {
			if tool, ok := h.srv.lookupTool(name); ok {
				if e := h.opts.Auth.checkScopes(ctx, r, tool.Scopes); e != nil {
					h.writeReject(w, req.ID, e)
					return
				}
			}
		}
	}
	if !hs.begin() {
		h.writeReject(w, req.ID, sessionNotFound())
		return
	}
	defer t.end(hs)
	if shutdownFrom(ctx) == nil && h.opts.Shutdown != nil {
		ctx = withShutdown(ctx, h.opts.Shutdown)
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	key := string(req.ID)
	hs.mu.Lock()
	if _, dup := hs.inflight[key]; dup {
		hs.mu.Unlock()
		h.writeReject(w, req.ID, reject(http.StatusBadRequest, CodeInvalidRequest, "Invalid request: id is already in use by a request in flight"))
		return
	}
	hs.inflight[key] = cancel
	hs.mu.Unlock()
	defer func() {
		hs.mu.Lock()
		delete(hs.inflight, key)
		hs.mu.Unlock()
	}()
	// Ending the session ends its requests.
	stop := context.AfterFunc(hs.ls.ctx, func() { cancel(errSessionEnded) })
	defer stop()

	x := &exchange{w: w, rc: http.NewResponseController(w), ctx: ctx, cancel: cancel, writeTimeout: h.opts.WriteTimeout}
	lc := legacyCall{out: x, send: x}
	if h.opts.Auth != nil {
		id, _ := IdentityFrom(ctx)
		lc.scopes = id.Scopes
		if lc.scopes == nil {
			lc.scopes = []string{}
		}
	}
	resp := hs.ls.serve(ctx, req, lc)
	x.respondLegacy(req.ID, resp)
}

func idOf(req *request, kind messageKind) []byte {
	if kind == kindRequest {
		return req.ID
	}
	return nil
}

// errSessionEnded cancels what a deleted or expired session had running.
var errSessionEnded = errors.New("session ended")

func sessionNotFound() *httpError {
	return reject(http.StatusNotFound, codeTransport, "Session not found: it expired, was deleted or never existed; send initialize to start a new one")
}

// initialize starts a session, within the cap.
func (t *legacySessions) initialize(ctx context.Context, w http.ResponseWriter, req *request) {
	h := t.h
	sctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	if h.opts.Shutdown != nil {
		sctx = withShutdown(sctx, h.opts.Shutdown)
	}
	ls, result, rpcErr := h.srv.newLegacySession(sctx, req.Params)
	if rpcErr != nil {
		cancel()
		h.writeReject(w, req.ID, &httpError{status: http.StatusBadRequest, err: rpcErr})
		return
	}
	hs := &httpSession{ls: ls, cancel: cancel, inflight: map[string]context.CancelCauseFunc{}}
	if id, ok := IdentityFrom(ctx); ok {
		hs.subject = id.Subject
	}
	hs.id = t.newSessionID(ls, hs.subject)
	ls.sessionID = hs.id
	t.share(hs)
	t.mu.Lock()
	if len(t.m) >= t.max {
		t.mu.Unlock()
		cancel()
		e := reject(http.StatusServiceUnavailable, codeTransport,
			"Too many sessions: this server holds at most %d 2025-11-25 sessions at once; retry later, or end unused sessions with DELETE", t.max)
		e.header = http.Header{"Retry-After": {"5"}}
		h.writeReject(w, req.ID, e)
		return
	}
	t.m[hs.id] = hs
	hs.lastUsed = time.Now()
	hs.timer = time.AfterFunc(t.idle, func() { t.expire(hs) })
	t.mu.Unlock()
	ls.observe("http")

	b := appendResponse(make([]byte, 0, 64+len(result)), req.ID, result, nil)
	hd := w.Header()
	hd.Set("Mcp-Session-Id", hs.id)
	hd.Set("Content-Type", "application/json")
	hd.Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(http.StatusOK)
	w.Write(b)
}

// lookup returns the live session id for the caller in ctx, or nil.
func (t *legacySessions) lookup(ctx context.Context, id string) *httpSession {
	t.mu.Lock()
	hs := t.m[id]
	t.mu.Unlock()
	if hs == nil {
		return t.restore(ctx, id)
	}
	if caller, _ := IdentityFrom(ctx); caller.Subject != hs.subject {
		return nil
	}
	return hs
}

// begin marks the session busy; false when it ended meanwhile.
func (hs *httpSession) begin() bool {
	hs.mu.Lock()
	defer hs.mu.Unlock()
	if hs.gone {
		return false
	}
	hs.active++
	return true
}

// end marks one activity over; the idle clock starts when none is left.
func (t *legacySessions) end(hs *httpSession) {
	hs.mu.Lock()
	defer hs.mu.Unlock()
	hs.active--
	if hs.active == 0 {
		hs.lastUsed = time.Now()
	}
}

// expire runs from the session's timer: it removes the session if it has
// been idle long enough, or re-arms the timer for the rest.
func (t *legacySessions) expire(hs *httpSession) {
	hs.mu.Lock()
	if hs.gone {
		hs.mu.Unlock()
		return
	}
	if hs.active > 0 {
		hs.timer.Reset(t.idle)
		hs.mu.Unlock()
		return
	}
	if left := t.idle - time.Since(hs.lastUsed); left > 0 {
		hs.timer.Reset(left)
		hs.mu.Unlock()
		return
	}
	hs.mu.Unlock()
	t.h.logger.Debug("http: idle session expired", "session", hs.id)
	t.remove(hs)
}

// remove ends a session: its requests, stream and subscriptions stop.
func (t *legacySessions) remove(hs *httpSession) {
	t.mu.Lock()
	if t.m[hs.id] == hs {
		delete(t.m, hs.id)
	}
	t.mu.Unlock()
	hs.mu.Lock()
	hs.gone = true
	hs.timer.Stop()
	hs.mu.Unlock()
	hs.cancel()
}

// cancelRequest cancels the request id in flight; false when there is
// none here.
func (hs *httpSession) cancelRequest(id []byte) bool {
	hs.mu.Lock()
	cancel, ok := hs.inflight[string(id)]
	hs.mu.Unlock()
	if ok {
		cancel(errClientCancelled)
	}
	return ok
}

// serveLegacyNonPost serves GET (the session's event stream) and DELETE
// (end the session) for requests naming a session; it reports false for
// anything else, which the caller answers 405.
func (h *httpHandler) serveLegacyNonPost(w http.ResponseWriter, r *http.Request) bool {
	sid := r.Header.Get("Mcp-Session-Id")
	if sid == "" || (r.Method != http.MethodGet && r.Method != http.MethodDelete) {
		return false
	}
	ctx := r.Context()
	if h.opts.Auth != nil {
		id, e := h.opts.Auth.authenticate(r)
		if e != nil {
			h.writeReject(w, nil, e)
			return true
		}
		ctx = withScopeEnforcement(WithIdentity(ctx, id))
	}
	t := h.legacy
	hs := t.lookup(ctx, sid)
	if hs == nil {
		h.writeReject(w, nil, sessionNotFound())
		return true
	}
	if r.Method == http.MethodDelete {
		t.remove(hs)
		if t.shared != nil {
			t.endEverywhere(ctx, hs.id)
		}
		w.WriteHeader(http.StatusOK)
		return true
	}
	if !strings.Contains(r.Header.Get("Accept"), "text/event-stream") {
		h.writeReject(w, nil, reject(http.StatusNotAcceptable, codeTransport, "Not acceptable: the session stream is text/event-stream"))
		return true
	}
	hs.mu.Lock()
	if hs.stream || hs.gone {
		busy := hs.stream
		hs.mu.Unlock()
		if busy {
			h.writeReject(w, nil, reject(http.StatusConflict, codeTransport, "Conflict: this session already has an open stream"))
		} else {
			h.writeReject(w, nil, sessionNotFound())
		}
		return true
	}
	hs.stream = true
	hs.active++
	hs.mu.Unlock()
	defer func() {
		hs.mu.Lock()
		hs.stream = false
		hs.mu.Unlock()
		t.end(hs)
	}()

	sctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	stopSession := context.AfterFunc(hs.ls.ctx, func() { cancel(errSessionEnded) })
	defer stopSession()
	x := &exchange{w: w, rc: http.NewResponseController(w), ctx: sctx, cancel: cancel, writeTimeout: h.opts.WriteTimeout}
	hs.ls.setSink(x)
	defer hs.ls.setSink(nil)
	defer t.holdStream(hs, x)()
	// list_changed notifications flow while the stream is open. The
	// registration is in place before the client sees the stream open.
	lctx, stopListen := context.WithCancel(sctx)
	listenDone := make(chan struct{})
	if e := hs.ls.listenDone(lctx, `{"toolsListChanged":true,"promptsListChanged":true,"resourcesListChanged":true}`, listenDone); e != nil {
		h.logger.Warn("http: list_changed notifications unavailable for this session", "error", e.Message)
		close(listenDone)
	}
	defer func() { stopListen(); <-listenDone }()
	x.mu.Lock()
	x.startStream()
	x.mu.Unlock()

	tick := time.NewTicker(h.opts.KeepAlive)
	defer tick.Stop()
	var shutdown <-chan struct{} = h.opts.Shutdown
	if d := shutdownFrom(ctx); d != nil {
		shutdown = d
	}
	for {
		select {
		case <-sctx.Done():
			return true
		case <-shutdown:
			return true
		case <-tick.C:
			x.mu.Lock()
			if !x.gone() {
				x.buf = append(x.buf[:0], ": keep-alive\n\n"...)
				x.writeLocked()
			}
			x.mu.Unlock()
		}
	}
}

// sendMessage implements messageSender on a response stream: the message
// is one SSE event (the response turns into a stream if it was not yet).
func (x *exchange) sendMessage(msg []byte) error {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.gone() {
		return errStreamClosed
	}
	x.startStream()
	x.buf = append(x.buf[:0], "event: message\ndata: "...)
	x.buf = append(x.buf, msg...)
	x.buf = append(x.buf, '\n', '\n')
	return x.writeLocked()
}

// respondLegacy is respond for the 2025 era: JSON-RPC errors are answered
// in-band with 200, since a 404 would tell a 2025 client that its session
// is gone.
func (x *exchange) respondLegacy(id []byte, resp response) {
	x.respondWith(id, resp, http.StatusOK)
}
