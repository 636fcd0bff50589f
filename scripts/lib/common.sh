# shellcheck shell=bash
# Shared helpers for the local-stack scripts (sourced, not executed).
#
# Conventions:
#   - progress and errors go to stderr, prefixed with [$LOG_TAG]
#   - relative paths in env vars (STACK_DIR, NEO4J_DATA_DIR, ...) are relative to the repo root
#   - services are started with setsid, so each one leads its own process group and
#     a terminal Ctrl-C never reaches them directly; the wrappers stop them in order.

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
# shellcheck disable=SC2034  # used by the scripts that source this file
SCRIPTS="$ROOT/scripts"
LOG_TAG="${LOG_TAG:-stack}"

log() { printf '[%s] %s\n' "$LOG_TAG" "$*" >&2; }
die() {
  log "ERROR: $*"
  exit 1
}

# abspath PATH: PATH made absolute against the repo root (not the cwd).
abspath() {
  case "$1" in
    /*) printf '%s' "$1" ;;
    *) printf '%s/%s' "$ROOT" "$1" ;;
  esac
}

# now_ms: wall clock in milliseconds.
now_ms() { date +%s%3N; }

# port_open PORT: true when something accepts TCP connections on 127.0.0.1:PORT.
port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# free_port FROM: the first port from FROM on that nothing listens on (for a throw-away stack
# whose ports no one else needs to know).
free_port() {
  local port="$1"
  while port_open "$port"; do port=$((port + 1)); done
  echo "$port"
}

# port_owner PORT: best-effort description of who listens on PORT.
port_owner() {
  if command -v ss >/dev/null 2>&1; then
    ss -ltnpH "sport = :$1" 2>/dev/null | head -n 3
  fi
}

# check_port VALUE NAME: VALUE must be a TCP port number.
check_port() {
  [[ "$1" =~ ^[0-9]+$ ]] && (("$1" >= 1 && "$1" <= 65535)) || die "$2 must be a port number (1-65535), got '$1'"
}

# pid_alive PID: process exists and is not a zombie.
pid_alive() {
  local pid="$1" state
  [[ -n "$pid" && "$pid" =~ ^[0-9]+$ ]] || return 1
  kill -0 "$pid" 2>/dev/null || return 1
  state="$(awk '{print $3}' "/proc/$pid/stat" 2>/dev/null || true)"
  [[ "$state" != "Z" && "$state" != "X" ]]
}

# pid_matches PID PATTERN: the process command line contains PATTERN (guards against pid reuse).
# wait_ready URL PID LOG: waits (up to 2 minutes) until URL/readyz answers, failing at once
# when process PID exits (its output is in LOG). Used by the scripts that start the service
# on a throw-away stack and then drive it (fuzz.sh, record-examples.sh).
wait_ready() {
  local url="$1" pid="$2" logfile="$3"
  for _ in $(seq 1 240); do
    curl -fsS "$url/readyz" >/dev/null 2>&1 && return 0
    pid_alive "$pid" || die "the service exited; see $logfile"
    sleep 0.5
  done
  die "the service did not become ready; see $logfile"
}

pid_matches() {
  local pid="$1" pattern="$2"
  [[ -r "/proc/$pid/cmdline" ]] || return 1
  tr '\0' ' ' <"/proc/$pid/cmdline" | grep -qF -- "$pattern"
}

# signal_tree SIG PID: signal PID's whole process group when PID leads it (setsid), else PID.
signal_tree() {
  local sig="$1" pid="$2" pgid
  pgid="$(ps -o pgid= -p "$pid" 2>/dev/null | tr -d ' ' || true)"
  if [[ -n "$pgid" && "$pgid" == "$pid" ]]; then
    kill "-$sig" -- "-$pid" 2>/dev/null || true
  else
    kill "-$sig" "$pid" 2>/dev/null || true
  fi
}

# stop_pid PID NAME TIMEOUT_S: SIGTERM, wait up to TIMEOUT_S, then SIGKILL. Returns 0 when gone.
stop_pid() {
  local pid="$1" name="$2" timeout_s="$3" start elapsed
  pid_alive "$pid" || return 0
  start="$(now_ms)"
  log "stopping $name (pid $pid, SIGTERM) ..."
  signal_tree TERM "$pid"
  while pid_alive "$pid"; do
    elapsed=$(($(now_ms) - start))
    if ((elapsed > timeout_s * 1000)); then
      log "$name did not stop within ${timeout_s}s; sending SIGKILL"
      signal_tree KILL "$pid"
      local _
      for _ in $(seq 1 50); do
        pid_alive "$pid" || break
        sleep 0.1
      done
      if pid_alive "$pid"; then
        log "ERROR: $name (pid $pid) survived SIGKILL"
        return 1
      fi
      reap "$pid"
      return 0
    fi
    sleep 0.1
  done
  reap "$pid"
  log "$name stopped ($(($(now_ms) - start)) ms)"
}

# reap PID: collect the exit status of PID if it is a child of this shell (avoids zombies when
# the caller exits right away); no-op otherwise.
reap() { wait "$1" 2>/dev/null || true; }

# Stops the process named by a pid file already read, if it is still the one that was
# started (its command line matches), then removes the given files (the pid file first).
#   stop_recorded <name> <pid> <command-line match> <timeout_s> <pid file> [more files...]
stop_recorded() {
  local name="$1" pid="$2" match="$3" timeout_s="$4"
  shift 4
  if pid_alive "$pid" && pid_matches "$pid" "$match"; then
    if ! stop_pid "$pid" "$name" "$timeout_s"; then
      log "ERROR: could not stop $name (pid $pid)"
      return 1
    fi
  else
    log "not running (stale pid file for pid $pid)"
  fi
  rm -f "$@"
}

# The command line of scripts/<service>.sh: start|stop|status|restart, run by the
# <service>_start, <service>_stop and <service>_status functions of lib/<service>.sh.
service_main() {
  local service="$1"
  shift
  case "${1:-}" in
    start | stop | status) "${service}_$1" ;;
    restart)
      "${service}_stop"
      "${service}_start"
      ;;
    *) die "usage: $0 start|stop|status|restart" ;;
  esac
}

# Starts <service> (neo4j or redis) for a script that runs something against it: when
# it already runs it is left running afterwards; otherwise the variable <stop_flag> is
# set to 1 (the script's clean-up then stops it) and the service is tied to this
# script's lifetime (it also stops if the script is killed).
#   start_owned <service> <label> <stop_flag>
start_owned() {
  local service="$1" label="$2" stop_flag="$3"
  if "${service}_status" >/dev/null 2>&1; then
    log "$label already running; leaving it running afterwards"
    "${service}_start"
  else
    printf -v "$stop_flag" 1
    STACK_PARENT_PID="$$" "${service}_start"
  fi
}

# show_log_tail FILE [N]: print the last N lines of a log to stderr.
show_log_tail() {
  local file="$1" n="${2:-40}"
  if [[ -s "$file" ]]; then
    log "---- last $n lines of $file ----"
    tail -n "$n" "$file" >&2 || true
    log "---- end of $file ----"
  else
    log "(log $file is empty or missing)"
  fi
}

# fd0_usable: true when standard input is an open file descriptor.
fd0_usable() { { : <&0; } 2>/dev/null; }

# run_forwarding CMD...: runs CMD as a child, forwarding SIGINT/SIGTERM/SIGHUP to it as SIGTERM
# (a non-interactive shell's background children ignore SIGINT, so TERM is what reaches them),
# and waits for it. Sets CHILD_RC (the command's exit status, or 128+signal when the wrapper was
# signalled) and CHILD_SIGNAL. The caller's EXIT trap does the cleanup.
# shellcheck disable=SC2034  # CHILD_RC is read by the callers
CHILD_PID=""
CHILD_RC=0
CHILD_SIGNAL=""
_forward_signal() {
  CHILD_SIGNAL="$1"
  if [[ -n "$CHILD_PID" ]] && pid_alive "$CHILD_PID"; then
    log "got SIG$1: sending SIGTERM to the command (pid $CHILD_PID)"
    kill -TERM "$CHILD_PID" 2>/dev/null || true
  fi
}
run_forwarding() {
  trap '_forward_signal INT' INT
  trap '_forward_signal TERM' TERM
  trap '_forward_signal HUP' HUP
  if fd0_usable; then
    "$@" <&0 &
  else
    "$@" </dev/null &
  fi
  CHILD_PID=$!
  local rc=0
  wait "$CHILD_PID" || rc=$?
  # `wait` returns >128 when interrupted by a trapped signal: keep waiting for the child.
  while ((rc > 128)) && kill -0 "$CHILD_PID" 2>/dev/null; do
    rc=0
    wait "$CHILD_PID" || rc=$?
  done
  CHILD_RC=$rc
  case "$CHILD_SIGNAL" in
    INT) CHILD_RC=130 ;;
    TERM) CHILD_RC=143 ;;
    HUP) CHILD_RC=129 ;;
  esac
  CHILD_PID=""
  trap - INT TERM HUP
}

# kill_child_if_running: used by EXIT traps when the wrapper dies before the command ended.
kill_child_if_running() {
  if [[ -n "${CHILD_PID:-}" ]] && pid_alive "$CHILD_PID"; then
    stop_pid "$CHILD_PID" "command" 10 || true
  fi
}

# as_root CMD...: CMD as root (directly, or through sudo for another user).
SUDO=()
as_root() {
  if [[ "$(id -u)" -ne 0 ]]; then
    command -v sudo >/dev/null 2>&1 || die "need root or sudo to run: $*"
    SUDO=(sudo)
  fi
  "${SUDO[@]}" "$@"
}

apt_install() {
  command -v apt-get >/dev/null 2>&1 || die "apt-get not available; install manually: $*"
  log "installing Debian packages: $*"
  if ! as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "$@" >&2; then
    log "apt-get install failed; running apt-get update and retrying"
    as_root env DEBIAN_FRONTEND=noninteractive apt-get update >&2
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "$@" >&2 ||
      die "apt-get install $* failed"
  fi
}
