#!/usr/bin/env bash
# Installs what buddylab needs and the machine lacks. Safe to run again: it does nothing
# when everything is already there. Assumes Debian bookworm, Node 20, gcc, cmake, root
# (or sudo) for apt-get.
set -euo pipefail
cd "$(dirname "$0")/.."

# Debian packages, by the command (or file) that proves each is installed.
#   emscripten        -> emcc   (WASM build; Debian's 3.1.6)
#   chromium          -> chromium (Playwright drives Debian's browser, never a downloaded one)
#   clang             -> clang  (second compiler, libFuzzer, TSan)
#   libclang-rt-14-dev-> libFuzzer and sanitizer runtimes for clang 14
need=()
command -v emcc >/dev/null 2>&1 || need+=(emscripten)
command -v chromium >/dev/null 2>&1 || need+=(chromium)
command -v clang >/dev/null 2>&1 || need+=(clang)
ls /usr/lib/llvm-14/lib/clang/14*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1 || need+=(libclang-rt-14-dev)
command -v cmake >/dev/null 2>&1 || need+=(cmake)
command -v gzip >/dev/null 2>&1 || need+=(gzip)

if [ "${#need[@]}" -gt 0 ]; then
  echo "setup: installing Debian packages: ${need[*]}"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}" >/dev/null
fi

# npm packages: reinstall only when package-lock.json changed since the last install.
stamp=node_modules/.buddylab-lock.sha
want=$(sha256sum package-lock.json | cut -d' ' -f1)
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  echo "setup: npm ci"
  npm ci --no-audit --no-fund --loglevel=error
  echo "$want" > "$stamp"
fi
