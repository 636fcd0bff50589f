#!/usr/bin/env bash
# Separate-process mode on loopback, what `make run-split` runs inside
# scripts/run-dev.sh (which provides Neo4j, Redis, NEO4J_URI and REDIS_URL):
#   - one process per service: projects, branches, graph-read, graph-write, decisions
#     (services/split/main.ts) on ports SPLIT_BASE_PORT.. (8091..8095)
#   - the gateway (services/gateway/main.ts) on PORT (8080) with SERVICE_URLS naming them
#   - the worker (services/worker/main.ts)
# The caller's identity travels gateway -> service signed with a fresh INTERNAL_SECRET.
# Ctrl-C / SIGTERM stops every process; if one exits, the others are stopped too.
set -euo pipefail
LOG_TAG=run-split
# shellcheck source=lib/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
cd "$ROOT"

PORT="${PORT:-8080}"
SPLIT_BASE_PORT="${SPLIT_BASE_PORT:-8091}"
NAMES=(projects branches graph-read graph-write decisions)
INTERNAL_SECRET="$(node -e 'process.stdout.write(require("crypto").randomBytes(32).toString("base64url"))')"
export INTERNAL_SECRET
TSX=(node --import tsx)

PIDS=()
# shellcheck disable=SC2317  # invoked via trap
stop_all() {
  trap - EXIT INT TERM HUP
  for pid in "${PIDS[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
}
trap stop_all EXIT
trap 'exit 130' INT
trap 'exit 143' TERM HUP

urls=()
for i in "${!NAMES[@]}"; do
  name="${NAMES[$i]}"
  port=$((SPLIT_BASE_PORT + i))
  check_port "$port" "$name port"
  PORT="$port" "${TSX[@]}" services/split/main.ts "$name" &
  PIDS+=("$!")
  urls+=("$name=http://127.0.0.1:$port")
done
SERVICE_URLS="$(
  IFS=,
  echo "${urls[*]}"
)"
log "services: $SERVICE_URLS"
SERVICE_URLS="$SERVICE_URLS" PORT="$PORT" "${TSX[@]}" services/gateway/main.ts &
PIDS+=("$!")
"${TSX[@]}" services/worker/main.ts &
PIDS+=("$!")
log "gateway on http://127.0.0.1:$PORT (Ctrl-C stops everything)"
rc=0
wait -n "${PIDS[@]}" || rc=$?
log "a process exited ($rc); stopping the others"
exit "$rc"
