#!/usr/bin/env bash
# Runs each named make target as a suite, keeps going after a failure, and ends with one
# plain summary line ("N passed, M failed") so CI and people read the same verdict.
set -u
kind=$1; shift
passed=0; failed=0; failures=()
for suite in "$@"; do
  echo "=== ${kind}: ${suite}"
  start=$SECONDS
  if make --no-print-directory "$suite"; then
    passed=$((passed + 1)); echo "=== ${kind}: ${suite} passed ($((SECONDS - start)) s)"
  else
    failed=$((failed + 1)); failures+=("$suite"); echo "=== ${kind}: ${suite} FAILED ($((SECONDS - start)) s)"
  fi
done
[ "$failed" -eq 0 ] || echo "failed suites: ${failures[*]}"
echo "suites: ${passed} passed, ${failed} failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
