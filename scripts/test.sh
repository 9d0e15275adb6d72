#!/usr/bin/env bash
# Runs every check of mcpgen, in the order a failure is cheapest to read:
# module tidiness, vet, formatting, the Go tests (with the race detector),
# then the orders example end to end with the official TypeScript client
# and Go SDK, then the official conformance suite against
# examples/conformance. It sets up what it needs itself: the Go modules
# (go mod download) and, when missing, the pinned npm packages.
#
# Usage: ./scripts/test.sh     (from anywhere; needs go and node >= 20)
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n==> %s\n' "$*"; }

# The generator's tests build temporary modules with the module proxy
# off: the modules they need must be in the module cache first.
step "go mod download (mcpgen, e2e/gosdk, bench)"
go mod download
(cd e2e/gosdk && go mod download)
(cd bench && go mod download)

step "go mod tidy -diff (each module's go.mod and go.sum say exactly what it imports)"
go mod tidy -diff
(cd e2e/gosdk && go mod tidy -diff)
(cd bench && go mod tidy -diff)

step "go vet ./..."
go vet ./...

step "gofmt -l (must list nothing)"
unformatted=$(find . -name '*.go' -not -path './e2e/ts/node_modules/*' -not -path '*/testdata/*' -print0 |
  xargs -0 gofmt -l)
if [ -n "$unformatted" ]; then
  printf 'not gofmt-ed:\n%s\n' "$unformatted" >&2
  exit 1
fi

step "mcpgen check: the committed generated code matches examples/orders/mcpgen.yaml"
go tool mcpgen check -f examples/orders/mcpgen.yaml
go tool mcpgen check -f examples/orders/restmcp/mcpgen.yaml

# -timeout: under the race detector on a busy two-core machine the corpus
# test (generator/oatest) can pass go test's default 10 minutes.
step "go test -race ./..."
go test -race -timeout 30m ./...

bin_dir=$(mktemp -d)
trap 'rm -rf "$bin_dir"' EXIT
export ORDERS_MCP_BIN="$bin_dir/orders-mcp"
step "go build -o $ORDERS_MCP_BIN ./examples/orders/cmd/orders-mcp"
go build -o "$ORDERS_MCP_BIN" ./examples/orders/cmd/orders-mcp

if [ ! -d e2e/ts/node_modules/@modelcontextprotocol/client ] || [ ! -d e2e/ts/node_modules/@modelcontextprotocol/inspector-cli ]; then
  step "npm ci (e2e/ts)"
  (cd e2e/ts && npm ci --no-audit --no-fund)
fi
step "node --test e2e/ts (official TypeScript client in its three modes over stdio and HTTP; Inspector CLI)"
node --test e2e/ts/orders.test.mjs e2e/ts/inspector.test.mjs

if [ ! -d e2e/openapi/node_modules/@stoplight/prism-cli ]; then
  step "npm ci (e2e/openapi)"
  (cd e2e/openapi && npm ci --no-audit --no-fund)
fi
step "go test ./e2e/openapi (generated REST wrappers against Prism and the orders REST server)"
MCPGEN_E2E=1 go test -count=1 ./e2e/openapi

step "go test ./... in e2e/gosdk (official Go SDK)"
(cd e2e/gosdk && go test ./...)

step "conformance/run.sh (official MCP conformance suite against examples/conformance, judged by conformance/baseline.yaml)"
timeout 900 conformance/run.sh

step "all checks passed"
