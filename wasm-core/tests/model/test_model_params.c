/* Parameters: defaults, CPU -> core -> socket map, the key = value file format. */
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "machine/model/model.h"

static int parse(struct model_params *p, const char *text, char *err)
{
	return model_params_parse(p, text, strlen(text), err, 256);
}

static void expect_error(const char *text, const char *want)
{
	struct model_params p, before;
	char err[256] = "";
	model_params_default(&p);
	p.mem_cycles = 123; /* must survive a failed parse */
	before = p;
	CHECK_EQ(parse(&p, text, err), -1);
	if (strcmp(err, want)) {
		fprintf(stderr, "got \"%s\", want \"%s\"\n", err, want);
		CHECK(0);
	}
	CHECK(memcmp(&p, &before, sizeof(p)) == 0);
}

static void test_defaults(void)
{
	struct model_params p;
	char err[256];
	model_params_default(&p);
	CHECK_EQ(model_params_check(&p, err, sizeof(err)), 0);
	CHECK_EQ(model_cpus_max(&p), 112);
	CHECK_EQ(p.l1_bytes, 32768);
	CHECK_EQ(p.l2_bytes, 1048576);
	CHECK_EQ(p.llc_bytes_per_core, 1441792);
	/* Linux numbering on 2S Intel: first threads of socket 0, of socket 1, then siblings */
	CHECK_EQ(model_cpu_socket(&p, 0), 0);
	CHECK_EQ(model_cpu_socket(&p, 27), 0);
	CHECK_EQ(model_cpu_socket(&p, 28), 1);
	CHECK_EQ(model_cpu_core(&p, 56), 0);
	CHECK_EQ(model_cpu_socket(&p, 56), 0);
	CHECK_EQ(model_cpu_core(&p, 111), 55);
	CHECK_EQ(model_cpu_socket(&p, 111), 1);
}

static void test_parse_ok(void)
{
	struct model_params p, d;
	char err[256] = "";
	model_params_default(&p);
	model_params_default(&d);
	CHECK_EQ(parse(&p, "# calibrated\n\n  l1_cycles = 5 # measured\r\nmem_cycles=300\n\t\n", err),
		 0);
	CHECK_EQ(p.l1_cycles, 5);
	CHECK_EQ(p.mem_cycles, 300);
	d.l1_cycles = 5;
	d.mem_cycles = 300;
	CHECK(memcmp(&p, &d, sizeof(p)) == 0); /* nothing else moved */
	CHECK_EQ(parse(&p, "", err), 0);          /* empty file: keep everything */
	CHECK_EQ(parse(&p, "llc_victim = 0", err), 0); /* no final newline */
	CHECK_EQ(p.llc_victim, 0);
}

static void test_parse_errors(void)
{
	expect_error("bogus = 1\n", "line 1: unknown key: bogus");
	expect_error("\nl1_cycles = abc\n", "line 2: value is not a decimal integer for: l1_cycles");
	expect_error("l1_cycles\n", "line 1: expected key = value");
	expect_error(" = 4\n", "line 1: missing key");
	expect_error("l1_cycles =\n", "line 1: missing value for: l1_cycles");
	expect_error("l1_cycles = 4\n# again\nl1_cycles = 5\n", "line 3: duplicate key: l1_cycles");
	expect_error("llc_victim = 2\n", "line 1: value out of range [0, 1] for: llc_victim");
	expect_error("mem_cycles = -1\n", "line 1: value is not a decimal integer for: mem_cycles");
	expect_error("mem_cycles = 99999999999999999999\n",
		     "line 1: value out of range [0, 100000] for: mem_cycles");
	expect_error("l1_cycles = 4 4\n", "line 1: value is not a decimal integer for: l1_cycles");
	/* each line is valid; together they are not */
	expect_error("sockets = 8\ncores_per_socket = 64\n",
		     "line 2: sockets * cores_per_socket exceeds 256 cores (sockets = 8 on line 1, "
		     "cores_per_socket = 64 on line 2)");
	expect_error("# L1\nl1_ways = 3\n\n", "line 2: l1_bytes must be 64 * l1_ways * a power of two "
		     "sets (l1_bytes = 32768 by default, l1_ways = 3 on line 2)");
	expect_error("llc_ways = 64\ncores_per_socket = 1\nllc_bytes_per_core = 2048\nsockets = 1\n",
		     "line 3: llc smaller than one set (llc_bytes_per_core = 2048 on line 3, "
		     "cores_per_socket = 1 on line 2, llc_ways = 64 on line 1)");

	/* a UTF-8 byte order mark is not part of the first key; line numbers stay */
	struct model_params p;
	char err[256] = "";
	model_params_default(&p);
	CHECK_EQ(parse(&p, "\xef\xbb\xbfmem_cycles = 123\n", err), 0);
	CHECK_EQ(p.mem_cycles, 123);
	expect_error("\xef\xbb\xbf\nbogus = 1\n", "line 2: unknown key: bogus");
	expect_error("mem_cycles = 1\n\xef\xbb\xbfl1_cycles = 2\n", "line 2: unknown key: \xef\xbb\xbfl1_cycles");

	char longline[400];
	memset(longline, ' ', sizeof(longline));
	memcpy(longline + 300, "l1_cycles = 4\n", 15);
	expect_error(longline, "line 1: line longer than 256 bytes");
}

static void test_write_roundtrip(void)
{
	struct model_params p, q;
	char buf[2048], err[128] = "";
	model_params_default(&p);
	p.mem_cycles = 311;
	p.llc_victim = 0;
	size_t n = model_params_write(&p, buf, sizeof(buf));
	CHECK(n < sizeof(buf));
	CHECK_EQ(strlen(buf), n);
	CHECK(strstr(buf, "mem_cycles = 311\n") != NULL);
	model_params_default(&q);
	CHECK_EQ(model_params_parse(&q, buf, n, err, sizeof(err)), 0);
	CHECK(memcmp(&p, &q, sizeof(p)) == 0);

	char small[16];
	CHECK_EQ(model_params_write(&p, small, sizeof(small)), n); /* length it needed */
	CHECK(strlen(small) < sizeof(small));
}

/* Every key is documented in docs/model.md (found from this file's path), with its default. */
static void test_documented(void)
{
	char path[1024], doc[65536], buf[4096];
	const char *me = __FILE__, *cut = strstr(me, "wasm-core/tests/model/");
	CHECK(cut != NULL);
	if (!cut)
		return;
	snprintf(path, sizeof(path), "%.*sdocs/model.md", (int)(cut - me), me);
	FILE *f = fopen(path, "rb");
	CHECK(f != NULL);
	if (!f)
		return;
	size_t n = fread(doc, 1, sizeof(doc) - 1, f);
	fclose(f);
	doc[n] = 0;

	struct model_params p;
	model_params_default(&p);
	model_params_write(&p, buf, sizeof(buf));
	for (char *line = strtok(buf, "\n"); line; line = strtok(NULL, "\n")) {
		char key[64], want[80];
		unsigned value;
		CHECK_EQ(sscanf(line, "%63s = %u", key, &value), 2);
		snprintf(want, sizeof(want), "`%s`", key);
		if (!strstr(doc, want)) {
			fprintf(stderr, "docs/model.md does not mention %s\n", want);
			CHECK(0);
		}
	}
}

/* The whole file is bounded: blank lines and comments count too. */
static void test_file_size(void)
{
	static char text[MODEL_PARAMS_FILE_MAX + 2];
	struct model_params p;
	char err[256] = "";
	model_params_default(&p);
	memset(text, '\n', MODEL_PARAMS_FILE_MAX);
	memcpy(text, "mem_cycles = 99\n", 16);
	CHECK_EQ(model_params_parse(&p, text, MODEL_PARAMS_FILE_MAX, err, sizeof(err)), 0);
	CHECK_EQ(p.mem_cycles, 99);
	text[MODEL_PARAMS_FILE_MAX] = '\n';
	expect_error(text, "line 0: file larger than 16384 bytes");
	CHECK_EQ(model_params_parse(&p, NULL, 1, err, sizeof(err)), -1);
	CHECK_EQ(model_params_parse(&p, NULL, 0, err, sizeof(err)), 0); /* empty: defaults */
}

/* What blab calibrate writes for a one-socket, two-core machine is a valid file, and it sets
 * the modelled topology. */
static void test_two_core_machine(void)
{
	struct model_params p;
	char err[256] = "";
	model_params_default(&p);
	CHECK_EQ(parse(&p, "sockets = 1\ncores_per_socket = 2\nthreads_per_core = 1\n"
			   "llc_bytes_per_core = 18743296\nllc_ways = 11\n", err), 0);
	CHECK_EQ(model_cpus_max(&p), 2);
	CHECK_EQ(model_cpu_core(&p, 1), 1);
	CHECK_EQ(model_cpu_socket(&p, 1), 0);
}

int main(void)
{
	test_file_size();
	test_two_core_machine();
	test_documented();
	test_defaults();
	test_parse_ok();
	test_parse_errors();
	test_write_roundtrip();
	return harness_report("test_model_params");
}
