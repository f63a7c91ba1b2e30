/* cli.h - commands of the blab CLI that live in their own files. */
#ifndef BLAB_CLI_H
#define BLAB_CLI_H

int cmd_sim(int argc, char **argv);
int cmd_sim_hackbench(int argc, char **argv); /* cmd_sim_hackbench.c */

#endif
