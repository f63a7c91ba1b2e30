#!/bin/sh
# Real threads, every preset, many short runs: blab run checks the zone's invariants after
# each run (the free lists against nr_free, the merge-skipped count against the order-0
# lists, every page accounted for), so a counter or list changed outside zone->lock shows up
# as a failed run here even when ThreadSanitizer's one run misses the interleaving.
# Usage: stress.sh BLAB RUNS [JOBS]   (BLAB may be "node wasm-core/cli/blab.mjs")
# Each run is 2 threads for 1 s; the page counts cycle so the lists run short at different
# moments. JOBS runs go at once (default: one per host CPU: two runs of 2 threads on a 2-CPU
# host are preempted mid-section more often, which varies the interleavings, not fewer).
blab="$1"
runs="${2:-20}"
jobs="${3:-$(nproc)}"
[ "$jobs" -ge 1 ] || jobs=1
presets=$($blab presets | cut -d' ' -f1)
[ -n "$presets" ] || { echo "stress: '$blab presets' listed nothing"; exit 1; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
n=0
for p in $presets; do
	i=1
	while [ "$i" -le "$runs" ]; do
		case $((i % 3)) in 0) pages=64 ;; 1) pages=512 ;; *) pages=4096 ;; esac
		echo "$p $pages $i"
		i=$((i + 1))
	done
done >"$dir/plan"
total=$(wc -l <"$dir/plan")
: >"$dir/pages"
# xargs -P runs JOBS at once; a run's output is kept only when it fails, and its pages/s
# (summed over its tasks: the pages of its one second) goes to $dir/pages, so the last line
# says how much work the runs did (less when the CPU is busy with other things).
<"$dir/plan" xargs -P "$jobs" -L 1 sh -c '
	out="$0/$2-$3-$4.out"
	if $1 run --threads 2 --preset "$2" --seconds 1 --warmup 0 --pages "$3" >"$out" 2>&1; then
		sed -n "s/^min:.*total:\([0-9]*\).*/\1/p" "$out" >>"$0/pages"
		rm -f "$out"
	else
		echo "stress: FAILED: blab run --threads 2 --preset $2 --seconds 1 --warmup 0 --pages $3"
		{ grep "^blab" "$out" || tail -5 "$out"; } | sed "s/^/  /"
		touch "$0/failed"
	fi' "$dir" "$blab"
if [ -e "$dir/failed" ]; then
	echo "stress: $(ls "$dir"/*.out | wc -l) of $total runs failed"
	exit 1
fi
pages=$(awk '{ t += $1 } END { printf "%.1f", t / 1e6 }' "$dir/pages")
echo "stress: $total runs of 1 s at 2 threads ($runs per preset), every invariant held ($pages million pages in all)"
