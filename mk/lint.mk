# make lint: the checks that keep the core's shape (the first suite of make test, seconds):
#   scripts/check-layers.mjs          every #include of wasm-core/ goes down the layers
#                                     (docs/architecture.md), and no folders include each other
#   scripts/check-unused-symbols.sh   no C function or datum is exported that nothing uses
.PHONY: lint
lint: build/native/blab
	@node scripts/check-layers.mjs
	@scripts/check-unused-symbols.sh build/native

TEST_SUITES += lint
