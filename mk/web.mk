# The web app (TypeScript, Vite, Vitest, Playwright on Debian's Chromium).
#   typecheck, eslint, test-unit   tsc; eslint; Vitest's `unit` project (vitest.config.ts: the
#              tests that need no core, so no build): the web part of `make check`
#   test-core  Vitest's `core` project: the tests on the Node WASM build and the native blab
#   test-web   typecheck + eslint + both Vitest projects (what a web change wants in one go;
#              make test runs the same as check's steps plus test-core)
#   lint       the static checks; lint-web: knip (unused files, exports and dependencies;
#              knip.jsonc) needs no build. Other areas add theirs as `lint: lint-AREA` (the C
#              checks, lint-c, read build/native's objects, so `make lint` builds it).
#   test-e2e   vite build, vite preview on a free localhost port, Playwright (the @timed tests
#              alone on one worker, then the rest on two: web/e2e/README.md), server stopped.
#              make test runs its two halves as suites of their own, test-e2e-timed alone and
#              test-e2e-parallel with test-stress beside it (the Makefile's SUITE_ORDER), so
#              nothing of make test's runs beside the tests that time the page
#   shipped-results  lessons/results/<core hash>.jsonl from the build's cache (commit it)
#   web-build  dist/ (static, any host and folder: its service worker isolates the page on hosts
#              without COOP/COEP and keeps it offline; build.json pins its version, docs/lessons.md)
#   serve      vite preview on 0.0.0.0:5173 with the isolation headers (what `make start` runs)
NPX := npx --no-install
# the build reads lessons/*.md (virtual:lessons) and scans the core's C for the lesson player's
# source pane (virtual:core-source): both are inputs of dist/ too; the native blab computes the
# lesson tables the build ships (web/lessons/precompute.ts); the ?fidelity page is built from
# docs/fidelity-claims.json, checked against docs/fidelity.md
# (lessons/results/ only seeds the build's cache of those runs: the same records either way)
WEB_SRC := $(filter-out lessons/results/%,$(shell find web lessons wasm-core/src wasm-core/include -type f 2>/dev/null)) index.html vite.config.ts tsconfig.json package-lock.json docs/fidelity-claims.json docs/fidelity.md

.PHONY: typecheck eslint test-unit test-core test-web test-e2e test-e2e-timed test-e2e-parallel web-build serve start lint lint-web shipped-results

typecheck:
	$(NPX) tsc -p .

eslint:
	$(NPX) eslint .

test-unit:
	$(NPX) vitest run --project unit

# The contract tests run the real core: the Node WASM build and the native blab first.
test-core: build/wasm/node/blab.js build/native/blab
	$(NPX) vitest run --project core

test-web: build/wasm/node/blab.js build/native/blab typecheck eslint
	$(NPX) vitest run

dist/.built: $(WEB_SRC) public/wasm/blab.js build/native/blab
	$(NPX) vite build --logLevel warn
	@touch $@

web-build: dist/.built

# lessons/results/<core hash>.jsonl: the shipped runs' records, which a fresh clone's build copies
# into its cache rather than running them all (web/lessons/shipped-results.ts). Run it and commit
# the file after a change to the core's sources or to a table; Vitest's core project fails until
# then (web/compare/shipped-results.test.ts).
shipped-results: dist/.built
	node scripts/shipped-results.mjs

test-e2e: dist/.built build/native/blab
	node web/e2e/run.mjs

test-e2e-timed test-e2e-parallel: test-e2e-%: dist/.built build/native/blab
	node web/e2e/run.mjs --project=$*

serve: web-build
	$(NPX) vite preview --host 0.0.0.0 --port 5173 --strictPort

# `make start`: install what is missing, build the core and the app, serve it.
start: setup native web-build
	@$(MAKE) --no-print-directory serve

lint: lint-web

lint-web:
	$(NPX) knip

TEST_SUITES += test-core test-e2e-timed test-e2e-parallel
