#!/usr/bin/env bash
# Runs each named make target as a suite, in the order given, and ends with one plain summary
# line ("N passed, M failed") so CI and people read the same verdict. The first failure ends
# the run, naming the suites it did not reach; KEEP_GOING=1 runs every suite anyway.
# Each suite's line gives its wall time and the CPU time it used (user + sys of everything it
# ran): on a shared machine the wall time measures the neighbours too, the CPU time does not.
# An argument A+B+C runs those suites side by side: A prints as it goes; B and C run in the
# kernel's idle scheduling class (chrt --idle, SCHED_IDLE; nice 19 as well, and alone where
# chrt is refused), so they take the CPU that A leaves idle and never A's own: at nice 19 a
# neighbour still had its share (the browser tests beside the stress runs took 373 s, and 341 s
# with the runs in the idle class). Their output, kept in build/suites/NAME.log, is printed
# when the group ends. An argument
# A,B runs them side by side as equals, both at the usual priority, each printed whole, in
# order, when the group ends: for suites that spend much of their time on one CPU or waiting,
# whose work takes no longer for a neighbour. A group counts as its suites, each passing or
# failing on its own.
set -u
kind=$1; shift
passed=0; failed=0; failures=(); left=("$@")
t0=$SECONDS
logs=build/suites
# CPU seconds used so far by this shell's finished children, into $cpu: the second line of
# `times` (FILE: where to read it), which must run in the shell whose children are counted
timesf=$(mktemp); trap 'rm -f "$timesf"' EXIT
# the idle scheduling class for the neighbours of a group A+B, where the kernel allows it
idle=; chrt --idle 0 true 2>/dev/null && idle='chrt --idle 0'
cpu_of() { awk 'NR == 2 { t = 0; for (i = 1; i <= 2; i++) { split($i, a, /[ms]/); t += a[1] * 60 + a[2] } printf "%.0f", t }' "$1"; }
cpu_now() { times >"$timesf"; cpu=$(cpu_of "$timesf"); }

# verdict SUITE STATUS WALL CPU: the suite's line, and the counts
verdict() {
  if [ "$2" -eq 0 ]; then
    passed=$((passed + 1)); echo "=== ${kind}: $1 passed ($3 s, $4 CPU s)"
  else
    failed=$((failed + 1)); failures+=("$1"); echo "=== ${kind}: $1 FAILED ($3 s, $4 CPU s)"
  fi
}

# one suite in this shell
run_one() {
  local start=$SECONDS c0
  echo "=== ${kind}: $1"
  cpu_now; c0=$cpu
  make --no-print-directory "$1"; local rc=$?
  cpu_now; verdict "$1" "$rc" "$((SECONDS - start))" "$((cpu - c0))"
}

# a group A+B+... (SEP +) or A,B,... (SEP ,): each suite in a subshell of its own, whose
# `times` is that suite's CPU; with +, the first prints as it goes and the others run in the
# idle class; with `,` none prints until the group ends, and all run at the usual priority
run_group() {
  local sep=$2 suites first s pids=()
  IFS=$sep read -ra suites <<<"$1"; first=${suites[0]}
  [ "$sep" = , ] && first=
  mkdir -p "$logs"
  if [ "$sep" = , ]; then
    echo "=== ${kind}: $1 (side by side, each printed when the group ends)"
  else
    echo "=== ${kind}: $1 (side by side: ${suites[*]:1} in the idle class, printed when $first ends)"
  fi
  for s in "${suites[@]}"; do
    (
      start=$SECONDS
      if [ "$s" = "$first" ]; then
        make --no-print-directory "$s" 2>&1 | tee "$logs/$s.log"; rc=${PIPESTATUS[0]}
      elif [ "$sep" = , ]; then
        make --no-print-directory "$s" >"$logs/$s.log" 2>&1; rc=$?
      else
        $idle nice -n 19 make --no-print-directory "$s" >"$logs/$s.log" 2>&1; rc=$?
      fi
      times >"$logs/$s.times"
      echo "$rc $((SECONDS - start))" >"$logs/$s.status"
    ) &
    pids+=($!)
  done
  wait "${pids[@]}"
  for s in "${suites[@]}"; do
    local rc=1 wall=0
    if [ "$sep" = , ]; then
      echo "=== ${kind}: $s (log: $logs/$s.log)"; cat "$logs/$s.log"
    elif [ "$s" != "$first" ]; then
      echo "=== ${kind}: $s (beside $first; log: $logs/$s.log)"; cat "$logs/$s.log"
    fi
    [ -s "$logs/$s.status" ] && read -r rc wall <"$logs/$s.status"
    verdict "$s" "$rc" "$wall" "$(cpu_of "$logs/$s.times")"
  done
}

for group in "$@"; do
  left=("${left[@]:1}")
  before=$failed
  case $group in
    *+*) run_group "$group" + ;;
    *,*) run_group "$group" , ;;
    *) run_one "$group" ;;
  esac
  if [ "$failed" -gt "$before" ] && [ "${KEEP_GOING:-0}" != 1 ] && [ "${#left[@]}" -gt 0 ]; then
    echo "not run (KEEP_GOING=1 runs them): ${left[*]}"
    break
  fi
done
[ "$failed" -eq 0 ] || echo "failed suites: ${failures[*]}"
cpu_now; echo "suites: ${passed} passed, ${failed} failed ($((SECONDS - t0)) s, ${cpu} CPU s)"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
