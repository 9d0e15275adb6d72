#!/usr/bin/env bash
# Generates, compiles and vets the real OpenAPI documents that take minutes
# on two cores (GitHub's two descriptions, Stripe, OpenAI; see big() in
# generator/oatest/realdocs_test.go), which go test ./... leaves out, and
# prints per document: tools, generated MB, and the generate, schema-check,
# build and vet times. Run it by hand (about 5 minutes on two cores); CI
# leaves it out until the generated packages of these documents are known
# to build on every run.
#
# Usage: ./scripts/openapi-corpus.sh [go test flags, e.g. -run 'TestRealDocumentsGenerate/stripe']
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -d ../shared/openapi ]; then
  echo "openapi-corpus: no documents at ../shared/openapi; nothing to check"
  exit 0
fi
start=$(date +%s)
# -v for the per-document timings (t.Logf); the filter keeps them and the
# results; the exit status is go test's.
set +e
go test -count=1 -timeout 24m -v -run 'TestRealDocumentsGenerate' "$@" ./generator/oatest -args -corpus=big 2>&1 |
  grep -E '^\s*(--- |realdocs_test\.go|ok |FAIL|PASS|panic)|^\s+\S+\.go:[0-9]+:' |
  grep -vE -e '--- SKIP' -e 'not a big document'
status=${PIPESTATUS[0]}
set -e
echo "openapi-corpus: $(( $(date +%s) - start )) s, go test exit status $status"
exit "$status"
