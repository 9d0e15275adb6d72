package runtime

// The 2025-11-25 era: clients that start with initialize. A legacySession
// holds what that handshake negotiated (version, client capabilities,
// client info) plus the era's connection state (log level, resource
// subscriptions, server-to-client requests in flight). It lives with the
// transport (a stdio connection, an HTTP session); the dispatcher stays
// stateless and is reached through Server.call with a reqState built from
// the session.
//
// What differs from the modern era, and how it is bridged:
//
//   - Results: no resultType, no ttlMs/cacheScope, no serverInfo _meta
//     (legacyResult strips them from the dispatcher's encoding).
//   - Schemas: 2025-11-25 requires an object-rooted outputSchema and an
//     object structuredContent. The rule here: a tool whose outputSchema
//     root is not {"type":"object"} is listed without outputSchema, and a
//     structuredContent that is not an object is left out of the result;
//     the text block carrying the same JSON stays, so nothing is lost.
//   - Resource not found is -32002 (with data {uri}) instead of -32602.
//   - Elicitation: Elicit sends a real elicitation/create request over the
//     connection, waits for the answer (bounded by legacyElicitTimeout and
//     the request's context) and returns it to the handler, which runs
//     once; an abandoned request is withdrawn with notifications/cancelled.
//   - Sampling and roots: Sample and ListRoots are real
//     sampling/createMessage and roots/list round trips in the same way.
//   - Progress uses params._meta.progressToken, as in the modern era.
//   - Change notifications: list_changed notifications and
//     resources/updated for subscribed URIs reach the session's sink (the
//     stdio connection, or the open GET stream of an HTTP session), through
//     subscriptions/listen registrations made on the session's behalf.

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"
	"unsafe"

	"github.com/mcpgen-dev/mcpgen/runtime/wire"
)

// latestLegacyVersion is the newest revision served through initialize:
// what a client asking for a revision we do not serve is offered.
const latestLegacyVersion = "2025-11-25"

// CodeResourceNotFoundLegacy is the 2025-11-25 resource-not-found code,
// sent instead of -32602 to clients of that era.
const CodeResourceNotFoundLegacy = -32002

// Bounds of a legacy session.
const (
	// legacyElicitTimeout bounds the wait for the client's answer to a
	// server-to-client request (elicitation/create, sampling/createMessage,
	// roots/list): a user may take a while, but a client that never
	// answers must not hold the handler forever.
	legacyElicitTimeout = 10 * time.Minute
	// maxLegacySubscriptions bounds resources/subscribe per session.
	maxLegacySubscriptions = 64
)

// legacyListenID is the subscription id of the listen registrations a
// session makes; it never reaches the client (legacyNotifier strips it).
const legacyListenID = `"legacy-session"`

// messageSender writes one whole JSON-RPC message to the client: the
// transport's side of a server-to-client request.
type messageSender interface {
	sendMessage(msg []byte) error
}

// legacySession is one initialized 2025-era client.
type legacySession struct {
	srv *Server
	// sessionID is the Mcp-Session-Id of an HTTP session (stdio: empty).
	sessionID string
	// endSession, when Options.OnSession asked for it, reports the end.
	endSession func()
	version    string
	capsRaw    json.RawMessage
	caps       clientCaps
	clientInfo *Implementation
	// ctx ends with the session: it bounds the listen registrations.
	ctx           context.Context
	elicitTimeout time.Duration

	mu       sync.Mutex
	logLevel string
	nextID   int64
	pending  map[string]chan legacyReply // server-to-client requests, by raw id
	subs     map[string]*legacySub
	sink     messageSender // where unsolicited messages go; nil drops them
	// remote, with a broker, takes unsolicited messages when sink is nil:
	// another replica may hold the session's stream.
	remote messageSender
	// onChange, with a broker, publishes a change of the session's state
	// (op "level", "sub" or "unsub") to the other replicas.
	onChange func(op, arg string)
	// wg counts the listen registrations' goroutines, so that a transport
	// can wait for them before it stops writing.
	wg sync.WaitGroup
}

// legacySub is one resources/subscribe: its listen registration runs
// until cancel; done closes when it is gone.
type legacySub struct {
	cancel context.CancelFunc
	done   chan struct{}
}

// legacyReply is the client's answer to a server-to-client request.
type legacyReply struct {
	result json.RawMessage
	err    *Error
}

// initializeParams are the members of InitializeRequestParams we use.
type initializeParams struct {
	ProtocolVersion *string         `json:"protocolVersion"`
	Capabilities    json.RawMessage `json:"capabilities"`
	ClientInfo      *Implementation `json:"clientInfo"`
}

// negotiateLegacy returns the version to answer an initialize asking for
// requested: the same when served, else the newest legacy one (the client
// then decides whether it can speak it).
func negotiateLegacy(requested string) string {
	switch requested {
	case "2025-11-25", "2025-06-18", "2025-03-26":
		return requested
	}
	return latestLegacyVersion
}

// newLegacySession runs initialize: it returns the session and the
// InitializeResult, or the error to answer.
func (s *Server) newLegacySession(ctx context.Context, params json.RawMessage) (*legacySession, []byte, *Error) {
	var p initializeParams
	if params == nil {
		return nil, nil, InvalidParams("initialize needs params")
	}
	if e := decodeParams(params, &p); e != nil {
		return nil, nil, e
	}
	if p.ProtocolVersion == nil {
		return nil, nil, InvalidParams("missing params.protocolVersion")
	}
	if p.Capabilities == nil || p.Capabilities[0] != '{' {
		p.Capabilities = json.RawMessage(`{}`)
	}
	ls := &legacySession{
		srv:           s,
		version:       negotiateLegacy(*p.ProtocolVersion),
		capsRaw:       p.Capabilities,
		caps:          parseClientCaps(p.Capabilities),
		clientInfo:    p.ClientInfo,
		ctx:           ctx,
		elicitTimeout: legacyElicitTimeout,
	}
	if ls.version < "2025-11-25" {
		// Before 2025-11-25 elicitation had one mode: a form.
		ls.caps.elicitURL = false
	}
	b := make([]byte, 0, 256+len(s.serverInfo)+len(s.opts.Instructions))
	b = append(b, `{"protocolVersion":`...)
	b = wire.AppendString(b, ls.version)
	b = append(b, `,"capabilities":`...)
	b = appendLegacyCapabilities(b, s.caps())
	b = append(b, `,"serverInfo":`...)
	b = append(b, s.serverInfo...)
	b = appendOptString(b, "instructions", s.surfaceInstructions())
	b = append(b, '}')
	return ls, b, nil
}

// appendLegacyCapabilities appends the 2025-11-25 ServerCapabilities: the
// modern set plus logging (logging/setLevel is served).
func appendLegacyCapabilities(b []byte, c capSet) []byte {
	c.tasks = false // the tasks extension is a 2026-07-28 one
	b = appendCapabilities(b, c)
	if len(b) >= 2 && b[len(b)-2] == '{' {
		return append(b[:len(b)-1], `"logging":{}}`...)
	}
	return append(b[:len(b)-1], `,"logging":{}}`...)
}

// legacyMethod reports whether method exists in the 2025 era (whether it
// is served also depends on the server's capabilities).
func legacyMethod(method string) bool {
	switch method {
	case methodToolsList, methodToolsCall, methodResourcesList, methodTemplatesList, methodResourcesRead,
		methodPromptsList, methodPromptsGet, methodComplete,
		"ping", "logging/setLevel", "resources/subscribe", "resources/unsubscribe":
		return true
	}
	return false
}

// legacyCall carries the transport's parts of one request.
type legacyCall struct {
	// out receives request-related notifications (progress).
	out notifier
	// send carries server-to-client requests made for this request
	// (elicitation/create).
	send messageSender
	// scopes, when non-nil, restricts tools/list to the tools they allow.
	scopes []string
}

// serve answers one request of an initialized session.
func (ls *legacySession) serve(ctx context.Context, req *request, lc legacyCall) response {
	resp := ls.interceptSession(ctx, req, lc)
	if resp.err != nil {
		resp.err = legacyError(resp.err)
	} else {
		resp.result = legacyResult(req.Method, resp.result)
	}
	return resp
}

func (ls *legacySession) dispatch(ctx context.Context, req *request, lc legacyCall) response {
	s := ls.srv
	switch req.Method {
	case "initialize":
		return response{err: &Error{Code: CodeInvalidRequest, Message: "Invalid request: the session is already initialized"}}
	case "ping":
		return response{result: []byte(`{}`)}
	case "logging/setLevel":
		var p struct {
			Level *string `json:"level"`
		}
		if e := decodeParams(orEmpty(req.Params), &p); e != nil {
			return response{err: e}
		}
		if p.Level == nil || !validLogLevel(*p.Level) {
			return response{err: InvalidParams("params.level must be one of debug, info, notice, warning, error, critical, alert, emergency")}
		}
		ls.mu.Lock()
		ls.logLevel = *p.Level
		ls.mu.Unlock()
		ls.changed("level", *p.Level)
		return response{result: []byte(`{}`)}
	case "resources/subscribe", "resources/unsubscribe":
		if !s.caps().resources {
			return response{err: MethodNotFound(req.Method)}
		}
		var p struct {
			URI *string `json:"uri"`
		}
		if e := decodeParams(orEmpty(req.Params), &p); e != nil {
			return response{err: e}
		}
		if p.URI == nil {
			return response{err: InvalidParams("missing params.uri")}
		}
		if req.Method == "resources/unsubscribe" {
			ls.unsubscribe(*p.URI)
			ls.changed("unsub", *p.URI)
			return response{result: []byte(`{}`)}
		}
		if e := ls.subscribe(*p.URI); e != nil {
			return response{err: e}
		}
		ls.changed("sub", *p.URI)
		return response{result: []byte(`{}`)}
	}
	if !legacyMethod(req.Method) {
		return response{err: MethodNotFound(req.Method)}
	}
	if e := s.checkMethod(req.Method); e != nil {
		return response{err: e}
	}
	// One walk over params gives the progress token and the call target.
	scan := scanParams(orEmpty(req.Params))
	rs := &reqState{
		method: req.Method,
		id:     req.ID,
		meta:   ls.requestMeta(&scan),
		caps:   ls.caps,
		out:    lc.out,
	}
	rs.useScan(&scan)
	rs.session = sessionPeer{ls: ls, send: lc.send}
	if req.Method == methodToolsList && lc.scopes != nil {
		ctx = withListScopes(ctx, lc.scopes)
	}
	return s.call(ctx, rs, orEmpty(req.Params))
}

func orEmpty(params json.RawMessage) json.RawMessage {
	if params == nil {
		return json.RawMessage(`{}`)
	}
	return params
}

// requestMeta is what MetaFrom reports to handlers of a legacy request:
// the negotiated version and initialize's capabilities and client info,
// the session's log level and the request's own progress token (from
// params._meta.progressToken, when params is well-formed JSON and the
// token a string or an integer).
func (ls *legacySession) requestMeta(scan *paramScan) *RequestMeta {
	m := &RequestMeta{
		ProtocolVersion:    ls.version,
		ClientInfo:         ls.clientInfo,
		ClientCapabilities: ls.capsRaw,
	}
	ls.mu.Lock()
	m.LogLevel = ls.logLevel
	ls.mu.Unlock()
	if scan.err == nil && !scan.trailing && scan.metaErr == nil {
		if validID(scan.token) {
			m.ProgressToken = scan.token
		}
		m.Trace = scan.traceContext()
	}
	return m
}

// legacyError maps an error to its 2025-era form.
func legacyError(e *Error) *Error {
	if e.Code == CodeInvalidParams && e.Message == "Resource not found" {
		c := *e
		c.Code = CodeResourceNotFoundLegacy
		return &c
	}
	return e
}

// legacyResult rewrites a dispatcher result for the 2025 era: it drops
// resultType, the cache hints and the serverInfo _meta, outputSchemas that
// are not object-rooted (tools/list) and structuredContent that is not an
// object (tools/call). A result it cannot read is returned unchanged.
func legacyResult(method string, result []byte) []byte {
	out := make([]byte, 0, len(result))
	out = append(out, '{')
	var d wire.Decoder
	d.Reset(result)
	err := forEachMember(&d, func(key []byte) error {
		raw, err := d.ReadRaw()
		if err != nil {
			return err
		}
		switch string(key) {
		case "resultType", "ttlMs", "cacheScope":
			return nil
		case "_meta":
			if raw = withoutMember(raw, metaServerInfo); raw == nil {
				return nil
			}
		case "structuredContent":
			if method == methodToolsCall && raw[0] != '{' {
				return nil
			}
		case "tools":
			if method == methodToolsList {
				raw = legacyTools(raw)
			}
		}
		if len(out) > 1 {
			out = append(out, ',')
		}
		out = appendKey(out, key)
		out = append(out, raw...)
		return nil
	})
	if err != nil {
		return result
	}
	return append(out, '}')
}

// withoutMember returns the object raw without member name, or nil when
// nothing else is left.
func withoutMember(raw []byte, name string) []byte {
	out := []byte{'{'}
	var d wire.Decoder
	d.Reset(raw)
	err := forEachMember(&d, func(key []byte) error {
		v, err := d.ReadRaw()
		if err != nil || string(key) == name {
			return err
		}
		if len(out) > 1 {
			out = append(out, ',')
		}
		out = appendKey(out, key)
		out = append(out, v...)
		return nil
	})
	if err != nil || len(out) == 1 {
		return nil
	}
	return append(out, '}')
}

// appendKey appends the member name key, as the Decoder gave it, as a JSON
// string and a colon. AppendString only reads the view it is given.
func appendKey(b, key []byte) []byte {
	b = wire.AppendString(b, unsafe.String(unsafe.SliceData(key), len(key)))
	return append(b, ':')
}

// legacyTools drops outputSchema from tools whose schema root is not an
// object.
func legacyTools(raw []byte) []byte {
	var tools []json.RawMessage
	if json.Unmarshal(raw, &tools) != nil {
		return raw
	}
	out := make([]byte, 0, len(raw))
	out = append(out, '[')
	for i, t := range tools {
		if i > 0 {
			out = append(out, ',')
		}
		var probe struct {
			OutputSchema *struct {
				Type json.RawMessage `json:"type"`
			} `json:"outputSchema"`
		}
		if json.Unmarshal(t, &probe) == nil && probe.OutputSchema != nil && string(probe.OutputSchema.Type) != `"object"` {
			if stripped := withoutMember(t, "outputSchema"); stripped != nil {
				t = stripped
			}
		}
		out = append(out, t...)
	}
	return append(out, ']')
}

// ---- server-to-client requests ----

// elicit asks the client through a real elicitation/create request and
// waits for its answer.
func (ls *legacySession) elicit(ctx context.Context, send messageSender, req ElicitRequest) (ElicitResult, error) {
	if req.URL != "" && !ls.caps.elicitURL {
		return ElicitResult{}, missingCapability(`{"elicitation":{"url":{}}}`)
	}
	if req.URL == "" && !ls.caps.elicitForm {
		return ElicitResult{}, missingCapability(`{"elicitation":{"form":{}}}`)
	}
	if send == nil {
		return ElicitResult{}, errors.New("runtime: this transport cannot send requests to the client")
	}
	params, err := ls.elicitParams(req)
	if err != nil {
		return ElicitResult{}, err
	}
	raw, err := ls.roundTrip(ctx, send, "elicitation/create", params)
	if err != nil {
		return ElicitResult{}, err
	}
	res, e := decodeElicitResult(raw)
	if e != nil {
		return ElicitResult{}, e
	}
	return res, nil
}

// request is reqState.request for a session: a sampling/createMessage or
// roots/list round trip (askClient has checked the capability).
func (ls *legacySession) request(ctx context.Context, send messageSender, method string, params []byte) (json.RawMessage, error) {
	if send == nil {
		return nil, errors.New("runtime: this transport cannot send requests to the client")
	}
	return ls.roundTrip(ctx, send, method, params)
}

// roundTrip sends the server-to-client request method with params and
// waits for the client's result, bounded by the session's input timeout,
// the request's context and the server's shutdown; a request given up on
// is withdrawn with notifications/cancelled.
func (ls *legacySession) roundTrip(ctx context.Context, send messageSender, method string, params []byte) (json.RawMessage, error) {
	id, ch := ls.register()
	defer ls.unregister(id)
	msg := make([]byte, 0, 64+len(params))
	msg = append(msg, `{"jsonrpc":"2.0","id":`...)
	msg = append(msg, id...)
	msg = append(msg, `,"method":`...)
	msg = wire.AppendString(msg, method)
	msg = append(msg, `,"params":`...)
	msg = append(msg, params...)
	msg = append(msg, '}')
	if err := send.sendMessage(msg); err != nil {
		return nil, fmt.Errorf("runtime: sending %s: %w", method, err)
	}
	timer := time.NewTimer(ls.elicitTimeout)
	defer timer.Stop()
	select {
	case r := <-ch:
		if r.err != nil {
			return nil, fmt.Errorf("runtime: the client answered %s with error %d: %s", method, r.err.Code, r.err.Message)
		}
		return r.result, nil
	case <-ctx.Done():
		ls.withdraw(send, id, "the request that asked was cancelled")
		return nil, context.Cause(ctx)
	case <-shutdownFrom(ctx):
		ls.withdraw(send, id, "the server is shutting down")
		return nil, fmt.Errorf("runtime: server shutting down while waiting for %s", method)
	case <-timer.C:
		ls.withdraw(send, id, "no answer in time")
		return nil, fmt.Errorf("runtime: no answer to %s within %v", method, ls.elicitTimeout)
	}
}

// elicitParams encodes ElicitRequestParams for the negotiated version:
// mode and elicitationId exist from 2025-11-25 on.
func (ls *legacySession) elicitParams(req ElicitRequest) ([]byte, error) {
	if ls.version >= "2025-11-25" {
		b, err := appendElicitParams(nil, req)
		if err != nil || req.URL == "" {
			return b, err
		}
		// URL mode needs an elicitationId in this era.
		var idb [8]byte
		rand.Read(idb[:])
		b = b[:len(b)-1]
		b = append(b, `,"elicitationId":`...)
		b = wire.AppendString(b, hex.EncodeToString(idb[:]))
		return append(b, '}'), nil
	}
	b, err := appendElicitParams(nil, req)
	if err != nil {
		return nil, err
	}
	return withoutMember(b, "mode"), nil
}

// register allocates an id for a server-to-client request.
func (ls *legacySession) register() (json.RawMessage, chan legacyReply) {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	ls.nextID++
	id := json.RawMessage(strconv.FormatInt(ls.nextID, 10))
	if r := ls.srv.repl; r != nil && ls.onChange != nil {
		// Replicas of one session ask with ids of their own.
		id = json.RawMessage(`"` + r.origin + "-" + string(id) + `"`)
	}
	ch := make(chan legacyReply, 1)
	if ls.pending == nil {
		ls.pending = map[string]chan legacyReply{}
	}
	ls.pending[string(id)] = ch
	return id, ch
}

func (ls *legacySession) unregister(id json.RawMessage) {
	ls.mu.Lock()
	delete(ls.pending, string(id))
	ls.mu.Unlock()
}

// withdraw tells the client that the server no longer waits for id.
func (ls *legacySession) withdraw(send messageSender, id json.RawMessage, reason string) {
	b := make([]byte, 0, 128)
	b = append(b, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":`...)
	b = append(b, id...)
	b = append(b, `,"reason":`...)
	b = wire.AppendString(b, reason)
	b = append(b, `}}`...)
	if send.sendMessage(b) != nil {
		if sink := ls.currentSink(); sink != nil {
			sink.sendMessage(b)
		}
	}
}

// deliver routes a response from the client (the whole message) to the
// request waiting for it; it reports whether one was waiting.
func (ls *legacySession) deliver(msg []byte) bool {
	var m struct {
		ID     json.RawMessage `json:"id"`
		Result json.RawMessage `json:"result"`
		Error  *struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if json.Unmarshal(msg, &m) != nil || m.ID == nil {
		return false
	}
	ls.mu.Lock()
	ch, ok := ls.pending[string(m.ID)]
	delete(ls.pending, string(m.ID))
	ls.mu.Unlock()
	if !ok {
		return false
	}
	r := legacyReply{result: m.Result}
	if m.Error != nil {
		r.err = &Error{Code: m.Error.Code, Message: m.Error.Message}
	} else if m.Result == nil {
		r.err = &Error{Code: CodeInvalidRequest, Message: "response without result or error"}
	}
	ch <- r
	return true
}

// ---- change notifications ----

func (ls *legacySession) currentSink() messageSender {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	if ls.sink == nil && ls.remote != nil {
		return ls.remote
	}
	return ls.sink
}

// changed tells the other replicas, if any, of a change of the session's
// state.
func (ls *legacySession) changed(op, arg string) {
	if ls.onChange != nil {
		ls.onChange(op, arg)
	}
}

func (ls *legacySession) setSink(sink messageSender) {
	ls.mu.Lock()
	ls.sink = sink
	ls.mu.Unlock()
}

// legacyNotifier receives a session's listen notifications and forwards
// them to the session's sink in the 2025 shape: without the subscription
// _meta, and without the acknowledgement (which that era does not have).
type legacyNotifier struct {
	ls    *legacySession
	acked chan struct{}
	once  sync.Once
}

func (n *legacyNotifier) notify(method string, params []byte) error {
	if method == "notifications/subscriptions/acknowledged" {
		n.once.Do(func() { close(n.acked) })
		return nil
	}
	sink := n.ls.currentSink()
	if sink == nil {
		return nil // no stream open: the 2025 era has nowhere to put it
	}
	params = withoutMember(params, "_meta")
	if params == nil {
		params = []byte(`{}`)
	}
	return sink.sendMessage(appendNotification(make([]byte, 0, 64+len(params)), method, params))
}

// listen registers a subscriptions/listen on the session's behalf with
// filter (a SubscriptionFilter JSON) until ctx ends. It returns once the
// registration is acknowledged, or its error.
func (ls *legacySession) listen(ctx context.Context, filter string) *Error {
	return ls.listenDone(ctx, filter, make(chan struct{}))
}

// listenDone is listen that closes done when the registration is gone.
func (ls *legacySession) listenDone(ctx context.Context, filter string, done chan struct{}) *Error {
	n := &legacyNotifier{ls: ls, acked: make(chan struct{})}
	rs := &reqState{method: methodListen, id: json.RawMessage(legacyListenID), out: n}
	failed := make(chan *Error, 1)
	ls.wg.Add(1)
	go func() {
		defer ls.wg.Done()
		defer close(done)
		resp := ls.srv.call(ctx, rs, json.RawMessage(`{"notifications":`+filter+`}`))
		failed <- resp.err
	}()
	select {
	case <-n.acked:
		return nil
	case e := <-failed:
		if e == nil {
			e = errInternal()
		}
		return e
	}
}

// listenListChanged delivers the list_changed notifications of the
// server's capabilities until ctx ends.
func (ls *legacySession) listenListChanged(ctx context.Context) *Error {
	return ls.listen(ctx, `{"toolsListChanged":true,"promptsListChanged":true,"resourcesListChanged":true}`)
}

func (ls *legacySession) subscribe(uri string) *Error {
	ls.mu.Lock()
	if _, ok := ls.subs[uri]; ok {
		ls.mu.Unlock()
		return nil
	}
	if len(ls.subs) >= maxLegacySubscriptions {
		ls.mu.Unlock()
		return InvalidParams("too many resource subscriptions: at most %d per session", maxLegacySubscriptions)
	}
	ctx, cancel := context.WithCancel(ls.ctx)
	if ls.subs == nil {
		ls.subs = map[string]*legacySub{}
	}
	sub := &legacySub{cancel: cancel, done: make(chan struct{})}
	ls.subs[uri] = sub
	ls.mu.Unlock()
	filter, _ := json.Marshal(subscriptionFilter{ResourceSubscriptions: []string{uri}})
	if e := ls.listenDone(ctx, string(filter), sub.done); e != nil {
		ls.unsubscribe(uri)
		return e
	}
	return nil
}

// unsubscribe ends a subscription and returns once no notification for
// it can be sent any more.
func (ls *legacySession) unsubscribe(uri string) {
	ls.mu.Lock()
	sub, ok := ls.subs[uri]
	delete(ls.subs, uri)
	ls.mu.Unlock()
	if ok {
		sub.cancel()
		<-sub.done
	}
}
