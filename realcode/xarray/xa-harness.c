// SPDX-License-Identifier: MIT
/*
 * realcode/xarray/xa-harness.c - what lib/xarray.c needs from the rest of
 * the kernel (radix_tree_node_cachep, radix_tree_node_rcu_free), names
 * for the words of its objects, and the checks that read an XArray
 * without scheduling points (peek, the mark invariants, xa_dump).
 *
 * Models: lib/radix-tree.c's node cache and radix_tree_node_rcu_free
 * (v6.12: a node goes back to the cache zeroed, with its private_list
 * empty; here every allocation is zeroed and its list initialised, as
 * the cache's constructor radix_tree_node_ctor does, and a freed node is
 * poisoned).  The invariants are the XArray's documented meaning of
 * marks (Documentation/core-api/xarray.rst, v6.12).
 * Leaves out: the radix-tree API itself (lib/radix-tree.c is not built).
 */
#include <stdio.h>
#include <string.h>

#include <linux/xarray.h>
#include <linux/slab.h>
#include "radix-tree.h"

#include "realcode/xa.h"

static void node_namer(char *buf, size_t size, size_t o)
{
	if (o < offsetof(struct xa_node, parent))
		snprintf(buf, size, "shift_offset_count_nr_values");
	else if (o < offsetof(struct xa_node, array))
		snprintf(buf, size, "parent");
	else if (o < offsetof(struct xa_node, private_list))
		snprintf(buf, size, "array");
	else if (o < offsetof(struct xa_node, slots))
		snprintf(buf, size, "private_list");
	else if (o < offsetof(struct xa_node, marks))
		snprintf(buf, size, "slots[%zu]",
			 (o - offsetof(struct xa_node, slots)) / sizeof(void *));
	else
		snprintf(buf, size, "marks[%zu]",
			 (o - offsetof(struct xa_node, marks)) /
			 sizeof(unsigned long) / XA_MARK_LONGS);
}

static void node_ctor(void *p)
{
	struct xa_node *node = p;

	/* radix_tree_node_ctor: zeroed (done) and an empty private_list. */
	node->private_list.next = &node->private_list;
	node->private_list.prev = &node->private_list;
}

static struct rc_cache node_cache = {
	.name = "xa_node", .size = sizeof(struct xa_node),
	.namer = node_namer, .ctor = node_ctor,
};
struct kmem_cache *radix_tree_node_cachep = &node_cache;

void radix_tree_node_rcu_free(struct rcu_head *head)
{
	struct xa_node *node = container_of(head, struct xa_node, rcu_head);

	kmem_cache_free(radix_tree_node_cachep, node);
}

static void xa_namer(char *buf, size_t size, size_t o)
{
	if (o < offsetof(struct xarray, xa_flags))
		snprintf(buf, size, "xa_lock");
	else if (o < offsetof(struct xarray, xa_head))
		snprintf(buf, size, "xa_flags");
	else
		snprintf(buf, size, "xa_head");
}

static struct rc_cache xa_cache = {
	.name = "xa", .size = sizeof(struct xarray), .namer = xa_namer,
};

struct xarray *rcx_new(void)
{
	struct xarray *xa;

	rcx_writers = 0;
	node_cache.allocs = 0;
	xa_cache.allocs = 0;
	xa = rc_alloc(&xa_cache, 0, NULL);
	xa_init(xa);
	return xa;
}

/* ---- peeking (no points) ----------------------------------------------- */

static bool bit(const unsigned long *marks, unsigned int o)
{
	return (marks[o / BITS_PER_LONG] >> (o % BITS_PER_LONG)) & 1;
}

static bool any(const struct xa_node *node, unsigned int m)
{
	for (unsigned int i = 0; i < XA_MARK_LONGS; i++)
		if (node->marks[m][i])
			return true;
	return false;
}

bool rcx_locked(struct xarray *xa)
{
	return rc_spin_is_locked(&xa->xa_lock.rc);
}

unsigned long rcx_peek(struct xarray *xa, unsigned long index,
		       unsigned int *marks)
{
	void *entry = xa->xa_head;
	struct xa_node *node;

	*marks = 0;
	if (!xa_is_node(entry)) {
		if (index || !entry)
			return 0;
		for (unsigned int m = 0; m <= 2; m++)
			if (xa->xa_flags & XA_FLAGS_MARK((xa_mark_t)m))
				*marks |= 1u << m;
		return xa_is_value(entry) ? xa_to_value(entry) : 0;
	}
	node = xa_to_node(entry);
	if ((index >> node->shift) > XA_CHUNK_MASK)
		return 0;
	for (;;) {
		unsigned int o = (index >> node->shift) & XA_CHUNK_MASK;

		entry = node->slots[o];
		if (xa_is_sibling(entry)) {
			o = xa_to_sibling(entry);
			entry = node->slots[o];
		}
		if (xa_is_node(entry) && node->shift) {
			node = xa_to_node(entry);
			continue;
		}
		for (unsigned int m = 0; m <= 2; m++)
			if (bit(node->marks[m], o))
				*marks |= 1u << m;
		return entry && xa_is_value(entry) ? xa_to_value(entry) : 0;
	}
}

static char why[256];

static const char *check_node(const struct xa_node *node)
{
	for (unsigned int o = 0; o < XA_CHUNK_SIZE; o++) {
		void *e = node->slots[o];

		for (unsigned int m = 0; m <= 2; m++) {
			bool b = bit(node->marks[m], o);

			if (b && (!e || xa_is_sibling(e))) {
				snprintf(why, sizeof(why), "mark %u on %s slot "
					 "%u of the node at shift %u (index %lu)",
					 m, e ? "a sibling" : "an empty", o,
					 node->shift, (node->offset * 1UL <<
					 (node->shift + XA_CHUNK_SHIFT)) +
					 ((unsigned long)o << node->shift));
				return why;
			}
			if (e && xa_is_node(e) && node->shift &&
			    b != any(xa_to_node(e), m)) {
				snprintf(why, sizeof(why), "slot %u of the node "
					 "at shift %u %s mark %u, its child %s",
					 o, node->shift, b ? "has" : "lacks", m,
					 b ? "has none" : "has some");
				return why;
			}
		}
		if (e && xa_is_node(e) && node->shift) {
			const char *w = check_node(xa_to_node(e));

			if (w)
				return w;
		}
	}
	return NULL;
}

const char *rcx_marks_broken(struct xarray *xa)
{
	void *head = xa->xa_head;

	for (unsigned int m = 0; m <= 2; m++) {
		bool root = xa->xa_flags & XA_FLAGS_MARK((xa_mark_t)m);

		if (!head && root) {
			snprintf(why, sizeof(why), "mark %u on an empty array",
				 m);
			return why;
		}
		if (xa_is_node(head) && root != any(xa_to_node(head), m)) {
			snprintf(why, sizeof(why), "root mark %u %s, the top "
				 "node %s", m, root ? "set" : "clear",
				 root ? "has none" : "has some");
			return why;
		}
	}
	return xa_is_node(head) ? check_node(xa_to_node(head)) : NULL;
}

void rcx_dump(struct xarray *xa)
{
	for (unsigned long i = 0; i < 64; i++) {
		unsigned int marks;
		unsigned long v = rcx_peek(xa, i, &marks);

		if (v || marks)
			fprintf(stderr, "  [%lu] = %lu marks %u\n", i, v, marks);
	}
}
