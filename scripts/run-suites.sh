#!/usr/bin/env bash
# Runs each named make target as a suite, in the order given, and ends with one plain summary
# line ("N passed, M failed") so CI and people read the same verdict. The first failure ends
# the run, naming the suites it did not reach; KEEP_GOING=1 runs every suite anyway.
# Each suite's line gives its wall time and the CPU time it used (user + sys of everything it
# ran): on a shared machine the wall time measures the neighbours too, the CPU time does not.
set -u
kind=$1; shift
passed=0; failed=0; failures=(); left=("$@")
t0=$SECONDS
# CPU seconds used so far by this script's finished children, into $cpu: the second line of
# `times`, which must run in this shell (in a $(...) subshell it would count that one's)
timesf=$(mktemp); trap 'rm -f "$timesf"' EXIT
cpu_now() { times >"$timesf"; cpu=$(awk 'NR == 2 { t = 0; for (i = 1; i <= 2; i++) { split($i, a, /[ms]/); t += a[1] * 60 + a[2] } printf "%.0f", t }' "$timesf"); }
for suite in "$@"; do
  left=("${left[@]:1}")
  echo "=== ${kind}: ${suite}"
  start=$SECONDS; cpu_now; c0=$cpu
  if make --no-print-directory "$suite"; then
    cpu_now; passed=$((passed + 1)); echo "=== ${kind}: ${suite} passed ($((SECONDS - start)) s, $((cpu - c0)) CPU s)"
  else
    cpu_now; failed=$((failed + 1)); failures+=("$suite"); echo "=== ${kind}: ${suite} FAILED ($((SECONDS - start)) s, $((cpu - c0)) CPU s)"
    if [ "${KEEP_GOING:-0}" != 1 ] && [ "${#left[@]}" -gt 0 ]; then
      echo "not run (KEEP_GOING=1 runs them): ${left[*]}"
      break
    fi
  fi
done
[ "$failed" -eq 0 ] || echo "failed suites: ${failures[*]}"
cpu_now; echo "suites: ${passed} passed, ${failed} failed ($((SECONDS - t0)) s, ${cpu} CPU s)"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
