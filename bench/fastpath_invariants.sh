#!/usr/bin/env bash
# fastpath_invariants.sh - digests that a change to the allocator's fast path (src/mm/pcp.h,
# pcp.c, op.c, src/machine/machine.h) must leave alone: the model machine's event-log hashes
# for every workload on several presets and CPU counts, and `blab replay` of every golden op
# script (stdout, stderr, exit status). Run it with the blab from before and after the change and
# diff the two outputs; any difference means the model or the plain machine saw something
# else (docs/performance.md, "pcp fast path").
#   usage: bench/fastpath_invariants.sh BLAB > digests.txt
set -u
blab=${1:?usage: fastpath_invariants.sh BLAB}
here="$(cd "$(dirname "$0")/.." && pwd)"
presets=v2.5.44,v4.16,v4.17,v5.18,lu-rfc-p4

for w in page_fault1 trunc parallel_free stress_highalloc; do
  echo "== sim $w"
  "$blab" sim --workload "$w" --cpus 1,8 --preset "$presets" --pages 1024 --hash | grep '^hash'
done
echo "== sim mixed"
"$blab" sim --workload mixed --cpus 2,8 --preset "$presets" --pages 1024 --hash | grep '^hash'
for p in v4.16 v5.18; do
  echo "== sim hackbench $p"
  "$blab" sim --workload hackbench --groups 2,4 --loops 200 --preset "$p" --hash | grep '^hash'
done
for ops in "$here"/wasm-core/tests/golden/*.ops; do
  echo "== replay $(basename "$ops")"
  "$blab" replay "$ops" 2>&1 | cksum
  echo "exit ${PIPESTATUS[0]}"
done
