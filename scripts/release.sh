#!/usr/bin/env bash
# Builds the mcpgen release binaries for Linux, macOS and Windows on amd64
# and arm64, puts LICENSE, NOTICE and the third-party notices of what the
# binaries link (THIRD_PARTY_NOTICES.txt) beside them, and writes the
# SHA-256 checksums of all of them to DIST/SHA256SUMS.
#
# The builds are reproducible: the same commit, version and Go toolchain
# give the same bytes on any machine, whatever its paths, caches or
# environment (scripts/release-check.sh builds twice and compares). To get
# there, every input that could differ is fixed here: the Go toolchain (the
# toolchain line of go.mod, fetched by the go command if need be), no cgo,
# -trimpath (no local paths in the binary), the version linked in with -X,
# the GOFLAGS and CPU-level variables of the caller's environment cleared.
# -buildvcs=true records the commit, its time and whether the tree was
# modified, which `mcpgen version` prints.
#
# Usage: scripts/release.sh [VERSION]
#   VERSION   a semantic version with a leading v (v0.1.0-rc.1); default:
#             the tag at HEAD. A tag at HEAD must be VERSION.
# Environment:
#   DIST                 output directory (default: dist)
#   TARGETS              GOOS/GOARCH pairs (default: the six below)
#   RELEASE_ALLOW_DIRTY  1 to build from a tree with uncommitted changes
#                        (the binaries then say modified: true)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

die() {
  echo "release: $*" >&2
  exit 1
}

GOTOOLCHAIN=$(sed -n 's/^toolchain //p' go.mod)
[ -n "$GOTOOLCHAIN" ] || die "go.mod has no toolchain line naming the Go release builds use"
export GOTOOLCHAIN

tag=$(git tag --points-at HEAD --list 'v*' | head -n 1)
version=${1:-$tag}
[ -n "$version" ] || die "HEAD has no v* tag: name the version (scripts/release.sh v0.1.0-rc.1)"
semver='^v(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)(-[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?$'
[[ $version =~ $semver ]] || die "$version is not a semantic version such as v0.1.0 or v0.1.0-rc.1"
[ -z "$tag" ] || [ "$tag" = "$version" ] || die "HEAD is tagged $tag, not $version"
if [ -n "$(git status --porcelain)" ] && [ "${RELEASE_ALLOW_DIRTY:-}" != 1 ]; then
  die "the work tree has uncommitted changes (git status); commit them, or set RELEASE_ALLOW_DIRTY=1 for a test build"
fi

targets=${TARGETS:-linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64 windows/arm64}
dist=${DIST:-dist}
mkdir -p "$dist"
dist=$(cd "$dist" && pwd)
# Only what an earlier run wrote is removed.
rm -f "$dist"/mcpgen_* "$dist"/SHA256SUMS "$dist"/LICENSE "$dist"/NOTICE "$dist"/THIRD_PARTY_NOTICES.txt

# The caller's environment must not reach the binaries.
export CGO_ENABLED=0 GOFLAGS= GOEXPERIMENT= GOAMD64=v1 GOARM64=v8.0 GOWORK=off

echo "==> mcpgen $version from $(git rev-parse HEAD) with $(go version)"
for target in $targets; do
  goos=${target%/*}
  goarch=${target#*/}
  exe=""
  [ "$goos" = windows ] && exe=.exe
  out="$dist/mcpgen_${version}_${goos}_${goarch}${exe}"
  GOOS=$goos GOARCH=$goarch go build -C "$root" -trimpath -buildvcs=true \
    -ldflags="-s -w -X main.releaseVersion=$version" -o "$out" ./cmd/mcpgen
  echo "    $(basename "$out")"
done

# The license and NOTICE files of every module linked into the binaries,
# read from their build information (tools/licenses).
cp LICENSE NOTICE "$dist/"
go -C tools run ./licenses -notices "$dist/THIRD_PARTY_NOTICES.txt" "$dist"/mcpgen_*

(cd "$dist" && sha256sum LICENSE NOTICE THIRD_PARTY_NOTICES.txt mcpgen_* >SHA256SUMS)
echo "==> $dist/SHA256SUMS"
cat "$dist/SHA256SUMS"
