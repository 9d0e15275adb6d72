package runtime

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	goruntime "runtime"
	"sync"
	"time"
)

// defaultMaxInFlight bounds the requests a stdio connection runs at once.
const defaultMaxInFlight = 64

// defaultDrainTimeout bounds how long a stdio connection that reached EOF
// lets the requests already read run before cancelling them.
const defaultDrainTimeout = 10 * time.Second

// StdioOptions configure ServeStdio.
type StdioOptions struct {
	// Identity is the caller of every request: over stdio it comes from the
	// process environment, not from the protocol.
	Identity *Identity
	// Logger receives transport logs; nil uses Options.Logger.
	Logger *slog.Logger
	// MaxInFlight bounds the requests handled concurrently (default 64).
	// When reached, up to MaxInFlight more requests wait for a slot while
	// reading goes on (so a notifications/cancelled still reaches hung
	// requests); beyond that, reading pauses until one finishes. Open
	// subscriptions/listen streams do not count.
	MaxInFlight int
	// DrainTimeout bounds how long ServeStdio, once its input reaches EOF,
	// lets the requests it has already read run on (default 10s). A host
	// or script that writes its requests and closes stdin gets every
	// answer that is ready within that time; requests still running then
	// are cancelled, and their handlers' answers (usually a cancellation
	// error) are written before ServeStdio returns.
	DrainTimeout time.Duration
}

// errDrainTimeout is the cause of a request context cancelled because the
// input reached EOF and the request outlived StdioOptions.DrainTimeout.
var errDrainTimeout = errors.New("stdin closed and the request outlived the drain time")

// errClientCancelled is the cause of a request context cancelled by the
// client's notifications/cancelled: such a request gets no response.
var errClientCancelled = errors.New("request cancelled by the client")

// ServeStdio serves newline-delimited JSON-RPC read from r, writing
// responses and notifications to w, until r reaches EOF (it then lets the
// requests already read finish, within StdioOptions.DrainTimeout, writes
// their answers, ends open listen streams with their result and returns
// nil), r fails, or ctx is cancelled (in-flight requests are
// cancelled and ServeStdio returns ctx.Err() once they finish; a Read
// blocked at that moment is left to return when r is closed).
//
// Requests run concurrently; every message is written whole, never
// interleaved with another. Logs go to the logger only, never to w.
func (s *Server) ServeStdio(ctx context.Context, r io.Reader, w io.Writer, opts StdioOptions) error {
	c := &stdioConn{
		srv:      s,
		logger:   opts.Logger,
		w:        w,
		inflight: map[string]context.CancelCauseFunc{},
	}
	if c.logger == nil {
		c.logger = s.logger
	}
	n := opts.MaxInFlight
	if n <= 0 {
		n = defaultMaxInFlight
	}
	c.sem = make(chan struct{}, n)
	c.queue = make(chan struct{}, n)
	if opts.Identity != nil {
		ctx = WithIdentity(ctx, *opts.Identity)
	}
	drain := opts.DrainTimeout
	if drain <= 0 {
		drain = defaultDrainTimeout
	}
	shutdown := make(chan struct{})
	reqCtx, cancelRequests := context.WithCancelCause(withShutdown(ctx, shutdown))
	defer cancelRequests(nil)

	readDone := make(chan error, 1)
	go func() { readDone <- c.readLoop(reqCtx, r) }()
	var err error
	inputEnded := false
	select {
	case err = <-readDone:
		inputEnded = true
	case <-ctx.Done():
		err = ctx.Err()
	}
	c.mu.Lock()
	c.closed = true
	c.mu.Unlock()
	close(shutdown)
	if inputEnded {
		c.drain(drain, cancelRequests)
	}
	c.wg.Wait()
	c.closeEra()
	return err
}

// drain waits up to timeout for the requests in flight at EOF, then
// cancels those still running (each still answers: the cause is not the
// client's cancellation).
func (c *stdioConn) drain(timeout time.Duration, cancel context.CancelCauseFunc) {
	finished := make(chan struct{})
	go func() {
		c.wg.Wait()
		close(finished)
	}()
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	select {
	case <-finished:
	case <-timer.C:
		c.mu.Lock()
		n := len(c.inflight)
		c.mu.Unlock()
		c.logger.Warn("stdio: input closed; cancelling the requests still running after the drain time", "requests", n, "drain", timeout)
		cancel(errDrainTimeout)
	}
}

// stdioConn is one stdio connection. It is not a session: it keeps only
// what the transport needs (in-flight requests for cancellation, and the
// writer).
type stdioConn struct {
	srv    *Server
	logger *slog.Logger
	sem    chan struct{}
	queue  chan struct{} // requests waiting for a slot of sem

	wmu  sync.Mutex
	w    io.Writer
	wbuf []byte
	werr error

	mu       sync.Mutex
	inflight map[string]context.CancelCauseFunc // by raw id
	closed   bool
	wg       sync.WaitGroup

	era stdioEra // the protocol era, pinned by the first message naming one (legacy_stdio.go)
}

// readLoop reads lines until EOF. A line longer than MaxMessageBytes is
// discarded as it streams by, never buffered whole.
func (c *stdioConn) readLoop(ctx context.Context, r io.Reader) error {
	limit := c.srv.opts.MaxMessageBytes
	br := bufio.NewReaderSize(r, 64<<10)
	var line []byte
	for {
		line = line[:0]
		tooLong := false
		var readErr error
		for {
			chunk, err := br.ReadSlice('\n')
			if !tooLong {
				n := len(line) + len(chunk)
				if len(chunk) > 0 && chunk[len(chunk)-1] == '\n' {
					n--
				}
				if n > limit {
					tooLong = true
					line = line[:0]
				} else {
					line = append(line, chunk...)
				}
			}
			if err == bufio.ErrBufferFull {
				continue
			}
			readErr = err
			break
		}
		if tooLong {
			c.logger.Warn("stdio: message too large, discarded", "limit", limit)
			c.writeResponse(nil, nil, &Error{Code: CodeInvalidRequest,
				Message: fmt.Sprintf("Invalid request: message exceeds %d bytes", limit)})
		} else if len(bytes.TrimSpace(line)) > 0 {
			c.process(ctx, line)
			if br.Buffered() == 0 {
				// Let the request just spawned run now, on this thread:
				// the loop is about to block in read(2), and a goroutine
				// queued behind a thread in a system call waits for the
				// scheduler to notice (tens of µs), most of the latency of
				// a client that sends one request at a time. With the next
				// line already buffered the loop does not block.
				goruntime.Gosched()
			}
		}
		if readErr == io.EOF {
			return nil
		}
		if readErr != nil {
			return readErr
		}
		if ctx.Err() != nil {
			return nil
		}
	}
}

// process handles one line; it does not retain line.
func (c *stdioConn) process(ctx context.Context, line []byte) {
	req, kind, id, rpcErr := parseMessage(line)
	if rpcErr != nil {
		c.logger.Warn("stdio: rejected message", "code", rpcErr.Code, "error", rpcErr.Message)
		c.writeResponse(id, nil, rpcErr)
		return
	}
	switch kind {
	case kindResponse:
		if c.deliverResponse(line) {
			return
		}
		c.logger.Info("stdio: ignoring a response from the client", "id", string(req.ID))
		return
	case kindNotification:
		if req.Method == notificationCancelled {
			if rid, ok := parseCancelled(req.Params); ok {
				c.cancel(rid)
			}
			return
		}
		if req.Method != notificationInitialized {
			c.logger.Info("stdio: ignoring notification", "method", req.Method)
		}
		return
	}

	key := string(req.ID)
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return
	}
	if _, dup := c.inflight[key]; dup {
		c.mu.Unlock()
		c.writeResponse(req.ID, nil, &Error{Code: CodeInvalidRequest, Message: "Invalid request: id is already in use by a request in flight"})
		return
	}
	rctx, cancel := context.WithCancelCause(ctx)
	c.inflight[key] = cancel
	c.wg.Add(1)
	c.mu.Unlock()

	// Listen streams last as long as the client wants; they are bounded by
	// maxListeners instead of holding a slot.
	serve := c.route(ctx, req)
	bounded := req.Method != methodListen
	if bounded {
		select {
		case c.queue <- struct{}{}:
		case <-rctx.Done():
			c.done(key, cancel)
			return
		}
	}
	go func() {
		defer c.done(key, cancel)
		if bounded {
			// Wait for a slot here, not in the read loop: a cancellation
			// must be read even when hung requests hold every slot.
			select {
			case c.sem <- struct{}{}:
				<-c.queue
			case <-rctx.Done():
				<-c.queue
				return
			}
			defer func() { <-c.sem }()
		}
		defer c.recoverTransport(req)
		resp := serve(rctx)
		// Forget the id first, so a late cancel cannot race the write;
		// signal done last, so ServeStdio returns only after the write.
		c.mu.Lock()
		delete(c.inflight, key)
		c.mu.Unlock()
		if errors.Is(context.Cause(rctx), errClientCancelled) {
			c.logger.Debug("stdio: request cancelled, no response", "id", key)
		} else {
			c.writeResponse(req.ID, resp.result, resp.err)
		}
	}()
}

// recoverTransport keeps the connection alive if encoding itself panics;
// handler panics are already answered by the dispatcher.
func (c *stdioConn) recoverTransport(req *request) {
	if r := recover(); r != nil {
		c.logger.Error("stdio: panic while serving a request", "method", req.Method, "panic", fmt.Sprint(r))
		c.writeResponse(req.ID, nil, errInternal())
	}
}

// done forgets a finished request; ServeStdio may return after the last.
func (c *stdioConn) done(key string, cancel context.CancelCauseFunc) {
	c.mu.Lock()
	delete(c.inflight, key)
	c.mu.Unlock()
	cancel(nil)
	c.wg.Done()
}

func (c *stdioConn) cancel(id []byte) {
	c.mu.Lock()
	cancel, ok := c.inflight[string(id)]
	c.mu.Unlock()
	if ok {
		cancel(errClientCancelled)
	}
}

func (c *stdioConn) writeResponse(id []byte, result []byte, rpcErr *Error) {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	c.wbuf = appendResponse(c.wbuf[:0], id, result, rpcErr)
	c.flush()
}

// notify implements notifier: progress and listen notifications are
// written like responses, whole and in call order.
func (c *stdioConn) notify(method string, params []byte) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	c.wbuf = appendNotification(c.wbuf[:0], method, params)
	return c.flush()
}

// flush writes wbuf as one line; c.wmu is held.
func (c *stdioConn) flush() error {
	if c.werr != nil {
		return c.werr
	}
	c.wbuf = append(c.wbuf, '\n')
	if _, err := c.w.Write(c.wbuf); err != nil {
		c.werr = err
		c.logger.Error("stdio: write failed; dropping further output", "error", err)
	}
	if cap(c.wbuf) > 1<<20 {
		// Don't keep one huge result's buffer for the connection's life.
		c.wbuf = nil
	}
	return c.werr
}
