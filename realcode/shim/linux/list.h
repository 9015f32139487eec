/* SPDX-License-Identifier: MIT */
/*
 * realcode shim: doubly linked lists (wpsim's own text).  Plain C
 * accesses, so the instrumentation sees each one; list_empty reads with
 * READ_ONCE as the kernel's does.
 */
#ifndef RC_LIST_H
#define RC_LIST_H
#include "rc-kernel.h"
#define LIST_HEAD_INIT(name) { &(name), &(name) }
#define LIST_HEAD(name) struct list_head name = LIST_HEAD_INIT(name)
static inline void INIT_LIST_HEAD(struct list_head *l)
{
	WRITE_ONCE(l->next, l);
	WRITE_ONCE(l->prev, l);
}
static inline void rc_list_link(struct list_head *n, struct list_head *prev,
				struct list_head *next)
{
	next->prev = n;
	n->next = next;
	n->prev = prev;
	WRITE_ONCE(prev->next, n);
}
static inline void list_add(struct list_head *n, struct list_head *h)
{
	rc_list_link(n, h, h->next);
}
static inline void list_add_tail(struct list_head *n, struct list_head *h)
{
	rc_list_link(n, h->prev, h);
}
static inline void rc_list_unlink(struct list_head *prev,
				  struct list_head *next)
{
	next->prev = prev;
	WRITE_ONCE(prev->next, next);
}
static inline void list_del(struct list_head *e)
{
	rc_list_unlink(e->prev, e->next);
	e->next = (struct list_head *)0x100;
	e->prev = (struct list_head *)0x122;
}
static inline void list_del_init(struct list_head *e)
{
	rc_list_unlink(e->prev, e->next);
	INIT_LIST_HEAD(e);
}
static inline void list_move_tail(struct list_head *e, struct list_head *h)
{
	rc_list_unlink(e->prev, e->next);
	list_add_tail(e, h);
}
static inline void list_move(struct list_head *e, struct list_head *h)
{
	rc_list_unlink(e->prev, e->next);
	list_add(e, h);
}
static inline bool list_empty(const struct list_head *h)
{
	return READ_ONCE(h->next) == h;
}
static inline bool list_is_singular(const struct list_head *h)
{
	return !list_empty(h) && h->next == h->prev;
}
static inline bool list_is_last(const struct list_head *l,
				const struct list_head *h)
{
	return l->next == h;
}
static inline bool list_is_first(const struct list_head *l,
				 const struct list_head *h)
{
	return l->prev == h;
}
#define list_entry(ptr, type, member) container_of(ptr, type, member)
#define list_first_entry(ptr, type, member) list_entry((ptr)->next, type, member)
#define list_last_entry(ptr, type, member) list_entry((ptr)->prev, type, member)
#define list_first_entry_or_null(ptr, type, member)			\
	({ struct list_head *rc_h_ = (ptr); struct list_head *rc_n_ = READ_ONCE(rc_h_->next); \
	   rc_n_ != rc_h_ ? list_entry(rc_n_, type, member) : NULL; })
#define list_next_entry(pos, member)					\
	list_entry((pos)->member.next, __typeof__(*(pos)), member)
#define list_entry_is_head(pos, head, member) (&(pos)->member == (head))
#define list_for_each(pos, head)					\
	for (pos = (head)->next; pos != (head); pos = pos->next)
#define list_for_each_entry(pos, head, member)				\
	for (pos = list_first_entry(head, __typeof__(*pos), member);	\
	     !list_entry_is_head(pos, head, member);			\
	     pos = list_next_entry(pos, member))
#define list_for_each_entry_safe(pos, n, head, member)			\
	for (pos = list_first_entry(head, __typeof__(*pos), member),	\
	     n = list_next_entry(pos, member);				\
	     !list_entry_is_head(pos, head, member);			\
	     pos = n, n = list_next_entry(n, member))
static inline void list_cut_before(struct list_head *list,
				   struct list_head *head,
				   struct list_head *entry)
{
	if (head->next == entry) {
		INIT_LIST_HEAD(list);
		return;
	}
	list->next = head->next;
	list->next->prev = list;
	list->prev = entry->prev;
	list->prev->next = list;
	head->next = entry;
	entry->prev = head;
}
#endif
