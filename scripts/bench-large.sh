#!/usr/bin/env bash
# A large project through the service `make run` serves: a graph file of LARGE_NODES nodes
# (100000 by default) and one of 1000 imported with graphctl, then the same forks, batches,
# validates, merges and scoped reads (at the head and pinned 100 versions back) on both,
# each with its ratio and target, then validate, the streamed full read and the export on
# the large one with the service's memory meanwhile (bench/largeGraph.ts); LARGE_FILL=1
# also fills a branch through the API and merges it. Start `make run` first (same PORT and Neo4j); this script makes its
# own API key with graphctl. It runs compiled (scripts/build-bench.sh), as `make bench` does, and
# so does the graphctl whose import it times: the operator CLI as the image runs it.
#
# Past the default quotas (200k nodes a branch) start both with larger ones, and give Neo4j
# the memory the store needs (docs/OPERATIONS.md, "A million nodes"), e.g.:
#   NEO4J_HEAP_MAX=4g NEO4J_PAGECACHE=6g BRANCH_MAX_NODES=1100000 BRANCH_MAX_WIRES=1100000 \
#     BRANCH_MAX_BYTES=2000000000 make run
#   BRANCH_MAX_NODES=1100000 BRANCH_MAX_WIRES=1100000 BRANCH_MAX_BYTES=2000000000 \
#     make bench-large SIZE=1000000
set -euo pipefail
cd "$(dirname "$0")/.."
PORT="${PORT:-8080}"
# graphctl against the local stack of `make run` (its default secrets are accepted there)
export GDS_ENV="${GDS_ENV:-development}"
# graphctl import checks a file whole in memory: about 8 GiB of heap for a million nodes
export NODE_OPTIONS="${NODE_OPTIONS:---max-old-space-size=12288}"
URL="http://127.0.0.1:${PORT}"
if ! curl -fsS "${URL}/readyz" >/dev/null; then
  echo "bench-large: no service ready at ${URL}; start 'make run' first" >&2
  exit 1
fi
USER_NAME="large-graph-$(date +%s)"
KEY_JSON="$(node_modules/.bin/tsx tools/graphctl/main.ts keys create --user "$USER_NAME" \
  --scopes graph:write,project:delete,decisions:read)"
TOKEN="$(printf '%s' "$KEY_JSON" | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).token))')"
ARGS=(--url "$URL" --token "$TOKEN" --user "$USER_NAME" --nodes "${LARGE_NODES:-100000}"
  --data-dir "${NEO4J_DATA_DIR:-.data/neo4j}")
# the service's process (the one listening on PORT): its memory during the streamed reads
SERVICE_PID="$(ss -ltnpH "sport = :${PORT}" | grep -o 'pid=[0-9]*' | head -1 | cut -d= -f2 || true)"
[[ -n "$SERVICE_PID" ]] && ARGS+=(--service-pid "$SERVICE_PID")
[[ "${LARGE_FILL:-0}" == 1 ]] && ARGS+=(--fill)
scripts/build-bench.sh
exec node .run/bench-dist/bench/largeGraph.js "${ARGS[@]}"
