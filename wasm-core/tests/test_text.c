/*
 * test_text.c - names and echoed input cannot hide what they hold (src/text.c): a name the
 * core keeps refuses control, bidirectional and invisible characters; an echo spells them
 * out, and keeps every other character (UTF-8 included) as it is.
 */
#include "common.h"
#include "blab_slab.h"

static void names(void)
{
	CHECK(blab_name_ok("kmalloc-256"));
	CHECK(blab_name_ok("caché")); /* UTF-8 is fine */
	CHECK(blab_name_ok(""));
	CHECK(!blab_name_ok(NULL));
	CHECK(!blab_name_ok("evil\xe2\x80\xaegnp.exe"));  /* U+202E RIGHT-TO-LEFT OVERRIDE */
	CHECK(!blab_name_ok("a\xe2\x81\xa6" "b"));          /* U+2066 LEFT-TO-RIGHT ISOLATE */
	CHECK(!blab_name_ok("a\xe2\x80\x8f"));              /* U+200F RIGHT-TO-LEFT MARK */
	CHECK(!blab_name_ok("\xef\xbb\xbfname"));           /* U+FEFF byte order mark */
	CHECK(!blab_name_ok("a\xe2\x80\x8b" "b"));          /* U+200B ZERO WIDTH SPACE */
	CHECK(!blab_name_ok("tab\there"));
	CHECK(!blab_name_ok("esc\x1b[2J"));
	CHECK(!blab_name_ok("c1\xc2\x9b"));                 /* U+009B, a C1 control */
	CHECK(!blab_name_ok("bad\xff"));                    /* not UTF-8 */
	CHECK(!blab_name_ok("over\xc0\xaf"));               /* overlong '/' */
	CHECK(!blab_name_ok("sur\xed\xa0\x80"));            /* a surrogate */
	CHECK(!blab_name_ok("cut\xe2\x80"));                /* a sequence cut short */
}

static void escapes(void)
{
	char buf[64];
	CHECK_EQ(blab_text_escape(buf, sizeof(buf), "v4.16 é"), strlen("v4.16 é"));
	CHECK(strcmp(buf, "v4.16 é") == 0);
	blab_text_escape(buf, sizeof(buf), "v4\xe2\x80\xae.61");
	CHECK(strcmp(buf, "v4\\u{202E}.61") == 0);
	blab_text_escape(buf, sizeof(buf), "\xef\xbb\xbfzone\x1b\x7f\xff");
	CHECK(strcmp(buf, "\\u{FEFF}zone\\x1b\\x7f\\xff") == 0);
	/* cut short on whole characters, the length says what it would have been */
	CHECK_EQ(blab_text_escape(buf, 8, "ab\xe2\x80\xae" "cd"), 12);
	CHECK(strcmp(buf, "ab") == 0);
	CHECK_EQ(blab_text_escape(NULL, 0, "abc"), 3);
}

static void slab_cache_names(void)
{
	struct blab_zone_config cfg;
	struct blab_zone *z;
	uint32_t id;

	blab_zone_config_init(&cfg);
	cfg.pages = 4096;
	CHECK_EQ(blab_zone_create(&cfg, &z), 0);
	CHECK_EQ(blab_kmem_cache_create(z, "evil\xe2\x80\xae" "tad", 64, BLAB_SLAB_ORDER_AUTO, 0,
					&id),
		 BLAB_EINVAL);
	CHECK_EQ(blab_kmem_cache_create(z, "bell\a", 64, BLAB_SLAB_ORDER_AUTO, 0, &id), BLAB_EINVAL);
	CHECK_EQ(blab_kmem_cache_create(z, "kmalloc-64", 64, BLAB_SLAB_ORDER_AUTO, 0, &id), 0);
	blab_zone_destroy(z);
}

int main(void)
{
	names();
	escapes();
	slab_cache_names();
	return harness_report("test_text");
}
