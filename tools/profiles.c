// SPDX-License-Identifier: MIT
/*
 * tools/profiles.c - reading profile files: device profiles
 * (profiles/devices/NAME.dev) and CPU cost profiles (profiles/cpu/NAME.cpu).
 *
 * The model parses and checks profiles from text (hw_nvme_profile_parse,
 * model/hw/nvme-profile.c; m_cost_profile_parse, model/cost.c) and does
 * no file I/O; the front ends read the files here: one file into a
 * fixed or growing buffer, a NUL byte refused, errors as
 * "file:line:col: error: expected X, found Y".
 *
 * A device profile is named (@dir/NAME.dev) or given by a path (a name
 * with a '/': DIR/NAME.dev, whose name = line must say NAME), as a CPU
 * profile is.
 *
 * Leaves out: includes between profiles, search paths (the caller names
 * the directory).
 */
#include "tools/profiles.h"

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define PROFILE_FILE_BYTES_MAX	(64u << 10)	/* one device profile */
#define PROFILE_LIST_MAX	256		/* files listed from a dir */
#define PROFILE_PATH_BYTES	4096

static void msg(char *out, size_t size, const char *fmt, ...)
{
	va_list ap;

	if (!out || !size)
		return;
	va_start(ap, fmt);
	vsnprintf(out, size, fmt, ap);
	va_end(ap);
}

/* ---- device profiles ----------------------------------------------------- */

int wpsim_device_profile_load(const char *path, struct hw_nvme_profile *p,
			      char *err, size_t err_bytes)
{
	static char buf[PROFILE_FILE_BYTES_MAX + 1];
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f) {
		msg(err, err_bytes, "%s: error: expected a readable "
			   "profile file, found %s", path, strerror(errno));
		return -ENOENT;
	}
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	if (n > PROFILE_FILE_BYTES_MAX) {
		msg(err, err_bytes, "%s:1:1: error: expected a profile "
			   "of at most %u bytes, found more", path,
			   PROFILE_FILE_BYTES_MAX);
		return -EINVAL;
	}
	buf[n] = '\0';
	if (strlen(buf) != n) {
		msg(err, err_bytes, "%s:1:1: error: expected text, "
			   "found a NUL byte", path);
		return -EINVAL;
	}
	return hw_nvme_profile_parse(buf, path, p, err, err_bytes);
}

int wpsim_device_profile_find(const char *dir, const char *name,
			      struct hw_nvme_profile *p, char *err,
			      size_t err_bytes)
{
	char path[PROFILE_PATH_BYTES], want[256];
	const char *base = strrchr(name, '/');
	size_t len;
	int rc;

	if (base) {
		/* A path (make calibrate's profiles/calibrated/NAME.dev):
		 * its name = line must say the file's name. */
		snprintf(path, sizeof(path), "%s", name);
		base++;
		len = strlen(base);
		if (len > 4 && strcmp(base + len - 4, ".dev") == 0)
			len -= 4;
		snprintf(want, sizeof(want), "%.*s", (int)len, base);
	} else {
		snprintf(path, sizeof(path), "%s/%s.dev", dir, name);
		snprintf(want, sizeof(want), "%s", name);
	}
	rc = wpsim_device_profile_load(path, p, err, err_bytes);
	if (rc == 0 && strcmp(p->name, want) != 0) {
		msg(err, err_bytes, "%s: error: expected name = %s, "
			   "found name = %s", path, want, p->name);
		return -EINVAL;
	}
	return rc;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp((const char *)a, (const char *)b);
}

int wpsim_device_profile_list(const char *dir, FILE *out)
{
	static char names[PROFILE_LIST_MAX][256];
	struct hw_nvme_profile p;
	struct dirent *de;
	char err[1024];
	size_t n = 0;
	int good = 0;
	DIR *d = opendir(dir);

	if (!d)
		return -errno;
	while ((de = readdir(d)) && n < PROFILE_LIST_MAX) {
		size_t len = strlen(de->d_name);

		if (len > 4 && len < sizeof(names[0]) &&
		    strcmp(de->d_name + len - 4, ".dev") == 0)
			snprintf(names[n++], sizeof(names[0]), "%.*s",
				 (int)(len - 4), de->d_name);
	}
	closedir(d);
	qsort(names, n, sizeof(names[0]), cmp_names);
	for (size_t i = 0; i < n; i++) {
		if (wpsim_device_profile_find(dir, names[i], &p, err,
					      sizeof(err)) == 0) {
			fprintf(out, "%-24s %s\n", p.name, p.description);
			good++;
		} else {
			fprintf(out, "%-24s (does not parse: %s)\n", names[i],
				err);
		}
	}
	return good;
}

/* ---- CPU cost profiles --------------------------------------------------- */

int wpsim_cpu_profile_load(const char *path, struct m_cost_profile *profile,
			   FILE *err)
{
	FILE *f = fopen(path, "r");
	char *text = NULL;
	size_t len = 0, cap = 0;
	int rc;

	if (!f) {
		rc = -errno;
		if (err)
			fprintf(err, "%s: error: %s\n", path, strerror(errno));
		return rc;
	}
	for (;;) {
		size_t n;

		if (len + 4096 + 1 > cap) {
			char *more;

			cap = cap ? 2 * cap : 8192;
			more = realloc(text, cap);
			if (!more) {
				free(text);
				fclose(f);
				return -ENOMEM;
			}
			text = more;
		}
		n = fread(text + len, 1, 4096, f);
		len += n;
		if (n < 4096)
			break;
	}
	fclose(f);
	text[len] = '\0';
	if (strlen(text) != len) {
		if (err)
			fprintf(err, "%s:1:1: error: expected text, found a "
				"NUL byte\n", path);
		free(text);
		return -EINVAL;
	}
	rc = m_cost_profile_parse(path, text, profile, err);
	free(text);
	return rc;
}
