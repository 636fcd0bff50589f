#!/usr/bin/env bash
# Records the examples of openapi/graph-design-service.yaml from a real session
# (tools/examples/recordExamples.ts: change requests, reviews, protection rules, merges,
# rebases, node history, the feed, webhooks and their deliveries) against the service on
# a throw-away Neo4j + Redis, writes them into the document, and checks the result:
# every example valid against its schema (shared/api/openapiExamples.spec.ts) and the
# document formatted as Prettier writes it; then regenerates the types (`make types`).
# Review `git diff openapi/`: only examples change (on a rerun, only ids and timestamps).
#
#   scripts/record-examples.sh      (what `make examples` runs; not part of `make test`)
#
# Environment:
#   EXAMPLES_NEO4J_PORT, EXAMPLES_REDIS_PORT, EXAMPLES_HTTP_PORT   ports (30687, 30379, 30080)
#   EXAMPLES_RECEIVER_PORT   the recorder's webhook receiver on loopback (0: any free port)
# The service's log is kept in .run/examples-report/service.log.
set -euo pipefail
LOG_TAG=examples
# shellcheck source=lib/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"

EXAMPLES_NEO4J_PORT="${EXAMPLES_NEO4J_PORT:-30687}"
EXAMPLES_REDIS_PORT="${EXAMPLES_REDIS_PORT:-30379}"
EXAMPLES_HTTP_PORT="${EXAMPLES_HTTP_PORT:-30080}"
EXAMPLES_RECEIVER_PORT="${EXAMPLES_RECEIVER_PORT:-0}"
REPORT_DIR="$ROOT/.run/examples-report"
DOCUMENT=openapi/graph-design-service.yaml

if [[ "${1:-}" != "--inside" ]]; then
  check_port "$EXAMPLES_HTTP_PORT" EXAMPLES_HTTP_PORT
  [[ "$EXAMPLES_RECEIVER_PORT" == 0 ]] || check_port "$EXAMPLES_RECEIVER_PORT" EXAMPLES_RECEIVER_PORT
  export EXAMPLES_NEO4J_PORT EXAMPLES_REDIS_PORT EXAMPLES_HTTP_PORT EXAMPLES_RECEIVER_PORT
  exec "$SCRIPTS/with-stack.sh" examples "$EXAMPLES_NEO4J_PORT" "$EXAMPLES_REDIS_PORT" -- "$0" --inside
fi

# --- inside the stack: start the service, mint the owner's key, record ----------------------
cd "$ROOT"
rm -rf "$REPORT_DIR"
mkdir -p "$REPORT_DIR"
SERVICE_PID=""
# shellcheck disable=SC2317  # invoked via trap
stop_service() {
  if [[ -n "$SERVICE_PID" ]] && pid_alive "$SERVICE_PID"; then
    stop_pid "$SERVICE_PID" "service" 20 || true
  fi
}
trap stop_service EXIT

# The webhook target is the recorder's receiver on loopback, a private address the
# service refuses unless allowed. The worker looks for new events to deliver every
# FEED_POLL_MS: shorter than the default, so the deliveries are done sooner.
env PORT="$EXAMPLES_HTTP_PORT" LOG_LEVEL=warn WEBHOOK_ALLOW_PRIVATE_TARGETS=true FEED_POLL_MS=200 \
  setsid npx tsx services/launcher/main.ts >"$REPORT_DIR/service.log" 2>&1 &
SERVICE_PID=$!
BASE="http://127.0.0.1:$EXAMPLES_HTTP_PORT"
wait_ready "$BASE" "$SERVICE_PID" "$REPORT_DIR/service.log"
log "service ready on $BASE"

TOKEN="$(npm run -s graphctl -- keys create --user ada --scopes graph:write |
  node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>process.stdout.write(JSON.parse(s).token))')"
[[ "$TOKEN" == gds_* ]] || die "could not mint an API key"

npx tsx tools/examples/recordExamples.ts --url "$BASE" --token "$TOKEN" --document "$DOCUMENT" \
  --receiver-port "$EXAMPLES_RECEIVER_PORT"
grep -q '"level":50' "$REPORT_DIR/service.log" && log "the service logged errors: see $REPORT_DIR/service.log"
npx prettier --check "$DOCUMENT" >/dev/null || die "$DOCUMENT is not formatted as Prettier writes it"
npx mocha shared/api/openapiExamples.spec.ts
npm run -s gen:types
log "examples recorded into $DOCUMENT (and types regenerated): review git diff openapi/"
