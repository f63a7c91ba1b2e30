/*
 * options.h - a command's options as one table: each row names an option once, and the
 * parser, the option list of --help and the --json echo of the run's settings all read it.
 * Parsing is pure (no I/O): it fills the command's struct or says why not, so a fuzz
 * target can drive it (tests/fuzz/fuzz_cli_args.c).
 */
#ifndef BLAB_CLI_OPTIONS_H
#define BLAB_CLI_OPTIONS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define CLI_LIST_MAX 32    /* values in one list option */
#define CLI_LIST_CHARS 256 /* characters of one list option */

/* a comma-separated list: numbers, or names that point into buf */
struct cli_list {
	uint32_t n;
	uint64_t v[CLI_LIST_MAX];
	const char *name[CLI_LIST_MAX];
	char buf[CLI_LIST_CHARS];
};

enum cli_kind {
	CLI_FLAG,    /* no value: the int at off becomes 1 */
	CLI_UINT,    /* a decimal number min..max (uint64_t) */
	CLI_POW2,    /* a power of two min..max (uint64_t) */
	CLI_CHOICE,  /* one of choices[]: its index (uint64_t) */
	CLI_TEXT,    /* any text (const char *) */
	CLI_NUMBERS, /* a list of distinct numbers min..max (struct cli_list) */
	CLI_NAMES,   /* a list of distinct names that name_ok() accepts (struct cli_list) */
	CLI_SIZE,    /* bytes: a decimal number with K, M, G or T (10^3 ..) or Ki .. Ti (2^10 ..) */
};

struct cli_opt {
	const char *name;  /* "--pages" */
	const char *value; /* what the synopsis and the help show for the value: "N", "FILE" */
	enum cli_kind kind;
	size_t off;        /* offsetof() the field in the command's struct */
	uint64_t min, max; /* numbers, and each number of a list */
	unsigned count;    /* lists: how many values at most (<= CLI_LIST_MAX) */
	const char *const *choices; /* CLI_CHOICE and CLI_NAMES without name_ok: NULL-ended */
	int (*name_ok)(const char *name); /* CLI_NAMES: 1 if the name is known */
	const char *unknown; /* CLI_NAMES: the refusal, a format with the name's %s */
	const char *def;   /* the value when the option is not given (NULL: none) */
	const char *json;  /* the key in the --json echo of the run's settings (NULL: none) */
	unsigned only;     /* a bit per group of uses (the command's workloads): 0, all */
	unsigned flags;    /* CLI_REQUIRED, CLI_JSON_IF_SET */
	const char *help;  /* its line(s) in --help; '\n' starts an aligned continuation */
};

#define CLI_REQUIRED 1u    /* the synopsis shows it without brackets (the command checks) */
#define CLI_JSON_IF_SET 2u /* a flag echoed only when given (else always, true or false) */

/* the parse of one command line */
struct cli_parse {
	const struct cli_opt *opt;
	size_t nopt;
	unsigned mask;      /* only rows whose `only` has this bit (or is 0) exist */
	const char *for_what; /* rows outside the mask: "unknown option 'X' for FOR_WHAT";
			       * NULL: "--X: WHY_NOT" */
	const char *why_not; /* format with the option's name, for rows outside the mask */
	uint8_t given[64];  /* per row: set on the command line */
};

/*
 * Parses argv[1..argc-1] into the struct at base: defaults first, then each option. 0, 1
 * when --help or -h was asked for, or -1 with the reason in err ("--pages wants 1..1048576,
 * not 'x'", "unknown option '--bogus'", ...).
 */
int cli_parse(struct cli_parse *p, int argc, char **argv, void *base, char *err, size_t errlen);

/* 1 if the last cli_parse() of p found the option name on the command line */
int cli_given(const struct cli_parse *p, const char *name);

/* bytes as CLI_SIZE reads them ("8G", "512Mi", "1000000"): 0, or -1 */
int cli_parse_size(const char *s, uint64_t *out);

/* *limit when the command line gave one; else $BLAB_MEM_LIMIT; else 0 (the core's default:
 * half the physical memory). 0, or -1 with the reason in err (a bad $BLAB_MEM_LIMIT). */
int cli_mem_limit(uint64_t *limit, char *err, size_t errlen);

/* "[--pages N] [--csv] ..." for the rows in the mask, wrapped at 80 columns after a first
 * line that starts with lead; indent: the continuation lines' indent */
void cli_synopsis(FILE *f, const struct cli_parse *p, const char *lead, unsigned indent);

/* the option list of --help: each row in the mask, its value, its help and its default */
void cli_help(FILE *f, const struct cli_parse *p);

/* "key":value, for each row in the mask with a json key, in table order (flags: true or
 * false; CLI_JSON_IF_SET ones only when given; names: the first name, as a string) */
void cli_json(FILE *f, const struct cli_parse *p, const void *base);

#endif
