#!/usr/bin/env bash
# npm run start:cluster — the product as two nodes of each clustered server, on loopback (issue 25):
# a PostgreSQL of its own that every node shares (runtime/cluster-pg, port UC_CLUSTER_PG_PORT or
# base+432, kept between starts), two API processes, two ejabberd nodes, two Janus and the other
# second nodes, then the same URL and demo logins as npm start. `npm run status` shows every node.
# Ctrl+C stops everything it started, PostgreSQL last.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$ROOT"

export UC_RUNTIME_DIR="${UC_RUNTIME_DIR:-$ROOT/runtime}" UC_PORT_BASE="${UC_PORT_BASE:-15000}"
export UC_PG_NAME=cluster-pg UC_PG_PORT="${UC_CLUSTER_PG_PORT:-$((UC_PORT_BASE + 432))}" UC_PG_DURABLE=1
ensure_debs postgresql-15
log "Starting PostgreSQL for the cluster on 127.0.0.1:$UC_PG_PORT"
bash scripts/pg-test.sh start
trap 'bash scripts/pg-test.sh stop >/dev/null 2>&1 || true' EXIT

ADMIN_URL="$(bash scripts/pg-test.sh url)"
PSQL=/usr/lib/postgresql/15/bin/psql
DB=uc_cluster
if ! "$PSQL" "$ADMIN_URL" -tAc "SELECT 1 FROM pg_database WHERE datname = '$DB'" | grep -q 1; then
  "$PSQL" "$ADMIN_URL" -qc "CREATE DATABASE $DB"
fi

export DATABASE_URL="${ADMIN_URL%/postgres}/$DB" UC_CLUSTER=1 UC_API_PROCESSES="${UC_API_PROCESSES:-2}"
# Not exec: this shell's trap stops PostgreSQL once start.sh has stopped the rest.
bash scripts/start.sh
