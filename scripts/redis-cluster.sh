#!/usr/bin/env bash
# A throw-away 6-node Redis Cluster (3 masters, 3 replicas) on loopback, from the Debian
# redis-server.
#
#   scripts/redis-cluster.sh start <name> <first_port>   nodes on first_port..first_port+5
#   scripts/redis-cluster.sh stop  <name> <first_port>
#   scripts/redis-cluster.sh run   <name> <first_port> -- <command...>
#
# `run` starts the cluster, runs the command with REDIS_CLUSTER_NODES exported (the
# service then uses the cluster for everything it keeps in Redis) and the ACL user the
# service logs in as (REDIS_USERNAME=gds, REDIS_PASSWORD; REDIS_CLUSTER_ADMIN_PASSWORD
# for tests that stop a node), and always stops the nodes afterwards. Node files and logs stay in .run/<name>/redis-cluster/<port>/.
set -euo pipefail
LOG_TAG=redis-cluster
# shellcheck source=lib/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
# shellcheck source=lib/redisCluster.sh
source "$SCRIPTS/lib/redisCluster.sh"

usage() { die "usage: $0 start|stop <name> <first_port> | run <name> <first_port> -- <command...>"; }
(($# >= 3)) || usage
ACTION="$1" NAME="$2" BASE="$3"
shift 3
[[ "$NAME" =~ ^[A-Za-z0-9][A-Za-z0-9._-]*$ && "$NAME" != *..* ]] || die "invalid name '$NAME'"
check_port "$BASE" first_port
DIR="$ROOT/.run/$NAME/redis-cluster"

case "$ACTION" in
  start) rc_start "$DIR" "$BASE" ;;
  stop) rc_stop "$DIR" "$BASE" ;;
  run)
    [[ "${1:-}" == "--" ]] && shift || usage
    (($# >= 1)) || usage
    # shellcheck disable=SC2317  # invoked via trap
    cleanup() {
      local rc=$?
      trap - EXIT INT TERM HUP
      kill_child_if_running
      [[ -z "${WATCHDOG:-}" ]] || kill "$WATCHDOG" 2>/dev/null || true
      rc_stop "$DIR" "$BASE"
      exit "$rc"
    }
    trap cleanup EXIT
    trap 'exit 130' INT
    trap 'exit 143' TERM
    trap 'exit 129' HUP
    rc_start "$DIR" "$BASE"
    # Stops the (daemonized) nodes if this wrapper dies without cleaning up (SIGKILL).
    setsid bash -c 'while kill -0 "$1" 2>/dev/null; do sleep 1; done; shift
      for f in "$@"; do [[ -f "$f" ]] && kill -TERM "$(cat "$f")" 2>/dev/null; done' \
      redis-cluster-watchdog "$$" "$DIR"/*/redis.pid >/dev/null 2>&1 </dev/null &
    WATCHDOG=$!
    REDIS_CLUSTER_NODES="$(rc_nodes "$BASE")"
    export REDIS_CLUSTER_NODES REDIS_CLUSTER_DIR="$DIR" REDIS_USERNAME=gds
    export REDIS_PASSWORD="$RC_GDS_PASSWORD" REDIS_CLUSTER_ADMIN_PASSWORD="$RC_ADMIN_PASSWORD"
    run_forwarding "$@"
    exit "$CHILD_RC"
    ;;
  *) usage ;;
esac
