package runtime_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"time"

	"github.com/mcpgen-dev/mcpgen/runtime"
)

// Logging: one structured line per request, on stderr, with what
// operators ask first: who, what, how long, how it ended.
func ExampleInterceptor_logging() {
	logger := slog.New(slog.NewJSONHandler(os.Stderr, nil))
	logCalls := func(ctx context.Context, c *runtime.Call, next runtime.Next) runtime.Outcome {
		start := time.Now()
		o := next(ctx)
		attrs := []any{"method", c.Method, "target", c.Target, "transport", c.Transport, "duration", time.Since(start)}
		if c.Identity != nil {
			attrs = append(attrs, "subject", c.Identity.Subject)
		}
		switch {
		case o.Err != nil:
			logger.WarnContext(ctx, "mcp request failed", append(attrs, "code", o.Err.Code, "error", o.Err.Message)...)
		case o.IsError:
			logger.InfoContext(ctx, "mcp tool reported an error", attrs...)
		default:
			logger.InfoContext(ctx, "mcp request", attrs...)
		}
		return o
	}
	srv := runtime.NewServer(runtime.Options{Logger: logger, Interceptors: []runtime.Interceptor{logCalls}})
	_ = srv
}

// A per-identity rate limit: each caller may make a number of tool calls
// per minute. Over the limit, the model reads why in an isError result;
// return Outcome{Err: ...} instead to answer with a JSON-RPC error.
func ExampleInterceptor_rateLimit() {
	const perMinute = 60
	var (
		mu      sync.Mutex
		windows = map[string]struct {
			start time.Time
			n     int
		}{}
	)
	limit := func(ctx context.Context, c *runtime.Call, next runtime.Next) runtime.Outcome {
		if c.Method != "tools/call" {
			return next(ctx)
		}
		who := "anonymous"
		if c.Identity != nil {
			who = c.Identity.Subject
		}
		mu.Lock()
		w := windows[who]
		if now := time.Now(); now.Sub(w.start) >= time.Minute {
			w.start, w.n = now, 0
		}
		w.n++
		windows[who] = w
		over := w.n > perMinute
		mu.Unlock()
		if over {
			return c.ToolError(fmt.Sprintf("rate limit: at most %d tool calls a minute; try again shortly", perMinute))
		}
		return next(ctx)
	}
	srv := runtime.NewServer(runtime.Options{Interceptors: []runtime.Interceptor{limit}})
	_ = srv
}

// An audit record of every tool call: who called which tool with which
// arguments, and how it ended. Write it where audit records go (here: a
// JSON line on stderr).
func ExampleInterceptor_audit() {
	audit := json.NewEncoder(os.Stderr)
	var auditMu sync.Mutex
	record := func(ctx context.Context, c *runtime.Call, next runtime.Next) runtime.Outcome {
		o := next(ctx)
		if c.Method != "tools/call" {
			return o
		}
		entry := struct {
			Time      time.Time       `json:"time"`
			Subject   string          `json:"subject,omitempty"`
			Tool      string          `json:"tool"`
			Arguments json.RawMessage `json:"arguments,omitempty"`
			RequestID json.RawMessage `json:"requestId"`
			Outcome   string          `json:"outcome"`
		}{Time: time.Now().UTC(), Tool: c.Target, Arguments: c.Arguments, RequestID: c.RequestID, Outcome: "ok"}
		if c.Identity != nil {
			entry.Subject = c.Identity.Subject
		}
		switch {
		case o.Err != nil:
			entry.Outcome = fmt.Sprintf("error %d", o.Err.Code)
		case o.IsError:
			entry.Outcome = "tool error"
		}
		auditMu.Lock()
		audit.Encode(entry) // Arguments are only valid until the interceptor returns
		auditMu.Unlock()
		return o
	}
	srv := runtime.NewServer(runtime.Options{Interceptors: []runtime.Interceptor{record}})
	_ = srv
}
