package runtime

// Replicas. A server that runs as several processes behind a load
// balancer shares two things: keys (Options.StateKeys, which sign
// requestState, cursors and, with a broker, 2025-11-25 session ids) and a
// Broker, which carries what needs a live connection between them:
//
//   - change notifications (list_changed, resources/updated): the replica
//     where the change happened delivers to its own listeners and
//     publishes on "notify"; every other replica delivers to its own, so
//     each listener gets the notification once;
//   - 2025-11-25 session control on "session": DELETE (the session ends
//     everywhere), notifications/cancelled (the replica running the request
//     stops it), the client's answers to server-to-client requests (the
//     replica waiting for the answer takes it), logging/setLevel and
//     resource subscriptions;
//   - a session's unsolicited messages on "stream.<session hash>": the
//     replica holding the session's GET stream answers the request after
//     writing the message to the stream.
//
// Without a broker (Options.Broker nil) none of this exists and a server
// behaves as a single replica. When the broker is unreachable, requests
// keep being served; what crosses replicas degrades and the server logs
// it once per outage.

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"log/slog"
	"sync/atomic"
	"time"
)

// Broker carries messages between the replicas of one server. Subjects
// are short dot-separated names chosen by the runtime ("notify",
// "session", "stream.<hex>"); an implementation may prefix them to keep
// several servers apart on one broker. The package natsbroker implements
// it with NATS.
type Broker interface {
	// Publish sends data to every subscriber of subject, this replica's
	// included. It does not wait for delivery.
	Publish(subject string, data []byte) error
	// Subscribe calls handle for every message on subject until
	// unsubscribe is called. For a message sent with Request, what handle
	// returns is the reply; for a published one it is ignored. Handlers
	// of one subscription run one at a time. While the broker is
	// reachable, Subscribe returns once the broker knows the
	// subscription, so that a message any replica sends after that
	// reaches it.
	Subscribe(subject string, handle func(data []byte) (reply []byte)) (unsubscribe func(), err error)
	// Request sends data to one subscriber of subject and returns its
	// reply; it fails when nobody subscribes or ctx ends first.
	Request(ctx context.Context, subject string, data []byte) ([]byte, error)
}

// Subjects of the broker messages.
const (
	subjectNotify  = "notify"
	subjectSession = "session"
	subjectStream  = "stream."
)

// streamRequestTimeout bounds the wait for the replica holding a session's
// GET stream to take a message.
const streamRequestTimeout = 5 * time.Second

// replication is a Server's side of the broker; nil without one.
type replication struct {
	broker Broker
	// origin tells this replica's messages apart from the others'.
	origin string
	logger *slog.Logger
	// degraded is set while publishing fails: the outage is logged once,
	// and the recovery once.
	degraded atomic.Bool
}

func newReplication(b Broker, logger *slog.Logger) *replication {
	var idb [8]byte
	rand.Read(idb[:])
	return &replication{broker: b, origin: hex.EncodeToString(idb[:]), logger: logger}
}

// publish sends data on subject, logging the first failure of an outage
// and the first success after it.
func (r *replication) publish(subject string, data []byte) {
	r.observe(r.broker.Publish(subject, data))
}

// observe records the outcome of a broker operation.
func (r *replication) observe(err error) {
	if err != nil {
		if r.degraded.CompareAndSwap(false, true) {
			r.logger.Warn("broker unavailable: notifications and 2025-11-25 session messages no longer reach other replicas; requests are still served",
				"error", err)
		}
		return
	}
	if r.degraded.CompareAndSwap(true, false) {
		r.logger.Info("broker available again: messages reach other replicas")
	}
}

// notifyMessage is a change notification on subjectNotify.
type notifyMessage struct {
	Origin string `json:"o"`
	Kind   string `json:"k"` // tools, prompts, resources, updated
	URI    string `json:"u,omitempty"`
}

// startReplication subscribes s to the other replicas' notifications.
func (s *Server) startReplication() {
	r := s.repl
	_, err := r.broker.Subscribe(subjectNotify, func(data []byte) []byte {
		var m notifyMessage
		if json.Unmarshal(data, &m) != nil || m.Origin == r.origin {
			return nil
		}
		s.notifyLocal(m.Kind, m.URI)
		return nil
	})
	if err != nil {
		r.logger.Warn("broker: cannot subscribe to notifications; other replicas' changes will not be announced here", "error", err)
	}
}

// notify delivers a change notification to this replica's listeners and
// publishes it to the others.
func (s *Server) notify(kind, uri string) {
	s.notifyLocal(kind, uri)
	if s.repl == nil {
		return
	}
	data, _ := json.Marshal(notifyMessage{Origin: s.repl.origin, Kind: kind, URI: uri})
	s.repl.publish(subjectNotify, data)
}

// streamSubject is the subject on which the replica holding session id's
// GET stream takes its messages: a digest, since ids are long and may hold
// characters subjects do not allow.
func streamSubject(id string) string {
	sum := sha256.Sum256([]byte(id))
	return subjectStream + hex.EncodeToString(sum[:16])
}
