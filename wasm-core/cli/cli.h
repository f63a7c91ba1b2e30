/* cli.h - commands of the blab CLI that live in their own files. */
#ifndef BLAB_CLI_H
#define BLAB_CLI_H

int cmd_sim(int argc, char **argv);
int cmd_sim_hackbench(int argc, char **argv); /* cmd_sim_hackbench.c */
int cmd_sim_points(int argc, char **argv); /* sim_points.c: blab sim --points FILE */
int cmd_merge(int argc, char **argv); /* cmd_merge.c: the shards of a study put back together */
int cmd_run(int argc, char **argv); /* cmd_run.c: the real machine */
int cmd_calibrate(int argc, char **argv); /* cmd_calibrate.c */

#endif
