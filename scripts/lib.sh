# Shared helpers for the project's scripts. Sourced, not run.
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export ROOT

log() { printf '\033[1m==>\033[0m %s\n' "$*" >&2; }

# npm packages: installed from the lock file when missing or when the lock file changed since.
ensure_node_modules() {
  local stamp="$ROOT/node_modules/.uc-lock-stamp"
  local sum
  sum="$(sha256sum "$ROOT/package-lock.json" | cut -d' ' -f1)"
  if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$sum" ]; then
    log "Installing npm packages (npm ci)"
    (cd "$ROOT" && npm ci --no-audit --no-fund --loglevel=error)
    echo "$sum" > "$stamp"
  fi
}

APT_UPDATED=0
# Debian packages: installed when missing and we are root; otherwise the exact command is printed.
ensure_debs() {
  local missing=()
  for pkg in "$@"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  if [ "$(id -u)" -eq 0 ]; then
    log "Installing Debian packages: ${missing[*]}"
    if [ "$APT_UPDATED" -eq 0 ]; then apt-get update -qq; APT_UPDATED=1; fi
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  else
    echo "Missing Debian packages. Run as root:" >&2
    echo "  apt-get update && apt-get install -y ${missing[*]}" >&2
    return 1
  fi
}

# Waits for an HTTP readiness probe; gives up after $2 seconds.
wait_http() {
  local url="$1" limit="${2:-60}" start
  start=$(date +%s)
  until curl -fsS -o /dev/null "$url" 2>/dev/null; do
    if [ $(( $(date +%s) - start )) -ge "$limit" ]; then return 1; fi
    sleep 0.2
  done
}

# Debian packages of the real servers (ejabberd, Kamailio, rtpengine, baresip as the voicemail phone)
# and of the independent peers the integration tests use (sipp, baresip, slixmpp).
service_packages() {
  echo ejabberd erlang-p1-sqlite3 erlang-p1-pgsql \
    kamailio kamailio-websocket-modules kamailio-extra-modules kamailio-autheph-modules kamailio-utils-modules \
    rtpengine-daemon rtpengine-utils baresip janus coturn
}
test_peer_packages() {
  echo sip-tester baresip python3-slixmpp
}
# The load generators of `npm run bench:load` (sipp; autocannon and the XMPP client are npm packages).
load_generator_packages() {
  echo sip-tester
}
