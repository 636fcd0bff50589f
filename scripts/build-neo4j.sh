#!/usr/bin/env bash
# Builds the local Neo4j launcher (deploy/neo4j) unless it is already up to date.
#
#   scripts/build-neo4j.sh           build when target/neo4j-launcher.jar is missing or older
#                                    than deploy/neo4j/pom.xml or anything under src/
#   scripts/build-neo4j.sh --force   always build
#
# Output: deploy/neo4j/target/neo4j-launcher.jar (+ target/lib/*.jar on its manifest Class-Path),
# then the archive later starts map (scripts/lib/neo4j.sh, neo4j_archive_opts), recorded again
# whenever the jar, the JDK or what records it changes; NEO4J_CDS=0 skips both:
# - on Java 25, target/neo4j-launcher.aot: an AOT cache recorded from a training run of the
#   service's own import and export (bench/neo4jTraining.ts on a stack of its own, about a
#   minute), so that a Neo4j just started compiles its write path at once;
# - on other versions, target/neo4j-launcher.jsa: a class-data-sharing archive recorded by one
#   training start of Neo4j (`--train`, -XX:ArchiveClassesAtExit), which roughly halves every
#   later Neo4j startup.
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
AOT="$PROJECT/target/neo4j-launcher.aot"
AOT_STAMP="$AOT.stamp"
AOT_FAILED="$AOT.failed"
AOT_WORKLOAD="$ROOT/bench/neo4jTraining.ts"
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

neo4j_java

# Serialize concurrent builds (e.g. `make test` and `make bench` started together).
mkdir -p "$ROOT/.run"
exec 9>"$ROOT/.run/neo4j-build.lock"
flock 9

cds_stamp() {
  printf '%s | %s\n' "$("$N4_JAVA" -version 2>&1 | head -n 2 | tr '\n' ' ')" "$(stat -c '%Y %s' "$JAR")"
}

cds_fresh() {
  [[ -f "$JSA" && -f "$JSA_STAMP" && "$(cat "$JSA_STAMP")" == "$(cds_stamp)" ]]
}

# Records the CDS archive with one short training start; never fails the build.
train_cds() {
  if cds_fresh; then
    return 0
  fi
  log "recording the class-data-sharing archive (one training start of Neo4j) ..."
  local start tmp
  start="$(now_ms)"
  tmp="$(mktemp -d "$PROJECT/target/cds-train.XXXXXX")"
  rm -f "$JSA_STAMP"
  neo4j_jvm_opts
  # Write to a temp file and rename: running JVMs may have the current archive mapped.
  if "$N4_JAVA" "${N4_JVM[@]}" "-XX:ArchiveClassesAtExit=$tmp/archive.jsa" -jar "$JAR" \
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

# What the AOT cache depends on besides the JDK and the jar: the JVM flags it is recorded with
# (a start with other module flags refuses it) and the training workload.
aot_stamp() {
  printf '%s | %s\n' "$(cds_stamp)" "$(cat "$SCRIPTS/lib/neo4j.sh" "$AOT_WORKLOAD" | cksum)"
}

# Records the AOT cache from the training workload on a throw-away stack; never fails the build
# (without the cache Neo4j starts as before, compiling while it serves).
train_aot() {
  local stamp
  stamp="$(aot_stamp)"
  if [[ -f "$AOT" && -f "$AOT_STAMP" && "$(cat "$AOT_STAMP")" == "$stamp" ]]; then
    return 0
  fi
  # a recording that failed is not tried again at every start (a minute each) until what it
  # depends on changes; removing the marker tries again
  if [[ -f "$AOT_FAILED" && "$(cat "$AOT_FAILED")" == "$stamp" ]]; then
    log "no AOT cache: recording it failed for this JDK and launcher (remove $AOT_FAILED to try again)"
    return 0
  fi
  if [[ ! -x "$ROOT/node_modules/.bin/tsx" ]]; then
    log "WARNING: no node_modules yet: the AOT cache is recorded at the next start (make deps installs them)"
    return 0
  fi
  log "recording Neo4j's AOT cache from a training import and export (about a minute, once per JDK and launcher) ..."
  local start tmp neo4j_port redis_port
  start="$(now_ms)"
  tmp="$(mktemp -d "$PROJECT/target/aot-train.XXXXXX")"
  rm -f "$AOT_STAMP"
  neo4j_port="$(free_port 29687)"
  redis_port="$(free_port $((neo4j_port + 1)))"
  # The cache is written when the JVM exits (about 15 s), hence the long stop timeout. The
  # stack's processes do not keep this build's lock (fd 9).
  if NEO4J_AOT_RECORD="$tmp/cache.aot" NEO4J_STOP_TIMEOUT=300 \
    "$SCRIPTS/with-stack.sh" neo4j-aot-training "$neo4j_port" "$redis_port" -- \
    "$ROOT/node_modules/.bin/tsx" "$AOT_WORKLOAD" >"$tmp/train.log" 2>&1 </dev/null 9>&- &&
    [[ -s "$tmp/cache.aot" ]]; then
    # Renamed into place: running JVMs may have the current cache mapped.
    mv -f "$tmp/cache.aot" "$AOT"
    echo "$stamp" >"$AOT_STAMP"
    rm -rf "$tmp" "$AOT_FAILED"
    log "AOT cache ready ($(du -m "$AOT" | cut -f1) MB, $((($(now_ms) - start) / 1000))s)"
  else
    rm -f "$AOT"
    echo "$stamp" >"$AOT_FAILED"
    log "WARNING: recording the AOT cache failed (see $tmp/train.log); Neo4j will start without it"
  fi
}

train_archive() {
  [[ "${NEO4J_CDS:-1}" == "0" ]] && return 0
  if neo4j_uses_aot; then train_aot; else train_cds; fi
}

if ((FORCE == 0)) && ! is_stale; then
  log "Neo4j launcher is up to date ($JAR)"
  train_archive
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
train_archive
