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
 * point.  An exploration's slots come in blocks of M_XA_BLOCK (4; the
 * kernel's XA_CHUNK_SIZE is 64) indices, found by block number in a
 * per-mapping hash table (struct m_xa_blocks, open addressing), all
 * made at setup, every slot named.  A long timed run keeps an 8-byte
 * word per index that has an entry or a mark (struct m_xa_words: the
 * folio id, the index and the marks), made by the first store to the
 * index and removed when its entry and marks are both 0, so memory
 * follows the cached folios, not the file's size nor how they are
 * scattered over it (the kernel frees an xa_node that empties): every
 * access of a long run reads and writes the mapping's stand-in slot
 * (xa_hole, whose words carry the ids of all entries and of all
 * marks), loaded from the index's word after the access's point
 * (sim_word_read_at) and stored back by the write in the same step.  A
 * long run also keeps an index of each mark (mapping->mark_index:
 * hashed words of marked indices and of the words below, struct
 * m_xa_markset) so that the search skips unmarked ranges without
 * reading their slots, in memory that follows the marked indices (it
 * was a bitmap of the file with a summary level, 3 bits a page).
 *
 * Leaves out: the tree's height and inner nodes (the model's table is
 * one level, hashed: a long run's memory is its words, 8 bytes a used
 * index at most 3/4 full), RCU, multi-index
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
	unsigned long home = m_xa_home(t->mask, b), h = home;

	while (t->blocks[h])
		h = (h + 1) & t->mask;
	t->keys[h] = (uint32_t)b;
	t->blocks[h] = block;
	t->count++;
	if (((h - home) & t->mask) > t->probe_max)
		t->probe_max = (h - home) & t->mask;
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

/* ---- a long run's words (struct m_xa_words) ---------------------------- */

static inline unsigned long xw_index(uint64_t word)
{
	return (unsigned long)((word >> M_XA_WORD_INDEX_SHIFT) &
			       M_XA_WORD_INDEX_MASK);
}

/*
 * The home cell of @index: a multiplicative hash of the whole index (the
 * top bits of index x 2^64 / phi).  Not m_xa_home, which keeps each run
 * of mask + 1 indices in order: when the cached indices span two such
 * runs (a sequential writer whose oldest pages are reclaimed while it
 * moves on), the two runs' cells overlapped into one cluster, and every
 * look-up, insertion and removal walked it: a writer at --mem 256m
 * wrote 571 MiB in 40 host seconds, then hardly moved (session 17;
 * h17-rss found it).  The table's order is no output's order (the marks
 * index is a set).
 */
static inline unsigned long xw_home(unsigned long mask, unsigned long index)
{
	unsigned int bits = (unsigned int)__builtin_ctzl(mask + 1);

	return (unsigned long)(((uint64_t)index * 0x9e3779b97f4a7c15ULL) >>
			       (64 - bits)) & mask;
}

/* The cell of @index in @t, or ~0UL: at most probe_max past its home. */
static inline unsigned long xw_find(const struct m_xa_words *t,
				    unsigned long index)
{
	unsigned long h = xw_home(t->mask, index);

	for (unsigned long n = 0; n <= t->probe_max; n++) {
		if (!t->w[h])
			return ~0UL;
		if (xw_index(t->w[h]) == index)
			return h;
		h = (h + 1) & t->mask;
	}
	return ~0UL;
}

static void xw_alloc(struct m_xa_words *t, unsigned long entries)
{
	t->w = sim_arena_alloc(entries * sizeof(*t->w));
	t->mask = entries - 1;
	t->count = 0;
	t->probe_max = 0;
}

static void xw_put(struct m_xa_words *t, uint64_t word)
{
	unsigned long home = xw_home(t->mask, xw_index(word)), h = home;

	while (t->w[h])
		h = (h + 1) & t->mask;
	t->w[h] = word;
	t->count++;
	if (((h - home) & t->mask) > t->probe_max)
		t->probe_max = (h - home) & t->mask;
}

/* A word not there yet goes in @t; past 3/4 full it doubles. */
static void xw_add(struct m_xa_words *t, uint64_t word)
{
	if (4 * (t->count + 1) > 3 * (t->mask + 1)) {
		struct m_xa_words old = *t;

		xw_alloc(t, 2 * (old.mask + 1));
		for (unsigned long h = 0; h <= old.mask; h++)
			if (old.w[h])
				xw_put(t, old.w[h]);
		sim_arena_free(old.w, (old.mask + 1) * sizeof(*old.w));
	}
	xw_put(t, word);
}

/*
 * Cell @i leaves @t: the run after it shifts back over the hole.  A
 * word at j moves into the hole at i when its home is not in (i, j],
 * that is when it sits at least j - i past its home; none sits more
 * than probe_max past it, so the walk stops probe_max past the hole
 * (a large file's indices sit at their own numbers, one run as long as
 * the file: fio's fadvise(DONTNEED) over it removed them in a scan of
 * the whole run each, issue 29).
 */
static void xw_remove(struct m_xa_words *t, unsigned long i)
{
	t->w[i] = 0;
	t->count--;
	for (unsigned long j = (i + 1) & t->mask; t->w[j];
	     j = (j + 1) & t->mask) {
		unsigned long home = xw_home(t->mask, xw_index(t->w[j]));

		if (((j - i) & t->mask) > t->probe_max)
			break;
		/* Stays if its home is in (i, j], cyclically. */
		if (i <= j ? (i < home && home <= j) : (i < home || home <= j))
			continue;
		t->w[i] = t->w[j];
		t->w[j] = 0;
		i = j;
	}
}

/* @slot := the entry and marks of @index in @t (0 when absent). */
static inline void xw_load(const struct m_xa_words *t, unsigned long index,
			   struct km_xa_slot *slot)
{
	unsigned long h = xw_find(t, index);
	uint64_t word = h == ~0UL ? 0 : t->w[h];

	slot->entry.value = word & M_XA_WORD_ID_MASK;
	slot->marks.value = word >> M_XA_WORD_MARKS_SHIFT;
}

/* The stand-in's entry and marks become @index's word (made, changed,
 * or removed when both are 0): after a write, in its step. */
static void xw_store_back(struct km_address_space *mapping,
			  unsigned long index)
{
	struct m_xa_words *t = &mapping->i_words;
	uint64_t id = sim_word_peek(&mapping->xa_hole.entry);
	uint64_t marks = sim_word_peek(&mapping->xa_hole.marks);
	unsigned long h = xw_find(t, index);
	uint64_t word;

	SIM_ASSERT_MSG(id <= M_XA_WORD_ID_MASK && marks < 8,
		       "page-cache word: entry %llu, marks %llu",
		       (unsigned long long)id, (unsigned long long)marks);
	word = id | ((uint64_t)index << M_XA_WORD_INDEX_SHIFT) |
	       (marks << M_XA_WORD_MARKS_SHIFT);
	if (!id && !marks) {
		if (h != ~0UL)
			xw_remove(t, h);
	} else if (h != ~0UL) {
		t->w[h] = word;
	} else {
		xw_add(t, word);
	}
}

struct km_xa_slot *m_xa_words_peek(const struct km_address_space *mapping,
				   unsigned long index)
{
	xw_load(&mapping->i_words, index, mapping->xa_peek);
	return mapping->xa_peek;
}

/*
 * The page cache of @mapping: in a long run, no words (they come with
 * stores), all its entries one object and all its marks another; else
 * every block made and every slot named ("f.xa[3]", "f.marks[3]",
 * interleaved, as the ids always were).
 */
void m_xa_init(struct km_address_space *mapping, const char *name,
	       bool long_run)
{
	unsigned long blocks = xa_blocks();

	mapping->xa_sparse = long_run;
	mapping->xa_hole.entry.value = 0;
	mapping->xa_hole.marks.value = 0;
	if (long_run) {
		xa_table_alloc(&mapping->i_pages, 8);	/* never used */
		xw_alloc(&mapping->i_words, 64);
		mapping->xa_hole.entry.id = sim_object_register("%s.xa", name);
		mapping->xa_hole.marks.id = sim_object_register("%s.marks",
								name);
		mapping->xa_peek = xa_slots_alloc(mapping, 1);
		return;
	}
	xa_table_alloc(&mapping->i_pages, 2 * blocks);
	mapping->xa_hole.entry.id = 0;
	mapping->xa_hole.marks.id = 0;
	for (unsigned long b = 0; b < blocks; b++)
		xa_table_put(&mapping->i_pages, b,
			     xa_slots_alloc(mapping, M_XA_BLOCK));
	for (unsigned long i = 0; i < m_file_pages_max; i++) {
		struct km_xa_slot *slot = m_xa_slot(mapping, i);

		sim_word_init(&slot->entry, 0, "%s.xa[%lu]", name, i);
		sim_word_init(&slot->marks, 0, "%s.marks[%lu]", name, i);
	}
}

/* Does block @b of @mapping have a slot with an entry or a mark (a
 * long run), or is it there (an exploration)?  A peek: checks, dumps. */
bool m_xa_block_present(const struct km_address_space *mapping,
			unsigned long b)
{
	if (!mapping->xa_sparse)
		return m_xa_block(&mapping->i_pages, b) != NULL;
	for (unsigned long i = 0; i < M_XA_BLOCK; i++)
		if (xw_find(&mapping->i_words, b * M_XA_BLOCK + i) != ~0UL)
			return true;
	return false;
}

/* The words of a long run: their number (tests, reports). */
unsigned long m_xa_words_count(const struct km_address_space *mapping)
{
	return mapping->i_words.count;
}

/* The slot an access of @index uses: a long run's stand-in, loaded (a
 * write stores it back); an exploration's slot (past the file: 0). */
static inline struct km_xa_slot *xa_slot_at(struct km_address_space *mapping,
					    unsigned long index)
{
	struct km_xa_slot *slot;

	if (mapping->xa_sparse) {
		xw_load(&mapping->i_words, index, &mapping->xa_hole);
		return &mapping->xa_hole;
	}
	slot = m_xa_slot_find(&mapping->i_pages, index);
	return slot ? slot : &mapping->xa_hole;
}

/* sim_word_where of the entries and of the marks (base: the mapping). */
static struct sim_word *xa_entry_at(void *base, unsigned long index,
				    bool make)
{
	(void)make;
	return &xa_slot_at(base, index)->entry;
}

static struct sim_word *xa_marks_at(void *base, unsigned long index,
				    bool make)
{
	(void)make;
	return &xa_slot_at(base, index)->marks;
}

/* The entry at @index (a folio id, 0 = none): one point. */
uint64_t m_xa_load_entry(struct km_address_space *mapping, pgoff_t index)
{
	return sim_word_read_at(xa_entry_at, mapping, index);
}

/* After a write of slot @index: a long run's stand-in stored back. */
static inline void xa_written(struct km_address_space *mapping,
			      pgoff_t index)
{
	if (mapping->xa_sparse)
		xw_store_back(mapping, index);
}

/* Store entry @id at @index (0 erases): one point. */
void m_xa_store_entry(struct km_address_space *mapping, pgoff_t index,
		      uint64_t id)
{
	sim_word_write_at(xa_entry_at, mapping, index, id);
	xa_written(mapping, index);
	m_world_slot_written(mapping, index);
}

static void marks_index_update(struct km_address_space *mapping,
			       pgoff_t index, unsigned int tags);

/* Store the marks of @index (page_cache_delete's clear): one point. */
void m_xa_store_marks(struct km_address_space *mapping, pgoff_t index,
		      uint64_t marks)
{
	sim_word_write_at(xa_marks_at, mapping, index, marks);
	xa_written(mapping, index);
	m_world_slot_written(mapping, index);
	if (mapping->marks_indexed)
		marks_index_update(mapping, index, 7);
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
	uint64_t marks = sim_word_peek(&m_xa_slot(mapping, index)->marks);

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

/* Build the index of @mapping's marks from its words (a long run's, in
 * the table's order: a set has no order) or slots. */
void m_xa_marks_index(struct km_address_space *mapping)
{
	const struct m_xa_words *t = &mapping->i_words;
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
	if (!mapping->xa_sparse) {
		/* An exploration's (a test's): every slot. */
		for (pgoff_t i = 0; i < m_file_pages_max; i++)
			if (sim_word_peek(&m_xa_slot(mapping, i)->marks))
				m_xa_marks_index_update(mapping, i);
		return;
	}
	for (unsigned long h = 0; h <= t->mask; h++)
		if (t->w[h] >> M_XA_WORD_MARKS_SHIFT)
			m_xa_marks_index_update(mapping, xw_index(t->w[h]));
}

void m_xa_set_mark(struct km_address_space *mapping, pgoff_t index, int tag)
{
	SIM_ASSERT(sim_spin_held_by_me(&mapping->xa_lock) || !sim_in_task());
	sim_bit_set_at(xa_marks_at, mapping, index, (unsigned int)tag);
	xa_written(mapping, index);
	m_world_slot_written(mapping, index);
	if (mapping->marks_indexed)
		markset_set(&mapping->mark_index[tag], index);
}

void m_xa_clear_mark(struct km_address_space *mapping, pgoff_t index, int tag)
{
	SIM_ASSERT(sim_spin_held_by_me(&mapping->xa_lock) || !sim_in_task());
	sim_bit_clear_at(xa_marks_at, mapping, index, (unsigned int)tag);
	xa_written(mapping, index);
	m_world_slot_written(mapping, index);
	if (mapping->marks_indexed)
		markset_clear(&mapping->mark_index[tag], index);
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
