# buddylab - the two commands a newcomer needs are `make start` and `make test`.
# Each build area adds its targets in mk/<area>.mk and appends to TEST_SUITES / BENCH_SUITES;
# the C core's one build description is wasm-core/CMakeLists.txt with its presets
# (wasm-core/CMakePresets.json), which mk/native.mk, mk/wasm.mk and mk/fuzz.mk run.
SHELL := /bin/bash
, := ,
.DEFAULT_GOAL := help

# Debian's emscripten optimiser needs Debian's acorn.
export NODE_PATH := /usr/share/nodejs

TEST_SUITES := check
BENCH_SUITES :=

include $(sort $(wildcard mk/*.mk))

# `make test` runs the suites in tiers, fast to slow, so a broken build or a failing unit test
# shows in a minute, not after the browser tests; a suite not named here runs after these.
# Suites joined by `,` run side by side as equals (scripts/run-suites.sh), each printed whole
# when both end: a build and its tests keep one CPU busy for long stretches (linking, a ctest
# whose longest test runs alone, node starting one WASM CLI after another), so two of them
# together take little longer than the longer one. They share no build folder: the one that
# builds the WASM core (test-wasm) is done before the one that only reads it (test-core).
# Suites joined by `+` run side by side too, the first as usual, the others in the kernel's
# idle scheduling class (SCHED_IDLE), so they take only the CPU it leaves idle: only suites
# whose work is a fixed time each run (real threads for N seconds) go beside another. Each
# keeps its own log and its own line of wall and CPU seconds.
#   1  check                                    make check: types, lint, unit tests, native ctest
#   2  test-debug,test-wasm,test-clang,test-tsan  the core's other builds, its WASM twin, the
#                                               real machine under ThreadSanitizer (its checks
#                                               ask that each thread did some work, not how
#                                               much, and its runs last their seconds)
#   3  test-core,fuzz-smoke,test-asan,test-wasm-real
#                                               the web tests on the real core, sanitizers and
#                                               fuzzing (every fuzz input runs in well under the
#                                               5 s libFuzzer allows it, so a neighbour cannot
#                                               time it out), real threads in WebAssembly (their
#                                               check asks that each thread did some work)
#   4  test-e2e-timed test-e2e-parallel+test-stress
#      the browser (make test-e2e, in two halves: mk/web.mk), the stress runs beside the half
#      that times nothing
SUITE_ORDER := check test-debug,test-wasm,test-clang,test-tsan test-core,fuzz-smoke,test-asan,test-wasm-real \
               test-e2e-timed test-e2e-parallel+test-stress
# a group of SUITE_ORDER (A,B or A+B) keeps the members that are in TEST_SUITES
group_sep = $(if $(findstring $(,),$(1)),$(,),+)
suite_group = $(subst $() ,$(call group_sep,$(1)),$(strip $(filter $(TEST_SUITES),$(subst $(,), ,$(subst +, ,$(1))))))
ORDERED_SUITES := $(foreach g,$(SUITE_ORDER),$(call suite_group,$(g))) \
                  $(filter-out $(subst $(,), ,$(subst +, ,$(SUITE_ORDER))),$(TEST_SUITES))

# `make check`: the developer's loop, in a minute or two on a fresh clone (README.md): the type
# check, eslint, every `make lint` check, Vitest's unit project and the native ctest; no
# Emscripten, no browser. Its steps are independent but for the native build that lint-c and
# ctest-native share, so they run side by side; each step's output is printed whole when it
# ends (--output-sync), and every step runs even when one fails (-k).
CHECK_STEPS := typecheck eslint lint test-unit ctest-native

.PHONY: help setup start test check bench
help:
	@echo "make start   install what is missing, build, serve the app"
	@echo "make check   the quick loop: types, eslint, lint, unit tests, native ctest (no WASM, no browser)"
	@echo "make test    build and run every test (KEEP_GOING=1: on past a failed suite)"
	@echo "make lint    the layering and unused-symbol checks (also the first suite of make test)"
	@echo "make bench   run the benchmarks, write bench/results.json"
	@echo "make native  build the native CLI build/native/blab"

setup:
	@scripts/setup.sh

# The first failing suite ends the run (KEEP_GOING=1 runs them all); the summary line says
# how many passed.
test: setup
	@scripts/run-suites.sh test $(ORDERED_SUITES)

check: setup
	@$(MAKE) --no-print-directory -k -j$(NPROC) --output-sync=target $(CHECK_STEPS) && \
	  echo "check: passed ($(CHECK_STEPS))"

bench: setup
	@KEEP_GOING=1 scripts/run-suites.sh bench $(BENCH_SUITES)
