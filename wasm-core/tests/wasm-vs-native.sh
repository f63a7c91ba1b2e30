#!/usr/bin/env bash
# Runs the same blab commands through the native binary and its WASM twin and fails on any
# byte of difference in stdout, stderr or the exit status: every golden op script, every
# recorded kernel trace, and blab sim runs on the model machine (whose --hash digests every
# event record, so equal output means equal event logs). The comparisons run JOBS at a time
# (default: one per CPU; each is a native run then a WASM one, mostly Node starting the module).
set -u
native=$1; wasm=$2
here=$(dirname "$0")
pass=0; fail=0
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
todo=() # each comparison: its label, a tab, blab's arguments (split at spaces)

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
  todo+=("replay $(basename "$ops")"$'\t'"replay $ops")
done
# blab import on the recorded traces (and the bad inputs beside them)
for txt in "$here"/traces/*.txt; do
  todo+=("import $(basename "$txt")"$'\t'"import $txt")
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
  "sim --workload page_fault1 --cpus 1,2 --preset v4.17,v5.18 --pages 512 --params $here/params/two-core.params --hash"
  "sim --workload page_fault1 --cpus 1 --params $here/params/bad-key.params"
  "sim --workload page_fault1 --cpus 8 --preset lu-rfc-p2,lu-rfc-p3,lu-rfc-p4 --pages 400 --clear-lines 4 --hash"
  "sim --workload stress_highalloc --cpus 2 --preset v4.16,lu-rfc-p2 --pages 2048 --iterations 4 --delay-us 20 --clear-lines 1 --compact full --hash"
  "sim --workload stress_highalloc --cpus 3 --preset lu-rfc-p4 --pages 2048 --iterations 3 --delay-us 10 --clear-lines 1 --compact merge --csv --hash"
  "sim --workload mixed --cpus 4 --preset v4.16,lu-rfc-p4 --pages 256 --clear-lines 1 --compact merge --json --hash"
  "sim --workload mixed --cpus 6 --preset lu-rfc-p2 --pages 512 --clear-lines 1 --compact full --hash"
  "sim --workload stress_highalloc --compact sometimes"
  "sim --workload parallel_free --cpus 1,4 --preset v4.16,v4.17,v5.18 --pages 256 --hash"
  "sim --workload parallel_free --cpus 3 --preset v2.5.44,v5.17 --pages 100 --iterations 3 --seed 5 --json --hash"
  "sim --workload trunc --cpus 1 --preset v5.17,v5.18-prefetch,v5.18 --pages 1024 --hash"
  "sim --workload trunc --cpus 2 --preset v2.5.45,v4.17 --pages 300 --clear-lines 8 --csv --hash"
  "sim --workload page_fault1 --cpus 120 --preset v4.17 --pages 8 --hash"
  "sim --workload trunc --cpus 1 --preset v4.16 --pages 64 --sockets 1 --cache-scale 4 --hash"
  "sim --workload parallel_free --cpus 300"
  "sim --workload page_fault1 --cpus 1,60 --preset v4.16,v4.17 --pages 16 --node-zones --hash"
  "sim --workload page_fault1 --cpus 40 --preset lu-rfc-p4 --pages 24 --iterations 3 --node-zones --json --hash"
  # a small topology: parallel_free's barrier makes a step per wait, so many tasks make a
  # slow WASM run (the progress line those steps reach is never drawn by the WASM twin:
  # cli/sim/sim_progress.c)
  "sim --workload parallel_free --params $here/params/two-core.params --sockets 2 --cpus 1,4 --preset v4.16,lu-rfc-p3 --pages 64 --node-zones --json --hash"
  "sim --workload parallel_free --params $here/params/two-core.params --sockets 4 --cpus 8 --preset lu-rfc-p2 --pages 32 --node-zones --hash"
  "sim --workload trunc --cpus 2 --node-zones"
  # latency (docs/model.md): the percentiles, the funclatency-style histograms and the JSON;
  # and CONFIG_PCP_BATCH_SCALE_MAX as a knob
  "sim --workload page_fault1 --cpus 1,3 --preset v4.16,v6.7,v6.19 --pages 256 --latency --hash"
  "sim --workload parallel_free --cpus 2 --preset v5.18,v6.16 --pages 128 --latency --json --hash"
  "sim --workload page_fault1 --cpus 2 --preset v6.7 --pages 512 --pcp-batch-scale-max 2 --latency --histogram --hash"
)
for args in "${sims[@]}"; do
  todo+=("blab $args"$'\t'"$args")
done
jobs=${JOBS:-$(nproc)}
for ((w = 0; w < jobs; w++)); do
  (
    for ((k = w; k < ${#todo[@]}; k += jobs)); do
      IFS=$'\t' read -r label args <<<"${todo[k]}"
      # shellcheck disable=SC2086 # the arguments are meant to split
      compare "$label" $args
    done
    echo "$pass $fail" >"$tmp/count.$w"
  ) >"$tmp/out.$w" 2>&1 &
done
wait
for ((w = 0; w < jobs; w++)); do
  cat "$tmp/out.$w"
  read -r p f <"$tmp/count.$w" || { echo "wasm-vs-native: worker $w did not finish"; f=1; p=0; }
  pass=$((pass + p)); fail=$((fail + f))
done
# the browser's runs (blab sim --points, what the lessons' shipped tables are): the same
# records, every counter, natively and in WebAssembly; stdout and the exit status only (stderr
# says how long they took)
points=$tmp/points
cat > "$points" <<'KEYS'
workload=page_fault1 preset=v4.17 cpus=120 pages=64 iterations=2 seed=3 batch=0 high=0 clear_lines=4 cache_scale=8
workload=page_fault1 preset=v4.16 cpus=4 pages=512 iterations=2 seed=1 batch=8 high=48 clear_lines=64 cache_scale=64
workload=parallel_free preset=v5.18 cpus=3 pages=128 iterations=2 seed=2 batch=0 high=0 clear_lines=8 cache_scale=1
workload=trunc preset=v5.18-prefetch cpus=1 pages=512 iterations=2 seed=1 batch=0 high=0 clear_lines=8 cache_scale=1
workload=hackbench preset=v4.16 groups=3 loops=120 slub_prefetch=1 same_cpu=1 seed=1 batch=0 high=0 clear_lines=64 cache_scale=1
workload=stress_highalloc preset=lu-rfc-p4 cpus=2 pages=2048 iterations=3 seed=1 batch=0 high=0 clear_lines=1 cache_scale=1
workload=mixed preset=lu-rfc-p2 cpus=4 pages=256 iterations=1 seed=1 batch=0 high=0 clear_lines=1 cache_scale=1
KEYS
a=$($native sim --points "$points" --jobs 2 2>/dev/null; echo "exit $?")
b=$($wasm sim --points "$points" --jobs 2 2>/dev/null; echo "exit $?")
if [ "$a" == "$b" ] && [ "$(grep -c '^{"key":".*","stats":{"score":' <<<"$a")" = 7 ]; then
  pass=$((pass + 1))
else
  fail=$((fail + 1))
  echo "DIFFERS: blab sim --points"
  diff <(echo "$a") <(echo "$b") | head -10
fi
echo "wasm-vs-native: ${pass} passed, ${fail} failed"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
