# libFuzzer targets for wasm-core (docs/reliability.md). Each wasm-core/tests/fuzz/fuzz_*.c is
# one target of the `fuzz` preset (clang, ASan + UBSan): the core is compiled once, instrumented
# for coverage, and linked into each; the seed corpus is wasm-core/tests/fuzz/corpus/<target>/.
#   make fuzz-smoke   part of `make test`: FUZZ_SMOKE_SECONDS per target, fixed seed, over the
#                     committed corpus (read only), NPROC targets at a time; any crash, leak,
#                     UB or timeout fails it
#   make fuzz         the long run: FUZZ_SECONDS per target (default 300); new interesting
#                     inputs are merged back into the corpus directory (commit them)
FUZZ_TARGETS := $(patsubst wasm-core/tests/fuzz/%.c,%,$(wildcard wasm-core/tests/fuzz/fuzz_*.c))
FUZZ_SMOKE_SECONDS ?= 5
FUZZ_SECONDS ?= 300

.PHONY: cmake-fuzz fuzz-build fuzz-smoke fuzz
cmake-fuzz: FORCE
	$(call cmake_build,fuzz)
fuzz-build: cmake-fuzz

fuzz-smoke: fuzz-build
	@printf '%s\n' $(FUZZ_TARGETS) | \
	  xargs -P $(NPROC) -I{} wasm-core/tests/fuzz/run.sh smoke {} $(FUZZ_SMOKE_SECONDS)

fuzz: fuzz-build
	@for t in $(FUZZ_TARGETS); do wasm-core/tests/fuzz/run.sh long $$t $(FUZZ_SECONDS) || exit 1; done

TEST_SUITES += fuzz-smoke
