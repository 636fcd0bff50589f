#!/usr/bin/env bash
# Development run: dependencies, local Neo4j + Redis, then the given command in the foreground.
#
#   scripts/run-dev.sh <command...>        e.g. scripts/run-dev.sh npx tsx services/gateway/main.ts
#
# - runs scripts/ensure-deps.sh (npm ci / redis-server / Neo4j launcher build when needed)
# - starts Neo4j with persistent data in .data/neo4j and a throw-away Redis, on the default
#   ports unless overridden: NEO4J_BOLT_PORT (7687), REDIS_PORT (6379), NEO4J_DATA_DIR
#   (.data/neo4j), STACK_DIR (.run/dev: pid files and logs)
# - exports NEO4J_URI, REDIS_URL and GDS_ENV=development (a local stack: the default and
#   example secrets the service refuses elsewhere are accepted) and runs the command
# - on exit / Ctrl-C / SIGTERM: stops the command, then the services this script started
#   (services that were already running, e.g. via scripts/neo4j.sh start, are left running)
set -euo pipefail
LOG_TAG=run-dev
# shellcheck source=lib/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
# shellcheck source=lib/neo4j.sh
source "$SCRIPTS/lib/neo4j.sh"
# shellcheck source=lib/redis.sh
source "$SCRIPTS/lib/redis.sh"

(($# >= 1)) || die "usage: $0 <command...>   (e.g. $0 npx tsx services/gateway/main.ts)"

STACK_DIR="$(abspath "${STACK_DIR:-.run/dev}")"
NEO4J_DATA_DIR="$(abspath "${NEO4J_DATA_DIR:-.data/neo4j}")"
export STACK_DIR NEO4J_DATA_DIR
export NEO4J_BOLT_PORT="${NEO4J_BOLT_PORT:-7687}"
export REDIS_PORT="${REDIS_PORT:-6379}"
check_port "$NEO4J_BOLT_PORT" NEO4J_BOLT_PORT
check_port "$REDIS_PORT" REDIS_PORT

"$SCRIPTS/ensure-deps.sh"

STOP_NEO4J=0
STOP_REDIS=0
# shellcheck disable=SC2317  # invoked via trap
cleanup() {
  local rc=$?
  trap - EXIT INT TERM HUP
  kill_child_if_running
  ((STOP_REDIS)) && { redis_stop || true; }
  ((STOP_NEO4J)) && { neo4j_stop || true; }
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

mkdir -p "$STACK_DIR"
# Services started here are tied to this script's lifetime (they also stop if it is killed).
start_owned redis Redis STOP_REDIS
start_owned neo4j Neo4j STOP_NEO4J

export NEO4J_URI="bolt://127.0.0.1:$NEO4J_BOLT_PORT"
export REDIS_URL="redis://127.0.0.1:$REDIS_PORT"
export GDS_ENV=development
log "NEO4J_URI=$NEO4J_URI REDIS_URL=$REDIS_URL; running: $*  (Ctrl-C to stop everything)"
run_forwarding "$@"
log "command exited with status $CHILD_RC"
exit "$CHILD_RC"
