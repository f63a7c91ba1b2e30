# The real machine (wasm-core/src/real/, docs/real.md) under ThreadSanitizer: real threads
# share one zone, so a missing lock or a plain counter read across threads must show up as a
# data race here. The tsan variant is a full cmake build with -fsanitize=thread (clang).
#   test-tsan   the real machine's ctest tests, then `blab run` with 2 threads for a second
#               on a preset without pcp lists and one with two-pass frees and prefetch
$(eval $(call native_variant,tsan,Debug,-DCMAKE_C_COMPILER=clang -DBLAB_SANITIZE=thread))

TSAN_ENV := TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1:exitcode=66

.PHONY: test-tsan
test-tsan: build/tsan/.built
	cd build/tsan && $(TSAN_ENV) ctest --output-on-failure -R 'real|run_args'
	$(TSAN_ENV) build/tsan/blab run --threads 2 --preset v2.5.44,v4.17 --seconds 1 --warmup 0 \
	  --pages 4096 >build/tsan/run.out
	@grep -q '^2,' build/tsan/run.out && echo "test-tsan: blab run clean under ThreadSanitizer"

TEST_SUITES += test-tsan
