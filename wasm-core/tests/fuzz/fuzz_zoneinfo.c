/*
 * fuzz_zoneinfo.c - libFuzzer target: the /proc/zoneinfo reader (blab_zoneinfo.h), as
 * `blab zoneinfo`, `blab sim --zoneinfo` and the browser's zoneinfo panel drive it.
 *
 * The input is a zoneinfo file. Oracles, beyond ASan/UBSan/LSan:
 *   - a refusal is a known code with "line N: why" (N at most the file's lines + 1), or a
 *     whole-file reason;
 *   - an accepted file has 1 .. BLAB_ZONEINFO_MAX_ZONES zones, each found again by its node
 *     and name, with at most BLAB_ZONEINFO_MAX_CPUS pagesets, every CPU count at most the
 *     file's, and a moving high that lies between its printed bounds;
 *   - both reports (text, JSON) give the length they said they need, and the JSON's braces
 *     and brackets balance;
 *   - every zone gives a strategy for every preset, or a known error.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "blab_zoneinfo.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(c)                                                                   \
	do {                                                                       \
		if (!(c)) {                                                        \
			fprintf(stderr, "fuzz_zoneinfo: %s:%d: %s\n", __FILE__, __LINE__, #c); \
			abort();                                                   \
		}                                                                  \
	} while (0)

static void check_report(const struct blab_zoneinfo *zi, unsigned cpus, int json)
{
	size_t need = blab_zoneinfo_report(zi, cpus, json, NULL, 0);
	char *buf = malloc(need + 1);
	long depth = 0;

	CHECK(buf);
	CHECK(blab_zoneinfo_report(zi, cpus, json, buf, need + 1) == need);
	CHECK(strlen(buf) == need);
	if (json) {
		for (size_t i = 0; i < need; i++) {
			depth += buf[i] == '{' || buf[i] == '[';
			depth -= buf[i] == '}' || buf[i] == ']';
			CHECK(depth >= 0);
		}
		CHECK(depth == 0);
	}
	free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct blab_zoneinfo *zi = NULL;
	char err[200];
	unsigned lines = 1;
	int r;

	for (size_t i = 0; i < size; i++)
		lines += data[i] == '\n';
	r = blab_zoneinfo_parse((const char *)data, size, &zi, err, sizeof(err));
	if (r) {
		unsigned n;
		CHECK(r == BLAB_ESNAPSHOT || r == BLAB_ELIMIT);
		CHECK(!zi);
		CHECK(err[0]);
		if (sscanf(err, "line %u:", &n) == 1)
			CHECK(n >= 1 && n <= lines);
		return 0;
	}
	CHECK(zi && zi->nzones >= 1 && zi->nzones <= BLAB_ZONEINFO_MAX_ZONES);
	CHECK(zi->nodes >= 1 && zi->nodes <= zi->nzones);
	for (uint32_t i = 0; i < zi->nzones; i++) {
		const struct blab_zoneinfo_zone *z = &zi->zone[i];
		CHECK(blab_zoneinfo_find(zi, (int)z->node, z->name) == (int)i);
		CHECK(z->ncpus <= BLAB_ZONEINFO_MAX_CPUS && z->ncpus <= zi->cpus);
		CHECK(z->node <= BLAB_ZONEINFO_MAX_NODE && z->line >= 1 && z->line <= lines);
		if (z->ncpus)
			CHECK(z->high_lo <= z->high && z->high <= z->high_hi);
		for (unsigned p = 0; p < blab_preset_count(); p++) {
			struct blab_strategy s;
			CHECK(blab_preset(blab_preset_name(p), &s) == 0);
			r = blab_zoneinfo_strategy(zi, i, 0, &s);
			CHECK(r == 0);
		}
	}
	CHECK(blab_zoneinfo_find(zi, -1, "no such zone") == -1);
	check_report(zi, 0, 0);
	check_report(zi, 0, 1);
	check_report(zi, 3, 1);
	blab_zoneinfo_free(zi);
	return 0;
}
