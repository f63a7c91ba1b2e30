#!/bin/sh
# blab run refuses bad arguments with exit status 2 and a message naming the option and why,
# before any thread starts. Usage: run-args.sh BLAB (also used for the WASM twin).
blab="$1"
fails=0
expect() { # expect "MESSAGE PART" ARGS...
	want="$1"; shift
	err=$($blab run "$@" 2>&1 >/dev/null); rc=$?
	if [ "$rc" -ne 2 ]; then echo "FAIL: run $*: exit $rc, want 2"; fails=$((fails + 1)); return; fi
	case "$err" in
	*"$want"*) ;;
	*) echo "FAIL: run $*: said '$err', want '$want'"; fails=$((fails + 1)) ;;
	esac
}
expect "--threads '0': thread counts start at 1" --threads 0
expect "--threads '65'" --threads 65
expect "runs backwards" --threads 4..2
expect "must rise" --threads 2,1
expect "unexpected" --threads 1:2
expect "unknown preset 'v9'" --preset v9
expect "'v4.16' given twice" --preset v4.16,v4.16
expect "empty name" --preset v4.16,
expect "at most 8 presets" --preset v2.5.44,v2.5.45,v2.6.25,v4.16,v4.17-pick,v4.17,v5.18-prefetch,v5.18,v2.5.44
expect "--seconds '0': give a whole number 1..3600" --seconds 0
expect "--seconds 'x'" --seconds x
expect "--seconds '1.5'" --seconds 1.5
expect "--warmup '61'" --warmup 61
expect "--pages '0'" --pages 0
expect "--pages '999999999999'" --pages 999999999999
expect "over 4194304 mapped pages" --threads 64 --pages 262144
expect "unknown workload 'hackbench'" --workload hackbench
expect "--seconds needs a value" --seconds
expect "unknown option '--bogus'" --bogus
# a run stops at its deadline and says how long the stop took
out=$($blab run --threads 2 --seconds 1 --warmup 0 --pages 256 2>&1); rc=$?
case "$out" in *"stopped "*" s after the deadline"*) ;; *) echo "FAIL: run: no overshoot line (exit $rc)"; fails=$((fails + 1)) ;; esac
out=$($blab run --help); rc=$?
case "$out" in *"--threads LIST"*) ;; *) echo "FAIL: run --help lacks --threads"; fails=$((fails + 1)) ;; esac
[ "$rc" -eq 0 ] || { echo "FAIL: run --help exit $rc"; fails=$((fails + 1)); }
[ "$fails" -eq 0 ] && echo "run-args: ok" || exit 1
