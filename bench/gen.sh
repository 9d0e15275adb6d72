#!/usr/bin/env bash
# Generation, side by side: wall time and peak memory (max RSS) of mcpgen,
# oapi-codegen v2 and ogen on the largest OpenAPI documents of
# ../shared/openapi, then the build time of mcpgen's generated package.
# Each generator runs alone, one document at a time; a generator that
# rejects a document is reported as failed with its first error line.
#
# Usage: ./bench/gen.sh [DOC...]    (default: the documents listed below)
#        LIMIT=SECONDS bounds each run (default 600); RUNS=N runs each
#        generator N times per document, in turns, and reports the medians
#        (default 3); BUILD=0 leaves out the go build of mcpgen's packages.
# Needs GNU time at /usr/bin/time (Debian package "time").
set -euo pipefail
cd "$(dirname "$0")"
LIMIT=${LIMIT:-600} # seconds one generator or build may take
RUNS=${RUNS:-3}     # runs of each generator on each document; the figures are medians
BUILD=${BUILD:-1}   # 0: do not build mcpgen's generated packages
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
command -v bc >/dev/null || { echo "gen.sh needs bc: apt-get install bc" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work" "$bench/.gen/mcpgen_$$"_*; rmdir "$bench/.gen" 2>/dev/null || true' EXIT
echo "building the generators (mcpgen from this checkout; oapi-codegen and ogen at the versions of bench/go.mod)"
(cd .. && go build -o "$work/mcpgen" ./cmd/mcpgen)
go build -o "$work/oapi-codegen" github.com/oapi-codegen/oapi-codegen/v2/cmd/oapi-codegen
go build -o "$work/ogen" github.com/ogen-go/ogen/cmd/ogen

# measure NAME CMD...: runs CMD once; on success appends "seconds
# cpuSeconds peakMB" to $work/NAME.runs, else writes why it failed to
# $work/NAME.fail. CPU is user+system time, the steadier figure on a
# shared machine.
measure() {
  local name=$1; shift
  local log="$work/$name.log"
  local status=0
  # Start from clean page cache state: the writeback of what the previous
  # run wrote (a go build's cache entries, a generator's output) would
  # otherwise slow this run's file creation.
  sync
  /usr/bin/time -f '%e %U %S %M' -o "$work/time" timeout "$LIMIT" "$@" >"$log" 2>&1 || status=$?
  if [ "$status" -eq 0 ]; then
    read -r secs user sys kb <"$work/time"
    echo "$secs $(echo "$user + $sys" | bc) $((kb / 1024))" >>"$work/$name.runs"
  elif [ "$status" -eq 124 ]; then
    echo "no result within ${LIMIT}s" >"$work/$name.fail"
  else
    # The first compile error, else the last error line (ogen logs INFO
    # lines that mention errors before its fatal one).
    local why
    why=$(grep -m1 -E '\.go:[0-9]+:[0-9]+: ' "$log" || grep -iE 'error|panic|fatal|killed' "$log" | grep -vE '^[^ ]*\s*INFO' | tail -1 || true)
    [ -n "$why" ] || why="exit $status"
    echo "$why" | sed "s#$bench/##g" | cut -c1-100 >"$work/$name.fail"
  fi
}

# report NAME: prints the median of NAME's runs (each column on its own)
# and leaves it in $work/NAME.fig for the ratios, or prints why it failed
# when any run failed.
report() {
  local name=$1
  rm -f "$work/$name.fig"
  if [ -f "$work/$name.fail" ]; then
    printf '%8s %8s %8s  (%s)' failed - - "$(cat "$work/$name.fail")"
    return
  fi
  local n mid fig=""
  n=$(wc -l <"$work/$name.runs")
  mid=$(( (n + 1) / 2 ))
  for col in 1 2 3; do
    fig="$fig $(cut -d' ' -f"$col" "$work/$name.runs" | sort -n | sed -n "${mid}p")"
  done
  echo "$fig" >"$work/$name.fig"
  read -r secs cpu mb <<<"$fig"
  printf '%8.2f %8.2f %8d' "$secs" "$cpu" "$mb"
}

# ratio PEER: how many times mcpgen's wall time, CPU time and peak memory
# fit in PEER's, when both succeeded on the document.
ratio() {
  local peer=$1
  [ -f "$work/mcpgen.fig" ] && [ -f "$work/$peer.fig" ] || return 0
  read -r ms mc mm <"$work/mcpgen.fig"
  read -r ps pc pm <"$work/$peer.fig"
  printf '%-38s %-14s %7.1fx %7.1fx %7.1fx\n' "" "÷ $peer" "$(echo "$ps / $ms" | bc -l)" "$(echo "$pc / $mc" | bc -l)" "$(echo "$pm / $mm" | bc -l)"
}

echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) CPUs, $(go version | cut -d' ' -f3); load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "figures: medians of $RUNS runs each (the generators take turns); ratios: the peer's figure divided by mcpgen's (above 1: mcpgen is faster or smaller)"
printf '\n%-38s %-14s %8s %8s %8s\n' document generator seconds cpu-s peakMB
# Generated packages stay until the end: on some disks (ext4 with online
# discard, as on the machines the README's figures come from) deleting a
# few thousand files slows the file creation that follows for seconds,
# which would charge one generator's cleanup to the next one's run.
mkdir -p "$bench/.gen"
n=0
for doc in "${docs[@]}"; do
  base=$(basename "$doc")
  size=$(( $(stat -c %s "$doc") / 1024 ))
  label="$base (${size} KiB)"
  n=$((n + 1))
  rm -f "$work"/*.runs "$work"/*.fail
  # The generators take turns, RUNS times, so that a slow moment of the
  # machine falls on all of them; the figures are the medians.
  for r in $(seq "$RUNS"); do
    out="$bench/.gen/mcpgen_$$_${n}_$r"
    measure mcpgen "$work/mcpgen" generate -q -f "$doc" --out "$out" --package gen
    measure oapi-codegen "$work/oapi-codegen" -config "$bench/oapi-codegen.yml" -package gen -o "$work/oapi_${n}_$r.go" "$doc"
    measure ogen "$work/ogen" --config "$bench/ogen.yml" --target "$work/ogen-out_${n}_$r" --package gen --clean "$doc"
  done
  printf '%-38s %-14s %s\n' "$label" mcpgen "$(report mcpgen)"
  printf '%-38s %-14s %s\n' "" oapi-codegen "$(report oapi-codegen)"
  printf '%-38s %-14s %s\n' "" ogen "$(report ogen)"
  if [ "$BUILD" != 0 ] && [ -d "$out" ] && ls "$out"/*.go >/dev/null 2>&1; then
    # The package lives under bench/ so that it builds against this
    # checkout's runtime, which is built first: the figure is the
    # generated package's own compile (its path is new, so never cached).
    go build github.com/mcpgen-dev/mcpgen/runtime
    rm -f "$work"/build.runs "$work"/build.fail
    measure build go build "./.gen/$(basename "$out")"
    printf '%-38s %-14s %s\n' "" "go build" "$(report build)"
  fi
  ratio oapi-codegen
  ratio ogen
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
