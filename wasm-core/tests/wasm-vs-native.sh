#!/usr/bin/env bash
# Runs the same blab commands through the native binary and its WASM twin and fails on any
# byte of difference in stdout, stderr or the exit status: every golden op script, every
# recorded kernel trace, and blab sim runs on the model machine (whose --hash digests every
# event record, so equal output means equal event logs).
set -u
native=$1; wasm=$2
here=$(dirname "$0")
pass=0; fail=0

compare() { # compare LABEL ARGS...
  local label=$1; shift
  local a b
  a=$($native "$@" 2>&1; echo "exit $?")
  b=$($wasm "$@" 2>&1; echo "exit $?")
  if [ "$a" == "$b" ]; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
    echo "DIFFERS: $label"
    diff <(echo "$a") <(echo "$b") | head -10
  fi
}

for ops in "$here"/golden/*.ops; do
  compare "replay $(basename "$ops")" replay "$ops"
done
# blab import on the recorded traces (and the bad inputs beside them)
for txt in "$here"/traces/*.txt; do
  compare "import $(basename "$txt")" import "$txt"
done
sims=(
  "sim --workload page_fault1 --cpus 4 --preset v4.17 --pages 256 --hash"
  "sim --workload page_fault1 --cpus 1,3 --preset v2.5.45,v5.18 --pages 200 --iterations 3 --seed 9 --hash --csv"
  "sim --workload page_fault1 --cpus 2 --preset v4.16 --pages 128 --clear-lines 8 --json --hash"
  "sim --workload page_fault1 --cpus 0"
  "sim --workload hackbench --groups 2,3 --loops 200 --hash"
  "sim --workload hackbench --groups 2 --loops 150 --same-cpu --object-size 64 --seed 5 --hash --csv"
  "sim --workload hackbench --groups 4 --loops 100 --slub-prefetch on --object-size 1000 --json --hash"
  "sim --workload hackbench --groups 1"
)
for args in "${sims[@]}"; do
  # shellcheck disable=SC2086 # the arguments are meant to split
  compare "blab $args" $args
done
echo "wasm-vs-native: ${pass} passed, ${fail} failed"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
