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
 * 32-bit words of marked indices in sorted chunks, struct
 * m_xa_markset) so that the search skips unmarked ranges without reading
 * their slots, in memory of at most 8 bytes per marked index (a word
 * each) and less where they are packed, wherever they are in the file
 * (it was a bitmap of the file, 3 bits a page, then a tree of hashed
 * words that cost more per mark the more scattered the marks were).
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

/*
 * The cell of @index in @t, or ~0UL: at most probe_max past its home.
 * The cell found last is tried first: an index is in the table at most
 * once, so a cell whose word has @index is its cell, whatever moved
 * since.  A slot is mostly looked up several times in a row (the
 * access's load and its store back, the world check's note and its
 * check, the marks index's peek; session 22, issue 28 B3.1).
 */
static inline unsigned long xw_find(const struct m_xa_words *t,
				    unsigned long index)
{
	unsigned long h = t->last;

	if (h <= t->mask && t->w[h] && xw_index(t->w[h]) == index)
		return h;
	h = xw_home(t->mask, index);
	for (unsigned long n = 0; n <= t->probe_max; n++) {
		if (!t->w[h])
			return ~0UL;
		if (xw_index(t->w[h]) == index) {
			/* A hint only (no output depends on it). */
			((struct m_xa_words *)t)->last = h;
			return h;
		}
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
	t->last = 0;
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
 * The long-run index of the marks (struct m_xa_markset): sorted chunks
 * of words (a 32-bit word's number and its bits) and a directory of
 * their first words' numbers.  A set has no order of its own: any index
 * that answers "the first marked index >= i" as this one does gives the
 * same runs.
 */
static size_t mc_bytes(uint32_t cap)
{
	return sizeof(struct m_xa_mchunk) + cap * sizeof(struct m_xa_mword);
}

static struct m_xa_mchunk *mc_alloc(uint32_t cap)
{
	struct m_xa_mchunk *c = sim_arena_alloc(mc_bytes(cap));

	c->cap = cap;
	return c;
}

/* The first position in @c whose word's number is >= @key (n: none). */
static uint32_t mc_lower(const struct m_xa_mchunk *c, uint32_t key)
{
	uint32_t lo = 0, hi = c->n;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (c->w[mid].key < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The chunk that holds or would hold word @key: the last whose first
 * word's number is <= @key, else the first.  @s has a chunk. */
static uint32_t ms_chunk_of(const struct m_xa_markset *s, uint32_t key)
{
	uint32_t lo = 0, hi = s->chunks;

	while (hi - lo > 1) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (s->first[mid] <= key)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/* Chunk @c goes in the directory at @at. */
static void ms_dir_insert(struct m_xa_markset *s, uint32_t at,
			  struct m_xa_mchunk *c)
{
	if (s->chunks == s->dir_cap) {
		uint32_t cap = s->dir_cap ? 2 * s->dir_cap : 4;
		uint32_t *first = sim_arena_alloc(cap * sizeof(*first));
		struct m_xa_mchunk **chunk =
			sim_arena_alloc(cap * sizeof(*chunk));

		if (s->dir_cap) {
			memcpy(first, s->first, s->chunks * sizeof(*first));
			memcpy(chunk, s->chunk, s->chunks * sizeof(*chunk));
			sim_arena_free(s->first, s->dir_cap * sizeof(*first));
			sim_arena_free(s->chunk, s->dir_cap * sizeof(*chunk));
		}
		s->first = first;
		s->chunk = chunk;
		s->dir_cap = cap;
	}
	memmove(&s->first[at + 1], &s->first[at],
		(s->chunks - at) * sizeof(*s->first));
	memmove(&s->chunk[at + 1], &s->chunk[at],
		(s->chunks - at) * sizeof(*s->chunk));
	s->first[at] = c->w[0].key;
	s->chunk[at] = c;
	s->chunks++;
}

/* Chunk @at leaves the directory (freed). */
static void ms_dir_remove(struct m_xa_markset *s, uint32_t at)
{
	sim_arena_free(s->chunk[at], mc_bytes(s->chunk[at]->cap));
	memmove(&s->first[at], &s->first[at + 1],
		(s->chunks - at - 1) * sizeof(*s->first));
	memmove(&s->chunk[at], &s->chunk[at + 1],
		(s->chunks - at - 1) * sizeof(*s->chunk));
	s->chunks--;
}

/* Set @index in @s; false if it was set. */
static bool markset_set(struct m_xa_markset *s, pgoff_t index)
{
	struct m_xa_mword word = {
		.key = (uint32_t)(index >> 5),
		.bits = 1u << (index & 31),
	};
	uint32_t ci, pos;
	struct m_xa_mchunk *c;

	if (!s->chunks) {
		c = mc_alloc(M_XA_MCHUNK_FIRST);
		c->w[c->n++] = word;
		ms_dir_insert(s, 0, c);
		s->count++;
		return true;
	}
	ci = ms_chunk_of(s, word.key);
	c = s->chunk[ci];
	pos = mc_lower(c, word.key);
	if (pos < c->n && c->w[pos].key == word.key) {
		if (c->w[pos].bits & word.bits)
			return false;
		c->w[pos].bits |= word.bits;
		s->count++;
		return true;
	}
	if (c->n == c->cap && c->cap < M_XA_MCHUNK_MAX) {
		/* Grows (a mapping's first chunk, or a merged one). */
		uint32_t cap = 2 * c->cap < M_XA_MCHUNK_MAX ?
			       2 * c->cap : M_XA_MCHUNK_MAX;
		struct m_xa_mchunk *bigger = mc_alloc(cap);

		bigger->n = c->n;
		memcpy(bigger->w, c->w, c->n * sizeof(*c->w));
		sim_arena_free(c, mc_bytes(c->cap));
		s->chunk[ci] = c = bigger;
	}
	if (c->n == c->cap) {
		/* Full: split.  At its end (a writer going forward) the new
		 * chunk starts with the word alone and this one stays full;
		 * else each keeps half. */
		struct m_xa_mchunk *right = mc_alloc(M_XA_MCHUNK_MAX);
		uint32_t keep = pos == c->n ? c->n : c->n / 2;

		right->n = c->n - keep;
		memcpy(right->w, &c->w[keep], right->n * sizeof(*c->w));
		c->n = keep;
		if (pos >= keep) {
			pos -= keep;
			c = right;
		}
		memmove(&c->w[pos + 1], &c->w[pos],
			(c->n - pos) * sizeof(*c->w));
		c->w[pos] = word;
		c->n++;
		ms_dir_insert(s, ci + 1, right);
		s->first[ci] = s->chunk[ci]->w[0].key;
		s->count++;
		return true;
	}
	memmove(&c->w[pos + 1], &c->w[pos], (c->n - pos) * sizeof(*c->w));
	c->w[pos] = word;
	c->n++;
	s->first[ci] = c->w[0].key;
	s->count++;
	return true;
}

/* Chunks @ci and @ci + 1 become one when they fit in 3/4 of a chunk. */
static void ms_maybe_merge(struct m_xa_markset *s, uint32_t ci)
{
	struct m_xa_mchunk *l = s->chunk[ci], *r = s->chunk[ci + 1];
	uint32_t n = l->n + r->n;

	if (4 * n > 3 * M_XA_MCHUNK_MAX)
		return;
	if (n > l->cap) {
		struct m_xa_mchunk *bigger = mc_alloc(M_XA_MCHUNK_MAX);

		bigger->n = l->n;
		memcpy(bigger->w, l->w, l->n * sizeof(*l->w));
		sim_arena_free(l, mc_bytes(l->cap));
		s->chunk[ci] = l = bigger;
	}
	memcpy(&l->w[l->n], r->w, r->n * sizeof(*r->w));
	l->n = n;
	ms_dir_remove(s, ci + 1);
}

/* Clear @index in @s; false if it was clear. */
static bool markset_clear(struct m_xa_markset *s, pgoff_t index)
{
	uint32_t key = (uint32_t)(index >> 5), bit = 1u << (index & 31);
	uint32_t ci, pos;
	struct m_xa_mchunk *c;

	if (!s->chunks)
		return false;
	ci = ms_chunk_of(s, key);
	c = s->chunk[ci];
	pos = mc_lower(c, key);
	if (pos == c->n || c->w[pos].key != key || !(c->w[pos].bits & bit))
		return false;
	s->count--;
	c->w[pos].bits &= ~bit;
	if (c->w[pos].bits)
		return true;
	/* The word is 0: out of its chunk. */
	c->n--;
	memmove(&c->w[pos], &c->w[pos + 1], (c->n - pos) * sizeof(*c->w));
	if (!c->n) {
		ms_dir_remove(s, ci);
		return true;
	}
	s->first[ci] = c->w[0].key;
	if (4 * c->n < M_XA_MCHUNK_MAX) {
		/* Under a quarter: with a neighbour if they fit. */
		if (ci + 1 < s->chunks)
			ms_maybe_merge(s, ci);
		else if (ci > 0)
			ms_maybe_merge(s, ci - 1);
	}
	return true;
}

/* The first index of word @w (its bits not 0). */
static inline pgoff_t mw_first(const struct m_xa_mword *w)
{
	return (pgoff_t)w->key * 32 + (pgoff_t)__builtin_ctz(w->bits);
}

/* The first index >= @index in @s, or m_file_pages_max. */
static pgoff_t markset_next(const struct m_xa_markset *s, pgoff_t index)
{
	uint32_t key = (uint32_t)(index >> 5), ci, pos;
	const struct m_xa_mchunk *c;

	if (!s->count || index >= m_file_pages_max)
		return m_file_pages_max;
	ci = ms_chunk_of(s, key);
	c = s->chunk[ci];
	pos = mc_lower(c, key);
	if (pos < c->n && c->w[pos].key == key) {
		uint32_t rest = c->w[pos].bits & (~0u << (index & 31));

		if (rest)
			return (pgoff_t)key * 32 +
			       (pgoff_t)__builtin_ctz(rest);
		pos++;
	}
	if (pos < c->n)
		return mw_first(&c->w[pos]);
	return ci + 1 < s->chunks ? mw_first(&s->chunk[ci + 1]->w[0]) :
				    m_file_pages_max;
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

	for (int tag = 0; tag < 3; tag++)
		memset(&mapping->mark_index[tag], 0,
		       sizeof(mapping->mark_index[tag]));
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
