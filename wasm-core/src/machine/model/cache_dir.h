/*
 * cache_dir.h - the directory: what the model knows of each line, its version and the CPU
 * that holds it Modified (coherence by versions, cache.c). struct page lines have a dense
 * entry indexed by pfn; every other line shares a fixed-size, direct-mapped hashed part,
 * where a collision forgets the old line (its copies go stale: counted in dir_forgotten).
 * Every access looks its line up, so the lookup is here; cache_dir.c makes and sizes the
 * directory.
 */
#ifndef BLAB_CACHE_DIR_H
#define BLAB_CACHE_DIR_H

#include "cache_private.h"

/* a line of a frame cache_clear_page() may be asked to clear (cache_set_frames) */
static inline uint32_t is_frame_line(const struct cache_model *m, uint64_t line)
{
	return line && line >= m->frame_lo_line && line < m->frame_hi_line;
}

/* dir_get() of a line outside the dense struct page range: its hashed slot, taken over
 * (forgetting the line that had it) when another line has it. Rare, so out of line; but
 * static, a function of the file that calls it, so that the compiler allocates the access
 * path's registers knowing which this one clobbers (as an extern function it recompiled
 * the whole path with other registers). Unused in the files that do not call dir_get(). */
static __attribute__((unused)) struct cache_dir_page *dir_get_hashed(struct cache_model *m,
								      uint64_t line)
{
	uint32_t h = (uint32_t)((line * 0x9E3779B97F4A7C15ull) >> 32) & m->dir_hash_mask;
	struct cache_dir_entry *e = &m->dir_hash[h];
	if (e->line != line) {
		if (e->line)
			m->dir_forgotten++;
		else
			m->dir_hash_live++;
		m->dir_frame_live -= is_frame_line(m, e->line);
		m->dir_frame_live += is_frame_line(m, line);
		e->line = line;
		e->e.ver = ++m->ver_clock;
		e->e.owner = MODEL_NO_CPU;
		e->e.own_core = MODEL_NO_CPU;
	}
	return &e->e;
}

/* The entry of a line, made when the directory does not know it yet. (cache_dir_find(),
 * model.h, looks without making or forgetting anything.) */
HOT struct cache_dir_page *dir_get(struct cache_model *m, uint64_t line)
{
	uint64_t i = line - m->dir_base_line;
	if (i < m->dir_npages)
		return &m->dir_pages[i];
	uint32_t h = (uint32_t)((line * 0x9E3779B97F4A7C15ull) >> 32) & m->dir_hash_mask;
	if (m->dir_hash[h].line == line)
		return &m->dir_hash[h].e;
	return dir_get_hashed(m, line);
}

/*
 * Is a copy filled at version ver current? In an L1 only when ver is the line's version
 * (an ownership change updates the writer's L1 copy at once). In an L2 or LLC also when
 * the line's last ownership change was by this core, or by a core of this socket: such a
 * change makes every copy the writer's core and socket hold current, which is recorded
 * once in the directory (own_core) instead of in each copy (take_ownership).
 */
static inline int l2_current(const struct cache_dir_page *d, uint32_t core, uint32_t ver)
{
	return ver == d->ver || d->own_core == core;
}

static inline int llc_current(const struct cache_model *m, const struct cache_dir_page *d,
			      uint32_t socket, uint32_t ver)
{
	return ver == d->ver ||
	       (d->own_core != MODEL_NO_CPU && m->core_socket[d->own_core] == socket);
}

/* The L2 of `core` evicted a copy of line at version ver: its directory entry when that
 * copy was current (a victim LLC takes it then), else NULL */
static inline const struct cache_dir_page *l2_victim_current(const struct cache_model *m,
							      uint64_t line, uint32_t core,
							      uint32_t ver)
{
	const struct cache_dir_page *d = cache_dir_find(m, line);
	return d && l2_current(d, core, ver) ? d : NULL;
}

/* The dense entries of pfns first_pfn .. first_pfn + npages - 1 and dir_hash_lines hashed
 * slots (0: 65536; rounded up to a power of two), made empty; 0 or -1 (cache_dir.c) */
int _cache_dir_init(struct cache_model *m, uint64_t first_pfn, uint64_t npages,
		    uint32_t dir_hash_lines);
/* the host bytes _cache_dir_init() takes */
uint64_t _cache_dir_bytes(uint64_t npages, uint32_t dir_hash_lines);

#endif
