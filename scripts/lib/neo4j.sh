# shellcheck shell=bash
# Neo4j start/stop/status functions (sourced by scripts/neo4j.sh, with-stack.sh, run-dev.sh).
# Sourcing them into the wrapper scripts makes the JVM a child of the long-lived wrapper shell,
# which reaps it on exit (no zombies even where PID 1 does not reap orphans).
# Requires lib/common.sh. Configuration is read from the environment on each call
# (see scripts/neo4j.sh for the variables).

neo4j_config() {
  N4_PORT="${NEO4J_BOLT_PORT:-7687}"
  check_port "$N4_PORT" NEO4J_BOLT_PORT
  N4_STACK_DIR="$(abspath "${STACK_DIR:-.run/dev}")"
  N4_DATA_DIR="$(abspath "${NEO4J_DATA_DIR:-$N4_STACK_DIR/neo4j}")"
  N4_PID_FILE="$N4_STACK_DIR/neo4j.pid"
  N4_LOG_FILE="$N4_STACK_DIR/neo4j.log"
  N4_JAR="$ROOT/deploy/neo4j/target/neo4j-launcher.jar"
  N4_JSA="$ROOT/deploy/neo4j/target/neo4j-launcher.jsa"
  N4_START_TIMEOUT="${NEO4J_START_TIMEOUT:-120}"
  N4_STOP_TIMEOUT="${NEO4J_STOP_TIMEOUT:-30}"
  N4_MATCH="neo4j-launcher.jar"
}

# Pid file format: "PID PORT DATA_DIR" (so stop/status work even if the env changed).
neo4j_read_pidfile() {
  N4_PF_PID="" N4_PF_PORT="" N4_PF_DATA=""
  [[ -f "$N4_PID_FILE" ]] || return 1
  read -r N4_PF_PID N4_PF_PORT N4_PF_DATA <"$N4_PID_FILE" || true
  [[ -n "$N4_PF_PID" ]]
}

neo4j_running_pid() {
  neo4j_read_pidfile || return 1
  pid_alive "$N4_PF_PID" && pid_matches "$N4_PF_PID" "$N4_MATCH"
}

neo4j_is_ready() { # PORT DATA
  [[ -f "$2/ready" ]] && port_open "$1"
}

neo4j_wait_ready() { # PID PORT DATA START_MS
  local pid="$1" port="$2" data="$3" start="$4"
  while :; do
    if ! pid_alive "$pid"; then
      show_log_tail "$N4_LOG_FILE" 60
      rm -f "$N4_PID_FILE"
      die "Neo4j exited during startup (log: $N4_LOG_FILE)"
    fi
    if neo4j_is_ready "$port" "$data"; then
      return 0
    fi
    if (($(now_ms) - start > N4_START_TIMEOUT * 1000)); then
      show_log_tail "$N4_LOG_FILE" 60
      log "Neo4j not ready after ${N4_START_TIMEOUT}s; stopping it"
      stop_pid "$pid" neo4j 15 || true
      rm -f "$N4_PID_FILE"
      die "Neo4j did not become ready on 127.0.0.1:$port within ${N4_START_TIMEOUT}s (log: $N4_LOG_FILE)"
    fi
    sleep 0.2
  done
}

# neo4j_gc_flag: the JVM flag of the garbage collector NEO4J_GC names: `parallel` (the
# default) or `g1` (Neo4j's own default, for heaps of many GiB). At this stack's heap sizes
# (2 GiB, 4 GiB for the benches) the parallel collector's pauses stay short, and on a machine
# of two cores it leaves Neo4j more of them than G1, whose concurrent threads and write
# barriers cost CPU on every write (measured: deploy/neo4j/README.md, "Memory").
neo4j_gc_flag() {
  case "${NEO4J_GC:-parallel}" in
    parallel) echo -XX:+UseParallelGC ;;
    g1) echo -XX:+UseG1GC ;;
    *) die "NEO4J_GC must be parallel or g1, got '${NEO4J_GC}'" ;;
  esac
}

# neo4j_jvm_opts: sets the array N4_JVM to the JVM options (heap, GC, Neo4j's recommended
# --add-opens and netty/log4j properties, then NEO4J_JAVA_OPTS). No AlwaysPreTouch: it would
# commit the whole heap up front and slow down startup.
neo4j_jvm_opts() {
  local gc
  # (exit, not set -e: a caller may run this where set -e is off, as `start || rc=1` does)
  gc="$(neo4j_gc_flag)" || exit 1
  N4_JVM=(
    "-Xms${NEO4J_HEAP_MIN:-512m}" "-Xmx${NEO4J_HEAP_MAX:-2g}"
    "$gc" -XX:-OmitStackTraceInFastThrow -XX:+ExitOnOutOfMemoryError
    -XX:+DisableExplicitGC -Djdk.nio.maxCachedBufferSize=1024
    -Dio.netty.tryReflectionSetAccessible=true -Dlog4j2.disable.jmx=true
    --add-opens=java.base/java.nio=ALL-UNNAMED
    --add-opens=java.base/java.io=ALL-UNNAMED
    --add-opens=java.base/sun.nio.ch=ALL-UNNAMED
  )
  local -a extra=()
  if [[ -n "${NEO4J_JAVA_OPTS:-}" ]]; then
    read -r -a extra <<<"$NEO4J_JAVA_OPTS"
  fi
  N4_JVM+=("${extra[@]}")
}

neo4j_java_major() {
  java -version 2>&1 | awk -F'"' '/version/ {split($2, v, "."); print (v[1] == "1" ? v[2] : v[1]); exit}'
}

neo4j_start() {
  local LOG_TAG=neo4j
  neo4j_config
  if neo4j_running_pid; then
    if neo4j_is_ready "$N4_PF_PORT" "$N4_PF_DATA"; then
      log "already running (pid $N4_PF_PID) on bolt://127.0.0.1:$N4_PF_PORT, data $N4_PF_DATA"
      return 0
    fi
    log "already starting (pid $N4_PF_PID); waiting for readiness ..."
    neo4j_wait_ready "$N4_PF_PID" "$N4_PF_PORT" "$N4_PF_DATA" "$(now_ms)"
    log "ready on bolt://127.0.0.1:$N4_PF_PORT"
    return 0
  fi
  rm -f "$N4_PID_FILE"

  if port_open "$N4_PORT"; then
    log "port 127.0.0.1:$N4_PORT is already in use:"
    port_owner "$N4_PORT" >&2 || true
    die "cannot start Neo4j: port $N4_PORT busy (stop the other process or set NEO4J_BOLT_PORT)"
  fi

  command -v java >/dev/null 2>&1 || die "java not found (Java 17+ needed): run scripts/ensure-deps.sh"
  local major
  major="$(neo4j_java_major)"
  [[ "$major" =~ ^[0-9]+$ ]] && ((major >= 17)) || die "Java 17+ required, found: $(java -version 2>&1 | head -n1)"
  "$SCRIPTS/build-neo4j.sh"
  [[ -f "$N4_JAR" ]] || die "launcher jar missing: $N4_JAR"

  mkdir -p "$N4_STACK_DIR" "$N4_DATA_DIR"
  rm -f "$N4_DATA_DIR/ready"

  neo4j_jvm_opts
  if [[ "${NEO4J_CDS:-1}" != "0" && -f "$N4_JSA" ]]; then
    N4_JVM+=("-XX:SharedArchiveFile=$N4_JSA")
  fi

  log "starting Neo4j on 127.0.0.1:$N4_PORT (data $N4_DATA_DIR, heap ${NEO4J_HEAP_MIN:-512m}..${NEO4J_HEAP_MAX:-2g}, page cache ${NEO4J_PAGECACHE:-512m}, log $N4_LOG_FILE)"
  local start pid
  start="$(now_ms)"
  NEO4J_PAGECACHE="${NEO4J_PAGECACHE:-512m}" \
    setsid java "${N4_JVM[@]}" -jar "$N4_JAR" \
    --port "$N4_PORT" --data "$N4_DATA_DIR" --parent-pid "${STACK_PARENT_PID:-0}" \
    >"$N4_LOG_FILE" 2>&1 </dev/null &
  pid=$!
  echo "$pid $N4_PORT $N4_DATA_DIR" >"$N4_PID_FILE"
  neo4j_wait_ready "$pid" "$N4_PORT" "$N4_DATA_DIR" "$start"
  log "ready on bolt://127.0.0.1:$N4_PORT (pid $pid, $(($(now_ms) - start)) ms)"
}

neo4j_stop() {
  local LOG_TAG=neo4j
  neo4j_config
  if ! neo4j_read_pidfile; then
    log "not running (no pid file $N4_PID_FILE)"
    return 0
  fi
  stop_recorded neo4j "$N4_PF_PID" "$N4_MATCH" "$N4_STOP_TIMEOUT" \
    "$N4_PID_FILE" "${N4_PF_DATA:-$N4_DATA_DIR}/ready"
}

neo4j_status() {
  local LOG_TAG=neo4j
  neo4j_config
  if neo4j_running_pid; then
    if neo4j_is_ready "$N4_PF_PORT" "$N4_PF_DATA"; then
      echo "neo4j: running (pid $N4_PF_PID) bolt://127.0.0.1:$N4_PF_PORT data=$N4_PF_DATA"
      return 0
    fi
    echo "neo4j: starting/not ready (pid $N4_PF_PID) port=$N4_PF_PORT data=$N4_PF_DATA"
    return 1
  fi
  echo "neo4j: stopped"
  return 3
}

