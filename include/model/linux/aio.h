/* SPDX-License-Identifier: MIT */
/*
 * Asynchronous I/O of the model (include/linux/aio.h, fs/aio.c), v6.18:
 * one request of io_submit(2), its kiocb with ki_complete, and the event
 * io_getevents(2) reaps.  model/fs/aio.c.
 */
#ifndef WPSIM_MODEL_LINUX_AIO_H
#define WPSIM_MODEL_LINUX_AIO_H

#include "model/linux/fs.h"
#include "sim/shared.h"

/* One IOCB_CMD_PWRITE in flight (struct aio_kiocb, reduced). */
struct m_aio_req {
	struct km_kiocb iocb;
	struct km_iov_iter from;
	long res;
	bool queued;
	/* aio_prep_rw refused the iocb (kiocb_set_rw_flags: an RWF_ flag
	 * the file cannot take): io_submit returns the error itself and
	 * no event is made (res holds it too). */
	bool submit_error;
	struct sim_completion done;
	/* The kioctx's event ring (NULL: none): each completion of a
	 * queued request counts in it, so io_getevents can wait for any.
	 * Set by the caller; kept across submissions. */
	struct sim_completion *ring;
};

/*
 * io_submit's write (fs/aio.c aio_write) of @req: -EIOCBQUEUED (the
 * write completes later, through ki_complete), or the result at once.
 * Called by m_syscall(M_SYS_IO_SUBMIT).
 */
long km_aio_write(struct m_aio_req *req, struct km_file *file, loff_t pos,
		  const struct km_iov_iter *from, unsigned int rwf);
/* io_submit's read (fs/aio.c aio_read) of @count bytes at @pos into
 * @out: -EIOCBQUEUED (an O_DIRECT read in flight), or the result. */
long km_aio_read(struct m_aio_req *req, struct km_file *file, loff_t pos,
		 size_t count, uint32_t *out, unsigned int rwf);
/* aio_complete_rw: an AIO kiocb's ki_complete. */
void km_aio_complete_rw(struct km_kiocb *iocb, long ret);
/* Earlier name of km_aio_complete_rw. */
void m_aio_complete(struct km_kiocb *iocb, long ret);

/* io_submit(2) of one pwritev2-like write through m_syscall. */
long m_aio_pwritev2(struct m_aio_req *req, struct km_file *file, loff_t pos,
		    size_t len, unsigned int rwf, uint32_t data_id,
		    size_t fault_after);
/* io_submit(2) of one preadv2-like read through m_syscall. */
long m_aio_preadv2(struct m_aio_req *req, struct km_file *file, loff_t pos,
		   size_t len, unsigned int rwf, uint32_t *out);
/* io_getevents(2) for @req: waits if it is queued; its result. */
long m_aio_wait(struct m_aio_req *req);

#endif
