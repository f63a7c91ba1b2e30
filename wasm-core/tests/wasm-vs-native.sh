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
# blab sim on the model machine: the digest of every event record must agree too.
sims=(
  "sim --workload page_fault1 --cpus 4 --preset v4.17 --pages 256 --hash"
  "sim --workload page_fault1 --cpus 1,3 --preset v2.5.45,v5.18 --pages 200 --iterations 3 --seed 9 --hash --csv"
  "sim --workload page_fault1 --cpus 2 --preset v4.16 --pages 128 --clear-lines 8 --json --hash"
  "sim --workload page_fault1 --cpus 0"
)
for args in "${sims[@]}"; do
  a=$($native $args 2>&1; echo "exit $?")
  b=$($wasm $args 2>&1; echo "exit $?")
  if [ "$a" == "$b" ]; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
    echo "DIFFERS: blab $args"
    diff <(echo "$a") <(echo "$b") | head -10
  fi
done
echo "wasm-vs-native: ${pass} passed, ${fail} failed"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
