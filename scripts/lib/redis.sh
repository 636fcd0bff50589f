# shellcheck shell=bash
# Redis start/stop/status functions (sourced by scripts/redis.sh, with-stack.sh, run-dev.sh).
# Requires lib/common.sh. Configuration is read from the environment on each call
# (see scripts/redis.sh for the variables).

redis_config() {
  RD_PORT="${REDIS_PORT:-6379}"
  check_port "$RD_PORT" REDIS_PORT
  RD_STACK_DIR="$(abspath "${STACK_DIR:-.run/dev}")"
  RD_WORK_DIR="$RD_STACK_DIR/redis"
  RD_PID_FILE="$RD_STACK_DIR/redis.pid"
  RD_WATCHDOG_PID_FILE="$RD_STACK_DIR/redis-watchdog.pid"
  RD_LOG_FILE="$RD_STACK_DIR/redis.log"
  RD_START_TIMEOUT="${REDIS_START_TIMEOUT:-20}"
  RD_STOP_TIMEOUT="${REDIS_STOP_TIMEOUT:-10}"
  RD_MAXMEMORY="${REDIS_MAXMEMORY:-256mb}"
  RD_MATCH="redis-server"
}

# Pid file format: "PID PORT".
redis_read_pidfile() {
  RD_PF_PID="" RD_PF_PORT=""
  [[ -f "$RD_PID_FILE" ]] || return 1
  read -r RD_PF_PID RD_PF_PORT <"$RD_PID_FILE" || true
  [[ -n "$RD_PF_PID" ]]
}

redis_running_pid() {
  redis_read_pidfile || return 1
  pid_alive "$RD_PF_PID" && pid_matches "$RD_PF_PID" "$RD_MATCH"
}

redis_pings() { [[ "$(redis-cli -h 127.0.0.1 -p "$1" ping 2>/dev/null || true)" == "PONG" ]]; }

redis_need_binaries() {
  command -v redis-server >/dev/null 2>&1 && command -v redis-cli >/dev/null 2>&1 ||
    die "redis-server/redis-cli not found: run scripts/ensure-deps.sh"
}

redis_stop_watchdog() {
  local wpid=""
  [[ -f "$RD_WATCHDOG_PID_FILE" ]] && read -r wpid <"$RD_WATCHDOG_PID_FILE" || true
  if [[ -n "$wpid" ]] && pid_alive "$wpid" && pid_matches "$wpid" "redis-watchdog"; then
    signal_tree TERM "$wpid"
  fi
  rm -f "$RD_WATCHDOG_PID_FILE"
}

redis_start() {
  local LOG_TAG=redis
  redis_config
  redis_need_binaries
  if redis_running_pid; then
    if redis_pings "$RD_PF_PORT"; then
      log "already running (pid $RD_PF_PID) on redis://127.0.0.1:$RD_PF_PORT"
      return 0
    fi
  else
    rm -f "$RD_PID_FILE"
    if port_open "$RD_PORT"; then
      log "port 127.0.0.1:$RD_PORT is already in use:"
      port_owner "$RD_PORT" >&2 || true
      die "cannot start Redis: port $RD_PORT busy (stop the other process or set REDIS_PORT)"
    fi
    mkdir -p "$RD_STACK_DIR" "$RD_WORK_DIR"
    log "starting Redis on 127.0.0.1:$RD_PORT (dir $RD_WORK_DIR, log $RD_LOG_FILE)"
    # One Redis holds the BullMQ queues and the caches, so nothing may be evicted
    # (BullMQ requires noeviction): a memory cap makes a full Redis refuse writes instead
    # of growing without end. Dev and test stacks are thrown away: no persistence.
    setsid redis-server --port "$RD_PORT" --bind 127.0.0.1 --protected-mode yes \
      --maxmemory "$RD_MAXMEMORY" --maxmemory-policy noeviction \
      --save '' --appendonly no --dir "$RD_WORK_DIR" --daemonize no --logfile '' \
      >"$RD_LOG_FILE" 2>&1 </dev/null &
    RD_PF_PID=$!
    RD_PF_PORT="$RD_PORT"
    echo "$RD_PF_PID $RD_PF_PORT" >"$RD_PID_FILE"
    if [[ -n "${STACK_PARENT_PID:-}" ]]; then
      # Stops Redis if the wrapper that started it dies without cleaning up (e.g. SIGKILL).
      setsid bash -c 'while kill -0 "$1" 2>/dev/null && kill -0 "$2" 2>/dev/null; do sleep 1; done
        kill -TERM "$2" 2>/dev/null' redis-watchdog "$STACK_PARENT_PID" "$RD_PF_PID" \
        >/dev/null 2>&1 </dev/null &
      echo "$!" >"$RD_WATCHDOG_PID_FILE"
    fi
  fi

  local start
  start="$(now_ms)"
  until redis_pings "$RD_PF_PORT"; do
    if ! pid_alive "$RD_PF_PID"; then
      show_log_tail "$RD_LOG_FILE" 30
      rm -f "$RD_PID_FILE"
      redis_stop_watchdog
      die "Redis exited during startup (log: $RD_LOG_FILE)"
    fi
    if (($(now_ms) - start > RD_START_TIMEOUT * 1000)); then
      show_log_tail "$RD_LOG_FILE" 30
      stop_pid "$RD_PF_PID" redis 5 || true
      rm -f "$RD_PID_FILE"
      redis_stop_watchdog
      die "Redis did not answer PING on 127.0.0.1:$RD_PF_PORT within ${RD_START_TIMEOUT}s"
    fi
    sleep 0.1
  done
  log "ready on redis://127.0.0.1:$RD_PF_PORT (pid $RD_PF_PID)"
}

redis_stop() {
  local LOG_TAG=redis
  redis_config
  redis_stop_watchdog
  if ! redis_read_pidfile; then
    log "not running (no pid file $RD_PID_FILE)"
    return 0
  fi
  stop_recorded redis "$RD_PF_PID" "$RD_MATCH" "$RD_STOP_TIMEOUT" "$RD_PID_FILE"
}

redis_status() {
  local LOG_TAG=redis
  redis_config
  if redis_running_pid; then
    if command -v redis-cli >/dev/null 2>&1 && redis_pings "$RD_PF_PORT"; then
      echo "redis: running (pid $RD_PF_PID) redis://127.0.0.1:$RD_PF_PORT"
      return 0
    fi
    echo "redis: running but not answering PING (pid $RD_PF_PID) port=$RD_PF_PORT"
    return 1
  fi
  echo "redis: stopped"
  return 3
}

