/*
 * list.h - doubly linked lists by index, the shape of the kernel's list_head (list_add = at
 * the head, list_add_tail = at the tail) with uint32_t links instead of pointers, as SQLite's
 * mem5 links its free blocks: JavaScript reads the same arrays straight out of WASM memory,
 * and no host address ever decides an order.
 *
 * The nodes are the entries of one array, each holding a struct blab_links somewhere inside;
 * `nodes` points at entry 0's links and `stride` is the size of an entry, so node i's links
 * sit at nodes + i * stride. Inline, like the kernel's: the pcp hit (mm/pcp.h) is a handful
 * of these stores, and with a constant stride they compile to what hand-written code would.
 */
#ifndef BLAB_BASE_LIST_H
#define BLAB_BASE_LIST_H

#include <stddef.h>
#include <stdint.h>

#define NIL 0xffffffffu /* end of a list */

struct blab_list {
	uint32_t head, tail;
};

struct blab_links {
	uint32_t next, prev;
};

static inline struct blab_links *list_node(void *nodes, size_t stride, uint32_t idx)
{
	return (struct blab_links *)((char *)nodes + (size_t)idx * stride);
}

static inline void blab_list_init(struct blab_list *l)
{
	l->head = NIL;
	l->tail = NIL;
}

static inline int list_empty(const struct blab_list *l)
{
	return l->head == NIL;
}

static inline void blab_list_add(void *nodes, size_t stride, struct blab_list *l, uint32_t idx)
{
	struct blab_links *p = list_node(nodes, stride, idx);
	p->prev = NIL;
	p->next = l->head;
	if (l->head != NIL)
		list_node(nodes, stride, l->head)->prev = idx;
	else
		l->tail = idx;
	l->head = idx;
}

static inline void blab_list_add_tail(void *nodes, size_t stride, struct blab_list *l,
				      uint32_t idx)
{
	struct blab_links *p = list_node(nodes, stride, idx);
	p->next = NIL;
	p->prev = l->tail;
	if (l->tail != NIL)
		list_node(nodes, stride, l->tail)->next = idx;
	else
		l->head = idx;
	l->tail = idx;
}

static inline void blab_list_del(void *nodes, size_t stride, struct blab_list *l, uint32_t idx)
{
	struct blab_links *p = list_node(nodes, stride, idx);
	if (p->prev != NIL)
		list_node(nodes, stride, p->prev)->next = p->next;
	else
		l->head = p->next;
	if (p->next != NIL)
		list_node(nodes, stride, p->next)->prev = p->prev;
	else
		l->tail = p->prev;
	p->next = NIL;
	p->prev = NIL;
}

/* insert idx right after `after` (a node already on l) */
static inline void blab_list_add_after(void *nodes, size_t stride, struct blab_list *l,
				       uint32_t after, uint32_t idx)
{
	struct blab_links *p = list_node(nodes, stride, idx);
	struct blab_links *a = list_node(nodes, stride, after);
	p->prev = after;
	p->next = a->next;
	if (a->next != NIL)
		list_node(nodes, stride, a->next)->prev = idx;
	else
		l->tail = idx;
	a->next = idx;
}

#endif
