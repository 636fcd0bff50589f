#!/usr/bin/env bash
# Local Redis (no persistence, 127.0.0.1 only) for development and tests.
#
#   scripts/redis.sh start|stop|status|restart
#
# Environment (relative paths are relative to the repo root):
#   REDIS_PORT            port on 127.0.0.1                        (6379)
#   STACK_DIR             pid file + log: STACK_DIR/redis.{pid,log}; working dir STACK_DIR/redis
#                                                                  (.run/dev)
#   REDIS_START_TIMEOUT   seconds to wait for PING                 (20)
#   REDIS_STOP_TIMEOUT    seconds between SIGTERM and SIGKILL      (10)
#   REDIS_MAXMEMORY       memory cap; full means writes are refused (256mb)
#                         (policy noeviction: BullMQ's queues live in the same Redis)
#   STACK_PARENT_PID      if set, a small watchdog stops Redis when that process exits
#
# status exits 0 when running and answering PING, 3 when stopped, 1 when running but not answering.
set -euo pipefail
LOG_TAG=redis
# shellcheck source=lib/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
# shellcheck source=lib/redis.sh
source "$SCRIPTS/lib/redis.sh"

service_main redis "$@"
