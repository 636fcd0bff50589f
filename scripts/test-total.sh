#!/usr/bin/env bash
# Adds up the counts that the test runs appended to a counts file (lines "label passed
# failed skipped") and prints one plain closing line: "<label>: N passed, N failed, N skipped".
# Usage: scripts/test-total.sh COUNTS_FILE LABEL
set -euo pipefail
counts="${1:?counts file}"
label="${2:?label}"
if [[ ! -s "$counts" ]]; then
  echo "$label: 0 passed, 1 failed (no test run reported counts to $counts)"
  exit 1
fi
awk -v label="$label" '
  NF == 4 { p += $2; f += $3; s += $4; runs = runs " " $1 }
  END { printf "%s: %d passed, %d failed, %d skipped\n", label, p, f, s }
' "$counts"
