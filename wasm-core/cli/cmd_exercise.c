/*
 * cmd_exercise.c - `blab exercise`: seeded problems on the core, their answers and checks
 * (docs/exercises.md). The command itself is the core's blab_exercise_main(), which the
 * browser runs as WebAssembly too, so both print the same bytes for the same arguments.
 */
#include <stdio.h>
#include "blab_exercise.h"
#include "cli.h"

int cmd_exercise(int argc, char **argv)
{
	return blab_exercise_main(argc, argv, stdout, stderr);
}
