# buddylab — the two commands a newcomer needs are `make start` and `make test`.
# Each build area adds its targets in mk/<area>.mk and appends to TEST_SUITES / BENCH_SUITES.
SHELL := /bin/bash
, := ,
.DEFAULT_GOAL := help

# Debian's emscripten optimiser needs Debian's acorn.
export NODE_PATH := /usr/share/nodejs

TEST_SUITES :=
BENCH_SUITES :=

include $(sort $(wildcard mk/*.mk))

.PHONY: help setup start test bench
help:
	@echo "make start   install what is missing, build, serve the app"
	@echo "make test    build and run every test"
	@echo "make bench   run the benchmarks, write bench/results.json"
	@echo "make native  build the native CLI build/native/blab"

setup:
	@scripts/setup.sh

# Every suite runs, even after a failure; the summary line says how many passed.
test: setup
	@scripts/run-suites.sh test $(TEST_SUITES)

bench: setup
	@scripts/run-suites.sh bench $(BENCH_SUITES)
