# WebAssembly builds of wasm-core with Debian's emscripten 3.1.6: the `wasm` CMake preset,
# configured through emcmake. One compile of the core, two links (the Emscripten notes are in
# docs/architecture.md):
#   build/wasm/node/blab.js   Node: the CLI twin (wasm-core/cli/blab.mjs) and Vitest's module;
#                             its pthread pool is Module.blabPoolSize workers (default 4), so
#                             `blab.mjs run --threads N` pre-starts N (docs/real.md)
#   public/wasm/blab.js       web: loaded with importScripts() by the engine worker
# Both use pthreads over one SharedArrayBuffer and a fixed memory size (no growth), so
# typed-array views of the heap stay valid.
.PHONY: wasm test-wasm
build/wasm/node/blab.js public/wasm/blab.js &: FORCE
	$(call cmake_build,wasm,emcmake)

wasm: build/wasm/node/blab.js public/wasm/blab.js

# Native and WASM must print the same bytes (stdout, stderr, exit status) for every
# golden op script, 1,000 exercises of each kind and 300 on each of seven other presets;
# the WASM twin prints the exercise goldens and passes the CLI's error-path tests; the host
# memory bound holds in WebAssembly (its heap is the limit). The comparisons go last: they run
# one per CPU, the others one at a time, so in make test's tier 2 the end of the suite, alone
# once its neighbours are done, keeps both CPUs busy.
test-wasm: build/wasm/node/blab.js build/native/blab
	@wasm-core/tests/run-exercise.sh "node wasm-core/cli/blab.mjs"
	@wasm-core/tests/cli/run-errors.sh "node wasm-core/cli/blab.mjs"
	@node wasm-core/tests/wasm-mem.mjs
	@wasm-core/tests/wasm-vs-native.sh build/native/blab "node wasm-core/cli/blab.mjs"

TEST_SUITES += test-wasm
