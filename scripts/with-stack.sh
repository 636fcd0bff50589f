#!/usr/bin/env bash
# Runs a command against a fresh, throw-away Neo4j + Redis and always tears them down.
#
#   scripts/with-stack.sh <name> <neo4j_port> <redis_port> -- <command...>
#
# - wipes and recreates .run/<name> (Neo4j data, Redis dir, pid files, logs)
# - starts Redis on 127.0.0.1:<redis_port> and Neo4j (Bolt) on 127.0.0.1:<neo4j_port>
# - exports NEO4J_URI=bolt://127.0.0.1:<neo4j_port> and REDIS_URL=redis://127.0.0.1:<redis_port>
#   (Neo4j auth is disabled: any credentials, or none, are accepted), and GDS_ENV=development:
#   a local stack, where the service accepts the default and example secrets it refuses elsewhere
# - runs the command, then stops both services (also on error, Ctrl-C or SIGTERM)
# - exits with the command's exit status (130/143 when interrupted)
#
# With `-` for <neo4j_port> the stack has no Neo4j of its own: the command uses the
# NEO4J_URI it inherits (another stack's, which must be up), and only Redis is started.
# make test runs its two HTTP suites so, on one Neo4j and a Redis each (Makefile
# `integrations`).
#
# Logs stay in .run/<name>/{neo4j,redis}.log after the run for debugging.
# Memory knobs: NEO4J_HEAP_MIN, NEO4J_HEAP_MAX, NEO4J_PAGECACHE, NEO4J_GC (see scripts/neo4j.sh).
set -euo pipefail
LOG_TAG=with-stack
# shellcheck source=lib/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
# shellcheck source=lib/neo4j.sh
source "$SCRIPTS/lib/neo4j.sh"
# shellcheck source=lib/redis.sh
source "$SCRIPTS/lib/redis.sh"

usage() { die "usage: $0 <name> <neo4j_port|-> <redis_port> -- <command...>"; }
(($# >= 5)) || usage
NAME="$1" NEO4J_PORT="$2" REDIS_PORT_ARG="$3"
[[ "$4" == "--" ]] || usage
shift 4
[[ "$NAME" =~ ^[A-Za-z0-9][A-Za-z0-9._-]*$ && "$NAME" != *..* ]] || die "invalid stack name '$NAME'"
OWN_NEO4J=1
if [[ "$NEO4J_PORT" == "-" ]]; then
  OWN_NEO4J=0
  [[ -n "${NEO4J_URI:-}" ]] || die "neo4j_port '-' uses the NEO4J_URI of the environment: it is not set"
else
  check_port "$NEO4J_PORT" neo4j_port
fi
check_port "$REDIS_PORT_ARG" redis_port
[[ "$NEO4J_PORT" != "$REDIS_PORT_ARG" ]] || die "neo4j_port and redis_port must differ"

export STACK_DIR="$ROOT/.run/$NAME"
export NEO4J_DATA_DIR="$STACK_DIR/neo4j"
export NEO4J_BOLT_PORT="$NEO4J_PORT"
export REDIS_PORT="$REDIS_PORT_ARG"
export STACK_PARENT_PID="$$"

STARTED=0
# shellcheck disable=SC2317  # invoked via trap
cleanup() {
  local rc=$?
  trap - EXIT INT TERM HUP
  kill_child_if_running
  if ((STARTED)); then
    log "stopping stack '$NAME'"
    redis_stop || rc=$((rc == 0 ? 1 : rc))
    if ((OWN_NEO4J)); then neo4j_stop || rc=$((rc == 0 ? 1 : rc)); fi
  fi
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

# Refuse to wipe a stack that is still running (e.g. a concurrent run with the same name).
SERVICES=(redis)
if ((OWN_NEO4J)); then SERVICES+=(neo4j); fi
for svc in "${SERVICES[@]}"; do
  if [[ -f "$STACK_DIR/$svc.pid" ]] && "${svc}_status" >/dev/null 2>&1; then
    die "stack '$NAME' already has a running $svc ($STACK_DIR/$svc.pid); stop it first"
  fi
done
rm -rf "$STACK_DIR"
mkdir -p "$STACK_DIR"

start="$(now_ms)"
STARTED=1
redis_start
if ((OWN_NEO4J)); then
  neo4j_start
  export NEO4J_URI="bolt://127.0.0.1:$NEO4J_PORT"
fi
export REDIS_URL="redis://127.0.0.1:$REDIS_PORT"
export GDS_ENV=development
log "stack '$NAME' up in $(($(now_ms) - start)) ms: NEO4J_URI=$NEO4J_URI REDIS_URL=$REDIS_URL"
log "running: $*"

run_forwarding "$@"
log "command exited with status $CHILD_RC"
exit "$CHILD_RC"
