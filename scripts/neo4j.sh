#!/usr/bin/env bash
# Local Neo4j (embedded 5.26 Community, Bolt only, auth disabled, 127.0.0.1 only).
#
#   scripts/neo4j.sh start|stop|status|restart
#
# Environment (relative paths are relative to the repo root):
#   NEO4J_BOLT_PORT       Bolt port on 127.0.0.1                  (7687)
#   STACK_DIR             pid file + log: STACK_DIR/neo4j.{pid,log} (.run/dev)
#   NEO4J_DATA_DIR        DBMS home (data/, logs/, ready marker)   (STACK_DIR/neo4j)
#   NEO4J_HEAP_MIN/MAX    JVM heap                                (512m / 2g)
#   NEO4J_PAGECACHE       page cache size                         (512m)
#   NEO4J_GC              garbage collector: parallel or g1        (parallel)
#   NEO4J_JAVA_OPTS       extra JVM options                       ()
#   NEO4J_JAVA            the java that runs Neo4j   (a Java 25 in /usr/lib/jvm, else java on PATH)
#   NEO4J_CDS             0: start without the AOT cache or CDS archive  (1)
#   NEO4J_START_TIMEOUT   seconds to wait for readiness           (120)
#   NEO4J_STOP_TIMEOUT    seconds between SIGTERM and SIGKILL     (30)
#   STACK_PARENT_PID      if set, Neo4j shuts itself down when that process exits
#
# status exits 0 when running and ready, 3 when stopped, 1 when running but not ready.
set -euo pipefail
LOG_TAG=neo4j
# shellcheck source=lib/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
# shellcheck source=lib/neo4j.sh
source "$SCRIPTS/lib/neo4j.sh"

service_main neo4j "$@"
