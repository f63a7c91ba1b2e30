#!/usr/bin/env bash
# `blab import` on every tests/traces/NAME.txt must print exactly tests/traces/expected/NAME.out
# (stdout, then stderr, then the exit status, laid out like run-golden.sh), and its
# "event NAME N" lines must equal `grep -c 'NAME:'` on the file (a kmem trace's; NAME.hist.txt
# are latency histograms, docs/import.md).
# usage: run-import.sh BLAB      BLESS=1 rewrites the .out files instead.
set -u
blab=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
dir="$(cd "$(dirname "$0")/traces" && pwd)"
cd "$dir"
pass=0; fail=0
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
for txt in *.txt missing-file; do
  name=${txt%.txt}
  "$blab" import "$txt" >"$tmp/out" 2>"$tmp/err"; rc=$?
  { cat "$tmp/out"; echo "--- stderr"; cat "$tmp/err"; echo "--- exit $rc"; } >"$tmp/got"
  if [ "${BLESS:-0}" = 1 ]; then
    cp "$tmp/got" "expected/$name.out"; echo "blessed $name"; continue
  fi
  ok=1
  if ! diff -u "expected/$name.out" "$tmp/got" >"$tmp/diff" 2>&1; then
    ok=0; echo "FAIL import $name:"; head -40 "$tmp/diff"
  fi
  # NAME.hist.txt: latency histograms (BCC funclatency, bpftrace), no kmem events to count
  if [ -f "$txt" ] && [ "$rc" = 0 ] && [ "${txt%.hist.txt}" = "$txt" ]; then
    for ev in mm_page_alloc mm_page_free mm_page_free_batched mm_page_pcpu_drain \
              mm_page_alloc_zone_locked mm_page_alloc_extfrag; do
      want=$(grep -c "$ev:" "$txt")
      got=$(awk -v e="$ev" '$1 == "event" && $2 == e {print $3}' "$tmp/out")
      if [ "$want" != "$got" ]; then
        ok=0; echo "FAIL import $name: $ev: grep -c says $want, blab import says $got"
      fi
    done
  fi
  if [ $ok = 1 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
done
# --histogram: every refill and drain run's size per CPU, pinned for the traces that have an
# expected/NAME.histogram.out (the 2-task page_fault1 trace: refills 63 .. 2016, a decay drain)
for exp in expected/*.histogram.out; do
  [ -e "$exp" ] || continue
  name=$(basename "$exp" .histogram.out)
  "$blab" import --histogram "$name.txt" 2>&1 | grep -E '^(refill|drain) cpu' >"$tmp/hist"
  if [ "${BLESS:-0}" = 1 ]; then
    cp "$tmp/hist" "$exp"; echo "blessed $name --histogram"; continue
  fi
  if diff -u "$exp" "$tmp/hist" >"$tmp/diff" 2>&1; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1)); echo "FAIL import --histogram $name:"; head -20 "$tmp/diff"
  fi
done
# stdin gives the same as the file
if [ "${BLESS:-0}" != 1 ]; then
  if diff <("$blab" import - <pf1.tracefs.txt 2>&1) <("$blab" import pf1.tracefs.txt 2>&1) >/dev/null; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1)); echo "FAIL import -: stdin differs from the file"
  fi
fi
# a 300,000-line trace (each fixture repeated): per tracepoint, blab import equals grep -c
if [ "${BLESS:-0}" != 1 ]; then
  for txt in pf1.perf.txt pf1.tracefs.txt; do
    for i in $(seq 130); do cat "$txt"; done >"$tmp/big.txt"
    "$blab" import "$tmp/big.txt" >"$tmp/out" 2>"$tmp/err"; rc=$?
    ok=$([ "$rc" = 0 ] && [ "$(wc -l <"$tmp/big.txt")" -ge 300000 ] && echo 1 || echo 0)
    for ev in mm_page_alloc mm_page_free mm_page_free_batched mm_page_pcpu_drain \
              mm_page_alloc_zone_locked mm_page_alloc_extfrag; do
      want=$(grep -c "$ev:" "$tmp/big.txt")
      got=$(awk -v e="$ev" '$1 == "event" && $2 == e {print $3}' "$tmp/out")
      [ "$want" = "$got" ] || { ok=0; echo "FAIL import 130 x $txt: $ev: grep -c says $want, blab import says $got"; }
    done
    if [ "$ok" = 1 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL import 130 x $txt (exit $rc)"; fi
  done
fi
echo "import: $pass passed, $fail failed"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
