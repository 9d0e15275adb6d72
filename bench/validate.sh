#!/usr/bin/env bash
# Argument validation, side by side: mcpgen's generated decoder+validator
# against santhosh-tekuri/jsonschema/v6 and google/jsonschema-go on the same
# schemas and inputs (valid and invalid). The test run first checks that all
# three reach the same verdict on every input. Prints ns and allocations per
# pass over the inputs, and how many times faster mcpgen is. Each benchmark
# runs COUNT times, interleaved with the others, and the fastest run counts:
# on a shared machine the minimum is the figure least disturbed by others.
#
# Usage: ./bench/validate.sh [BENCHTIME] [COUNT]    (default 300ms 5)
set -euo pipefail
cd "$(dirname "$0")"
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
go test -count=1 -run . ./validate
go test -run '^$' -bench Validate -benchmem -benchtime "${1:-300ms}" -count "${2:-5}" ./validate |
  awk '
    /^Benchmark/ {
      split($1, p, "/"); impl = p[4]; sub(/-[0-9]+$/, "", impl)
      cell = p[2] " " p[3]
      if (!((cell, impl) in ns) || $3 < ns[cell, impl]) ns[cell, impl] = $3
      allocs[cell, impl] = $7
      if (!(cell in seen)) { seen[cell] = 1; order[++n] = cell }
    }
    END {
      printf "%-36s %12s %8s %16s %8s %12s %8s %10s %10s\n", "schema, inputs", "mcpgen ns", "allocs", "santhosh ns", "allocs", "google ns", "allocs", "x santhosh", "x google"
      for (i = 1; i <= n; i++) {
        c = order[i]
        printf "%-36s %12.0f %8d %16.0f %8d %12.0f %8d %9.1fx %9.1fx\n", c,
          ns[c, "mcpgen"], allocs[c, "mcpgen"], ns[c, "santhosh-tekuri"], allocs[c, "santhosh-tekuri"],
          ns[c, "google"], allocs[c, "google"], ns[c, "santhosh-tekuri"] / ns[c, "mcpgen"], ns[c, "google"] / ns[c, "mcpgen"]
      }
    }'
