/* sim_shard.c - --shard I/N (sim_shard.h) */
#include "sim_shard.h"

#include <stdint.h>
#include <string.h>

#include <stdlib.h>

/* a decimal number 1..SIM_SHARD_MAX, nothing before or after it */
static int shard_number(const char *s, uint64_t *out)
{
	char *end;
	unsigned long v;
	if (*s < '0' || *s > '9')
		return -1; /* strtoul would take a sign or blanks */
	v = strtoul(s, &end, 10);
	if (*end || v < 1 || v > SIM_SHARD_MAX)
		return -1;
	*out = v;
	return 0;
}

int sim_shard_parse(const char *s, struct sim_shard *out)
{
	char i[16], n[16];
	const char *slash = s ? strchr(s, '/') : NULL;
	uint64_t vi, vn;

	if (!slash || (size_t)(slash - s) >= sizeof(i) || strlen(slash + 1) >= sizeof(n))
		return -1;
	memcpy(i, s, (size_t)(slash - s));
	i[slash - s] = '\0';
	strcpy(n, slash + 1);
	if (shard_number(i, &vi) || shard_number(n, &vn) || vi > vn)
		return -1;
	out->i = (unsigned)vi;
	out->n = (unsigned)vn;
	return 0;
}
