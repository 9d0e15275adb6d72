package runtime

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime/debug"
	"sync"
)

// Interceptor wraps the requests a Server dispatches: logging, auth
// checks, rate limits, audit records and telemetry belong here. It
// receives the request's context, a description of the call and next,
// which runs the rest of the chain and then the handler. An interceptor
// may:
//
//   - pass on a derived context: next(ctx) hands it to the interceptors
//     after it and to the handler;
//   - look at the outcome next returns, and return it (or another);
//   - short-circuit: return an Outcome without calling next. Set Err to
//     answer with a JSON-RPC error (its code, message and data are sent
//     as they are), or, for tools/call, return call.ToolError(text) to
//     answer with an isError result the model reads.
//
// Interceptors run on stdio and Streamable HTTP alike, for requests of
// the 2026-07-28 revision and of 2025-11-25 sessions, for every method
// the server dispatches: server/discover, the list methods, tools/call,
// resources/read (fixed resources and templates), prompts/get,
// completion/complete, subscriptions/listen, and the session methods of
// the 2025 era (ping, logging/setLevel, resources/subscribe and
// resources/unsubscribe). Requests the transport rejects before dispatch
// never reach them: malformed messages, unknown or unadvertised methods,
// an invalid _meta envelope, HTTP header mismatches, failed token checks.
// The initialize handshake of the 2025 era is not a call either; it
// opens the session that later calls report in Call.SessionID.
//
// Options.Interceptors lists them outermost first. A panic in an
// interceptor or a handler is recovered: it is logged and answered as an
// internal error (an isError result for tools/call), and the server
// keeps serving. A handler's panic reaches the interceptors as that
// outcome.
type Interceptor func(ctx context.Context, call *Call, next Next) Outcome

// Next runs the rest of an interceptor chain and the handler with ctx.
type Next func(ctx context.Context) Outcome

// Call describes one request to interceptors. Its fields must not be
// modified; byte slices refer to the request and are valid only until
// the interceptor returns.
type Call struct {
	// Method is the JSON-RPC method, such as "tools/call".
	Method string
	// Target is the tool or prompt name (tools/call, prompts/get) or the
	// resource URI (resources/read); empty for other methods.
	Target string
	// RequestID is the JSON-RPC id as sent: a JSON string or number.
	RequestID json.RawMessage
	// Params is the request's params object as sent (with _meta).
	Params json.RawMessage
	// Arguments is params.arguments of tools/call and prompts/get, as
	// sent; nil when absent and for other methods.
	Arguments json.RawMessage
	// Identity is the verified caller (HTTP with a TokenVerifier, stdio
	// with StdioOptions.Identity), or nil.
	Identity *Identity
	// Meta is what the client sent in _meta; for a 2025-11-25 session,
	// what initialize declared, with the request's own progress token and
	// trace context. Meta.ProtocolVersion is the revision in use.
	Meta *RequestMeta
	// SessionID is the Mcp-Session-Id of a 2025-11-25 HTTP session; empty
	// otherwise (stdio sessions have no id, and 2026-07-28 has none).
	SessionID string
	// Transport is "stdio" or "http".
	Transport string

	srv *Server
}

// Outcome is how a call ended: a result or a JSON-RPC error.
type Outcome struct {
	// Result is the encoded result object (with resultType and _meta).
	Result json.RawMessage
	// IsError reports a tools/call result with isError true: the tool
	// failed and told the model so, while the JSON-RPC call succeeded.
	IsError bool
	// Err, when set, is the JSON-RPC error the request is answered with;
	// Result is then ignored.
	Err *Error
}

// ToolError returns the outcome of a tools/call that failed in-band: an
// isError result with text as its one content block. An interceptor
// short-circuits a tool call with it when the model should read why
// (a rate limit, a policy refusal) rather than the client see an error.
func (c *Call) ToolError(text string) Outcome {
	return Outcome{Result: c.srv.toolErrorResult(text), IsError: true}
}

// intercept runs rs through the interceptor chain, with the handler at
// its end. ctx already carries rs.
func (s *Server) intercept(ctx context.Context, rs *reqState, params json.RawMessage) response {
	if _, internal := rs.out.(*legacyNotifier); internal {
		// The listen registration a 2025 session keeps for its
		// subscriptions is the runtime's own, not a client's request.
		return s.dispatch(ctx, rs, params)
	}
	c := s.newCall(ctx, rs.method, rs.id, params, rs.meta, rs.out)
	switch rs.method {
	case methodToolsCall, methodPromptsGet, methodResourcesRead:
		key := "name"
		if rs.method == methodResourcesRead {
			key = "uri"
		}
		if p, e := rs.targetParams(params, key); e == nil && p.hasTarget {
			c.Target = p.target
			if key == "name" {
				c.Arguments = p.arguments
			}
		}
	}
	if ls := rs.session.ls; ls != nil {
		c.SessionID = ls.sessionID
	}
	return s.runChain(ctx, c, func(ctx context.Context) (resp response) {
		defer func() {
			if r := recover(); r != nil {
				resp = s.panicked(rs, r)
			}
		}()
		return s.dispatch(ctx, rs, params)
	})
}

// interceptSession runs a request of a 2025-11-25 session through the
// interceptors when the session layer answers it itself (ping,
// logging/setLevel, resources/subscribe and resources/unsubscribe). The
// methods it hands on to the dispatcher are intercepted there.
func (ls *legacySession) interceptSession(ctx context.Context, req *request, lc legacyCall) response {
	s := ls.srv
	switch req.Method {
	case "ping", "logging/setLevel", "resources/subscribe", "resources/unsubscribe":
	default:
		return ls.dispatch(ctx, req, lc)
	}
	if len(s.opts.Interceptors) == 0 {
		return ls.dispatch(ctx, req, lc)
	}
	scan := scanParams(orEmpty(req.Params))
	c := s.newCall(ctx, req.Method, req.ID, req.Params, ls.requestMeta(&scan), lc.out)
	c.SessionID = ls.sessionID
	if req.Method != "ping" && req.Method != "logging/setLevel" && scan.err == nil {
		c.Target = scan.target.URI
	}
	return s.runChain(ctx, c, func(ctx context.Context) (resp response) {
		defer func() {
			if r := recover(); r != nil {
				s.logger.Error("handler panic", "method", req.Method, "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
				resp = response{err: errInternal()}
			}
		}()
		return ls.dispatch(ctx, req, lc)
	})
}

func (s *Server) newCall(ctx context.Context, method string, id, params json.RawMessage, meta *RequestMeta, out notifier) *Call {
	c := &Call{Method: method, RequestID: id, Params: params, Meta: meta, srv: s}
	if meta == nil {
		c.Meta = &RequestMeta{}
	}
	if id, ok := IdentityFrom(ctx); ok {
		c.Identity = &id
	}
	switch out.(type) {
	case *stdioConn:
		c.Transport = "stdio"
	case *exchange:
		c.Transport = "http"
	}
	return c
}

// runChain calls the interceptors in order, the first outermost, with
// handler at the end.
func (s *Server) runChain(ctx context.Context, c *Call, handler func(context.Context) response) response {
	chain := s.opts.Interceptors
	var next func(i int) Next
	next = func(i int) Next {
		if i == len(chain) {
			return func(ctx context.Context) Outcome {
				resp := handler(ctx)
				return Outcome{Result: resp.result, IsError: resp.isError, Err: resp.err}
			}
		}
		return func(ctx context.Context) Outcome {
			return chain[i](ctx, c, next(i+1))
		}
	}
	o := next(0)(ctx)
	if o.Err != nil {
		return response{err: o.Err}
	}
	if o.Result == nil {
		// An interceptor returned the zero Outcome: a bug in it, which the
		// client must not see as an empty success.
		s.logger.Error("interceptor returned neither a result nor an error", "method", c.Method)
		return response{err: errInternal()}
	}
	return response{result: o.Result, isError: o.IsError}
}

// panicked logs a recovered panic of a handler or an interceptor and
// returns the answer to its request: an isError result for tools/call,
// -32603 otherwise.
func (s *Server) panicked(rs *reqState, r any) response {
	s.logger.Error("handler panic", "method", rs.method, "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
	if rs.method == methodToolsCall {
		return response{result: s.toolErrorResult("internal error"), isError: true}
	}
	return response{err: errInternal()}
}

// observe tells Options.OnSession that the session began, and arranges
// for the end function to run when the session's context ends.
func (ls *legacySession) observe(transport string) {
	hook := ls.srv.opts.OnSession
	if hook == nil {
		return
	}
	end := hook(SessionInfo{ID: ls.sessionID, ProtocolVersion: ls.version, Transport: transport, ClientInfo: ls.clientInfo})
	if end != nil {
		ls.endSession = sync.OnceFunc(end)
		context.AfterFunc(ls.ctx, ls.endSession)
	}
}

// ended reports the session's end to Options.OnSession, for transports
// whose session context outlives the session (stdio's is the caller's).
func (ls *legacySession) ended() {
	if ls.endSession != nil {
		ls.endSession()
	}
}
