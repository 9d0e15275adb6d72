package runtime

// Era pinning of a stdio connection. A stdio process serves one client, so
// the first message that names an era decides it for the connection:
//
//   - initialize pins the 2025 era (the handshake negotiates the version);
//   - a request with a 2026-07-28 _meta claim pins the modern era;
//   - server/discover is answered without pinning (a dual-era client may
//     probe first), as are ping and claim-less requests before any pin
//     (the latter get the modern envelope error);
//   - initialize on a modern-pinned connection is -32022.
//
// The decision is made in reading order, before the request's goroutine
// starts, so that pipelined requests see the era their predecessors set.

import (
	"context"
	"sync"
)

type era int

const (
	eraUnpinned era = iota
	eraModern
	eraLegacy
)

// stdioEra is the era state of one stdio connection.
type stdioEra struct {
	mu   sync.Mutex
	era  era
	sess *legacySession
}

// route decides how req is served and pins the connection's era when req
// names one. ctx is the connection's context (it bounds a legacy
// session's listen registrations).
func (c *stdioConn) route(ctx context.Context, req *request) func(context.Context) response {
	e := &c.era
	e.mu.Lock()
	defer e.mu.Unlock()
	modern := func(rctx context.Context) response { return c.srv.handle(rctx, req, c) }
	if req.Method == "initialize" {
		switch e.era {
		case eraModern:
			requested := legacyRequestedVersion(req.Params)
			return func(context.Context) response { return response{err: errUnsupportedVersion(requested)} }
		case eraLegacy:
			return c.legacyServe(e.sess, req)
		}
		ls, result, rpcErr := c.srv.newLegacySession(ctx, req.Params)
		if rpcErr != nil {
			return func(context.Context) response { return response{err: rpcErr} }
		}
		ls.sink = c
		if err := ls.listenListChanged(ctx); err != nil {
			c.logger.Warn("stdio: list_changed notifications unavailable for this session", "error", err.Message)
		}
		e.era, e.sess = eraLegacy, ls
		ls.observe("stdio")
		return func(context.Context) response { return response{result: result} }
	}
	switch e.era {
	case eraLegacy:
		return c.legacyServe(e.sess, req)
	case eraModern:
		return modern
	}
	if req.Method == "ping" {
		// Allowed before initialize in the 2025 era; pins nothing.
		return func(context.Context) response { return response{result: []byte(`{}`)} }
	}
	if v, ok := claimedVersion(req.Params); ok && v == ProtocolVersion && req.Method != methodDiscover {
		e.era = eraModern
	}
	return modern
}

func (c *stdioConn) legacyServe(ls *legacySession, req *request) func(context.Context) response {
	return func(rctx context.Context) response {
		return ls.serve(rctx, req, legacyCall{out: c, send: c})
	}
}

// deliverResponse hands a response from the client to the legacy request
// waiting for it; it reports whether one was.
func (c *stdioConn) deliverResponse(msg []byte) bool {
	c.era.mu.Lock()
	ls := c.era.sess
	c.era.mu.Unlock()
	return ls != nil && ls.deliver(msg)
}

// closeEra waits for a legacy session's listen registrations, which end
// with the connection's shutdown signal.
func (c *stdioConn) closeEra() {
	c.era.mu.Lock()
	ls := c.era.sess
	c.era.mu.Unlock()
	if ls != nil {
		ls.wg.Wait()
		ls.ended()
	}
}

// sendMessage implements messageSender: a whole message, one line.
func (c *stdioConn) sendMessage(msg []byte) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	c.wbuf = append(c.wbuf[:0], msg...)
	return c.flush()
}
