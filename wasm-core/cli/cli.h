/* cli.h - commands of the blab CLI that live in their own files. */
#ifndef BLAB_CLI_H
#define BLAB_CLI_H

#include <stdio.h>

int cmd_sim(int argc, char **argv); /* sim/cmd_sim.c; its front ends: sim/cmd_sim.h */
int cmd_merge(int argc, char **argv); /* sim/cmd_merge.c: the shards of a study put back together */
int cmd_run(int argc, char **argv); /* cmd_run.c: the real machine */
int cmd_calibrate(int argc, char **argv); /* cmd_calibrate.c */
int cmd_zoneinfo(int argc, char **argv); /* cmd_zoneinfo.c */
int cmd_presets(int argc, char **argv); /* cmd_presets.c */
/* cmd_zoneinfo.c: FILE or - read whole (at most one byte past the zoneinfo bound), or NULL
 * with "CMD: why" on stderr */
#include <stddef.h>
char *cli_read_zoneinfo(const char *cmd, const char *name, size_t *len);

#endif
