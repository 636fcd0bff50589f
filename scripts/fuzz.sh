#!/usr/bin/env bash
# Contract fuzzing: schemathesis against the running service on a throw-away
# Neo4j + Redis, with a valid API key, checking not_a_server_error and
# response_schema_conformance over every operation of openapi/graph-design-service.yaml
# (coverage, fuzzing and stateful phases; path ids drawn half of the time from data seeded by
# tools/fuzz/seedFuzzData.ts; one worker: hypothesis' lambda introspection is
# not thread-safe on Python 3.11 and broke runs with two).
#
#   scripts/fuzz.sh            (what `make fuzz` runs; also by .ci/run after `make test`)
#
# Also checked: status_code_conformance, content_type_conformance and
# response_headers_conformance. Ends with one line `fuzz: N passed, N failed`. On the
# console, schemathesis' pytest-style rules ("===== 2 warnings in 86s =====") are printed as
# "-- 2 warnings in 86s --": CI reads a pytest closing line with no "passed" in it as a run
# that executed no test (the full text stays in the report).
#
# Environment:
#   FUZZ_NEO4J_PORT, FUZZ_REDIS_PORT, FUZZ_HTTP_PORT   ports (29687, 29379, 29080)
#   FUZZ_MODE                                           data generation mode (all: valid requests
#                                                       and negative ones, data that breaks the
#                                                       document's schemas, which must be answered 4xx)
#   FUZZ_MAX_EXAMPLES                                   examples per operation (60: ~4000 cases)
#   FUZZ_WORKERS                                        schemathesis workers (1)
#   FUZZ_SEED                                           hypothesis seed (fixed, so runs repeat)
# The report (schemathesis output and JUnit XML) is kept in .run/fuzz-report/.
set -euo pipefail
LOG_TAG=fuzz
# shellcheck source=lib/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"

FUZZ_NEO4J_PORT="${FUZZ_NEO4J_PORT:-29687}"
FUZZ_REDIS_PORT="${FUZZ_REDIS_PORT:-29379}"
FUZZ_HTTP_PORT="${FUZZ_HTTP_PORT:-29080}"
FUZZ_MODE="${FUZZ_MODE:-all}"
FUZZ_MAX_EXAMPLES="${FUZZ_MAX_EXAMPLES:-60}"
FUZZ_WORKERS="${FUZZ_WORKERS:-1}"
FUZZ_SEED="${FUZZ_SEED:-20261122}"
REPORT_DIR="$ROOT/.run/fuzz-report"
VENV="$ROOT/.venv"

if [[ "${1:-}" != "--inside" ]]; then
  "$SCRIPTS/ensure-schemathesis.sh"
  export FUZZ_NEO4J_PORT FUZZ_REDIS_PORT FUZZ_HTTP_PORT FUZZ_MODE FUZZ_MAX_EXAMPLES FUZZ_WORKERS FUZZ_SEED
  exec "$SCRIPTS/with-stack.sh" fuzz "$FUZZ_NEO4J_PORT" "$FUZZ_REDIS_PORT" -- "$0" --inside
fi

# --- inside the stack: start the service, mint a key, fuzz ---------------------------------
cd "$ROOT"
rm -rf "$REPORT_DIR"
mkdir -p "$REPORT_DIR"
SERVICE_PID=""
# shellcheck disable=SC2317  # invoked via trap
stop_service() {
  if [[ -n "$SERVICE_PID" ]] && pid_alive "$SERVICE_PID"; then
    stop_pid "$SERVICE_PID" "service" 20 || true
  fi
}
trap stop_service EXIT

# Rate limits out of the way: the fuzzer sends thousands of requests with one key. Event
# streams end after a second (FEED_STREAM_MAX_SECONDS): the fuzzer reads each to its end, and
# at the default of 50 s the streams of one operation alone took most of the run.
env PORT="$FUZZ_HTTP_PORT" LOG_LEVEL=warn RATE_LIMIT_READ_PER_MIN=10000000 FEED_STREAM_MAX_SECONDS=1 \
  RATE_LIMIT_WRITE_PER_MIN=10000000 RATE_LIMIT_ANON_PER_MIN=10000000 PROJECT_LIMIT=100000 \
  setsid npx tsx services/launcher/main.ts >"$REPORT_DIR/service.log" 2>&1 &
SERVICE_PID=$!
BASE="http://127.0.0.1:$FUZZ_HTTP_PORT"
wait_ready "$BASE" "$SERVICE_PID" "$REPORT_DIR/service.log"
log "service ready on $BASE"

TOKEN="$(npm run -s graphctl -- keys create --user fuzz --scopes graph:write,project:delete,decisions:read |
  node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>process.stdout.write(JSON.parse(s).token))')"
[[ "$TOKEN" == gds_* ]] || die "could not mint an API key"
# Real ids for half of the generated path parameters, so requests reach the handlers' logic.
npx tsx tools/fuzz/seedFuzzData.ts --url "$BASE" --token "$TOKEN" --out "$REPORT_DIR/schemathesis.toml" >&2

CHECKS=not_a_server_error,response_schema_conformance,status_code_conformance,content_type_conformance,response_headers_conformance
log "schemathesis: checks $CHECKS; mode $FUZZ_MODE; max ${FUZZ_MAX_EXAMPLES} examples per operation, ${FUZZ_WORKERS} workers, seed ${FUZZ_SEED}"
rc=0
"$VENV/bin/schemathesis" --config-file "$REPORT_DIR/schemathesis.toml" run openapi/graph-design-service.yaml \
  --url "$BASE" \
  --header "Authorization: Bearer $TOKEN" \
  --checks "$CHECKS" \
  --mode "$FUZZ_MODE" \
  --max-examples "$FUZZ_MAX_EXAMPLES" \
  --workers "$FUZZ_WORKERS" \
  --seed "$FUZZ_SEED" \
  --request-timeout 30 \
  --suppress-health-check all \
  --generation-with-security-parameters false \
  --continue-on-failure \
  --report junit --report-dir "$REPORT_DIR" \
  --no-color 2>&1 | tee "$REPORT_DIR/schemathesis.txt" | sed -u -E 's/^=+ (.*[^= ]) =+$/-- \1 --/' || rc=$?
grep -q '"level":50' "$REPORT_DIR/service.log" && log "the service logged errors: see $REPORT_DIR/service.log"
log "schemathesis exited with $rc (report in $REPORT_DIR)"
# One closing line in the plain 'N passed, N failed' form (schemathesis errors count as failed).
summary="$(grep -A1 '^Test cases:' "$REPORT_DIR/schemathesis.txt" | tail -n1)"
passed="$(grep -oE '[0-9]+ passed' <<<"$summary" | grep -oE '[0-9]+' || echo 0)"
failed="$(grep -oE '[0-9]+ failed' <<<"$summary" | grep -oE '[0-9]+' || echo 0)"
errors="$(grep -oE '[0-9]+ errors?' <(tail -n1 "$REPORT_DIR/schemathesis.txt") | grep -oE '[0-9]+' || echo 0)"
((rc == 0 || failed + errors > 0)) || errors=1
echo "fuzz: ${passed:-0} passed, $((failed + errors)) failed"
# Counts for .ci/run's total, in the format of test/support/countingReporter.cjs.
[[ -z "${TEST_COUNTS:-}" ]] || echo "fuzz ${passed:-0} $((failed + errors)) 0" >>"$TEST_COUNTS"
exit "$rc"
