#!/usr/bin/env bash
# Runs every check of mcpgen, in the order a failure is cheapest to read:
# the docs, module tidiness, vet, formatting, the Go tests (with the race
# detector), then the orders example end to end with the official
# TypeScript client and Go SDK, the reproducibility of release builds, then
# the official conformance suite against examples/conformance. It sets up
# what it needs itself: the Go modules (go mod download) and, when missing,
# the pinned npm packages.
#
# Usage: ./scripts/test.sh     (from anywhere; needs go and node >= 20)
set -euo pipefail
cd "$(dirname "$0")/.."

# Build and test with the Go release that mcpgen ships with: the toolchain
# line of go.mod (a patched Go; the go command fetches it if need be).
GOTOOLCHAIN=$(sed -n 's/^toolchain //p' go.mod)
export GOTOOLCHAIN

step() { printf '\n==> %s\n' "$*"; }

step "$(go version)"

# The README is the front door: short, every relative link of it and of
# docs/ leads somewhere, and the pages describe the product, not how the
# work on it was organised.
step "docs: README.md under 12,000 bytes, relative links resolve, no process words"
docs_ok=true
readme_bytes=$(wc -c <README.md)
if [ "$readme_bytes" -ge 12000 ]; then
  echo "README.md is $readme_bytes bytes; keep it under 12,000 and move the details to docs/" >&2
  docs_ok=false
fi
# Prints "file<TAB>line<TAB>target" for every link outside code: inline
# [text](target) and reference definitions [label]: target.
doc_links() {
  awk '
    FNR == 1 { fenced = 0 }
    /^[ \t]*```/ { fenced = !fenced; next }
    fenced { next }
    {
      line = $0
      gsub(/`[^`]*`/, "", line)
      if (match(line, /^[ \t]*\[[^]]+\]:[ \t]+[^ \t]+/)) {
        def = substr(line, RSTART, RLENGTH); sub(/^[^]]*\]:[ \t]+/, "", def)
        print FILENAME "\t" FNR "\t" def
      }
      while (match(line, /\]\([^) \t]+/)) {
        print FILENAME "\t" FNR "\t" substr(line, RSTART + 2, RLENGTH - 2)
        line = substr(line, RSTART + RLENGTH)
      }
    }' "$@"
}
while IFS=$'\t' read -r file line target; do
  case "$target" in
  *://* | mailto:* | \#*) continue ;; # other sites, and anchors within the page
  esac
  if [ ! -e "$(dirname "$file")/${target%%#*}" ]; then
    echo "$file:$line: broken link: $target" >&2
    docs_ok=false
  fi
done < <(doc_links README.md docs/*.md)
if grep -n -i -E 'this stop|last stop|rehearsal|colleague|this session|(before|after) this change' README.md docs/*.md >&2; then
  echo "the lines above talk about how the work was organised; describe the product as it is" >&2
  docs_ok=false
fi
$docs_ok

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

# The orders example's PostgreSQL store and the replicas end-to-end test
# run against a real PostgreSQL server: $ORDERS_TEST_POSTGRES when given,
# else a throwaway one from scripts/pg.sh when PostgreSQL is installed.
# Without either those tests skip, saying so (CI sets ORDERS_REQUIRE_POSTGRES,
# which turns the skip into a failure).
pg_stop=""
if [ -z "${ORDERS_TEST_POSTGRES:-}" ]; then
  if pg_env=$(./scripts/pg.sh); then
    eval "$pg_env"
    pg_stop=$PG_STOP
    trap 'eval "$pg_stop"' EXIT
    step "PostgreSQL for the tests: $ORDERS_TEST_POSTGRES"
  else
    step "NO POSTGRESQL: the PostgreSQL store tests will skip (apt-get install -y postgresql)"
  fi
fi

# The replicas end-to-end tests run the replicas behind HAProxy
# (e2e/haproxy/haproxy.cfg); without it they skip, saying so (CI sets
# ORDERS_REQUIRE_HAPROXY, which turns the skip into a failure).
if ! command -v haproxy >/dev/null 2>&1 && [ -z "${HAPROXY_BIN:-}" ]; then
  step "NO HAPROXY: the replicas tests will skip (apt-get install -y haproxy)"
fi

# -timeout: under the race detector on a busy two-core machine the corpus
# test (generator/oatest) can pass go test's default 10 minutes.
step "go test -race ./..."
go test -race -timeout 30m ./...

bin_dir=$(mktemp -d)
trap 'rm -rf "$bin_dir"; if [ -n "$pg_stop" ]; then eval "$pg_stop"; fi' EXIT
export ORDERS_MCP_BIN="$bin_dir/orders-mcp"
step "go build -o $ORDERS_MCP_BIN ./examples/orders/cmd/orders-mcp"
go build -o "$ORDERS_MCP_BIN" ./examples/orders/cmd/orders-mcp
export FORMATS_MCP_BIN="$bin_dir/formats-mcp"
step "go build -o $FORMATS_MCP_BIN ./e2e/formats/cmd/formats-mcp"
go build -o "$FORMATS_MCP_BIN" ./e2e/formats/cmd/formats-mcp
export PROFILES_MCP_BIN="$bin_dir/profiles-mcp"
step "go build -o $PROFILES_MCP_BIN ./e2e/profiles/cmd/profiles-mcp"
go build -o "$PROFILES_MCP_BIN" ./e2e/profiles/cmd/profiles-mcp
export ORDERS_REST_MCP_BIN="$bin_dir/orders-rest-mcp"
step "go build -o $ORDERS_REST_MCP_BIN ./examples/orders/cmd/orders-rest-mcp"
go build -o "$ORDERS_REST_MCP_BIN" ./examples/orders/cmd/orders-rest-mcp
export NATS_SERVER_BIN="$bin_dir/nats-server"
step "go build -o $NATS_SERVER_BIN github.com/nats-io/nats-server/v2 (the broker of the replicas test)"
go build -o "$NATS_SERVER_BIN" github.com/nats-io/nats-server/v2

if [ ! -d e2e/ts/node_modules/@modelcontextprotocol/client ] || [ ! -d e2e/ts/node_modules/@modelcontextprotocol/inspector-cli ]; then
  step "npm ci (e2e/ts)"
  (cd e2e/ts && npm ci --no-audit --no-fund)
fi
step "node --test e2e/ts (official TypeScript client in its three modes over stdio and HTTP; three replicas in legacy mode; Inspector CLI; format agreement; a deviating wrapped API; toolsets, read-only, discovery; field selection; client profiles; a task of the tasks extension)"
node --test e2e/ts/orders.test.mjs e2e/ts/replicas.test.mjs e2e/ts/inspector.test.mjs e2e/ts/formats.test.mjs e2e/ts/deviation.test.mjs e2e/ts/discovery.test.mjs e2e/ts/profiles.test.mjs e2e/ts/tasks.test.mjs e2e/ts/fields.test.mjs

if [ ! -d e2e/openapi/node_modules/@stoplight/prism-cli ]; then
  step "npm ci (e2e/openapi)"
  (cd e2e/openapi && npm ci --no-audit --no-fund)
fi
step "go test ./e2e/openapi (generated REST wrappers against Prism and the orders REST server)"
MCPGEN_E2E=1 go test -count=1 ./e2e/openapi
step "OpenAPI sweep of both petstores (every operation twice against Prism; every schema through Ajv)"
./scripts/openapi-sweep.sh ci

step "go test ./... in e2e/gosdk (official Go SDK)"
(cd e2e/gosdk && go test ./...)

step "scripts/release-check.sh (two release builds of this commit, one from an empty build cache, are byte-identical; mcpgen version names the commit)"
TARGETS="linux/amd64 darwin/arm64" ./scripts/release-check.sh

step "conformance/run.sh (official MCP conformance suite against examples/conformance, judged by conformance/baseline.yaml)"
timeout 900 conformance/run.sh

step "all checks passed"
