#!/usr/bin/env bash
# Benchmarks the orders server over Streamable HTTP: 1, 8 and 64 concurrent
# clients calling get_order_status, each for DURATION (default 5s).
#
# Usage: ./bench/http.sh [DURATION] [CLIENTS]     e.g. ./bench/http.sh 10s 1,8,64,256
#
# bench/ is its own Go module (so that mcpgen never depends on the peers the
# side-by-side benchmarks compare it with); httpbench lives in it.
set -euo pipefail
cd "$(dirname "$0")"
go run ./httpbench -duration "${1:-5s}" -clients "${2:-1,8,64}"
