#!/usr/bin/env bash
# `npm run bench:load`: the load benches (bench/load/run.ts) with what they need installed first:
# the real servers, sipp (sip-tester) as the SIP load generator, PostgreSQL 15 for the API's run on it.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
ensure_node_modules
ensure_debs $(service_packages) $(load_generator_packages) postgresql-15
cd "$ROOT"
exec npx tsx bench/load/run.ts "$@"
