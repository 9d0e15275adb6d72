package otelmcp_test

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"log/slog"
	"testing"

	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	"github.com/mcpgen-dev/mcpgen/runtime"
	"github.com/mcpgen-dev/mcpgen/runtime/otelmcp"
)

// discardExporter drops exported spans: the benchmark measures recording
// and batching, not a collector.
type discardExporter struct{}

func (discardExporter) ExportSpans(context.Context, []sdktrace.ReadOnlySpan) error { return nil }
func (discardExporter) Shutdown(context.Context) error                             { return nil }

// benchStdio times sequential tools/call requests through ServeStdio over
// in-process pipes, with the interceptors opts sets up.
func benchStdio(b *testing.B, opts runtime.Options) {
	opts.Logger = slog.New(slog.DiscardHandler)
	s := runtime.NewServer(opts)
	s.AddTool(runtime.ToolDef{Name: "get_order_status", Definition: `{"name":"get_order_status","inputSchema":{"type":"object"}}`,
		Call: func(ctx context.Context, args []byte) (*runtime.ToolResult, error) {
			return runtime.StructuredResult([]byte(`{"status":"SHIPPED"}`)), nil
		}})
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- s.ServeStdio(context.Background(), inR, outW, runtime.StdioOptions{})
		outW.Close()
	}()
	out := bufio.NewReaderSize(outR, 64<<10)
	line := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_order_status","arguments":{"order_id":"A1001"},` + meta +
		`,"traceparent":"` + traceparent + `"}}}` + "\n")
	want := []byte(`SHIPPED`)
	b.ReportAllocs()
	cpu := processCPU()
	for b.Loop() {
		inW.Write(line)
		resp, err := out.ReadSlice('\n')
		if err != nil || !bytes.Contains(resp, want) {
			b.Fatalf("unexpected response %s (%v)", resp, err)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(processCPU()-cpu)/float64(b.N), "cpu-ns/op")
	inW.Close()
	<-done
}

// BenchmarkToolsCall compares a tools/call (carrying a traceparent in
// _meta) without interceptors and with the instrumentation on an SDK
// tracer (sampled, batch processor, spans dropped at export) and meter.
// cpu-ns/op is the process's CPU time per call (all goroutines, the batch
// processor's included), steadier than ns/op on a shared machine.
func BenchmarkToolsCall(b *testing.B) {
	b.Run("none", func(b *testing.B) { benchStdio(b, runtime.Options{}) })
	b.Run("otel", func(b *testing.B) {
		tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(discardExporter{}))
		defer tp.Shutdown(context.Background())
		mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(sdkmetric.NewManualReader()))
		in, err := otelmcp.New(otelmcp.Options{TracerProvider: tp, MeterProvider: mp})
		if err != nil {
			b.Fatal(err)
		}
		var opts runtime.Options
		in.Install(&opts)
		benchStdio(b, opts)
	})
}
