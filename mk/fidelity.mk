# make fidelity: the seeds' headline tables and claims next to the model machine's
# reproduction, three seeds each, written to docs/fidelity.md by scripts/fidelity.mjs (minutes;
# not part of make test). Runs are cached in build/fidelity-cache/ by the blab binary's hash.
# FIDELITY_FLAGS=--quick runs every experiment at a quarter of the pages and one seed (a smoke
# run). make fidelity-sensitivity also re-runs every claim with each cost parameter at +-25 %
# (seed 1, a quarter of the pages) and checks the sizes against will-it-scale's full 32768
# pages (the report's two slow sections), which make fidelity then keeps.
FIDELITY_FLAGS ?=

.PHONY: fidelity fidelity-sensitivity
fidelity: build/native/blab
	@node scripts/fidelity.mjs $(FIDELITY_FLAGS)

fidelity-sensitivity: build/native/blab
	@node scripts/fidelity.mjs --slow $(FIDELITY_FLAGS)
