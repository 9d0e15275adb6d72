package main

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/mcpgen-dev/mcpgen/runtime/natsbroker"
)

// health serves /healthz and /readyz for an orchestrator or a balancer.
//
// /healthz (liveness) answers 200 while the process serves HTTP at all.
// /readyz (readiness) answers 200 when this replica should get traffic:
// the database answers, the broker is connected (when --nats is given) and
// the server is not draining; else 503 naming what is wrong.
type health struct {
	ping     func(ctx context.Context) error
	broker   *natsbroker.Broker // nil without --nats
	draining atomic.Bool
}

func (h *health) mount(mux *http.ServeMux) {
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Write([]byte("ok\n"))
	})
	mux.HandleFunc("GET /readyz", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		if err := h.ready(r.Context()); err != nil {
			w.WriteHeader(http.StatusServiceUnavailable)
			w.Write([]byte(err.Error() + "\n"))
			return
		}
		w.Write([]byte("ready\n"))
	})
}

func (h *health) ready(ctx context.Context) error {
	if h.draining.Load() {
		return errors.New("draining")
	}
	if h.broker != nil && !h.broker.Connected() {
		return errors.New("broker not connected")
	}
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	if err := h.ping(ctx); err != nil {
		return errors.New("database not reachable")
	}
	return nil
}

// connectBroker connects to NATS for --nats; replicas of the orders server
// share the subject prefix "orders".
func connectBroker(url string, logger *slog.Logger) (*natsbroker.Broker, error) {
	return natsbroker.Connect(natsbroker.Options{URL: url, Prefix: "orders", Name: "orders-mcp", Logger: logger})
}
