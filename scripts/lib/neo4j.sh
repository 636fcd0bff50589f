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
  N4_AOT="$ROOT/deploy/neo4j/target/neo4j-launcher.aot"
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

java_major() { # JAVA_BINARY
  "$1" -version 2>&1 | awk -F'"' '/version/ {split($2, v, "."); print (v[1] == "1" ? v[2] : v[1]); exit}'
}

# neo4j_java: sets N4_JAVA, the java that runs Neo4j's code, N4_JAVA_MAJOR, its version, and
# N4_JAVA_COMPAT, the flags that java needs for that code; once per shell. NEO4J_JAVA names one;
# otherwise a Java 25 installed beside the machine's default (/usr/lib/jvm, where Debian's and
# Temurin's packages put theirs), else the java on PATH (17 or later).
# Why 25 first: its AOT cache (neo4j_archive_opts) keeps the method profiles of a training run
# of the service's own import, so a Neo4j just started compiles its write path at once instead
# of during its first large write (deploy/neo4j/README.md, "Start-up and the AOT cache").
neo4j_java() {
  [[ -n "${N4_JAVA:-}" ]] && return 0
  local candidate
  if [[ -n "${NEO4J_JAVA:-}" ]]; then
    [[ -x "$NEO4J_JAVA" ]] || die "NEO4J_JAVA is not an executable java: $NEO4J_JAVA"
    N4_JAVA="$NEO4J_JAVA"
  else
    N4_JAVA="$(command -v java || true)"
    for candidate in /usr/lib/jvm/*/bin/java; do
      if [[ -x "$candidate" && "$(java_major "$candidate")" == 25 ]]; then
        N4_JAVA="$candidate"
        break
      fi
    done
  fi
  [[ -n "$N4_JAVA" ]] || die "java not found (Java 17+ needed): run scripts/ensure-deps.sh"
  N4_JAVA_MAJOR="$(java_major "$N4_JAVA")"
  [[ "$N4_JAVA_MAJOR" =~ ^[0-9]+$ ]] && ((N4_JAVA_MAJOR >= 17)) ||
    die "Java 17+ required, found: $("$N4_JAVA" -version 2>&1 | head -n1) ($N4_JAVA)"
  N4_JAVA_COMPAT=()
  # From 24 on the JVM warns at each use of sun.misc.Unsafe's memory access and of native
  # loading, both of which Neo4j's page cache and JNA rely on: allow them, quietly.
  if ((N4_JAVA_MAJOR >= 24)); then
    N4_JAVA_COMPAT+=(--enable-native-access=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow)
  fi
}

# neo4j_uses_aot: whether Neo4j's java keeps an AOT cache (Java 25, the version it was
# measured on: its flags below are experimental and diagnostic ones that may change).
neo4j_uses_aot() {
  neo4j_java
  ((N4_JAVA_MAJOR == 25))
}

# neo4j_jvm_opts: sets the array N4_JVM to the JVM options (heap, GC, Neo4j's recommended
# --add-opens and netty/log4j properties, then NEO4J_JAVA_OPTS). No AlwaysPreTouch: it would
# commit the whole heap up front and slow down startup.
neo4j_jvm_opts() {
  local gc
  # (exit, not set -e: a caller may run this where set -e is off, as `start || rc=1` does)
  gc="$(neo4j_gc_flag)" || exit 1
  neo4j_java
  N4_JVM=(
    "-Xms${NEO4J_HEAP_MIN:-512m}" "-Xmx${NEO4J_HEAP_MAX:-2g}"
    "$gc" -XX:-OmitStackTraceInFastThrow -XX:+ExitOnOutOfMemoryError
    -XX:+DisableExplicitGC -Djdk.nio.maxCachedBufferSize=1024
    -Dio.netty.tryReflectionSetAccessible=true -Dlog4j2.disable.jmx=true
    --add-opens=java.base/java.nio=ALL-UNNAMED
    --add-opens=java.base/java.io=ALL-UNNAMED
    --add-opens=java.base/sun.nio.ch=ALL-UNNAMED
    "${N4_JAVA_COMPAT[@]}"
  )
  # The AOT cache's adapter code is not kept: Java 25 warned at each start that it could not
  # link it (the cache works without it).
  if neo4j_uses_aot; then
    N4_JVM+=(-XX:+UnlockDiagnosticVMOptions -XX:-AOTAdapterCaching)
  fi
  local -a extra=()
  if [[ -n "${NEO4J_JAVA_OPTS:-}" ]]; then
    read -r -a extra <<<"$NEO4J_JAVA_OPTS"
  fi
  N4_JVM+=("${extra[@]}")
}

# neo4j_archive_opts: appends to N4_JVM the archive a start maps. On Java 25 the AOT cache
# (classes loaded and linked, and the method profiles of the training run, compiled at once
# by AOTCompileEagerly); NEO4J_AOT_RECORD=FILE instead records one into FILE at exit (the
# training run's own start). On other versions the class-data-sharing archive. NEO4J_CDS=0:
# neither. A cache or archive the JVM refuses (other flags than recorded with) is skipped.
neo4j_archive_opts() {
  N4_ARCHIVE="no archive"
  if [[ -n "${NEO4J_AOT_RECORD:-}" ]]; then
    N4_JVM+=("-XX:AOTCacheOutput=$NEO4J_AOT_RECORD")
    N4_ARCHIVE="recording an AOT cache"
  elif [[ "${NEO4J_CDS:-1}" == "0" ]]; then
    return 0
  elif neo4j_uses_aot; then
    if [[ -f "$N4_AOT" ]]; then
      N4_JVM+=("-XX:AOTCache=$N4_AOT" -XX:+UnlockExperimentalVMOptions -XX:+AOTCompileEagerly)
      N4_ARCHIVE="AOT cache"
    fi
  elif [[ -f "$N4_JSA" ]]; then
    N4_JVM+=("-XX:SharedArchiveFile=$N4_JSA")
    N4_ARCHIVE="CDS archive"
  fi
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

  neo4j_java
  # (not in the AOT training's own start: the build that runs it holds the build lock)
  [[ -n "${NEO4J_AOT_RECORD:-}" ]] || "$SCRIPTS/build-neo4j.sh"
  [[ -f "$N4_JAR" ]] || die "launcher jar missing: $N4_JAR"

  mkdir -p "$N4_STACK_DIR" "$N4_DATA_DIR"
  rm -f "$N4_DATA_DIR/ready"

  neo4j_jvm_opts
  neo4j_archive_opts

  log "starting Neo4j on 127.0.0.1:$N4_PORT (Java $N4_JAVA_MAJOR, $N4_ARCHIVE, data $N4_DATA_DIR, heap ${NEO4J_HEAP_MIN:-512m}..${NEO4J_HEAP_MAX:-2g}, page cache ${NEO4J_PAGECACHE:-512m}, log $N4_LOG_FILE)"
  local start pid
  start="$(now_ms)"
  NEO4J_PAGECACHE="${NEO4J_PAGECACHE:-512m}" \
    setsid "$N4_JAVA" "${N4_JVM[@]}" -jar "$N4_JAR" \
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

