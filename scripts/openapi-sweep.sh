#!/usr/bin/env bash
# The OpenAPI sweep: for each document, generate the server, run it against
# Prism (--errors) and call every operation twice (required arguments only,
# then every optional argument too); print the table of accepted and refused
# calls with every exception (see docs/openapi.md#the-sweep).
#
#   scripts/openapi-sweep.sh            both petstores (what CI runs)
#   scripts/openapi-sweep.sh all        every document under ../shared/openapi
#   scripts/openapi-sweep.sh readme-oas-examples   the 54 small feature documents, in
#                                       parallel (GOFLAGS=-parallel=N), a row each
#                                       and a row of their total
#   scripts/openapi-sweep.sh a.json,b.yaml
#
# MCPGEN_SWEEP_CHUNK=N calls N tools at a time, each chunk against Prism
# serving the document pruned to its operations (for the documents Prism
# cannot load whole in useful time; docs/openapi.md); each chunk's Prism
# start-up time is printed after the table; each chunk's figures are shown
# as it is done, and the table so far is kept after each chunk.
# MCPGEN_SWEEP_FROM=K (with the same MCPGEN_SWEEP_CHUNK) starts at chunk K,
# to finish a run cut short without calling its first chunks again.
#
# MCPGEN_SHARED_OPENAPI=DIR reads `all` and `readme-oas-examples` from DIR
# instead of ../shared/openapi (for a git worktree elsewhere).
#
# The table is also kept in $MCPGEN_SWEEP_OUT when set.
set -euo pipefail
cd "$(dirname "$0")/.."
export GOTOOLCHAIN="${GOTOOLCHAIN:-$(awk '/^toolchain/ {print $2}' go.mod)}"
docs="${1:-ci}"
out="${MCPGEN_SWEEP_OUT:-$(mktemp)}"
log="$(mktemp)"
cd e2e/openapi
# Each chunk's lines are shown as it goes (on standard error); the table
# so far is kept in $out after each chunk, so a run cut short keeps what
# it measured.
if ! MCPGEN_E2E=1 MCPGEN_SWEEP="$docs" MCPGEN_SWEEP_OUT="$out" go test -run '^TestSweep$' -count=1 -timeout 3h -v . 2>&1 |
	tee "$log" | { grep --line-buffered -o 'chunk [0-9]*/[0-9]*[: ].*' >&2 || true; }; then
	cat "$log"
	if [ -s "$out" ]; then
		echo "The table so far ($out):"
		cat "$out"
	fi
	exit 1
fi
cat "$out"
grep -o 'chunk [0-9]*/[0-9]*: .*' "$log" || true
