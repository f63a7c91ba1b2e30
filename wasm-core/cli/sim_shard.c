/* sim_shard.c - --shard I/N (sim_shard.h) */
#include "sim_shard.h"

#include <stdint.h>
#include <string.h>

#include "sim_common.h"

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
	if (sim_parse_u64(i, SIM_SHARD_MAX, &vi) || sim_parse_u64(n, SIM_SHARD_MAX, &vn) || vi < 1 ||
	    vi > vn)
		return -1;
	out->i = (unsigned)vi;
	out->n = (unsigned)vn;
	return 0;
}
