#!/usr/bin/env bash
# Starts a throwaway PostgreSQL server for the tests: a new cluster in a
# temporary directory, listening on a free loopback port, trusting local
# connections. Prints two lines to stdout:
#
#   export ORDERS_TEST_POSTGRES=postgres://postgres@127.0.0.1:PORT/postgres?sslmode=disable
#   export PG_STOP='command that stops the server and removes the directory'
#
# so that `eval "$(./scripts/pg.sh)"` exports the URL and the way to stop it.
# Needs Debian's postgresql package (initdb and pg_ctl under
# /usr/lib/postgresql/*/bin); as root, the server runs as the postgres user.
# Exits 3 when PostgreSQL is not installed.
set -euo pipefail
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)
if [ -z "$bin" ] || [ ! -x "$bin/initdb" ]; then
  echo "pg.sh: PostgreSQL is not installed (apt-get install -y postgresql)" >&2
  exit 3
fi
dir=$(mktemp -d /tmp/mcpgen-pg.XXXXXX)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
as=()
if [ "$(id -u)" = 0 ]; then
  chown postgres "$dir"
  as=(runuser -u postgres --)
fi
"${as[@]}" "$bin/initdb" -D "$dir/data" -U postgres -A trust --no-sync >"$dir/initdb.log" 2>&1 ||
  { cat "$dir/initdb.log" >&2; exit 1; }
"${as[@]}" "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w \
  -o "-h 127.0.0.1 -p $port -k $dir -c fsync=off -c max_connections=200" start >/dev/null ||
  { cat "$dir/server.log" >&2; exit 1; }
echo "export ORDERS_TEST_POSTGRES='postgres://postgres@127.0.0.1:$port/postgres?sslmode=disable'"
echo "export PG_STOP='${as[*]} $bin/pg_ctl -D $dir/data -m fast stop >/dev/null; rm -rf $dir'"
