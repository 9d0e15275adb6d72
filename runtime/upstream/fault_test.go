package upstream

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpgen-dev/mcpgen/runtime/wire"
)

// TestFaults injects the failures a wrapped REST API shows in
// production and checks that each ends in a clean error or a marked result,
// never a hang, a panic or an unbounded read.
func TestFaults(t *testing.T) {
	t.Run("slow upstream past the timeout", func(t *testing.T) {
		release := make(chan struct{})
		defer close(release)
		var calls atomic.Int32
		c := clientFor(t, func(w http.ResponseWriter, r *http.Request) {
			calls.Add(1)
			select {
			case <-release:
			case <-r.Context().Done():
			}
		}, WithHTTPClient(&http.Client{Timeout: 50 * time.Millisecond}))
		start := time.Now()
		_, err := c.Do(context.Background(), &Request{Method: "GET", Path: "/slow"})
		if err == nil {
			t.Fatal("a request to an upstream that never answers succeeded")
		}
		// A GET is idempotent, so it was retried; the bound is generous on
		// purpose: it tells a hang from a timeout, it is not a speed claim.
		if elapsed := time.Since(start); elapsed > 10*time.Second {
			t.Errorf("gave up after %v: the timeout did not apply", elapsed)
		}
		if got := calls.Load(); got != 3 {
			t.Errorf("%d attempts, want 3 (the first and two retries of an idempotent GET)", got)
		}
	})

	t.Run("caller cancels while the upstream is slow", func(t *testing.T) {
		release := make(chan struct{})
		defer close(release)
		c := clientFor(t, func(w http.ResponseWriter, r *http.Request) {
			select {
			case <-release:
			case <-r.Context().Done():
			}
		})
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(30*time.Millisecond, cancel)
		_, err := c.Do(ctx, &Request{Method: "POST", Path: "/slow"})
		if !errors.Is(err, context.Canceled) {
			t.Errorf("err %v, want context.Canceled", err)
		}
	})

	t.Run("5xx on a non-idempotent call is not retried", func(t *testing.T) {
		var calls atomic.Int32
		c := clientFor(t, func(w http.ResponseWriter, r *http.Request) {
			calls.Add(1)
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusInternalServerError)
			io.WriteString(w, `{"message":"database is down"}`)
		})
		_, err := c.Do(context.Background(), &Request{Method: "POST", Path: "/orders"})
		var ue *Error
		if !errors.As(err, &ue) || ue.Status != 500 || !strings.Contains(err.Error(), "database is down") {
			t.Fatalf("err %v, want a 500 Error carrying the message", err)
		}
		if calls.Load() != 1 {
			t.Errorf("%d attempts of a POST, want 1: a retry could execute it twice", calls.Load())
		}
	})

	t.Run("garbage body labelled JSON", func(t *testing.T) {
		c := clientFor(t, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, "\x00\xff{not json at all")
		})
		resp, err := c.Do(context.Background(), &Request{Method: "GET", Path: "/"})
		if err != nil {
			t.Fatal(err)
		}
		var out garbageSink
		if err := DecodeJSON(resp, &out); err == nil {
			t.Error("garbage decoded as the structured output")
		}
	})

	t.Run("huge body is capped in memory", func(t *testing.T) {
		const total = 64 << 20
		var written atomic.Int64
		c := clientFor(t, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/plain")
			chunk := []byte(strings.Repeat("x", 32<<10))
			for n := 0; n < total; n += len(chunk) {
				m, err := w.Write(chunk)
				written.Add(int64(m))
				if err != nil {
					return
				}
			}
		}, WithMaxResponseBytes(1<<20))
		resp, err := c.Do(context.Background(), &Request{Method: "GET", Path: "/big"})
		if err != nil {
			t.Fatal(err)
		}
		if len(resp.Body) != 1<<20 || resp.Truncated <= 0 {
			t.Fatalf("kept %d bytes, truncated %d: want the 1 MiB cap and a positive count", len(resp.Body), resp.Truncated)
		}
		if !strings.HasSuffix(resp.Text(), "]") || !strings.Contains(resp.Text(), "…[truncated ") {
			t.Error("the text of a capped body carries no truncation marker")
		}
	})

	t.Run("upstream drops the connection mid-body", func(t *testing.T) {
		c := clientFor(t, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("Content-Length", "1000")
			io.WriteString(w, `{"partial":`)
			if hj, ok := w.(http.Hijacker); ok {
				conn, _, err := hj.Hijack()
				if err == nil {
					conn.Close()
				}
			}
		}, WithRetries(0, 0))
		if _, err := c.Do(context.Background(), &Request{Method: "GET", Path: "/cut"}); err == nil {
			t.Error("a body cut short by the upstream was taken as complete")
		}
	})
}

// garbageSink fails like a generated type does on malformed JSON.
type garbageSink struct{}

func (garbageSink) UnmarshalJSON(b []byte) error {
	var d wire.Decoder
	d.Reset(b)
	return d.Skip()
}
