#!/usr/bin/env bash
# Starts the whole product on loopback: installs what is missing, builds the client, starts
# rtpengine, Kamailio and ejabberd from the project's configs, then the API server (which seeds the
# demo organisation on first start and provisions XMPP accounts), and prints the URL and demo logins.
# Ctrl+C stops everything it started, by PID.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$ROOT"

PORT="${UC_API_PORT:-8080}"
export UC_API_PORT="$PORT" UC_HOST="${UC_HOST:-127.0.0.1}" UC_RUNTIME_DIR="${UC_RUNTIME_DIR:-$ROOT/runtime}"
export UC_PORT_BASE="${UC_PORT_BASE:-15000}"

ensure_debs curl espeak-ng $(service_packages)
ensure_node_modules
log "Building the client"
npx vite build --logLevel warn

mkdir -p "$UC_RUNTIME_DIR/logs"
# `npm run status` from another shell finds the second nodes of a cluster start (start-cluster.sh).
if [ "${UC_CLUSTER:-}" = 1 ]; then printf 'UC_CLUSTER=1\nUC_PG_PORT=%s\n' "${UC_PG_PORT:-}" > "$UC_RUNTIME_DIR/cluster.env"; else rm -f "$UC_RUNTIME_DIR/cluster.env"; fi
if [ -f "$UC_RUNTIME_DIR/api.pid" ] && kill -0 "$(cat "$UC_RUNTIME_DIR/api.pid")" 2>/dev/null; then
  log "Stopping the previous API server (PID $(cat "$UC_RUNTIME_DIR/api.pid"))"
  kill "$(cat "$UC_RUNTIME_DIR/api.pid")" || true
  while kill -0 "$(cat "$UC_RUNTIME_DIR/api.pid")" 2>/dev/null; do sleep 0.1; done
fi

log "Starting rtpengine, Kamailio, the voicemail and echo phones, and ejabberd (ports from $UC_PORT_BASE)"
stop_services() { node --import tsx server/services/cli.ts stop >/dev/null 2>&1 || true; }
trap stop_services INT TERM EXIT
node --import tsx server/services/cli.ts start

log "Starting the API server on $UC_HOST:$PORT"
node --import tsx server/main.ts &
API_PID=$!
echo "$API_PID" > "$UC_RUNTIME_DIR/api.pid"
stop() { kill "$API_PID" 2>/dev/null || true; wait "$API_PID" 2>/dev/null || true; rm -f "$UC_RUNTIME_DIR/api.pid" "$UC_RUNTIME_DIR/cluster.env"; stop_services; }
trap stop INT TERM EXIT

if ! wait_http "http://127.0.0.1:$PORT/health" 120; then
  echo "The API server did not become ready; see $UC_RUNTIME_DIR/logs/api.log" >&2
  exit 1
fi

cat <<MSG

  Open http://localhost:$PORT

  Demo logins (password for all: Demo-pass-1)
    olivia  account owner, extension 1000
    alice   standard user, extension 1001
    bob     standard user, extension 1002
    carol   standard user, extension 1003
    dave    limited access, extension 1004
    rita    reseller partner administrator
    hana    reseller partner administrator whose onboarding wizard is not finished
    marta.kowalczyk  a colleague signing in for the first time: the tutorial

  Servers: npm run status    Logs: $UC_RUNTIME_DIR/logs, $UC_RUNTIME_DIR/services/*/log
  Press Ctrl+C to stop.
MSG
wait "$API_PID"
