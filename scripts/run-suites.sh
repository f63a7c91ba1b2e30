#!/usr/bin/env bash
# Runs each named make target as a suite, in the order given, and ends with one plain summary
# line ("N passed, M failed") so CI and people read the same verdict. The first failure ends
# the run, naming the suites it did not reach; KEEP_GOING=1 runs every suite anyway.
set -u
kind=$1; shift
passed=0; failed=0; failures=(); left=("$@")
t0=$SECONDS
for suite in "$@"; do
  left=("${left[@]:1}")
  echo "=== ${kind}: ${suite}"
  start=$SECONDS
  if make --no-print-directory "$suite"; then
    passed=$((passed + 1)); echo "=== ${kind}: ${suite} passed ($((SECONDS - start)) s)"
  else
    failed=$((failed + 1)); failures+=("$suite"); echo "=== ${kind}: ${suite} FAILED ($((SECONDS - start)) s)"
    if [ "${KEEP_GOING:-0}" != 1 ] && [ "${#left[@]}" -gt 0 ]; then
      echo "not run (KEEP_GOING=1 runs them): ${left[*]}"
      break
    fi
  fi
done
[ "$failed" -eq 0 ] || echo "failed suites: ${failures[*]}"
echo "suites: ${passed} passed, ${failed} failed ($((SECONDS - t0)) s)"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
