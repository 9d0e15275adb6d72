#!/usr/bin/env bash
# Checks that release builds are reproducible: runs scripts/release.sh twice
# from this commit, the first time with the usual Go build cache and the
# second with an empty one (as on a fresh machine, so that nothing of the
# first build is reused), and compares the two SHA256SUMS. Then runs the
# binary of this machine's platform, if it was built, and checks that
# `mcpgen version` names the version and this commit.
#
# Usage: scripts/release-check.sh [VERSION]   (default v0.0.0-check)
# TARGETS narrows the platforms (scripts/test.sh builds two of the six).
set -euo pipefail
cd "$(dirname "$0")/.."

version=${1:-v0.0.0-check}
tmp=$(mktemp -d)
trap 'chmod -R u+w "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT

# The check compares builds of the same tree: uncommitted changes are
# allowed, and recorded as modified in both.
export RELEASE_ALLOW_DIRTY=1

DIST="$tmp/a" ./scripts/release.sh "$version"
DIST="$tmp/b" GOCACHE="$tmp/gocache" ./scripts/release.sh "$version"

if ! diff -u "$tmp/a/SHA256SUMS" "$tmp/b/SHA256SUMS"; then
  echo "release-check: two builds of the same commit differ" >&2
  exit 1
fi
echo "==> both builds gave the same $(wc -l <"$tmp/a/SHA256SUMS") files"

goos=$(go env GOHOSTOS)
goarch=$(go env GOHOSTARCH)
exe=""
[ "$goos" = windows ] && exe=.exe
bin="$tmp/a/mcpgen_${version}_${goos}_${goarch}${exe}"
if [ -x "$bin" ]; then
  out=$("$bin" version)
  echo "$out"
  commit=$(git rev-parse HEAD)
  grep -qx "mcpgen $version" <<<"$out" || { echo "release-check: the version line is not 'mcpgen $version'" >&2; exit 1; }
  grep -qx "commit:   $commit" <<<"$out" || { echo "release-check: the commit is not $commit" >&2; exit 1; }
  grep -q '^modified: \(true\|false\)$' <<<"$out" || { echo "release-check: no modified line" >&2; exit 1; }
fi
