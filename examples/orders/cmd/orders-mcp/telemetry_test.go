package main

import (
	"context"
	"io"
	"path/filepath"
	"strings"
	"testing"
)

func TestLoopbackAddr(t *testing.T) {
	for _, c := range []struct{ in, want, err string }{
		{in: "9464", want: "127.0.0.1:9464"},
		{in: ":9464", want: "127.0.0.1:9464"},
		{in: "127.0.0.1:0", want: "127.0.0.1:0"},
		{in: "[::1]:9464", want: "[::1]:9464"},
		{in: "localhost:9464", want: "localhost:9464"},
		{in: "0.0.0.0:9464", err: "loopback"},
		{in: "192.0.2.1:9464", err: "loopback"},
		{in: "metrics.example.com:9464", err: "loopback"},
	} {
		got, err := loopbackAddr(c.in)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: got %q, %v; want an error about %s", c.in, got, err, c.err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("%s: got %q, %v; want %q", c.in, got, err, c.want)
		}
	}
}

// TestTelemetryConfigErrors: settings the server cannot honour stop it
// with exit code 2 and a message naming the variable, rather than running
// without the telemetry the operator asked for.
func TestTelemetryConfigErrors(t *testing.T) {
	for _, c := range []struct {
		env  map[string]string
		args []string
		want string
	}{
		{env: map[string]string{"OTEL_TRACES_EXPORTER": "zipkin"}, want: "OTEL_TRACES_EXPORTER"},
		{env: map[string]string{"OTEL_METRICS_EXPORTER": "prometheus"}, want: "OTEL_METRICS_EXPORTER"},
		{env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:1", "OTEL_EXPORTER_OTLP_PROTOCOL": "grpc"}, want: "http/protobuf"},
		{args: []string{"--metrics-addr", "0.0.0.0:9464"}, want: "loopback"},
	} {
		var stderr strings.Builder
		args := append([]string{"--db", filepath.Join(t.TempDir(), "orders.db")}, c.args...)
		code := run(context.Background(), args, strings.NewReader(""), io.Discard, &stderr, func(k string) string { return c.env[k] })
		if code != 2 || !strings.Contains(stderr.String(), c.want) {
			t.Errorf("%v %v: exit %d, stderr %q; want 2 and %q", c.env, c.args, code, stderr.String(), c.want)
		}
	}
	// Nothing asked for: no telemetry, a normal run.
	var stderr strings.Builder
	code := run(context.Background(), []string{"--db", filepath.Join(t.TempDir(), "orders.db")}, strings.NewReader(""), io.Discard, &stderr,
		func(k string) string { return map[string]string{"OTEL_TRACES_EXPORTER": "none"}[k] })
	if code != 0 || strings.Contains(stderr.String(), "metrics") {
		t.Errorf("exit %d, stderr %q", code, stderr.String())
	}
}
