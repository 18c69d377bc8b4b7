#!/usr/bin/env bash
# Shows whether the API server and each real server (rtpengine, Kamailio, ejabberd, the baresip phones, Janus, coturn) run and answer.
set -uo pipefail
source "$(dirname "$0")/lib.sh"
cd "$ROOT"
export UC_RUNTIME_DIR="${UC_RUNTIME_DIR:-$ROOT/runtime}" UC_PORT_BASE="${UC_PORT_BASE:-15000}"
PORT="${UC_API_PORT:-8080}"
status=0
# A cluster start (npm run start:cluster) left its settings: show its second nodes and PostgreSQL too.
if [ -f "$UC_RUNTIME_DIR/cluster.env" ]; then
  set -a; source "$UC_RUNTIME_DIR/cluster.env"; set +a
  UC_PG_NAME=cluster-pg bash scripts/pg-test.sh status | sed 's/^pg-test:/postgres  /' || status=3
fi
if [ -f "$UC_RUNTIME_DIR/api.pid" ] && kill -0 "$(cat "$UC_RUNTIME_DIR/api.pid")" 2>/dev/null; then
  if curl -fsS -o /dev/null "http://127.0.0.1:$PORT/health"; then
    echo "api        running (PID $(cat "$UC_RUNTIME_DIR/api.pid")), ready on http://localhost:$PORT"
    # Several API processes (UC_API_PROCESSES): the primary's workers.
    workers="$(pgrep -P "$(cat "$UC_RUNTIME_DIR/api.pid")" -d ', ' node || true)"
    [ -n "$workers" ] && echo "api        processes (PIDs $workers)"
  else
    echo "api        running (PID $(cat "$UC_RUNTIME_DIR/api.pid")), NOT answering"; status=3
  fi
else
  echo "api        stopped"; status=3
fi
node --import tsx server/services/cli.ts status || status=3
exit $status
