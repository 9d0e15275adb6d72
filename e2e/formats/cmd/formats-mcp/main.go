// Command formats-mcp serves e2e/formats over stdio: its tools answer with
// the format-checked strings they were given, so that the official
// TypeScript client's output validation judges every value the generated
// validator let through (e2e/ts/formats.test.mjs).
package main

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"github.com/mcpgen-dev/mcpgen/e2e/formats/formatsmcp"
	"github.com/mcpgen-dev/mcpgen/runtime"
)

// echo answers every tool with its input.
type echo struct {
	formatsmcp.UnimplementedHandler
}

func (echo) RegisterContact(ctx context.Context, in formatsmcp.RegisterContactInput) (formatsmcp.RegisterContactOutput, error) {
	return formatsmcp.Contact{Email: in.Email}, nil
}

func (echo) EchoValues(ctx context.Context, in formatsmcp.EchoValuesInput) (formatsmcp.EchoValuesOutput, error) {
	return formatsmcp.Values(in), nil
}

func (echo) EchoReading(ctx context.Context, in formatsmcp.EchoReadingInput) (formatsmcp.EchoReadingOutput, error) {
	return in.Reading, nil
}

func (echo) EchoDelivery(ctx context.Context, in formatsmcp.EchoDeliveryInput) (formatsmcp.EchoDeliveryOutput, error) {
	return in.Delivery, nil
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	logger := slog.New(slog.NewTextHandler(os.Stderr, nil))
	srv := formatsmcp.NewServer(echo{}, runtime.Options{Logger: logger})
	err := srv.ServeStdio(ctx, os.Stdin, os.Stdout, runtime.StdioOptions{})
	if err != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, io.EOF) {
		logger.Error("serve stdio", "err", err)
		os.Exit(1)
	}
}
