# libFuzzer targets for wasm-core (docs/reliability.md). Each wasm-core/tests/fuzz/fuzz_*.c
# is one target, built with clang and ASan+UBSan into build/fuzz/, with its seed corpus in
# wasm-core/tests/fuzz/corpus/<target>/.
#   make fuzz-smoke   part of `make test`: FUZZ_SMOKE_SECONDS per target, fixed seed, over the
#                     committed corpus (read only); any crash, leak, UB or timeout fails it
#   make fuzz         the long run: FUZZ_SECONDS per target (default 300); new interesting
#                     inputs are merged back into the corpus directory (commit them)
FUZZ_CC ?= clang
FUZZ_CFLAGS := -g -O1 -std=c11 -D_GNU_SOURCE -fsanitize=fuzzer,address,undefined \
               -fno-sanitize-recover=all -fno-omit-frame-pointer -Iwasm-core/include -Iwasm-core/src
FUZZ_CORE_SRC := $(wildcard wasm-core/src/*.c wasm-core/src/model/*.c wasm-core/src/real/*.c)
FUZZ_CORE_HDR := $(wildcard wasm-core/include/*.h wasm-core/src/*.h)
FUZZ_TARGETS := $(patsubst wasm-core/tests/fuzz/%.c,%,$(wildcard wasm-core/tests/fuzz/fuzz_*.c))
FUZZ_SMOKE_SECONDS ?= 5
FUZZ_SECONDS ?= 300
FUZZ_OPTS := -seed=1 -timeout=5 -rss_limit_mb=1024 -print_final_stats=1
FUZZ_ENV := ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

# a target that drives CLI code links those files too (fuzz_cli_args: blab sim's option table)
FUZZ_EXTRA_fuzz_cli_args := wasm-core/cli/options.c wasm-core/cli/sim_args.c

build/fuzz/%: wasm-core/tests/fuzz/%.c $(FUZZ_CORE_SRC) $(FUZZ_CORE_HDR) $(wildcard wasm-core/cli/*.[ch]) \
	     $(wildcard wasm-core/tests/fuzz/*.h)
	@mkdir -p $(dir $@)
	@$(FUZZ_CC) $(FUZZ_CFLAGS) -Iwasm-core/cli $< $(FUZZ_EXTRA_$*) $(FUZZ_CORE_SRC) -lpthread -o $@

.PHONY: fuzz-build fuzz-smoke fuzz
fuzz-build: $(addprefix build/fuzz/,$(FUZZ_TARGETS))

# -runs over the corpus first, then fuzzing from it; the corpus directory is not written.
fuzz-smoke: fuzz-build
	@for t in $(FUZZ_TARGETS); do \
	  rm -rf build/fuzz/smoke-$$t && mkdir -p build/fuzz/smoke-$$t; \
	  $(FUZZ_ENV) build/fuzz/$$t $(FUZZ_OPTS) -max_total_time=$(FUZZ_SMOKE_SECONDS) \
	    -artifact_prefix=build/fuzz/smoke-$$t/ build/fuzz/smoke-$$t wasm-core/tests/fuzz/corpus/$$t \
	    >build/fuzz/smoke-$$t.log 2>&1; rc=$$?; \
	  execs=$$(sed -n 's/^stat::number_of_executed_units: *//p' build/fuzz/smoke-$$t.log); \
	  if [ $$rc -ne 0 ]; then tail -40 build/fuzz/smoke-$$t.log; \
	    echo "fuzz-smoke: $$t FAILED (exit $$rc); reproducer in build/fuzz/smoke-$$t/"; exit 1; fi; \
	  echo "fuzz-smoke: $$t ok, $${execs:-?} executions in $(FUZZ_SMOKE_SECONDS) s"; \
	done

# The long run writes new inputs to a scratch directory, then -merge=1 -use_counters=0 adds
# to the committed corpus only the inputs that reach new edges (hit counts would keep
# hundreds of near-duplicates; the corpus stays small enough to commit).
fuzz: fuzz-build
	@for t in $(FUZZ_TARGETS); do \
	  mkdir -p wasm-core/tests/fuzz/corpus/$$t; rm -rf build/fuzz/new-$$t && mkdir -p build/fuzz/new-$$t; \
	  $(FUZZ_ENV) build/fuzz/$$t $(FUZZ_OPTS) -max_total_time=$(FUZZ_SECONDS) \
	    -artifact_prefix=build/fuzz/ build/fuzz/new-$$t wasm-core/tests/fuzz/corpus/$$t \
	    >build/fuzz/long-$$t.log 2>&1; rc=$$?; \
	  execs=$$(sed -n 's/^stat::number_of_executed_units: *//p' build/fuzz/long-$$t.log | tail -1); \
	  if [ $$rc -ne 0 ]; then tail -40 build/fuzz/long-$$t.log; echo "fuzz: $$t FAILED (exit $$rc)"; exit 1; fi; \
	  build/fuzz/$$t -merge=1 -use_counters=0 wasm-core/tests/fuzz/corpus/$$t build/fuzz/new-$$t >build/fuzz/merge-$$t.log 2>&1 || exit 1; \
	  echo "fuzz: $$t ok, $${execs:-?} executions in $(FUZZ_SECONDS) s; corpus now $$(ls wasm-core/tests/fuzz/corpus/$$t | wc -l) files"; \
	done

TEST_SUITES += fuzz-smoke
