package natsbroker

import (
	"context"
	"errors"
	"regexp"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// The record of ended 2025-11-25 sessions (runtime.SessionEnds) is a
// JetStream key-value bucket on the same broker: every replica reads and
// watches it, entries expire on their own after sessionEndTTL, and a
// replica started later or reconnecting after an outage catches up from
// the bucket. It needs JetStream enabled on the NATS server
// (nats-server -js, or "jetstream {}" in its configuration); without it
// the runtime logs once that ends reach only the connected replicas.

// sessionEndTTL is how long an end is recorded: as long as the runtime
// restores a session id (24 hours after initialize).
const sessionEndTTL = 24 * time.Hour

// bucketUnsafe matches what a bucket name may not hold.
var bucketUnsafe = regexp.MustCompile(`[^A-Za-z0-9_-]`)

// sessionEnds is the bucket, opened (created if needed) on first use.
type sessionEnds struct {
	js     jetstream.JetStream
	bucket string

	mu sync.Mutex
	kv jetstream.KeyValue
	// failed and failedAt remember the last failure to open the bucket
	// (JetStream not enabled, most likely) for openRetry, so that each
	// restored session does not ask again.
	failed   error
	failedAt time.Time
}

// openRetry is how long a failure to open the bucket is remembered.
const openRetry = 5 * time.Second

func newSessionEnds(js jetstream.JetStream, prefix string) *sessionEnds {
	return &sessionEnds{js: js, bucket: bucketUnsafe.ReplaceAllString(prefix, "_") + "_sessions_ended"}
}

// open returns the bucket, creating it on first use.
func (e *sessionEnds) open(ctx context.Context) (jetstream.KeyValue, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.kv != nil {
		return e.kv, nil
	}
	if e.failed != nil && time.Since(e.failedAt) < openRetry {
		return nil, e.failed
	}
	kv, err := e.js.KeyValue(ctx, e.bucket)
	if errors.Is(err, jetstream.ErrBucketNotFound) {
		kv, err = e.js.CreateKeyValue(ctx, jetstream.KeyValueConfig{
			Bucket:      e.bucket,
			Description: "2025-11-25 sessions ended with DELETE (mcpgen runtime)",
			TTL:         sessionEndTTL,
			Storage:     jetstream.FileStorage,
		})
		if errors.Is(err, jetstream.ErrBucketExists) {
			kv, err = e.js.KeyValue(ctx, e.bucket) // another replica made it meanwhile
		}
	}
	if err != nil {
		e.failed, e.failedAt = err, time.Now()
		return nil, err
	}
	e.kv = kv
	return kv, nil
}

// EndSession implements runtime.SessionEnds. While the broker is
// unreachable the record is published on the bucket's subject without
// waiting, buffered by the client like any message, and stored when the
// connection is back.
func (b *Broker) EndSession(ctx context.Context, key string) error {
	if !b.nc.IsConnected() {
		return b.nc.Publish("$KV."+b.ends.bucket+"."+key, []byte{'1'})
	}
	kv, err := b.ends.open(ctx)
	if err != nil {
		return err
	}
	_, err = kv.Put(ctx, key, []byte{'1'})
	return err
}

// SessionEnded implements runtime.SessionEnds.
func (b *Broker) SessionEnded(ctx context.Context, key string) (bool, error) {
	if !b.nc.IsConnected() {
		return false, errors.New("natsbroker: not connected")
	}
	kv, err := b.ends.open(ctx)
	if err != nil {
		return false, err
	}
	_, err = kv.Get(ctx, key)
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return false, nil
	}
	return err == nil, err
}

// WatchSessionEnds implements runtime.SessionEnds. The watch runs in the
// background: it starts once the bucket can be opened (the broker may be
// down, or JetStream not yet enabled), and starts again if it ends, until
// stop is called or the Broker is closed.
func (b *Broker) WatchSessionEnds(ended func(key string)) (stop func()) {
	ctx, cancel := context.WithCancel(b.closed)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			b.watchEnds(ctx, ended)
			select {
			case <-ctx.Done():
				return
			case <-time.After(b.reconnectWait):
			}
		}
	}()
	return func() { cancel(); <-done }
}

// watchEnds delivers the bucket's keys to ended until ctx ends or the
// watch fails.
func (b *Broker) watchEnds(ctx context.Context, ended func(key string)) {
	octx, cancel := context.WithTimeout(ctx, 5*time.Second)
	kv, err := b.ends.open(octx)
	cancel()
	if err != nil {
		return
	}
	// The watcher is an ordered consumer: after a reconnect it resumes
	// where it was, so the ends recorded meanwhile are delivered too.
	w, err := kv.WatchAll(ctx, jetstream.IgnoreDeletes())
	if err != nil {
		return
	}
	defer w.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case entry, ok := <-w.Updates():
			if !ok {
				return
			}
			if entry != nil { // nil marks the end of the keys recorded already
				ended(entry.Key())
			}
		}
	}
}
