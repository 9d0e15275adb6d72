#!/usr/bin/env bash
# Generation, side by side: wall time and peak memory (max RSS) of mcpgen,
# oapi-codegen v2 and ogen on the largest OpenAPI documents of
# ../shared/openapi, then the build time of mcpgen's generated package.
# Each generator runs alone, one document at a time; a generator that
# rejects a document is reported as failed with its first error line.
#
# Usage: ./bench/gen.sh [DOC...]    (default: the documents listed below)
#        LIMIT=SECONDS bounds each run (default 600).
# Needs GNU time at /usr/bin/time (Debian package "time").
set -euo pipefail
cd "$(dirname "$0")"
LIMIT=${LIMIT:-600} # seconds one generator or build may take
bench=$(pwd)
openapi=${OPENAPI_DIR:-$bench/../../shared/openapi}
docs=("$@")
if [ ${#docs[@]} -eq 0 ]; then
  docs=(
    "$openapi/github/api.github.com.json"
    "$openapi/github/api.github.com-1.1.4.json"
    "$openapi/stripe/spec3.yaml"
    "$openapi/openai/openapi.yaml"
    "$openapi/twilio/twilio_api_v2010.json"
  )
fi
[ -x /usr/bin/time ] || { echo "gen.sh needs GNU time: apt-get install time" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "building the generators (mcpgen from this checkout; oapi-codegen and ogen at the versions of bench/go.mod)"
(cd .. && go build -o "$work/mcpgen" ./cmd/mcpgen)
go build -o "$work/oapi-codegen" github.com/oapi-codegen/oapi-codegen/v2/cmd/oapi-codegen
go build -o "$work/ogen" github.com/ogen-go/ogen/cmd/ogen

# measure NAME OUTDIR CMD...: prints "seconds peakMB" or "failed: reason".
measure() {
  local name=$1 out=$2; shift 2
  local log="$work/$name.log"
  local status=0
  /usr/bin/time -f '%e %M' -o "$work/time" timeout "$LIMIT" "$@" >"$log" 2>&1 || status=$?
  if [ "$status" -eq 0 ]; then
    read -r secs kb <"$work/time"
    printf '%8.2f %8.0f' "$secs" "$((kb / 1024))"
  elif [ "$status" -eq 124 ]; then
    printf '%8s %8s  (no result within %ss)' failed - "$LIMIT"
  else
    # The first compile error, else the last error line (ogen logs INFO
    # lines that mention errors before its fatal one).
    local why
    why=$(grep -m1 -E '\.go:[0-9]+:[0-9]+: ' "$log" || grep -iE 'error|panic|fatal|killed' "$log" | grep -vE '^[^ ]*\s*INFO' | tail -1 || true)
    [ -n "$why" ] || why="exit $status"
    printf '%8s %8s  (%s)' failed - "$(echo "$why" | sed "s#$bench/##g" | cut -c1-110)"
  fi
}

echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) CPUs, $(go version | cut -d' ' -f3); load before: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '\n%-34s %-14s %8s %8s\n' document generator seconds peakMB
for doc in "${docs[@]}"; do
  base=$(basename "$doc")
  size=$(( $(stat -c %s "$doc") / 1024 ))
  label="$base (${size} KiB)"
  mkdir -p "$bench/.gen"
  out="$bench/.gen/mcpgen_$$"
  printf '%-34s %-14s %s\n' "$label" mcpgen "$(measure mcpgen "$out" "$work/mcpgen" generate -f "$doc" --out "$out" --package gen)"
  if [ -d "$out" ] && ls "$out"/*.go >/dev/null 2>&1; then
    # The package lives under bench/ so that it builds against this
    # checkout's runtime, which is built first: the figure is the
    # generated package's own compile (its path is new, so never cached).
    go build github.com/mcpgen-dev/mcpgen/runtime
    printf '%-34s %-14s %s\n' "" "go build" "$(measure build "$out" go build "./.gen/mcpgen_$$")"
  fi
  rm -rf "$out"
  printf '%-34s %-14s %s\n' "" oapi-codegen "$(measure oapi "$work/oapi.go" "$work/oapi-codegen" -package gen -o "$work/oapi.go" "$doc")"
  printf '%-34s %-14s %s\n' "" ogen "$(measure ogen "$work/ogen-out" "$work/ogen" --config "$bench/ogen.yml" --target "$work/ogen-out" --package gen --clean "$doc")"
done
rmdir "$bench/.gen" 2>/dev/null || true
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
