# make bench: frame time while the app plays a 262,144-page, 16-CPU page_fault1 run, in headless
# Debian Chromium (bench/frames.mjs); merged into bench/results.json after bench-run wrote it.
.PHONY: bench-frames
bench-frames: dist/.built
	@node bench/frames.mjs --frames 600 --speeds 1,16,64 --results bench/results.json

BENCH_SUITES += bench-frames
