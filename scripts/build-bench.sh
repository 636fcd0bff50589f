#!/usr/bin/env bash
# Compiles the service and the benchmarks with tsc into .run/bench-dist, as the image
# compiles the service (Dockerfile: tsc, then plain node), so that `make bench` and
# `make bench-cpu` time the code users run, not the development loader's transpiled code
# (tsx keeps every function's name with a helper call where the function is created, and
# maps every captured stack trace through source maps: measured at about 1.7x the
# compiled time for parsing a 100-delta batch).
#
#   scripts/build-bench.sh        then: node .run/bench-dist/bench/run.js ...
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
OUT=.run/bench-dist
echo "[build-bench] compiling services, shared, tools and bench into $OUT ..." >&2
rm -rf "$OUT"
npx tsc -p tsconfig.bench.json
# the compiled code finds the OpenAPI document and package.json two levels above
# $OUT/services/<name>/, and the web viewer's bundle in $OUT/web/dist
cp -r openapi package.json "$OUT/"
# the statements the compiled store modules read by name, beside them
scripts/copy-statements.sh "$OUT"
mkdir -p "$OUT/web"
ln -s "$PWD/web/dist" "$OUT/web/dist"
echo "[build-bench] done" >&2
