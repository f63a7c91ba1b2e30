#!/usr/bin/env bash
# check-unused-symbols.sh [BUILD_DIR] - C functions and data that the core, the CLI or the
# WebAssembly entry points export (a global symbol in their objects) and that nothing
# references: no other object of the build (core, CLI, tests), no JavaScript export list
# (wasm-core/wasm/exports*.txt), no bench program. Such a symbol is dead code, or belongs
# to one file and should be static there. Reads the objects of a native build (default
# build/native, which `make lint` builds first); compiles wasm-core/wasm/*.c and bench/*.c
# natively into a scratch directory only to read their symbols.
set -euo pipefail
export LC_ALL=C
cd "$(dirname "$0")/.."
build=${1:-build/native}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for f in wasm-core/wasm/*.c bench/*.c; do
  cc -std=c11 -D_GNU_SOURCE -O0 -w -c -Iwasm-core/include -Iwasm-core/src "$f" \
     -o "$tmp/$(basename "$(dirname "$f")")-$(basename "$f" .c).o"
done
# Only objects whose source still exists: a build directory kept across a move of sources
# holds the old objects too, and their symbols would look defined twice or unused.
live_objects() { # DIR...: CMakeFiles/T.dir/PATH.c.o for each wasm-core/PATH.c that exists
  find "$@" -name '*.c.o' | while read -r o; do
    src=${o#*CMakeFiles/*.dir/}; src=${src%.o}
    [ -f "wasm-core/$src" ] && echo "$o"
  done
}
mapfile -t providers < <(live_objects "$build/CMakeFiles/blabcore.dir" "$build/CMakeFiles/blab.dir"; \
                         ls "$tmp"/wasm-*.o)
mapfile -t users < <(live_objects "$build/CMakeFiles"; ls "$tmp"/*.o)
[ "${#providers[@]}" -gt 10 ] || { echo "check-unused-symbols: no objects in $build (build it first)"; exit 1; }

# name<TAB>object for every global definition
for o in "${providers[@]}"; do
  nm --defined-only -g "$o" | awk -v o="${o#"$build"/}" 'NF == 3 && $2 ~ /[TDBRC]/ { print $3 "\t" o }'
done | sort -u >"$tmp/defs"
{
  nm -u "${users[@]}" 2>/dev/null | awk 'NF >= 2 && $1 == "U" { print $2 }'
  grep -oh '"_[A-Za-z0-9_]*"' wasm-core/wasm/exports*.txt | tr -d '"' | sed 's/^_//'
  echo main
} | sort -u >"$tmp/used"

unused=$(join -t "$(printf '\t')" -v 1 "$tmp/defs" "$tmp/used" || true)
if [ -n "$unused" ]; then
  echo "check-unused-symbols: exported and referenced by no other object (delete it, or make it static):"
  printf '%s\n' "$unused" | awk -F'\t' '{ printf "  %-36s %s\n", $1, $2 }'
  exit 1
fi
echo "check-unused-symbols: $(wc -l <"$tmp/defs") global symbols, each used beyond its own file"
