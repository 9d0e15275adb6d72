package runtime

import (
	"context"
	"encoding/json"
	"sync"
)

type identityKey struct{}
type scopeEnforcementKey struct{}

// withScopeEnforcement marks ctx as a request whose transport enforces
// ToolDef.Scopes (HTTP with AuthOptions), so that call_operation enforces
// the scopes of the operation it runs as the transport does for
// tools/call.
func withScopeEnforcement(ctx context.Context) context.Context {
	return context.WithValue(ctx, scopeEnforcementKey{}, true)
}

// callerScopes returns the caller's scopes when its transport enforces
// scopes; ok is false when scopes are not enforced.
func callerScopes(ctx context.Context) (scopes []string, ok bool) {
	if enforced, _ := ctx.Value(scopeEnforcementKey{}).(bool); !enforced {
		return nil, false
	}
	id, _ := IdentityFrom(ctx)
	return id.Scopes, true
}

type reqStateKey struct{}
type scopesKey struct{}

// withListScopes returns ctx for a tools/list that shows only the tools
// scopes allow: the caller authenticated over HTTP.
func withListScopes(ctx context.Context, scopes []string) context.Context {
	if scopes == nil {
		scopes = []string{}
	}
	return context.WithValue(ctx, scopesKey{}, scopes)
}

func listScopesFrom(ctx context.Context) ([]string, bool) {
	s, ok := ctx.Value(scopesKey{}).([]string)
	return s, ok
}

// WithIdentity returns ctx carrying the verified caller. Transports call it
// (stdio from StdioOptions.Identity, HTTP from the token verifier); tests use
// it to act as a caller.
func WithIdentity(ctx context.Context, id Identity) context.Context {
	return context.WithValue(ctx, identityKey{}, id)
}

// IdentityFrom returns the verified caller of the request, if any.
func IdentityFrom(ctx context.Context) (Identity, bool) {
	id, ok := ctx.Value(identityKey{}).(Identity)
	return id, ok
}

// MetaFrom returns what the client sent in the request's _meta, or nil
// outside a request. The value must not be modified.
func MetaFrom(ctx context.Context) *RequestMeta {
	if rs := stateFrom(ctx); rs != nil {
		return rs.meta
	}
	return nil
}

// notifier sends a notification related to one request (progress) or to
// one subscription (listen) to the client, before the request's response.
// The transport implements it: stdio writes a line, HTTP an SSE event.
// notify must be safe for concurrent use; an error means the client is
// gone.
type notifier interface {
	notify(method string, params []byte) error
}

// reqState is everything the runtime knows about one request in flight. It
// travels in the handler's context. Era and connection state (sessions,
// negotiated versions) stay with the transport, which fills meta and out.
type reqState struct {
	method string
	id     json.RawMessage
	meta   *RequestMeta
	// caps, when non-zero, replaces the capabilities parsed from meta (a
	// legacy session sets it from initialize); otherwise Elicit parses
	// meta.ClientCapabilities when it first needs them.
	caps clientCaps
	out  notifier

	// target, when scanned is set, is what the transport's scan of params
	// found for a tools/call, prompts/get or resources/read (targetErr its
	// error): the dispatcher then does not walk params again.
	scanned   bool
	target    callTarget
	targetErr *Error

	progMu       sync.Mutex
	lastProgress float64
	sentProgress bool
	// done is set when the response is decided: later progress is dropped
	// so that nothing related to the request follows its response.
	done bool

	// mrtr is set for the methods that may answer input_required. It
	// points at mrtrStore, so that beginMRTR allocates nothing.
	mrtr      *mrtrState
	mrtrStore mrtrState

	// session, when its ls is set, performs elicitation and
	// server-to-client requests (sampling/createMessage, roots/list) as
	// real round trips instead of answering input_required. The 2025-11-25
	// session layer sets it.
	session sessionPeer
}

// sessionPeer is the 2025-11-25 session a request arrived in and the way
// to send it messages. A value in reqState, so that a legacy request
// allocates nothing for it.
type sessionPeer struct {
	ls   *legacySession
	send messageSender
}

// useScan takes the call target of rs.method from s, the scan of the
// request's params that accepted its envelope.
func (rs *reqState) useScan(s *paramScan) {
	switch rs.method {
	case methodToolsCall, methodPromptsGet:
		rs.target, rs.targetErr = s.callTarget("name")
	case methodResourcesRead:
		rs.target, rs.targetErr = s.callTarget("uri")
	default:
		return
	}
	rs.scanned = true
}

// targetParams is what the transport's scan of params found, or, for a
// reqState built without one, what a scan finds now.
func (rs *reqState) targetParams(params json.RawMessage, targetKey string) (callTarget, *Error) {
	if rs.scanned {
		return rs.target, rs.targetErr
	}
	s := scanParams(params)
	return s.callTarget(targetKey)
}

func withState(ctx context.Context, rs *reqState) context.Context {
	return context.WithValue(ctx, reqStateKey{}, rs)
}

func stateFrom(ctx context.Context) *reqState {
	rs, _ := ctx.Value(reqStateKey{}).(*reqState)
	return rs
}

// finish marks the response as decided.
func (rs *reqState) finish() {
	rs.progMu.Lock()
	rs.done = true
	rs.progMu.Unlock()
}
