package runtime

// The dispatcher is transport-neutral and stateless per request. Hook
// points for transports and era layers:
//
//   - handle(ctx, req, out): a whole modern request (method check, _meta
//     envelope, dispatch). stdio calls it per request line.
//   - checkMethod, scanParams (envelope, claimed version, header target),
//     requestName, lookupTool: the steps a transport runs itself when it
//     must order its own checks between them (HTTP header comparisons,
//     scopes). reqState.useScan hands the scan on, so that dispatch does
//     not walk params again.
//   - call(ctx, rs, params): dispatch with a reqState the caller built
//     (HTTP after its checks; a 2025-11-25 session layer with meta and caps
//     from initialize and, in rs.session, the session that makes
//     elicitation and sampling real round trips).
//   - withShutdown(ctx, ch): closing ch ends listen streams with their
//     result; cancelling ctx ends them (and any request) without one.
//   - appendResponse / appendNotification: the wire envelopes.
//
// Era and connection state (sessions, negotiated versions, in-flight ids)
// belong to the transport, never to the Server.

import (
	"context"
	"encoding/json"
	"errors"
	"unsafe"

	"github.com/mcpgen-dev/mcpgen/runtime/wire"
)

// response is the dispatcher's answer to one request: an encoded result
// object or a JSON-RPC error. The transport adds the envelope and the id
// (appendResponse) and decides whether to send it at all: a request the
// client cancelled gets no response.
type response struct {
	result []byte
	err    *Error
	// isError: result is a tools/call result with isError true.
	isError bool
}

// The methods of the 2026-07-28 revision.
const (
	methodDiscover          = "server/discover"
	methodToolsList         = "tools/list"
	methodToolsCall         = "tools/call"
	methodResourcesList     = "resources/list"
	methodTemplatesList     = "resources/templates/list"
	methodResourcesRead     = "resources/read"
	methodPromptsList       = "prompts/list"
	methodPromptsGet        = "prompts/get"
	methodComplete          = "completion/complete"
	methodListen            = "subscriptions/listen"
	notificationCancelled   = "notifications/cancelled"
	notificationInitialized = "notifications/initialized"
)

// removedMethods existed before 2026-07-28. They are answered -32601 even
// though a legacy session layer may serve some of them on its own path.
func isRemovedMethod(method string) bool {
	switch method {
	case "initialize", "ping", "logging/setLevel", "resources/subscribe", "resources/unsubscribe",
		"tasks/result", "tasks/list":
		return true
	}
	return false
}

// checkMethod answers whether method is served right now: unknown and
// removed methods, and methods behind a capability this server does not
// advertise, are -32601.
func (s *Server) checkMethod(method string) *Error {
	c := s.caps()
	var ok bool
	switch method {
	case methodDiscover, methodListen:
		ok = true
	case methodToolsList, methodToolsCall:
		ok = c.tools
	case methodResourcesList, methodTemplatesList, methodResourcesRead:
		ok = c.resources
	case methodPromptsList, methodPromptsGet:
		ok = c.prompts
	case methodComplete:
		ok = c.completions
	case methodTasksGet, methodTasksUpdate, methodTasksCancel:
		ok = c.tasks
	}
	if ok {
		return nil
	}
	e := MethodNotFound(method)
	if isRemovedMethod(method) {
		e.Message += " (removed in " + ProtocolVersion + ")"
	}
	if method == "initialize" {
		// A modern-only server lists what it speaks so that a dual-era
		// client knows not to fall back.
		e.Data = map[string]any{"supported": []string{ProtocolVersion}}
	}
	return e
}

// handle is the transport-neutral entry point of a modern (2026-07-28)
// request: it checks the method and the _meta envelope, then dispatches.
// Notifications related to the request (progress, listen notifications) go
// to out before handle returns; out must stay usable until then.
func (s *Server) handle(ctx context.Context, req *request, out notifier) response {
	if e := s.checkMethod(req.Method); e != nil {
		return response{err: e}
	}
	// One walk over params for the envelope and the call target.
	scan := scanParams(req.Params)
	meta, e := scan.envelope()
	if e != nil {
		return response{err: e}
	}
	rs := &reqState{
		method: req.Method,
		id:     req.ID,
		meta:   meta,
		out:    out,
	}
	rs.useScan(&scan)
	return s.call(ctx, rs, req.Params)
}

// call runs a request whose envelope has been accepted. The legacy session
// layer calls it directly, with a reqState built from its session instead of
// the request's _meta. A handler panic is logged with its stack and answered
// as an error; the server keeps serving.
func (s *Server) call(ctx context.Context, rs *reqState, params json.RawMessage) (resp response) {
	defer rs.finish()
	defer func() {
		if r := recover(); r != nil {
			resp = s.panicked(rs, r)
		}
	}()
	ctx = withState(ctx, rs)
	if len(s.opts.Interceptors) > 0 {
		return s.intercept(ctx, rs, params)
	}
	return s.dispatch(ctx, rs, params)
}

// dispatch runs the method's handler.
func (s *Server) dispatch(ctx context.Context, rs *reqState, params json.RawMessage) response {
	switch rs.method {
	case methodDiscover:
		return s.discover()
	case methodToolsList:
		if scopes, ok := listScopesFrom(ctx); ok {
			return s.toolsListFor(params, scopes)
		}
		return s.toolsList(params)
	case methodToolsCall:
		return s.toolsCall(ctx, rs, params)
	case methodResourcesList:
		return s.resourcesList(params)
	case methodTemplatesList:
		return s.templatesList(params)
	case methodResourcesRead:
		return s.resourcesRead(ctx, rs, params)
	case methodPromptsList:
		return s.promptsList(params)
	case methodPromptsGet:
		return s.promptsGet(ctx, rs, params)
	case methodComplete:
		return s.complete(ctx, params)
	case methodListen:
		return s.listen(ctx, rs, params)
	case methodTasksGet, methodTasksUpdate, methodTasksCancel:
		return s.tasksCall(ctx, rs, params)
	}
	return response{err: MethodNotFound(rs.method)}
}

func (s *Server) discover() response {
	r := s.beginResult(make([]byte, 0, 256+len(s.serverInfo)), "complete")
	r.key("supportedVersions")
	r.b = append(r.b, `["`+ProtocolVersion+`"]`...)
	r.key("capabilities")
	r.b = appendCapabilities(r.b, s.caps())
	if ins := s.surfaceInstructions(); ins != "" {
		r.key("instructions")
		r.b = wire.AppendString(r.b, ins)
	}
	return response{result: s.finishResult(r, s.listCache(), nil)}
}

// listPage answers one page of a list method: member is the result's
// array member, defs the current definitions in registration order.
func (s *Server) listPage(kind, member string, params json.RawMessage, defs []string) response {
	var p listParams
	if e := decodeParams(params, &p); e != nil {
		return response{err: e}
	}
	start := 0
	if p.Cursor != nil {
		var e *Error
		if start, e = s.parseCursor(kind, *p.Cursor, len(defs)); e != nil {
			return response{err: e}
		}
	}
	end := min(start+s.opts.PageSize, len(defs))
	size := 64 + len(s.serverInfo)
	for _, d := range defs[start:end] {
		size += len(d) + 1
	}
	r := s.beginResult(make([]byte, 0, size), "complete")
	r.key(member)
	r.b = append(r.b, '[')
	for i, d := range defs[start:end] {
		if i > 0 {
			r.b = append(r.b, ',')
		}
		r.b = append(r.b, d...)
	}
	r.b = append(r.b, ']')
	if end < len(defs) {
		r.key("nextCursor")
		r.b = wire.AppendString(r.b, s.makeCursor(kind, end))
	}
	return response{result: s.finishResult(r, s.listCache(), nil)}
}

func (s *Server) toolsList(params json.RawMessage) response {
	return s.listPage("tools", "tools", params, s.servedDefinitions(nil))
}

func (s *Server) resourcesList(params json.RawMessage) response {
	s.mu.RLock()
	defs := make([]string, len(s.resources))
	for i, r := range s.resources {
		defs[i] = r.Definition
	}
	s.mu.RUnlock()
	return s.listPage("resources", "resources", params, defs)
}

func (s *Server) templatesList(params json.RawMessage) response {
	s.mu.RLock()
	defs := make([]string, len(s.templates))
	for i, t := range s.templates {
		defs[i] = t.def.Definition
	}
	s.mu.RUnlock()
	return s.listPage("templates", "resourceTemplates", params, defs)
}

func (s *Server) promptsList(params json.RawMessage) response {
	s.mu.RLock()
	defs := make([]string, len(s.prompts))
	for i, p := range s.prompts {
		defs[i] = p.Definition
	}
	s.mu.RUnlock()
	return s.listPage("prompts", "prompts", params, defs)
}

// toolErrorResult is an isError result with one text block: tool
// execution errors are reported to the model in-band, not as protocol
// errors.
func (s *Server) toolErrorResult(text string) []byte {
	r := s.beginResult(make([]byte, 0, 96+len(text)+len(s.serverInfo)), "complete")
	r.key("content")
	r.b = append(r.b, `[{"type":"text","text":`...)
	r.b = wire.AppendString(r.b, text)
	r.b = append(r.b, `}],"isError":true`...)
	return s.finishResult(r, nil, nil)
}

func (s *Server) toolsCall(ctx context.Context, rs *reqState, params json.RawMessage) response {
	p, e := rs.targetParams(params, "name")
	if e != nil {
		return response{err: e}
	}
	if !p.hasTarget {
		return response{err: InvalidParams("missing params.name")}
	}
	name := p.target
	args := p.arguments
	if args == nil {
		args = []byte("{}")
	} else if args[0] != '{' {
		return response{err: InvalidParams("params.arguments must be an object")}
	}
	if s.opts.Discovery && isMetaTool(name) {
		if e := s.beginMRTR(ctx, rs, name, args, &p.mrtrParams); e != nil {
			return response{err: e}
		}
		return s.metaCall(ctx, rs, name, args)
	}
	tool, ok := s.lookupTool(name)
	if !ok {
		return response{err: InvalidParams("Unknown tool: %q", name)}
	}
	if unknown, reason := s.refusal(tool); unknown {
		return response{err: InvalidParams("Unknown tool: %q", name)}
	} else if reason != "" {
		return response{result: s.toolErrorResult(reason), isError: true}
	}
	if e := s.beginMRTR(ctx, rs, name, args, &p.mrtrParams); e != nil {
		return response{err: e}
	}
	return s.callTool(ctx, rs, tool, args)
}

// runTool calls a tool and encodes its result, for tools/call and
// call_operation alike; the request's MRTR state has begun.
func (s *Server) runTool(ctx context.Context, rs *reqState, tool *ToolDef, args []byte) response {
	name := tool.Name
	var selected []string
	if tool.fields != nil {
		var msg string
		if args, selected, msg = tool.fields.takeSelection(args); msg != "" {
			return response{result: s.toolErrorResult(msg), isError: true}
		}
	}
	res, err := tool.Call(ctx, args)
	if err != nil {
		if isInputRequired(err) {
			return s.inputRequired(ctx, rs)
		}
		var rpcErr *Error
		if errors.As(err, &rpcErr) {
			return response{err: rpcErr}
		}
		var outErr *InvalidOutputError
		if errors.As(err, &outErr) {
			return response{err: s.invalidOutput(outErr)}
		}
		return response{result: s.toolErrorResult(err.Error()), isError: true}
	}
	if res == nil {
		res = &ToolResult{}
	}
	var structured []byte
	if res.Structured != nil {
		structured, err = compactJSON(res.Structured)
		if err != nil {
			s.logger.Error("tool returned invalid structured content", "tool", name)
			return response{result: s.toolErrorResult("internal error: invalid structured content"), isError: true}
		}
	}
	var extraMeta []byte
	if selected != nil && !res.IsError && structured != nil {
		cp := *res // the handler's result may be shared: project a copy
		res = &cp
		extraMeta = tool.fields.applySelection(res, &structured, selected)
	}
	if limit := s.budgetBytes(); limit > 0 && !res.IsError {
		cp := *res // the handler's result may be shared: cut a copy
		res = &cp
		if t, ok := s.applyBudget(tool, res, &structured, limit); ok {
			if len(extraMeta) > 0 {
				extraMeta = append(extraMeta, ',')
			}
			extraMeta = append(extraMeta, t.meta()...)
		}
	}
	// Sized for the whole result so that it is never copied while built:
	// the fixed members and _meta (about 160 bytes), structuredContent,
	// and its text copy in which escaping at most doubles each byte.
	size := 160 + len(s.serverInfo) + 3*len(structured)
	for i := range res.Content {
		size += 32 + len(res.Content[i].Text) + len(res.Content[i].Data)*4/3
	}
	r := s.beginResult(make([]byte, 0, size), "complete")
	r.key("content")
	if len(res.Content) == 0 && structured != nil {
		// Clients without structured support read the text block.
		r.b = append(r.b, `[{"type":"text","text":`...)
		// A read-only view, not string(structured): that copy was one
		// allocation per call, and AppendString does not keep its argument.
		r.b = wire.AppendString(r.b, unsafe.String(unsafe.SliceData(structured), len(structured)))
		r.b = append(r.b, `}]`...)
	} else {
		r.b = appendContentList(r.b, res.Content)
	}
	if structured != nil {
		r.key("structuredContent")
		r.b = append(r.b, structured...)
	}
	if res.IsError {
		r.key("isError")
		r.b = append(r.b, "true"...)
	}
	return response{result: s.finishResult(r, nil, extraMeta), isError: res.IsError}
}

func (s *Server) resourcesRead(ctx context.Context, rs *reqState, params json.RawMessage) response {
	p, e := rs.targetParams(params, "uri")
	if e != nil {
		return response{err: e}
	}
	if !p.hasTarget {
		return response{err: InvalidParams("missing params.uri")}
	}
	uri := p.target
	var (
		read     func() ([]ResourceContents, error)
		mimeType string
		cache    = s.opts.ReadCache
	)
	s.mu.RLock()
	if i, ok := s.resIndex[uri]; ok {
		def := s.resources[i]
		read = func() ([]ResourceContents, error) { return def.Read(ctx, uri) }
		mimeType = def.MimeType
		if def.Cache != nil {
			cache = *def.Cache
		}
	} else {
		for _, t := range s.templates {
			vars, ok := t.matcher.match(uri)
			if !ok {
				continue
			}
			def := t.def
			read = func() ([]ResourceContents, error) { return def.Read(ctx, uri, vars) }
			mimeType = def.MimeType
			if def.Cache != nil {
				cache = *def.Cache
			}
			break
		}
	}
	s.mu.RUnlock()
	if read == nil {
		return response{err: ResourceNotFound(uri)}
	}
	if e := s.beginMRTR(ctx, rs, uri, nil, &p.mrtrParams); e != nil {
		return response{err: e}
	}
	contents, err := read()
	if err != nil {
		return s.handlerError(ctx, rs, err)
	}
	size := 64 + len(s.serverInfo)
	for i := range contents {
		size += 48 + len(uri) + len(contents[i].Text) + len(contents[i].Blob)*4/3
	}
	r := s.beginResult(make([]byte, 0, size), "complete")
	r.key("contents")
	r.b = append(r.b, '[')
	for i := range contents {
		c := contents[i]
		if c.URI == "" {
			c.URI = uri
		}
		if c.MimeType == "" {
			c.MimeType = mimeType
		}
		if i > 0 {
			r.b = append(r.b, ',')
		}
		r.b = appendResourceContents(r.b, &c)
	}
	r.b = append(r.b, ']')
	hint := &cache
	if rs.mrtr.retry {
		// A retry's result depends on answers from one user: never cached.
		hint = nil
	}
	return response{result: s.finishResult(r, hint, nil)}
}

// handlerError maps an error of a resource, prompt or completion handler:
// input-required becomes an input_required result, an *Error is sent as
// is, anything else is logged and answered -32603 without its text.
func (s *Server) handlerError(ctx context.Context, rs *reqState, err error) response {
	if isInputRequired(err) && rs.mrtr != nil {
		return s.inputRequired(ctx, rs)
	}
	var rpcErr *Error
	if errors.As(err, &rpcErr) {
		return response{err: rpcErr}
	}
	s.logger.Error("handler failed", "method", rs.method, "error", err)
	return response{err: errInternal()}
}

func (s *Server) promptsGet(ctx context.Context, rs *reqState, params json.RawMessage) response {
	p, e := rs.targetParams(params, "name")
	if e != nil {
		return response{err: e}
	}
	if !p.hasTarget {
		return response{err: InvalidParams("missing params.name")}
	}
	name := p.target
	s.mu.RLock()
	i, ok := s.promptIdx[name]
	var prompt *PromptDef
	if ok {
		prompt = s.prompts[i]
	}
	s.mu.RUnlock()
	if !ok {
		return response{err: InvalidParams("Unknown prompt: %q", name)}
	}
	var args map[string]string
	if raw := p.arguments; raw != nil {
		if json.Unmarshal(raw, &args) != nil {
			return response{err: InvalidParams("params.arguments must be an object of strings")}
		}
	}
	if args == nil {
		args = map[string]string{}
	}
	var digestSource []byte
	if len(args) > 0 {
		digestSource, _ = json.Marshal(args) // sorted keys: canonical
	}
	if e := s.beginMRTR(ctx, rs, name, digestSource, &p.mrtrParams); e != nil {
		return response{err: e}
	}
	res, err := prompt.Get(ctx, args)
	if err != nil {
		return s.handlerError(ctx, rs, err)
	}
	if res == nil {
		res = &PromptResult{}
	}
	r := s.beginResult(make([]byte, 0, 256), "complete")
	if res.Description != "" {
		r.key("description")
		r.b = wire.AppendString(r.b, res.Description)
	}
	r.key("messages")
	r.b = append(r.b, '[')
	for i := range res.Messages {
		m := &res.Messages[i]
		if i > 0 {
			r.b = append(r.b, ',')
		}
		r.b = append(r.b, `{"role":`...)
		r.b = wire.AppendString(r.b, m.Role)
		r.b = append(r.b, `,"content":`...)
		r.b = appendContent(r.b, &m.Content)
		r.b = append(r.b, '}')
	}
	r.b = append(r.b, ']')
	return response{result: s.finishResult(r, nil, nil)}
}

// maxCompletionValues is the protocol's cap on completion values.
const maxCompletionValues = 100

func (s *Server) complete(ctx context.Context, params json.RawMessage) response {
	var p completeParams
	if e := decodeParams(params, &p); e != nil {
		return response{err: e}
	}
	if p.Ref == nil {
		return response{err: InvalidParams("missing params.ref")}
	}
	if p.Argument == nil || p.Argument.Name == nil || p.Argument.Value == nil {
		return response{err: InvalidParams("params.argument needs name and value")}
	}
	var fn CompleteFunc
	s.mu.RLock()
	var e *Error
	switch p.Ref.Type {
	case "ref/prompt":
		if i, ok := s.promptIdx[p.Ref.Name]; ok {
			fn = s.prompts[i].Complete[*p.Argument.Name]
		} else {
			e = InvalidParams("Unknown prompt: %q", p.Ref.Name)
		}
	case "ref/resource":
		if i, ok := s.tplIndex[p.Ref.URI]; ok {
			fn = s.templates[i].def.Complete[*p.Argument.Name]
		} else {
			e = InvalidParams("Unknown resource template: %q", p.Ref.URI)
		}
	default:
		e = InvalidParams("params.ref.type must be ref/prompt or ref/resource")
	}
	s.mu.RUnlock()
	if e != nil {
		return response{err: e}
	}
	var c Completion
	if fn != nil {
		req := CompleteRequest{Argument: *p.Argument.Name, Value: *p.Argument.Value}
		if p.Context != nil {
			req.Context = p.Context.Arguments
		}
		var err error
		if c, err = fn(ctx, req); err != nil {
			var rpcErr *Error
			if errors.As(err, &rpcErr) {
				return response{err: rpcErr}
			}
			s.logger.Error("completion handler failed", "error", err)
			return response{err: errInternal()}
		}
	}
	if len(c.Values) > maxCompletionValues {
		c.Total = max(c.Total, len(c.Values))
		c.Values = c.Values[:maxCompletionValues]
		c.HasMore = true
	}
	r := s.beginResult(make([]byte, 0, 128), "complete")
	r.key("completion")
	r.b = append(r.b, `{"values":`...)
	r.b = appendStringList(r.b, c.Values)
	if c.Total > 0 {
		r.b = append(r.b, `,"total":`...)
		r.b = appendFloat(r.b, float64(c.Total))
	}
	if c.HasMore {
		r.b = append(r.b, `,"hasMore":true`...)
	}
	r.b = append(r.b, '}')
	return response{result: s.finishResult(r, nil, nil)}
}
