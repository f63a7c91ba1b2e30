#!/usr/bin/env bash
# The CLI's error paths (docs/reliability.md): every file it reads reports open and read
# errors with the path and the reason, standard output's write errors fail the command, and
# inputs that used to hang, be misread or be taken silently are refused with a message.
# Usage: run-errors.sh BLAB   (BLAB may be "node wasm-core/cli/blab.mjs": the WASM twin)
set -u
blab=$1
here=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
expect() { # expect STATUS PATTERN ARGS...: exit status and a line of stdout+stderr matching
  local want=$1 pat=$2; shift 2
  local got rc
  got=$(timeout 60 $blab "$@" 2>&1); rc=$?
  if [ "$rc" != "$want" ] || ! grep -q -- "$pat" <<<"$got"; then
    echo "FAIL: blab $* -> exit $rc, want $want and /$pat/:"; echo "$got" | head -5; fail=1
  fi
}
expect_stdin() { # expect_stdin INPUT-FILE STATUS PATTERN ARGS...
  local in=$1 want=$2 pat=$3; shift 3
  local got rc
  got=$(timeout 60 $blab "$@" <"$in" 2>&1); rc=$?
  if [ "$rc" != "$want" ] || ! grep -q -- "$pat" <<<"$got"; then
    echo "FAIL: blab $* <$in -> exit $rc, want $want and /$pat/:"; echo "$got" | head -5; fail=1
  fi
}
pf1=(sim --workload page_fault1 --preset v4.16 --pages 16 --iterations 1)

# ---- files: a directory opens but does not read; that is an error, not an empty file
expect 2 "blab replay: cannot read $tmp: Is a directory" replay "$tmp"
expect 2 "blab replay: cannot open $tmp/none: No such file or directory" replay "$tmp/none"
expect 1 "blab import: cannot read $tmp: Is a directory" import "$tmp"
expect 1 "blab import: cannot open $tmp/none: No such file or directory" import "$tmp/none"
expect 2 "blab sim: --params: cannot read $tmp: Is a directory" "${pf1[@]}" --cpus 1 --params "$tmp"

# ---- standard output: a write that fails is an error (exit 1), whatever the command
if [ -w /dev/full ]; then
  for cmd in presets "replay $here/golden/all-pages-1000.ops" "${pf1[*]} --cpus 1" \
             "import $here/traces/pf1.perf.txt"; do
    # shellcheck disable=SC2086 # the command's words are meant to split
    err=$($blab $cmd 2>&1 >/dev/full); rc=$?
    # (the reason when the last write failed; an earlier failed write's is gone)
    if [ "$rc" != 1 ] || ! grep -Eq '^blab: cannot write standard output(: No space left on device| \(a write failed\))$' <<<"$err"; then
      echo "FAIL: blab $cmd >/dev/full -> exit $rc: $err"; fail=1
    fi
  done
fi

# the event file too (a write that fails before the close is not lost in the close)
if [ -w /dev/full ]; then
  expect 1 "blab sim: cannot write /dev/full: " "${pf1[@]}" --cpus 1 --events /dev/full
fi

# ---- a slow reader on a pipe gets every byte (the WASM twin lost all but the first 64 KB:
# Node's stdout pipe was non-blocking, and a write into a full pipe failed)
{ echo 'zone pages=1024'; for i in $(seq 3000); do echo buddyinfo; done; } >"$tmp/many.ops"
$blab replay "$tmp/many.ops" >"$tmp/many.out"
got=$($blab replay "$tmp/many.ops" | (sleep 1; wc -c)); want=$(wc -c <"$tmp/many.out")
[ "$got" -eq "$want" ] && [ "$want" -gt 200000 ] || { echo "FAIL: replay into a slow pipe: $got of $want bytes"; fail=1; }

# ---- blab import of an input without line ends stops at the line bound (it used to read
# /dev/zero forever)
head -c 3000000 /dev/zero >"$tmp/zeros"
expect 1 "line 1: longer than 1048576 bytes without a line end" import "$tmp/zeros"
expect_stdin "$tmp/zeros" 1 "line 1: longer than 1048576 bytes without a line end" import -

# ---- blab calibrate checks --out before it measures (about 10 s): it must fail at once
start=$(date +%s)
if ! timeout 60 $blab calibrate --out "$tmp/none/x.params" 2>&1 | grep -q 'native only'; then
  expect 1 "cannot write $tmp/none/x.params: No such file or directory" calibrate --out "$tmp/none/x.params"
  expect 1 "cannot write $tmp: Is a directory" calibrate --quick --out "$tmp"
  [ $(( $(date +%s) - start )) -lt 5 ] || { echo "FAIL: calibrate measured before checking --out"; fail=1; }
fi

# ---- blab sim's options (one table, cli/sim/sim_args.c): repeats, and options a workload ignores
expect 2 "blab sim: --cpus: 2 given twice" "${pf1[@]}" --cpus 1,2,2
expect 2 "blab sim: --preset: 'v4.16' given twice" sim --workload page_fault1 --preset v4.16,v4.17,v4.16
expect 2 "blab sim: --cpus: an empty value in '2,'" "${pf1[@]}" --cpus 2,
expect 2 "blab sim: --pages given twice" "${pf1[@]}" --cpus 1 --pages 8
expect 2 "blab sim: --hi-order: page_fault1 has no use for it" "${pf1[@]}" --cpus 1 --hi-order 4
expect 2 "blab sim: --delay-us: mixed has no use for it" sim --workload mixed --delay-us 5
expect 2 "blab sim: unknown option '--cpus' for hackbench" sim --workload hackbench --cpus 2
expect 2 "blab sim: --groups: 2 given twice" sim --workload hackbench --groups 2,2
# a score below 1 has decimals (it printed 0): one page per 10^6 cycles at 1 MHz
printf 'cpu_mhz = 1\nclear_page_cycles = 1000000\n' >"$tmp/slow.params"
slow=(sim --workload page_fault1 --preset v4.16 --iterations 1 --cpus 1 --pages 4 --params "$tmp/slow.params")
expect 0 '^    1          0\.[0-9][0-9][0-9]          0\.[0-9][0-9][0-9]$' "${slow[@]}"
expect 0 '"score":0\.[0-9][0-9][0-9],' "${slow[@]}" --json

# ---- what a message echoes cannot hide itself: a bidirectional override is spelled out
expect 2 "blab sim: unknown workload 'page_fault1\\\\u{202E}1tluaf_egap'" sim --workload "page_fault1$(printf '\342\200\256')1tluaf_egap"
expect 2 "cannot open $tmp/a\\\\x1b\\\\u{202E}b" replay "$tmp/a$(printf '\033\342\200\256')b"

# ---- the host memory bound: a run, a real run and an op-script zone past it are refused
# before anything is allocated, with the figures
expect 1 "the run needs .* MB of host memory (zone .* MB, model machine .* MB, workload .* MB); the limit is 1.0 MB" "${pf1[@]}" --cpus 1 --mem-limit 1M
BLAB_MEM_LIMIT=2Mi expect 1 "the limit is 2.0 MB" "${pf1[@]}" --cpus 1
BLAB_MEM_LIMIT=lots expect 2 "BLAB_MEM_LIMIT wants bytes" "${pf1[@]}" --cpus 1
expect 2 "blab sim: --mem-limit wants bytes" "${pf1[@]}" --cpus 1 --mem-limit 0
expect 1 "the run needs .* MB of host memory; the limit is 1.0 MB" run --threads 1 --seconds 1 --warmup 0 --pages 262144 --mem-limit 1M
printf 'zone pages=65536\n' >"$tmp/zone.ops"
expect 1 "line 1: zone: the host is out of memory for it: the zone needs 3.1 MB, the limit is 1.0 MB" replay --mem-limit 1M "$tmp/zone.ops"
BLAB_MEM_LIMIT=1M expect 1 "the limit is 1.0 MB" replay "$tmp/zone.ops"
# cache sizes that each pass the file's checks, together over 12 GB: refused, not swapped
printf 'sockets = 8\ncores_per_socket = 32\nthreads_per_core = 1\nl2_bytes = 268435456\nllc_bytes_per_core = 268435456\n' >"$tmp/huge.params"
expect 1 "model machine [0-9]*\.[0-9] MB" "${pf1[@]}" --cpus 256 --params "$tmp/huge.params" --mem-limit 8G

# CONFIG_PCP_BATCH_SCALE_MAX: the Kconfig's 0..6, and 6.7+ kernels only (52166607ecc9)
expect 2 "blab sim: --pcp-batch-scale-max wants 0..6, not '7'" "${pf1[@]}" --cpus 1 --pcp-batch-scale-max 7
expect 2 "preset v4.16 has no CONFIG_PCP_BATCH_SCALE_MAX (it came with 6.7" "${pf1[@]}" --cpus 1 --pcp-batch-scale-max 3
expect 2 "preset v4.16 has no CONFIG_PCP_BATCH_SCALE_MAX" sim --workload hackbench --groups 2 --loops 10 --pcp-batch-scale-max 3
printf 'zone pages=4096 preset=v6.0 pcp_batch_scale_max=3\n' >"$tmp/scale.ops"
expect 1 "line 1: zone: pcp_batch_scale_max=3: CONFIG_PCP_BATCH_SCALE_MAX came with 6.7" replay "$tmp/scale.ops"
printf 'zone pages=4096 preset=v6.7 pcp_batch_scale_max=9\n' >"$tmp/scale.ops"
expect 1 "line 1: zone: pcp_batch_scale_max=9 is too large (at most 6)" replay "$tmp/scale.ops"

[ $fail -eq 0 ] && echo "cli errors: ok"
exit $fail
