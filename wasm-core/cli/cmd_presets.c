/*
 * cmd_presets.c - `blab presets [--switches | NAME...]`: the kernels the core models, one
 * line each; with --switches the table of every strategy switch per preset; with names, each
 * named preset's commits and switches one per line.
 */
#include <stdio.h>
#include <string.h>

#include "blab.h"
#include "cli.h"

/* every switch of struct blab_strategy, by its C name (BLAB_STRATEGY_FIELDS) */
struct sw {
	const char *name;
	uint32_t (*get)(const struct blab_strategy *s);
};
#define BLAB_X(field, js)                                                                    \
	static uint32_t get_##field(const struct blab_strategy *s) { return (uint32_t)s->field; }
BLAB_STRATEGY_FIELDS(BLAB_X)
#undef BLAB_X
static const struct sw switches[] = {
#define BLAB_X(field, js) {#field, get_##field},
	BLAB_STRATEGY_FIELDS(BLAB_X)
#undef BLAB_X
};
#define NSW (sizeof(switches) / sizeof(switches[0]))

static void table(void)
{
	printf("%-15s", "preset");
	for (unsigned k = 0; k < NSW; k++)
		printf(" %s", switches[k].name);
	printf("\n");
	for (unsigned i = 0; i < blab_preset_count(); i++) {
		struct blab_strategy s;
		blab_preset(blab_preset_name(i), &s);
		printf("%-15s", blab_preset_name(i));
		for (unsigned k = 0; k < NSW; k++)
			printf(" %*u", (int)strlen(switches[k].name), switches[k].get(&s));
		printf("\n");
	}
	printf("(batch, high, high_max 0: the kernel's formulas for the zone; blab replay --help and\n"
	       "docs/modern-pcp.md say what each switch does)\n");
}

static int one(const char *name)
{
	struct blab_strategy s;

	if (blab_preset(name, &s)) {
		fprintf(stderr, "blab presets: unknown preset '%s'\n", name);
		return 1;
	}
	for (unsigned i = 0; i < blab_preset_count(); i++) {
		if (strcmp(blab_preset_name(i), name) != 0)
			continue;
		printf("%s: %s\n  %s\n  commits: %s\n", name, blab_preset_title(i),
		       blab_preset_describe(i),
		       blab_preset_commit(i)[0] ? blab_preset_commit(i) : "(none: before git, or an RFC)");
	}
	for (unsigned k = 0; k < NSW; k++)
		printf("  %-19s %u\n", switches[k].name, switches[k].get(&s));
	return 0;
}

int cmd_presets(int argc, char **argv)
{
	int ret = 0;

	if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		printf("usage: blab presets [--switches | NAME...]\n\n"
		       "  (none)      one line per preset: its name and what it models\n"
		       "  --switches  every preset's strategy switches, one column each\n"
		       "  NAME...     each preset's commits and switches, one per line\n");
		return 0;
	}
	if (argc == 2 && !strcmp(argv[1], "--switches")) {
		table();
		return 0;
	}
	if (argc > 1) {
		for (int i = 1; i < argc; i++)
			ret |= one(argv[i]);
		return ret;
	}
	for (unsigned i = 0; i < blab_preset_count(); i++)
		printf("%-15s %s\n", blab_preset_name(i), blab_preset_describe(i));
	return 0;
}
