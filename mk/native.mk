# Native builds of wasm-core. Each is one CMake preset (wasm-core/CMakePresets.json), built in
# build/<preset>/ with every core of the machine; CMake decides what is out of date, so the
# targets below always ask it (a build with nothing to do takes a second).
#   native  release gcc: build/native/blab, what `make native` promises
#   debug   gcc, the invariant checker after every op
#   clang   release clang, -Werror as well; test_prop at 10^5 ops a preset (BLAB_PROP_OPS in
#           its ctest preset), the start of the same seeded sequences of which the release
#           gcc build's ctest in make check runs 10^6
#   asan    clang, AddressSanitizer + UndefinedBehaviorSanitizer, the tests at debug's sizes
# A failed build prints its whole log (kept in build/<preset>/build.log) and stops.
CMAKE ?= cmake
NPROC := $(shell nproc 2>/dev/null || echo 2)

# $(call cmake_build,PRESET[,WRAPPER[,TARGETS]]): configure when the presets changed (WRAPPER:
# emcmake for WebAssembly), then build (TARGETS: only those, else everything)
define cmake_build
	@mkdir -p build/$(1)
	@{ { [ build/$(1)/CMakeCache.txt -nt wasm-core/CMakePresets.json ] || \
	     $(2) $(CMAKE) --preset $(1) -S wasm-core; } && \
	   $(CMAKE) --build build/$(1) -j$(NPROC) $(if $(3),--target $(3)); } >build/$(1)/build.log 2>&1 || \
	 { cat build/$(1)/build.log; echo "build/$(1): FAILED (log: build/$(1)/build.log)"; exit 1; }
endef

.PHONY: FORCE native cmake-debug cmake-clang cmake-asan ctest-native test-debug test-native test-clang test-asan
FORCE:

build/native/blab build/native/libblabcore.a &: FORCE
	$(call cmake_build,native)
cmake-debug cmake-clang cmake-asan: cmake-%: FORCE
	$(call cmake_build,$*)

native: build/native/blab
	@echo "built build/native/blab"

# ctest-native: the release build's tests, the C part of `make check`; test-debug: the debug
# build's, the checker after every op (make test runs the two apart, the first in make check)
ctest-native: build/native/blab
	cd wasm-core && ctest --preset native -j$(NPROC)

test-debug: cmake-debug
	cd wasm-core && ctest --preset debug -j$(NPROC)

test-native: ctest-native test-debug

test-clang: cmake-clang
	cd wasm-core && ctest --preset clang -j$(NPROC)

test-asan: cmake-asan
	cd wasm-core && ctest --preset asan -j$(NPROC)

TEST_SUITES += test-debug test-clang test-asan

# make lint's C part (lint-web is knip): the checks that keep the core's shape, seconds once
# build/native exists (check-layers and the symbol check read its objects):
#   scripts/check-layers.mjs          every #include of wasm-core/ goes down the layers
#                                     (docs/architecture.md), no folders include each other, and
#                                     every call goes to a symbol defined in the caller's layer
#                                     or a lower one (read with nm from build/native's objects)
#   scripts/check-unused-symbols.sh   no C function or datum is exported that nothing uses
#   scripts/check-function-length.mjs no C function outside the tests is over its line limit
#                                     (its self-test first: a long function must fail it)
.PHONY: lint lint-c
lint: lint-c
lint-c: build/native/blab
	@node scripts/check-layers.mjs
	@scripts/check-unused-symbols.sh build/native
	@node scripts/check-function-length.mjs --self-test
	@node scripts/check-function-length.mjs

# web/scenario/core-schema.ts: the core's presets, run request and run counters as TypeScript,
# printed by build/native/blab-schema (wasm-core/tools/blab_schema.c), and web/log/core-limits.ts,
# its hard limits (--limits). Committed, so the app type-checks without a C build;
# web/scenario/core-schema.test.ts and web/log/core-limits.test.ts fail when they drift.
.PHONY: schema
schema: build/native/blab
	@build/native/blab-schema > web/scenario/core-schema.ts && echo "wrote web/scenario/core-schema.ts"
	@build/native/blab-schema --limits > web/log/core-limits.ts && echo "wrote web/log/core-limits.ts"
