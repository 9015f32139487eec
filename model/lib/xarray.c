// SPDX-License-Identifier: MIT
/*
 * model/lib/xarray.c - the page cache's marks (the xarray's tags) and
 * the index of them a long run keeps.
 *
 * Models the mark operations of lib/xarray.c, v6.18, as the page cache
 * uses them: xa_get_mark, __xa_set_mark and __xa_clear_mark under the
 * xa_lock, and the search for the next marked entry (xas_find_marked).
 * The model's xarray is flat: one slot per page index
 * (mapping->i_pages[], struct km_xa_slot), each with its marks in one
 * engine word, so a mark test is one scheduling point.  A long timed
 * run also keeps a bitmap of each mark with a summary level
 * (mapping->mark_bits, mark_sum) so that the search skips unmarked
 * ranges without reading their slots.
 *
 * Leaves out: the tree (nodes, shifts, RCU), multi-index entries, value
 * and shadow entries, XA_MARK_2 beyond the three page-cache tags,
 * allocation.
 */
#include "model/linux/pagemap.h"
#include "model/world.h"
#include "sim/arena.h"

bool m_xa_get_mark(struct km_address_space *mapping, pgoff_t index, int tag)
{
	if (index >= m_file_pages_max)
		return false;
	return (sim_word_read(&mapping->i_pages[index].marks) >> tag) & 1;
}

/* The long-run index of the marks (mapping->mark_bits) follows a slot. */
void m_xa_marks_index_update(struct km_address_space *mapping,
			     pgoff_t index)
{
	uint64_t marks = sim_word_peek(&mapping->i_pages[index].marks);

	for (int tag = 0; tag < 3; tag++) {
		uint64_t *bits = mapping->mark_bits[tag];
		uint64_t bit = 1ULL << (index % 64);

		if ((marks >> tag) & 1)
			bits[index / 64] |= bit;
		else
			bits[index / 64] &= ~bit;
		bit = 1ULL << (index / 64 % 64);
		if (bits[index / 64])
			mapping->mark_sum[tag][index / 4096] |= bit;
		else
			mapping->mark_sum[tag][index / 4096] &= ~bit;
	}
}

/* A long run: build the index of @mapping's marks from its slots. */
void m_xa_marks_index(struct km_address_space *mapping)
{
	unsigned long words = (m_file_pages_max + 63) / 64;

	for (int tag = 0; tag < 3; tag++) {
		mapping->mark_bits[tag] = sim_arena_alloc(words *
							  sizeof(uint64_t));
		mapping->mark_sum[tag] = sim_arena_alloc((words + 63) / 64 *
							 sizeof(uint64_t));
	}
	for (pgoff_t i = 0; i < m_file_pages_max; i++)
		if (sim_word_peek(&mapping->i_pages[i].marks))
			m_xa_marks_index_update(mapping, i);
}

void m_xa_set_mark(struct km_address_space *mapping, pgoff_t index, int tag)
{
	SIM_ASSERT(sim_spin_held_by_me(&mapping->xa_lock) || !sim_in_task());
	sim_bit_set(&mapping->i_pages[index].marks, (unsigned int)tag);
	if (mapping->mark_bits[0])
		m_xa_marks_index_update(mapping, index);
}

void m_xa_clear_mark(struct km_address_space *mapping, pgoff_t index, int tag)
{
	SIM_ASSERT(sim_spin_held_by_me(&mapping->xa_lock) || !sim_in_task());
	sim_bit_clear(&mapping->i_pages[index].marks, (unsigned int)tag);
	if (mapping->mark_bits[0])
		m_xa_marks_index_update(mapping, index);
}

/* The first index >= @index whose bit is set in the long-run index. */
pgoff_t m_xa_marks_index_next(struct km_address_space *mapping,
			      pgoff_t index, int tag)
{
	const uint64_t *bits = mapping->mark_bits[tag];
	const uint64_t *sum = mapping->mark_sum[tag];
	unsigned long words = (m_file_pages_max + 63) / 64;
	unsigned long w = index / 64;
	uint64_t word;

	if (w >= words)
		return m_file_pages_max;
	word = bits[w] & (~0ULL << (index % 64));
	if (word)
		return w * 64 + (pgoff_t)__builtin_ctzll(word);
	for (unsigned long s = (w + 1) / 64; s < (words + 63) / 64; s++) {
		uint64_t set = sum[s];

		if (s == (w + 1) / 64)
			set &= (w + 1) % 64 ? ~0ULL << ((w + 1) % 64) : ~0ULL;
		if (set) {
			unsigned long k = s * 64 +
					  (unsigned long)__builtin_ctzll(set);

			return k * 64 + (pgoff_t)__builtin_ctzll(bits[k]);
		}
	}
	return m_file_pages_max;
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
	if (mapping->mark_bits[0]) {
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
