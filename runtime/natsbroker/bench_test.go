package natsbroker_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mcpgen-dev/mcpgen/runtime"
)

// BenchmarkLegacyToolsCall measures tools/call in 2025-11-25 sessions
// through a round-robin proxy: one replica without a broker (the
// baseline), one replica with the broker configured, and three replicas
// joined by the broker (every call may land on another replica than the
// previous one). All run in this process, on the same CPUs, so the ratio
// is the broker path's cost, not extra capacity.
//
//	go test -run '^$' -bench LegacyToolsCall -count 3 ./runtime/natsbroker/
func BenchmarkLegacyToolsCall(b *testing.B) {
	ns := startNATS(b, 0)
	b.Run("1-replica-no-broker", func(b *testing.B) {
		benchCalls(b, []*replica{benchReplica(b, "")})
	})
	b.Run("1-replica-broker", func(b *testing.B) {
		benchCalls(b, []*replica{benchReplica(b, ns.ClientURL())})
	})
	b.Run("3-replicas-broker", func(b *testing.B) {
		benchCalls(b, []*replica{benchReplica(b, ns.ClientURL()), benchReplica(b, ns.ClientURL()), benchReplica(b, ns.ClientURL())})
	})
}

func benchReplica(b *testing.B, natsURL string) *replica {
	if natsURL == "" {
		r := &replica{}
		r.srv = runtime.NewServer(runtime.Options{StateKeys: [][]byte{sharedKey}, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
		r.srv.AddTool(runtime.ToolDef{Name: "count", Definition: `{"name":"count","inputSchema":{"type":"object"}}`,
			Call: func(ctx context.Context, args []byte) (*runtime.ToolResult, error) {
				return runtime.StructuredResult([]byte(`{"ok":true}`)), nil
			}})
		r.ts = httptest.NewServer(r.srv.Handler(runtime.HTTPOptions{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}))
		b.Cleanup(r.ts.Close)
		return r
	}
	return startReplica(b, natsURL, io.Discard)
}

func benchCalls(b *testing.B, rs []*replica) {
	lb := roundRobin(b, rs)
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		c := &legacyClient{t: nil, url: lb.URL, client: client}
		if err := c.tryInitialize(); err != nil {
			b.Error(err)
			return
		}
		body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"count","arguments":{}}}`
		for pb.Next() {
			resp, err := c.do(body)
			if err != nil {
				b.Error(err)
				return
			}
			out, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != 200 || !strings.Contains(string(out), `"ok":true`) {
				b.Errorf("tools/call: %d %s", resp.StatusCode, out)
				return
			}
		}
	})
}
