package runtime

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/mcpgen-dev/mcpgen/runtime/wire"
)

// maxListeners bounds concurrent subscriptions/listen streams per Server,
// so that a client cannot pin unbounded memory.
const maxListeners = 1024

// subscriptions is the registry of open subscriptions/listen streams.
type subscriptions struct {
	mu        sync.Mutex
	listeners map[*listener]struct{}
}

// listener is one open listen stream. Its mutex orders everything sent on
// the stream: the acknowledgement first, then notifications, and nothing
// after it closes.
type listener struct {
	id        json.RawMessage
	filter    subscriptionFilter // the honoured subset
	resources map[string]bool
	out       notifier
	// tasks: the listen request declared the tasks extension, so its
	// caller hears the status changes of the tasks it created (subject).
	tasks   bool
	subject string

	mu     sync.Mutex
	closed bool
}

type shutdownKey struct{}

// withShutdown returns ctx carrying the transport's shutdown signal: when
// done closes, open listen streams end gracefully with their result
// (whereas a cancelled request context ends them without a response).
func withShutdown(ctx context.Context, done <-chan struct{}) context.Context {
	return context.WithValue(ctx, shutdownKey{}, done)
}

func shutdownFrom(ctx context.Context) <-chan struct{} {
	done, _ := ctx.Value(shutdownKey{}).(<-chan struct{})
	return done
}

// listen serves subscriptions/listen: it acknowledges the honoured subset
// of the filter, then delivers matching notifications through rs.out until
// the request is cancelled (no response) or the transport shuts down (the
// SubscriptionsListenResult).
func (s *Server) listen(ctx context.Context, rs *reqState, params json.RawMessage) response {
	var p listenParams
	if e := decodeParams(params, &p); e != nil {
		return response{err: e}
	}
	if p.Notifications == nil {
		return response{err: InvalidParams("missing params.notifications")}
	}
	if rs.out == nil || rs.id == nil {
		return response{err: InvalidParams("subscriptions/listen needs a transport that streams notifications")}
	}
	c := s.caps()
	want := p.Notifications
	l := &listener{id: rs.id, out: rs.out}
	if rs.declaresTasks() {
		id, _ := IdentityFrom(ctx)
		l.tasks, l.subject = true, id.Subject
	}
	l.filter.ToolsListChanged = want.ToolsListChanged && c.tools
	l.filter.PromptsListChanged = want.PromptsListChanged && c.prompts
	l.filter.ResourcesListChanged = want.ResourcesListChanged && c.resources
	if c.resources && len(want.ResourceSubscriptions) > 0 {
		l.resources = map[string]bool{}
		for _, uri := range want.ResourceSubscriptions {
			if !l.resources[uri] {
				l.resources[uri] = true
				l.filter.ResourceSubscriptions = append(l.filter.ResourceSubscriptions, uri)
			}
		}
	}

	// Hold the stream while registering and acknowledging, so that no
	// notification overtakes the acknowledgement.
	l.mu.Lock()
	s.subs.mu.Lock()
	if len(s.subs.listeners) >= maxListeners {
		s.subs.mu.Unlock()
		l.mu.Unlock()
		return response{err: &Error{Code: CodeInternalError, Message: "too many subscriptions"}}
	}
	s.subs.listeners[l] = struct{}{}
	s.subs.mu.Unlock()
	defer func() {
		s.subs.mu.Lock()
		delete(s.subs.listeners, l)
		s.subs.mu.Unlock()
		l.mu.Lock()
		l.closed = true
		l.mu.Unlock()
	}()
	b := l.beginParams(make([]byte, 0, 128))
	b = append(b, `,"notifications":`...)
	b = appendFilter(b, &l.filter)
	b = append(b, '}')
	err := l.out.notify("notifications/subscriptions/acknowledged", b)
	l.mu.Unlock()
	if err != nil {
		return response{err: errInternal()}
	}

	select {
	case <-ctx.Done():
	case <-shutdownFrom(ctx):
	}
	extra := append([]byte(`"`+metaSubscriptionID+`":`), l.id...)
	return response{result: s.finishResult(s.beginResult(nil, "complete"), nil, extra)}
}

// beginParams starts a notification's params with the subscription's
// _meta; the caller appends members and the closing brace.
func (l *listener) beginParams(b []byte) []byte {
	b = append(b, `{"_meta":{"`+metaSubscriptionID+`":`...)
	b = append(b, l.id...)
	return append(b, '}')
}

// fanOut sends a notification to every open listener that asked for it.
// It writes synchronously, so a slow client delays the caller.
func (s *Server) fanOut(method string, wants func(*listener) bool, members func(b []byte) []byte) {
	s.subs.mu.Lock()
	targets := make([]*listener, 0, len(s.subs.listeners))
	for l := range s.subs.listeners {
		if wants(l) {
			targets = append(targets, l)
		}
	}
	s.subs.mu.Unlock()
	for _, l := range targets {
		l.mu.Lock()
		if !l.closed {
			b := l.beginParams(make([]byte, 0, 128))
			if members != nil {
				b = members(b)
			}
			b = append(b, '}')
			if err := l.out.notify(method, b); err != nil {
				s.logger.Debug("listen notification not delivered", "method", method, "error", err)
			}
		}
		l.mu.Unlock()
	}
}

// NotifyToolsListChanged tells listeners that asked for toolsListChanged
// that the tool list changed (on every replica, with Options.Broker).
func (s *Server) NotifyToolsListChanged() { s.notify("tools", "") }

// NotifyPromptsListChanged tells listeners that asked for
// promptsListChanged that the prompt list changed (on every replica, with
// Options.Broker).
func (s *Server) NotifyPromptsListChanged() { s.notify("prompts", "") }

// NotifyResourcesListChanged tells listeners that asked for
// resourcesListChanged that the resource or template list changed (on
// every replica, with Options.Broker).
func (s *Server) NotifyResourcesListChanged() { s.notify("resources", "") }

// NotifyResourceUpdated tells listeners subscribed to uri that the
// resource changed (on every replica, with Options.Broker).
func (s *Server) NotifyResourceUpdated(uri string) { s.notify("updated", uri) }

// notifyLocal delivers a change notification of kind to this replica's
// listeners.
func (s *Server) notifyLocal(kind, uri string) {
	switch kind {
	case "tools":
		s.fanOut("notifications/tools/list_changed", func(l *listener) bool { return l.filter.ToolsListChanged }, nil)
	case "prompts":
		s.fanOut("notifications/prompts/list_changed", func(l *listener) bool { return l.filter.PromptsListChanged }, nil)
	case "resources":
		s.fanOut("notifications/resources/list_changed", func(l *listener) bool { return l.filter.ResourcesListChanged }, nil)
	case "task":
		s.notifyTaskLocal(uri)
	case "updated":
		s.fanOut("notifications/resources/updated", func(l *listener) bool { return l.resources[uri] }, func(b []byte) []byte {
			b = append(b, `,"uri":`...)
			return wire.AppendString(b, uri)
		})
	}
}
