// Package natsbroker connects the replicas of an mcpgen server through
// NATS: it implements runtime.Broker with the official Go client.
//
// NATS fits the job: the fan-out of change notifications is plain
// publish/subscribe, and routing a message to the one replica holding a
// session's stream is request/reply, which NATS has natively (with an
// immediate "no responders" answer when nobody holds it). The server is a
// single binary with no storage to manage.
//
//	b, err := natsbroker.Connect(natsbroker.Options{URL: "nats://broker:4222", Prefix: "orders"})
//	...
//	defer b.Close()
//	srv := ordersmcp.NewServer(svc, runtime.Options{StateKeys: keys, Broker: b})
//
// The connection reconnects forever: while the broker is unreachable the
// server keeps serving requests, the outage and the recovery are logged
// once each, messages published meanwhile are buffered by the client (up
// to 8 MiB) and sent on reconnect, and requests to other replicas fail
// until then. Connect succeeds even when the broker is down at start.
//
// With JetStream enabled on the NATS server (nats-server -js), the broker
// also keeps the record of 2025-11-25 sessions ended with DELETE
// (runtime.SessionEnds), so that an ended session is refused by every
// replica, also one started later or cut off at that moment; without
// JetStream, ends reach only the replicas connected at the time.
package natsbroker

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/mcpgen-dev/mcpgen/runtime"
)

// subscribeFlushTimeout bounds Subscribe's wait for the broker to have
// read the new interest.
const subscribeFlushTimeout = 2 * time.Second

// Options configure Connect.
type Options struct {
	// URL is the NATS server, or a comma-separated list of servers of one
	// cluster (default nats://127.0.0.1:4222).
	URL string
	// Prefix keeps the subjects of one server apart from other servers on
	// the same broker (default "mcp"). Replicas of one server share it.
	Prefix string
	// Name names the connection in the broker's monitoring.
	Name string
	// ReconnectWait is the pause between reconnect attempts (default 1s).
	ReconnectWait time.Duration
	// Logger receives the connection's state changes; nil logs to stderr.
	Logger *slog.Logger
}

// Broker is a runtime.Broker over one NATS connection, and a
// runtime.SessionEnds over a JetStream key-value bucket (sessionends.go).
type Broker struct {
	nc            *nats.Conn
	prefix        string
	reconnectWait time.Duration
	ends          *sessionEnds
	// closed ends the background watches when the Broker is closed.
	closed context.Context
	close  context.CancelFunc
}

var (
	_ runtime.Broker      = (*Broker)(nil)
	_ runtime.SessionEnds = (*Broker)(nil)
)

// Connect connects to NATS. When the broker cannot be reached yet, the
// connection keeps trying in the background and Connect still returns a
// usable Broker.
func Connect(opts Options) (*Broker, error) {
	if opts.URL == "" {
		opts.URL = nats.DefaultURL
	}
	if opts.Prefix == "" {
		opts.Prefix = "mcp"
	}
	if opts.ReconnectWait <= 0 {
		opts.ReconnectWait = time.Second
	}
	logger := opts.Logger
	if logger == nil {
		logger = slog.New(slog.NewTextHandler(os.Stderr, nil))
	}
	nc, err := nats.Connect(opts.URL,
		nats.Name(opts.Name),
		nats.MaxReconnects(-1),
		nats.ReconnectWait(opts.ReconnectWait),
		nats.RetryOnFailedConnect(true),
		nats.DisconnectErrHandler(func(_ *nats.Conn, err error) {
			logger.Warn("broker disconnected: notifications and session messages do not reach other replicas until it is back; requests are still served",
				"error", err)
		}),
		nats.ReconnectHandler(func(nc *nats.Conn) {
			logger.Info("broker connected again", "url", nc.ConnectedUrlRedacted())
		}),
		nats.ConnectHandler(func(nc *nats.Conn) {
			logger.Info("broker connected", "url", nc.ConnectedUrlRedacted())
		}),
		nats.ErrorHandler(func(_ *nats.Conn, sub *nats.Subscription, err error) {
			subject := ""
			if sub != nil {
				subject = sub.Subject
			}
			logger.Warn("broker error", "subject", subject, "error", err)
		}),
	)
	if err != nil {
		return nil, err
	}
	js, err := jetstream.New(nc)
	if err != nil {
		nc.Close()
		return nil, err
	}
	closed, closeFn := context.WithCancel(context.Background())
	return &Broker{nc: nc, prefix: opts.Prefix + ".", reconnectWait: opts.ReconnectWait, ends: newSessionEnds(js, opts.Prefix),
		closed: closed, close: closeFn}, nil
}

// Publish implements runtime.Broker.
func (b *Broker) Publish(subject string, data []byte) error {
	return b.nc.Publish(b.prefix+subject, data)
}

// Subscribe implements runtime.Broker.
func (b *Broker) Subscribe(subject string, handle func(data []byte) []byte) (func(), error) {
	sub, err := b.nc.Subscribe(b.prefix+subject, func(m *nats.Msg) {
		reply := handle(m.Data)
		if m.Reply != "" {
			m.Respond(reply)
		}
	})
	if err != nil {
		return nil, err
	}
	// Subscribe only queues the interest; until the broker has read it, a
	// message another replica publishes is dropped (core NATS delivers to
	// the interest it knows). The round trip of a flush returns once the
	// broker has read everything sent before it, so a notification
	// published after Subscribe returns reaches this replica. While the
	// broker is unreachable there is nothing to wait for: nats.go sends
	// every subscription again on reconnect.
	if b.nc.IsConnected() {
		b.nc.FlushTimeout(subscribeFlushTimeout)
	}
	return func() { sub.Unsubscribe() }, nil
}

// Request implements runtime.Broker.
func (b *Broker) Request(ctx context.Context, subject string, data []byte) ([]byte, error) {
	m, err := b.nc.RequestWithContext(ctx, b.prefix+subject, data)
	if err != nil {
		if errors.Is(err, nats.ErrNoResponders) {
			return nil, errors.New("natsbroker: nobody takes " + subject)
		}
		return nil, err
	}
	return m.Data, nil
}

// Connected reports whether the broker is reachable now: what a readiness
// check asks.
func (b *Broker) Connected() bool { return b.nc.IsConnected() }

// Close flushes what is buffered, when the broker is reachable (for at
// most two seconds), and closes the connection.
func (b *Broker) Close() {
	b.close()
	if b.nc.IsConnected() {
		b.nc.FlushTimeout(2 * time.Second)
	}
	b.nc.Close()
}
