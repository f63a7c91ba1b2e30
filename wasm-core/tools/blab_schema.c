/*
 * blab_schema.c - prints web/scenario/core-schema.ts: the C core's tables as TypeScript, so the
 * app never retypes what the core defines. From the public API alone: every preset (its
 * name, menu title, description, commits and every switch of struct blab_strategy), the
 * request struct of blab_js_sim_run() (its uint32 fields in order, and where the preset's
 * name goes) and the counters blab_js_stats() returns, in order (include/blab_js.h).
 *   blab-schema > web/scenario/core-schema.ts      (make schema)
 * web/scenario/core-schema.test.ts runs it and fails when the committed file differs.
 */
#include <stddef.h>
#include <stdio.h>

#include "blab.h"
#include "blab_js.h"

/* a JSON string (a TypeScript literal): quotes, backslashes and control bytes escaped */
static void str(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			printf("\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			printf("\\u%04x", (unsigned char)*s);
		else
			putchar(*s);
	}
	putchar('"');
}

int main(void)
{
	printf("// web/scenario/core-schema.ts - generated from the C core by wasm-core/tools/blab_schema.c\n"
	       "// (`make schema`); do not edit. web/scenario/core-schema.test.ts fails when the two differ.\n\n");

	printf("/** The kernels the core models (wasm-core/src/mm/preset.c), one row each. */\n");
	printf("export const CORE_PRESETS = [\n");
	for (unsigned i = 0; i < blab_preset_count(); i++) {
		struct blab_strategy s;
		blab_preset(blab_preset_name(i), &s);
		printf("  {\n    name: ");
		str(blab_preset_name(i));
		printf(",\n    title: ");
		str(blab_preset_title(i));
		printf(",\n    describe: ");
		str(blab_preset_describe(i));
		printf(",\n    commit: ");
		str(blab_preset_commit(i));
		printf(",\n    strategy: {");
#define BLAB_X(field, js) printf(" %s: %u,", #js, (unsigned)s.field);
		BLAB_STRATEGY_FIELDS(BLAB_X)
#undef BLAB_X
		printf(" },\n  },\n");
	}
	printf("] as const;\n\n");

	printf("/** blab_js_sim_run()'s request (include/blab_js.h): uint32 fields in this order, then the\n"
	       " * preset's name, NUL-terminated, in presetMax bytes at presetOffset. */\n");
	printf("export const SIM_REQUEST = {\n  fields: [");
#define BLAB_X(field, js, what) printf("\"%s\", ", #js);
	BLAB_JS_SIM_REQUEST(BLAB_X)
#undef BLAB_X
	printf("],\n  presetOffset: %u,\n  presetMax: %u,\n  bytes: %u,\n} as const;\n\n",
	       (unsigned)offsetof(struct blab_js_sim_request, preset), BLAB_JS_PRESET_MAX,
	       (unsigned)sizeof(struct blab_js_sim_request));

	printf("/** A model-machine run's counters, in the order of blab_js_stats()'s int64 array. */\n");
	printf("export const SIM_STATS = [\n");
#define BLAB_X(js, expr) printf("  \"%s\",\n", #js);
	BLAB_JS_SIM_STATS(BLAB_X)
#undef BLAB_X
	printf("] as const;\n");
	return 0;
}
