#!/usr/bin/env bash
# model_invariants.sh - digests that a host-side speed-up of the model machine
# (src/machine/model/cache*.c and friends) must leave alone: `blab sim --hash` (the FNV-1a digest of
# every event record, each ACCESS outcome and cycle count included) and the printed tables
# over a spread of machines the cache model has separate code for: the default Skylake,
# --cache-scale 8 (the 128-set L2 of the model benchmark), 3, 112 and 200 CPUs,
# --clear-lines 1 and 8, and parameter files with 12-, 20- and 32-way levels, a 4-way L2,
# an inclusive LLC, no fill buffers and one set per level. Run it with the blab from before
# and after the change and diff the two outputs (docs/performance.md, "Model machine speed").
#   usage: bench/model_invariants.sh BLAB > digests.txt
set -u
blab=${1:?usage: model_invariants.sh BLAB}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# name, then the parameter file's lines (keys left out keep their defaults)
param() {
  local name=$1
  shift
  printf '%s\n' "$@" > "$tmp/$name.params"
}
param wide-l1 'l1_ways = 12' 'l1_bytes = 49152'
param wide-l2 'l2_ways = 20' 'l2_bytes = 1310720' 'llc_ways = 32' 'llc_bytes_per_core = 1441792'
param narrow 'l2_ways = 4' 'l2_bytes = 262144' 'llc_ways = 12' 'fill_buffers = 0'
param inclusive 'llc_victim = 0' 'llc_ways = 16' 'l1_ways = 16' 'l1_bytes = 32768'
param tiny 'sockets = 1' 'cores_per_socket = 2' 'l1_ways = 4' 'l1_bytes = 256' \
  'l2_ways = 16' 'l2_bytes = 1024' 'llc_ways = 16' 'llc_bytes_per_core = 1024'

run() {
  echo "== sim ${*//$tmp\//}"
  "$blab" sim "$@" --hash | cksum
  echo "exit ${PIPESTATUS[0]}"
}

run --workload page_fault1 --cpus 1,112 --preset v4.16,v4.17 --pages 512 --cache-scale 8
run --workload page_fault1 --cpus 3,56 --preset v4.17,v5.18 --pages 256
run --workload page_fault1 --cpus 200 --preset v4.17 --pages 64
run --workload page_fault1 --cpus 8 --preset v4.16,v4.17 --pages 1024 --clear-lines 1
run --workload page_fault1 --cpus 8 --preset v4.17 --pages 1024 --clear-lines 8 --cache-scale 64
run --workload page_fault1 --cpus 16 --preset v4.17 --pages 512 --node-zones
run --workload parallel_free --cpus 1,16 --preset v5.17,v5.18 --pages 512 --cache-scale 4
run --workload trunc --cpus 2 --preset v5.18 --pages 1024
run --workload stress_highalloc --cpus 4 --preset v4.17 --pages 1024
run --workload mixed --cpus 4 --preset v4.16 --pages 1024
run --workload hackbench --groups 2,4 --loops 200 --preset v5.18
for p in wide-l1 wide-l2 narrow inclusive; do
  run --workload page_fault1 --cpus 1,16 --preset v4.16,v4.17 --pages 512 --params "$tmp/$p.params"
done
run --workload page_fault1 --cpus 2 --preset v4.17 --pages 256 --params "$tmp/tiny.params"
run --workload page_fault1 --cpus 1,2 --preset v4.17 --pages 256 --params "$tmp/tiny.params" \
  --clear-lines 8
