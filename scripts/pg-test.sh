#!/usr/bin/env bash
# A throwaway PostgreSQL 15 for the server tests: loopback only, port 55432, data in runtime/test-pg.
#   scripts/pg-test.sh start    start it (initialising the cluster on first use) and wait until ready
#   scripts/pg-test.sh stop     stop it by its PID
#   scripts/pg-test.sh url      print its DATABASE_URL (superuser; tests create their own databases)
#   scripts/pg-test.sh status   say whether it runs
# Example: bash scripts/pg-test.sh start && UC_TEST_DATABASE_URL=$(bash scripts/pg-test.sh url) npx vitest run tests/server
# UC_PG_NAME (default test-pg) and UC_PG_PORT name another such server of the same clone: the
# cluster topology's (scripts/start-cluster.sh) is runtime/cluster-pg, kept, with UC_PG_DURABLE=1.
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
NAME="${UC_PG_NAME:-test-pg}"
[[ "$NAME" =~ ^[a-z][a-z0-9-]*$ ]] || { echo "pg-test: UC_PG_NAME must be lowercase letters, digits and dashes" >&2; exit 2; }
LINK="$REPO/runtime/$NAME"
# The server runs as the postgres account, which cannot be trusted to reach the clone (root's home
# and mkdtemp folders are 0700): as root its folder lives under the project's state folder, named by
# a hash of this runtime folder (as server/services/layout.ts does for ejabberd), linked from
# runtime/test-pg. The modes of the user's own folders are never changed.
if [[ "$(id -u)" == 0 ]]; then
  KEY="$(printf %s "$(realpath -ms "$REPO/runtime")" | sha256sum | cut -c1-16)"
  DIR="${UC_SERVICE_STATE_DIR:-/var/lib/uc-client}/$KEY/$NAME"
else
  DIR="$LINK"
fi
DATA="$DIR/data"
SOCK="$DIR/sock"
LOG="$DIR/postgres.log"
PIDFILE="$DIR/postgres.pid"
PWFILE="$DIR/password"
PORT="${UC_PG_PORT:-${UC_TEST_PG_PORT:-55432}}"
HOST=127.0.0.1
BIN=/usr/lib/postgresql/15/bin
PGUSER_OS=postgres
READY_TIMEOUT_S=30

die() { echo "pg-test: $*" >&2; exit 1; }

# Runs a command as the postgres system user.
as_postgres() { setpriv --reuid="$PGUSER_OS" --regid="$PGUSER_OS" --init-groups -- "$@"; }

running_pid() {
  [[ -f "$PIDFILE" ]] || return 1
  local pid; pid="$(cat "$PIDFILE")"
  # The comm check guards against a stale file whose PID now belongs to another process.
  [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null && [[ "$(cat "/proc/$pid/comm" 2>/dev/null)" == postgres ]] && echo "$pid"
}

ensure_binaries() {
  [[ -x "$BIN/postgres" ]] && return 0
  [[ "$(id -u)" == 0 ]] || die "PostgreSQL 15 is not installed ($BIN) and installing it needs root"
  echo "pg-test: installing postgresql-15" >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y postgresql-15 >&2 \
    || { apt-get update >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y postgresql-15 >&2; }
  [[ -x "$BIN/postgres" ]] || die "postgresql-15 installation did not provide $BIN/postgres"
}

link_dir() {
  [[ "$DIR" == "$LINK" ]] && return 0
  mkdir -p "$(dirname "$LINK")" "$(dirname "$DIR")"
  chmod 755 "$(dirname "$(dirname "$DIR")")" "$(dirname "$DIR")"
  if [[ -L "$LINK" ]]; then [[ "$(readlink "$LINK")" == "$DIR" ]] && return 0; rm -f "$LINK"; fi
  # A cluster of the earlier layout (inside the clone) holds nothing worth keeping.
  [[ -d "$LINK" ]] && rm -rf "$LINK"
  ln -s "$DIR" "$LINK"
}

init_cluster() {
  [[ -f "$DATA/PG_VERSION" ]] && return 0
  mkdir -p "$DIR"
  rm -rf "$DATA"
  head -c 18 /dev/urandom | od -An -tx1 | tr -d ' \n' > "$PWFILE"
  chmod 600 "$PWFILE"
  chown -R "$PGUSER_OS:$PGUSER_OS" "$DIR"
  as_postgres "$BIN/initdb" -D "$DATA" -U postgres --pwfile="$PWFILE" \
    --auth-host=scram-sha-256 --auth-local=peer --encoding=UTF8 --locale=C.UTF-8 >"$DIR/initdb.log" 2>&1 \
    || { cat "$DIR/initdb.log" >&2; die "initdb failed"; }
}

start() {
  if pid="$(running_pid)"; then echo "pg-test: already running (pid $pid) on $HOST:$PORT"; return 0; fi
  [[ "$(id -u)" == 0 ]] || die "start must run as root (the server runs as the postgres user)"
  ensure_binaries
  link_dir
  init_cluster
  mkdir -p "$SOCK"
  chown -R "$PGUSER_OS:$PGUSER_OS" "$DIR"
  chmod 700 "$DIR"
  if "$BIN/pg_isready" -q -h "$HOST" -p "$PORT"; then die "something else already listens on $HOST:$PORT"; fi
  # Durability settings are off for tests: that cluster holds nothing worth keeping, and tests run
  # faster. A kept one (UC_PG_DURABLE=1) keeps PostgreSQL's defaults.
  local fast=(-c fsync=off -c synchronous_commit=off -c full_page_writes=off)
  [[ "${UC_PG_DURABLE:-}" == 1 ]] && fast=()
  # setpriv is called directly (not through a function, which would add a subshell) and execs
  # postgres in place, so $! is the server's own PID.
  setpriv --reuid="$PGUSER_OS" --regid="$PGUSER_OS" --init-groups -- "$BIN/postgres" -D "$DATA" -p "$PORT" \
    -c listen_addresses="$HOST" -c unix_socket_directories="$SOCK" \
    "${fast[@]}" -c max_connections=100 >>"$LOG" 2>&1 &
  local pid=$!
  echo "$pid" > "$PIDFILE"
  local deadline=$((SECONDS + READY_TIMEOUT_S))
  until "$BIN/pg_isready" -q -h "$HOST" -p "$PORT"; do
    if ! kill -0 "$pid" 2>/dev/null; then rm -f "$PIDFILE"; tail -n 20 "$LOG" >&2; die "postgres exited during startup"; fi
    (( SECONDS < deadline )) || { tail -n 20 "$LOG" >&2; die "not ready after ${READY_TIMEOUT_S}s"; }
    sleep 0.1
  done
  echo "pg-test: $NAME ready (pid $pid) on $HOST:$PORT"
}

stop() {
  local pid
  if ! pid="$(running_pid)"; then rm -f "$PIDFILE"; echo "pg-test: not running"; return 0; fi
  # SIGINT is PostgreSQL's "fast" shutdown: open test connections do not hold it up.
  kill -INT "$pid"
  local deadline=$((SECONDS + 30))
  while kill -0 "$pid" 2>/dev/null; do
    (( SECONDS < deadline )) || { kill -KILL "$pid" 2>/dev/null || true; break; }
    sleep 0.1
  done
  rm -f "$PIDFILE"
  echo "pg-test: stopped"
}

url() {
  [[ -f "$PWFILE" ]] || die "not initialised: run '$0 start' first"
  echo "postgresql://postgres:$(cat "$PWFILE")@$HOST:$PORT/postgres"
}

status() {
  if pid="$(running_pid)"; then echo "pg-test: running (pid $pid) on $HOST:$PORT"; else echo "pg-test: not running"; return 1; fi
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  url) url ;;
  status) status ;;
  *) echo "usage: $0 start|stop|url|status" >&2; exit 2 ;;
esac
