# make fidelity: the seeds' headline tables next to the model machine's reproduction,
# written to docs/fidelity.md by scripts/fidelity.mjs (minutes; not part of make test).
# FIDELITY_FLAGS=--quick runs every experiment at a quarter of the pages (a smoke run).
FIDELITY_FLAGS ?=

.PHONY: fidelity
fidelity: build/native/blab
	@node scripts/fidelity.mjs $(FIDELITY_FLAGS)
