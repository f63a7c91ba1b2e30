/*
 * fuzz_params.c - libFuzzer target: the model parameter file parser (blab sim --params,
 * what blab calibrate writes; src/model/params.c).
 *
 * Oracle, beyond ASan/UBSan: a refused input leaves the struct untouched and says
 * "line N: why"; an accepted one passes model_params_check(), and writing it back with
 * model_params_write() and parsing that from the defaults gives the same struct.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "machine/model/model.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct model_params p, before, again;
	char err[200] = "", text[4096];

	model_params_default(&p);
	p.mem_cycles = 777; /* a value the defaults do not have: must survive a refusal */
	before = p;
	if (model_params_parse(&p, (const char *)data, size, err, sizeof(err))) {
		if (memcmp(&p, &before, sizeof(p)) || strncmp(err, "line ", 5))
			abort();
		return 0;
	}
	if (model_params_check(&p, NULL, 0))
		abort();
	size_t n = model_params_write(&p, text, sizeof(text));
	if (n >= sizeof(text))
		abort();
	model_params_default(&again);
	if (model_params_parse(&again, text, n, err, sizeof(err)) || memcmp(&again, &p, sizeof(p)))
		abort();
	return 0;
}
