#!/usr/bin/env bash
# Builds the local Neo4j launcher (deploy/neo4j) unless it is already up to date.
#
#   scripts/build-neo4j.sh           build when target/neo4j-launcher.jar is missing or older
#                                    than deploy/neo4j/pom.xml or anything under src/
#   scripts/build-neo4j.sh --force   always build
#
# Output: deploy/neo4j/target/neo4j-launcher.jar (+ target/lib/*.jar on its manifest Class-Path).
set -euo pipefail
LOG_TAG=build-neo4j
# shellcheck source=lib/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"

PROJECT="$ROOT/deploy/neo4j"
JAR="$PROJECT/target/neo4j-launcher.jar"
FORCE=0
case "${1:-}" in
  --force) FORCE=1 ;;
  "") ;;
  *) die "usage: $0 [--force]" ;;
esac

is_stale() {
  [[ -f "$JAR" && -d "$PROJECT/target/lib" ]] || return 0
  [[ -n "$(find "$PROJECT/pom.xml" "$PROJECT/src" -newer "$JAR" -print -quit)" ]]
}

command -v java >/dev/null 2>&1 || die "java not found (Java 17+ needed): run scripts/ensure-deps.sh"

# Serialize concurrent builds (e.g. `make test` and `make bench` started together).
mkdir -p "$ROOT/.run"
exec 9>"$ROOT/.run/neo4j-build.lock"
flock 9

if ((FORCE == 0)) && ! is_stale; then
  log "Neo4j launcher is up to date ($JAR)"
  exit 0
fi

command -v mvn >/dev/null 2>&1 || die "mvn not found: run scripts/ensure-deps.sh"
log "building Neo4j launcher with Maven (first build downloads ~125 MB of jars) ..."
start="$(now_ms)"
if ! mvn -q -B -Dstyle.color=never -f "$PROJECT/pom.xml" package -DskipTests >&2; then
  die "Maven build of deploy/neo4j failed (see output above)"
fi
[[ -f "$JAR" ]] || die "build finished but $JAR is missing"
touch "$JAR"
log "built $JAR with $(find "$PROJECT/target/lib" -name '*.jar' | wc -l) dependency jars in $((($(now_ms) - start) / 1000))s"
