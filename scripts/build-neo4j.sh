#!/usr/bin/env bash
# Builds the local Neo4j launcher (deploy/neo4j) unless it is already up to date.
#
#   scripts/build-neo4j.sh           build when target/neo4j-launcher.jar is missing or older
#                                    than deploy/neo4j/pom.xml or anything under src/
#   scripts/build-neo4j.sh --force   always build
#
# Output: deploy/neo4j/target/neo4j-launcher.jar (+ target/lib/*.jar on its manifest Class-Path),
# and target/neo4j-launcher.jsa: a class-data-sharing archive recorded by one training start of
# Neo4j (`--train`, -XX:ArchiveClassesAtExit). It roughly halves every later Neo4j startup; it is
# re-recorded whenever the jar or the JDK changes. NEO4J_CDS=0 skips it.
set -euo pipefail
LOG_TAG=build-neo4j
# shellcheck source=lib/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
# shellcheck source=lib/neo4j.sh
source "$SCRIPTS/lib/neo4j.sh"

PROJECT="$ROOT/deploy/neo4j"
JAR="$PROJECT/target/neo4j-launcher.jar"
JSA="$PROJECT/target/neo4j-launcher.jsa"
JSA_STAMP="$JSA.stamp"
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

cds_stamp() {
  printf '%s | %s\n' "$(java -version 2>&1 | head -n 2 | tr '\n' ' ')" "$(stat -c '%Y %s' "$JAR")"
}

cds_fresh() {
  [[ -f "$JSA" && -f "$JSA_STAMP" && "$(cat "$JSA_STAMP")" == "$(cds_stamp)" ]]
}

# Records the CDS archive with one short training start; never fails the build.
train_cds() {
  if [[ "${NEO4J_CDS:-1}" == "0" ]] || cds_fresh; then
    return 0
  fi
  log "recording the class-data-sharing archive (one training start of Neo4j) ..."
  local start tmp
  start="$(now_ms)"
  tmp="$(mktemp -d "$PROJECT/target/cds-train.XXXXXX")"
  rm -f "$JSA_STAMP"
  neo4j_jvm_opts
  # Write to a temp file and rename: running JVMs may have the current archive mapped.
  if java "${N4_JVM[@]}" "-XX:ArchiveClassesAtExit=$tmp/archive.jsa" -jar "$JAR" \
    --train --port 0 --data "$tmp/data" >"$tmp/train.log" 2>&1 </dev/null && [[ -s "$tmp/archive.jsa" ]]; then
    mv -f "$tmp/archive.jsa" "$JSA"
    cds_stamp >"$JSA_STAMP"
    rm -rf "$tmp"
    log "CDS archive ready ($(du -m "$JSA" | cut -f1) MB, $((($(now_ms) - start) / 1000))s)"
  else
    rm -f "$JSA"
    log "WARNING: CDS training failed (see $tmp/train.log); Neo4j will start without the archive"
  fi
}

if ((FORCE == 0)) && ! is_stale; then
  log "Neo4j launcher is up to date ($JAR)"
  train_cds
  exit 0
fi

command -v mvn >/dev/null 2>&1 || die "mvn not found: run scripts/ensure-deps.sh"
log "building Neo4j launcher with Maven (first build downloads ~125 MB of jars) ..."
start="$(now_ms)"
# (sed drops the stray colour-reset codes Maven 3.8 prints even in quiet batch mode)
if ! mvn -q -B -Dstyle.color=never -f "$PROJECT/pom.xml" package -DskipTests 2>&1 |
  sed -e 's/\x1b\[0m//g' -e '/^$/d' >&2; then
  die "Maven build of deploy/neo4j failed (see output above)"
fi
[[ -f "$JAR" ]] || die "build finished but $JAR is missing"
touch "$JAR"
log "built $JAR with $(find "$PROJECT/target/lib" -name '*.jar' | wc -l) dependency jars in $((($(now_ms) - start) / 1000))s"
train_cds
