/*
 * blab_histtext.h - latency histograms a real kernel's tools printed, read from their text:
 * BCC's funclatency (log2 buckets, "nsecs"/"usecs"/"msecs : count distribution") and
 * bpftrace's hist() ("[4, 8)  count |@@@|") and lhist() (linear buckets, "(..., 0)" and
 * "[100, ...)" at the ends), so a model run's histogram of the same function can be drawn
 * over them (docs/import.md, "Latency histograms"). The parser is src/trace/histtext.c.
 *
 * All or nothing: a file with a bad histogram is refused whole, with the line and the reason,
 * and nothing of it is returned.
 */
#ifndef BLAB_HISTTEXT_H
#define BLAB_HISTTEXT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* bounds (docs/limits.md) */
#define BLAB_HISTTEXT_MAX_LINE (1u << 20)    /* bytes in a line */
#define BLAB_HISTTEXT_MAX_INPUT (16u << 20)  /* bytes in all */
#define BLAB_HISTTEXT_MAX_BUCKETS 64u        /* buckets in one histogram */
#define BLAB_HISTTEXT_MAX_HISTS 64u          /* histograms in one input */
#define BLAB_HISTTEXT_NAME 64u               /* a function or map name, NUL included */

enum blab_histtext_kind {
	BLAB_HISTTEXT_FUNCLATENCY = 1, /* BCC print_log2_hist(): log2 buckets */
	BLAB_HISTTEXT_HIST = 2,        /* bpftrace hist(): log2 buckets */
	BLAB_HISTTEXT_LHIST = 3,       /* bpftrace lhist(): linear buckets of one step */
};

struct blab_histtext_bucket {
	uint64_t lo, hi;   /* the values it holds, lo .. hi inclusive */
	uint64_t count;
	uint8_t below;     /* lhist's (..., lo): every value under hi + 1 */
	uint8_t above;     /* lhist's [lo, ...): every value from lo up (hi is UINT64_MAX) */
};

struct blab_histtext_hist {
	uint8_t kind;                     /* enum blab_histtext_kind */
	char name[BLAB_HISTTEXT_NAME];    /* the function (funclatency) or the map ("@ns") */
	char unit[8];                     /* "nsecs", "usecs", "msecs", or "" when not said */
	uint32_t line;                    /* the line of its header */
	uint32_t nbuckets;
	struct blab_histtext_bucket bucket[BLAB_HISTTEXT_MAX_BUCKETS];
	uint64_t total;                   /* the buckets' counts together */
	uint64_t step;                    /* lhist: its buckets' width */
	/* the model's calls it compares with (blab_latency_mask_for_function() of the
	 * function the name names), 0 when it names none */
	uint32_t model_mask;
	char function[BLAB_HISTTEXT_NAME]; /* that function, or "" */
};

struct blab_histtext {
	uint32_t nhists;
	struct blab_histtext_hist hist[BLAB_HISTTEXT_MAX_HISTS];
	uint32_t lines;
};

/* 1 when text holds the header of a histogram this parser reads (a quick look, for choosing
 * between it and the kmem trace parser), else 0 */
int blab_histtext_sniff(const char *text, size_t len);

/* Reads text (len bytes, \n or \r\n line ends). 0 with *out (blab_histtext_free() it), or a
 * negative BLAB_E* code with *out NULL and "line N: why" (or why) in err: BLAB_EINVAL for a
 * bad histogram, no histogram at all or bad arguments, BLAB_ELIMIT past a bound,
 * BLAB_ENOMEMHOST. */
int blab_histtext_parse(const char *text, size_t len, struct blab_histtext **out, char *err,
			size_t errlen);
void blab_histtext_free(struct blab_histtext *h);

/* The histograms as text (each its kind, name, unit, model series and buckets) or as one JSON
 * object ({"histograms":[{"kind":"funclatency","name":..,"unit":..,"function":..,
 * "model":["rmqueue_bulk"],"total":N,"step":S,"buckets":[[lo,hi,count],..]}]}; an open end is
 * null). Like snprintf, return the length needed. */
size_t blab_histtext_text(const struct blab_histtext *h, char *buf, size_t cap);
size_t blab_histtext_json(const struct blab_histtext *h, char *buf, size_t cap);

#ifdef __cplusplus
}
#endif
#endif
