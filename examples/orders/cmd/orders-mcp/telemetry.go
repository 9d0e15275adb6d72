package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"go.opentelemetry.io/otel/exporters/otlp/otlpmetric/otlpmetrichttp"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	otelprom "go.opentelemetry.io/otel/exporters/prometheus"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	semconv "go.opentelemetry.io/otel/semconv/v1.43.0"

	"github.com/mcpgen-dev/mcpgen/runtime"
	"github.com/mcpgen-dev/mcpgen/runtime/otelmcp"
)

// telemetry is the OpenTelemetry setup of the process: what the standard
// OTEL_* environment variables and --metrics-addr ask for.
type telemetry struct {
	shutdown []func(context.Context) error
}

// exporterChoice reads OTEL_{TRACES,METRICS}_EXPORTER. Unset means OTLP
// when an OTLP endpoint is configured, and nothing otherwise: a stdio
// server should not try localhost:4318 on every start.
func exporterChoice(getenv func(string) string, signal string) (bool, error) {
	v := strings.TrimSpace(getenv("OTEL_" + signal + "_EXPORTER"))
	switch v {
	case "otlp":
		return true, nil
	case "none":
		return false, nil
	case "":
		return getenv("OTEL_EXPORTER_OTLP_ENDPOINT") != "" || getenv("OTEL_EXPORTER_OTLP_"+signal+"_ENDPOINT") != "", nil
	}
	return false, fmt.Errorf("OTEL_%s_EXPORTER=%q: this server exports otlp (over HTTP) or none", signal, v)
}

// checkProtocol refuses OTLP protocols other than http/protobuf, which is
// the only one built in: better to stop than to export nothing silently.
func checkProtocol(getenv func(string) string, signal string) error {
	for _, k := range []string{"OTEL_EXPORTER_OTLP_" + signal + "_PROTOCOL", "OTEL_EXPORTER_OTLP_PROTOCOL"} {
		if v := getenv(k); v != "" {
			if v != "http/protobuf" {
				return fmt.Errorf("%s=%q: this server exports OTLP over http/protobuf only", k, v)
			}
			return nil
		}
	}
	return nil
}

// setupTelemetry instruments opts as the environment and metricsAddr
// ask. The OTLP exporters read their own settings (endpoint, headers,
// timeout, TLS) from the process environment, as the OpenTelemetry
// specification defines them; the resource takes OTEL_SERVICE_NAME and
// OTEL_RESOURCE_ATTRIBUTES. With neither exporter nor metricsAddr the
// server runs uninstrumented.
func setupTelemetry(ctx context.Context, getenv func(string) string, metricsAddr string, opts *runtime.Options, logger *slog.Logger) (*telemetry, error) {
	tel := &telemetry{}
	if strings.EqualFold(getenv("OTEL_SDK_DISABLED"), "true") {
		return tel, nil
	}
	traces, err := exporterChoice(getenv, "TRACES")
	if err != nil {
		return nil, err
	}
	metrics, err := exporterChoice(getenv, "METRICS")
	if err != nil {
		return nil, err
	}
	if !traces && !metrics && metricsAddr == "" {
		return tel, nil
	}
	res, err := resource.New(ctx, resource.WithAttributes(semconv.ServiceName("orders-mcp")), resource.WithFromEnv(), resource.WithTelemetrySDK())
	if err != nil {
		return nil, err
	}
	var instr otelmcp.Options
	if traces {
		if err := checkProtocol(getenv, "TRACES"); err != nil {
			return nil, err
		}
		exp, err := otlptracehttp.New(ctx)
		if err != nil {
			return nil, err
		}
		tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(exp), sdktrace.WithResource(res))
		tel.shutdown = append(tel.shutdown, tp.Shutdown)
		instr.TracerProvider = tp
	}
	var readers []sdkmetric.Option
	if metrics {
		if err := checkProtocol(getenv, "METRICS"); err != nil {
			return nil, err
		}
		exp, err := otlpmetrichttp.New(ctx)
		if err != nil {
			return nil, err
		}
		readers = append(readers, sdkmetric.WithReader(sdkmetric.NewPeriodicReader(exp)))
	}
	if metricsAddr != "" {
		addr, err := loopbackAddr(metricsAddr)
		if err != nil {
			return nil, err
		}
		reg := prometheus.NewRegistry()
		exp, err := otelprom.New(otelprom.WithRegisterer(reg))
		if err != nil {
			return nil, err
		}
		readers = append(readers, sdkmetric.WithReader(exp))
		ln, err := net.Listen("tcp", addr)
		if err != nil {
			return nil, fmt.Errorf("--metrics-addr: %w", err)
		}
		mux := http.NewServeMux()
		mux.Handle("GET /metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
		srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
		go srv.Serve(ln)
		tel.shutdown = append(tel.shutdown, srv.Shutdown)
		logger.Info("serving Prometheus metrics", "url", "http://"+ln.Addr().String()+"/metrics")
	}
	if len(readers) > 0 {
		mp := sdkmetric.NewMeterProvider(append(readers, sdkmetric.WithResource(res))...)
		// Shut down before the metrics listener: the final OTLP export
		// runs in the provider's shutdown.
		tel.shutdown = append([]func(context.Context) error{mp.Shutdown}, tel.shutdown...)
		instr.MeterProvider = mp
	} else {
		instr.MeterProvider = sdkmetric.NewMeterProvider() // no reader: nothing recorded
	}
	if instr.TracerProvider == nil {
		instr.TracerProvider = sdktrace.NewTracerProvider(sdktrace.WithSampler(sdktrace.NeverSample()))
	}
	in, err := otelmcp.New(instr)
	if err != nil {
		return nil, err
	}
	in.Install(opts)
	return tel, nil
}

// close flushes and stops the exporters, bounded so that a dead
// collector cannot hold the process at exit.
func (t *telemetry) close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	var errs []error
	for _, f := range t.shutdown {
		errs = append(errs, f(ctx))
	}
	return errors.Join(errs...)
}

// loopbackAddr resolves --metrics-addr: a bare port binds 127.0.0.1, and
// any other host must be a loopback address. The metrics name tools and
// error rates; publishing them beyond the machine is a decision for a
// collector or proxy in front, not a flag typo.
func loopbackAddr(addr string) (string, error) {
	addr = listenAddr(addr)
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return "", fmt.Errorf("--metrics-addr: %w", err)
	}
	if host == "localhost" {
		return addr, nil
	}
	if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
		return "", fmt.Errorf("--metrics-addr %q: want a loopback address such as 127.0.0.1:9464", addr)
	}
	return addr, nil
}
