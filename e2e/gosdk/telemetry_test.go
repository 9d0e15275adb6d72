package gosdk

import (
	"bufio"
	"context"
	"encoding/hex"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	colmetricpb "go.opentelemetry.io/proto/otlp/collector/metrics/v1"
	coltracepb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/proto"
)

// otlpReceiver is an OTLP/HTTP endpoint that keeps what it receives: the
// real export requests of the server's exporters, decoded from protobuf.
type otlpReceiver struct {
	mu      sync.Mutex
	spans   []*tracepb.Span
	service []string
	metrics []string
}

func (r *otlpReceiver) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	body, err := io.ReadAll(req.Body)
	if err != nil || req.Header.Get("Content-Type") != "application/x-protobuf" {
		http.Error(w, "want a protobuf body", http.StatusBadRequest)
		return
	}
	var reply proto.Message
	switch req.URL.Path {
	case "/v1/traces":
		var m coltracepb.ExportTraceServiceRequest
		if err := proto.Unmarshal(body, &m); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		r.mu.Lock()
		for _, rs := range m.ResourceSpans {
			r.service = append(r.service, attr(rs.Resource.Attributes, "service.name"))
			for _, ss := range rs.ScopeSpans {
				r.spans = append(r.spans, ss.Spans...)
			}
		}
		r.mu.Unlock()
		reply = &coltracepb.ExportTraceServiceResponse{}
	case "/v1/metrics":
		var m colmetricpb.ExportMetricsServiceRequest
		if err := proto.Unmarshal(body, &m); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		r.mu.Lock()
		for _, rm := range m.ResourceMetrics {
			for _, sm := range rm.ScopeMetrics {
				for _, mt := range sm.Metrics {
					r.metrics = append(r.metrics, mt.Name)
				}
			}
		}
		r.mu.Unlock()
		reply = &colmetricpb.ExportMetricsServiceResponse{}
	default:
		http.NotFound(w, req)
		return
	}
	out, _ := proto.Marshal(reply)
	w.Header().Set("Content-Type", "application/x-protobuf")
	w.Write(out)
}

func attr(kvs []*commonpb.KeyValue, key string) string {
	for _, kv := range kvs {
		if kv.Key == key {
			return kv.Value.GetStringValue()
		}
	}
	return ""
}

func (r *otlpReceiver) span(name string) *tracepb.Span {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, s := range r.spans {
		if s.Name == name {
			return s
		}
	}
	return nil
}

// TestTelemetry runs orders-mcp with the standard OTEL_* variables
// pointing at an in-test OTLP receiver and with --metrics-addr, drives it
// with the Go SDK client (a traceparent in _meta, as a client continuing
// its own trace sends it), scrapes /metrics while it runs, and checks the
// spans and metrics the process exported.
func TestTelemetry(t *testing.T) {
	recv := &otlpReceiver{}
	collector := httptest.NewServer(recv)
	defer collector.Close()

	cmd := exec.Command(serverBinary(t), "--db", filepath.Join(t.TempDir(), "orders.db"), "--metrics-addr", "127.0.0.1:0")
	cmd.Env = append(os.Environ(), "ORDERS_USER=alice",
		"OTEL_EXPORTER_OTLP_ENDPOINT="+collector.URL,
		"OTEL_SERVICE_NAME=orders-e2e",
		"OTEL_BSP_SCHEDULE_DELAY=100",
		"OTEL_METRIC_EXPORT_INTERVAL=200")
	stderrR, stderrW := io.Pipe()
	cmd.Stderr = stderrW
	metricsURL := make(chan string, 1)
	go func() {
		re := regexp.MustCompile(`url=(http://\S+/metrics)`)
		sc := bufio.NewScanner(stderrR)
		for sc.Scan() {
			if m := re.FindStringSubmatch(sc.Text()); m != nil {
				metricsURL <- m[1]
			}
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	client := mcp.NewClient(&mcp.Implementation{Name: "mcpgen-e2e-gosdk", Version: "0.0.0"}, nil)
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	closed := false
	defer func() {
		if !closed {
			cs.Close()
		}
		stderrW.Close()
	}()

	const (
		traceID  = "4bf92f3577b34da6a3ce929d0e0e4736"
		parentID = "00f067aa0ba902b7"
	)
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_order_status", Arguments: map[string]any{"order_id": "A1001"},
		Meta: mcp.Meta{"traceparent": "00-" + traceID + "-" + parentID + "-01"}})
	if err != nil || res.IsError {
		t.Fatalf("get_order_status: %v %v", err, res)
	}
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "search_orders", Arguments: map[string]any{"limit": 500}})
	if err != nil || !res.IsError {
		t.Fatalf("search_orders with a bad limit: want an isError result, got %v %v", err, res)
	}

	// Prometheus, scraped from the running process.
	var url string
	select {
	case url = <-metricsURL:
	case <-time.After(15 * time.Second):
		t.Fatal("orders-mcp did not log its metrics URL")
	}
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	text := string(body)
	for _, want := range []*regexp.Regexp{
		regexp.MustCompile(`(?m)^# TYPE mcp_server_operation_duration_seconds histogram$`),
		regexp.MustCompile(`(?m)^mcp_server_operation_duration_seconds_count\{[^}]*gen_ai_tool_name="get_order_status"[^}]*mcp_method_name="tools/call"[^}]*\} 1$`),
		regexp.MustCompile(`(?m)^mcp_server_operation_duration_seconds_count\{[^}]*error_type="tool_error"[^}]*gen_ai_tool_name="search_orders"[^}]*\} 1$`),
		regexp.MustCompile(`(?m)^mcp_server_operation_duration_seconds_bucket\{[^}]*gen_ai_tool_name="get_order_status"[^}]*le="0\.01"[^}]*\} `),
	} {
		if !want.MatchString(text) {
			t.Errorf("/metrics lacks %s:\n%s", want, grepLines(text, "mcp_server"))
		}
	}

	// Ending the session ends the process, which flushes its exporters.
	cs.Close()
	closed = true
	deadline := time.Now().Add(20 * time.Second)
	for recv.span("tools/call search_orders") == nil || recv.span("tools/call get_order_status") == nil {
		if time.Now().After(deadline) {
			t.Fatal("the server exported no tools/call spans")
		}
		time.Sleep(50 * time.Millisecond)
	}
	s := recv.span("tools/call get_order_status")
	if hex.EncodeToString(s.TraceId) != traceID || hex.EncodeToString(s.ParentSpanId) != parentID || s.Kind != tracepb.Span_SPAN_KIND_SERVER {
		t.Errorf("get_order_status span: trace %x parent %x kind %v; want the client's trace %s and parent %s, SERVER",
			s.TraceId, s.ParentSpanId, s.Kind, traceID, parentID)
	}
	if got := attr(s.Attributes, "gen_ai.tool.name"); got != "get_order_status" {
		t.Errorf("gen_ai.tool.name = %q", got)
	}
	s = recv.span("tools/call search_orders")
	if attr(s.Attributes, "error.type") != "tool_error" || s.Status.GetCode() != tracepb.Status_STATUS_CODE_ERROR {
		t.Errorf("isError span: error.type %q status %v", attr(s.Attributes, "error.type"), s.Status)
	}
	recv.mu.Lock()
	defer recv.mu.Unlock()
	if len(recv.service) == 0 || recv.service[0] != "orders-e2e" {
		t.Errorf("service.name of the exported spans: %q", recv.service)
	}
	found := false
	for _, m := range recv.metrics {
		found = found || m == "mcp.server.operation.duration"
	}
	if !found {
		t.Errorf("no mcp.server.operation.duration among the OTLP metrics %q", recv.metrics)
	}
}

func grepLines(text, sub string) string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		if strings.Contains(l, sub) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}
