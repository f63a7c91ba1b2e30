#!/usr/bin/env bash
# Installs what buddylab needs and the machine lacks, and nothing when nothing is missing (so
# `make test` on a ready machine installs nothing and never asks for a password). Assumes
# Debian bookworm with Node >= 20.19, gcc and cmake; Debian packages are installed as root,
# or through sudo when sudo needs no password; otherwise it says what to install and stops.
set -euo pipefail
cd "$(dirname "$0")/.."

# Node: Vite 8 needs 20.19 or newer (docs/architecture.md); say so rather than fail later
node_ok=$(node -e 'const [a, b] = process.versions.node.split(".").map(Number);
                   console.log(a > 20 || (a === 20 && b >= 19) ? 1 : 0)' 2>/dev/null || echo 0)
if [ "$node_ok" != 1 ]; then
  echo "setup: buddylab needs Node.js 20.19 or newer; found $(node --version 2>/dev/null || echo none)." >&2
  echo "setup: install it (e.g. from nodesource.com or your distribution) and run make again." >&2
  exit 1
fi

# Debian packages, each by the command (or file) that proves it is installed.
need=()
command -v emcc >/dev/null 2>&1 || need+=(emscripten)   # WASM build (Debian's 3.1.6)
command -v chromium >/dev/null 2>&1 || need+=(chromium) # Playwright drives Debian's browser
command -v cmake >/dev/null 2>&1 || need+=(cmake)
command -v gzip >/dev/null 2>&1 || need+=(gzip)
command -v parallel >/dev/null 2>&1 || need+=(parallel) # the fan-out test runs docs/sim.md's example
if command -v clang >/dev/null 2>&1; then
  # libFuzzer and the sanitizer runtimes of the installed clang, wherever its version keeps them
  rt="$(clang -print-resource-dir)/lib/linux/libclang_rt.fuzzer-$(uname -m).a"
  [ -f "$rt" ] || need+=("libclang-rt-$(clang -dumpversion | cut -d. -f1)-dev")
else
  need+=(clang libclang-rt-dev) # second compiler, libFuzzer, TSan
fi

if [ "${#need[@]}" -gt 0 ]; then
  echo "setup: installing Debian packages: ${need[*]}"
  if [ "$(id -u)" -eq 0 ]; then
    as_root=()
  elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    as_root=(sudo -n)
  else
    echo "setup: installing needs root; run: sudo apt-get install ${need[*]}" >&2
    exit 1
  fi
  "${as_root[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${as_root[@]}" apt-get install -y -qq "${need[@]}" >/dev/null
fi

# npm packages: reinstall only when package-lock.json changed since the last install.
stamp=node_modules/.buddylab-lock.sha
want=$(sha256sum package-lock.json | cut -d' ' -f1)
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  echo "setup: npm ci"
  npm ci --no-audit --no-fund --loglevel=error
  echo "$want" > "$stamp"
fi
