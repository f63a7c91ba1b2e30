/*
 * sim_result_text.h - a run's whole result (struct blab_sim_result, every field) as one line of
 * "name=value" text, and back: what blab sim --cache keeps for a sweep's run and what a shard
 * of a sweep carries to blab merge, so a table printed from them is the one a fresh run prints.
 */
#ifndef BLAB_CLI_SIM_RESULT_TEXT_H
#define BLAB_CLI_SIM_RESULT_TEXT_H

#include <stddef.h>

struct blab_sim_result;

/* Writes the line (no '\n') into buf, at most n bytes with a NUL, like snprintf: returns the
 * length the whole line needs, or -1. */
int sim_result_write(char *buf, size_t n, const struct blab_sim_result *r);

/* Reads a line sim_result_write() wrote (up to a '\n' or the end): every field, in order. 0, or
 * -1 with err saying which field and why. */
int sim_result_read(const char *s, struct blab_sim_result *r, char *err, size_t errlen);

#endif
