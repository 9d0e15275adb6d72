package runtime

// All wire parsing and encoding of the dispatcher lives in this file, so that
// it can move from encoding/json to the reflection-free Decoder and Append*
// helpers of package wire without touching the dispatcher. Parsing returns
// *Error values ready to send; encoding appends to a caller-owned buffer.

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"

	"github.com/mcpgen-dev/mcpgen/runtime/wire"
)

// The _meta keys of the 2026-07-28 revision.
const (
	metaProtocolVersion    = "io.modelcontextprotocol/protocolVersion"
	metaClientCapabilities = "io.modelcontextprotocol/clientCapabilities"
	metaClientInfo         = "io.modelcontextprotocol/clientInfo"
	metaLogLevel           = "io.modelcontextprotocol/logLevel"
	metaProgressToken      = "progressToken"
	// The W3C trace context keys, which 2026-07-28 reserves unprefixed
	// for exactly this use.
	metaTraceparent    = "traceparent"
	metaTracestate     = "tracestate"
	metaBaggage        = "baggage"
	metaServerInfo     = "io.modelcontextprotocol/serverInfo"
	metaSubscriptionID = "io.modelcontextprotocol/subscriptionId"
)

// request is one JSON-RPC request (ID set) or notification (ID nil) from
// any transport. ID keeps the raw bytes so that the response echoes the
// client's id with its JSON type.
type request struct {
	ID     json.RawMessage
	Method string
	// Params is nil when the message had no params member.
	Params json.RawMessage
}

// messageKind classifies an incoming line or body.
type messageKind int

const (
	kindRequest messageKind = iota
	kindNotification
	// kindResponse is a response sent by the client; servers of this
	// revision never send requests, so it is logged and dropped.
	kindResponse
)

// errParse is the answer to a message that is not JSON. It is built only
// when needed: a valid message allocates nothing for it.
func errParse() *Error {
	return &Error{Code: CodeParseError, Message: "Parse error: invalid JSON"}
}

// parseMessage decodes one message. On failure it returns the error to send
// and the id to send it with (nil when the id could not be read). The
// returned request refers to a private copy of data, so the caller may
// reuse its buffer.
func parseMessage(data []byte) (*request, messageKind, json.RawMessage, *Error) {
	data = bytes.TrimSpace(data)
	var d wire.Decoder
	d.Reset(data)
	switch d.Peek() {
	case wire.KindObject:
	case wire.KindArray:
		if d.Skip() != nil || d.End() != nil {
			return nil, 0, nil, errParse()
		}
		return nil, 0, nil, &Error{Code: CodeInvalidRequest, Message: "Invalid request: batches are not supported"}
	default:
		if d.Skip() != nil || d.End() != nil {
			return nil, 0, nil, errParse()
		}
		return nil, 0, nil, &Error{Code: CodeInvalidRequest, Message: "Invalid request: a message must be an object"}
	}
	data = bytes.Clone(data)
	d.Reset(data)
	var (
		jsonrpcOK, hasMethod, hasResult bool
		id, params                      []byte
		method                          string
		// badMember names a member of the wrong type. The whole message is
		// still scanned: invalid JSON anywhere is a parse error first.
		badMember string
	)
	if d.BeginObject() != nil {
		return nil, 0, nil, errParse()
	}
	for {
		key, ok, err := d.NextKey()
		if err != nil {
			return nil, 0, nil, errParse()
		}
		if !ok {
			break
		}
		switch string(key) {
		case "jsonrpc":
			if d.Peek() != wire.KindString {
				badMember = "jsonrpc"
				err = d.Skip()
				break
			}
			var v []byte
			v, err = d.ReadStringBytes()
			jsonrpcOK = string(v) == "2.0"
		case "id":
			id, err = d.ReadRaw()
		case "method":
			if d.Peek() != wire.KindString {
				badMember = "method"
				hasMethod = false
				err = d.Skip()
				break
			}
			hasMethod = true
			method, err = d.ReadString()
		case "params":
			params, err = d.ReadRaw()
		case "result", "error":
			hasResult = true
			err = d.Skip()
		default:
			err = d.Skip()
		}
		if err != nil {
			return nil, 0, nil, errParse()
		}
	}
	if d.End() != nil {
		return nil, 0, nil, errParse()
	}
	idOK := validID(id)
	replyID := json.RawMessage(id)
	if !idOK {
		replyID = nil
	}
	if badMember != "" {
		return nil, 0, replyID, &Error{Code: CodeInvalidRequest, Message: "Invalid request: " + badMember + " must be a string"}
	}
	if !jsonrpcOK {
		return nil, 0, replyID, &Error{Code: CodeInvalidRequest, Message: `Invalid request: jsonrpc must be "2.0"`}
	}
	if !hasMethod {
		if hasResult {
			return &request{ID: replyID}, kindResponse, replyID, nil
		}
		return nil, 0, replyID, &Error{Code: CodeInvalidRequest, Message: "Invalid request: missing method"}
	}
	req := &request{Method: method, Params: nullToNil(params)}
	if id == nil {
		return req, kindNotification, nil, nil
	}
	if !idOK {
		return nil, 0, nil, &Error{Code: CodeInvalidRequest, Message: "Invalid request: id must be a string or an integer"}
	}
	req.ID = id
	return req, kindRequest, replyID, nil
}

// validID reports whether raw is a string or an integer.
func validID(raw json.RawMessage) bool {
	if len(raw) == 0 {
		return false
	}
	switch raw[0] {
	case '"':
		return true
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		return bytes.IndexAny(raw, ".eE") < 0
	}
	return false
}

func nullToNil(raw json.RawMessage) json.RawMessage {
	if string(raw) == "null" {
		return nil
	}
	return raw
}

// paramScan is what one walk over a request's params finds for the
// checks that run before dispatch: the _meta envelope, the protocol
// version it claims, and the members that HTTP headers mirror. Over HTTP
// those checks interleave with header checks in a fixed order, and each
// used to walk params on its own: one walk feeds them all. Strings are
// views into params (copies only when escaped), so params must outlive
// the scan and everything taken from it, as RequestMeta already must.
type paramScan struct {
	params json.RawMessage
	// notObject: params is absent or not an object (err is then set too;
	// only the envelope words that case apart). err: the walk over params
	// failed. trailing: params has bytes after its value.
	notObject bool
	err       error
	trailing  bool
	// meta is the last _meta member, raw; metaErr and the fields below
	// are what the walk over that last one found.
	meta    []byte
	metaErr error
	// version: the last protocolVersion member of _meta, a string if
	// versionOK.
	version                  string
	hasVersion, versionOK    bool
	caps, info, level, token []byte
	// trace holds the W3C trace context members of _meta (views, empty
	// when absent or not strings).
	trace TraceContext
	// claim is the last string protocolVersion of any _meta object, as a
	// transport reads it before the rest of the envelope; claimBad when a
	// walk over a _meta failed.
	claim              string
	hasClaim, claimBad bool
	target             headerTarget
	// call holds the MRTR members that tools/call, prompts/get and
	// resources/read read besides the target and arguments (in target).
	// callTarget reports the last member of the wrong type, so the scan
	// keeps where each kind of such member last was: members
	// counts the members seen, bad* are 1-based positions (0: none).
	call                     callTarget
	members                  int
	badName, badURI, badMRTR int
	badMRTRMember            string
}

// scanParams walks params once; see paramScan.
func scanParams(params json.RawMessage) (s paramScan) {
	s.params = params
	var d wire.Decoder
	d.Reset(params)
	// A value that is not an object fails the walk at once (s.err), in
	// the words every check that needs an object uses.
	s.notObject = d.Peek() != wire.KindObject
	s.err = forEachMember(&d, func(key []byte) (err error) {
		s.members++
		switch string(key) {
		case "_meta":
			if s.meta, err = d.ReadRaw(); err == nil {
				s.scanMeta()
			}
			return err
		case "name":
			s.target.Name, s.target.HasName, err = readTargetString(&d)
			if !s.target.HasName {
				s.badName = s.members
			}
			return err
		case "uri":
			s.target.URI, s.target.HasURI, err = readTargetString(&d)
			if !s.target.HasURI {
				s.badURI = s.members
			}
			return err
		case "arguments":
			s.target.Arguments, err = d.ReadRaw()
			s.target.Arguments = nullToNil(s.target.Arguments)
			return err
		case "inputResponses":
			// Repeated members add to the map, as json.Unmarshal does.
			var raw []byte
			if raw, err = d.ReadRaw(); err == nil && string(raw) != "null" {
				var bad error
				if s.call.InputResponses, bad = decodeInputResponses(raw, s.call.InputResponses); bad != nil {
					s.badMRTR, s.badMRTRMember = s.members, "inputResponses"
				}
				if s.call.InputResponses == nil {
					s.call.InputResponses = map[string]json.RawMessage{}
				}
			}
			return err
		case "requestState":
			var v string
			var ok bool
			if v, ok, err = readTargetString(&d); ok {
				s.call.RequestState = &v
			} else {
				s.badMRTR, s.badMRTRMember = s.members, "requestState"
			}
			return err
		}
		return d.Skip()
	})
	s.trailing = s.err == nil && d.End() != nil
	return s
}

// scanMeta walks the _meta member just read into s.meta. Only the last
// _meta counts for the envelope; the claim is the last one of any.
func (s *paramScan) scanMeta() {
	s.metaErr, s.version, s.hasVersion, s.versionOK = nil, "", false, false
	s.caps, s.info, s.level, s.token = nil, nil, nil, nil
	s.trace = TraceContext{}
	if s.meta[0] != '{' {
		return
	}
	var d wire.Decoder
	d.Reset(s.meta)
	s.metaErr = forEachMember(&d, func(key []byte) (err error) {
		switch string(key) {
		case metaProtocolVersion:
			s.hasVersion = true
			s.version, s.versionOK, err = readTargetString(&d)
			if s.versionOK {
				s.claim, s.hasClaim = s.version, true
			}
		case metaClientCapabilities:
			s.caps, err = d.ReadRaw()
		case metaClientInfo:
			s.info, err = d.ReadRaw()
		case metaLogLevel:
			s.level, err = d.ReadRaw()
		case metaProgressToken:
			s.token, err = d.ReadRaw()
		case metaTraceparent:
			s.trace.Traceparent, _, err = readTargetString(&d)
		case metaTracestate:
			s.trace.Tracestate, _, err = readTargetString(&d)
		case metaBaggage:
			s.trace.Baggage, _, err = readTargetString(&d)
		default:
			err = d.Skip()
		}
		return err
	})
	if s.metaErr != nil {
		s.claimBad = true
	}
}

// traceContext returns the scan's trace context, or nil when _meta had
// none: a copy only for requests that carry one.
func (s *paramScan) traceContext() *TraceContext {
	if s.trace == (TraceContext{}) {
		return nil
	}
	tc := s.trace
	return &tc
}

// readTargetString reads a string member without allocating unless it is
// escaped: a view into the input. A value of another type is skipped and
// ok is false.
func readTargetString(d *wire.Decoder) (v string, ok bool, err error) {
	if d.Peek() != wire.KindString {
		return "", false, d.Skip()
	}
	v, err = d.ReadStringView()
	return v, err == nil, err
}

// decodeInputResponses decodes raw into m as json.Unmarshal into &m does
// (a non-nil m is added to). A helper, so that the address Unmarshal
// takes is of m and not of the scan, which then stays on the stack.
func decodeInputResponses(raw []byte, m map[string]json.RawMessage) (map[string]json.RawMessage, error) {
	err := json.Unmarshal(raw, &m)
	return m, err
}

// callTarget decodes the params of tools/call, prompts/get or
// resources/read (targetKey is "name" or "uri") from the scan: the target,
// the arguments and the MRTR members, or the error of the member of the
// wrong type that came last.
func (s *paramScan) callTarget(targetKey string) (callTarget, *Error) {
	if s.err != nil {
		return callTarget{}, InvalidParams("invalid params: %v", s.err)
	}
	p := s.call
	p.arguments = s.target.Arguments
	target, has, badTarget := s.target.Name, s.target.HasName, s.badName
	if targetKey == "uri" {
		target, has, badTarget = s.target.URI, s.target.HasURI, s.badURI
	}
	switch {
	case badTarget > s.badMRTR:
		return p, InvalidParams("invalid params: %s has the wrong type", targetKey)
	case s.badMRTR > 0:
		return p, InvalidParams("invalid params: %s has the wrong type", s.badMRTRMember)
	}
	// No target member had the wrong type, so the last one is the value.
	p.target, p.hasTarget = target, has
	return p, nil
}

// claimed returns params._meta's protocolVersion without validating the
// rest of the envelope; see claimedVersion.
func (s *paramScan) claimed() (string, bool) {
	if s.err != nil || s.trailing || s.claimBad || !s.hasClaim {
		return "", false
	}
	return s.claim, true
}

// envelope checks params and its _meta as the 2026-07-28 revision
// requires of every request. The returned meta refers to params.
func (s *paramScan) envelope() (*RequestMeta, *Error) {
	if s.params == nil {
		return nil, InvalidParams("missing params: every request must carry params._meta")
	}
	if s.notObject {
		return nil, InvalidParams("params must be an object")
	}
	if s.err != nil {
		return nil, InvalidParams("invalid params: %v", s.err)
	}
	if s.meta == nil || string(s.meta) == "null" {
		return nil, InvalidParams("missing params._meta with required key %q", metaProtocolVersion)
	}
	if s.meta[0] != '{' {
		return nil, InvalidParams("params._meta must be an object")
	}
	if s.metaErr != nil {
		return nil, InvalidParams("invalid params._meta: %v", s.metaErr)
	}
	meta := &RequestMeta{Trace: s.traceContext()}
	if !s.hasVersion {
		return nil, InvalidParams("missing required _meta key %q", metaProtocolVersion)
	}
	if !s.versionOK {
		return nil, InvalidParams("_meta key %q must be a string", metaProtocolVersion)
	}
	meta.ProtocolVersion = s.version
	if meta.ProtocolVersion != ProtocolVersion {
		return nil, errUnsupportedVersion(meta.ProtocolVersion)
	}
	caps := s.caps
	if caps == nil {
		return nil, InvalidParams("missing required _meta key %q", metaClientCapabilities)
	}
	if caps[0] != '{' {
		return nil, InvalidParams("_meta key %q must be an object", metaClientCapabilities)
	}
	meta.ClientCapabilities = caps
	if info := s.info; info != nil {
		var impl Implementation
		if info[0] != '{' || decodeImplementation(info, &impl) != nil || impl.Name == "" || impl.Version == "" {
			return nil, InvalidParams("_meta key %q must be an object with string name and version", metaClientInfo)
		}
		meta.ClientInfo = &impl
	}
	if s.level != nil {
		var err error
		if meta.LogLevel, err = readString(s.level); err != nil || !validLogLevel(meta.LogLevel) {
			return nil, InvalidParams("_meta key %q must be one of debug, info, notice, warning, error, critical, alert, emergency", metaLogLevel)
		}
	}
	if s.token != nil {
		if !validID(s.token) {
			return nil, InvalidParams("_meta key %q must be a string or an integer", metaProgressToken)
		}
		meta.ProgressToken = s.token
	}
	return meta, nil
}

// decodeImplementation decodes a clientInfo object as encoding/json would
// (null leaves a member unset), but with exact key matching and without
// reflection: every request of the 2026-07-28 revision carries one.
func decodeImplementation(raw []byte, impl *Implementation) error {
	var d wire.Decoder
	d.Reset(raw)
	err := forEachMember(&d, func(key []byte) (err error) {
		var dst *string
		switch string(key) {
		case "name":
			dst = &impl.Name
		case "title":
			dst = &impl.Title
		case "version":
			dst = &impl.Version
		case "description":
			dst = &impl.Description
		case "websiteUrl":
			dst = &impl.WebsiteURL
		case "icons":
			// Rare and nested: encoding/json is fine here.
			var icons []byte
			if icons, err = d.ReadRaw(); err == nil {
				err = json.Unmarshal(icons, &impl.Icons)
			}
			return err
		default:
			return d.Skip()
		}
		switch d.Peek() {
		case wire.KindNull:
			return d.ReadNull()
		case wire.KindString:
			*dst, err = d.ReadString()
			return err
		}
		return errors.New("not a string")
	})
	if err != nil {
		return err
	}
	return d.End()
}

// forEachMember walks the object at d, calling fn with each key; fn must
// consume the value.
func forEachMember(d *wire.Decoder, fn func(key []byte) error) error {
	if err := d.BeginObject(); err != nil {
		return err
	}
	for {
		key, ok, err := d.NextKey()
		if err != nil || !ok {
			return err
		}
		if err := fn(key); err != nil {
			return err
		}
	}
}

// readString decodes a raw JSON string.
func readString(raw []byte) (string, error) {
	var d wire.Decoder
	d.Reset(raw)
	if d.Peek() != wire.KindString {
		return "", errors.New("not a string")
	}
	return d.ReadString()
}

// callTarget are the params of tools/call, prompts/get and
// resources/read: a target (name or uri), optional arguments and the MRTR
// retry members.
type callTarget struct {
	target    string
	hasTarget bool // a string target was present (a value, not a pointer: one allocation less per call)
	arguments []byte
	mrtrParams
}

func validLogLevel(level string) bool {
	switch level {
	case "debug", "info", "notice", "warning", "error", "critical", "alert", "emergency":
		return true
	}
	return false
}

// clientCaps is what the dispatcher needs to know of ClientCapabilities.
type clientCaps struct {
	elicitForm, elicitURL bool
	// sampling and samplingTools: "sampling" and "sampling.tools"; roots:
	// "roots" (input requests of those kinds need them).
	sampling, samplingTools, roots bool
	// tasks: the io.modelcontextprotocol/tasks extension.
	tasks bool
}

func parseClientCaps(raw json.RawMessage) clientCaps {
	var c struct {
		Elicitation *struct {
			Form json.RawMessage `json:"form"`
			URL  json.RawMessage `json:"url"`
		} `json:"elicitation"`
		Sampling *struct {
			Tools json.RawMessage `json:"tools"`
		} `json:"sampling"`
		Roots      json.RawMessage            `json:"roots"`
		Extensions map[string]json.RawMessage `json:"extensions"`
	}
	var caps clientCaps
	if json.Unmarshal(raw, &c) != nil {
		return caps
	}
	if ext, ok := c.Extensions[TasksExtension]; ok && string(ext) != "null" {
		caps.tasks = true
	}
	caps.sampling = c.Sampling != nil
	caps.samplingTools = c.Sampling != nil && c.Sampling.Tools != nil
	caps.roots = c.Roots != nil && string(c.Roots) != "null"
	if c.Elicitation == nil {
		return caps
	}
	e := c.Elicitation
	caps.elicitURL = e.URL != nil
	// A bare "elicitation": {} declares form mode.
	caps.elicitForm = e.Form != nil || e.URL == nil
	return caps
}

// decodeParams decodes method params into v, mapping failures to -32602.
func decodeParams(params json.RawMessage, v any) *Error {
	if err := json.Unmarshal(params, v); err != nil {
		return InvalidParams("invalid params: %v", err)
	}
	return nil
}

type listParams struct {
	Cursor *string `json:"cursor"`
}

// mrtrParams are the members of a request that may be retried after an
// input_required result.
type mrtrParams struct {
	InputResponses map[string]json.RawMessage `json:"inputResponses"`
	RequestState   *string                    `json:"requestState"`
}

type completeParams struct {
	Ref *struct {
		Type string `json:"type"`
		Name string `json:"name"`
		URI  string `json:"uri"`
	} `json:"ref"`
	Argument *struct {
		Name  *string `json:"name"`
		Value *string `json:"value"`
	} `json:"argument"`
	Context *struct {
		Arguments map[string]string `json:"arguments"`
	} `json:"context"`
}

type listenParams struct {
	Notifications *subscriptionFilter `json:"notifications"`
}

// subscriptionFilter is SubscriptionFilter; it is also what the ack echoes.
type subscriptionFilter struct {
	ToolsListChanged      bool     `json:"toolsListChanged,omitempty"`
	PromptsListChanged    bool     `json:"promptsListChanged,omitempty"`
	ResourcesListChanged  bool     `json:"resourcesListChanged,omitempty"`
	ResourceSubscriptions []string `json:"resourceSubscriptions,omitempty"`
}

type cancelledParams struct {
	RequestID json.RawMessage `json:"requestId"`
}

// parseCancelled returns the id named by notifications/cancelled.
func parseCancelled(params json.RawMessage) (json.RawMessage, bool) {
	var p cancelledParams
	if params == nil || json.Unmarshal(params, &p) != nil || !validID(p.RequestID) {
		return nil, false
	}
	return p.RequestID, true
}

// decodeElicitResult decodes one inputResponses entry for elicitation.
func decodeElicitResult(raw json.RawMessage) (ElicitResult, *Error) {
	var r ElicitResult
	var w struct {
		Action  string         `json:"action"`
		Content map[string]any `json:"content"`
	}
	if err := json.Unmarshal(raw, &w); err != nil {
		return r, InvalidParams("invalid elicitation response: %v", err)
	}
	switch w.Action {
	case "accept", "decline", "cancel":
	default:
		return r, InvalidParams("invalid elicitation response: action must be accept, decline or cancel")
	}
	r.Action, r.Content = w.Action, w.Content
	return r, nil
}

// ---- encoding ----

// appendResponse appends one complete JSON-RPC response (no newline). A
// nil id is written as null, for errors about unreadable requests.
func appendResponse(b []byte, id json.RawMessage, result []byte, rpcErr *Error) []byte {
	b = append(b, `{"jsonrpc":"2.0","id":`...)
	if id == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, id...)
	}
	if rpcErr != nil {
		b = append(b, `,"error":`...)
		b = appendError(b, rpcErr)
	} else {
		b = append(b, `,"result":`...)
		b = append(b, result...)
	}
	return append(b, '}')
}

func appendError(b []byte, e *Error) []byte {
	b = append(b, `{"code":`...)
	b = strconv.AppendInt(b, int64(e.Code), 10)
	b = append(b, `,"message":`...)
	b = wire.AppendString(b, e.Message)
	if e.Data != nil {
		data, err := json.Marshal(e.Data)
		if err == nil {
			b = append(b, `,"data":`...)
			b = append(b, data...)
		}
	}
	return append(b, '}')
}

// appendNotification appends a notification message (no newline).
func appendNotification(b []byte, method string, params []byte) []byte {
	b = append(b, `{"jsonrpc":"2.0","method":`...)
	b = wire.AppendString(b, method)
	if params != nil {
		b = append(b, `,"params":`...)
		b = append(b, params...)
	}
	return append(b, '}')
}

// appendFloat appends a JSON number; NaN and infinities, which JSON cannot
// express, become 0.
func appendFloat(b []byte, f float64) []byte {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return append(b, '0')
	}
	return strconv.AppendFloat(b, f, 'g', -1, 64)
}

// compactJSON checks raw and returns it without insignificant whitespace:
// stdio frames messages by newlines, so no raw JSON we embed may hold one.
func compactJSON(raw []byte) ([]byte, error) {
	if !json.Valid(raw) {
		return nil, fmt.Errorf("invalid JSON")
	}
	if bytes.IndexAny(raw, "\n\r") < 0 {
		return raw, nil
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, raw); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// resultBuilder builds one result object: resultType first, then the body
// members, then the cache hints and _meta.
type resultBuilder struct {
	b []byte
}

func (s *Server) beginResult(b []byte, resultType string) resultBuilder {
	b = append(b, `{"resultType":"`...)
	b = append(b, resultType...)
	b = append(b, '"')
	return resultBuilder{b: b}
}

// key appends a member name; the value must follow.
func (r *resultBuilder) key(name string) {
	r.b = append(r.b, ',', '"')
	r.b = append(r.b, name...)
	r.b = append(r.b, '"', ':')
}

// finish appends the cache hint (when non-nil), _meta (serverInfo plus
// extra members given as raw `"key":value` text) and the closing brace.
func (s *Server) finishResult(r resultBuilder, cache *CacheHint, extraMeta []byte) []byte {
	b := r.b
	if cache != nil {
		b = append(b, `,"ttlMs":`...)
		ttl := cache.TTLMs
		if ttl < 0 {
			ttl = 0
		}
		b = strconv.AppendInt(b, ttl, 10)
		b = append(b, `,"cacheScope":`...)
		if cache.Scope == "public" {
			b = append(b, `"public"`...)
		} else {
			b = append(b, `"private"`...)
		}
	}
	b = append(b, `,"_meta":{"`+metaServerInfo+`":`...)
	b = append(b, s.serverInfo...)
	if len(extraMeta) > 0 {
		b = append(b, ',')
		b = append(b, extraMeta...)
	}
	return append(b, '}', '}')
}

// appendStringList appends a JSON array of strings.
func appendStringList(b []byte, list []string) []byte {
	b = append(b, '[')
	for i, s := range list {
		if i > 0 {
			b = append(b, ',')
		}
		b = wire.AppendString(b, s)
	}
	return append(b, ']')
}

// appendRawList appends a JSON array of pre-encoded values.
func appendRawList(b []byte, list [][]byte) []byte {
	b = append(b, '[')
	for i, v := range list {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, v...)
	}
	return append(b, ']')
}

func appendContentList(b []byte, list []Content) []byte {
	b = append(b, '[')
	for i := range list {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendContent(b, &list[i])
	}
	return append(b, ']')
}

// appendContent appends one ContentBlock.
func appendContent(b []byte, c *Content) []byte {
	b = append(b, `{"type":`...)
	b = wire.AppendString(b, c.Type)
	switch c.Type {
	case "image", "audio":
		b = append(b, `,"data":"`...)
		b = base64.StdEncoding.AppendEncode(b, c.Data)
		b = append(b, '"')
		b = appendOptString(b, "mimeType", c.MimeType)
	case "resource":
		b = append(b, `,"resource":`...)
		if c.Resource != nil {
			b = appendResourceContents(b, c.Resource)
		} else {
			b = append(b, `{"uri":"","text":""}`...)
		}
	case "resource_link":
		var l ResourceLink
		if c.Link != nil {
			l = *c.Link
		}
		b = append(b, `,"uri":`...)
		b = wire.AppendString(b, l.URI)
		b = append(b, `,"name":`...)
		b = wire.AppendString(b, l.Name)
		b = appendOptString(b, "title", l.Title)
		b = appendOptString(b, "description", l.Description)
		b = appendOptString(b, "mimeType", l.MimeType)
		if l.Size != nil {
			b = append(b, `,"size":`...)
			b = strconv.AppendInt(b, *l.Size, 10)
		}
	default:
		b = append(b, `,"text":`...)
		b = wire.AppendString(b, c.Text)
	}
	if a := c.Annotations; a != nil {
		b = append(b, `,"annotations":{`...)
		n := len(b)
		if a.Audience != nil {
			b = append(b, `"audience":`...)
			b = appendStringList(b, a.Audience)
		}
		if a.Priority != nil {
			if len(b) > n {
				b = append(b, ',')
			}
			b = append(b, `"priority":`...)
			b = appendFloat(b, *a.Priority)
		}
		if a.LastModified != "" {
			if len(b) > n {
				b = append(b, ',')
			}
			b = append(b, `"lastModified":`...)
			b = wire.AppendString(b, a.LastModified)
		}
		b = append(b, '}')
	}
	return append(b, '}')
}

func appendOptString(b []byte, name, v string) []byte {
	if v == "" {
		return b
	}
	b = append(b, ',', '"')
	b = append(b, name...)
	b = append(b, '"', ':')
	return wire.AppendString(b, v)
}

// appendResourceContents appends TextResourceContents, or
// BlobResourceContents when Blob is non-nil.
func appendResourceContents(b []byte, rc *ResourceContents) []byte {
	b = append(b, `{"uri":`...)
	b = wire.AppendString(b, rc.URI)
	b = appendOptString(b, "mimeType", rc.MimeType)
	if rc.Blob != nil {
		b = append(b, `,"blob":"`...)
		b = base64.StdEncoding.AppendEncode(b, rc.Blob)
		b = append(b, '"')
	} else {
		b = append(b, `,"text":`...)
		b = wire.AppendString(b, rc.Text)
	}
	return append(b, '}')
}

// appendFilter appends a SubscriptionFilter.
func appendFilter(b []byte, f *subscriptionFilter) []byte {
	data, _ := json.Marshal(f) // a struct of bools and strings cannot fail
	return append(b, data...)
}

// claimedVersion returns params._meta's protocolVersion without validating
// the rest of the envelope, for transports that must compare it with a
// header before anything else (HTTP: MCP-Protocol-Version, -32020). A
// transport that runs the other checks too scans once and asks the scan.
func claimedVersion(params json.RawMessage) (string, bool) {
	s := scanParams(params)
	return s.claimed()
}

// requestName returns the value the HTTP Mcp-Name header must mirror:
// params.name of tools/call and prompts/get, params.uri of resources/read.
// ok is false for other methods or when the member is absent.
func requestName(method string, params json.RawMessage) (string, bool) {
	var p struct {
		Name *string `json:"name"`
		URI  *string `json:"uri"`
	}
	if params == nil || json.Unmarshal(params, &p) != nil {
		return "", false
	}
	switch method {
	case methodToolsCall, methodPromptsGet:
		if p.Name != nil {
			return *p.Name, true
		}
	case methodResourcesRead:
		if p.URI != nil {
			return *p.URI, true
		}
	}
	return "", false
}
