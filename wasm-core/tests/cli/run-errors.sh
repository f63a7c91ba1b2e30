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

[ $fail -eq 0 ] && echo "cli errors: ok"
exit $fail
