#!/usr/bin/env bash
# Checks mcpgen's Go modules for known vulnerabilities with govulncheck,
# offline, against the Go vulnerability database pinned in tools/go.mod.
#
# govulncheck (golang.org/x/vuln) and the database's source
# (golang.org/x/vulndb, whose data/osv folder holds every entry) are tool
# dependencies of tools/go.mod, so the check is reproducible and the
# database moves only when someone bumps vulndb there. vulndb's indexdb
# builds the local database once per vulndb version (cached under
# $VULNDB_CACHE, default ~/.cache/mcpgen-vulndb).
#
# It fails when a vulnerability affects code that is reachable from the
# packages of a module (govulncheck's default "symbol" scan level): a
# vulnerable module that is required but not called is reported by
# govulncheck as informational and does not fail the check.
#
# The result depends on the Go toolchain, whose standard library is checked
# too: run it with the toolchain releases are built with (GOTOOLCHAIN below;
# go1.26.8 has reachable net/http and crypto/tls vulnerabilities, and this
# script reports them).
#
# Usage: ./scripts/vulncheck.sh [MODULE_DIR...]   (default: . e2e/gosdk bench)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

export GOTOOLCHAIN=${GOTOOLCHAIN:-go1.26.10}

vulndb_version=$(go -C tools list -m -f '{{.Version}}' golang.org/x/vulndb)
vulndb_dir=$(go -C tools mod download -json golang.org/x/vulndb@"$vulndb_version" |
  sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
if [ ! -d "$vulndb_dir/data/osv" ]; then
  echo "vulncheck: no data/osv in golang.org/x/vulndb@$vulndb_version ($vulndb_dir)" >&2
  exit 3
fi

cache=${VULNDB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/mcpgen-vulndb}
db="$cache/$vulndb_version"
if [ ! -f "$db/index/db.json" ]; then
  echo "==> indexdb: building the vulnerability database of golang.org/x/vulndb@$vulndb_version"
  mkdir -p "$cache"
  tmp=$(mktemp -d "$cache/build.XXXXXX")
  trap 'rm -rf "$tmp"' EXIT
  go -C tools tool indexdb -vulns "$vulndb_dir/data/osv" -out "$tmp/db"
  rm -rf "$db"
  mv "$tmp/db" "$db"
fi

modules=("$@")
if [ ${#modules[@]} -eq 0 ]; then
  modules=(. e2e/gosdk bench)
fi

echo "==> govulncheck $(go -C tools list -m -f '{{.Version}}' golang.org/x/vuln), database golang.org/x/vulndb@$vulndb_version, $(go version)"
status=0
for m in "${modules[@]}"; do
  echo "--> $m"
  # Exit status 3 means vulnerabilities affect the module's code.
  go -C tools tool govulncheck -db "file://$db" -C "$root/$m" ./... || status=$?
done
exit "$status"
