# make soak: ten minutes of random scenarios (scripts/soak.mjs; docs/reliability.md, "Soak"):
# the model machine and op scripts natively and on the WASM twin, byte for byte, and real
# threads on every preset, both ways. Not in make test. SOAK_SECONDS, SOAK_SEED to change.
SOAK_SECONDS ?= 600
SOAK_SEED ?= $(shell date +%s)

.PHONY: soak
soak: build/native/blab build/wasm/node/blab.js
	@node scripts/soak.mjs --seconds $(SOAK_SECONDS) --seed $(SOAK_SEED)
