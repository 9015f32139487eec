// SPDX-License-Identifier: MIT
/*
 * model/fs/xfs/xfs_iomap.c - the XFS block map and the iomap_begin
 * functions that read and change it.
 *
 * Models fs/xfs/xfs_iomap.c of v6.18 (kernel-fs.md §3.6):
 * xfs_buffered_write_iomap_begin (delalloc reserved over holes),
 * xfs_direct_write_iomap_begin (holes and delalloc allocated unwritten;
 * seed 000's writethrough mapping uses it), xfs_iomap_write_unwritten
 * (unwritten converted to written at I/O completion), xfs_zero_range and
 * xfs_truncate_page.
 * The block map stands in for the extent tree of fs/xfs/libxfs/xfs_bmap.c
 * (xfs_bmapi_reserve_delalloc, xfs_bmapi_convert_delalloc), which the
 * model does not keep apart: one state per block (H hole, U unwritten,
 * W written, D delalloc) under i_data_sem (standing in for the XFS
 * ILOCK).  Writeback allocates delalloc blocks as written (the model does
 * not allocate them unwritten first).
 *
 * With the world's free-space count (model/fs/xfs/xfs_mount.c), the
 * delalloc reservation and the direct allocation take their blocks from
 * it and return -ENOSPC when it cannot cover them; frees give back.
 * xfs_buffered_write_iomap_end punches the delalloc blocks a buffered
 * write reserved and did not write (class Y of docs/model/fidelity.md).
 *
 * Leaves out: the extent tree, transactions and the log items they
 * create, indirect-block reservations (indlen), speculative
 * preallocation and its ENOSPC retry, quota, COW and
 * reflink forks, zoned allocation, DAX.
 */
#include <string.h>

#include "model/fs/xfs.h"
#include "model/fs/xfs_log.h"
#include "model/linux/pagemap.h"
#include "model/lockdep.h"
#include "model/world.h"
#include "sim/clock.h"

/* ---- block map ---------------------------------------------------------- */

/*
 * The map is kept by group of M_EXT_GROUP blocks (fs.h): an absent
 * group is one state for all its blocks, so a large file's map costs
 * what its changes cost (XFS and ext4 keep extents, not blocks; the
 * model keeps a state per block only where a group is not uniform).
 *
 * In a long run a group is first sparse: the states of the blocks that
 * were written, a byte each with its offset (struct extent_sparse), the
 * others in the group's fill state (EXTENT_SPARSE_MAX blocks at most,
 * 112 bytes; one or two blocks, 16 bytes), so scattered writes over a
 * large file cost about 4 bytes per block written, not a group each
 * (random 4 KiB writes over 64 GiB touch nearly every group; issue 28:
 * a sparse group held a 12-byte word per block, 14 bytes with its
 * offset).  Past EXTENT_SPARSE_MAX it becomes a compact group: a byte
 * per block (struct extent_compact, 516 bytes, where a group of words
 * is 6 KiB).  A long run's blocks are read and written through the
 * stand-in word extent_hole, loaded at the access, which m_extent_write
 * stores back into the group's byte (adding it to a sparse group).  The
 * table tags a sparse group by its pointer's bit 0 and a compact one by
 * bit 1 (the arena's memory is 16-byte aligned).  A long run's table is
 * not one of the file: a leaf (struct m_extent_leaf) of 512 groups holds
 * the pointers and fills of those that changed (sparse, 11 bytes a
 * group, up to 256 of them; then dense, 9 bytes a group), made when one
 * of them changes; a fill of 0, or no entry, is the group's layout state
 * (extent_fill_of).  All words of a long
 * run's map are one object (extent_hole.id), so where a block's state
 * lives is not seen by the engine.  An exploration's groups are words,
 * every one named.
 *
 * A long run's group that becomes uniform again is one state again: a
 * sparse group whose words all hold its fill state is freed, and a
 * compact one whose blocks all hold one state is freed with that state
 * as its fill (a sequential write leaves each group delalloc, then
 * written, whole: the map then costs nothing per block).  A compact
 * group keeps how many of its first blocks hold its first block's state
 * (@same), so the check costs a few bytes per write, not the group.
 */
#define EXTENT_SPARSE_MAX	32
#define EXTENT_SPARSE_FIRST	2

/* Then the states (extent_sparse_states): [cap]. */
struct extent_sparse {
	uint16_t n, cap;
	uint16_t off[];			/* [cap]: block - group's first */
};

static bool extent_is_sparse(const struct sim_word *group)
{
	return ((uintptr_t)group & 1) != 0;
}

/* A long run's dense group: a byte per block (an m_extent_state). */
struct extent_compact {
	uint32_t same;	/* its first blocks that hold state[0] */
	uint8_t state[M_EXT_GROUP];
};

static bool extent_is_compact(const struct sim_word *group)
{
	return ((uintptr_t)group & 2) != 0;
}

static struct extent_compact *extent_compact(struct sim_word *group)
{
	return (struct extent_compact *)((uintptr_t)group & ~(uintptr_t)2);
}

/* ---- a long run's leaves (struct m_extent_leaf) ---- */

static size_t extent_leaf_bytes(unsigned int cap)
{
	return sizeof(struct m_extent_leaf) +
	       cap * (sizeof(struct sim_word *) + 1 +
		      (cap < M_EXT_LEAF ? sizeof(uint16_t) : 0));
}

/* An empty leaf of @cap groups (M_EXT_LEAF: dense). */
static struct m_extent_leaf *extent_leaf_alloc(unsigned int cap)
{
	struct m_extent_leaf *leaf = sim_arena_alloc(extent_leaf_bytes(cap));

	leaf->cap = (uint16_t)cap;
	leaf->group = (struct sim_word **)(leaf + 1);
	leaf->fill = (uint8_t *)&leaf->group[cap];
	leaf->key = cap < M_EXT_LEAF ? (uint16_t *)&leaf->fill[cap] : NULL;
	if (leaf->key)	/* 2-byte aligned: fill has cap (even) bytes */
		SIM_ASSERT(((uintptr_t)leaf->key & 1) == 0);
	return leaf;
}

/* The position of group place @k in @leaf: its own when dense; in a
 * sparse leaf the first whose place is >= @k (n: none). */
static unsigned int extent_leaf_pos(const struct m_extent_leaf *leaf,
				    unsigned int k)
{
	unsigned int lo = 0, hi = leaf->n;

	if (leaf->cap == M_EXT_LEAF)
		return k;
	while (lo < hi) {
		unsigned int mid = (lo + hi) / 2;

		if (leaf->key[mid] < k)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Is place @k at @pos of @leaf? */
static bool extent_leaf_has(const struct m_extent_leaf *leaf,
			    unsigned int pos, unsigned int k)
{
	return leaf->cap == M_EXT_LEAF ||
	       (pos < leaf->n && leaf->key[pos] == k);
}

/* A long run's leaf of group @g, or NULL. */
static struct m_extent_leaf *extent_leaf_of(const struct km_inode *inode,
					    unsigned long g)
{
	return inode->extent_dir[g >> M_EXT_LEAF_SHIFT];
}

/*
 * Group @g's pointer (NULL: each block of it in its fill state).  An
 * exploration's table, or a long run's leaf (not there: NULL).
 */
static struct sim_word *extent_group(const struct km_inode *inode,
				     unsigned long g)
{
	const struct m_extent_leaf *leaf;
	unsigned int k = (unsigned int)(g & (M_EXT_LEAF - 1)), pos;

	if (!inode->extent_dir)
		return inode->extent[g];
	leaf = extent_leaf_of(inode, g);
	if (!leaf)
		return NULL;
	pos = extent_leaf_pos(leaf, k);
	return extent_leaf_has(leaf, pos, k) ? leaf->group[pos] : NULL;
}

/* A long run's group @g's own fill byte (0: its layout's). */
static uint8_t extent_leaf_fill(const struct km_inode *inode,
				unsigned long g)
{
	const struct m_extent_leaf *leaf = extent_leaf_of(inode, g);
	unsigned int k = (unsigned int)(g & (M_EXT_LEAF - 1)), pos;

	if (!leaf)
		return 0;
	pos = extent_leaf_pos(leaf, k);
	return extent_leaf_has(leaf, pos, k) ? leaf->fill[pos] : 0;
}

/* @leaf, sparse, with room for @cap groups (dense at M_EXT_LEAF). */
static struct m_extent_leaf *extent_leaf_grow(struct m_extent_leaf *leaf,
					      unsigned int cap)
{
	struct m_extent_leaf *bigger = extent_leaf_alloc(cap);

	if (cap == M_EXT_LEAF) {
		for (unsigned int i = 0; i < leaf->n; i++) {
			bigger->group[leaf->key[i]] = leaf->group[i];
			bigger->fill[leaf->key[i]] = leaf->fill[i];
		}
	} else {
		bigger->n = leaf->n;
		memcpy(bigger->group, leaf->group,
		       leaf->n * sizeof(*leaf->group));
		memcpy(bigger->fill, leaf->fill, leaf->n);
		memcpy(bigger->key, leaf->key, leaf->n * sizeof(*leaf->key));
	}
	sim_arena_free(leaf, extent_leaf_bytes(leaf->cap));
	return bigger;
}

/*
 * A long run's group @g := pointer @group and fill @fill (0: the
 * layout's).  A sparse leaf keeps a group only while either is set; a
 * leaf is made when a group first changes, sparse, and becomes dense
 * past M_EXT_LEAF_SPARSE_MAX groups; a sparse leaf with none left is
 * freed.
 */
static void extent_leaf_store(struct km_inode *inode, unsigned long g,
			      struct sim_word *group, uint8_t fill)
{
	struct m_extent_leaf **slot = &inode->extent_dir[g >> M_EXT_LEAF_SHIFT];
	struct m_extent_leaf *leaf = *slot;
	unsigned int k = (unsigned int)(g & (M_EXT_LEAF - 1)), pos;
	bool keep = group || fill;

	if (!leaf) {
		if (!keep)
			return;
		*slot = leaf = extent_leaf_alloc(4);
	}
	pos = extent_leaf_pos(leaf, k);
	if (extent_leaf_has(leaf, pos, k)) {
		if (keep || leaf->cap == M_EXT_LEAF) {
			leaf->group[pos] = group;
			leaf->fill[pos] = fill;
			return;
		}
		/* Out of the sparse leaf. */
		leaf->n--;
		memmove(&leaf->group[pos], &leaf->group[pos + 1],
			(leaf->n - pos) * sizeof(*leaf->group));
		memmove(&leaf->fill[pos], &leaf->fill[pos + 1], leaf->n - pos);
		memmove(&leaf->key[pos], &leaf->key[pos + 1],
			(leaf->n - pos) * sizeof(*leaf->key));
		if (!leaf->n) {
			sim_arena_free(leaf, extent_leaf_bytes(leaf->cap));
			*slot = NULL;
		}
		return;
	}
	if (!keep)
		return;
	if (leaf->n == leaf->cap) {
		*slot = leaf = extent_leaf_grow(leaf,
			leaf->cap == M_EXT_LEAF_SPARSE_MAX ? M_EXT_LEAF :
							     2u * leaf->cap);
		if (leaf->cap == M_EXT_LEAF) {
			leaf->group[k] = group;
			leaf->fill[k] = fill;
			return;
		}
	}
	memmove(&leaf->group[pos + 1], &leaf->group[pos],
		(leaf->n - pos) * sizeof(*leaf->group));
	memmove(&leaf->fill[pos + 1], &leaf->fill[pos], leaf->n - pos);
	memmove(&leaf->key[pos + 1], &leaf->key[pos],
		(leaf->n - pos) * sizeof(*leaf->key));
	leaf->group[pos] = group;
	leaf->fill[pos] = fill;
	leaf->key[pos] = (uint16_t)k;
	leaf->n++;
}

static void extent_group_set(struct km_inode *inode, unsigned long g,
			     struct sim_word *group)
{
	if (!inode->extent_dir)
		inode->extent[g] = group;
	else
		extent_leaf_store(inode, g, group, extent_leaf_fill(inode, g));
}

/* A long run's group @g's layout state: the last run starting at or
 * before it (setup lays a file out in one run or a few). */
static uint8_t extent_layout_fill(const struct km_inode *inode,
				  unsigned long g)
{
	const struct m_extent_layout *run = inode->extent_layout;
	unsigned int lo = 0, hi = inode->extent_layout_count;

	if (!hi)
		return M_EXT_HOLE;	/* no blocks */
	while (hi - lo > 1) {
		unsigned int mid = lo + (hi - lo) / 2;

		if (run[mid].first_group <= g)
			lo = mid;
		else
			hi = mid;
	}
	return run[lo].fill;
}

/*
 * The fill state of group @g: an exploration's table's; a long run's
 * own once it changed, else its layout run's.
 */
static uint8_t extent_fill_of(const struct km_inode *inode, unsigned long g)
{
	uint8_t fill;

	if (!inode->extent_dir)
		return inode->extent_fill[g];
	fill = extent_leaf_fill(inode, g);
	return fill ? fill : extent_layout_fill(inode, g);
}

/* A long run's group @g now all in @fill (its layout's: kept as 0). */
static void extent_fill_set(struct km_inode *inode, unsigned long g,
			    uint8_t fill)
{
	if (fill == extent_layout_fill(inode, g))
		fill = 0;
	extent_leaf_store(inode, g, extent_group(inode, g), fill);
}

struct sim_word *m_extent_group(const struct km_inode *inode,
				unsigned long g)
{
	return extent_group(inode, g);
}

char m_extent_group_fill(const struct km_inode *inode, unsigned long g)
{
	return (char)extent_fill_of(inode, g);
}

/* Group @g of a long run becomes compact, every block in its fill. */
static struct extent_compact *extent_compact_make(struct km_inode *inode,
						  unsigned long g)
{
	struct extent_compact *c = sim_arena_alloc(sizeof(*c));

	memset(c->state, extent_fill_of(inode, g), sizeof(c->state));
	c->same = 1;
	extent_group_set(inode, g, (struct sim_word *)((uintptr_t)c | 2));
	return c;
}

/* The stand-in word of @inode's map holding @state (an access to a
 * compact group's block, or to an absent group's). */
static struct sim_word *extent_stand_in(struct km_inode *inode,
					uint8_t state)
{
	inode->extent_hole.value = state;
	return &inode->extent_hole;
}

static struct extent_sparse *extent_sparse(struct sim_word *group)
{
	return (struct extent_sparse *)((uintptr_t)group & ~(uintptr_t)1);
}

static uint8_t *extent_sparse_states(struct extent_sparse *sp)
{
	return (uint8_t *)&sp->off[sp->cap];
}

static size_t extent_sparse_bytes(unsigned int cap)
{
	return sizeof(struct extent_sparse) + cap * (sizeof(uint16_t) + 1);
}

/* A long run's map (all its words one object), whose groups collapse. */
static bool extent_long_run(const struct km_inode *inode)
{
	return inode->extent_hole.id != 0;
}

/* An exploration's group of words. */
static size_t extent_group_bytes(void)
{
	return M_EXT_GROUP * sizeof(struct sim_word);
}

/* Blocks of group @g inside the file. */
static unsigned long extent_group_blocks(const struct km_inode *inode,
					 unsigned long g)
{
	unsigned long first = g << M_EXT_GROUP_SHIFT;

	return inode->nr_blocks - first < M_EXT_GROUP ?
	       inode->nr_blocks - first : M_EXT_GROUP;
}

static struct sim_word *extent_group_make(struct km_inode *inode,
					  unsigned long g)
{
	struct sim_word *group = sim_arena_alloc(extent_group_bytes());

	for (unsigned long k = 0; k < M_EXT_GROUP; k++) {
		group[k].id = inode->extent_hole.id;
		group[k].value = inode->extent_fill[g];
	}
	inode->extent[g] = group;
	return group;
}

/* Block @k of a long run's group @g := @state, the group not compact:
 * its byte, added to the sparse group (capacity grown; past
 * EXTENT_SPARSE_MAX the group made compact) unless it holds the fill. */
static void extent_sparse_store(struct km_inode *inode, unsigned long g,
				unsigned int k, uint8_t state)
{
	struct sim_word *p = extent_group(inode, g);
	struct extent_sparse *sp = p ? extent_sparse(p) : NULL;

	for (unsigned int i = 0; sp && i < sp->n; i++) {
		if (sp->off[i] == k) {
			extent_sparse_states(sp)[i] = state;
			return;
		}
	}
	if (state == extent_fill_of(inode, g))
		return;
	if (sp && sp->n == sp->cap && sp->cap == EXTENT_SPARSE_MAX) {
		/* Compact from now on: the fill, then the sparse bytes. */
		struct extent_compact *c = extent_compact_make(inode, g);

		for (unsigned int i = 0; i < sp->n; i++)
			c->state[sp->off[i]] = extent_sparse_states(sp)[i];
		c->state[k] = state;
		sim_arena_free(sp, extent_sparse_bytes(sp->cap));
		return;
	}
	if (!sp || sp->n == sp->cap) {
		unsigned int cap = sp ? 2u * sp->cap : EXTENT_SPARSE_FIRST;
		struct extent_sparse *bigger =
			sim_arena_alloc(extent_sparse_bytes(cap));

		bigger->cap = (uint16_t)cap;
		if (sp) {
			bigger->n = sp->n;
			for (unsigned int i = 0; i < sp->n; i++) {
				bigger->off[i] = sp->off[i];
				extent_sparse_states(bigger)[i] =
					extent_sparse_states(sp)[i];
			}
			sim_arena_free(sp, extent_sparse_bytes(sp->cap));
		}
		sp = bigger;
		extent_group_set(inode, g, (struct sim_word *)((uintptr_t)sp | 1));
	}
	sp->off[sp->n] = (uint16_t)k;
	extent_sparse_states(sp)[sp->n++] = state;
}

/* The state of block @k of a long run's group @g, not compact. */
static uint8_t extent_sparse_state(const struct km_inode *inode,
				   unsigned long g, unsigned int k)
{
	struct sim_word *p = extent_group(inode, g);
	struct extent_sparse *sp;

	if (!p)
		return extent_fill_of(inode, g);
	sp = extent_sparse(p);
	for (unsigned int i = 0; i < sp->n; i++)
		if (sp->off[i] == k)
			return extent_sparse_states(sp)[i];
	return extent_fill_of(inode, g);
}

/* sim_word_where of the map (base: the inode): an exploration's word;
 * a long run's stand-in, loaded (m_extent_write stores it back). */
static struct sim_word *extent_at(void *base, unsigned long block, bool make)
{
	struct km_inode *inode = base;
	unsigned long g = block >> M_EXT_GROUP_SHIFT;
	unsigned int k = (unsigned int)(block & (M_EXT_GROUP - 1));

	(void)make;
	if (!extent_long_run(inode))
		return &inode->extent[g][k];
	if (extent_is_compact(extent_group(inode, g)))
		return extent_stand_in(inode,
				       extent_compact(extent_group(inode, g))->
				       state[k]);
	return extent_stand_in(inode, extent_sparse_state(inode, g, k));
}

/* Groups from @g on laid out in @fill (a long run's setup, in group
 * order): a new run unless the last one has that fill. */
static void extent_layout_add(struct km_inode *inode, unsigned long g,
			      uint8_t fill)
{
	struct m_extent_layout *run = inode->extent_layout;
	unsigned int n = inode->extent_layout_count;

	if (n && run[n - 1].fill == fill)
		return;
	if (n == inode->extent_layout_cap) {
		unsigned int cap = n ? 2 * n : 4;
		struct m_extent_layout *bigger =
			sim_arena_alloc(cap * sizeof(*bigger));

		if (n) {
			memcpy(bigger, run, n * sizeof(*run));
			sim_arena_free(run, n * sizeof(*run));
		}
		inode->extent_layout = run = bigger;
		inode->extent_layout_cap = cap;
	}
	run[n].first_group = g;
	run[n].fill = fill;
	inode->extent_layout_count = n + 1;
}

void m_extent_init(struct km_inode *inode, const char *name, bool long_run,
		   char (*state_of)(const void *arg, unsigned long block),
		   const void *arg)
{
	m_extent_init_runs(inode, name, long_run, state_of, NULL, arg);
}

/*
 * m_extent_init() with @run_end (may be NULL): the end of the run of
 * blocks from @block on that all have @block's state, so that a long
 * run's setup steps over the uniform groups of a large file (issue 28:
 * a 1 TiB file's 2^28 blocks were each asked their state) and costs the
 * groups that are not uniform.  The same map either way.
 */
void m_extent_init_runs(struct km_inode *inode, const char *name,
			bool long_run,
			char (*state_of)(const void *arg, unsigned long block),
			unsigned long (*run_end)(const void *arg,
						 unsigned long block),
			const void *arg)
{
	unsigned long groups = (inode->nr_blocks + M_EXT_GROUP - 1) >>
			       M_EXT_GROUP_SHIFT;

	inode->extent = NULL;
	inode->extent_fill = NULL;
	inode->extent_dir = NULL;
	inode->extent_layout = NULL;
	inode->extent_layout_count = inode->extent_layout_cap = 0;
	inode->i_ext_end = 0;
	if (!long_run) {
		inode->extent = sim_arena_alloc(groups *
						sizeof(*inode->extent));
		inode->extent_fill = sim_arena_alloc(groups);
		/* Every word named, in block order, as always. */
		inode->extent_hole.id = 0;
		for (unsigned long g = 0; g < groups; g++)
			extent_group_make(inode, g);
		for (unsigned long b = 0; b < inode->nr_blocks; b++) {
			struct sim_word *w = &inode->extent[b >>
				M_EXT_GROUP_SHIFT][b & (M_EXT_GROUP - 1)];

			sim_word_init(w, (uint64_t)state_of(arg, b),
				      "%s.extent[%lu]", name, b);
			if (state_of(arg, b) != M_EXT_HOLE)
				inode->i_ext_end = (unsigned int)b + 1;
		}
		return;
	}
	inode->extent_hole.id = sim_object_register("%s.extent", name);
	/* A pointer per M_EXT_LEAF groups (8 bytes per GiB of 4 KiB
	 * blocks), at least one. */
	inode->extent_dir = sim_arena_alloc(((groups + M_EXT_LEAF - 1) >>
					     M_EXT_LEAF_SHIFT) *
					    sizeof(*inode->extent_dir) + 1);
	for (unsigned long g = 0; g < groups; g++) {
		unsigned long first = g << M_EXT_GROUP_SHIFT;
		unsigned long end = first + M_EXT_GROUP;
		char fill = state_of(arg, first);
		struct extent_compact *c;
		unsigned long b;

		if (end > inode->nr_blocks)
			end = inode->nr_blocks;
		extent_layout_add(inode, g, (uint8_t)fill);
		if (run_end) {
			unsigned long e = run_end(arg, first);

			if (e >= end) {
				/* This group and the next ones the run
				 * covers whole: uniform, in the layout run
				 * just added (no words). */
				unsigned long gl = e >= inode->nr_blocks ?
					groups : e >> M_EXT_GROUP_SHIFT;

				if (gl > g + 1)
					g = gl - 1;
				continue;
			}
		}
		for (b = first + 1; b < end && state_of(arg, b) == fill; b++)
			;
		if (b == end) {	/* uniform: no words */
			if (fill != M_EXT_HOLE)
				inode->i_ext_end = (unsigned int)end;
			continue;
		}
		c = extent_compact_make(inode, g);
		for (b = first; b < end; b++) {
			c->state[b - first] = (uint8_t)state_of(arg, b);
			if (c->state[b - first] != M_EXT_HOLE)
				inode->i_ext_end = (unsigned int)b + 1;
		}
	}
}

/*
 * A long run, in the step of a write of @block: group @g one state again
 * if it has become uniform (see the map's comment above).
 */
static void extent_group_maybe_collapse(struct km_inode *inode,
					unsigned long g, unsigned long block)
{
	struct sim_word *group = extent_group(inode, g);
	unsigned long n = extent_group_blocks(inode, g);
	unsigned int k = (unsigned int)(block & (M_EXT_GROUP - 1));
	struct extent_compact *c;
	uint32_t *same;

	if (!group)
		return;
	if (extent_is_sparse(group)) {
		struct extent_sparse *sp = extent_sparse(group);

		for (unsigned int i = 0; i < sp->n; i++)
			if (extent_sparse_states(sp)[i] !=
			    extent_fill_of(inode, g))
				return;
		sim_arena_free(sp, extent_sparse_bytes(sp->cap));
		extent_group_set(inode, g, NULL);
		return;
	}
	c = extent_compact(group);	/* a long run's dense group */
	same = &c->same;
	if (k == 0)
		*same = 1;	/* the first block's state changed */
	else if (k < *same && c->state[k] != c->state[0])
		*same = k;
	while (*same < n && c->state[*same] == c->state[0])
		(*same)++;
	if (*same < n)
		return;
	extent_fill_set(inode, g, c->state[0]);
	sim_arena_free(c, sizeof(*c));
	extent_group_set(inode, g, NULL);
}

struct sim_word *m_extent_word(struct km_inode *inode, unsigned long block)
{
	return extent_at(inode, block, true);
}

char m_extent_peek(const struct km_inode *inode, unsigned long block)
{
	unsigned long g = block >> M_EXT_GROUP_SHIFT;
	unsigned int k = (unsigned int)(block & (M_EXT_GROUP - 1));

	if (block >= inode->nr_blocks)
		return M_EXT_HOLE;
	if (!extent_long_run(inode))
		return (char)sim_word_peek(&inode->extent[g][k]);
	if (extent_is_compact(extent_group(inode, g)))
		return (char)extent_compact(extent_group(inode, g))->state[k];
	return (char)extent_sparse_state(inode, g, k);
}

unsigned long m_extent_next_mapped(const struct km_inode *inode,
				   unsigned long block)
{
	while (block < inode->nr_blocks) {
		unsigned long g = block >> M_EXT_GROUP_SHIFT;

		if (!extent_group(inode, g) &&
		    extent_fill_of(inode, g) == M_EXT_HOLE) {
			block = (g + 1) << M_EXT_GROUP_SHIFT;
			continue;
		}
		if (m_extent_peek(inode, block) != M_EXT_HOLE)
			return block;
		block++;
	}
	return inode->nr_blocks;
}

char m_extent_read(struct km_inode *inode, unsigned long block)
{
	/* A long run's map is one object: its id needs no look-up. */
	if (extent_long_run(inode))
		return (char)sim_word_read_at_id(extent_at, inode, block,
						 inode->extent_hole.id);
	return (char)sim_word_read_at(extent_at, inode, block);
}

/*
 * No block on disk is freed while a direct I/O of its file is in flight:
 * the contract of inode_dio_wait (fs/inode.c, v6.18: "Must be called
 * under a lock that serializes taking new references to i_dio_count,
 * usually by inode->i_rwsem"), which every v6.18 path that frees blocks
 * keeps (xfs_file_fallocate and xfs_setattr_size under the IOLOCK
 * exclusive, ext4_punch_hole and ext4_setattr under i_rwsem, both after
 * inode_dio_wait): a direct I/O holds i_dio_count from before its bios
 * are built until its completion, so a block freed meanwhile may be
 * given to another file while the device still reads or writes it.
 * v6.18 asserts nothing here (the model's own check, a peek of the
 * count: no scheduling point).  A written or unwritten block becoming a
 * hole is a free; a delalloc reservation dropped is not (writeback's
 * xfs_discard_folio drops one without the IOLOCK).
 */
static void extent_check_free(const struct km_inode *inode,
			      unsigned long block, char state)
{
	char was;

	if (state != M_EXT_HOLE)
		return;
	was = m_extent_peek(inode, block);
	if (was != M_EXT_WRITTEN && was != M_EXT_UNWRITTEN)
		return;
	SIM_ASSERT_MSG(!sim_word_peek(&inode->i_dio_count),
		       "%s: block %lu freed while %llu direct I/O are in "
		       "flight (inode_dio_wait's contract)", inode->name,
		       block,
		       (unsigned long long)sim_word_peek(&inode->i_dio_count));
}

void m_extent_write(struct km_inode *inode, unsigned long block, char state)
{
	struct sim_word *group;

	extent_check_free(inode, block, state);
	if (extent_long_run(inode))	/* one object: m_extent_read */
		sim_word_write_at_id(extent_at, inode, block,
				     (uint64_t)state, inode->extent_hole.id);
	else
		sim_word_write_at(extent_at, inode, block, (uint64_t)state);
	if (state != M_EXT_HOLE && block >= inode->i_ext_end)
		inode->i_ext_end = (unsigned int)block + 1;
	if (!extent_long_run(inode))
		return;
	/* The block was written to the stand-in (in this step, after the
	 * point): its byte takes it. */
	group = extent_group(inode, block >> M_EXT_GROUP_SHIFT);
	if (extent_is_compact(group))
		extent_compact(group)->state[block & (M_EXT_GROUP - 1)] =
			(uint8_t)state;
	else
		extent_sparse_store(inode, block >> M_EXT_GROUP_SHIFT,
				    (unsigned int)(block & (M_EXT_GROUP - 1)),
				    (uint8_t)state);
	extent_group_maybe_collapse(inode, block >> M_EXT_GROUP_SHIFT, block);
}

/*
 * ip->i_delayed_blks != 0: the kernel reads, without a lock, one counter
 * the block map's delalloc changes keep; the model has no counter, so it
 * reads every block's state under the ILOCK shared (the block map's
 * lock: lockdep's rule), in one step (the read of block 0 makes the
 * point, the others are recorded as read in it).
 */
bool m_xfs_has_delayed_blks(struct km_inode *inode)
{
	bool found;

	if (!inode->nr_blocks)
		return false;
	km_down_read(&inode->i_data_sem);
	found = m_extent_read(inode, 0) == M_EXT_DELALLOC;
	for (unsigned long b = 1; b < inode->nr_blocks; b++) {
		if ((char)sim_word_read_also_at(extent_at, inode, b) ==
		    M_EXT_DELALLOC)
			found = true;
		/* An absent group is one stand-in word: read it once. */
		if (!extent_group(inode, b >> M_EXT_GROUP_SHIFT))
			b |= M_EXT_GROUP - 1;
	}
	km_up_read(&inode->i_data_sem);
	return found;
}

/*
 * ip->i_df.if_nextents != 0: the data fork has real extents (written or
 * unwritten; delalloc reservations are not counted).  The kernel reads
 * the counter without the ILOCK (xfs_setattr_size's short path); the
 * model has no counter and reads the block map as
 * m_xfs_has_delayed_blks does, under the ILOCK shared, in one step.
 */
bool m_xfs_has_extents(struct km_inode *inode)
{
	bool found;
	char state;

	if (!inode->nr_blocks)
		return false;
	km_down_read(&inode->i_data_sem);
	state = m_extent_read(inode, 0);
	found = state == M_EXT_WRITTEN || state == M_EXT_UNWRITTEN;
	for (unsigned long b = 1; b < inode->nr_blocks; b++) {
		state = (char)sim_word_read_also_at(extent_at, inode, b);
		if (state == M_EXT_WRITTEN || state == M_EXT_UNWRITTEN)
			found = true;
		/* An absent group is one stand-in word: read it once. */
		if (!extent_group(inode, b >> M_EXT_GROUP_SHIFT))
			b |= M_EXT_GROUP - 1;
	}
	km_up_read(&inode->i_data_sem);
	return found;
}

static char extent_read(struct km_inode *inode, unsigned long block)
{
	if (block >= inode->nr_blocks)
		return M_EXT_HOLE;
	return m_extent_read(inode, block);
}

/* Set the blocks of [pos, pos + len) in state @from (any if 0) to @to;
 * return how many changed.  The caller holds i_data_sem exclusive. */
unsigned long m_xfs_extent_set_range(struct km_inode *inode, loff_t pos,
				     loff_t len, char from, char to)
{
	unsigned long first = (unsigned long)(pos >> inode->i_blkbits);
	unsigned long last = (unsigned long)((pos + len - 1) >>
					     inode->i_blkbits);
	unsigned long n = 0;

	for (unsigned long b = first; b <= last && b < inode->nr_blocks; b++)
		if (!from || extent_read(inode, b) == from) {
			m_extent_write(inode, b, to);
			n++;
		}
	return n;
}

static unsigned int iomap_type(char state)
{
	switch (state) {
	case M_EXT_WRITTEN:
		return IOMAP_MAPPED;
	case M_EXT_UNWRITTEN:
		return IOMAP_UNWRITTEN;
	case M_EXT_DELALLOC:
		return IOMAP_DELALLOC;
	default:
		return IOMAP_HOLE;
	}
}

/* ---- speculative preallocation past EOF ----------------------------------- */

/* fs/xfs/libxfs/xfs_format.h, v6.18: BMBT_BLOCKCOUNT_BITLEN 21. */
#define XFS_MAX_BMBT_EXTLEN	((1UL << 21) - 1)
/* fs/xfs/xfs_mount.h: the five low-space thresholds, 1% to 5%. */
#define XFS_LOWSP_MAX		5

/*
 * mp->m_allocsize_log (fs/xfs/xfs_super.c, xfs_mount.c; v6.18): the
 * allocsize mount option's, else 16 (64 KiB, xfs_fs_init_fs_context),
 * never below the block size (xfs_mountfs).  mp->m_allocsize_blocks is
 * 1 << (it - blocklog).
 */
static unsigned int xfs_allocsize_log(const struct km_inode *inode)
{
	unsigned int log = m_world()->xfs_allocsize_log ?
			   m_world()->xfs_allocsize_log : 16;

	return log > inode->i_blkbits ? log : inode->i_blkbits;
}

static unsigned long xfs_allocsize_blocks(const struct km_inode *inode)
{
	return 1UL << (xfs_allocsize_log(inode) - inode->i_blkbits);
}

static unsigned long rounddown_pow2(unsigned long n)
{
	while (n & (n - 1))
		n &= n - 1;
	return n;
}

static unsigned long roundup_pow2(unsigned long n)
{
	unsigned long p = 1;

	while (p < n)
		p <<= 1;
	return p;
}

/*
 * xfs_iext_lookup_extent's eof (fs/xfs/libxfs/xfs_iext_tree.c, v6.18):
 * no extent (written, unwritten or delalloc) at or after @block.  The
 * model's map has no records: the blocks from @block to i_ext_end are
 * read (the caller holds the ILOCK), in one step, as
 * m_xfs_has_delayed_blks reads the map (the read of @block makes the
 * point, the others are recorded as read in it; an absent group is read
 * once).
 */
static bool xfs_no_extent_from(struct km_inode *inode, unsigned long block)
{
	unsigned long end = inode->i_ext_end;

	if (block >= end)
		return true;
	if (m_extent_read(inode, block) != M_EXT_HOLE)
		return false;
	for (unsigned long b = block + 1; b < end; b++) {
		if ((char)sim_word_read_also_at(extent_at, inode, b) !=
		    M_EXT_HOLE)
			return false;
		if (!extent_group(inode, b >> M_EXT_GROUP_SHIFT))
			b |= M_EXT_GROUP - 1;
	}
	return true;
}

bool m_xfs_has_extent_from(struct km_inode *inode, unsigned long block)
{
	return !xfs_no_extent_from(inode, block);
}

/* A delalloc block at or after @block (read as xfs_no_extent_from). */
bool m_xfs_has_delalloc_from(struct km_inode *inode, unsigned long block)
{
	unsigned long end = inode->i_ext_end;

	if (block >= end)
		return false;
	if (m_extent_read(inode, block) == M_EXT_DELALLOC)
		return true;
	for (unsigned long b = block + 1; b < end; b++) {
		if ((char)sim_word_read_also_at(extent_at, inode, b) ==
		    M_EXT_DELALLOC)
			return true;
		if (!extent_group(inode, b >> M_EXT_GROUP_SHIFT))
			b |= M_EXT_GROUP - 1;
	}
	return false;
}

/*
 * The preceding data extents' length for xfs_iomap_prealloc_size: the
 * extent ending at @block - 1 (any state), then the extents before it
 * while they are real (written or unwritten; a delalloc one ends the
 * walk, isnullstartblock) and adjacent, until the sum passes
 * XFS_MAX_BMBT_EXTLEN / 2.  0: a hole at @block - 1 (or no block).
 * The blocks are recorded as read in the caller's last step (under the
 * ILOCK, as xfs_no_extent_from).
 * Divergence: the model keeps no disk blocks, so adjacent extents count
 * as contiguous on disk (the kernel's walk also stops at a physical
 * gap); a record's length is a run of blocks in one state (the kernel's
 * records of one state can be several, each at most
 * XFS_MAX_BMBT_EXTLEN: the sum is the same).
 */
static unsigned long xfs_prev_extents_len(struct km_inode *inode,
					  unsigned long block)
{
	unsigned long b = block, plen = 0;
	char prev;

	if (!block || block > inode->nr_blocks)
		return 0;
	prev = (char)sim_word_read_also_at(extent_at, inode, block - 1);
	if (prev == M_EXT_HOLE)
		return 0;
	/* The extent record before the write, whatever its state. */
	while (b > 0 && plen <= XFS_MAX_BMBT_EXTLEN / 2 &&
	       (char)sim_word_read_also_at(extent_at, inode, b - 1) == prev) {
		b--;
		plen++;
	}
	/* The real extents before it, adjacent. */
	while (b > 0 && plen <= XFS_MAX_BMBT_EXTLEN / 2) {
		unsigned long g = (b - 1) >> M_EXT_GROUP_SHIFT;
		char s = (char)sim_word_read_also_at(extent_at, inode, b - 1);

		if (s != M_EXT_WRITTEN && s != M_EXT_UNWRITTEN)
			break;
		/* A group of one state (absent): all of it at once. */
		if (!extent_group(inode, g) &&
		    ((b - 1) & (M_EXT_GROUP - 1)) == M_EXT_GROUP - 1) {
			plen += M_EXT_GROUP;
			b -= M_EXT_GROUP;
			continue;
		}
		plen++;
		b--;
	}
	return plen;
}

/*
 * xfs_iomap_freesp (v6.18): the free blocks (xfs_estimate_freecounter)
 * and the shift for each low-space threshold (1%..5% of the data
 * device, xfs_set_low_space_thresholds) they are under.  Without the
 * world's free-space count the filesystem never runs low: shift 0, and
 * the free space is not a bound.
 */
static int64_t xfs_iomap_freesp(int *shift)
{
	struct m_world *w = m_world();
	uint64_t pct = w->xfs_dblocks / 100;
	int64_t freesp;

	if (!m_xfs_fdblocks_counted())
		return INT64_MAX;
	freesp = (int64_t)sim_word_read(&w->fdblocks);
	if (freesp < (int64_t)(pct * 5)) {
		*shift = 2;
		for (int i = XFS_LOWSP_MAX - 2; i >= 0; i--)
			if (freesp < (int64_t)(pct * (uint64_t)(i + 1)))
				(*shift)++;
	}
	return freesp;
}

/**
 * km_xfs_iomap_prealloc_size - how many blocks to reserve past the end
 * of a write that extends the file past its last extent.
 * Kernel: fs/xfs/xfs_iomap.c xfs_iomap_prealloc_size, v6.18 (the data
 * fork; called only without the allocsize mount option).
 * Context: the ILOCK (i_data_sem) held exclusive; reads i_size and, when
 * kept, the free-space count.
 * Return: 0 when the file is smaller than m_allocsize_blocks (likely its
 * only write); m_allocsize_blocks when the file is smaller than the
 * stripe unit (no stripe in the model: never) or the write comes right
 * after a hole (no extent ends at its first block); else twice the
 * preceding contiguous extents (the offset itself past
 * XFS_MAX_BMBT_EXTLEN), capped at roundup_pow_of_two(XFS_MAX_BMBT_EXTLEN),
 * shifted down by the low-space throttle, rounded down to a power of
 * two, capped at XFS_MAX_BMBT_EXTLEN, divided by 16 while not below the
 * free space, and at least m_allocsize_blocks.
 * Divergences: no quota throttle (xfs_quota_calc_throttle), no realtime
 * device; the preceding extents' length is xfs_prev_extents_len's (the
 * model's blocks are all contiguous on disk); the free space is the
 * count read in one step (the kernel's estimate, percpu_counter_read,
 * is as loose).
 */
unsigned long km_xfs_iomap_prealloc_size(struct km_inode *inode,
					 loff_t offset)
{
	unsigned long offset_fsb = (unsigned long)(offset >> inode->i_blkbits);
	unsigned long allocsize = xfs_allocsize_blocks(inode);
	loff_t isize = km_i_size_read(inode);
	unsigned long plen, alloc_blocks, qblocks;
	int64_t freesp;
	int shift = 0;

	/* Likely the file's only write: none. */
	if (isize < (loff_t)(allocsize << inode->i_blkbits))
		return 0;
	/* A small file (m_dalign 0: never) or right after a hole. */
	plen = xfs_prev_extents_len(inode, offset_fsb);
	if (!plen)
		return allocsize;
	/* Twice the preceding extents; past the largest extent, the
	 * offset itself. */
	alloc_blocks = plen * 2;
	if (alloc_blocks > XFS_MAX_BMBT_EXTLEN)
		alloc_blocks = (unsigned long)((offset +
			((loff_t)1 << inode->i_blkbits) - 1) >>
			inode->i_blkbits);
	qblocks = alloc_blocks;
	if (alloc_blocks > roundup_pow2(XFS_MAX_BMBT_EXTLEN))
		alloc_blocks = roundup_pow2(XFS_MAX_BMBT_EXTLEN);
	freesp = xfs_iomap_freesp(&shift);
	/* No quota: qblocks and qshift stay the file's. */
	if (qblocks < alloc_blocks)
		alloc_blocks = qblocks;
	if (shift)
		alloc_blocks >>= shift;
	if (alloc_blocks)
		alloc_blocks = rounddown_pow2(alloc_blocks);
	if (alloc_blocks > XFS_MAX_BMBT_EXTLEN)
		alloc_blocks = XFS_MAX_BMBT_EXTLEN;
	/* Squash it hard when still more than the free space. */
	while (alloc_blocks && (int64_t)alloc_blocks >= freesp)
		alloc_blocks >>= 4;
	if (alloc_blocks < allocsize)
		alloc_blocks = allocsize;
	return alloc_blocks;
}

/*
 * The preallocation of a write of [@pos, @pos + @count) whose blocks end
 * at @end_fsb, in blocks past @end_fsb: xfs_buffered_write_iomap_begin's
 * block after the lookup (v6.18), when no extent lies at or after the
 * write (eof) and the write ends past i_size: m_allocsize_blocks with
 * the allocsize mount option, else km_xfs_iomap_prealloc_size; then the
 * end rounded to m_allocsize_log below the write's last byte plus that
 * (XFS_ALLOC_ALIGN), no EOF alignment (no stripe or extent size hint),
 * capped at the file's room (the kernel's s_maxbytes: the model's file
 * has m_file_pages_max pages of blocks).
 */
static unsigned long xfs_write_prealloc(struct km_inode *inode, loff_t pos,
					loff_t count, unsigned long end_fsb)
{
	unsigned long offset_fsb = (unsigned long)(pos >> inode->i_blkbits);
	unsigned long prealloc, p_end_fsb;
	loff_t end_offset;

	if (!xfs_no_extent_from(inode, offset_fsb) ||
	    pos + count <= km_i_size_read(inode))
		return 0;
	prealloc = m_world()->xfs_allocsize_log ?
		   xfs_allocsize_blocks(inode) :
		   km_xfs_iomap_prealloc_size(inode, pos);
	if (!prealloc)
		return 0;
	end_offset = ((pos + count - 1) >> xfs_allocsize_log(inode)) <<
		     xfs_allocsize_log(inode);
	p_end_fsb = (unsigned long)(end_offset >> inode->i_blkbits) + prealloc;
	if (p_end_fsb > inode->nr_blocks)
		p_end_fsb = inode->nr_blocks;
	return p_end_fsb > end_fsb ? p_end_fsb - end_fsb : 0;
}

/**
 * m_xfs_buffered_write_iomap_begin - the mapping at @pos: the run of
 * blocks in one state, reserving delalloc over holes for writes.
 * Kernel: fs/xfs/xfs_iomap.c xfs_buffered_write_iomap_begin, v6.18
 * (shape only).
 * Context: takes i_data_sem (the ILOCK), shared, exclusive to reserve;
 * under IOMAP_NOWAIT only if it is free (xfs_ilock_for_iomap:
 * xfs_ilock_nowait, issue 30 item 6).
 * Return: 0, -EAGAIN under IOMAP_NOWAIT when the ILOCK is held, or
 * -ENOSPC when the free-space count is kept and cannot cover the
 * delalloc reservation (xfs_bmapi_reserve_delalloc's xfs_dec_fdblocks).
 * A hole at @pos of a write (the write's holes up to the next extent,
 * xfs_bmapi_reserve_delalloc's alen) is reserved delalloc, and when no
 * extent lies at or after it and the write ends past i_size, so are the
 * speculative preallocation's blocks past the write's end
 * (xfs_write_prealloc, km_xfs_iomap_prealloc_size), in the same
 * reservation; -ENOSPC with a preallocation retries without it
 * (xfs_bmapi_reserve_delalloc's retry label).  Writeback converts the
 * whole delalloc extent (m_xfs_writeback_allocate), so later writes
 * into the preallocation find unwritten blocks and allocate nothing;
 * km_xfs_file_release trims what is left past EOF at the first close
 * (xfs_free_eofblocks).
 * Divergences: the reservation is the data blocks alone: no indirect
 * blocks (xfs_bmap_worst_indlen); the quota reservation is not
 * modelled; the write's count is not capped at 1024 pages; the inode is
 * not tagged for the background blockgc scan
 * (xfs_inode_set_eofblocks_tag: the model has no blockgc worker, so
 * post-EOF blocks stay until the release or a truncate frees them).
 * The mapping is the run of blocks in one state; the
 * kernel's is one extent record (xfs_iext_lookup_extent), and two
 * adjacent written extents stay two unless their disk blocks are
 * contiguous (the model has no disk allocator: every block of a file is
 * contiguous with the next).  Where a write's iomap_iter step ends
 * therefore differs, and with it a NOWAIT buffered write's short count
 * when __iomap_write_begin would have to read a partly covered block
 * (-EAGAIN under IOMAP_NOWAIT): class M of docs/model/fidelity.md.
 */
int m_xfs_buffered_write_iomap_begin(struct km_inode *inode, loff_t pos,
				     loff_t len, unsigned int flags,
				     struct km_iomap *iomap)
{
	unsigned long block = (unsigned long)(pos >> inode->i_blkbits);
	unsigned long last = (unsigned long)((pos + len - 1) >>
					     inode->i_blkbits);
	unsigned long b;
	char state;

	if (flags & IOMAP_NOWAIT) {
		if (!((flags & IOMAP_WRITE) ?
		      km_down_write_trylock(&inode->i_data_sem) :
		      km_down_read_trylock(&inode->i_data_sem)))
			return -KM_EAGAIN;
	} else if (flags & IOMAP_WRITE) {
		km_down_write(&inode->i_data_sem);
	} else {
		km_down_read(&inode->i_data_sem);
	}
	state = extent_read(inode, block);
	for (b = block + 1; b <= last && extent_read(inode, b) == state; b++)
		;
	iomap->offset = (loff_t)block << inode->i_blkbits;
	iomap->length = (loff_t)(b - block) << inode->i_blkbits;
	iomap->type = iomap_type(state);
	iomap->flags = 0;
	if ((flags & IOMAP_WRITE) && state == M_EXT_HOLE) {
		unsigned long end = b < inode->nr_blocks ? b : inode->nr_blocks;
		/* The speculative preallocation past the write's end,
		 * when b is the write's end (eof: no extent after it). */
		unsigned long prealloc = b > last ?
			xfs_write_prealloc(inode, pos, len, end) : 0;

		/* xfs_bmapi_reserve_delalloc: xfs_dec_fdblocks(alen), the
		 * hole's blocks the write covers and the preallocation;
		 * -ENOSPC retries without the preallocation, then ends the
		 * mapping (out_unlock) and iomap's write with it. */
		if (m_xfs_fdblocks_counted()) {
			int error = end + prealloc > block ?
				    km_xfs_dec_freecounter(end + prealloc -
							   block, false) : 0;

			if (error == -KM_ENOSPC && prealloc) {
				prealloc = 0;
				error = end > block ?
					km_xfs_dec_freecounter(end - block,
							       false) : 0;
			}
			if (error) {
				km_up_write(&inode->i_data_sem);
				return error;
			}
		}
		/* Reserve delalloc blocks for the write and past it. */
		for (unsigned long k = block; k < end + prealloc; k++)
			m_extent_write(inode, k, M_EXT_DELALLOC);
		/* xfs_bmapi_reserve_delalloc: the reservation and the
		 * in-core extent, under the ILOCK (default.cpu). */
		m_cost_delalloc_reserve();
		iomap->type = IOMAP_DELALLOC;
		iomap->flags |= IOMAP_F_NEW;
	}
	if (flags & IOMAP_WRITE)
		km_up_write(&inode->i_data_sem);
	else
		km_up_read(&inode->i_data_sem);
	return 0;
}

/* The run of blocks in one state from @pos (at most to @pos + @len). */
static unsigned long extent_run(struct km_inode *inode, loff_t pos, loff_t len,
				char *statep)
{
	unsigned long block = (unsigned long)(pos >> inode->i_blkbits);
	unsigned long last = (unsigned long)((pos + len - 1) >>
					     inode->i_blkbits);
	unsigned long b;

	*statep = extent_read(inode, block);
	for (b = block + 1; b <= last && extent_read(inode, b) == *statep;
	     b++)
		;
	return b - block;
}

/*
 * xfs_iomap_write_direct's transaction (fs/xfs/xfs_iomap.c, v6.18:
 * xfs_trans_alloc_inode, xfs_bmapi_write of the unwritten extent,
 * xfs_trans_commit into the CIL) for a writethrough or direct write
 * that allocates: its CPU, under the ILOCK, and its log item.  The
 * model charged neither before session 19, where writeback's allocation
 * of the same blocks (xfs_bmapi_convert_delalloc) pays both
 * (m_xfs_writeback_allocate); docs/seed-tables.md, session 19.
 * Context: i_data_sem (the ILOCK) held exclusive.
 * Divergences: the CPU is writeback_alloc_ns, the figure that stands for
 * xfs_bmapi_convert_delalloc (ext4's allocation of a fresh file's blocks
 * measured here, profiles/cpu/default.cpu): no figure of its own.
 */
static void xfs_iomap_write_direct_trans(struct km_inode *inode)
{
	m_cost_writeback_alloc();
	m_xfs_log_alloc_change(inode);
}

/**
 * m_xfs_writethrough_iomap_begin - the mapping of a writethrough write:
 * blocks are allocated, holes and delalloc become unwritten.
 * Kernel: fs/xfs/xfs_iomap.c xfs_direct_write_iomap_begin (shape only):
 * v1 3/3 gave writethrough xfs's direct-write iomap ops (kernel-fs.md
 * §5.1); that v3 still does is inferred (a write that goes to disk at
 * once needs real blocks).
 * Context: i_data_sem (the ILOCK) shared for the lookup, exclusive to
 * allocate (the lookup is repeated under it).
 * Return: 0, or -ENOSPC when the free-space count is kept and cannot
 * cover a hole's allocation (xfs_iomap_write_direct's transaction
 * reservation).
 * Divergences (the allocation): the reservation is the hole's data
 * blocks (the kernel's XFS_DIOSTRAT_SPACE_RES adds the bmap btree's
 * worst case, given back at commit), taken under the ILOCK (the kernel
 * reserves before it takes the ILOCK exclusive), and
 * xfs_trans_alloc_inode's one retry after xfs_blockgc_free_space is not
 * modelled (the model has no post-EOF preallocation or COW blocks for it
 * to free, so the retry would fail the same way).
 */
int m_xfs_writethrough_iomap_begin(struct km_inode *inode, loff_t pos,
				   loff_t len, unsigned int flags,
				   struct km_iomap *iomap)
{
	unsigned long block = (unsigned long)(pos >> inode->i_blkbits);
	bool exclusive = false;
	unsigned long n;
	char state;

	(void)flags;
	km_down_read(&inode->i_data_sem);
	n = extent_run(inode, pos, len, &state);
	if (state == M_EXT_HOLE || state == M_EXT_DELALLOC) {
		km_up_read(&inode->i_data_sem);
		km_down_write(&inode->i_data_sem);
		exclusive = true;
		n = extent_run(inode, pos, len, &state);
	}
	iomap->offset = (loff_t)block << inode->i_blkbits;
	iomap->length = (loff_t)n << inode->i_blkbits;
	iomap->type = iomap_type(state);
	iomap->flags = 0;
	if (state == M_EXT_HOLE || state == M_EXT_DELALLOC) {
		/* xfs_iomap_write_direct: xfs_trans_alloc_inode reserves
		 * the blocks (xfs_trans_reserve -> xfs_dec_fdblocks) for a
		 * hole; a delalloc range has its blocks reserved already.
		 * -ENOSPC: no allocation, the error goes up to the write. */
		if (state == M_EXT_HOLE && m_xfs_fdblocks_counted()) {
			unsigned long end = block + n < inode->nr_blocks ?
					    block + n : inode->nr_blocks;
			int error = end > block ?
				    km_xfs_dec_freecounter(end - block,
							   false) : 0;

			if (error) {
				km_up_write(&inode->i_data_sem);
				return error;
			}
		}
		/* xfs_iomap_write_direct: allocate unwritten extents. */
		for (unsigned long k = block; k < block + n &&
		     k < inode->nr_blocks; k++)
			m_extent_write(inode, k, M_EXT_UNWRITTEN);
		xfs_iomap_write_direct_trans(inode);
		iomap->type = IOMAP_UNWRITTEN;
		iomap->flags |= IOMAP_F_NEW;
		km_up_write(&inode->i_data_sem);
		return 0;
	}
	if (exclusive)
		km_up_write(&inode->i_data_sem);
	else
		km_up_read(&inode->i_data_sem);
	return 0;
}

/*
 * xfs_unmap_extent over [@pos, @pos + @len) (whole blocks): the model's
 * block map, under the ILOCK (model/fs/xfs/xfs_bmap_util.c).
 */
void m_xfs_unmap_blocks(struct km_inode *inode, loff_t pos, loff_t len)
{
	km_down_write(&inode->i_data_sem);
	m_xfs_extent_free_range(inode, pos, len);
	km_up_write(&inode->i_data_sem);
}

/*
 * The blocks of [@pos, @pos + @len) become a hole.  With the free-space
 * count kept, the blocks mapped (written or unwritten: the extent freed
 * by xfs_bmap_del_extent_real, its blocks back in m_fdblocks when the
 * transaction commits, xfs_trans_unreserve_and_mod_sb) and the delalloc
 * ones (xfs_bmap_del_extent_delay: xfs_add_fdblocks of the reservation)
 * go back to the count, found without a step as km_evict finds them
 * (the kernel walks its extent records); without it every block of the
 * range is written, as before.  The caller holds i_data_sem exclusive.
 * Divergence: the freed blocks are back at once (the kernel's frees of
 * written extents are deferred, xfs_free_extent_later, and counted at
 * the commit of the transaction that unmaps them).
 */
unsigned long m_xfs_extent_free_range(struct km_inode *inode, loff_t pos,
				      loff_t len)
{
	unsigned long first = (unsigned long)(pos >> inode->i_blkbits);
	unsigned long last = (unsigned long)((pos + len - 1) >>
					     inode->i_blkbits);
	unsigned long n = 0;

	if (!m_xfs_fdblocks_counted())
		return m_xfs_extent_set_range(inode, pos, len, 0, M_EXT_HOLE);
	for (unsigned long b = m_extent_next_mapped(inode, first);
	     b <= last && b < inode->nr_blocks;
	     b = m_extent_next_mapped(inode, b + 1)) {
		m_extent_write(inode, b, M_EXT_HOLE);
		n++;
	}
	if (n)
		km_xfs_add_freecounter(n);
	return n;
}

/**
 * km_xfs_direct_write_iomap_begin - map an O_DIRECT write; holes and
 * delalloc blocks are allocated unwritten.
 * Kernel: fs/xfs/xfs_iomap.c xfs_direct_write_iomap_begin,
 * xfs_ilock_for_iomap, imap_needs_alloc, imap_spans_range, v6.18.
 * Context: i_data_sem (the ILOCK) shared for the lookup, with
 * xfs_ilock_nowait under IOMAP_NOWAIT; exclusive to allocate.
 * Return: 0, or -EAGAIN under IOMAP_NOWAIT when the ILOCK is held, when
 * the range needs an allocation, or when one mapping does not span the
 * whole range (issue 30 item 5); the same two under IOMAP_OVERWRITE_ONLY
 * (xfs_file_dio_write_unaligned's optimistic pass, the ILOCK taken
 * blocking), and for an unwritten extent under a range not block
 * aligned.
 * Divergences: no COW fork, atomic writes, DAX or extent
 * size hints; without IOMAP_NOWAIT the lookup and allocation are
 * m_xfs_writethrough_iomap_begin's (shared lookup, then exclusive and a
 * second lookup, for xfs_iomap_write_direct's transaction, which takes
 * the ILOCK exclusive itself after the shared one is dropped); the
 * allocation is not capped at 1024 pages; IOMAP_F_DIRTY for a write
 * spanning EOF only (xfs_bmbt_to_iomap also sets it for an inode pinned
 * in the log with fsync fields, which the model does not track: it
 * matters only on a device with FUA or without a write cache, where a
 * DSYNC overwrite then uses FUA and skips the fsync).  "One mapping" is a run of
 * blocks in one state; the kernel's imap_spans_range tests one extent
 * record, and written blocks allocated at different times are often two
 * records (no disk allocator in the model): a NOWAIT write over both is
 * -EAGAIN in the kernel and written here (class M of
 * docs/model/fidelity.md).
 */
int km_xfs_direct_write_iomap_begin(struct km_inode *inode, loff_t pos,
				    loff_t len, unsigned int flags,
				    struct km_iomap *iomap)
{
	unsigned long block = (unsigned long)(pos >> inode->i_blkbits);
	unsigned long want = (unsigned long)((pos + len - 1) >>
					     inode->i_blkbits) - block + 1;
	unsigned int iomap_flags = 0;
	unsigned long n;
	char state;
	int error;

	/* A write spanning EOF may update the size at completion: dirty
	 * for O_DSYNC even without other metadata changes. */
	if (pos + len > km_i_size_read(inode))
		iomap_flags |= IOMAP_F_DIRTY;
	if (!(flags & (IOMAP_NOWAIT | IOMAP_OVERWRITE_ONLY))) {
		error = m_xfs_writethrough_iomap_begin(inode, pos, len, flags,
						       iomap);
		if (!error)
			iomap->flags |= iomap_flags;
		return error;
	}
	/* xfs_ilock_for_iomap: shared, a trylock under IOMAP_NOWAIT */
	if (!(flags & IOMAP_NOWAIT))
		km_down_read(&inode->i_data_sem);
	else if (!km_down_read_trylock(&inode->i_data_sem))
		return -KM_EAGAIN;
	n = extent_run(inode, pos, len, &state);
	/* imap_needs_alloc: allocate_blocks is -EAGAIN under NOWAIT and
	 * OVERWRITE_ONLY; and the single map must span the I/O
	 * (imap_spans_range). */
	if (state == M_EXT_HOLE || state == M_EXT_DELALLOC || n < want) {
		km_up_read(&inode->i_data_sem);
		return -KM_EAGAIN;
	}
	/* OVERWRITE_ONLY: an unwritten extent under a sub-block range needs
	 * zeroing, which only the exclusive IOLOCK allows. */
	if ((flags & IOMAP_OVERWRITE_ONLY) && state != M_EXT_WRITTEN &&
	    ((pos | len) & (((loff_t)1 << inode->i_blkbits) - 1))) {
		km_up_read(&inode->i_data_sem);
		return -KM_EAGAIN;
	}
	iomap->offset = (loff_t)block << inode->i_blkbits;
	iomap->length = (loff_t)n << inode->i_blkbits;
	iomap->type = iomap_type(state);
	iomap->flags = iomap_flags;
	km_up_read(&inode->i_data_sem);
	return 0;
}

/*
 * The delalloc reservation of a page fault (xfs_page_mkwrite_iomap_begin
 * -> xfs_buffered_write_iomap_begin): the holes of the range become
 * delalloc.  With the free-space count kept, the holes' blocks are taken
 * from it first (xfs_bmapi_reserve_delalloc).  Return: 0 or -ENOSPC
 * (nothing reserved).
 */
int m_xfs_reserve_delalloc(struct km_inode *inode, loff_t pos, loff_t len)
{
	km_down_write(&inode->i_data_sem);
	if (m_xfs_fdblocks_counted()) {
		unsigned long first = (unsigned long)(pos >> inode->i_blkbits);
		unsigned long last = (unsigned long)((pos + len - 1) >>
						     inode->i_blkbits);
		unsigned long holes = 0;
		int error;

		for (unsigned long b = first; b <= last &&
		     b < inode->nr_blocks; b++)
			holes += extent_read(inode, b) == M_EXT_HOLE;
		error = holes ? km_xfs_dec_freecounter(holes, false) : 0;
		if (error) {
			km_up_write(&inode->i_data_sem);
			return error;
		}
	}
	if (m_xfs_extent_set_range(inode, pos, len, M_EXT_HOLE,
				   M_EXT_DELALLOC))
		m_cost_delalloc_reserve();
	km_up_write(&inode->i_data_sem);
	return 0;
}

/**
 * m_xfs_writeback_allocate - the blocks under a writeback range get real
 * extents: every delalloc extent the range touches is allocated whole,
 * as unwritten, and the ioend converts the part written
 * (m_xfs_end_ioend_convert).
 * Kernel: fs/xfs/xfs_aops.c xfs_map_blocks ->
 * fs/xfs/libxfs/xfs_bmap.c xfs_bmapi_convert_delalloc ->
 * xfs_bmapi_convert_one_delalloc, v6.18: "always allocate convert from
 * the start of the delalloc extent even if that is outside the passed
 * in range" (bma.offset = got.br_startoff, bma.length =
 * got.br_blockcount), with XFS_BMAPI_PREALLOC: new data fork extents
 * are unwritten until the write completes.
 * Context: takes i_data_sem (the ILOCK) exclusive.
 * Return: IOMAP_IOEND_UNWRITTEN when a block of the range is unwritten
 * once mapped (allocated here, or unwritten before), else 0: the ioend
 * flag iomap_add_to_ioend derives from the mapping's type (the model
 * never runs out of space).
 * Divergences: the range is one mapping: the kernel maps one extent at
 * a time (xfs_map_blocks) and a range of written and unwritten blocks
 * goes in two ioends, one of them unwritten; here the whole range's
 * ioend is, and its completion converts the unwritten blocks only.  A
 * delalloc extent is the run of delalloc blocks around
 * the range (the kernel merges adjacent delalloc reservations into one
 * record up to XFS_MAX_BMBT_EXTLEN blocks, and an allocation can come
 * back shorter than the extent when free space is fragmented or an AG
 * ends: the model's device has one contiguous free space); one
 * allocation cost per extent (profiles/cpu/default.cpu), as before.
 * The extent includes the speculative preallocation past EOF that
 * m_xfs_buffered_write_iomap_begin reserved with it: the blocks past the
 * range become unwritten, and the writes that later fill them allocate
 * nothing (the 1-thread appending writer: one allocation per
 * preallocation, docs/validation.md session 19).
 */
static unsigned int xfs_convert_delalloc(struct km_inode *inode, loff_t pos,
					 loff_t len, bool writeback);

unsigned int m_xfs_writeback_allocate(struct km_inode *inode, loff_t pos,
				      loff_t len)
{
	return xfs_convert_delalloc(inode, pos, len, true);
}

/* m_xfs_writeback_allocate's conversion; @writeback: from xfs_map_blocks
 * (counted as the kernel's xfs_map_blocks_alloc tracepoint), else from
 * the IOMAP_ZERO lookup (km_xfs_zero_range). */
static unsigned int xfs_convert_delalloc(struct km_inode *inode, loff_t pos,
					 loff_t len, bool writeback)
{
	unsigned long first = (unsigned long)(pos >> inode->i_blkbits);
	unsigned long last = (unsigned long)((pos + len - 1) >>
					     inode->i_blkbits);
	unsigned int ioend_flags = 0;

	km_down_write(&inode->i_data_sem);
	for (unsigned long b = first; b <= last && b < inode->nr_blocks; b++) {
		unsigned long start = b, end = b + 1;
		char state = extent_read(inode, b);

		if (state == M_EXT_UNWRITTEN)
			ioend_flags |= IOMAP_IOEND_UNWRITTEN;
		if (state != M_EXT_DELALLOC)
			continue;
		ioend_flags |= IOMAP_IOEND_UNWRITTEN;
		/* The delalloc extent around block b: from its start. */
		while (start > 0 &&
		       extent_read(inode, start - 1) == M_EXT_DELALLOC)
			start--;
		while (end < inode->nr_blocks &&
		       extent_read(inode, end) == M_EXT_DELALLOC)
			end++;
		m_xfs_extent_set_range(inode,
				       (loff_t)start << inode->i_blkbits,
				       (loff_t)(end - start) << inode->i_blkbits,
				       M_EXT_DELALLOC, M_EXT_UNWRITTEN);
		/* xfs_bmapi_convert_delalloc's allocation transaction,
		 * under the ILOCK (profiles/cpu/default.cpu); the kernel's
		 * xfs_map_blocks_alloc tracepoint, counted. */
		if (writeback)
			m_world()->xfs_wb_allocs++;
		m_cost_writeback_alloc();
		m_xfs_log_alloc_change(inode);
		b = end - 1;
	}
	km_up_write(&inode->i_data_sem);
	return ioend_flags;
}

/*
 * xfs_new_eof and the on-disk size update (fs/xfs/xfs_inode.h,
 * xfs_setfilesize, xfs_iomap_write_unwritten; v6.18): i_disk_size is
 * raised to @end, but never past the in-core i_size.  The caller holds
 * the ILOCK exclusive.
 */
static void xfs_raise_disk_size(struct km_inode *inode, loff_t end)
{
	loff_t isize = km_i_size_read(inode);

	if (end > isize)
		end = isize;
	if (end > (loff_t)sim_word_read(&inode->i_disksize))
		sim_word_write(&inode->i_disksize, (uint64_t)end);
}

/*
 * Does converting the unwritten run [@s, @e] (blocks) insert an extent
 * record?  xfs_bmap_add_extent_unwritten_real (fs/xfs/libxfs/xfs_bmap.c,
 * v6.18) sets LEFT_FILLING when the run starts its unwritten extent,
 * RIGHT_FILLING when it ends it, LEFT_CONTIG / RIGHT_CONTIG when the
 * extent beyond that end is written (the new state) and contiguous; the
 * cases LEFT_FILLING alone and RIGHT_FILLING alone insert one record
 * (xfs_iext_insert, xfs_btree_insert when the fork is a btree), the
 * middle case (neither filling) two; every other case only modifies or
 * deletes records.  The caller holds i_data_sem.
 * Divergences: the model keeps no physical block numbers, so a written
 * neighbour counts as contiguous (the kernel also needs the two extents
 * adjacent on disk and their sum within XFS_MAX_BMBT_EXTLEN).
 */
static bool unwritten_run_inserts(struct km_inode *inode, unsigned long s,
				  unsigned long e)
{
	char left = s ? extent_read(inode, s - 1) : M_EXT_HOLE;
	char right = extent_read(inode, e + 1);
	bool lf = left != M_EXT_UNWRITTEN, rf = right != M_EXT_UNWRITTEN;

	if (lf && rf)
		return false;
	if (lf)
		return left != M_EXT_WRITTEN;
	if (rf)
		return right != M_EXT_WRITTEN;
	return true;
}

/*
 * xfs_iomap_write_unwritten (update_isize false): the unwritten blocks of
 * a completed write become written, and in the same transaction the
 * on-disk size follows the write's end (xfs_new_eof).
 * Kernel: fs/xfs/xfs_iomap.c xfs_iomap_write_unwritten, v6.18: one
 * transaction per unwritten extent of the range (xfs_bmapi_write with
 * XFS_BMAPI_CONVERT, nimaps 1), each under the ILOCK.  Each unwritten run
 * costs unwritten_convert_ns when its conversion inserts an extent record
 * (a split of the unwritten extent: the calibration's random
 * fs.unwritten-dio), unwritten_extend_ns when it does not (the written
 * neighbour extended, as a file written in order does:
 * fs.unwritten-dio-seq); unwritten_run_inserts has the cases.  Each
 * splitting run adds log_convert_bytes to the checkpoint's record (since
 * session 23: the bmbt records its transaction logs, measured as the
 * log's bytes per conversion of fs.log-force-8-64m).
 * Divergences: the range's written and delalloc blocks cost nothing (the
 * kernel's loop maps them too: an empty transaction each); the on-disk
 * size and the log item are the range's, once; a run that does not
 * split adds no bytes (not measured), and a split's bytes are one figure
 * (the kernel's bmbt logs the leaf's records from the insertion point
 * on, so they grow with the extents a leaf holds).  The bytes are added
 * per split, where the kernel's CIL keeps one copy of each logged buffer
 * per checkpoint (a leaf relogged by many conversions is written once):
 * 2 695 conversions of random 64 KiB runs in one checkpoint wrote 185
 * log blocks in 3 log writes on the kernel, 303 32 KiB log writes in
 * the model (docs/validation.md, session 25 h25-rand); the counts
 * agree only while a checkpoint holds few conversions, as in the
 * calibration's fs.log-force-8-64m.
 */
void m_xfs_end_ioend_convert(struct km_inode *inode, loff_t pos, loff_t len)
{
	unsigned long first = (unsigned long)(pos >> inode->i_blkbits);
	unsigned long last = (unsigned long)((pos + len - 1) >>
					     inode->i_blkbits);
	bool converted = false;
	uint64_t splits = 0;

	/* The kernel's xfs_unwritten_convert tracepoint, counted. */
	m_world()->xfs_unwritten_converts++;
	km_down_write(&inode->i_data_sem);
	for (unsigned long b = first; b <= last && b < inode->nr_blocks;
	     b++) {
		unsigned long e = b;
		bool inserts;

		if (extent_read(inode, b) != M_EXT_UNWRITTEN)
			continue;
		while (e < last && extent_read(inode, e + 1) == M_EXT_UNWRITTEN)
			e++;
		inserts = unwritten_run_inserts(inode, b, e);
		m_xfs_extent_set_range(inode, (loff_t)b << inode->i_blkbits,
				       (loff_t)(e - b + 1) << inode->i_blkbits,
				       M_EXT_UNWRITTEN, M_EXT_WRITTEN);
		/* The transaction, under the ILOCK (profiles/cpu/). */
		if (inserts) {
			m_cost_unwritten_convert();
			splits++;
		} else
			m_cost_unwritten_extend();
		converted = true;
		m_world()->xfs_unwritten_runs++;
		b = e;
	}
	if (converted) {
		m_world()->xfs_unwritten_splits += splits;
		xfs_raise_disk_size(inode, pos + len);
		m_xfs_log_alloc_change_len(inode, splits *
					   m_cost_log_convert_bytes());
	}
	km_up_write(&inode->i_data_sem);
}

/**
 * m_xfs_setfilesize - a completed write past the on-disk size raises it.
 * Kernel: fs/xfs/xfs_aops.c xfs_setfilesize, v6.18 (called by
 * xfs_end_ioend when xfs_ioend_is_append, and by xfs_dio_write_end_io
 * for an extending write).
 * Context: takes the ILOCK (i_data_sem) exclusive.
 * Return: none.
 * Divergences: the transaction's cost and log item are not its own: the
 * timed XFS log records size changes through m_xfs_log_size_change
 * (model/fs/xfs/xfs_inode_item.c).
 */
void m_xfs_setfilesize(struct km_inode *inode, loff_t pos, loff_t len)
{
	km_down_write(&inode->i_data_sem);
	xfs_raise_disk_size(inode, pos + len);
	km_up_write(&inode->i_data_sem);
}

/* ---- iomap_ops ---------------------------------------------------------- */

/*
 * xfs_page_mkwrite_iomap_ops's ->iomap_begin (v6.18: the buffered write
 * one): the model reserves delalloc over the holes of the range
 * iomap_page_mkwrite asks for (the folio up to EOF: class I) and fills
 * no mapping (iomap_page_mkwrite does not read it).
 */
static int xfs_page_mkwrite_iomap_begin(struct km_inode *inode, loff_t pos,
					loff_t len, unsigned int flags,
					struct km_iomap *iomap)
{
	(void)flags;
	(void)iomap;
	return m_xfs_reserve_delalloc(inode, pos, len);
}

/*
 * xfs_buffered_write_delalloc_punch: iomap's punch callback, the data
 * fork's delalloc blocks of [@offset, @offset + @length).
 * fs/xfs/xfs_iomap.c v6.18 (the COW fork for an IOMAP_F_SHARED mapping:
 * the model has none).
 */
static void xfs_buffered_write_delalloc_punch(struct km_inode *inode,
					      loff_t offset, loff_t length,
					      struct km_iomap *iomap)
{
	(void)iomap;
	km_xfs_bmap_punch_delalloc_range(inode, offset, offset + length);
}

/**
 * xfs_buffered_write_iomap_end - after a buffered write's round over
 * one mapping: the delalloc blocks its ->iomap_begin reserved and it did
 * not write lose their reservation.
 * Kernel: fs/xfs/xfs_iomap.c xfs_buffered_write_iomap_end, v6.18: only
 * a mapping this write reserved (IOMAP_DELALLOC with IOMAP_F_NEW); from
 * the block after the last byte written (iomap_last_written_block: the
 * block of @offset when nothing was written) to the end of the round's
 * range rounded up to a block, under the mapping's invalidate_lock
 * (exclusive), iomap_write_delalloc_release with
 * xfs_buffered_write_delalloc_punch: the page cache that is dirty keeps
 * its blocks (a racing page fault's data), the rest is punched.  A
 * NOWAIT write that gave up with -EAGAIN after its ->iomap_begin
 * reserved blocks, or a write cut short, leaves holes, not delalloc
 * (class Y of docs/model/fidelity.md).
 * Context: IOLOCK held exclusive by the caller (the buffered write);
 * takes invalidate_lock, folio locks and the ILOCK (i_data_sem); called
 * also under IOMAP_NOWAIT, where all of them may sleep, as in the kernel.
 * Return: 0.
 * Divergences: no IOMAP_FAULT, IOMAP_ZERO or IOMAP_UNSHARE caller (the
 * model's page_mkwrite and zeroing do not run iomap_iter with these
 * ops), so the invalidate_lock is always taken here.  The mapping
 * after a reservation is the run of holes reserved; the kernel's is the
 * delalloc extent the reservation joined (xfs_bmapi_reserve_delalloc
 * returns the merged record), so a round that wrote nothing there can
 * also punch the part of a neighbouring delalloc extent inside the write
 * that no dirty folio covers (delalloc blocks without dirty data:
 * not checked against the kernel).
 */
static int xfs_buffered_write_iomap_end(struct km_inode *inode, loff_t offset,
					loff_t length, long written,
					unsigned int flags,
					struct km_iomap *iomap)
{
	struct km_address_space *mapping = km_inode_mapping(inode);
	loff_t bsize = (loff_t)1 << inode->i_blkbits;
	loff_t start_byte, end_byte;

	/* If we didn't reserve the blocks, we're not allowed to punch them. */
	if (iomap->type != IOMAP_DELALLOC || !(iomap->flags & IOMAP_F_NEW))
		return 0;
	/* iomap_last_written_block */
	if (written)
		start_byte = (offset + written + bsize - 1) & ~(bsize - 1);
	else
		start_byte = offset & ~(bsize - 1);
	end_byte = (offset + length + bsize - 1) & ~(bsize - 1);
	if (start_byte >= end_byte)
		return 0;	/* the whole reservation was written */
	km_down_write(&mapping->invalidate_lock);
	km_iomap_write_delalloc_release(inode, start_byte, end_byte, flags,
					iomap,
					xfs_buffered_write_delalloc_punch);
	km_up_write(&mapping->invalidate_lock);
	return 0;
}

/* xfs_buffered_write_iomap_ops */
const struct km_iomap_ops m_xfs_buffered_write_iomap_ops = {
	.iomap_begin = m_xfs_buffered_write_iomap_begin,
	.iomap_end = xfs_buffered_write_iomap_end,
};

/* xfs_read_iomap_ops: the model's lookup is the buffered write one with
 * no IOMAP_WRITE (shared ILOCK, no reservation). */
const struct km_iomap_ops m_xfs_read_iomap_ops = {
	.iomap_begin = m_xfs_buffered_write_iomap_begin,
};

const struct km_iomap_ops m_xfs_page_mkwrite_iomap_ops = {
	.iomap_begin = xfs_page_mkwrite_iomap_begin,
};

/* Seed 000's writethrough mapping: xfs_direct_write_iomap_ops' shape. */
const struct km_iomap_ops m_xfs_writethrough_iomap_ops = {
	.iomap_begin = m_xfs_writethrough_iomap_begin,
};

/* ---- zeroing ------------------------------------------------------------ */

/*
 * xfs_buffered_write_iomap_valid (fs/xfs/xfs_iomap.c, v6.18) as
 * iomap_write_begin calls it for a zeroing: has the data fork changed
 * since @iomap was made?  The kernel compares the fork's sequence count
 * (if_seq, read without the ILOCK); the model compares the state of the
 * blocks of [@start, @end) with the mapping's type, which is what a
 * change that matters here (an ioend's unwritten conversion, a
 * writeback's delalloc allocation) moves, under i_data_sem shared (a
 * divergence: the kernel reads if_seq without the ILOCK).
 */
static bool zero_iomap_stale(struct km_inode *inode, loff_t start, loff_t end,
			     const struct km_iomap *iomap)
{
	unsigned long first = (unsigned long)(start >> inode->i_blkbits);
	unsigned long last = (unsigned long)((end - 1) >> inode->i_blkbits);
	bool stale = false;

	/* The model's extent states are read under i_data_sem (the
	 * kernel's if_seq is a READ_ONCE). */
	km_down_read(&inode->i_data_sem);
	for (unsigned long b = first; b <= last && !stale; b++)
		stale = iomap_type(extent_read(inode, b)) != iomap->type;
	km_up_read(&inode->i_data_sem);
	return stale;
}

/*
 * iomap_zero_iter over [@pos, @pos + @len), one mapping's range: each
 * folio is looked up as iomap_write_begin does (__filemap_get_folio with
 * FGP_WRITEBEGIN, no FGP_DONTCACHE: locked, stable, and no longer
 * dropbehind; class K; created when it is not cached), zeroed over
 * the range and dirtied (iomap_write_end: iomap_set_range_uptodate,
 * iomap_set_range_dirty, filemap_dirty_folio), with per-block state
 * when the range covers it in part (__iomap_write_begin's ifs_alloc).
 * A folio that is not uptodate (new, or cached after a NOWAIT write that
 * gave up before reading) first has the blocks the range covers in part
 * and that are not uptodate read, or zeroed where @iomap says they need
 * it (__iomap_write_begin, classes U and W, docs/model/fidelity.md): its
 * other blocks stay not uptodate.
 * Return: whether a folio was zeroed.
 */
static bool zero_range_folios(struct km_inode *inode, loff_t pos, loff_t len,
			      const struct km_iomap *iomap)
{
	struct km_address_space *mapping = km_inode_mapping(inode);
	pgoff_t first = (pgoff_t)pos >> PAGE_SHIFT;
	pgoff_t last = (pgoff_t)(pos + len - 1) >> PAGE_SHIFT;
	bool did_zero = false;

	for (pgoff_t i = first; i <= last && i < m_file_pages_max; i++) {
		struct km_folio *folio = m_folio_lookup(mapping, i);
		struct km_iomap map = *iomap;
		loff_t fpos, start, end;

		if (!folio) {
			/* iomap_write_begin's lookup creates it; its blocks
			 * are read below (__iomap_write_begin). */
			struct km_folio_or_err r =
				km___filemap_get_folio(mapping, i,
						       FGP_LOCK | FGP_CREAT);

			if (r.err)
				continue;
			folio = r.folio;
			km_folio_wait_stable(folio);
		} else if (i != first && folio->index != i) {
			/* A large folio: at its head, or at the first
			 * index. */
			continue;
		} else {
			/* FGP_WRITEBEGIN: a folio dropped since the lookup
			 * above (a dropbehind writeback's completion) is
			 * created again, as iomap_write_begin does. */
			struct km_folio_or_err r =
				km___filemap_get_folio(mapping, i,
						       FGP_LOCK | FGP_CREAT |
						       FGP_STABLE);

			if (r.err)
				continue;
			folio = r.folio;
		}
		if (sim_word_read(&folio->mapping)) {
			fpos = km_folio_pos(folio);
			start = pos > fpos ? pos : fpos;
			end = pos + len < fpos + (loff_t)km_folio_size(folio) ?
			      pos + len : fpos + (loff_t)km_folio_size(folio);
			if (!sim_bit_test(&folio->flags, PG_uptodate) &&
			    zero_iomap_stale(inode, start, end, &map)) {
				/* xfs_buffered_write_iomap_valid: the data
				 * fork changed since the mapping (an ioend's
				 * conversion): IOMAP_F_STALE, mapped again. */
				km_folio_unlock(folio);
				m_xfs_buffered_write_iomap_begin(inode, start,
								 end - start,
								 0, &map);
				km_folio_lock(folio);
				if (!sim_word_read(&folio->mapping)) {
					km_folio_unlock(folio);
					km_folio_put(folio);
					i--;	/* dropped meanwhile: again */
					continue;
				}
			}
			if (!sim_bit_test(&folio->flags, PG_uptodate)) {
				struct km_iomap_iter iter = {
					.inode = inode, .pos = start,
					.len = end - start, .iomap = map,
				};

				if (km___iomap_write_begin(&iter, start,
							   (size_t)(end -
								    start),
							   folio)) {
					km_folio_unlock(folio);
					km_folio_put(folio);
					continue;
				}
			}
			/* __iomap_write_begin: a folio the range covers in
			 * part gets its per-block state (ifs_alloc), so only
			 * the zeroed blocks are dirtied and written back. */
			if (start > fpos ||
			    end < fpos + (loff_t)km_folio_size(folio))
				km_ifs_alloc(inode, folio);
			m_folio_zero(folio, (size_t)(start - fpos),
				     (size_t)(end - start));
			km_iomap_set_range_uptodate(folio,
						    (size_t)(start - fpos),
						    (size_t)(end - start));
			km_iomap_set_range_dirty(folio, (size_t)(start - fpos),
						 (size_t)(end - start));
			km_filemap_dirty_folio(mapping, folio);
			did_zero = true;
		}
		km_folio_unlock(folio);
		km_folio_put(folio);
	}
	return did_zero;
}

/**
 * km_xfs_zero_range - zero [@pos, @pos + @len) as iomap_zero_range does:
 * the mappings that are not zero on disk, and those that are when the
 * page cache over them is dirty.
 * Kernel: fs/xfs/xfs_iomap.c xfs_zero_range -> fs/iomap/buffered-io.c
 * iomap_zero_range, iomap_zero_iter, iomap_zero_iter_flush_and_stale,
 * v6.18 (called by xfs_setattr_size when the size grows, by
 * xfs_file_write_zero_eof for a write past EOF, and by
 * xfs_free_file_space for a punch's partial blocks).
 * Context: the IOLOCK and the MMAPLOCK (invalidate_lock) held exclusive
 * (asserted, as xfs_zero_range's xfs_assert_ilocked); locks each folio.
 * First, when @pos is not block aligned and the page cache over its
 * block is dirty, locked or under writeback
 * (filemap_range_needs_writeback), that partial block is zeroed whatever
 * its mapping.  Then the rest, one mapping at a time
 * (xfs_buffered_write_iomap_begin's lookup, the ILOCK shared): written
 * and delalloc mappings are zeroed (zero_range_folios: the blocks a folio
 * holds in part are read first); a hole or unwritten mapping is skipped when the
 * rest of the range was clean at the start, else the first one writes
 * back and waits for the rest of the range (filemap_write_and_wait_range)
 * and is looked up again (IOMAP_F_STALE): writeback may have made it
 * written (class F, docs/model/fidelity.md).
 * Return: whether a folio was zeroed (iomap_zero_iter's *did_zero).
 * Divergences: the mapping is the run of blocks in one state (the
 * kernel's is one extent record: class M); XFS's IOMAP_ZERO lookup
 * trims a delalloc mapping at the EOF block and converts one that starts
 * at or past it to unwritten (convert_delay: xfs_bmapi_convert_delalloc,
 * m_xfs_writeback_allocate here, since session 19: the speculative
 * preallocation past EOF; the lookup is the model's shared one, then
 * the conversion takes the ILOCK exclusive, and truncate_pagecache from
 * that block is not called: with the IOLOCK and MMAPLOCK held no page
 * of the model lies past the EOF block); the writeback error of the
 * flush is dropped (the kernel returns it); partial sectors are zeroed
 * whole (the content model is per sector); a new folio's mapping is
 * checked against the blocks' states under i_data_sem
 * (zero_iomap_stale), where xfs_buffered_write_iomap_valid reads the
 * fork's if_seq without the ILOCK, and mapped again under the folio
 * (the kernel unlocks it and restarts the iteration: IOMAP_F_STALE).
 */
bool km_xfs_zero_range(struct km_inode *inode, loff_t pos, loff_t len)
{
	struct km_address_space *mapping = km_inode_mapping(inode);
	loff_t bsize = (loff_t)1 << inode->i_blkbits;
	loff_t off = pos & (bsize - 1);
	loff_t plen = len < bsize - off ? len : bsize - off;
	bool did_zero = false, range_dirty;

	/* xfs_assert_ilocked(ip, XFS_IOLOCK_EXCL | XFS_MMAPLOCK_EXCL) */
	m_assert_rwsem_held_write(&inode->i_rwsem);
	m_assert_rwsem_held_write(&mapping->invalidate_lock);
	if (len <= 0)
		return false;
	if (off && km_filemap_range_needs_writeback(mapping, pos,
						    pos + plen - 1)) {
		struct km_iomap iomap;

		m_xfs_buffered_write_iomap_begin(inode, pos, plen, 0, &iomap);
		did_zero = zero_range_folios(inode, pos, plen, &iomap);
		pos += plen;
		len -= plen;
		if (!len)
			return did_zero;
	}
	range_dirty = km_filemap_range_needs_writeback(mapping, pos,
						       pos + len - 1);
	while (len > 0) {
		struct km_iomap iomap;
		loff_t n;

		m_xfs_buffered_write_iomap_begin(inode, pos, len, 0, &iomap);
		n = iomap.offset + iomap.length - pos;
		if (n > len)
			n = len;
		if (iomap.type == IOMAP_DELALLOC) {
			/* IOMAP_ZERO over delalloc: trimmed at the EOF block;
			 * one at or past it (the speculative preallocation)
			 * converted to unwritten, then looked up again. */
			loff_t eof = (km_i_size_read(inode) + bsize - 1) &
				     ~(bsize - 1);

			if (pos >= eof) {
				xfs_convert_delalloc(inode, pos, 1, false);
				continue;
			}
			if (pos + n > eof)
				n = eof - pos;
		}
		if (iomap.type == IOMAP_HOLE ||
		    iomap.type == IOMAP_UNWRITTEN) {
			if (range_dirty) {
				range_dirty = false;
				km_filemap_write_and_wait_range(mapping, pos,
								pos + len - 1);
				continue;	/* IOMAP_F_STALE: again */
			}
			pos += n;
			len -= n;
			continue;
		}
		if (zero_range_folios(inode, pos, n, &iomap))
			did_zero = true;
		pos += n;
		len -= n;
	}
	return did_zero;
}

/**
 * km_xfs_truncate_page - zero the tail of the block that holds @pos, the
 * new EOF of a truncate that does not grow the file.
 * Kernel: fs/xfs/xfs_iomap.c xfs_truncate_page -> fs/iomap/buffered-io.c
 * iomap_truncate_page, v6.18 (called by xfs_setattr_size when the size
 * does not grow, before truncate_setsize).
 * Context: IOLOCK held exclusive; locks each folio (km_xfs_zero_range).
 * A @pos on a block boundary zeroes nothing; otherwise [@pos, end of its
 * block) goes through the zero range's walk (km_xfs_zero_range): a
 * written or delalloc block's folio has that block read first, zeroed
 * and dirtied; a hole or unwritten block is skipped when its page cache
 * is clean (class E, docs/model/fidelity.md).
 * Return: whether a folio was zeroed (iomap_truncate_page's *did_zero).
 * Divergences: km_xfs_zero_range's (the error of its flush is dropped:
 * the kernel returns it; no DAX).
 */
bool km_xfs_truncate_page(struct km_inode *inode, loff_t pos)
{
	loff_t bsize = (loff_t)1 << inode->i_blkbits;
	loff_t off = pos & (bsize - 1);

	/* Block boundary: nothing to do. */
	if (!off)
		return false;
	return km_xfs_zero_range(inode, pos, bsize - off);
}
