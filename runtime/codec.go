package runtime

// All wire parsing and encoding of the dispatcher lives in this file, so that
// it can move from encoding/json to the reflection-free Decoder and Append*
// helpers without touching the dispatcher. Parsing returns *Error values
// ready to send; encoding appends to a caller-owned buffer.

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
)

// The _meta keys of the 2026-07-28 revision.
const (
	metaProtocolVersion    = "io.modelcontextprotocol/protocolVersion"
	metaClientCapabilities = "io.modelcontextprotocol/clientCapabilities"
	metaClientInfo         = "io.modelcontextprotocol/clientInfo"
	metaLogLevel           = "io.modelcontextprotocol/logLevel"
	metaProgressToken      = "progressToken"
	metaServerInfo         = "io.modelcontextprotocol/serverInfo"
	metaSubscriptionID     = "io.modelcontextprotocol/subscriptionId"
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

// wireMessage is the envelope of any JSON-RPC message. Pointers tell absent
// members from null ones.
type wireMessage struct {
	JSONRPC *string         `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  *string         `json:"method"`
	Params  json.RawMessage `json:"params"`
	Result  json.RawMessage `json:"result"`
	Error   json.RawMessage `json:"error"`
}

// parseMessage decodes one message. On failure it returns the error to send
// and the id to send it with (nil when the id could not be read).
func parseMessage(data []byte) (*request, messageKind, json.RawMessage, *Error) {
	data = bytes.TrimSpace(data)
	if len(data) > 0 && data[0] == '[' {
		if !json.Valid(data) {
			return nil, 0, nil, &Error{Code: CodeParseError, Message: "Parse error: invalid JSON"}
		}
		return nil, 0, nil, &Error{Code: CodeInvalidRequest, Message: "Invalid request: batches are not supported"}
	}
	var m wireMessage
	if err := json.Unmarshal(data, &m); err != nil {
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) {
			return nil, 0, nil, &Error{Code: CodeInvalidRequest, Message: "Invalid request: " + err.Error()}
		}
		return nil, 0, nil, &Error{Code: CodeParseError, Message: "Parse error: invalid JSON"}
	}
	id := m.ID
	idOK := validID(id)
	if !idOK {
		id = nil
	}
	if m.JSONRPC == nil || *m.JSONRPC != "2.0" {
		return nil, 0, id, &Error{Code: CodeInvalidRequest, Message: `Invalid request: jsonrpc must be "2.0"`}
	}
	if m.Method == nil {
		if m.Result != nil || m.Error != nil {
			return &request{ID: id}, kindResponse, id, nil
		}
		return nil, 0, id, &Error{Code: CodeInvalidRequest, Message: "Invalid request: missing method"}
	}
	req := &request{Method: *m.Method, Params: nullToNil(m.Params)}
	if m.ID == nil {
		return req, kindNotification, nil, nil
	}
	if !idOK {
		return nil, 0, nil, &Error{Code: CodeInvalidRequest, Message: "Invalid request: id must be a string or an integer"}
	}
	req.ID = id
	return req, kindRequest, id, nil
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

// metaEnvelope is the part of params every request carries.
type metaEnvelope struct {
	Meta map[string]json.RawMessage `json:"_meta"`
}

// parseEnvelope checks params and its _meta as the 2026-07-28 revision
// requires of every request.
func parseEnvelope(params json.RawMessage) (*RequestMeta, *Error) {
	if params == nil {
		return nil, InvalidParams("missing params: every request must carry params._meta")
	}
	if params[0] != '{' {
		return nil, InvalidParams("params must be an object")
	}
	var env metaEnvelope
	if err := json.Unmarshal(params, &env); err != nil {
		return nil, InvalidParams("invalid params._meta: %v", err)
	}
	if env.Meta == nil {
		return nil, InvalidParams("missing params._meta with required key %q", metaProtocolVersion)
	}
	meta := &RequestMeta{}
	raw, ok := env.Meta[metaProtocolVersion]
	if !ok {
		return nil, InvalidParams("missing required _meta key %q", metaProtocolVersion)
	}
	if err := json.Unmarshal(raw, &meta.ProtocolVersion); err != nil || raw[0] != '"' {
		return nil, InvalidParams("_meta key %q must be a string", metaProtocolVersion)
	}
	if meta.ProtocolVersion != ProtocolVersion {
		return nil, errUnsupportedVersion(meta.ProtocolVersion)
	}
	raw, ok = env.Meta[metaClientCapabilities]
	if !ok {
		return nil, InvalidParams("missing required _meta key %q", metaClientCapabilities)
	}
	if raw[0] != '{' {
		return nil, InvalidParams("_meta key %q must be an object", metaClientCapabilities)
	}
	meta.ClientCapabilities = raw
	if raw, ok = env.Meta[metaClientInfo]; ok {
		var info Implementation
		if raw[0] != '{' || json.Unmarshal(raw, &info) != nil || info.Name == "" || info.Version == "" {
			return nil, InvalidParams("_meta key %q must be an object with string name and version", metaClientInfo)
		}
		meta.ClientInfo = &info
	}
	if raw, ok = env.Meta[metaLogLevel]; ok {
		var level string
		if json.Unmarshal(raw, &level) != nil || !validLogLevel(level) {
			return nil, InvalidParams("_meta key %q must be one of debug, info, notice, warning, error, critical, alert, emergency", metaLogLevel)
		}
		meta.LogLevel = level
	}
	if raw, ok = env.Meta[metaProgressToken]; ok {
		if !validID(raw) {
			return nil, InvalidParams("_meta key %q must be a string or an integer", metaProgressToken)
		}
		meta.ProgressToken = raw
	}
	return meta, nil
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
}

func parseClientCaps(raw json.RawMessage) clientCaps {
	var c struct {
		Elicitation *struct {
			Form json.RawMessage `json:"form"`
			URL  json.RawMessage `json:"url"`
		} `json:"elicitation"`
	}
	var caps clientCaps
	if json.Unmarshal(raw, &c) != nil || c.Elicitation == nil {
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

type callParams struct {
	Name      *string         `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
	mrtrParams
}

type promptGetParams struct {
	Name      *string         `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
	mrtrParams
}

type readParams struct {
	URI *string `json:"uri"`
	mrtrParams
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
	b = AppendString(b, e.Message)
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
	b = AppendString(b, method)
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
		b = AppendString(b, s)
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
	b = AppendString(b, c.Type)
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
		b = AppendString(b, l.URI)
		b = append(b, `,"name":`...)
		b = AppendString(b, l.Name)
		b = appendOptString(b, "title", l.Title)
		b = appendOptString(b, "description", l.Description)
		b = appendOptString(b, "mimeType", l.MimeType)
		if l.Size != nil {
			b = append(b, `,"size":`...)
			b = strconv.AppendInt(b, *l.Size, 10)
		}
	default:
		b = append(b, `,"text":`...)
		b = AppendString(b, c.Text)
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
			b = AppendString(b, a.LastModified)
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
	return AppendString(b, v)
}

// appendResourceContents appends TextResourceContents, or
// BlobResourceContents when Blob is non-nil.
func appendResourceContents(b []byte, rc *ResourceContents) []byte {
	b = append(b, `{"uri":`...)
	b = AppendString(b, rc.URI)
	b = appendOptString(b, "mimeType", rc.MimeType)
	if rc.Blob != nil {
		b = append(b, `,"blob":"`...)
		b = base64.StdEncoding.AppendEncode(b, rc.Blob)
		b = append(b, '"')
	} else {
		b = append(b, `,"text":`...)
		b = AppendString(b, rc.Text)
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
// header before anything else (HTTP: MCP-Protocol-Version, -32020).
func claimedVersion(params json.RawMessage) (string, bool) {
	var env struct {
		Meta struct {
			Version *string `json:"io.modelcontextprotocol/protocolVersion"`
		} `json:"_meta"`
	}
	if params == nil || json.Unmarshal(params, &env) != nil || env.Meta.Version == nil {
		return "", false
	}
	return *env.Meta.Version, true
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
