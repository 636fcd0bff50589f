#!/usr/bin/env bash
# Installs schemathesis into .venv/ (a Python virtual environment of the project) when missing.
# Idempotent and cheap when present. Needs python3 with the venv module (Debian: python3-venv,
# installed here when missing).
set -euo pipefail
LOG_TAG=ensure-schemathesis
# shellcheck source=lib/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"

VENV="$ROOT/.venv"
SPEC='schemathesis>=4.3,<5'

command -v python3 >/dev/null 2>&1 || apt_install python3
if [[ -x "$VENV/bin/schemathesis" ]]; then
  log "schemathesis present ($("$VENV/bin/schemathesis" --version 2>/dev/null | tail -n1))"
  exit 0
fi
if ! python3 -c 'import venv, ensurepip' >/dev/null 2>&1; then
  log "python3 venv module missing: installing python3-venv"
  apt_install python3-venv
fi
[[ -x "$VENV/bin/pip" ]] || python3 -m venv "$VENV"
log "installing $SPEC into $VENV"
"$VENV/bin/pip" install --quiet --disable-pip-version-check "$SPEC" >&2
"$VENV/bin/schemathesis" --version >&2
