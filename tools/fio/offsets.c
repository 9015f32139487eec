// SPDX-License-Identifier: MIT
/*
 * tools/fio/offsets.c - the offsets of a sequential fio job, as fio 3.x
 * computes them: the start offset (offset + jobnum x offset_increment),
 * rw=write:N holes (ddir_seq_add), strided zones (zonemode=strided with
 * zonesize, zonerange, zoneskip), the wrap of a time_based job or of a
 * write job whose io_size exceeds size, and the end of the file.
 *
 * Read (never copied) from fio's io_u.c (get_next_seq_offset,
 * get_next_offset, setup_strided_zone_mode, the zone_bytes count in
 * fill_io_u), filesetup.c (get_start_offset, setup_files' io_size and
 * real_file_size) and init.c (fixup_options: zonerange defaults to
 * zonesize, strided needs zonesize, zonesize alone means strided).  The
 * real fio 3.33 offsets of a strided job are in
 * tests/fio/golden/strided.iolog, which tests/fio/test_fio.c compares.
 *
 * Backwards I/O (rw=read:-8k, a negative ddir_seq_add) as fio's
 * get_next_seq_offset: the relative position wraps below 0 to the end
 * of the region (io_size, or the file's size when smaller).
 *
 * Leaves out: random offsets (the runner draws those), offset=N%,
 * offset_align, file_append,
 * zonemode=zbd, and several files per job (fio turns strided zones off
 * for more than one open file; the caller gives one state per file).
 */
#include "tools/fio/fio.h"

void fio_seq_offsets_init(struct fio_seq_offsets *s, const struct fio_job *j,
			  uint64_t io_size, uint64_t real_file_size)
{
	*s = (struct fio_seq_offsets){ 0 };
	s->start = j->offset.bytes + (uint64_t)j->jobnum *
				     j->offset_increment.bytes;
	s->file_offset = s->start;
	s->last_pos = s->start;
	s->io_size = io_size;
	s->real_file_size = real_file_size;
	s->seq_add = j->rw_seq_add;
	if (j->zonemode == FIO_ZONEMODE_STRIDED && j->zonesize) {
		s->zone_size = j->zonesize;
		s->zone_range = j->zonerange ? j->zonerange : j->zonesize;
		s->zone_skip = j->zoneskip;
	}
	s->wrap_time_based = j->time_based;
	s->wrap_io_size = j->io_size.set && j->io_size.bytes > j->size.bytes;
}

/* setup_strided_zone_mode(): before each I/O. */
static void strided_zone(struct fio_seq_offsets *s)
{
	if (s->zone_bytes >= s->zone_size) {
		s->zone_bytes = 0;
		s->file_offset += s->zone_range + s->zone_skip;
		/* Past the end of the file: back to the start offset. */
		if (s->file_offset >= s->real_file_size)
			s->file_offset = s->start;
		s->last_pos = s->file_offset;
	}
	/* A zone larger than its range: stay in the range. */
	if (s->last_pos >= s->file_offset + s->zone_range)
		s->last_pos = s->file_offset;
}

int fio_seq_offsets_next(struct fio_seq_offsets *s, uint64_t bs,
			 uint64_t *offset)
{
	uint64_t pos;

	if (s->zone_size)
		strided_zone(s);
	/* get_next_seq_offset(): wrap a time_based job, or a write job
	 * with io_size > size, at the end of its region. */
	if ((s->wrap_time_based || s->wrap_io_size) &&
	    s->last_pos >= s->io_size + s->start) {
		s->last_pos = s->file_offset;
		s->time_wraps += s->wrap_time_based;
	}
	if (s->last_pos >= s->real_file_size)
		return 1;
	/* Backwards I/O rewinds to the end once it is back at a start
	 * offset that is not 0. */
	if (s->last_pos == s->file_offset && s->file_offset &&
	    s->seq_add < 0)
		s->last_pos = s->real_file_size > s->io_size ?
			      s->io_size : s->real_file_size;
	pos = s->last_pos - s->file_offset;
	if (pos && s->seq_add) {
		/* Unsigned, as fio's: going below 0 wraps past the end. */
		pos += (uint64_t)s->seq_add;
		/* fio compares the relative position with the file size:
		 * holes wrap to the start, backwards I/O to the end. */
		if (pos >= s->real_file_size) {
			if (s->seq_add > 0)
				pos = s->file_offset;
			else
				pos = (s->real_file_size > s->io_size ?
				       s->io_size : s->real_file_size) +
				      (uint64_t)s->seq_add;
		}
	}
	/* get_next_offset(): the relative offset within io_size, the
	 * absolute one within the file, and the whole block too. */
	if (pos >= s->io_size)
		return 1;
	pos += s->file_offset;
	if (pos >= s->real_file_size || pos + bs > s->real_file_size)
		return 1;
	*offset = pos;
	s->last_pos = pos + bs;
	s->zone_bytes += bs;
	return 0;
}

void fio_seq_offsets_resize(struct fio_seq_offsets *s, uint64_t offset,
			    uint64_t bs, uint64_t len)
{
	/* fio sets last_pos and counts zone_bytes with the I/O's buflen. */
	s->last_pos = offset + len;
	s->zone_bytes += len - bs;
}
