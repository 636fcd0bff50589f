#!/usr/bin/env bash
# Installs whatever the local stack needs and is missing (idempotent; cheap when all is there):
#   - Node.js 24 LTS in .tools/node when the machine's node is older (scripts/ensure-node.sh)
#   - node_modules via `npm ci` when missing or older than package-lock.json
#   - redis-server + redis-cli (Debian packages) when missing
#   - Java 17 JDK and Maven (Debian packages) when missing
#   - the Neo4j launcher (deploy/neo4j) when missing or stale
#   - chromium (Debian package) for the docs page test, when missing
#   - promtool (Debian package prometheus) for the alerting rules' checks, when missing
#
# Options / environment:
#   --no-npm / ENSURE_DEPS_SKIP_NPM=1    skip the node_modules check
#   --no-neo4j / ENSURE_DEPS_SKIP_NEO4J=1 skip building the Neo4j launcher
set -euo pipefail
LOG_TAG=ensure-deps
# shellcheck source=lib/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"

SKIP_NPM="${ENSURE_DEPS_SKIP_NPM:-0}"
SKIP_NEO4J="${ENSURE_DEPS_SKIP_NEO4J:-0}"
for arg in "$@"; do
  case "$arg" in
    --no-npm) SKIP_NPM=1 ;;
    --no-neo4j) SKIP_NEO4J=1 ;;
    *) die "usage: $0 [--no-npm] [--no-neo4j]" ;;
  esac
done

# npm ci, falling back to `npm install --no-save` (which leaves package-lock.json untouched) when
# the lock file does not satisfy package.json, so a fresh machine still gets a working tree.
npm_ci() {
  if npm ci --no-audit --no-fund >&2; then
    return 0
  fi
  log "WARNING: npm ci failed (package-lock.json out of sync with package.json?);" \
    "falling back to 'npm install --no-save'. Fix the lock file with 'npm install'."
  npm install --no-save --no-audit --no-fund >&2 || die "npm install failed"
}

# --- Node.js 24 and the node dependencies -------------------------------------------------
command -v npm >/dev/null 2>&1 || die "npm not found (Node.js with npm needed)"
NODE_BIN="$("$SCRIPTS/ensure-node.sh")"
export PATH="$NODE_BIN:$PATH"
if [[ "$SKIP_NPM" != "1" ]]; then
  cd "$ROOT"
  if [[ ! -d node_modules ]]; then
    log "node_modules missing: running npm ci"
    npm_ci
  elif [[ ! -f node_modules/.package-lock.json || package-lock.json -nt node_modules/.package-lock.json ]]; then
    log "node_modules older than package-lock.json: running npm ci"
    npm_ci
  else
    log "node_modules up to date"
  fi
fi

# --- Redis -------------------------------------------------------------------------------
if command -v redis-server >/dev/null 2>&1 && command -v redis-cli >/dev/null 2>&1; then
  log "redis-server present ($(redis-server --version | awk '{print $3}'))"
else
  apt_install redis-server redis-tools
  # Debian may start a system-wide Redis on 6379 right after install (where services are allowed
  # to start); the project runs its own instances, so stop and disable that one.
  if pgrep -u redis -x redis-server >/dev/null 2>&1; then
    log "stopping the system Redis service started by the package install (it would hold port 6379)"
    if command -v systemctl >/dev/null 2>&1 && [[ -d /run/systemd/system ]]; then
      as_root systemctl disable --now redis-server >&2 || true
    else
      as_root service redis-server stop >&2 || true
      as_root update-rc.d redis-server disable >&2 || true
    fi
  fi
  command -v redis-server >/dev/null 2>&1 || die "redis-server still missing after install"
  log "installed redis-server ($(redis-server --version | awk '{print $3}'))"
fi

# --- Java + Maven --------------------------------------------------------------------------
if [[ "$SKIP_NEO4J" != "1" ]]; then
  missing=()
  command -v java >/dev/null 2>&1 || missing+=(openjdk-17-jre-headless)
  command -v javac >/dev/null 2>&1 || missing+=(openjdk-17-jdk-headless)
  command -v mvn >/dev/null 2>&1 || missing+=(maven)
  if ((${#missing[@]} > 0)); then
    apt_install "${missing[@]}"
  else
    log "java and mvn present ($(java -version 2>&1 | head -n1))"
  fi
  "$SCRIPTS/build-neo4j.sh"
fi
# --- curl (scripts/fuzz.sh waits for readiness with it) -----------------------------------
if command -v curl >/dev/null 2>&1; then
  log "curl present"
else
  apt_install curl ca-certificates
fi
# --- Chromium (the docs page test drives Debian's chromium with playwright-core) ---------
if command -v chromium >/dev/null 2>&1; then
  log "chromium present ($(chromium --version 2>/dev/null | awk '{print $2}'))"
else
  apt_install chromium
  command -v chromium >/dev/null 2>&1 || die "chromium still missing after install"
fi
# --- promtool (make observability checks and unit-tests deploy/observability's rules) ------
if command -v promtool >/dev/null 2>&1; then
  log "promtool present ($(promtool --version 2>&1 | awk 'NR == 1 {print $3}'))"
else
  apt_install prometheus
  # Only promtool is wanted: Debian may start (and enable) the Prometheus daemon right
  # after install where services are allowed to start. Stop and disable it.
  if pgrep -x prometheus >/dev/null 2>&1; then
    log "stopping the Prometheus daemon started by the package install (only promtool is used)"
    if command -v systemctl >/dev/null 2>&1 && [[ -d /run/systemd/system ]]; then
      as_root systemctl disable --now prometheus >&2 || true
    else
      as_root service prometheus stop >&2 || true
      as_root update-rc.d prometheus disable >&2 || true
    fi
  fi
  command -v promtool >/dev/null 2>&1 || die "promtool still missing after install"
  log "installed promtool ($(promtool --version 2>&1 | awk 'NR == 1 {print $3}'))"
fi
log "all dependencies present"
