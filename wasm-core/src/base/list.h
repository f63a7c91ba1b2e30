/*
 * list.h - doubly linked lists of pages by index, the shape of the kernel's list_head
 * (list_add = at the head, list_add_tail = at the tail) with uint32_t links. Inline, like the
 * kernel's: the pcp fast path (fastpath.h) and the op machinery share these few stores.
 * Included by internal.h after struct blab_zone.
 */
#ifndef BLAB_LIST_H
#define BLAB_LIST_H

static inline void _blab_list_init(struct blab_list *l)
{
	l->head = NIL;
	l->tail = NIL;
}

static inline void _blab_list_add(struct blab_zone *z, struct blab_list *l, uint32_t idx)
{
	struct page *p = &z->mem_map[idx];
	p->prev = NIL;
	p->next = l->head;
	if (l->head != NIL)
		z->mem_map[l->head].prev = idx;
	else
		l->tail = idx;
	l->head = idx;
}

static inline void _blab_list_add_tail(struct blab_zone *z, struct blab_list *l, uint32_t idx)
{
	struct page *p = &z->mem_map[idx];
	p->next = NIL;
	p->prev = l->tail;
	if (l->tail != NIL)
		z->mem_map[l->tail].next = idx;
	else
		l->head = idx;
	l->tail = idx;
}

static inline void _blab_list_del(struct blab_zone *z, struct blab_list *l, uint32_t idx)
{
	struct page *p = &z->mem_map[idx];
	if (p->prev != NIL)
		z->mem_map[p->prev].next = p->next;
	else
		l->head = p->next;
	if (p->next != NIL)
		z->mem_map[p->next].prev = p->prev;
	else
		l->tail = p->prev;
	p->next = NIL;
	p->prev = NIL;
}

/* insert idx right after `after` (a page already on l) */
static inline void _blab_list_add_after(struct blab_zone *z, struct blab_list *l, uint32_t after, uint32_t idx)
{
	struct page *p = &z->mem_map[idx];
	struct page *a = &z->mem_map[after];
	p->prev = after;
	p->next = a->next;
	if (a->next != NIL)
		z->mem_map[a->next].prev = idx;
	else
		l->tail = idx;
	a->next = idx;
}

static inline int list_empty(const struct blab_list *l) { return l->head == NIL; }

#endif
