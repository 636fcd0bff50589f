#!/usr/bin/env bash
# A 100k-node graph through the service `make run` serves (its default memory settings):
# fill a branch through the API, merge it (staged), validate and read main, export it, and
# import the file with graphctl (bench/largeGraph.ts). Start `make run` first (same PORT and
# Neo4j); this script makes its own API key with graphctl. LARGE_NODES sets the size.
set -euo pipefail
cd "$(dirname "$0")/.."
PORT="${PORT:-8080}"
# graphctl against the local stack of `make run` (its default secrets are accepted there)
export GDS_ENV="${GDS_ENV:-development}"
URL="http://127.0.0.1:${PORT}"
if ! curl -fsS "${URL}/readyz" >/dev/null; then
  echo "bench-large: no service ready at ${URL}; start 'make run' first" >&2
  exit 1
fi
USER_NAME="large-graph-$(date +%s)"
KEY_JSON="$(node_modules/.bin/tsx tools/graphctl/main.ts keys create --user "$USER_NAME" \
  --scopes graph:write,project:delete,decisions:read)"
TOKEN="$(printf '%s' "$KEY_JSON" | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).token))')"
exec node_modules/.bin/tsx bench/largeGraph.ts --url "$URL" --token "$TOKEN" --user "$USER_NAME" \
  --nodes "${LARGE_NODES:-100000}"
