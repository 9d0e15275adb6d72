package otelmcp_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/mcpgen-dev/mcpgen/runtime"
	"github.com/mcpgen-dev/mcpgen/runtime/otelmcp"
)

const (
	meta        = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}`
	traceID     = "4bf92f3577b34da6a3ce929d0e0e4736"
	parentSpan  = "00f067aa0ba902b7"
	traceparent = "00-" + traceID + "-" + parentSpan + "-01"
)

// telemetry is an instrumented server with in-memory exporters.
type telemetry struct {
	srv    *runtime.Server
	spans  *tracetest.InMemoryExporter
	reader *sdkmetric.ManualReader
}

func newTelemetry(t *testing.T) *telemetry {
	tm := &telemetry{spans: tracetest.NewInMemoryExporter(), reader: sdkmetric.NewManualReader()}
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(tm.spans))
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(tm.reader))
	in, err := otelmcp.New(otelmcp.Options{TracerProvider: tp, MeterProvider: mp})
	if err != nil {
		t.Fatal(err)
	}
	opts := runtime.Options{Logger: slog.New(slog.DiscardHandler), Info: runtime.Implementation{Name: "t", Version: "1"}}
	in.Install(&opts)
	s := runtime.NewServer(opts)
	def := func(name string) string { return `{"name":"` + name + `","inputSchema":{"type":"object"}}` }
	s.AddTool(runtime.ToolDef{Name: "ok", Definition: def("ok"), Call: func(ctx context.Context, args []byte) (*runtime.ToolResult, error) {
		// The handler runs inside the server span.
		sc := trace.SpanContextFromContext(ctx)
		return &runtime.ToolResult{Content: []runtime.Content{runtime.TextContent(sc.TraceID().String())}}, nil
	}})
	s.AddTool(runtime.ToolDef{Name: "fails", Definition: def("fails"), Call: func(ctx context.Context, args []byte) (*runtime.ToolResult, error) {
		return nil, errors.New("the order is already shipped")
	}})
	s.AddPrompt(runtime.PromptDef{Name: "greet", Definition: `{"name":"greet"}`, Get: func(ctx context.Context, args map[string]string) (*runtime.PromptResult, error) {
		return &runtime.PromptResult{}, nil
	}})
	s.AddResource(runtime.ResourceDef{URI: "policy://a", Definition: `{"uri":"policy://a","name":"a"}`, Read: func(ctx context.Context, uri string) ([]runtime.ResourceContents, error) {
		return []runtime.ResourceContents{{Text: "x"}}, nil
	}})
	tm.srv = s
	return tm
}

// stdio sends lines to a stdio connection and waits for n answers.
func (tm *telemetry) stdio(t *testing.T, lines ...string) []string {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- tm.srv.ServeStdio(context.Background(), inR, outW, runtime.StdioOptions{})
		outW.Close()
	}()
	sc := bufio.NewScanner(outR)
	var answers []string
	for _, l := range lines {
		io.WriteString(inW, l+"\n")
		if !strings.Contains(l, `"id"`) {
			continue
		}
		if !sc.Scan() {
			t.Fatalf("no answer to %s", l)
		}
		answers = append(answers, sc.Text())
	}
	inW.Close()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	return answers
}

func (tm *telemetry) span(t *testing.T, name string) sdktrace.ReadOnlySpan {
	t.Helper()
	for _, s := range tm.spans.GetSpans().Snapshots() {
		if s.Name() == name {
			return s
		}
	}
	var names []string
	for _, s := range tm.spans.GetSpans() {
		names = append(names, s.Name)
	}
	t.Fatalf("no span %q among %q", name, names)
	return nil
}

func attrs(kvs []attribute.KeyValue) map[string]string {
	m := map[string]string{}
	for _, kv := range kvs {
		m[string(kv.Key)] = kv.Value.Emit()
	}
	return m
}

func checkAttrs(t *testing.T, what string, got []attribute.KeyValue, want map[string]string, absent ...string) {
	t.Helper()
	m := attrs(got)
	for k, v := range want {
		if m[k] != v {
			t.Errorf("%s: %s = %q, want %q (all: %v)", what, k, m[k], v, m)
		}
	}
	for _, k := range absent {
		if _, ok := m[k]; ok {
			t.Errorf("%s: unexpected %s = %q", what, k, m[k])
		}
	}
}

func TestSpans(t *testing.T) {
	tm := newTelemetry(t)
	answers := tm.stdio(t,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"ok",`+meta+`,"traceparent":"`+traceparent+`","tracestate":"rojo=1"}}}`,
		`{"jsonrpc":"2.0","id":"r-2","method":"tools/call","params":{"name":"fails",`+meta+`}}}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"nope",`+meta+`}}}`,
		`{"jsonrpc":"2.0","id":4,"method":"prompts/get","params":{"name":"greet",`+meta+`}}}`,
		`{"jsonrpc":"2.0","id":5,"method":"resources/read","params":{"uri":"policy://a",`+meta+`}}}`,
		`{"jsonrpc":"2.0","id":6,"method":"tools/list","params":{`+meta+`}}}`,
	)
	if !strings.Contains(answers[0], traceID) {
		t.Errorf("the handler did not run in the client's trace: %s", answers[0])
	}

	// A trace started by the client continues in the server span.
	s := tm.span(t, "tools/call ok")
	if s.SpanKind() != trace.SpanKindServer || s.Parent().TraceID().String() != traceID || s.Parent().SpanID().String() != parentSpan ||
		!s.Parent().IsRemote() || s.SpanContext().TraceID().String() != traceID || s.SpanContext().TraceState().String() != "rojo=1" {
		t.Errorf("tools/call ok: kind %v parent %v trace %v", s.SpanKind(), s.Parent(), s.SpanContext())
	}
	checkAttrs(t, "tools/call ok", s.Attributes(), map[string]string{
		"mcp.method.name": "tools/call", "gen_ai.tool.name": "ok", "gen_ai.operation.name": "execute_tool",
		"jsonrpc.request.id": "1", "mcp.protocol.version": "2026-07-28", "network.transport": "pipe",
	}, "error.type", "mcp.session.id", "network.protocol.name")
	if s.Status().Code != codes.Unset {
		t.Errorf("tools/call ok: status %v", s.Status())
	}

	// An isError result is an error, though the JSON-RPC call succeeded.
	s = tm.span(t, "tools/call fails")
	checkAttrs(t, "tools/call fails", s.Attributes(), map[string]string{"error.type": "tool_error", "jsonrpc.request.id": "r-2"}, "rpc.response.status_code")
	if s.Status().Code != codes.Error || s.Parent().IsValid() {
		t.Errorf("tools/call fails: status %v parent %v", s.Status(), s.Parent())
	}
	// A JSON-RPC error carries its code. The unknown tool's name stays
	// on the span but makes no metric series.
	s = tm.span(t, "tools/call nope")
	checkAttrs(t, "tools/call nope", s.Attributes(), map[string]string{"error.type": "-32602", "rpc.response.status_code": "-32602"})
	if s.Status().Code != codes.Error || !strings.Contains(s.Status().Description, "Unknown tool") {
		t.Errorf("tools/call nope: status %v", s.Status())
	}
	checkAttrs(t, "prompts/get", tm.span(t, "prompts/get greet").Attributes(), map[string]string{"gen_ai.prompt.name": "greet"}, "gen_ai.tool.name")
	checkAttrs(t, "resources/read", tm.span(t, "resources/read").Attributes(), map[string]string{"mcp.resource.uri": "policy://a"})
	checkAttrs(t, "tools/list", tm.span(t, "tools/list").Attributes(), map[string]string{"mcp.method.name": "tools/list"}, "gen_ai.tool.name")

	// The duration histogram: seconds, the conventions' buckets, the
	// low-cardinality attributes only.
	var rm metricdata.ResourceMetrics
	if err := tm.reader.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	h := histogram(t, rm, "mcp.server.operation.duration")
	if h.unit != "s" {
		t.Errorf("unit %q", h.unit)
	}
	byKey := map[string]metricdata.HistogramDataPoint[float64]{}
	for _, dp := range h.points {
		m := attrs(dp.Attributes.ToSlice())
		if _, ok := m["jsonrpc.request.id"]; ok {
			t.Errorf("request id on the metric: %v", m)
		}
		if _, ok := m["mcp.resource.uri"]; ok {
			t.Errorf("resource uri on the metric by default: %v", m)
		}
		byKey[m["mcp.method.name"]+" "+m["gen_ai.tool.name"]+m["gen_ai.prompt.name"]+" "+m["error.type"]] = dp
	}
	for _, k := range []string{"tools/call ok ", "tools/call fails tool_error", "tools/call  -32602", "prompts/get greet ", "resources/read  ", "tools/list  "} {
		dp, ok := byKey[k]
		if !ok || dp.Count != 1 {
			t.Errorf("no single measurement for %q: %v", k, byKey)
			continue
		}
		if fmt.Sprint(dp.Bounds) != fmt.Sprint([]float64{0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300}) {
			t.Errorf("%q: bounds %v", k, dp.Bounds)
		}
	}
}

type histogramData struct {
	unit   string
	points []metricdata.HistogramDataPoint[float64]
}

func histogram(t *testing.T, rm metricdata.ResourceMetrics, name string) histogramData {
	t.Helper()
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			if m.Name == name {
				h, ok := m.Data.(metricdata.Histogram[float64])
				if !ok {
					t.Fatalf("%s is a %T", name, m.Data)
				}
				return histogramData{unit: m.Unit, points: h.DataPoints}
			}
		}
	}
	t.Fatalf("no metric %s", name)
	return histogramData{}
}

// TestLegacyHTTPSession: a 2025-11-25 session over HTTP: the span has
// the session id and the HTTP transport, the client's traceparent in
// _meta is the parent, and the session's duration is recorded when it
// ends.
func TestLegacyHTTPSession(t *testing.T) {
	tm := newTelemetry(t)
	ts := httptest.NewServer(tm.srv.Handler(runtime.HTTPOptions{}))
	defer ts.Close()
	post := func(sid, body string) *http.Response {
		req, _ := http.NewRequest(http.MethodPost, ts.URL, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if sid != "" {
			req.Header.Set("Mcp-Session-Id", sid)
			req.Header.Set("MCP-Protocol-Version", "2025-11-25")
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp
	}
	resp := post("", `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`)
	sid := resp.Header.Get("Mcp-Session-Id")
	if sid == "" {
		t.Fatalf("initialize: %d", resp.StatusCode)
	}
	post(sid, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"ok","_meta":{"traceparent":"`+traceparent+`"}}}`)
	s := tm.span(t, "tools/call ok")
	checkAttrs(t, "legacy tools/call", s.Attributes(), map[string]string{
		"mcp.session.id": sid, "mcp.protocol.version": "2025-11-25", "network.transport": "tcp", "network.protocol.name": "http",
	})
	if s.Parent().SpanID().String() != parentSpan {
		t.Errorf("parent %v", s.Parent())
	}
	req, _ := http.NewRequest(http.MethodDelete, ts.URL, nil)
	req.Header.Set("Mcp-Session-Id", sid)
	req.Header.Set("MCP-Protocol-Version", "2025-11-25")
	if resp, err := http.DefaultClient.Do(req); err != nil {
		t.Fatal(err)
	} else {
		resp.Body.Close()
	}
	// The end is reported when the session's context ends, just after
	// DELETE is answered.
	deadline := time.Now().Add(5 * time.Second)
	for {
		var rm metricdata.ResourceMetrics
		tm.reader.Collect(context.Background(), &rm)
		if found := sessionPoints(rm); len(found) == 1 {
			checkAttrs(t, "session duration", found[0].Attributes.ToSlice(), map[string]string{
				"mcp.protocol.version": "2025-11-25", "network.transport": "tcp",
			})
			if found[0].Count != 1 {
				t.Errorf("sessions recorded: %d", found[0].Count)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no mcp.server.session.duration after DELETE")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func sessionPoints(rm metricdata.ResourceMetrics) []metricdata.HistogramDataPoint[float64] {
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			if h, ok := m.Data.(metricdata.Histogram[float64]); ok && m.Name == "mcp.server.session.duration" {
				return h.DataPoints
			}
		}
	}
	return nil
}
