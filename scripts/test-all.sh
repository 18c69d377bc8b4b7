#!/usr/bin/env bash
# The whole test suite: type check, unit and integration tests (embedded Postgres and a real
# PostgreSQL 15), then end-to-end tests in Debian's Chromium against the real API server.
set -uo pipefail
source "$(dirname "$0")/lib.sh"
cd "$ROOT"
set -e
ensure_debs curl espeak-ng chromium postgresql-15 $(service_packages) $(test_peer_packages)
ensure_node_modules
set +e

RESULTS="$ROOT/runtime/test-results"
rm -rf "$RESULTS"; mkdir -p "$RESULTS"
status=0
# Records a step that is not a test runner, so that its failure is counted in the closing line.
step() { local name="$1"; shift; if "$@"; then echo "{\"step\":\"$name\",\"ok\":true}" > "$RESULTS/step-$name.json"; else echo "{\"step\":\"$name\",\"ok\":false}" > "$RESULTS/step-$name.json"; status=1; fi; }

log "Type check"
step typecheck npx tsc -p tsconfig.json --noEmit

log "Unit and integration tests (embedded PostgreSQL)"
npx vitest run --reporter=default --reporter=json --outputFile.json="$RESULTS/vitest.json" || status=1

log "Server tests against a real PostgreSQL 15"
if bash scripts/pg-test.sh start; then
  # PostgreSQL only: the run above has been through every server test on PGlite already.
  UC_TEST_BACKENDS=postgres UC_TEST_DATABASE_URL="$(bash scripts/pg-test.sh url)" npx vitest run tests/server --reporter=default --reporter=json --outputFile.json="$RESULTS/vitest-pg.json" || status=1
  bash scripts/pg-test.sh stop
else
  # No report: the closing line counts the PostgreSQL run as failed.
  echo "could not start PostgreSQL" >&2; status=1
fi

log "Integration tests against real ejabberd, Kamailio and rtpengine"
npx vitest run --config vitest.services.config.ts --reporter=default --reporter=json --outputFile.json="$RESULTS/vitest-services.json" || status=1

log "Building the client for end-to-end tests"
step client-build npx vite build --logLevel warn

log "End-to-end tests (Playwright, Debian Chromium)"
npx playwright test || status=1

node scripts/summarise-tests.mjs "$RESULTS" vitest vitest-pg vitest-services playwright || status=1
exit $status
