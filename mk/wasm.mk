# WebAssembly builds of wasm-core with Debian's emscripten 3.1.6.
# One compile, two links (the Emscripten notes are in docs/architecture.md):
#   build/wasm/node/blab.js   Node: the CLI twin (wasm-core/cli/blab.mjs) and Vitest's module;
#                             its pthread pool is Module.blabPoolSize workers (default 4), so
#                             `blab.mjs run --threads N` pre-starts N (docs/real.md)
#   public/wasm/blab.js       web: loaded with importScripts() by the engine worker
# Both use pthreads over one SharedArrayBuffer and a fixed memory size (no growth), so
# typed-array views of the heap stay valid.
EMCC ?= emcc
WASM_SRC := $(wildcard wasm-core/src/*.c wasm-core/src/model/*.c wasm-core/src/real/*.c) \
            $(wildcard wasm-core/wasm/*.c)
WASM_CLI_SRC := $(wildcard wasm-core/cli/*.c)
WASM_OBJ := $(patsubst wasm-core/%.c,build/wasm/obj/%.o,$(WASM_SRC))
WASM_CLI_OBJ := $(patsubst wasm-core/%.c,build/wasm/obj/%.o,$(WASM_CLI_SRC))
WASM_HDRS := $(shell find wasm-core/include wasm-core/src -name '*.h' 2>/dev/null)

WASM_CFLAGS := -O2 -pthread -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -Wno-unused-parameter \
               -Iwasm-core/include -Iwasm-core/src
# exports.txt, then each area's exports-NAME.txt (each starts with a comma)
WASM_EXPORT_FILES := wasm-core/wasm/exports.txt $(sort $(wildcard wasm-core/wasm/exports-*.txt))
WASM_EXPORTS := $(shell cat $(WASM_EXPORT_FILES) 2>/dev/null | tr -d ' \n')
WASM_LDFLAGS := -O2 -pthread -sMODULARIZE=1 -sEXPORT_NAME=createBlab -sABORTING_MALLOC=0 \
                -sALLOW_MEMORY_GROWTH=0 -sTOTAL_STACK=1MB
WASM_RUNTIME := "UTF8ToString","stringToUTF8","lengthBytesUTF8"

build/wasm/obj/%.o: wasm-core/%.c $(WASM_HDRS)
	@mkdir -p $(dir $@)
	@$(EMCC) $(WASM_CFLAGS) -c $< -o $@

build/wasm/node/blab.js: $(WASM_OBJ) $(WASM_CLI_OBJ) wasm-core/wasm/node-pre.js $(WASM_EXPORT_FILES)
	@mkdir -p $(dir $@)
	@$(EMCC) $(WASM_LDFLAGS) -sENVIRONMENT=node,worker -sNODERAWFS=1 -sEXIT_RUNTIME=1 \
	  -sINITIAL_MEMORY=1024MB -sPTHREAD_POOL_SIZE='(Module.blabPoolSize||4)' -sINVOKE_RUN=0 \
	  -sEXPORTED_FUNCTIONS='["_main",$(WASM_EXPORTS)]' -sEXPORTED_RUNTIME_METHODS='["callMain",$(WASM_RUNTIME)]' \
	  --pre-js wasm-core/wasm/node-pre.js $(WASM_OBJ) $(WASM_CLI_OBJ) -o $@
	@# emscripten writes CommonJS; the repository's package.json says "type": "module".
	@echo '{ "type": "commonjs" }' > $(dir $@)package.json
	@echo "built $@"

public/wasm/blab.js: $(WASM_OBJ) $(WASM_EXPORT_FILES)
	@mkdir -p $(dir $@)
	@$(EMCC) $(WASM_LDFLAGS) -sENVIRONMENT=web,worker -sINITIAL_MEMORY=512MB \
	  -sPTHREAD_POOL_SIZE=0 -sINVOKE_RUN=0 -sFILESYSTEM=0 \
	  -sEXPORTED_FUNCTIONS='[$(WASM_EXPORTS)]' -sEXPORTED_RUNTIME_METHODS='[$(WASM_RUNTIME)]' \
	  $(WASM_OBJ) -o $@
	@echo "built $@"

.PHONY: wasm test-wasm
wasm: build/wasm/node/blab.js public/wasm/blab.js

# Native and WASM must print the same bytes (stdout, stderr, exit status) for every
# golden op script; the WASM twin passes the CLI's error-path tests; the host memory bound
# holds in WebAssembly (its heap is the limit).
test-wasm: wasm build/native/.built
	@wasm-core/tests/wasm-vs-native.sh build/native/blab "node wasm-core/cli/blab.mjs"
	@wasm-core/tests/cli/run-errors.sh "node wasm-core/cli/blab.mjs"
	@node wasm-core/tests/wasm-mem.mjs

TEST_SUITES += test-wasm
