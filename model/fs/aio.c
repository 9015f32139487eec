// SPDX-License-Identifier: MIT
/*
 * model/fs/aio.c - io_submit(2) of one write or read and its completion: the
 * kiocb with ki_complete (aio_prep_rw), ->write_iter, aio_rw_done, and
 * aio_complete_rw, which puts the result in the request and counts it
 * in the context's event ring.
 *
 * Models fs/aio.c of v6.18: aio_write, aio_read, aio_prep_rw, aio_rw_done,
 * aio_complete_rw.
 *
 * IOCB_CMD_PREAD (aio_read) goes to ->read_iter with the same kiocb: an
 * O_DIRECT read completes from its last bio's end_io (iomap's
 * IOMAP_DIO_INLINE_COMP), a buffered one at once.
 *
 * Leaves out: the AIO context (io_setup, the ring's pages, its size and
 * -EAGAIN when full),
 * vectored and compat iocbs, IOCB_FLAG_RESFD (eventfd) and IOPRIO,
 * cancellation, io_getevents' timeout and min_nr (the front end waits
 * for one request or for the ring, m_aio_wait), kiocb_start_write.
 */
#include <string.h>

#include "model/linux/syscalls.h"
#include "sim/engine.h"

/**
 * km_aio_complete_rw - an AIO kiocb's ki_complete: the result into the
 * request, the event into the ring, io_getevents woken.
 * Kernel: fs/aio.c aio_complete_rw -> aio_complete, v6.18.
 * Context: the completing context (a kworker or the bio end_io).
 * Return: none.
 * Divergences: no ring pages or eventfd; kiocb_end_write left out.
 */
void km_aio_complete_rw(struct km_kiocb *iocb, long ret)
{
	struct m_aio_req *req = iocb->private;

	req->res = ret;
	sim_completion_complete(&req->done);
	if (req->ring)
		sim_completion_complete(req->ring);
}

void m_aio_complete(struct km_kiocb *iocb, long ret)
{
	km_aio_complete_rw(iocb, ret);
}

/* aio_prep_rw: @req reset (its ring kept), the kiocb with ki_complete. */
static int aio_prep_rw(struct m_aio_req *req, struct km_file *file,
		       loff_t pos, const struct km_iov_iter *from,
		       unsigned int rwf, int rw_type)
{
	struct sim_completion *ring = req->ring;
	int ret;

	memset(req, 0, sizeof(*req));
	req->ring = ring;
	sim_completion_init(&req->done, "aio.done");
	km_init_sync_kiocb(&req->iocb, file);
	req->iocb.ki_complete = km_aio_complete_rw;
	req->iocb.private = req;
	req->iocb.ki_pos = pos;
	req->from = *from;
	ret = km_kiocb_set_rw_flags(&req->iocb, rwf, rw_type);
	if (ret)
		return ret;
	/* no one is going to poll for this I/O */
	req->iocb.ki_flags &= ~IOCB_HIPRI;
	return 0;
}

/**
 * km_aio_write - io_submit(2)'s IOCB_CMD_PWRITE of @from at @pos with
 * RWF @rwf into @req.
 * Kernel: fs/aio.c aio_write with aio_prep_rw and aio_rw_done, v6.18.
 * Context: task (the entry cost is m_syscall's); the filesystem's
 * ->write_iter takes its locks.
 * Return: -EIOCBQUEUED (@req completes later, km_aio_complete_rw), or
 * the write's result at once (then already in @req->res).
 * Divergences: returns the write's result where io_submit returns the
 * number of iocbs submitted; a result at once is put in @req directly
 * instead of through ki_complete (so it does not count in the event
 * ring: m_aio_wait reads it); aio_prep_rw's refusal (an RWF_ flag:
 * io_submit's own error, no event) is marked in @req->submit_error;
 * -EINVAL for a filesystem without
 * ->write_iter is a model bound (m_vfs_not_modelled).
 */
long km_aio_write(struct m_aio_req *req, struct km_file *file, loff_t pos,
		  const struct km_iov_iter *from, unsigned int rwf)
{
	long ret;

	ret = aio_prep_rw(req, file, pos, from, rwf, KM_WRITE);
	req->submit_error = ret != 0;
	if (!ret && !file->f_op->write_iter)
		ret = m_vfs_not_modelled(file->f_op->name, "write_iter");
	if (!ret && pos < 0)	/* rw_verify_area */
		ret = -KM_EINVAL;
	if (!ret) {
		req->iocb.ki_flags |= IOCB_WRITE;
		ret = file->f_op->write_iter(&req->iocb, &req->from);
	}
	/* aio_rw_done */
	req->queued = ret == -KM_EIOCBQUEUED;
	if (!req->queued)
		req->res = ret;
	return ret;
}

/**
 * km_aio_read - io_submit(2)'s IOCB_CMD_PREAD of @count bytes at @pos
 * into @out (an id a sector) with RWF @rwf, into @req.
 * Kernel: fs/aio.c aio_read with aio_prep_rw, aio_setup_rw (ITER_DEST),
 * rw_verify_area and aio_rw_done, v6.18.
 * Context: task (the entry cost is m_syscall's); the filesystem's
 * ->read_iter takes its locks.
 * Return: -EIOCBQUEUED (an O_DIRECT read in flight: @req completes
 * later, from the last bio's end_io), or the read's result at once (a
 * buffered read is synchronous: filemap_read returns when it is done).
 * Divergences: as km_aio_write; @out must live until the request
 * completes (the user buffer).
 */
long km_aio_read(struct m_aio_req *req, struct km_file *file, loff_t pos,
		 size_t count, uint32_t *out, unsigned int rwf)
{
	struct km_iov_iter to = { .count = count, .out = out };
	long ret;

	ret = aio_prep_rw(req, file, pos, &to, rwf, KM_READ);
	if (!ret && !file->f_op->read_iter)
		ret = m_vfs_not_modelled(file->f_op->name, "read_iter");
	if (!ret && pos < 0)	/* rw_verify_area */
		ret = -KM_EINVAL;
	if (!ret)
		ret = file->f_op->read_iter(&req->iocb, count, out);
	/* aio_rw_done */
	req->queued = ret == -KM_EIOCBQUEUED;
	if (!req->queued)
		req->res = ret;
	return ret;
}

long m_aio_wait(struct m_aio_req *req)
{
	if (req->queued)
		sim_completion_wait(&req->done);
	return req->res;
}
