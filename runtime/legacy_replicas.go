package runtime

// 2025-11-25 sessions across replicas (with Options.Broker). The session
// id is a token,
//
//	base64url(JSON payload) "." base64url(HMAC-SHA256(key, domain || payload))
//
// signed with StateKeys, whose payload is what initialize negotiated: the
// protocol version, the client's capabilities and info, the caller's
// Identity.Subject (a session answers only the identity that made it) and
// when it was made. Any replica holding the keys restores the session from
// its id on first sight and keeps a local copy; so a balancer may send each
// request anywhere.
//
// What is shared, and how:
//
//   - Immutable state (version, capabilities, client info, subject): in
//     the id.
//   - The log level, resource subscriptions, answers to server-to-client
//     requests, cancellations and the end of the session: published on the
//     "session" subject; every replica applies them to its copy. A resource
//     subscription is registered on one replica (the one the subscribe
//     reached; a later subscribe of the same URI elsewhere moves it), and
//     its notifications travel to the stream like any other message.
//   - Server-to-client requests carry ids prefixed with the asking
//     replica's origin, so ids of one session never collide across
//     replicas.
//   - Unsolicited messages (list_changed, resources/updated, a withdrawn
//     request): sent on the session's GET stream when this replica holds
//     it, else requested on "stream.<hash>" from the replica that does.
//   - DELETE publishes the end: every replica drops its copy and refuses
//     the id from then on (an in-memory revocation list, kept for
//     revokedRetention). When the Broker also keeps a record of ended
//     sessions (SessionEnds), DELETE records the end there before it
//     answers, a replica consults the record before it restores an id,
//     and every replica follows it: one started later, or cut off from
//     the broker at that moment, learns of the end too (and drops its copy
//     once it is back). Without it, such a replica does not know of it.
//
// An idle local copy is dropped after SessionIdleTimeout as before, but
// that only frees memory: the id still restores the session, for up to
// maxRestoredSessionAge after initialize.

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// SessionEnds is an optional ability of a Broker: a lasting record of the
// 2025-11-25 sessions ended with DELETE, shared by the replicas. With it,
// ending a session ends it on every replica, those started afterwards and
// those cut off from the broker at that moment included; without it, the
// end travels as a message and only replicas connected then learn of it.
//
// A key is a digest of the session id (hex), safe as a key in any store.
// A record must be kept at least 24 hours: as long as a session id can be
// restored.
type SessionEnds interface {
	// EndSession records that the session key ended.
	EndSession(ctx context.Context, key string) error
	// SessionEnded reports whether the session key is recorded as ended.
	SessionEnded(ctx context.Context, key string) (bool, error)
	// WatchSessionEnds calls ended with every key recorded, those
	// recorded already first, then each new one as it is recorded, also
	// those recorded while this replica was cut off once it is back, until
	// stop is called. Calls of ended run one at a time.
	WatchSessionEnds(ended func(key string)) (stop func())
}

// sessionEndsTimeout bounds the wait for the broker's record of ended
// sessions, when DELETE writes it or a replica reads it.
const sessionEndsTimeout = 2 * time.Second

const sessionDomain = "mcpgen/session\x00"

// maxRestoredSessionAge bounds the age of a session id another replica
// will restore: an id cannot be used forever. A replica that keeps a copy
// keeps serving it while it is in use (SessionIdleTimeout); a client whose
// id is refused initializes again, as after any 404.
const maxRestoredSessionAge = 24 * time.Hour

// revokedRetention is how long a replica remembers an ended session id:
// as long as the id could be restored.
const revokedRetention = maxRestoredSessionAge

// sessionPayload is what a signed session id carries.
type sessionPayload struct {
	Version    string          `json:"v"`
	Caps       json.RawMessage `json:"c"`
	ClientInfo *Implementation `json:"i,omitempty"`
	Subject    string          `json:"s,omitempty"`
	Created    int64           `json:"t"` // Unix milliseconds
	Nonce      string          `json:"n"`
}

// signSession returns the session id of ls for the caller subject.
func (s *Server) signSession(ls *legacySession, subject string) string {
	var nb [12]byte
	rand.Read(nb[:])
	p := sessionPayload{
		Version:    ls.version,
		Caps:       ls.capsRaw,
		ClientInfo: ls.clientInfo,
		Subject:    subject,
		Created:    s.now().UnixMilli(),
		Nonce:      base64.RawURLEncoding.EncodeToString(nb[:]),
	}
	raw, _ := json.Marshal(p)
	enc := base64.RawURLEncoding.EncodeToString(raw)
	return enc + "." + base64.RawURLEncoding.EncodeToString(s.mac(s.stateKeys[0], sessionDomain, enc))
}

// verifySession returns the payload of a session id signed with one of
// the StateKeys.
func (s *Server) verifySession(id string) (*sessionPayload, bool) {
	enc, sigEnc, ok := strings.Cut(id, ".")
	if !ok {
		return nil, false
	}
	// Strict: one signature has one spelling, so that an ended (revoked)
	// id cannot come back spelled with other padding bits.
	sig, err := base64.RawURLEncoding.Strict().DecodeString(sigEnc)
	if err != nil || !s.verifyMAC(sessionDomain, enc, sig) {
		return nil, false
	}
	raw, err := base64.RawURLEncoding.DecodeString(enc)
	if err != nil {
		return nil, false
	}
	var p sessionPayload
	if json.Unmarshal(raw, &p) != nil || p.Version == "" {
		return nil, false
	}
	if len(p.Caps) == 0 || p.Caps[0] != '{' {
		p.Caps = json.RawMessage(`{}`)
	}
	return &p, true
}

// restoreLegacySession rebuilds a session from its verified id.
func (s *Server) restoreLegacySession(ctx context.Context, p *sessionPayload) *legacySession {
	ls := &legacySession{
		srv:           s,
		version:       p.Version,
		capsRaw:       p.Caps,
		caps:          parseClientCaps(p.Caps),
		clientInfo:    p.ClientInfo,
		ctx:           ctx,
		elicitTimeout: legacyElicitTimeout,
	}
	if ls.version < "2025-11-25" {
		ls.caps.elicitURL = false
	}
	return ls
}

// sessionControl is a message on subjectSession.
type sessionControl struct {
	Origin  string          `json:"o"`
	Op      string          `json:"op"` // end, cancel, reply, level, sub, unsub
	Session string          `json:"s"`
	ID      json.RawMessage `json:"id,omitempty"`  // cancel: the request to cancel
	Msg     json.RawMessage `json:"msg,omitempty"` // reply: the client's response
	Arg     string          `json:"a,omitempty"`   // level: the level; sub, unsub: the URI
}

// sharedSessions is the replica side of a session table.
type sharedSessions struct {
	repl *replication
	// ends is the broker's record of ended sessions; nil when it keeps
	// none. endsFailing is set while it fails (logged once per outage).
	ends        SessionEnds
	endsFailing atomic.Bool

	mu      sync.Mutex
	revoked map[string]time.Time // keys (endKey) of ended sessions, when they ended
	// local maps the key of each session this replica has a copy of (or
	// had: pruned as the table shrinks) to its id, for the ends the
	// broker's record reports by key.
	local map[string]string
}

// endKey is the key of session id in the record of ended sessions.
func endKey(id string) string {
	sum := sha256.Sum256([]byte(id))
	return hex.EncodeToString(sum[:])
}

// startShared subscribes the table to the other replicas' session
// messages.
func (t *legacySessions) startShared(r *replication) {
	t.shared = &sharedSessions{repl: r, revoked: map[string]time.Time{}, local: map[string]string{}}
	if ends, ok := r.broker.(SessionEnds); ok {
		t.shared.ends = ends
		ends.WatchSessionEnds(t.endedElsewhere)
	}
	_, err := r.broker.Subscribe(subjectSession, func(data []byte) []byte {
		var m sessionControl
		if json.Unmarshal(data, &m) != nil || m.Origin == r.origin {
			return nil
		}
		t.applyControl(&m)
		return nil
	})
	if err != nil {
		r.logger.Warn("broker: cannot subscribe to session messages; 2025-11-25 sessions will not follow other replicas", "error", err)
	}
}

// publishControl sends m to the other replicas.
func (t *legacySessions) publishControl(m sessionControl) {
	r := t.shared.repl
	m.Origin = r.origin
	data, _ := json.Marshal(m)
	r.publish(subjectSession, data)
}

// applyControl applies another replica's session message to the local
// copy, if there is one.
func (t *legacySessions) applyControl(m *sessionControl) {
	if m.Op == "end" {
		t.revoke(m.Session)
	}
	t.mu.Lock()
	hs := t.m[m.Session]
	t.mu.Unlock()
	if hs == nil {
		return
	}
	switch m.Op {
	case "end":
		t.remove(hs)
	case "cancel":
		hs.cancelRequest(m.ID)
	case "reply":
		hs.ls.deliver(m.Msg)
	case "level":
		hs.ls.mu.Lock()
		hs.ls.logLevel = m.Arg
		hs.ls.mu.Unlock()
	case "sub":
		// The subscription now lives on the replica that took the
		// subscribe: one registration per session and URI.
		hs.ls.unsubscribe(m.Arg)
	case "unsub":
		hs.ls.unsubscribe(m.Arg)
	}
}

// revoke records that session id ended.
func (t *legacySessions) revoke(id string) {
	t.revokeKey(endKey(id))
}

// revokeKey records that the session of key ended.
func (t *legacySessions) revokeKey(key string) {
	sh := t.shared
	now := time.Now()
	sh.mu.Lock()
	defer sh.mu.Unlock()
	sh.revoked[key] = now
	delete(sh.local, key)
	if len(sh.revoked)%1024 == 0 {
		for k, at := range sh.revoked {
			if now.Sub(at) > revokedRetention {
				delete(sh.revoked, k)
			}
		}
	}
}

// isRevoked reports whether session id ended: known here, or recorded by
// the broker. When the broker's record cannot be read, only what this
// replica knows counts (requests go on being served in an outage).
func (t *legacySessions) isRevoked(ctx context.Context, id string) bool {
	sh := t.shared
	key := endKey(id)
	sh.mu.Lock()
	at, ok := sh.revoked[key]
	sh.mu.Unlock()
	if ok && time.Since(at) <= revokedRetention {
		return true
	}
	if sh.ends == nil {
		return false
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), sessionEndsTimeout)
	defer cancel()
	ended, err := sh.ends.SessionEnded(ctx, key)
	t.observeEnds(err)
	if ended {
		t.revokeKey(key)
	}
	return ended
}

// observeEnds logs the first failure of the broker's record of ended
// sessions, and the first success after it.
func (t *legacySessions) observeEnds(err error) {
	sh := t.shared
	if err != nil {
		if sh.endsFailing.CompareAndSwap(false, true) {
			sh.repl.logger.Warn("broker: the record of ended sessions cannot be used; a session ended with DELETE is refused only by the replicas that got the message",
				"error", err)
		}
		return
	}
	if sh.endsFailing.CompareAndSwap(true, false) {
		sh.repl.logger.Info("broker: the record of ended sessions is available again")
	}
}

// endEverywhere ends session id on every replica: the broker's record
// first (when it keeps one), so that once DELETE is answered no replica
// restores the id, then the message to the replicas holding a copy.
func (t *legacySessions) endEverywhere(ctx context.Context, id string) {
	t.revoke(id)
	if ends := t.shared.ends; ends != nil {
		ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), sessionEndsTimeout)
		t.observeEnds(ends.EndSession(ctx, endKey(id)))
		cancel()
	}
	t.publishControl(sessionControl{Op: "end", Session: id})
}

// endedElsewhere applies an end from the broker's record: a session
// ended through another replica, maybe while this one was cut off.
func (t *legacySessions) endedElsewhere(key string) {
	sh := t.shared
	sh.mu.Lock()
	id, ok := sh.local[key]
	sh.mu.Unlock()
	t.revokeKey(key)
	if !ok {
		return
	}
	t.mu.Lock()
	hs := t.m[id]
	t.mu.Unlock()
	if hs != nil {
		t.remove(hs)
	}
}

// track remembers the key of a session this replica holds a copy of.
// Keys of copies dropped since are pruned as the table shrinks.
func (t *legacySessions) track(id string) {
	sh := t.shared
	sh.mu.Lock()
	sh.local[endKey(id)] = id
	n := len(sh.local)
	sh.mu.Unlock()
	if n < 1024 || n&(n-1) != 0 {
		return
	}
	// At each power of two: drop the keys of copies gone.
	t.mu.Lock()
	live := make(map[string]bool, len(t.m))
	for id := range t.m {
		live[id] = true
	}
	t.mu.Unlock()
	sh.mu.Lock()
	for k, id := range sh.local {
		if !live[id] {
			delete(sh.local, k)
		}
	}
	sh.mu.Unlock()
}

// newSessionID returns the id of a new session: a signed token with a
// broker, 128 random bits without.
func (t *legacySessions) newSessionID(ls *legacySession, subject string) string {
	if t.shared != nil {
		return t.h.srv.signSession(ls, subject)
	}
	var idb [16]byte
	rand.Read(idb[:])
	return hex.EncodeToString(idb[:])
}

// share connects a session to the other replicas: its changes are
// published, and its unsolicited messages go to whichever replica holds
// the GET stream when this one does not.
func (t *legacySessions) share(hs *httpSession) {
	if t.shared == nil {
		return
	}
	id := hs.id
	t.track(id)
	hs.ls.remote = &remoteStream{repl: t.shared.repl, subject: streamSubject(id)}
	hs.ls.onChange = func(op, arg string) {
		t.publishControl(sessionControl{Op: op, Session: id, Arg: arg})
	}
}

// restore makes the local copy of a session another replica created.
func (t *legacySessions) restore(ctx context.Context, id string) *httpSession {
	if t.shared == nil {
		return nil
	}
	p, ok := t.h.srv.verifySession(id)
	if !ok || t.h.srv.now().Sub(time.UnixMilli(p.Created)) > maxRestoredSessionAge {
		return nil
	}
	if t.isRevoked(ctx, id) {
		return nil
	}
	if caller, _ := IdentityFrom(ctx); caller.Subject != p.Subject {
		return nil
	}
	h := t.h
	sctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	if h.opts.Shutdown != nil {
		sctx = withShutdown(sctx, h.opts.Shutdown)
	}
	hs := &httpSession{id: id, ls: h.srv.restoreLegacySession(sctx, p), subject: p.Subject, cancel: cancel,
		inflight: map[string]context.CancelCauseFunc{}}
	// Interceptors see the session id here too; Options.OnSession does
	// not fire, since the replica that answered initialize reported it.
	hs.ls.sessionID = id
	t.share(hs) // before anyone else can see it
	t.mu.Lock()
	if old := t.m[id]; old != nil {
		t.mu.Unlock()
		cancel()
		return old
	}
	if len(t.m) >= t.max {
		t.mu.Unlock()
		cancel()
		return nil
	}
	t.m[id] = hs
	hs.lastUsed = time.Now()
	hs.timer = time.AfterFunc(t.idle, func() { t.expire(hs) })
	t.mu.Unlock()
	return hs
}

// remoteStream sends a session's unsolicited messages to the replica
// holding its GET stream.
type remoteStream struct {
	repl    *replication
	subject string
}

func (r *remoteStream) sendMessage(msg []byte) error {
	ctx, cancel := context.WithTimeout(context.Background(), streamRequestTimeout)
	defer cancel()
	reply, err := r.repl.broker.Request(ctx, r.subject, msg)
	if err != nil {
		return errStreamClosed
	}
	if len(reply) > 0 {
		return errStreamClosed
	}
	return nil
}

// holdStream takes the session's messages from other replicas while this
// replica holds its GET stream; the returned func stops.
func (t *legacySessions) holdStream(hs *httpSession, x *exchange) func() {
	if t.shared == nil {
		return func() {}
	}
	r := t.shared.repl
	unsub, err := r.broker.Subscribe(streamSubject(hs.id), func(msg []byte) []byte {
		if err := x.sendMessage(msg); err != nil {
			return []byte(err.Error())
		}
		return nil
	})
	r.observe(err)
	if err != nil {
		return func() {}
	}
	return unsub
}
