/*
 * sim_latency.h - `blab sim --latency`: each run's latencies (include/blab_latency.h) printed
 * as BCC's funclatency prints a histogram, with the percentiles, or as JSON in the run's row.
 */
#ifndef BLAB_CLI_SIM_LATENCY_H
#define BLAB_CLI_SIM_LATENCY_H

#include <stdint.h>
#include "blab_latency.h"

/* One run's block of text: the percentiles of allocations and frees, then each path and
 * function that was taken, its parts and its histogram in nsecs of the modelled clock. */
void sim_latency_text(const struct blab_latency *l, const char *preset, uint32_t cpus);
/* ,"latency":{...} for the run's JSON object */
void sim_latency_json(const struct blab_latency *l);

#endif
