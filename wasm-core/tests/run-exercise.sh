#!/usr/bin/env bash
# Runs every case of tests/exercise/cases.txt through `blab exercise` and compares stdout,
# stderr and the exit status with tests/exercise/NAME.out, laid out as run-golden.sh's:
#   <stdout>
#   --- stderr
#   <stderr>
#   --- exit N
# usage: run-exercise.sh BLAB [NAME...]      BLESS=1 rewrites the .out files instead.
# BLAB may be "node wasm-core/cli/blab.mjs": the WebAssembly twin must print the same.
set -u
blab=$1; shift
dir="$(cd "$(dirname "$0")/exercise" && pwd)"
pass=0; fail=0
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
while read -r name args; do
  case "$name" in ''|'#'*) continue ;; esac
  if [ $# -gt 0 ] && ! printf '%s\n' "$@" | grep -qx "$name"; then continue; fi
  argv=()
  for a in $args; do a=${a//%20/ }; a=${a//%1b/$'\x1b'}; argv+=("$a"); done
  $blab exercise "${argv[@]}" >"$tmp/out" 2>"$tmp/err"; rc=$?
  { cat "$tmp/out"; echo "--- stderr"; cat "$tmp/err"; echo "--- exit $rc"; } >"$tmp/got"
  if [ "${BLESS:-0}" = 1 ]; then
    cp "$tmp/got" "$dir/$name.out"; echo "blessed $name"; continue
  fi
  if diff -u "$dir/$name.out" "$tmp/got" >"$tmp/diff" 2>&1; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1)); echo "FAIL exercise $name:"; head -40 "$tmp/diff"
  fi
done <"$dir/cases.txt"
echo "exercise: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
