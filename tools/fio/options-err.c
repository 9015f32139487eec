// SPDX-License-Identifier: MIT
/*
 * tools/fio/options-err.c - fio's error options: continue_on_error,
 * ignore_error, error_dump, fill_device and create_serialize, after fio
 * 3.33 (options.c: the continue_on_error posval table,
 * str_ignore_error_cb, ignore_error_type, str2error; init.c: error_dump
 * defaults to 1 in def_thread).  What they do in a run is
 * tools/wpsim/fio-err.c's.
 *
 * Kept from fio: continue_on_error is one of none, read, write, io,
 * verify, all, 0, 1 and replaces what an earlier continue_on_error or
 * ignore_error set; ignore_error is up to three ','-separated lists
 * (read, write, verify), each ':'-separated errno names or numbers, and
 * a non-empty list adds its type to continue_on_error (so the order of
 * the two options matters, as in fio); fio 3.33's str2error knows the
 * names EPERM..ERANGE (errno 1..34) only, and reads a number with
 * strtol (a leading 0x is hex, a minus sign dropped).
 *
 * Leaves out (errors): a name fio 3.33 does not know (it refuses it:
 * "Unknown error X, please use number value"), a number that is 0 or
 * trailing text after one (fio's strtol would ignore it), more than
 * FIO_IGNORE_ERRORS_MAX errors in one list.
 */
#include "tools/fio/internal.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* fio 3.33 options.c str2error's table: index + 1 is the errno. */
static const char *const fio_errno_names[] = {
	"EPERM", "ENOENT", "ESRCH", "EINTR", "EIO", "ENXIO", "E2BIG",
	"ENOEXEC", "EBADF", "ECHILD", "EAGAIN", "ENOMEM", "EACCES", "EFAULT",
	"ENOTBLK", "EBUSY", "EEXIST", "EXDEV", "ENODEV", "ENOTDIR", "EISDIR",
	"EINVAL", "ENFILE", "EMFILE", "ENOTTY", "ETXTBSY", "EFBIG", "ENOSPC",
	"ESPIPE", "EROFS", "EMLINK", "EPIPE", "EDOM", "ERANGE",
};

static int str2error(const char *name, size_t len)
{
	for (size_t i = 0; i < sizeof(fio_errno_names) /
	     sizeof(fio_errno_names[0]); i++)
		if (strlen(fio_errno_names[i]) == len &&
		    !strncmp(fio_errno_names[i], name, len))
			return (int)i + 1;
	return 0;
}

const char *fio_errno_name(int err)
{
	if (err >= 1 && (size_t)err <= sizeof(fio_errno_names) /
	    sizeof(fio_errno_names[0]))
		return fio_errno_names[err - 1];
	return NULL;
}

int fio_parse_continue_on_error(struct fio_job *job,
				const struct fio_optdef *def,
				const struct fio_optval *v,
				struct fio_error *err)
{
	static const struct {
		const char *name;
		uint32_t bits;
	} values[] = {
		{ "none", 0 }, { "read", FIO_ERR_READ },
		{ "write", FIO_ERR_WRITE },
		{ "io", FIO_ERR_READ | FIO_ERR_WRITE },
		{ "verify", FIO_ERR_VERIFY }, { "all", FIO_ERR_ANY },
		{ "0", 0 }, { "1", FIO_ERR_ANY },
	};
	char found[240];

	if (v->text)
		for (size_t i = 0; i < sizeof(values) / sizeof(values[0]);
		     i++)
			if (!strcmp(v->text, values[i].name)) {
				job->continue_on_error = values[i].bits;
				return 0;
			}
	fio_found(found, sizeof(found), v->text);
	fio_error_set(err, &v->pos, "expected a value of %s (none, read, "
		      "write, io, verify, all, 0 or 1), found %s", def->name,
		      found);
	return -1;
}

/* One ':'-separated list of @len bytes at @text, error type @type. */
static int ignore_list(struct fio_job *job, unsigned int type,
		       const char *text, size_t len, const struct fio_pos *pos,
		       struct fio_error *err)
{
	uint32_t n = 0;
	size_t at = 0;

	while (at < len) {
		size_t end = at;
		int e;

		while (end < len && text[end] != ':')
			end++;
		if (end == at)
			break;		/* fio: an empty name ends the list */
		if (text[at] == 'E') {
			e = str2error(text + at, end - at);
			if (!e) {
				fio_error_set(err, pos, "ignore_error: fio 3.33 "
					      "knows the names EPERM..ERANGE "
					      "(errno 1..34) only (\"Unknown "
					      "error %.*s, please use number "
					      "value\"), found '%.*s'",
					      (int)(end - at), text + at,
					      (int)(end - at), text + at);
				return -1;
			}
		} else {
			char num[32], *stop;
			long val;
			bool hex = end - at > 2 && text[at] == '0' &&
				   (text[at + 1] == 'x' || text[at + 1] == 'X');

			if (end - at >= sizeof(num)) {
				fio_error_set(err, pos, "ignore_error: expected "
					      "an errno, found '%.*s'",
					      (int)(end - at), text + at);
				return -1;
			}
			memcpy(num, text + at, end - at);
			num[end - at] = '\0';
			errno = 0;
			val = strtol(num, &stop, hex ? 16 : 10);
			if (val < 0)
				val = -val;
			if (errno || stop == num || *stop || !val ||
			    val > 4095) {
				fio_error_set(err, pos, "ignore_error: expected "
					      "an errno name (EPERM..ERANGE) "
					      "or a number 1..4095, found "
					      "'%s'", num);
				return -1;
			}
			e = (int)val;
		}
		if (n == FIO_IGNORE_ERRORS_MAX) {
			fio_error_set(err, pos, "ignore_error: more than %d "
				      "errors in one list",
				      FIO_IGNORE_ERRORS_MAX);
			return -1;
		}
		job->ignore_error[type][n++] = e;
		at = end + 1;
	}
	/* fio's ignore_error_type: a list given replaces the default and
	 * turns continue_on_error on for its type; an empty one leaves
	 * the default (EIO, EILSEQ). */
	job->ignore_error_nr[type] = n;
	if (n)
		job->continue_on_error |= 1u << type;
	return 0;
}

int fio_parse_ignore_error(struct fio_job *job, const struct fio_optdef *def,
			   const struct fio_optval *v, struct fio_error *err)
{
	const char *text = v->text, *p;
	unsigned int type = 0;
	size_t len;

	if (!text) {
		fio_error_set(err, &v->pos, "expected a value for %s",
			      def->name);
		return -1;
	}
	/* strip_blank_front/end */
	while (isspace((unsigned char)*text))
		text++;
	len = strlen(text);
	while (len && isspace((unsigned char)text[len - 1]))
		len--;
	for (p = text; ; type++) {
		const char *comma = memchr(p, ',', len - (size_t)(p - text));
		size_t n = comma ? (size_t)(comma - p) :
				   len - (size_t)(p - text);
		struct fio_pos pos = fio_pos_add(&v->pos,
						 (size_t)(p - v->text));

		if (type >= FIO_ERR_TYPES) {
			/* fio: "Illegal error type" */
			fio_error_set(err, &pos, "ignore_error: expected at "
				      "most three lists (read,write,verify), "
				      "found a fourth");
			return -1;
		}
		if (ignore_list(job, type, p, n, &pos, err))
			return -1;
		if (!comma)
			break;
		p = comma + 1;
	}
	return 0;
}

bool fio_err_jobs_equal(const struct fio_job *a, const struct fio_job *b)
{
	return a->continue_on_error == b->continue_on_error &&
	       !memcmp(a->ignore_error_nr, b->ignore_error_nr,
		       sizeof(a->ignore_error_nr)) &&
	       !memcmp(a->ignore_error, b->ignore_error,
		       sizeof(a->ignore_error)) &&
	       a->error_dump == b->error_dump &&
	       a->fill_device == b->fill_device &&
	       a->create_serialize == b->create_serialize;
}
