/*
 * cmd_sim.h - the front ends of `blab sim` behind cmd_sim() (cli.h), which parses the
 * arguments once (sim_args.c) and hands them to the one that runs them.
 */
#ifndef BLAB_CLI_CMD_SIM_H
#define BLAB_CLI_CMD_SIM_H

#include <stdio.h>

struct sim_args;
/* cmd_sim_hackbench.c: `blab sim --workload hackbench` and its --help */
int cmd_sim_hackbench(struct sim_args *a);
int sim_hackbench_help(FILE *f, const struct sim_args *a);
/* sim_points.c: `blab sim --points FILE` */
int cmd_sim_points(const struct sim_args *a);

#endif
