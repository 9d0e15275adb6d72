package runtime

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Defaults of HTTPOptions.
const (
	defaultMaxBodyBytes    = 4 << 20
	defaultMaxConcurrent   = 256
	defaultKeepAlive       = 15 * time.Second
	defaultBodyReadTimeout = 30 * time.Second
	defaultWriteTimeout    = 30 * time.Second
)

// HTTPOptions configure the Streamable HTTP handler returned by
// Server.Handler. The zero value is safe for a server on loopback: no
// browser origin is accepted, only loopback Host names are, and there is
// no authorization.
type HTTPOptions struct {
	// MaxBodyBytes caps a request body (default 4 MiB); larger bodies are
	// answered 413.
	MaxBodyBytes int64
	// MaxConcurrent caps the requests handled at once (default 256). Over
	// it, requests are answered 503 with Retry-After. Open
	// subscriptions/listen streams do not count: the Server bounds them
	// separately.
	MaxConcurrent int
	// AllowedOrigins lists the browser origins ("https://app.example.com",
	// scheme://host[:port], compared case-insensitively) allowed to call the
	// endpoint. A request with any other Origin header is answered 403, which
	// stops web pages from driving a local server. Requests without an
	// Origin header (non-browser clients) are accepted. Allowed origins also
	// get CORS preflight answers.
	AllowedOrigins []string
	// AllowedHosts lists the Host header values accepted, against DNS
	// rebinding. An entry "name" accepts any port, "name:port" only that
	// port; "*" disables the check (for a server behind a proxy that checks
	// Host itself). The default accepts localhost, 127.0.0.1 and [::1] on
	// any port, which is right for a server bound to loopback; a server
	// reachable under another name must list it.
	AllowedHosts []string
	// Auth, when set, requires an OAuth bearer token on every request and
	// enforces ToolDef.Scopes.
	Auth *AuthOptions
	// KeepAlive is the interval of the comment lines sent on idle
	// subscriptions/listen streams so that proxies keep them open
	// (default 15s).
	KeepAlive time.Duration
	// BodyReadTimeout bounds reading one request body (default 30s), so a
	// client trickling its body cannot hold a slot forever.
	BodyReadTimeout time.Duration
	// WriteTimeout bounds each write to the client: the response, or one
	// event of a stream (default 30s). A stream may last longer as a whole.
	WriteTimeout time.Duration
	// Shutdown, when closed, ends open subscriptions/listen streams with
	// their result. ListenAndServe and Serve signal it through the request
	// context; set it when mounting the handler on an http.Server of your
	// own and close it before calling its Shutdown.
	Shutdown <-chan struct{}
	// Logger receives transport logs; nil uses Options.Logger.
	Logger *slog.Logger
	// SessionIdleTimeout is how long a 2025-11-25 session (started by
	// initialize) may stay idle, with no request in flight and no GET
	// stream open, before it is removed (default 10 minutes).
	SessionIdleTimeout time.Duration
	// MaxSessions caps the 2025-11-25 sessions held at once (default 1000);
	// an initialize over the cap is answered 503.
	MaxSessions int
}

// httpHandler is the Streamable HTTP endpoint of one Server.
type httpHandler struct {
	srv    *Server
	opts   HTTPOptions
	logger *slog.Logger
	sem    chan struct{}
	hosts  []string
	legacy *legacySessions // 2025-11-25 sessions (legacy_http.go)
}

// Handler returns the Streamable HTTP (MCP 2026-07-28) endpoint of s: one
// POST per JSON-RPC message, answered with application/json, or with a
// text/event-stream when the request sends progress before its result;
// subscriptions/listen is always a stream. Mount it on the path of your
// choice (Mount also serves the OAuth protected-resource metadata).
//
// Every request is validated before it reaches a handler: Host and Origin,
// bearer token (when Auth is set), Content-Type, size, JSON-RPC shape, the
// MCP-Protocol-Version, Mcp-Method, Mcp-Name and Mcp-Param-* headers against
// the body, the _meta envelope and the tool's scopes. Closing the response
// stream cancels the request's context.
//
// A 2025-11-25 client (an initialize without a modern _meta claim) gets a
// session instead (legacy_http.go): Mcp-Session-Id, a GET event stream and
// DELETE, bounded by SessionIdleTimeout and MaxSessions.
func (s *Server) Handler(opts HTTPOptions) http.Handler {
	if opts.MaxBodyBytes <= 0 {
		opts.MaxBodyBytes = defaultMaxBodyBytes
	}
	if opts.MaxConcurrent <= 0 {
		opts.MaxConcurrent = defaultMaxConcurrent
	}
	if opts.KeepAlive <= 0 {
		opts.KeepAlive = defaultKeepAlive
	}
	if opts.BodyReadTimeout <= 0 {
		opts.BodyReadTimeout = defaultBodyReadTimeout
	}
	if opts.WriteTimeout <= 0 {
		opts.WriteTimeout = defaultWriteTimeout
	}
	h := &httpHandler{
		srv:    s,
		opts:   opts,
		logger: opts.Logger,
		sem:    make(chan struct{}, opts.MaxConcurrent),
		hosts:  opts.AllowedHosts,
	}
	if h.logger == nil {
		h.logger = s.logger
	}
	if len(h.hosts) == 0 {
		h.hosts = []string{"localhost", "127.0.0.1", "[::1]"}
	}
	h.legacy = newLegacySessions(h)
	return h
}

// httpError is a rejection before dispatch: an HTTP status and the
// JSON-RPC error of its body.
type httpError struct {
	status int
	err    *Error
	// header is added to the response (WWW-Authenticate, Allow, Retry-After).
	header http.Header
}

func reject(status, code int, format string, args ...any) *httpError {
	return &httpError{status: status, err: &Error{Code: code, Message: fmt.Sprintf(format, args...)}}
}

// codeTransport is the implementation-defined code TS and the Go SDK put in
// bodies of HTTP-level rejections (403, 405, 413, 415, 503).
const codeTransport = -32000

func (h *httpHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	// Rejections are bounded like responses: a client that stops reading
	// cannot hold the connection.
	http.NewResponseController(w).SetWriteDeadline(time.Now().Add(h.opts.WriteTimeout))
	if e := h.checkHostOrigin(r); e != nil {
		h.writeReject(w, nil, e)
		return
	}
	if origin := r.Header.Get("Origin"); origin != "" {
		w.Header().Set("Access-Control-Allow-Origin", origin)
		w.Header().Add("Vary", "Origin")
		w.Header().Set("Access-Control-Expose-Headers", "WWW-Authenticate, Mcp-Session-Id")
		if r.Method == http.MethodOptions {
			h.preflight(w, r)
			return
		}
	}
	if r.Method != http.MethodPost {
		if h.serveLegacyNonPost(w, r) {
			return
		}
		e := reject(http.StatusMethodNotAllowed, codeTransport, "Method not allowed: this endpoint accepts POST only")
		e.header = http.Header{"Allow": {"POST"}}
		h.writeReject(w, nil, e)
		return
	}
	select {
	case h.sem <- struct{}{}:
	default:
		e := reject(http.StatusServiceUnavailable, codeTransport,
			"Server busy: %d requests already in progress; retry later", h.opts.MaxConcurrent)
		e.header = http.Header{"Retry-After": {"1"}}
		h.writeReject(w, nil, e)
		return
	}
	held := true
	release := func() {
		if held {
			held = false
			<-h.sem
		}
	}
	defer release()

	ctx := r.Context()
	if h.opts.Auth != nil {
		id, e := h.opts.Auth.authenticate(r)
		if e != nil {
			h.writeReject(w, nil, e)
			return
		}
		ctx = withScopeEnforcement(WithIdentity(ctx, id))
	}
	if e := checkContentType(r); e != nil {
		h.writeReject(w, nil, e)
		return
	}
	body, e := h.readBody(w, r)
	if e != nil {
		h.writeReject(w, nil, e)
		return
	}
	req, kind, id, rpcErr := parseMessage(body)
	if rpcErr != nil {
		h.writeReject(w, id, &httpError{status: http.StatusBadRequest, err: rpcErr})
		return
	}
	// One walk over params serves the era check here and every envelope
	// and header check in validate.
	var scan paramScan
	if kind != kindResponse {
		scan = scanParams(req.Params)
	}
	if isLegacyPost(r, req, kind, &scan) {
		h.serveLegacyPost(ctx, w, r, req, kind, body)
		return
	}
	switch kind {
	case kindResponse:
		h.writeReject(w, id, reject(http.StatusBadRequest, CodeInvalidRequest,
			"Invalid request: this server sends no requests, so it accepts no responses"))
		return
	case kindNotification:
		// Cancellation over HTTP is closing the stream; other client
		// notifications carry nothing this server acts on. Only headers
		// that are present are cross-checked.
		if m := r.Header.Get("Mcp-Method"); m != "" && m != req.Method {
			h.writeReject(w, nil, mismatch("Mcp-Method", m, req.Method))
			return
		}
		w.WriteHeader(http.StatusAccepted)
		return
	}

	meta, e := h.validate(ctx, r, req, &scan)
	if e != nil {
		h.writeReject(w, req.ID, e)
		return
	}
	if req.Method == methodListen {
		// A stream lasts as long as the client wants: it is bounded by the
		// Server's listener cap, not by a request slot.
		release()
	}
	h.serve(ctx, w, req, meta, &scan)
}

// readBody reads the whole body within MaxBodyBytes and BodyReadTimeout.
func (h *httpHandler) readBody(w http.ResponseWriter, r *http.Request) ([]byte, *httpError) {
	limit := h.opts.MaxBodyBytes
	tooLarge := func() *httpError {
		return reject(http.StatusRequestEntityTooLarge, codeTransport, "Request body exceeds %d bytes", limit)
	}
	if r.ContentLength > limit {
		return nil, tooLarge()
	}
	rc := http.NewResponseController(w)
	rc.SetReadDeadline(time.Now().Add(h.opts.BodyReadTimeout))
	n := r.ContentLength
	if n < 0 || n > 64<<10 {
		n = 512
	}
	buf := make([]byte, 0, n+1)
	lr := io.LimitReader(r.Body, limit+1)
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		m, err := lr.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+m]
		if int64(len(buf)) > limit {
			return nil, tooLarge()
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			var ne interface{ Timeout() bool }
			if errors.As(err, &ne) && ne.Timeout() {
				return nil, reject(http.StatusRequestTimeout, codeTransport, "Timed out reading the request body")
			}
			return nil, reject(http.StatusBadRequest, codeTransport, "Cannot read the request body")
		}
	}
	// From here the connection is only watched for the client going away
	// (which cancels the request); a read deadline would cancel it too.
	rc.SetReadDeadline(time.Time{})
	return buf, nil
}

func checkContentType(r *http.Request) *httpError {
	ct := r.Header.Get("Content-Type")
	mt, _, err := mime.ParseMediaType(ct)
	if ct == "" || err != nil || mt != "application/json" {
		return reject(http.StatusUnsupportedMediaType, codeTransport,
			"Unsupported Content-Type %q: use application/json", ct)
	}
	return nil
}

// validate applies the header and envelope rules of the Streamable HTTP
// transport to a request, before it is dispatched. It returns the parsed
// _meta, so that dispatch does not parse the envelope a second time. scan
// is req.Params scanned: the checks below share that one walk.
func (h *httpHandler) validate(ctx context.Context, r *http.Request, req *request, scan *paramScan) (*RequestMeta, *httpError) {
	if req.Method == "initialize" && r.Header.Get("MCP-Protocol-Version") == "" {
		// A 2025 client starting a session: tell it what we speak, so a
		// dual-era client stays modern and a legacy one stops cleanly.
		return nil, &httpError{status: http.StatusBadRequest, err: errUnsupportedVersion(legacyRequestedVersion(req.Params))}
	}
	hv := r.Header.Get("MCP-Protocol-Version")
	if hv == "" {
		return nil, reject(http.StatusBadRequest, CodeHeaderMismatch, "Header mismatch: missing MCP-Protocol-Version header")
	}
	if claim, ok := scan.claimed(); ok && claim != hv {
		return nil, mismatch("MCP-Protocol-Version", hv, claim)
	}
	// Missing _meta keys are -32602, an unsupported version -32022: both
	// are 400 over HTTP.
	meta, rpcErr := scan.envelope()
	if rpcErr != nil {
		return nil, &httpError{status: http.StatusBadRequest, err: rpcErr}
	}
	mm, ok := r.Header["Mcp-Method"]
	if !ok {
		return nil, reject(http.StatusBadRequest, CodeHeaderMismatch, "Header mismatch: missing Mcp-Method header")
	}
	if len(mm) != 1 || mm[0] != req.Method {
		return nil, mismatch("Mcp-Method", strings.Join(mm, ","), req.Method)
	}
	var target headerTarget
	switch req.Method {
	case methodToolsCall, methodPromptsGet, methodResourcesRead:
		var e *httpError
		if target, e = scan.headerTarget(); e != nil {
			return nil, e
		}
		body, has := target.Name, target.HasName
		if req.Method == methodResourcesRead {
			body, has = target.URI, target.HasURI
		}
		if e := checkNameHeader(r.Header, body, has); e != nil {
			return nil, e
		}
	case methodTasksGet, methodTasksUpdate, methodTasksCancel:
		// SEP-2663: Mcp-Name mirrors params.taskId.
		id, has := taskIDTarget(req.Params)
		if e := checkNameHeader(r.Header, id, has); e != nil {
			return nil, e
		}
	}
	if e := h.srv.checkMethod(req.Method); e != nil {
		return nil, &httpError{status: http.StatusNotFound, err: e}
	}
	if req.Method == methodToolsCall && target.HasName {
		if tool, ok := h.srv.lookupTool(target.Name); ok {
			if h.opts.Auth != nil {
				if e := h.opts.Auth.checkScopes(ctx, r, tool.Scopes); e != nil {
					return nil, e
				}
			}
			if e := checkParamHeaders(r.Header, tool.ParamHeaders, target.Arguments); e != nil {
				return nil, e
			}
		}
	}
	return meta, nil
}

func mismatch(header, got, body string) *httpError {
	return reject(http.StatusBadRequest, CodeHeaderMismatch,
		"Header mismatch: %s header value %q does not match body value %q", header, got, body)
}

// statusOf maps a dispatched request's JSON-RPC error to the HTTP status of
// a JSON response: protocol-level failures are HTTP errors, everything else
// (invalid arguments, handler errors) is answered in-band with 200.
func statusOf(e *Error) int {
	if e == nil {
		return http.StatusOK
	}
	switch e.Code {
	case CodeMethodNotFound:
		return http.StatusNotFound
	case CodeHeaderMismatch, CodeMissingRequiredClientCapability, CodeUnsupportedProtocolVersion:
		return http.StatusBadRequest
	}
	return http.StatusOK
}

// serve dispatches a validated request and writes its answer: JSON, or an
// event stream once the request has sent a notification.
// meta is the envelope validate parsed: the request is dispatched with it
// directly (the method was checked there too).
// scan is the walk over params that validate checked, which dispatch
// reuses as well.
func (h *httpHandler) serve(ctx context.Context, w http.ResponseWriter, req *request, meta *RequestMeta, scan *paramScan) {
	if shutdownFrom(ctx) == nil && h.opts.Shutdown != nil {
		ctx = withShutdown(ctx, h.opts.Shutdown)
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	x := &exchange{w: w, rc: http.NewResponseController(w), ctx: ctx, cancel: cancel, writeTimeout: h.opts.WriteTimeout}

	rs := &reqState{method: req.Method, id: req.ID, meta: meta, out: x}
	rs.useScan(scan)
	if h.opts.Auth != nil && req.Method == methodToolsList {
		id, _ := IdentityFrom(ctx)
		ctx = withListScopes(ctx, id.Scopes)
	}
	dispatch := func() response {
		return h.srv.call(ctx, rs, req.Params)
	}
	var resp response
	if req.Method == methodListen {
		// Open the stream at once: the acknowledgement follows immediately
		// and keep-alives must be able to flow before any notification.
		x.mu.Lock()
		x.startStream()
		x.mu.Unlock()
		stop := make(chan struct{})
		var wg sync.WaitGroup
		wg.Go(func() { x.keepAlive(h.opts.KeepAlive, stop) })
		resp = dispatch()
		close(stop)
		wg.Wait()
	} else {
		resp = dispatch()
	}
	x.respond(req.ID, resp)
}

// exchange is the response side of one HTTP request. It implements
// notifier: the first notification turns the response into an event
// stream. Its mutex orders every write, and once the client is gone (or
// the final response is written) nothing more is written.
type exchange struct {
	w            http.ResponseWriter
	rc           *http.ResponseController
	ctx          context.Context
	cancel       context.CancelCauseFunc
	writeTimeout time.Duration

	mu     sync.Mutex
	stream bool
	// over is set when nothing more may be written: the response was
	// sent, or a write failed.
	over bool
	buf  []byte
}

var errStreamClosed = errors.New("response stream closed")

// startStream sends the headers of an event stream; x.mu is held.
func (x *exchange) startStream() {
	if x.stream {
		return
	}
	x.stream = true
	hd := x.w.Header()
	hd.Set("Content-Type", "text/event-stream")
	hd.Set("Cache-Control", "no-cache")
	hd.Set("X-Accel-Buffering", "no")
	x.w.WriteHeader(http.StatusOK)
	x.flushLocked()
}

// gone reports whether nothing may be written any more; x.mu is held.
func (x *exchange) gone() bool {
	if !x.over && x.ctx.Err() != nil {
		// The client closed the stream (or the request was otherwise
		// cancelled): that is the request's cancellation.
		x.over = true
	}
	return x.over
}

func (x *exchange) notify(method string, params []byte) error {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.gone() {
		return errStreamClosed
	}
	x.startStream()
	x.buf = append(x.buf[:0], "event: message\ndata: "...)
	x.buf = appendNotification(x.buf, method, params)
	x.buf = append(x.buf, '\n', '\n')
	return x.writeLocked()
}

// keepAlive writes a comment line every interval until stop closes.
func (x *exchange) keepAlive(interval time.Duration, stop <-chan struct{}) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
			x.mu.Lock()
			if !x.gone() {
				x.buf = append(x.buf[:0], ": keep-alive\n\n"...)
				x.writeLocked()
			}
			x.mu.Unlock()
		}
	}
}

// respond writes the final response, unless the client is gone: a
// cancelled request gets no response.
func (x *exchange) respond(id []byte, resp response) {
	x.respondWith(id, resp, statusOf(resp.err))
}

// respondWith is respond with the HTTP status of a JSON (not SSE) answer
// chosen by the caller.
func (x *exchange) respondWith(id []byte, resp response, status int) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.gone() {
		return
	}
	if x.stream {
		x.buf = append(x.buf[:0], "event: message\ndata: "...)
		x.buf = appendResponse(x.buf, id, resp.result, resp.err)
		x.buf = append(x.buf, '\n', '\n')
		x.writeLocked()
	} else {
		x.buf = appendResponse(x.buf[:0], id, resp.result, resp.err)
		hd := x.w.Header()
		hd.Set("Content-Type", "application/json")
		hd.Set("Content-Length", strconv.Itoa(len(x.buf)))
		x.w.WriteHeader(status)
		x.writeLocked()
	}
	x.over = true
}

// writeLocked writes x.buf within the write timeout and flushes it; a
// failure ends the exchange and cancels the request. x.mu is held.
func (x *exchange) writeLocked() error {
	x.rc.SetWriteDeadline(time.Now().Add(x.writeTimeout))
	if _, err := x.w.Write(x.buf); err != nil {
		x.over = true
		x.cancel(errStreamClosed)
		return err
	}
	if x.stream {
		return x.flushLocked()
	}
	return nil
}

func (x *exchange) flushLocked() error {
	if err := x.rc.Flush(); err != nil && !errors.Is(err, http.ErrNotSupported) {
		x.over = true
		x.cancel(errStreamClosed)
		return err
	}
	return nil
}

// writeReject answers a request rejected before dispatch.
func (h *httpHandler) writeReject(w http.ResponseWriter, id []byte, e *httpError) {
	for k, v := range e.header {
		w.Header()[k] = v
	}
	b := appendResponse(make([]byte, 0, 128), id, nil, e.err)
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(e.status)
	w.Write(b)
	h.logger.Debug("http: rejected request", "status", e.status, "code", e.err.Code, "error", e.err.Message)
}

// checkHostOrigin rejects requests for a Host not served (DNS rebinding)
// and browser requests from origins not allowed.
func (h *httpHandler) checkHostOrigin(r *http.Request) *httpError {
	if !hostAllowed(h.hosts, r.Host) {
		return reject(http.StatusForbidden, codeTransport, "Forbidden: Host %q is not served here", r.Host)
	}
	if origin := r.Header.Get("Origin"); origin != "" && !originAllowed(h.opts.AllowedOrigins, origin) {
		return reject(http.StatusForbidden, codeTransport, "Forbidden: Origin %q is not allowed", origin)
	}
	return nil
}

func hostAllowed(allowed []string, host string) bool {
	name := host
	if i := strings.LastIndexByte(host, ':'); i >= 0 && !strings.HasSuffix(host, "]") {
		name = host[:i]
	}
	for _, a := range allowed {
		if a == "*" || strings.EqualFold(a, host) || strings.EqualFold(a, name) {
			return true
		}
	}
	return false
}

func originAllowed(allowed []string, origin string) bool {
	for _, a := range allowed {
		if strings.EqualFold(strings.TrimSuffix(a, "/"), origin) {
			return true
		}
	}
	return false
}

// preflight answers a CORS preflight of an allowed origin.
func (h *httpHandler) preflight(w http.ResponseWriter, r *http.Request) {
	hd := w.Header()
	hd.Set("Access-Control-Allow-Methods", "POST, GET, DELETE")
	if req := r.Header.Get("Access-Control-Request-Headers"); req != "" {
		// Mcp-Param-* names depend on the tool: echo what is asked.
		hd.Set("Access-Control-Allow-Headers", req)
	}
	hd.Set("Access-Control-Max-Age", "600")
	w.WriteHeader(http.StatusNoContent)
}
