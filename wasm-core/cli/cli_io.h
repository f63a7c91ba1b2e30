/*
 * cli_io.h - the files the blab CLI reads and the standard output it writes: every open,
 * read, write and close error is reported with the path and strerror(), and a read error is
 * never taken for the end of the file (a directory opens but does not read).
 */
#ifndef BLAB_CLI_IO_H
#define BLAB_CLI_IO_H

#include <stddef.h>
#include <stdio.h>

/* path for reading ("-": standard input), or NULL after "CMD: cannot open PATH: why" */
FILE *cli_open_read(const char *cmd, const char *path);

/* Right after the reading stopped at EOF (errno is still the failed read's): 0, or -1 after
 * "CMD: cannot read PATH: why" when it stopped at an error. Closes f unless it is stdin. */
int cli_close_read(const char *cmd, const char *path, FILE *f);

/* Reads all of path into buf (at most cap bytes; *len = what it holds). 0, or -1 after a
 * message: cannot open, cannot read, or "PATH is larger than CAP bytes". */
int cli_read_file(const char *cmd, const char *path, char *buf, size_t cap, size_t *len);

/* The end of every command: flushes and closes standard output. Returns status, or 1 with
 * "blab: cannot write standard output: why" when a write or the close failed (a full disk,
 * a closed pipe, /dev/full) and status was 0. */
int cli_exit(int status);

#endif
