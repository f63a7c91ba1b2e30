# Native builds of wasm-core. Each variant is one cmake build directory:
#   native  release gcc, gives build/native/blab (what `make native` promises)
#   debug   gcc, invariant checker after every op
#   clang   release clang, -Werror as well
#   asan    clang, AddressSanitizer + UndefinedBehaviorSanitizer, invariant checker on
CMAKE ?= cmake
CORE_DEPS := $(shell find wasm-core -name '*.[ch]' -o -name CMakeLists.txt -o -name '*.sh' 2>/dev/null)

define native_variant
build/$(1)/CMakeCache.txt: wasm-core/CMakeLists.txt
	@mkdir -p build/$(1)
	@$(CMAKE) -S wasm-core -B build/$(1) -DCMAKE_BUILD_TYPE=$(2) $(3) >/dev/null
build/$(1)/.built: build/$(1)/CMakeCache.txt $(CORE_DEPS)
	@$(CMAKE) --build build/$(1) -j2 -- --no-print-directory >/dev/null || $(CMAKE) --build build/$(1) -j1
	@touch $$@
endef

$(eval $(call native_variant,native,Release,-DCMAKE_C_COMPILER=gcc))
$(eval $(call native_variant,debug,Debug,-DCMAKE_C_COMPILER=gcc -DBLAB_DEBUG_CHECK=ON))
$(eval $(call native_variant,clang,Release,-DCMAKE_C_COMPILER=clang))
$(eval $(call native_variant,asan,Debug,-DCMAKE_C_COMPILER=clang -DBLAB_DEBUG_CHECK=ON -DBLAB_SANITIZE=address$(,)undefined))

.PHONY: native test-native test-clang test-asan
native: build/native/.built
	@echo "built build/native/blab"

test-native: build/native/.built build/debug/.built
	cd build/native && ctest --output-on-failure
	cd build/debug && ctest --output-on-failure

test-clang: build/clang/.built
	cd build/clang && ctest --output-on-failure

test-asan: build/asan/.built
	cd build/asan && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 BLAB_PROP_OPS=100000 ctest --output-on-failure

TEST_SUITES += test-native test-clang test-asan
