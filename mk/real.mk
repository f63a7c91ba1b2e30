# The real machine (wasm-core/src/machine/real/, src/workloads/real_run.c; docs/real.md) under
# ThreadSanitizer: real threads share one zone, so a missing lock or a plain counter read
# across threads must show up as a data race here. The tsan preset is the core, blab and the
# real machine's tests with -fsanitize=thread (clang): what its ctest preset runs (tests named
# real|run_args, wasm-core/CMakePresets.json) and nothing else.
#   test-tsan   the real machine's ctest tests, then `blab run` with 2 threads for a second
#               on a preset without pcp lists and one with two-pass frees and prefetch
TSAN_ENV := TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1:exitcode=66
TSAN_TARGETS := blab $(basename $(notdir $(wildcard wasm-core/tests/real/test_*.c)))

.PHONY: cmake-tsan test-tsan
cmake-tsan: FORCE
	$(call cmake_build,tsan,,$(TSAN_TARGETS))

test-tsan: cmake-tsan
	cd wasm-core && ctest --preset tsan -j$(NPROC)
	$(TSAN_ENV) build/tsan/blab run --threads 2 --preset v2.5.44,v4.17 --seconds 1 --warmup 0 \
	  --pages 4096 >build/tsan/run.out
	@grep -q '^2,' build/tsan/run.out && echo "test-tsan: blab run clean under ThreadSanitizer"
	@# every preset, 2 threads, a second each (blab run takes at most 8 presets a call)
	@set -e; presets=$$(build/tsan/blab presets | cut -d' ' -f1); \
	for p in $$presets; do \
	  $(TSAN_ENV) build/tsan/blab run --threads 2 --preset $$p --seconds 1 --warmup 0 --pages 512 \
	    >build/tsan/run-$$p.out 2>&1 || { cat build/tsan/run-$$p.out; echo "test-tsan: $$p FAILED"; exit 1; }; \
	done; echo "test-tsan: every preset clean under ThreadSanitizer ($$(echo $$presets | wc -w) presets)"

TEST_SUITES += test-tsan

# Real threads stressed: STRESS_RUNS runs of 1 s at 2 threads for every preset, each checked
# by blab run's end-of-run invariants (wasm-core/tests/real/stress.sh). `make soak` runs more.
# Each run lasts its second however busy the CPU is, so make test runs this suite beside
# test-e2e-parallel in the idle scheduling class, in the CPU the browser leaves idle (the Makefile's
# SUITE_ORDER); its last line says how many pages the runs moved, fewer there than alone.
STRESS_RUNS ?= 20
.PHONY: test-stress
test-stress: build/native/blab
	@wasm-core/tests/real/stress.sh build/native/blab $(STRESS_RUNS)

TEST_SUITES += test-stress

# ---- make bench: the real machine (bench/real.mjs, figures in docs/performance.md) ----
#   build/bench/real_fastpath      native: alloc+free pair on the real machine, 1 thread
#   build/bench/wasm/blab.js      the same source as WebAssembly (the wasm preset's
#                                  real_fastpath_wasm target), run by Node (named blab.js:
#                                  wasm-core/wasm/node-pre.js loads blab.wasm)
build/bench/real_fastpath: bench/real_fastpath.c bench/fastpath_pairs.h build/native/libblabcore.a
	@mkdir -p $(dir $@)
	@$(BENCH_CC) -Iwasm-core/include $< build/native/libblabcore.a -lpthread -o $@

build/bench/wasm/blab.js: build/wasm/node/blab.js
	@$(CMAKE) --build build/wasm -j$(NPROC) --target real_fastpath_wasm >>build/wasm/build.log 2>&1 || \
	  { cat build/wasm/build.log; exit 1; }

# extra prerequisites of bench-run (mk/bench.mk): the programs bench/real.mjs runs
bench-run: build/bench/real_fastpath build/bench/wasm/blab.js build/wasm/node/blab.js

# ---- the WASM twin of blab run: same argument checks, and a short run on 2 pthreads ----
.PHONY: test-wasm-real
test-wasm-real: build/wasm/node/blab.js
	@wasm-core/tests/real/run-args.sh "node wasm-core/cli/blab.mjs"
	@node wasm-core/cli/blab.mjs run --threads 2 --preset v4.16 --seconds 2 --warmup 0 \
	  --pages 1024 >build/wasm/run.out
	@grep -q '^prefetch: none (WebAssembly has no prefetch instruction)' build/wasm/run.out
	@grep -q '^not pinned: WebAssembly threads have no CPU affinity' build/wasm/run.out
	@grep -Eq '^2,[1-9][0-9]*,' build/wasm/run.out && echo "test-wasm-real: blab.mjs run ok"

TEST_SUITES += test-wasm-real
