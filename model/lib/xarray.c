// SPDX-License-Identifier: MIT
/*
 * model/lib/xarray.c - the page cache's slots and marks (the xarray's
 * entries and tags), and the index of the marks a long run keeps.
 *
 * Models the operations of lib/xarray.c, v6.18, as the page cache uses
 * them: loads and stores of entries, xa_get_mark, __xa_set_mark and
 * __xa_clear_mark under the xa_lock, and the search for the next marked
 * entry (xas_find_marked).  Each slot (struct km_xa_slot) is an entry
 * word and a marks word, so an entry or mark access is one scheduling
 * point.  The slots come in blocks of M_XA_BLOCK (4; the kernel's
 * XA_CHUNK_SIZE is 64) indices, found by block number in a per-mapping
 * hash table of the blocks there are (struct m_xa_blocks, open
 * addressing): an exploration makes them all at setup; a long timed run
 * makes a slot at the first store of an entry or mark into it, alone
 * (a lone slot, M_XA_LONE: 32 bytes, where a block is 96) until a
 * second slot of its block is made, and frees the block when its last
 * entry is erased (a block left with one slot becomes that lone slot),
 * so memory follows the cached folios, not the file's size or how they
 * are scattered over it (the kernel frees an xa_node that empties).
 * Every access finds its slot after its point (sim_word_read_at): a
 * block another task freed or made meanwhile is seen as it is.  A long
 * run also keeps an index of each mark (mapping->mark_index: hashed
 * words of marked indices and of the words below, struct m_xa_markset)
 * so that the search skips unmarked ranges without reading their slots,
 * in memory that follows the marked indices (it was a bitmap of the
 * file with a summary level, 3 bits a page).
 *
 * Leaves out: the tree's height and inner nodes (the model's table is
 * one level, hashed: its memory follows the blocks, about 32 bytes each
 * at most half full), RCU, multi-index
 * entries (a large folio fills each of its slots), value and shadow
 * entries, XA_MARK_2 beyond the three page-cache tags.
 */
#include "model/linux/pagemap.h"
#include "model/world.h"
#include "sim/arena.h"

#include <string.h>

static unsigned long xa_blocks(void)
{
	return (m_file_pages_max + M_XA_BLOCK - 1) >> M_XA_BLOCK_SHIFT;
}

/* An empty table of 2^k >= @entries entries (at least 8). */
static void xa_table_alloc(struct m_xa_blocks *t, unsigned long entries)
{
	unsigned long size = 8;

	while (size < entries)
		size *= 2;
	t->keys = sim_arena_alloc(size * sizeof(*t->keys));
	t->blocks = sim_arena_alloc(size * sizeof(*t->blocks));
	t->mask = size - 1;
	t->count = 0;
	t->probe_max = 0;
}

static void xa_table_put(struct m_xa_blocks *t, unsigned long b,
			 struct km_xa_slot *block)
{
	unsigned long home = m_xa_blocks_home(t, b), h = home;

	while (t->blocks[h])
		h = (h + 1) & t->mask;
	t->keys[h] = (uint32_t)b;
	t->blocks[h] = block;
	t->count++;
	if (((h - home) & t->mask) > t->probe_max)
		t->probe_max = (h - home) & t->mask;
}

/* Block @b goes in @t (not there yet); past half full it doubles. */
static void xa_table_add(struct m_xa_blocks *t, unsigned long b,
			 struct km_xa_slot *block)
{
	if (2 * (t->count + 1) > t->mask + 1) {
		struct m_xa_blocks old = *t;

		xa_table_alloc(t, 2 * (old.mask + 1));
		for (unsigned long h = 0; h <= old.mask; h++)
			if (old.blocks[h])
				xa_table_put(t, old.keys[h], old.blocks[h]);
		sim_arena_free(old.keys, (old.mask + 1) * sizeof(*old.keys));
		sim_arena_free(old.blocks,
			       (old.mask + 1) * sizeof(*old.blocks));
	}
	xa_table_put(t, b, block);
}

/*
 * Block @b leaves @t: the run after it shifts back over the hole.  A
 * key at j moves into the hole at i when its home is not in (i, j],
 * that is when it sits at least j - i past its home; none sits more
 * than probe_max past it, so the walk stops probe_max past the hole
 * (the same table as walking to the run's end, in O(probe_max)).
 */
static void xa_table_remove(struct m_xa_blocks *t, unsigned long b)
{
	unsigned long i = m_xa_blocks_home(t, b), j;

	while (t->keys[i] != b || !t->blocks[i])
		i = (i + 1) & t->mask;
	t->blocks[i] = NULL;
	t->count--;
	for (j = (i + 1) & t->mask; t->blocks[j]; j = (j + 1) & t->mask) {
		unsigned long home = m_xa_blocks_home(t, t->keys[j]);

		if (((j - i) & t->mask) > t->probe_max)
			break;
		/* Stays if its home is in (i, j], cyclically. */
		if (i <= j ? (i < home && home <= j) : (i < home || home <= j))
			continue;
		t->keys[i] = t->keys[j];
		t->blocks[i] = t->blocks[j];
		t->blocks[j] = NULL;
		i = j;
	}
}

/* The table entry of block @b (there) takes @block instead. */
static void xa_table_replace(struct m_xa_blocks *t, unsigned long b,
			     struct km_xa_slot *block)
{
	unsigned long h = m_xa_blocks_home(t, b);

	while (t->keys[h] != b || !t->blocks[h])
		h = (h + 1) & t->mask;
	t->blocks[h] = block;
}

/* @n empty slots with the ids of the mapping's words. */
static struct km_xa_slot *xa_slots_alloc(struct km_address_space *mapping,
					 unsigned long n)
{
	struct km_xa_slot *slots = sim_arena_alloc(n * sizeof(*slots));

	for (unsigned long i = 0; i < n; i++) {
		slots[i].entry.id = mapping->xa_hole.entry.id;
		slots[i].marks.id = mapping->xa_hole.marks.id;
	}
	return slots;
}

/* A new block of slots: empty, with the ids of the mapping's words. */
static struct km_xa_slot *xa_block_make(struct km_address_space *mapping,
					unsigned long b)
{
	struct km_xa_slot *block = xa_slots_alloc(mapping, M_XA_BLOCK);

	xa_table_add(&mapping->i_pages, b, block);
	return block;
}

/*
 * Slot @index of a long run's @mapping, not there yet: alone if its
 * block is absent (M_XA_LONE), else its block made whole from the lone
 * slot that was there (the same words, moved: in the store's step, and
 * no task holds a slot across a point).
 */
static struct km_xa_slot *xa_slot_make(struct km_address_space *mapping,
				       pgoff_t index)
{
	struct m_xa_blocks *t = &mapping->i_pages;
	unsigned long b = index >> M_XA_BLOCK_SHIFT;
	uintptr_t p = (uintptr_t)m_xa_block(t, b);
	struct km_xa_slot *block, *lone;

	if (!p) {
		lone = xa_slots_alloc(mapping, 1);
		xa_table_add(t, b, (struct km_xa_slot *)((uintptr_t)lone |
			     M_XA_LONE | (index & (M_XA_BLOCK - 1))));
		return lone;
	}
	lone = (struct km_xa_slot *)(p & ~M_XA_TAG_MASK);
	block = xa_slots_alloc(mapping, M_XA_BLOCK);
	block[p & (M_XA_LONE - 1)] = *lone;
	xa_table_replace(t, b, block);
	sim_arena_free(lone, sizeof(*lone));
	return &block[index & (M_XA_BLOCK - 1)];
}

/*
 * The table of @mapping: in a long run, empty (blocks come with stores)
 * and all its slots one object for entries and one for marks; else
 * every block made and every slot named ("f.xa[3]", "f.marks[3]",
 * interleaved, as the ids always were).
 */
void m_xa_init(struct km_address_space *mapping, const char *name,
	       bool long_run)
{
	unsigned long blocks = xa_blocks();

	xa_table_alloc(&mapping->i_pages, long_run ? 64 : 2 * blocks);
	mapping->xa_sparse = long_run;
	mapping->xa_hole.entry.value = 0;
	mapping->xa_hole.marks.value = 0;
	if (long_run) {
		mapping->xa_hole.entry.id = sim_object_register("%s.xa", name);
		mapping->xa_hole.marks.id = sim_object_register("%s.marks",
								name);
		return;
	}
	mapping->xa_hole.entry.id = 0;
	mapping->xa_hole.marks.id = 0;
	for (unsigned long b = 0; b < blocks; b++)
		xa_block_make(mapping, b);
	for (unsigned long i = 0; i < m_file_pages_max; i++) {
		struct km_xa_slot *slot = m_xa_slot(mapping, i);

		sim_word_init(&slot->entry, 0, "%s.xa[%lu]", name, i);
		sim_word_init(&slot->marks, 0, "%s.marks[%lu]", name, i);
	}
}

/* Is block @b of @mapping there (a peek: checks, dumps, setup)? */
bool m_xa_block_present(const struct km_address_space *mapping,
			unsigned long b)
{
	return m_xa_block(&mapping->i_pages, b) != NULL;
}

/* Slot @index of @mapping, made if @make and not there; NULL if not. */
static inline struct km_xa_slot *xa_slot_at(struct km_address_space *mapping,
					    unsigned long index, bool make)
{
	struct km_xa_slot *slot = m_xa_slot_find(&mapping->i_pages, index);

	if (!slot && make)
		slot = xa_slot_make(mapping, index);
	return slot;
}

/* sim_word_where of the entries and of the marks (base: the mapping). */
static struct sim_word *xa_entry_at(void *base, unsigned long index,
				    bool make)
{
	struct km_address_space *mapping = base;
	struct km_xa_slot *slot = xa_slot_at(mapping, index, make);

	return slot ? &slot->entry : &mapping->xa_hole.entry;
}

static struct sim_word *xa_marks_at(void *base, unsigned long index,
				    bool make)
{
	struct km_address_space *mapping = base;
	struct km_xa_slot *slot = xa_slot_at(mapping, index, make);

	return slot ? &slot->marks : &mapping->xa_hole.marks;
}

/* The entry at @index (a folio id, 0 = none): one point. */
uint64_t m_xa_load_entry(struct km_address_space *mapping, pgoff_t index)
{
	return sim_word_read_at(xa_entry_at, mapping, index);
}

static inline bool xa_slot_used(const struct km_xa_slot *slot)
{
	return slot->entry.value || slot->marks.value;
}

/*
 * A long run frees block @b once a store of 0 leaves every slot of it
 * empty and unmarked (the kernel frees an xa_node that empties), and
 * keeps a block with one slot left as that lone slot (M_XA_LONE).  In
 * the store's step: no task holds a slot across a point.
 */
static void xa_block_maybe_free(struct km_address_space *mapping,
				unsigned long b)
{
	struct m_xa_blocks *t = &mapping->i_pages;
	struct km_xa_slot *block, *lone;
	unsigned long used = 0, place = 0;
	uintptr_t p;

	if (!mapping->xa_sparse)
		return;
	p = (uintptr_t)m_xa_block(t, b);
	if (!p)
		return;
	if (p & M_XA_LONE) {
		lone = (struct km_xa_slot *)(p & ~M_XA_TAG_MASK);
		if (xa_slot_used(lone))
			return;
		xa_table_remove(t, b);
		sim_arena_free(lone, sizeof(*lone));
		return;
	}
	block = (struct km_xa_slot *)p;
	for (unsigned long i = 0; i < M_XA_BLOCK; i++) {
		if (xa_slot_used(&block[i])) {
			used++;
			place = i;
		}
	}
	if (used > 1)
		return;
	if (!used) {
		xa_table_remove(t, b);
	} else {
		lone = xa_slots_alloc(mapping, 1);
		*lone = block[place];
		xa_table_replace(t, b, (struct km_xa_slot *)((uintptr_t)lone |
				 M_XA_LONE | place));
	}
	sim_arena_free(block, M_XA_BLOCK * sizeof(*block));
}

/* Store entry @id at @index (0 erases): one point. */
void m_xa_store_entry(struct km_address_space *mapping, pgoff_t index,
		      uint64_t id)
{
	sim_word_write_at(xa_entry_at, mapping, index, id);
	m_world_slot_written(mapping, index);
	if (!id)
		xa_block_maybe_free(mapping, index >> M_XA_BLOCK_SHIFT);
}

static void marks_index_update(struct km_address_space *mapping,
			       pgoff_t index, unsigned int tags);

/* Store the marks of @index (page_cache_delete's clear): one point. */
void m_xa_store_marks(struct km_address_space *mapping, pgoff_t index,
		      uint64_t marks)
{
	sim_word_write_at(xa_marks_at, mapping, index, marks);
	m_world_slot_written(mapping, index);
	if (mapping->marks_indexed)
		marks_index_update(mapping, index, 7);
	if (!marks)
		xa_block_maybe_free(mapping, index >> M_XA_BLOCK_SHIFT);
}

/* The marks of @index inside the step another primitive opened. */
uint64_t m_xa_marks_also(struct km_address_space *mapping, pgoff_t index)
{
	return sim_word_read_also_at(xa_marks_at, mapping, index);
}

bool m_xa_get_mark(struct km_address_space *mapping, pgoff_t index, int tag)
{
	if (index >= m_file_pages_max)
		return false;
	return (sim_word_read_at(xa_marks_at, mapping, index) >> tag) & 1;
}

/*
 * The long-run index of the marks (struct m_xa_markset): hashed words,
 * open addressing with linear probing, at most half full, a removal
 * shifting the run after it back (no tombstones).
 */
static inline uint32_t mw_home(const struct m_xa_mwords *t, uint32_t key)
{
	return (uint32_t)(key * 0x9e3779b1u) >> t->shift;
}

/* The entry of @key in @t, or the free entry where it would go. */
static inline uint32_t mw_find(const struct m_xa_mwords *t, uint32_t key)
{
	uint32_t h = mw_home(t, key);

	while (t->e[h].bits && t->e[h].key != key)
		h = (h + 1) & t->mask;
	return h;
}

static uint32_t mw_get(const struct m_xa_mwords *t, uint32_t key)
{
	if (!t->count)
		return 0;
	return t->e[mw_find(t, key)].bits;
}

/* @t with room for one more word (made, or doubled past half full). */
static void mw_room(struct m_xa_mwords *t)
{
	struct m_xa_mwords old = *t;
	uint32_t size;

	if (t->e && 2 * (t->count + 1) <= t->mask + 1)
		return;
	size = t->e ? 2 * (t->mask + 1) : 8;
	t->e = sim_arena_alloc(size * sizeof(*t->e));
	t->mask = size - 1;
	t->shift = 32 - (unsigned int)__builtin_ctz(size);
	for (uint32_t h = 0; old.e && h <= old.mask; h++)
		if (old.e[h].bits)
			t->e[mw_find(t, old.e[h].key)] = old.e[h];
	if (old.e)
		sim_arena_free(old.e, (old.mask + 1) * sizeof(*old.e));
}

/* Entry @i of @t leaves (its word became 0): the run after it shifts
 * back over the hole where a word's home is not in (i, j]. */
static void mw_remove(struct m_xa_mwords *t, uint32_t i)
{
	uint32_t j = i;

	t->e[i].bits = 0;
	t->count--;
	for (;;) {
		uint32_t home;

		j = (j + 1) & t->mask;
		if (!t->e[j].bits)
			return;
		home = mw_home(t, t->e[j].key);
		if (i <= j ? (i < home && home <= j) : (i < home || home <= j))
			continue;
		t->e[i] = t->e[j];
		t->e[j].bits = 0;
		i = j;
	}
}

/* Set @index in @s; false if it was set. */
static bool markset_set(struct m_xa_markset *s, pgoff_t index)
{
	for (unsigned int k = 0; k < s->levels; k++) {
		struct m_xa_mwords *t = &s->level[k];
		uint32_t key = (uint32_t)(index >> (5 * (k + 1)));
		uint32_t bit = 1u << ((index >> (5 * k)) & 31);
		uint32_t h;

		mw_room(t);
		h = mw_find(t, key);
		if (t->e[h].bits & bit)
			return false;	/* (level 0 only: a word not zero
					 * has its bit above) */
		if (t->e[h].bits) {
			t->e[h].bits |= bit;
			break;		/* the levels above know the word */
		}
		t->e[h].key = key;
		t->e[h].bits = bit;
		t->count++;
	}
	s->count++;
	return true;
}

/* Clear @index in @s; false if it was clear. */
static bool markset_clear(struct m_xa_markset *s, pgoff_t index)
{
	for (unsigned int k = 0; k < s->levels; k++) {
		struct m_xa_mwords *t = &s->level[k];
		uint32_t key = (uint32_t)(index >> (5 * (k + 1)));
		uint32_t bit = 1u << ((index >> (5 * k)) & 31);
		uint32_t h;

		if (!t->count)
			return false;
		h = mw_find(t, key);
		if (!(t->e[h].bits & bit))
			return false;	/* (only at level 0) */
		t->e[h].bits &= ~bit;
		if (t->e[h].bits)
			break;		/* the word stays: nothing above */
		mw_remove(t, h);
	}
	s->count--;
	return true;
}

/* The first index >= @index in @s, or m_file_pages_max. */
static pgoff_t markset_next(const struct m_xa_markset *s, pgoff_t index)
{
	uint64_t pos = index, key = 0;
	uint32_t w = 0;
	unsigned int k;

	if (!s->count || index >= m_file_pages_max)
		return m_file_pages_max;
	/* Up: the rest of this word, else the next word of the level
	 * above; a level's words hold a bit per word below that has one. */
	for (k = 0; k < s->levels; k++) {
		unsigned int shift = 5 * k;

		key = pos >> (shift + 5);
		w = mw_get(&s->level[k], (uint32_t)key) &
		    (~0u << ((pos >> shift) & 31));
		if (w)
			break;
		pos = (key + 1) << (shift + 5);
		if (pos >= m_file_pages_max)
			return m_file_pages_max;
	}
	if (k == s->levels)
		return m_file_pages_max;
	/* Down: the first bit of each word below. */
	for (;;) {
		uint64_t child = key * 32 + (uint64_t)__builtin_ctz(w);

		if (k == 0)
			return (pgoff_t)child;
		k--;
		key = child;
		w = mw_get(&s->level[k], (uint32_t)key);
	}
}

/* The long-run index of the marks follows tags @tags of a slot. */
static void marks_index_update(struct km_address_space *mapping,
			       pgoff_t index, unsigned int tags)
{
	struct km_xa_slot *slot = m_xa_slot_find(&mapping->i_pages, index);
	uint64_t marks = slot ? sim_word_peek(&slot->marks) : 0;

	for (int tag = 0; tag < 3; tag++) {
		if (!((tags >> tag) & 1))
			continue;
		if ((marks >> tag) & 1)
			markset_set(&mapping->mark_index[tag], index);
		else
			markset_clear(&mapping->mark_index[tag], index);
	}
}

void m_xa_marks_index_update(struct km_address_space *mapping,
			     pgoff_t index)
{
	marks_index_update(mapping, index, 7);
}

/* A long run: build the index of @mapping's marks from its slots (the
 * blocks there are, in the table's order: a set has no order). */
void m_xa_marks_index(struct km_address_space *mapping)
{
	const struct m_xa_blocks *t = &mapping->i_pages;
	unsigned int levels = 1;

	while (levels < M_XA_MARK_LEVELS &&
	       (1UL << (5 * levels)) < m_file_pages_max)
		levels++;
	for (int tag = 0; tag < 3; tag++) {
		memset(&mapping->mark_index[tag], 0,
		       sizeof(mapping->mark_index[tag]));
		mapping->mark_index[tag].levels = levels;
	}
	mapping->marks_indexed = true;
	for (unsigned long h = 0; h <= t->mask; h++) {
		uintptr_t p = (uintptr_t)t->blocks[h];
		unsigned long b = t->keys[h];

		if (!p)
			continue;
		for (unsigned long i = 0; i < M_XA_BLOCK; i++) {
			pgoff_t index = b * M_XA_BLOCK + i;

			if (index >= m_file_pages_max)
				break;
			if ((p & M_XA_LONE) && i != (p & (M_XA_LONE - 1)))
				continue;
			if (sim_word_peek(&m_xa_slot(mapping, index)->marks))
				m_xa_marks_index_update(mapping, index);
		}
	}
}

void m_xa_set_mark(struct km_address_space *mapping, pgoff_t index, int tag)
{
	SIM_ASSERT(sim_spin_held_by_me(&mapping->xa_lock) || !sim_in_task());
	sim_bit_set_at(xa_marks_at, mapping, index, (unsigned int)tag);
	m_world_slot_written(mapping, index);
	if (mapping->marks_indexed)
		markset_set(&mapping->mark_index[tag], index);
}

void m_xa_clear_mark(struct km_address_space *mapping, pgoff_t index, int tag)
{
	SIM_ASSERT(sim_spin_held_by_me(&mapping->xa_lock) || !sim_in_task());
	sim_bit_clear_at(xa_marks_at, mapping, index, (unsigned int)tag);
	m_world_slot_written(mapping, index);
	if (mapping->marks_indexed)
		markset_clear(&mapping->mark_index[tag], index);
	xa_block_maybe_free(mapping, index >> M_XA_BLOCK_SHIFT);
}

/* The first index >= @index whose @tag is set in the long-run index. */
pgoff_t m_xa_marks_index_next(struct km_address_space *mapping,
			      pgoff_t index, int tag)
{
	return markset_next(&mapping->mark_index[tag], index);
}

/**
 * m_xa_next_marked - the first index from @index to @last, below
 * @extent, whose @tag is set; past @last or at @extent if none.
 * Exploration reads every slot's marks on the way (a point each), as a
 * walk always did; a long run finds the index in the mapping's index of
 * marks and reads only that slot's marks (one point).
 */
pgoff_t m_xa_next_marked(struct km_address_space *mapping, pgoff_t index,
			 pgoff_t last, pgoff_t extent, int tag)
{
	if (mapping->marks_indexed) {
		pgoff_t i = m_xa_marks_index_next(mapping, index, tag);

		if (i > last || i >= extent)
			return i;
		if (m_xa_get_mark(mapping, i, tag))
			return i;
		return m_xa_next_marked(mapping, i + 1, last, extent, tag);
	}
	while (index <= last && index < extent &&
	       !m_xa_get_mark(mapping, index, tag))
		index++;
	return index;
}
