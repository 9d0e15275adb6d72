// Package otelmcp instruments an mcpgen server with OpenTelemetry, by the
// OpenTelemetry semantic conventions for the Model Context Protocol
// (open-telemetry/semantic-conventions docs/gen-ai/mcp.md at commit
// 7b0c0fe1e6d7b7fc857ba496aad7919e368453e7, the last before the GenAI
// conventions moved to their own repository; status: development).
//
// New returns a runtime.Interceptor that, for every request the server
// dispatches, on stdio and Streamable HTTP and in both protocol eras:
//
//   - starts a SERVER span named "{mcp.method.name} {target}", the target
//     being the tool or prompt name ("tools/call get_order_status"), or
//     "{mcp.method.name}" alone when there is no low-cardinality target
//     (resources/read names no URI: it would make span names unbounded);
//   - continues the client's trace: the parent is the W3C trace context
//     the client put in params._meta (traceparent, tracestate, baggage,
//     the keys 2026-07-28 reserves for it), and the ambient span of the
//     transport (an HTTP server span, when the handler is wrapped in one)
//     becomes a link; without trace context in _meta the ambient span is
//     the parent;
//   - records mcp.method.name, gen_ai.tool.name, gen_ai.operation.name
//     (execute_tool), gen_ai.prompt.name, mcp.resource.uri,
//     jsonrpc.request.id, mcp.protocol.version, mcp.session.id (2025-11-25
//     HTTP sessions), network.transport and network.protocol.name;
//   - marks failures: a JSON-RPC error sets error.type and
//     rpc.response.status_code to its code ("-32602") and the span status
//     to Error with the error's message; a tools/call result with isError
//     true sets error.type "tool_error" and the status to Error, which
//     plain HTTP or RPC telemetry would count as a success;
//   - records the histogram mcp.server.operation.duration (seconds, the
//     conventions' bucket boundaries) with the low-cardinality attributes.
//
// The package uses the OpenTelemetry API only: the application chooses
// the SDK, exporters and propagators (see docs/observability.md). The
// runtime itself does not import this package.
package otelmcp

import (
	"context"
	"encoding/json"
	"strconv"
	"time"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"

	"github.com/mcpgen-dev/mcpgen/runtime"
)

// ScopeName is the instrumentation scope of the spans and metrics.
const ScopeName = "github.com/mcpgen-dev/mcpgen/runtime/otelmcp"

// Attribute keys of the MCP semantic conventions.
const (
	keyMethod          = attribute.Key("mcp.method.name")
	keyToolName        = attribute.Key("gen_ai.tool.name")
	keyPromptName      = attribute.Key("gen_ai.prompt.name")
	keyOperation       = attribute.Key("gen_ai.operation.name")
	keyResourceURI     = attribute.Key("mcp.resource.uri")
	keySessionID       = attribute.Key("mcp.session.id")
	keyProtocolVersion = attribute.Key("mcp.protocol.version")
	keyRequestID       = attribute.Key("jsonrpc.request.id")
	keyErrorType       = attribute.Key("error.type")
	keyStatusCode      = attribute.Key("rpc.response.status_code")
	keyTransport       = attribute.Key("network.transport")
	keyProtocolName    = attribute.Key("network.protocol.name")
)

// toolError is error.type of a tools/call result with isError true.
const toolError = "tool_error"

// durationBuckets returns the explicit bucket boundaries the conventions
// give for the MCP duration histograms, in seconds.
func durationBuckets() []float64 {
	return []float64{0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300}
}

// Options configure the instrumentation. Zero fields take the global
// providers of go.opentelemetry.io/otel.
type Options struct {
	TracerProvider trace.TracerProvider
	MeterProvider  metric.MeterProvider
	// Propagator extracts the client's trace context from _meta. The
	// default is W3C Trace Context and W3C Baggage, the formats the
	// protocol reserves the keys for.
	Propagator propagation.TextMapPropagator
	// ResourceURIInMetrics adds mcp.resource.uri to the duration metric
	// (opt-in in the conventions: URIs can be unbounded).
	ResourceURIInMetrics bool
}

// Instrumentation holds the tracer and instruments of one server.
type Instrumentation struct {
	tracer      trace.Tracer
	duration    metric.Float64Histogram
	sessions    metric.Float64Histogram
	propagator  propagation.TextMapPropagator
	uriInMetric bool
}

// New creates the instruments. Its error is the meter's (an invalid
// instrument definition), which does not happen with the SDK's meters.
func New(opts Options) (*Instrumentation, error) {
	tp, mp, prop := opts.TracerProvider, opts.MeterProvider, opts.Propagator
	if tp == nil {
		tp = otel.GetTracerProvider()
	}
	if mp == nil {
		mp = otel.GetMeterProvider()
	}
	if prop == nil {
		prop = propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{})
	}
	meter := mp.Meter(ScopeName)
	duration, err := meter.Float64Histogram("mcp.server.operation.duration",
		metric.WithUnit("s"),
		metric.WithDescription("MCP request or notification duration as observed on the receiver from the time it was received until the result or ack is sent."),
		metric.WithExplicitBucketBoundaries(durationBuckets()...))
	if err != nil {
		return nil, err
	}
	sessions, err := meter.Float64Histogram("mcp.server.session.duration",
		metric.WithUnit("s"),
		metric.WithDescription("The duration of the MCP session as observed on the MCP server."),
		metric.WithExplicitBucketBoundaries(durationBuckets()...))
	if err != nil {
		return nil, err
	}
	return &Instrumentation{
		tracer:      tp.Tracer(ScopeName),
		duration:    duration,
		sessions:    sessions,
		propagator:  prop,
		uriInMetric: opts.ResourceURIInMetrics,
	}, nil
}

// Interceptor returns the interceptor to list in runtime.Options: first,
// so that its span and duration cover the interceptors after it.
func (in *Instrumentation) Interceptor() runtime.Interceptor {
	return in.intercept
}

// OnSession is the runtime.Options.OnSession hook that records
// mcp.server.session.duration for 2025-11-25 sessions.
func (in *Instrumentation) OnSession(s runtime.SessionInfo) func() {
	start := time.Now()
	attrs := make([]attribute.KeyValue, 0, 3)
	attrs = append(attrs, keyProtocolVersion.String(s.ProtocolVersion))
	attrs = appendTransport(attrs, s.Transport)
	return func() {
		in.sessions.Record(context.Background(), time.Since(start).Seconds(), metric.WithAttributes(attrs...))
	}
}

// Install adds the instrumentation to opts: its interceptor first, so
// that spans and durations cover every other interceptor, and its
// session hook, chained before any hook already set.
func (in *Instrumentation) Install(opts *runtime.Options) {
	opts.Interceptors = append([]runtime.Interceptor{in.Interceptor()}, opts.Interceptors...)
	prev := opts.OnSession
	opts.OnSession = func(s runtime.SessionInfo) func() {
		end := in.OnSession(s)
		if prev == nil {
			return end
		}
		prevEnd := prev(s)
		return func() {
			if prevEnd != nil {
				prevEnd()
			}
			end()
		}
	}
}

// appendTransport appends network.transport and network.protocol.name
// as the conventions record the MCP transports.
func appendTransport(attrs []attribute.KeyValue, transport string) []attribute.KeyValue {
	switch transport {
	case "stdio":
		return append(attrs, keyTransport.String("pipe"))
	case "http":
		return append(attrs, keyTransport.String("tcp"), keyProtocolName.String("http"))
	}
	return attrs
}

// traceCarrier reads the W3C trace context of _meta for a propagator.
type traceCarrier struct{ tc *runtime.TraceContext }

func (c traceCarrier) Get(key string) string {
	switch key {
	case "traceparent":
		return c.tc.Traceparent
	case "tracestate":
		return c.tc.Tracestate
	case "baggage":
		return c.tc.Baggage
	}
	return ""
}

func (traceCarrier) Set(string, string) {}

func (traceCarrier) Keys() []string { return []string{"traceparent", "tracestate", "baggage"} }

func (in *Instrumentation) intercept(ctx context.Context, c *runtime.Call, next runtime.Next) runtime.Outcome {
	start := time.Now()
	parent := ctx
	var startOpts []trace.SpanStartOption
	if tc := c.Meta.Trace; tc != nil {
		parent = in.propagator.Extract(ctx, traceCarrier{tc})
		if ambient := trace.SpanContextFromContext(ctx); ambient.IsValid() && !ambient.Equal(trace.SpanContextFromContext(parent)) {
			startOpts = append(startOpts, trace.WithLinks(trace.Link{SpanContext: ambient}))
		}
	}

	// The attributes both signals share come first, so that the metric
	// takes a prefix of the span's.
	attrs := make([]attribute.KeyValue, 0, 12)
	attrs = append(attrs, keyMethod.String(c.Method))
	name := c.Method
	named := false
	switch c.Method {
	case "tools/call":
		if c.Target != "" {
			name += " " + c.Target
			named = true
			attrs = append(attrs, keyToolName.String(c.Target))
		}
		attrs = append(attrs, keyOperation.String("execute_tool"))
	case "prompts/get":
		if c.Target != "" {
			name += " " + c.Target
			named = true
			attrs = append(attrs, keyPromptName.String(c.Target))
		}
	}
	if v := c.Meta.ProtocolVersion; v != "" {
		attrs = append(attrs, keyProtocolVersion.String(v))
	}
	attrs = appendTransport(attrs, c.Transport)
	shared := len(attrs)
	if c.Target != "" && c.Method != "tools/call" && c.Method != "prompts/get" {
		// resources/read, resources/subscribe, resources/unsubscribe
		attrs = append(attrs, keyResourceURI.String(c.Target))
		if in.uriInMetric {
			shared = len(attrs)
		}
	}
	if id, ok := requestID(c.RequestID); ok {
		attrs = append(attrs, keyRequestID.String(id))
	}
	if c.SessionID != "" {
		attrs = append(attrs, keySessionID.String(c.SessionID))
	}
	startOpts = append(startOpts, trace.WithSpanKind(trace.SpanKindServer), trace.WithAttributes(attrs...), trace.WithTimestamp(start))
	ctx, span := in.tracer.Start(parent, name, startOpts...)

	o := next(ctx)

	metricAttrs := attrs[:shared:shared]
	switch {
	case o.Err != nil && o.Err.Code == runtime.CodeInvalidParams && named:
		// An unknown tool or prompt name is the client's to choose: kept
		// on the span, but not made a metric series.
		metricAttrs = withoutNames(metricAttrs)
		fallthrough
	case o.Err != nil:
		code := strconv.Itoa(o.Err.Code)
		failure := []attribute.KeyValue{keyErrorType.String(code), keyStatusCode.String(code)}
		span.SetAttributes(failure...)
		span.SetStatus(codes.Error, o.Err.Message)
		metricAttrs = append(metricAttrs, failure...)
	case o.IsError:
		span.SetAttributes(keyErrorType.String(toolError))
		span.SetStatus(codes.Error, "")
		metricAttrs = append(metricAttrs, keyErrorType.String(toolError))
	}
	end := time.Now()
	span.End(trace.WithTimestamp(end))
	in.duration.Record(ctx, end.Sub(start).Seconds(), metric.WithAttributes(metricAttrs...))
	return o
}

// withoutNames returns attrs without gen_ai.tool.name and
// gen_ai.prompt.name, in a new slice.
func withoutNames(attrs []attribute.KeyValue) []attribute.KeyValue {
	out := make([]attribute.KeyValue, 0, len(attrs))
	for _, kv := range attrs {
		if kv.Key != keyToolName && kv.Key != keyPromptName {
			out = append(out, kv)
		}
	}
	return out
}

// requestID is the string form of a JSON-RPC id: a string's value, a
// number's text. A null or absent id is not recorded.
func requestID(raw json.RawMessage) (string, bool) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", false
	}
	if raw[0] == '"' {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			return s, true
		}
	}
	return string(raw), true
}
