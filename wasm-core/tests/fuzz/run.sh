#!/usr/bin/env bash
# run.sh smoke|long TARGET SECONDS - one libFuzzer target of build/fuzz/ (mk/fuzz.mk).
#   smoke  -runs over the committed corpus first, then fuzzing from it, with a fixed seed; the
#          corpus directory is not written (new inputs go to build/fuzz/smoke-TARGET/)
#   long   fuzzing into a scratch directory, then -merge=1 -use_counters=0 adds to the
#          committed corpus only the inputs that reach new edges (hit counts would keep
#          hundreds of near-duplicates; the corpus stays small enough to commit)
# Any crash, leak, UB or timeout fails it, with the log's tail and the reproducer's place.
set -u
mode=$1; t=$2; secs=$3
cd "$(dirname "$0")/../../.."
corpus=wasm-core/tests/fuzz/corpus/$t
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
opts=(-seed=1 -timeout=5 -rss_limit_mb=1024 -print_final_stats=1 -max_total_time="$secs")
if [ "$mode" = smoke ]; then
  out=build/fuzz/smoke-$t; log=build/fuzz/smoke-$t.log
  rm -rf "$out" && mkdir -p "$out"
  build/fuzz/"$t" "${opts[@]}" -artifact_prefix="$out/" "$out" "$corpus" >"$log" 2>&1; rc=$?
else
  out=build/fuzz/new-$t; log=build/fuzz/long-$t.log
  mkdir -p "$corpus"; rm -rf "$out" && mkdir -p "$out"
  build/fuzz/"$t" "${opts[@]}" -artifact_prefix=build/fuzz/ "$out" "$corpus" >"$log" 2>&1; rc=$?
fi
execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
if [ $rc -ne 0 ]; then
  tail -40 "$log"
  echo "fuzz-$mode: $t FAILED (exit $rc); reproducer in $out/"
  exit 1
fi
if [ "$mode" = long ]; then
  build/fuzz/"$t" -merge=1 -use_counters=0 "$corpus" "$out" >build/fuzz/merge-$t.log 2>&1 || exit 1
  echo "fuzz: $t ok, ${execs:-?} executions in $secs s; corpus now $(ls "$corpus" | wc -l) files"
else
  echo "fuzz-smoke: $t ok, ${execs:-?} executions in $secs s"
fi
