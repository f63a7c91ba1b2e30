#!/usr/bin/env bash
# Runs fanned out, natively: blab sim --points prints one record per point (a JSON line: its
# key and every counter), the same bytes on 1 thread and on 3, once per repeated key; --cache
# gives the same bytes back without running, ignores a damaged file (a counter missing too), and
# keeps one folder per core build hash (blab version); shards run as separate processes
# (xargs -P) merge to the same bytes, and a damaged record in a shard is refused; bad input
# names the file and line.
set -u
# absolute, so that the GNU parallel example below can run it from the study's own folder
[ -x "${1:-}" ] || { echo "usage: run-fanout.sh PATH-TO-BLAB"; exit 2; }
blab=$(cd "$(dirname "$1")" && pwd)/$(basename "$1"); fail=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/blab-fanout.XXXXXX"); trap 'rm -rf "$tmp"' EXIT
bad() { echo "FAIL: $*"; fail=1; }
expect() { # expect STATUS PATTERN ARGS...
  local want=$1 pat=$2; shift 2
  local got; got=$("$blab" "$@" 2>&1); local rc=$?
  if [ "$rc" != "$want" ] || ! grep -q -- "$pat" <<<"$got"; then
    echo "FAIL: blab $* -> exit $rc, want $want and /$pat/:"; echo "$got" | head -5; fail=1
  fi
}

hash=$("$blab" version | sed -n 's/^blab core \([0-9a-f]\{16\}\)$/\1/p')
[ -n "$hash" ] || bad "blab version prints no core hash"

key() { echo "workload=$1 preset=$2 cpus=$3 pages=$4 iterations=$5 seed=$6 batch=0 high=0 clear_lines=8 cache_scale=$7"; }
hbkey() { echo "workload=hackbench preset=$1 groups=$2 loops=$3 slub_prefetch=$4 same_cpu=$5 seed=$6 batch=0 high=0 clear_lines=64 cache_scale=1"; }
{
  echo "# points of several workloads, one repeated"
  key page_fault1 v4.16 4 256 2 1 16
  key page_fault1 v4.17 8 256 2 2 16
  echo
  hbkey v5.18 4 100 1 0 1
  key stress_highalloc lu-rfc-p2 2 2048 2 1 1
  key page_fault1 v4.16 4 256 2 1 16
} > "$tmp/points.txt"

"$blab" sim --points "$tmp/points.txt" > "$tmp/one.txt" 2> "$tmp/one.err" || bad "--points failed: $(cat "$tmp/one.err")"
"$blab" sim --points "$tmp/points.txt" --jobs 3 > "$tmp/three.txt" 2>/dev/null || bad "--points --jobs 3 failed"
cmp -s "$tmp/one.txt" "$tmp/three.txt" || bad "--jobs 3 printed other bytes than --jobs 1"
[ "$(wc -l < "$tmp/one.txt")" = 5 ] && [ "$(grep -c '^{"key":"workload=[a-z0-9_]* preset=.*","stats":{"score":-\?[0-9]*,.*}}$' "$tmp/one.txt")" = 5 ] ||
  bad "not one record line per point: $(head -c 300 "$tmp/one.txt")"

# an ordinary sweep's cells on threads: the same table and digests as one thread
sweep="sim --workload page_fault1 --cpus 1,2,8 --preset v4.16,v4.17 --pages 256 --cache-scale 64 --hash"
"$blab" $sweep > "$tmp/sweep1.txt" 2>/dev/null || bad "a sweep failed"
"$blab" $sweep --jobs 4 > "$tmp/sweep4.txt" 2>/dev/null || bad "a sweep with --jobs 4 failed"
cmp -s "$tmp/sweep1.txt" "$tmp/sweep4.txt" || bad "a sweep with --jobs 4 printed other bytes than with one thread"
[ "$(grep -c '^hash ' "$tmp/sweep4.txt")" = 6 ] || bad "the sweep did not print a digest per cell"
grep -q '5 points: 4 run, 0 from the cache' "$tmp/one.err" || bad "the repeated key ran twice: $(cat "$tmp/one.err")"
# the repeated point prints the same record as its first line
[ "$(sed -n '1p;5p' "$tmp/one.txt" | uniq | wc -l)" = 1 ] || bad "a repeated point printed a different record"
grep -q '"key":"workload=hackbench preset=v5.18 groups=4 loops=100 slub_prefetch=1 same_cpu=0 ' "$tmp/one.txt" ||
  bad "hackbench's record does not name its own fields"

# the cache: every point from it the second time, the same bytes; a damaged file is run again
"$blab" sim --points "$tmp/points.txt" --jobs 2 --cache "$tmp/cache" > /dev/null 2>&1 || bad "--cache failed"
[ -d "$tmp/cache/$hash" ] || bad "no cache folder for core $hash"
[ "$(ls "$tmp/cache/$hash" | wc -l)" = 4 ] || bad "not one cache file per point"
"$blab" sim --points "$tmp/points.txt" --cache "$tmp/cache" > "$tmp/cached.txt" 2> "$tmp/cached.err"
cmp -s "$tmp/one.txt" "$tmp/cached.txt" || bad "the cache gave other bytes"
grep -q '5 points: 0 run, 4 from the cache' "$tmp/cached.err" || bad "the cache was not read: $(cat "$tmp/cached.err")"
f=$(ls "$tmp/cache/$hash" | head -1); echo garbage > "$tmp/cache/$hash/$f"
"$blab" sim --points "$tmp/points.txt" --cache "$tmp/cache" > "$tmp/mended.txt" 2> "$tmp/mended.err"
cmp -s "$tmp/one.txt" "$tmp/mended.txt" || bad "a damaged cache file changed the output"
grep -q '5 points: 1 run, 3 from the cache' "$tmp/mended.err" || bad "a damaged cache file was not run again: $(cat "$tmp/mended.err")"
# a record with a counter missing is damaged too: run again, not passed on
f=$(ls "$tmp/cache/$hash" | head -1); sed -i 's/"pagesScored":[0-9]*,//' "$tmp/cache/$hash/$f"
"$blab" sim --points "$tmp/points.txt" --cache "$tmp/cache" > "$tmp/mended2.txt" 2> "$tmp/mended2.err"
cmp -s "$tmp/one.txt" "$tmp/mended2.txt" || bad "a cache file with a counter missing changed the output"
grep -q '5 points: 1 run, 3 from the cache' "$tmp/mended2.err" || bad "a cache file with a counter missing was used: $(cat "$tmp/mended2.err")"

# shards: 3 processes at once through xargs -P (as GNU parallel runs them: docs/sim.md,
# "Fan-out"), put back together by blab merge: the bytes of one process
seq 1 3 | xargs -P 3 -I{} sh -c "\"$blab\" sim --points \"$tmp/points.txt\" --shard {}/3 --cache \"$tmp/shardcache\" > \"$tmp/shard-{}.txt\" 2>/dev/null" ||
  bad "a shard failed"
head -1 "$tmp/shard-2.txt" | grep -q '^blab-shard points 2/3 5$' || bad "shard 2's header: $(head -1 "$tmp/shard-2.txt")"
"$blab" merge "$tmp/shard-3.txt" "$tmp/shard-1.txt" "$tmp/shard-2.txt" > "$tmp/merged.txt" || bad "merge failed"
cmp -s "$tmp/one.txt" "$tmp/merged.txt" || bad "the merged shards differ from one process's output"
# docs/sim.md's GNU parallel example, as written there (blab on PATH, in the study's folder);
# without GNU parallel (scripts/setup.sh installs it) the xargs run above stands in for it
if parallel --version 2>/dev/null | grep -q 'GNU parallel'; then
  mkdir "$tmp/gnu" && cp "$tmp/points.txt" "$tmp/gnu/study.txt"
  (cd "$tmp/gnu" && PATH="$(dirname "$blab"):$PATH" && export PATH &&
    seq 1 8 | parallel --will-cite 'blab sim --points study.txt --shard {}/8 --cache cache > shard-{}.txt' 2>/dev/null &&
    blab merge shard-*.txt > study-out.txt) || bad "the GNU parallel example failed"
  cmp -s "$tmp/one.txt" "$tmp/gnu/study-out.txt" || bad "the GNU parallel example's merge differs from one process's output"
else
  echo "run-fanout: GNU parallel is not installed; its example ran as xargs -P only"
fi
# a shard of one: the whole study; shards 4 of 4 and more than points: empty shards merge too
"$blab" sim --points "$tmp/points.txt" --shard 1/1 2>/dev/null | "$blab" merge /dev/stdin > "$tmp/whole.txt" || bad "merge of 1/1 failed"
cmp -s "$tmp/one.txt" "$tmp/whole.txt" || bad "shard 1/1 merged is not the study"
for i in 1 2 3 4 5 6 7; do "$blab" sim --points "$tmp/points.txt" --shard $i/7 > "$tmp/s7-$i.txt" 2>/dev/null; done
"$blab" merge "$tmp"/s7-*.txt > "$tmp/merged7.txt" && cmp -s "$tmp/one.txt" "$tmp/merged7.txt" || bad "7 shards of 5 points did not merge to the study"
# what merge refuses: a missing shard, a shard twice, another study's shard, a cut-short shard
expect 1 'shard 3/3 is missing' merge "$tmp/shard-1.txt" "$tmp/shard-2.txt"
expect 1 'shard 2/3 is given twice' merge "$tmp/shard-1.txt" "$tmp/shard-2.txt" "$tmp/shard-2.txt" "$tmp/shard-3.txt"
expect 1 'not the same study' merge "$tmp/shard-1.txt" "$tmp/s7-2.txt"
head -c 200 "$tmp/shard-1.txt" > "$tmp/cut.txt"
expect 1 'cut.txt:.*no end\|cut short' merge "$tmp/cut.txt" "$tmp/shard-2.txt" "$tmp/shard-3.txt"
expect 1 'not a shard' merge "$tmp/points.txt"
sed 's/"zoneAcq":/"zoneAcquired":/' "$tmp/shard-2.txt" > "$tmp/renamed.txt"
expect 1 'renamed.txt:3: run 1.s record is not one line of its point.s counters' merge "$tmp/shard-1.txt" "$tmp/renamed.txt" "$tmp/shard-3.txt"
expect 2 '--shard wants I/N' sim --points "$tmp/points.txt" --shard 4/3
expect 2 'usage: blab merge' merge

# bad input: file:line and why, nothing on stdout
printf '# fine\n%s\nworkload=page_fault1 preset=v4.16 cpus=4\n' "$(key page_fault1 v4.16 4 256 2 1 16)" > "$tmp/bad.txt"
expect 2 'bad.txt:3: the key ends before pages=' sim --points "$tmp/bad.txt"
printf '%s\n' "$(key page_fault1 nope 4 256 2 1 16)" > "$tmp/bad.txt"
expect 1 'bad.txt:1: .*unknown preset' sim --points "$tmp/bad.txt"
key page_fault1 v4.16 4 256 2 1 16 | sed 's/^workload=page_fault1/workload=hackbench/' > "$tmp/bad.txt"
expect 2 "bad.txt:1: expected groups= at \"cpus=4 .*hackbench's key: groups loops slub_prefetch same_cpu" sim --points "$tmp/bad.txt"
hbkey v4.16 4 100 2 0 1 > "$tmp/bad.txt"
expect 2 'bad.txt:1: slub_prefetch: more than 1' sim --points "$tmp/bad.txt"
printf '%s\n' "$(key page_fault1 v4.16 4 256 2 1 3)" > "$tmp/bad.txt"
expect 1 'cache_scale must be 1..64, a power of two' sim --points "$tmp/bad.txt"
expect 2 '--cpus: with --points each point says its own settings' sim --points "$tmp/points.txt" --cpus 4
expect 2 '--workload: with --points' sim --points "$tmp/points.txt" --workload page_fault1
expect 2 '--cache: page_fault1 has no use for it' sim --workload page_fault1 --cache "$tmp/cache"
expect 2 '--jobs wants 1..256' sim --points "$tmp/points.txt" --jobs 0
expect 2 'cannot read' sim --points "$tmp/no-such-file"
[ -z "$("$blab" sim --points "$tmp/bad.txt" 2>/dev/null)" ] || bad "a failed point still printed"

[ $fail -eq 0 ] && echo "run-fanout: ok"
exit $fail
