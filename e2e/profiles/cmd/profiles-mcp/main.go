// Command profiles-mcp serves e2e/profiles over stdio: its tools answer
// with what they were given, so that e2e/ts/profiles.test.mjs can check a
// server generated with client profiles end to end.
package main

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"github.com/mcpgen-dev/mcpgen/e2e/profiles/profilesmcp"
	"github.com/mcpgen-dev/mcpgen/runtime"
)

type echo struct {
	profilesmcp.UnimplementedHandler
}

func (echo) CatalogWalkCategoryTreeWithAllDescendantsAndProducts(ctx context.Context, in profilesmcp.CatalogWalkCategoryTreeWithAllDescendantsAndProductsInput) (profilesmcp.CatalogWalkCategoryTreeWithAllDescendantsAndProductsOutput, error) {
	return in.Root, nil
}

func (echo) CatalogFindItem(ctx context.Context, in profilesmcp.CatalogFindItemInput) (profilesmcp.CatalogFindItemOutput, error) {
	how := "unknown"
	switch in.By.(type) {
	case profilesmcp.ByID:
		how = "by id"
	case profilesmcp.ByName:
		how = "by name"
	}
	return profilesmcp.CatalogFindItemOutput{How: how}, nil
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	logger := slog.New(slog.NewTextHandler(os.Stderr, nil))
	srv := profilesmcp.NewServer(echo{}, runtime.Options{Logger: logger})
	err := srv.ServeStdio(ctx, os.Stdin, os.Stdout, runtime.StdioOptions{})
	if err != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, io.EOF) {
		logger.Error("serve stdio", "err", err)
		os.Exit(1)
	}
}
