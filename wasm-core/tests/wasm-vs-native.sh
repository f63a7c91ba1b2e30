#!/usr/bin/env bash
# Runs every golden op script through the native blab and its WASM twin and fails on the
# first byte of difference in stdout, stderr or the exit status.
set -u
native=$1; wasm=$2
dir=$(dirname "$0")/golden
pass=0; fail=0
for ops in "$dir"/*.ops; do
  a=$($native replay "$ops" 2>&1; echo "exit $?")
  b=$($wasm replay "$ops" 2>&1; echo "exit $?")
  if [ "$a" == "$b" ]; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
    echo "DIFFERS: $(basename "$ops")"
    diff <(echo "$a") <(echo "$b") | head -10
  fi
done
# blab import on the recorded traces (and the bad inputs beside them)
for txt in "$(dirname "$0")"/traces/*.txt; do
  a=$($native import "$txt" 2>&1; echo "exit $?")
  b=$($wasm import "$txt" 2>&1; echo "exit $?")
  if [ "$a" == "$b" ]; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
    echo "DIFFERS: import $(basename "$txt")"
    diff <(echo "$a") <(echo "$b") | head -10
  fi
done
echo "wasm-vs-native: ${pass} passed, ${fail} failed"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
