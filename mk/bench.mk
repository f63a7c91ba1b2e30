# make bench: every benchmark, figures with their spread, written to bench/results.json.
# Performance is measured here and only here, never by a timed unit test.
BENCH_CC := gcc -O2 -std=c11 -Wall -Wextra -Werror

build/bench/kernel_page_fault1: bench/kernel_page_fault1.c
	@mkdir -p $(dir $@)
	@$(BENCH_CC) $< -o $@

build/bench/core_fastpath: bench/core_fastpath.c bench/fastpath_pairs.h build/native/libblabcore.a
	@mkdir -p $(dir $@)
	@$(BENCH_CC) -Iwasm-core/include $< build/native/libblabcore.a -lpthread -o $@

.PHONY: bench-run
bench-run: build/bench/kernel_page_fault1 build/bench/core_fastpath dist/.built build/native/blab \
           build/wasm/node/blab.js
	@node bench/run.mjs

BENCH_SUITES += bench-run
