#!/usr/bin/env bash
# Backup and restore of the local Neo4j (the embedded 5.26 Community of deploy/neo4j) with
# Neo4j's own tools: `neo4j-admin database dump` and `database load`, run from the classes
# the launcher already ships (org.neo4j.cli.AdminTool in target/lib). Community can dump
# and load only a stopped database, and the embedded DBMS cannot stop its one database
# alone (STOP DATABASE is Enterprise), so the script stops the DBMS, dumps or loads, and
# starts it again.
#
#   scripts/neo4j-backup.sh backup [DIR]    DIR/neo4j-<UTC time>.dump   (DIR: backups/)
#   scripts/neo4j-backup.sh restore FILE    replaces the store with FILE's
#
# While Neo4j is stopped (and, for a restore, until it has started on the loaded store)
# the maintenance flag is set: the Redis key gds:maintenance, on which every gateway
# refuses requests that could write with 503 and Retry-After rather than accept a write
# the restore would lose (services/platform/maintenanceFlag.ts). A restore first checks
# the dump (load --info), and moves the store it replaces aside to
# NEO4J_DATA_DIR/pre-restore/ (the newest one is kept) instead of deleting it: a load that
# fails puts it back.
#
# Environment (relative paths are relative to the repo root; defaults are make run's):
#   NEO4J_BOLT_PORT, STACK_DIR     as scripts/neo4j.sh                  (7687, .run/dev)
#   NEO4J_DATA_DIR                 the DBMS home                       (.data/neo4j)
#   REDIS_URL                      where the flag is set  (redis://127.0.0.1:${REDIS_PORT:-6379})
#   MAINTENANCE_TTL_S              the flag's lifetime, renewed while this runs   (600)
#   MAINTENANCE_GRACE_S            wait after setting it, before stopping Neo4j   (2)
#   NEO4J_ADMIN_HEAP               heap of the dump/load JVM                      (512m)
set -euo pipefail
LOG_TAG=neo4j-backup
# shellcheck source=lib/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
# shellcheck source=lib/neo4j.sh
source "$SCRIPTS/lib/neo4j.sh"

usage() { die "usage: $0 backup [DIR] | restore FILE"; }
(($# >= 1)) || usage
ACTION="$1"
shift

export STACK_DIR="${STACK_DIR:-.run/dev}"
export NEO4J_DATA_DIR="${NEO4J_DATA_DIR:-.data/neo4j}"
REDIS_URL="${REDIS_URL:-redis://127.0.0.1:${REDIS_PORT:-6379}}"
FLAG_KEY="gds:maintenance"
FLAG_TTL="${MAINTENANCE_TTL_S:-600}"
GRACE="${MAINTENANCE_GRACE_S:-2}"
DATABASE=neo4j

neo4j_config
# A running Neo4j's pid file names the data directory it runs on: that is the one.
if neo4j_running_pid; then
  [[ "$N4_PF_DATA" == "$N4_DATA_DIR" ]] || log "Neo4j runs on $N4_PF_DATA (not $N4_DATA_DIR): using it"
  export NEO4J_DATA_DIR="$N4_PF_DATA"
  neo4j_config
fi
[[ -f "$N4_JAR" ]] || die "launcher jar missing: $N4_JAR (run scripts/build-neo4j.sh)"
mkdir -p "$N4_STACK_DIR"
exec 8>"$N4_STACK_DIR/neo4j-backup.lock"
flock -n 8 || die "another backup or restore of $N4_STACK_DIR is running"

WORK="$(mktemp -d "$N4_STACK_DIR/neo4j-backup.XXXXXX")"
WAS_RUNNING=0
PARENT_PID=0
FLAG_SET=0
RENEWER=""
# a failed restore that put the previous store back changed nothing: the flag may go
PUT_BACK=0

# neo4j-admin from the launcher's classes, on the java that runs Neo4j: NEO4J_HOME is the
# DBMS home the launcher gives Neo4j (its data/ is there); an empty NEO4J_CONF keeps
# Neo4j's defaults.
admin() {
  mkdir -p "$WORK/conf"
  neo4j_java
  NEO4J_HOME="$N4_DATA_DIR" NEO4J_CONF="$WORK/conf" \
    "$N4_JAVA" "${N4_JAVA_COMPAT[@]}" "-Xmx${NEO4J_ADMIN_HEAP:-512m}" -cp "$N4_JAR" org.neo4j.cli.AdminTool "$@"
}

flag() { redis-cli -u "$REDIS_URL" --no-auth-warning "$@"; }

set_flag() { # REASON
  [[ "$(flag SET "$FLAG_KEY" "$1" EX "$FLAG_TTL" 2>&1)" == "OK" ]] ||
    die "could not set the maintenance flag in Redis ($REDIS_URL): writes would not be refused"
  FLAG_SET=1
  # renewed while this runs: a long load outlives no flag; a killed script's expires
  (while sleep 30; do flag SET "$FLAG_KEY" "$1" EX "$FLAG_TTL" || true; done) </dev/null >/dev/null 2>&1 8>&- &
  RENEWER=$!
  log "maintenance flag set ($FLAG_KEY=$1): requests that could write answer 503; waiting ${GRACE}s"
  sleep "$GRACE"
}

clear_flag() {
  if [[ -n "$RENEWER" ]]; then
    kill "$RENEWER" 2>/dev/null || true
    wait "$RENEWER" 2>/dev/null || true
  fi
  RENEWER=""
  if ((FLAG_SET)); then
    if [[ "$(flag DEL "$FLAG_KEY" 2>&1)" =~ ^[01]$ ]]; then
      log "maintenance flag cleared: writes accepted again"
      FLAG_SET=0
    else
      log "WARNING: could not clear the maintenance flag: run 'redis-cli -u $REDIS_URL DEL $FLAG_KEY' (it expires within ${FLAG_TTL}s)"
    fi
  fi
}

# Stops Neo4j if it runs, remembering the process whose life it was tied to.
stop_neo4j() {
  if neo4j_running_pid; then
    WAS_RUNNING=1
    PARENT_PID="$(tr '\0' '\n' <"/proc/$N4_PF_PID/cmdline" | sed -n '/^--parent-pid$/{n;p;q}')"
    neo4j_stop
  fi
}

start_neo4j() {
  ((WAS_RUNNING)) || return 0
  # (8>&-: Neo4j outlives this script and must not hold its lock)
  STACK_PARENT_PID="${PARENT_PID:-0}" neo4j_start 8>&-
  WAS_RUNNING=0
}

# shellcheck disable=SC2317  # invoked via trap
cleanup() {
  local rc=$?
  trap - EXIT INT TERM HUP
  if ((WAS_RUNNING)); then
    log "starting Neo4j again"
    start_neo4j || rc=1
  fi
  if ((rc == 0 || PUT_BACK)) || [[ "$ACTION" == backup ]]; then
    clear_flag
  elif ((FLAG_SET)); then
    [[ -z "$RENEWER" ]] || kill "$RENEWER" 2>/dev/null || true
    log "restore failed: the maintenance flag stays set (writes refused) until you check the store and run 'redis-cli -u $REDIS_URL DEL $FLAG_KEY' (it expires within ${FLAG_TTL}s)"
  fi
  rm -rf "$WORK"
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

backup() {
  local dir file start
  dir="$(abspath "${1:-backups}")"
  mkdir -p "$dir"
  file="$dir/$DATABASE-$(date -u +%Y%m%dT%H%M%SZ).dump"
  start="$(now_ms)"
  if neo4j_running_pid; then
    set_flag backup
    stop_neo4j
  fi
  log "dumping database $DATABASE of $N4_DATA_DIR"
  admin database dump "$DATABASE" --to-path="$WORK" >&2 || die "neo4j-admin database dump failed"
  start_neo4j
  clear_flag
  # read back before it takes its name: a file in DIR named *.dump is one load accepts
  admin database load "$DATABASE" --info --from-path="$WORK" >&2 || die "the dump written cannot be read back"
  mv "$WORK/$DATABASE.dump" "$file.partial"
  mv "$file.partial" "$file"
  log "backup written: $file ($(du -h "$file" | cut -f1), $(($(now_ms) - start)) ms)"
  echo "$file"
}

restore() {
  local file="${1:-}" aside start
  [[ -n "$file" ]] || usage
  file="$(abspath "$file")"
  [[ -f "$file" ]] || die "no such dump: $file"
  start="$(now_ms)"
  mkdir -p "$WORK/dump"
  ln -s "$file" "$WORK/dump/$DATABASE.dump"
  log "checking $file"
  admin database load "$DATABASE" --info --from-path="$WORK/dump" >&2 || die "$file is not a dump neo4j-admin can load"
  if neo4j_running_pid; then
    set_flag restore
    stop_neo4j
  fi
  # the store being replaced is moved aside, not deleted, until the load has worked
  aside="$N4_DATA_DIR/pre-restore/$(date -u +%Y%m%dT%H%M%SZ)"
  rm -rf "$N4_DATA_DIR/pre-restore"
  mkdir -p "$aside/databases" "$aside/transactions"
  for part in databases transactions; do
    if [[ -e "$N4_DATA_DIR/data/$part/$DATABASE" ]]; then
      mv "$N4_DATA_DIR/data/$part/$DATABASE" "$aside/$part/$DATABASE"
    fi
  done
  log "loading $file into $N4_DATA_DIR (the replaced store is in $aside)"
  if ! admin database load "$DATABASE" --from-path="$WORK/dump" --overwrite-destination=true >&2; then
    log "load failed: putting the previous store back"
    for part in databases transactions; do
      rm -rf "$N4_DATA_DIR/data/$part/$DATABASE"
      if [[ -e "$aside/$part/$DATABASE" ]]; then
        mv "$aside/$part/$DATABASE" "$N4_DATA_DIR/data/$part/$DATABASE"
      fi
    done
    PUT_BACK=1
    die "neo4j-admin database load failed; the previous store is back in place"
  fi
  start_neo4j
  clear_flag
  log "restored $file in $(($(now_ms) - start)) ms"
}

case "$ACTION" in
  backup) backup "$@" ;;
  restore) restore "$@" ;;
  *) usage ;;
esac
