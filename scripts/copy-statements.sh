#!/usr/bin/env bash
# Copies the statements kept whole (services/<name>/store/statements/*.cypher) into a
# compiled tree, beside the store modules that read them by name when they load
# (shared/neo4j/statementFiles.ts):  scripts/copy-statements.sh <out dir>
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
OUT="${1:?usage: $0 <out dir>}"
find services -path '*/store/statements/*.cypher' -exec cp --parents {} "$OUT/" \;
