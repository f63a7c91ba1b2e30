#!/usr/bin/env bash
# blab sim --latency (docs/model.md, "Latency"): the same rows as without it but for each
# preset's "latency" object, whose counts are the run's own, and histograms in funclatency's
# layout; --pcp-batch-scale-max caps the refills it counts.
# Usage: run-latency.sh BLAB
set -u
blab=$1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
args=(sim --workload page_fault1 --cpus 1,2 --preset v4.16,v6.7,v6.19 --pages 512 --json --hash)
$blab "${args[@]}" >"$tmp/plain.json" || fail=1
$blab "${args[@]}" --latency >"$tmp/lat.json" || fail=1
node -e '
const fs = require("fs");
const [plain, lat] = [process.argv[1], process.argv[2]].map((f) => JSON.parse(fs.readFileSync(f, "utf8")));
let n = 0;
for (const row of lat.rows) for (const [name, p] of Object.entries(row.presets)) {
  const l = p.latency; delete p.latency; n++;
  if (l.unit !== "cycles" || l.cycles_per_us !== 2500 || l.log2_unit !== "nsecs") throw new Error(`${name}: unit`);
  // page_fault1 allocates and frees each page it maps once
  if (l.alloc.count !== p.pages || l.free.count !== p.pages) throw new Error(`${name}: ${l.alloc.count} allocations, ${p.pages} pages`);
  for (const k of ["p50", "p99", "p99_9"]) if (!(l.alloc[`${k}_lo`] <= l.alloc[k] && l.alloc[k] <= l.alloc.max)) throw new Error(`${name}: ${k}`);
  const paths = ["alloc_pcp", "alloc_refill", "alloc_direct"].reduce((s, q) => s + l.paths[q].count, 0);
  if (paths !== l.alloc.count) throw new Error(`${name}: paths ${paths}`);
}
if (JSON.stringify(plain) !== JSON.stringify(lat)) throw new Error("--latency changed the rows");
if (n !== 6) throw new Error(`${n} latency objects`);
' "$tmp/plain.json" "$tmp/lat.json" || { echo "FAIL: blab sim --latency --json"; fail=1; }
out=$($blab sim --workload page_fault1 --cpus 2 --preset v6.7 --pages 512 --latency)
grep -q '^     nsecs               : count     distribution$' <<<"$out" || { echo "FAIL: no funclatency header"; fail=1; }
grep -q '^avg = [0-9]* nsecs, total: [0-9]* nsecs, count: [0-9]*$' <<<"$out" || { echo "FAIL: no avg line"; fail=1; }
grep -q '^  alloc: [0-9]* calls, min [0-9]*, avg [0-9]*, p50 ' <<<"$out" || { echo "FAIL: no alloc line"; fail=1; }
# CONFIG_PCP_BATCH_SCALE_MAX 0: every refill is batch (63 pages), so every rmqueue_bulk() call is short
out=$($blab sim --workload page_fault1 --cpus 2 --preset v6.7 --pages 1024 --pcp-batch-scale-max 0 --histogram --latency)
grep -q '^  refill cpu 0: 63 x' <<<"$out" && ! grep -q '126 x' <<<"$out" || { echo "FAIL: scale 0 refills"; fail=1; }
[ $fail -eq 0 ] && echo "latency cli: ok"
exit $fail
