#!/usr/bin/env bash
# blab sim --params: a good file sets the modelled machine (2 CPUs here, so 3 is refused),
# and bad files are refused with the file, the line number and the reason, exit status 2.
set -u
blab=$1; dir=$(dirname "$0")/params; fail=0
expect() { # expect STATUS PATTERN ARGS...
  local want=$1 pat=$2; shift 2
  local got; got=$("$blab" "$@" 2>&1); local rc=$?
  if [ "$rc" != "$want" ] || ! grep -q -- "$pat" <<<"$got"; then
    echo "FAIL: blab $* -> exit $rc, want $want and /$pat/:"; echo "$got" | head -5; fail=1
  fi
}
sim=(sim --workload page_fault1 --preset v4.17 --pages 64)
expect 0 '^    2 ' "${sim[@]}" --cpus 1,2 --params "$dir/two-core.params"
expect 2 'the modelled machine has 2 CPUs' "${sim[@]}" --cpus 3 --params "$dir/two-core.params"
expect 2 'bad-key.params: line 3: unknown key: l4_cycles' "${sim[@]}" --cpus 1 --params "$dir/bad-key.params"
expect 2 'line 4: value is not a decimal integer for: mem_cycles' "${sim[@]}" --cpus 1 --params "$dir/bad-value.params"
expect 2 'cannot open .*no-such-file.params: No such file or directory' "${sim[@]}" --cpus 1 --params "$dir/no-such-file.params"
# a directory opens but does not read: an error, never an empty file (the defaults)
expect 2 "cannot read $dir: Is a directory" "${sim[@]}" --cpus 1 --params "$dir"
head -c 20000 /dev/zero | tr '\0' '\n' > "${TMPDIR:-/tmp}/blab-big.params"
expect 2 'larger than 16384 bytes' "${sim[@]}" --cpus 1 --params "${TMPDIR:-/tmp}/blab-big.params"
rm -f "${TMPDIR:-/tmp}/blab-big.params"
# default and calibrated parameters give different scores for the same run
a=$("$blab" "${sim[@]}" --cpus 1 --csv); b=$("$blab" "${sim[@]}" --cpus 1 --csv --params "$dir/two-core.params")
[ "$a" != "$b" ] || { echo "FAIL: --params changed nothing"; fail=1; }
[ $fail -eq 0 ] && echo "run-params: ok"
exit $fail
