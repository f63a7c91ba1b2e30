#!/usr/bin/env bash
# Runs every golden op script tests/golden/NAME.ops through `blab replay` and compares
# stdout, stderr and the exit status with tests/golden/NAME.out, laid out as:
#   <stdout>
#   --- stderr
#   <stderr>
#   --- exit N
# usage: run-golden.sh BLAB [NAME...]      BLESS=1 rewrites the .out files instead.
set -u
blab=$(cd "$(dirname "$1")" && pwd)/$(basename "$1"); shift
dir="$(cd "$(dirname "$0")/golden" && pwd)"
cd "$dir"
if [ $# -gt 0 ]; then names=("$@"); else names=(*.ops); fi
pass=0; fail=0
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
for ops in "${names[@]}"; do
  name=${ops%.ops}
  "$blab" replay "$name.ops" >"$tmp/out" 2>"$tmp/err"; rc=$?
  { cat "$tmp/out"; echo "--- stderr"; cat "$tmp/err"; echo "--- exit $rc"; } >"$tmp/got"
  if [ "${BLESS:-0}" = 1 ]; then
    cp "$tmp/got" "$name.out"; echo "blessed $name"; continue
  fi
  if diff -u "$name.out" "$tmp/got" >"$tmp/diff" 2>&1; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1)); echo "FAIL golden $name:"; head -40 "$tmp/diff"
  fi
done
echo "golden: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
