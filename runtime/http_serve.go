package runtime

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strings"
	"time"
)

// ServeOptions configure ListenAndServe and Serve.
type ServeOptions struct {
	// ReadHeaderTimeout bounds reading a request's headers (default 10s),
	// against clients that open connections and trickle bytes.
	ReadHeaderTimeout time.Duration
	// IdleTimeout closes keep-alive connections idle this long (default 120s).
	IdleTimeout time.Duration
	// MaxHeaderBytes caps request headers (default 64 KiB).
	MaxHeaderBytes int
	// ShutdownTimeout bounds the drain on shutdown (default 30s): requests
	// still running then are cut off.
	ShutdownTimeout time.Duration
	// Logger receives server logs; nil logs to stderr.
	Logger *slog.Logger
}

// ListenAndServe serves h on addr until ctx is cancelled. An address
// without a host (":8080" or "8080") binds 127.0.0.1 only: exposing a
// server beyond the machine takes an explicit host (and AllowedHosts).
// See Serve for timeouts and shutdown.
func ListenAndServe(ctx context.Context, addr string, h http.Handler, opts ServeOptions) error {
	ln, err := net.Listen("tcp", listenAddr(addr))
	if err != nil {
		return err
	}
	return Serve(ctx, ln, h, opts)
}

// listenAddr defaults the host of addr to the loopback address.
func listenAddr(addr string) string {
	if !strings.Contains(addr, ":") {
		return "127.0.0.1:" + addr
	}
	if strings.HasPrefix(addr, ":") {
		return "127.0.0.1" + addr
	}
	return addr
}

// Serve serves h on ln until ctx is cancelled, with read-header and idle
// timeouts (the handler from Server.Handler bounds body reads and each
// write itself, so that streams may last). On cancellation it stops
// accepting, ends open subscriptions/listen streams with their result,
// lets in-flight requests finish and answer (up to ShutdownTimeout), and
// returns nil. Request contexts are not cancelled by shutdown: a request
// that was accepted gets its response exactly once.
func Serve(ctx context.Context, ln net.Listener, h http.Handler, opts ServeOptions) error {
	if opts.ReadHeaderTimeout <= 0 {
		opts.ReadHeaderTimeout = 10 * time.Second
	}
	if opts.IdleTimeout <= 0 {
		opts.IdleTimeout = 120 * time.Second
	}
	if opts.MaxHeaderBytes <= 0 {
		opts.MaxHeaderBytes = 64 << 10
	}
	if opts.ShutdownTimeout <= 0 {
		opts.ShutdownTimeout = 30 * time.Second
	}
	logger := opts.Logger
	if logger == nil {
		logger = slog.New(slog.NewTextHandler(os.Stderr, nil))
	}
	shutdown := make(chan struct{})
	// Requests inherit ctx's values but not its cancellation, plus the
	// shutdown signal that ends listen streams gracefully.
	base := withShutdown(context.WithoutCancel(ctx), shutdown)
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: opts.ReadHeaderTimeout,
		IdleTimeout:       opts.IdleTimeout,
		MaxHeaderBytes:    opts.MaxHeaderBytes,
		BaseContext:       func(net.Listener) context.Context { return base },
		ErrorLog:          slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	select {
	case err := <-served:
		close(shutdown)
		return err
	case <-ctx.Done():
	}
	close(shutdown)
	drainCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), opts.ShutdownTimeout)
	defer cancel()
	err := srv.Shutdown(drainCtx)
	if err != nil {
		logger.Warn("http: shutdown timed out; closing remaining connections", "error", err)
		srv.Close()
	}
	if serr := <-served; serr != nil && !errors.Is(serr, http.ErrServerClosed) {
		return serr
	}
	return nil
}
