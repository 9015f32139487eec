// SPDX-License-Identifier: MIT
/*
 * tools/wpsim/fio-vstate.c - `wpsim fio`: fio's verify state file
 * (verify_state_save, verify_state_load) and the files an earlier run
 * left (fio 3.33 backend.c, verify.c: get_all_io_list,
 * verify_save_state, verify_load_state, verify_state_should_stop; read,
 * not copied).
 *
 * verify_state_save (fio's default 1): when a job with verify= that
 * writes ends, fio 3.33 writes local-NAME-N-verify.state (N: the job's
 * index in the run, fio's thread_number - 1) with the number of writes
 * it issued (numberio), its iodepth, its files and, per file, the
 * offsets of its last iodepth completed writes.  wpsim writes a file of
 * that name in its own text format (not fio's binary one): fio's fields,
 * then what the model needs to check the blocks after a load, which
 * fio's file does not carry because fio finds the bytes on disk: the
 * writer's verify kind, interval (its headers' length) and pattern, and
 * its last write of each block
 * (file, offset, length and the write id's sequence number).  Under
 * verify_backlog the blocks already read back are forgotten (fio frees
 * their io_pieces; tools/fio/verify.c's drop mode), so such a file lists
 * only the blocks still waiting and says how many it forgot, and
 * loading one that forgot any is an error (their data cannot be laid).
 *
 * verify_state_load=1: the job loads its own state file (fio's name for
 * it), a missing one is an error (fio 3.33 stops there too: "fio: open
 * state file: No such file or directory", exit 1, measured), and fio's
 * verify_state_should_stop ends the job's verify reads at the first
 * block in the window of the last iodepth writes that the saved writer
 * had not completed.
 *
 * The files an earlier run left: a later fio process reads the bytes
 * its files hold; the model's files start empty.  A loaded state file
 * (verify_state_load, or wpsim's --files-from=STATE,...) lays its
 * blocks on the run's files of the same name before the jobs start:
 * each block's device sectors hold a write id of a writer of the loaded
 * file (m_dev_data_set: on the device, not cached, as a new process
 * finds them after the earlier one's files were closed and dropped by
 * invalidate).  A read then checks them as it checks a write of the
 * run (fio-verify.c's writer_of).
 *
 * Leaves out: fio's random-state fields (no random header seeds here);
 * the order of a libaio writer's completions (the comps are its last
 * writes in issue order); the part of a block beyond the file's room in
 * the model (the run's files are as large as its jobs need).
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/linux/bio.h"
#include "model/world.h"
#include "tools/wpsim/fio-run.h"

#define VSTATE_HEADER	"wpsim-verify-state 1"
/* Writers' ids are (job number << 20 | seq): 12 bits of writers. */
#define VSTATE_WRITERS_MAX	(4095u)

struct vstate {
	char path[FIO_PATH_LEN_MAX + 1];
	struct fio_job job;		/* the writer: name, verify kind */
	struct job_run jr;		/* fio-verify.c's writer_of view */
	char **names;			/* [nofiles] its files' names */
	uint64_t numberio;
	unsigned int depth, nofiles, index;
	uint64_t ncomps;
	unsigned int *comp_file;	/* [ncomps] */
	uint64_t *comp_off;
	int owner;			/* the job that loaded it, -1 */
	uint64_t reads;			/* the owner's reads (io_blocks) */
};

static struct vstate *vs;
static unsigned int nvs;

static void vstate_free_one(struct vstate *v)
{
	for (unsigned int f = 0; v->names && f < v->nofiles; f++)
		free(v->names[f]);
	free(v->names);
	free(v->jr.world_file);
	free(v->comp_file);
	free(v->comp_off);
	fio_verify_map_free(&v->jr.vmap);
}

void fio_vstate_free(void)
{
	for (unsigned int i = 0; i < nvs; i++)
		vstate_free_one(&vs[i]);
	free(vs);
	vs = NULL;
	nvs = 0;
}

static int vstate_error(const char *path, unsigned int line, const char *what,
			const char *found)
{
	char shown[61];
	size_t n = 0;

	/* fio's binary state file: its bytes shown as '?'. */
	for (; found[n] && n < sizeof(shown) - 1; n++)
		shown[n] = found[n] >= ' ' && found[n] < 127 ? found[n] : '?';
	shown[n] = '\0';
	fprintf(stderr, "wpsim fio: error: %s:%u: expected %s, found '%s'\n",
		path, line, what, shown);
	return EXIT_USAGE;
}

static int hexv(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* One state file into @v (its blocks' ids: the saved sequence numbers,
 * made the run's at plan).  Return: 0, -ENOENT (not there), or 2. */
static int vstate_read(const char *path, struct vstate *v)
{
	FILE *in = fopen(path, "r");
	char buf[FIO_PATH_LEN_MAX + 2 * FIO_PATTERN_MAX + 64];
	unsigned int line = 0, files_seen = 0;
	uint64_t blocks = 0, comps = 0;
	int rc = 0;

	memset(v, 0, sizeof(*v));
	v->owner = -1;
	snprintf(v->path, sizeof(v->path), "%s", path);
	if (!in)
		return -errno;
	/* Two passes: the counts (fio's nofiles, the blocks), then the
	 * fields, so that every array is sized before it is filled. */
	for (int pass = 0; pass < 2 && !rc; pass++) {
		rewind(in);
		line = 0;
		files_seen = 0;
		if (pass) {
			v->names = calloc(v->nofiles ? v->nofiles : 1,
					  sizeof(*v->names));
			v->jr.world_file = calloc(v->nofiles ? v->nofiles : 1,
						  sizeof(*v->jr.world_file));
			v->comp_file = calloc(comps ? comps : 1,
					      sizeof(*v->comp_file));
			v->comp_off = calloc(comps ? comps : 1,
					     sizeof(*v->comp_off));
			if (!v->names || !v->jr.world_file || !v->comp_file ||
			    !v->comp_off ||
			    fio_verify_map_init(&v->jr.vmap, blocks)) {
				rc = vstate_error(path, 0, "memory for its "
						  "blocks", "");
				break;
			}
		}
		while (!rc && fgets(buf, sizeof(buf), in)) {
			char *nl = strchr(buf, '\n'), *rest;
			unsigned long long a, b, c, d;

			line++;
			if (nl)
				*nl = '\0';
			if (line == 1) {
				if (strcmp(buf, VSTATE_HEADER))
					rc = vstate_error(path, line, "'"
						VSTATE_HEADER "' (a state "
						"file wpsim fio wrote; fio's "
						"binary one is not read)", buf);
				continue;
			}
			if (!buf[0] || buf[0] == '#')
				continue;
			rest = strchr(buf, ' ');
			if (!rest) {
				rc = vstate_error(path, line, "a field and its "
						  "value", buf);
				break;
			}
			*rest++ = '\0';
			if (!strcmp(buf, "name")) {
				if (pass)
					snprintf(v->job.name,
						 sizeof(v->job.name), "%s",
						 rest);
			} else if (!strcmp(buf, "index") &&
				   sscanf(rest, "%llu", &a) == 1) {
				v->index = (unsigned int)a;
			} else if (!strcmp(buf, "forgotten") &&
				   sscanf(rest, "%llu", &a) == 1) {
				if (a) {
					fprintf(stderr, "wpsim fio: error: %s:"
						"%u: its writer's %llu blocks "
						"read back under verify_backlog "
						"are not kept (wpsim forgets "
						"them as fio frees its "
						"io_pieces), so a later run "
						"cannot find them on its files"
						"\n", path, line, a);
					rc = EXIT_USAGE;
				}
			} else if (!strcmp(buf, "numberio") &&
				   sscanf(rest, "%llu", &a) == 1) {
				v->numberio = a;
			} else if (!strcmp(buf, "depth") &&
				   sscanf(rest, "%llu", &a) == 1 && a) {
				v->depth = (unsigned int)a;
			} else if (!strcmp(buf, "nofiles") &&
				   sscanf(rest, "%llu", &a) == 1 && a &&
				   a <= FIO_FILES_MAX) {
				v->nofiles = (unsigned int)a;
			} else if (!strcmp(buf, "interval") &&
				   sscanf(rest, "%llu", &a) == 1 &&
				   a % 512 == 0 && a <= FIO_RUN_BS_MAX) {
				/* The writer's verify interval: its headers'
				 * length (fio-verify.c writer_hdr_inc). */
				v->job.bs[FIO_DDIR_WRITE] = a;
				v->job.verify_interval = a;
			} else if (!strcmp(buf, "verify")) {
				if (strlen(rest) >= sizeof(v->job.verify)) {
					rc = vstate_error(path, line, "a verify "
							  "kind", rest);
					break;
				}
				snprintf(v->job.verify, sizeof(v->job.verify),
					 "%s", strcmp(rest, "-") ? rest : "");
			} else if (!strcmp(buf, "pattern") &&
				   (rest[0] == '0' || rest[0] == '1') &&
				   rest[1] == ' ') {
				const char *h = rest + 2;
				size_t n = strlen(h);

				if (n % 2 || !n || n / 2 > FIO_PATTERN_MAX) {
					rc = vstate_error(path, line, "a pattern "
							  "in hex", h);
					break;
				}
				v->jr.has_dpat = true;
				v->jr.dpat.offset_format = rest[0] == '1';
				v->jr.dpat.len = n / 2;
				for (size_t k = 0; k < n / 2; k++) {
					int hi = hexv(h[2 * k]),
					    lo = hexv(h[2 * k + 1]);

					if (hi < 0 || lo < 0) {
						rc = vstate_error(path, line,
							"a pattern in hex", h);
						break;
					}
					v->jr.dpat.bytes[k] =
						(uint8_t)(hi << 4 | lo);
				}
			} else if (!strcmp(buf, "file") &&
				   sscanf(rest, "%llu", &a) == 1 &&
				   a < v->nofiles && strchr(rest, ' ')) {
				if (pass && !v->names[a])
					v->names[a] = strdup(strchr(rest, ' ') +
							     1);
				files_seen++;
			} else if (!strcmp(buf, "comp") &&
				   sscanf(rest, "%llu %llu", &a, &b) == 2 &&
				   a < v->nofiles) {
				if (pass) {
					v->comp_file[v->ncomps] =
						(unsigned int)a;
					v->comp_off[v->ncomps++] = b;
				} else {
					comps++;
				}
			} else if (!strcmp(buf, "block") &&
				   sscanf(rest, "%llu %llu %llu %llu", &a, &b,
					  &c, &d) == 4 && a < v->nofiles &&
				   c && c % 512 == 0 && c <= FIO_RUN_BS_MAX &&
				   d && d <= 0xfffff) {
				if (pass)
					fio_verify_note(&v->jr.vmap,
							fio_verify_key(b,
								(unsigned)a),
							(uint32_t)d,
							(uint32_t)c);
				else
					blocks++;
			} else {
				rc = vstate_error(path, line, "name, index, "
					"numberio, depth, nofiles (1 to 65536), "
					"verify, interval (a multiple of 512), "
					"pattern, file F NAME, comp F "
					"OFFSET or block F OFFSET LEN SEQ "
					"(LEN a multiple of 512, F below "
					"nofiles)", buf);
			}
		}
		if (!rc && line == 0)
			rc = vstate_error(path, 1, "'" VSTATE_HEADER "'",
					  "an empty file");
		if (!rc && pass && files_seen != v->nofiles)
			rc = vstate_error(path, line, "a 'file' line for each "
					  "of nofiles", "fewer");
	}
	fclose(in);
	if (!rc && !v->nofiles)
		rc = vstate_error(path, line, "nofiles", "none");
	v->jr.job = &v->job;
	v->jr.nfiles = v->nofiles;
	v->jr.index = v->index;		/* fio's thread_number - 1 */
	return rc;
}

/* Load @path as writer nvs (its ids the run's), its files the run's by
 * name.  @owner: the job of verify_state_load, or -1. */
static int vstate_load(const char *path, int owner, const struct fio_job *j)
{
	struct vstate *nv, *v;
	uint32_t prefix;
	int rc;

	for (unsigned int i = 0; i < nvs; i++)
		if (!strcmp(vs[i].path, path)) {
			if (owner >= 0)
				vs[i].owner = owner;
			return 0;
		}
	if (R->njobs + nvs + 1 > VSTATE_WRITERS_MAX) {
		fprintf(stderr, "wpsim fio: error: %s: more than %u jobs and "
			"loaded state files (a write id holds 12 bits of its "
			"writer)\n", path, VSTATE_WRITERS_MAX);
		return EXIT_USAGE;
	}
	nv = realloc(vs, (nvs + 1) * sizeof(*vs));
	if (!nv)
		return EXIT_USAGE;
	vs = nv;
	/* Each writer's view points at its own job: moved with it. */
	for (unsigned int i = 0; i < nvs; i++)
		vs[i].jr.job = &vs[i].job;
	v = &vs[nvs];
	rc = vstate_read(path, v);
	if (rc == -ENOENT && j) {
		/* fio 3.33 (open_state_file): perror, then exit 1. */
		char what[FIO_PATH_LEN_MAX + 256];

		vstate_free_one(v);
		snprintf(what, sizeof(what), "verify_state_load=1: %s: No such "
			 "file or directory (fio 3.33 stops there too: \"fio: "
			 "open state file: No such file or directory\"; a "
			 "write job with verify= and verify_state_save=1 "
			 "writes it)", path);
		return fio_run_job_error(j, what);
	}
	if (rc < 0) {
		vstate_free_one(v);
		fprintf(stderr, "wpsim fio: error: --files-from: %s: %s\n",
			path, strerror(-rc));
		return EXIT_USAGE;
	}
	if (rc) {
		vstate_free_one(v);
		return rc;
	}
	v->owner = owner;
	nvs++;
	/* Its ids: writer R->njobs + nvs (fio-verify.c writer_of). */
	prefix = (uint32_t)(R->njobs + nvs) << 20;
	for (uint64_t s = 0; s < v->jr.vmap.cap; s++)
		if (v->jr.vmap.keys[s])
			v->jr.vmap.ids[s] |= prefix;
	for (unsigned int f = 0; f < v->nofiles; f++) {
		v->jr.world_file[f] = UINT_MAX;
		for (unsigned int k = 0; k < R->nr_files; k++)
			if (v->names[f] && !strcmp(R->file[k].name,
						   v->names[f]))
				v->jr.world_file[f] = k;
	}
	return 0;
}

static void state_name(char *out, size_t len, const char *name,
		       unsigned int index)
{
	/* fio's verify_state_gen_name: "local-NAME-N-verify.state"; fio
	 * 3.33 (verify-state.h) turns each '/' of the name into '.'. */
	char clean[FIO_NAME_LEN_MAX + 1];

	snprintf(clean, sizeof(clean), "%s", name);
	for (char *c = clean; *c; c++)
		if (*c == '/')
			*c = '.';
	snprintf(out, len, "local-%s-%u-verify.state", clean, index);
}

int fio_vstate_plan(const char *files_from)
{
	char path[FIO_PATH_LEN_MAX + 1];
	int rc;

	for (unsigned int i = 0; i < R->njobs; i++) {
		const struct fio_job *j = R->jobs[i].job;

		if (!j->verify_state_load || !j->verify[0])
			continue;
		state_name(path, sizeof(path), j->name, i);
		rc = vstate_load(path, (int)i, j);
		if (rc)
			return rc;
	}
	while (files_from && *files_from) {
		const char *comma = strchr(files_from, ',');
		size_t n = comma ? (size_t)(comma - files_from) :
				   strlen(files_from);

		if (n && n < sizeof(path)) {
			memcpy(path, files_from, n);
			path[n] = '\0';
			rc = vstate_load(path, -1, NULL);
			if (rc)
				return rc;
		}
		files_from += n + (comma != NULL);
	}
	return 0;
}

const struct job_run *fio_vstate_writer(unsigned int k)
{
	return k < nvs ? &vs[k].jr : NULL;
}

void fio_vstate_lay(void)
{
	struct m_world *w = m_world();

	for (unsigned int i = 0; i < nvs; i++) {
		const struct fio_verify_map *m = &vs[i].jr.vmap;

		vs[i].reads = 0;
		for (uint64_t b = 0; b < m->count; b++) {
			uint64_t key = m->order[b];
			uint64_t off = fio_verify_key_offset(key);
			unsigned int f = fio_verify_key_file(key);
			unsigned int wf = vs[i].jr.world_file[f];
			struct km_inode *inode;
			uint64_t room;
			uint32_t id, len;

			if (wf == UINT_MAX || wf >= w->nr_files ||
			    !fio_verify_expected_len(m, key, &id, &len))
				continue;
			inode = w->inodes[wf];
			/* Its part within the file's room on the device (a
			 * run's files are as large as its jobs need). */
			room = (uint64_t)inode->nr_blocks << inode->i_blkbits;
			if (off >= room)
				continue;
			if (off + len > room)
				len = (uint32_t)(room - off);
			m_dev_data_set(&w->dev, m_inode_sector(inode,
							       (loff_t)off),
				       len / 512, id);
		}
	}
}

bool fio_vstate_should_stop(struct job_run *jr, uint64_t pos)
{
	struct vstate *v = NULL;
	uint64_t done;
	unsigned int f;
	const char *file;

	for (unsigned int i = 0; i < nvs; i++)
		if (vs[i].owner == (int)jr->index)
			v = &vs[i];
	if (!v)
		return false;
	done = v->reads++;
	/* Not in the window of the last depth writes yet (or already
	 * past it), unless numberio is within one depth. */
	if ((done < v->depth || v->numberio - done > v->depth) &&
	    v->numberio > v->depth)
		return false;
	/* In it: a block the writer completed goes on (fio matches the
	 * file by its number in the job). */
	file = R->file[jr->world_file[jr->cur_file]].name;
	for (uint64_t c = 0; c < v->ncomps; c++) {
		f = v->comp_file[c];
		if (v->comp_off[c] == pos && f < v->nofiles && v->names[f] &&
		    f == jr->cur_file && !strcmp(v->names[f], file))
			return false;
	}
	return true;
}

/* The state of job @i (fio's get_all_io_list for one thread). */
static int vstate_write(unsigned int i)
{
	const struct job_run *jr = &R->jobs[i];
	const struct fio_job *j = jr->job;
	const struct fio_verify_map *m = &jr->vmap;
	char path[FIO_PATH_LEN_MAX + 1];
	FILE *out;

	state_name(path, sizeof(path), j->name, i);
	out = fopen(path, "w");
	if (!out) {
		/* fio 3.33: perror("fio: open state file"), the run goes
		 * on. */
		fprintf(stderr, "fio: open state file: %s\nfio: state file: "
			"%s (for_write=1)\n", strerror(errno), path);
		return 0;
	}
	fprintf(out, VSTATE_HEADER "\n"
		"# wpsim fio's verify state (fio 3.33 writes this name in "
		"its binary format):\n# fio's fields, then the writer's "
		"kind, pattern and last write of each block\n"
		"name %s\nindex %u\nnumberio %" PRIu64 "\ndepth %u\n"
		"nofiles %u\nverify %s\ninterval %" PRIu64 "\n", j->name, i,
		jr->writes_issued, j->iodepth ? j->iodepth : 1, jr->nfiles,
		j->verify[0] ? j->verify : "-", fio_run_verify_interval(j));
	if (jr->has_dpat && jr->dpat.len) {
		fprintf(out, "pattern %d ", jr->dpat.offset_format);
		for (size_t k = 0; k < jr->dpat.len; k++)
			fprintf(out, "%02x", jr->dpat.bytes[k]);
		fputc('\n', out);
	}
	for (unsigned int f = 0; f < jr->nfiles; f++) {
		char name[FIO_PATH_LEN_MAX + 1] = "";

		/* ioengine=null opens no world file; fio's state names
		 * the job's file all the same (measured, fio 3.33). */
		if (j->ioengine != FIO_ENGINE_NULL)
			snprintf(name, sizeof(name), "%s",
				 R->file[jr->world_file[f]].name);
		else if (fio_job_file_name(j, f, name, sizeof(name)))
			name[0] = '\0';
		fprintf(out, "file %u %s\n", f, name);
	}
	/* fio's comps: each file's last iodepth completed writes, the
	 * newest first (measured: t0037-pre's file). */
	for (unsigned int f = 0; m->keys && f < jr->nfiles; f++) {
		unsigned int n = 0, depth = j->iodepth ? j->iodepth : 1;

		for (uint64_t b = m->count; b-- > 0 && n < depth; )
			if (fio_verify_key_file(m->order[b]) == f) {
				fprintf(out, "comp %u %" PRIu64 "\n", f,
					fio_verify_key_offset(m->order[b]));
				n++;
			}
	}
	/* verify_backlog's map (fio_verify_map_drop) forgot each block
	 * read back, as fio frees its io_pieces: only the blocks still
	 * waiting are listed, so the file stays near fio's size (fio
	 * 3.33's is 176 + 16 * iodepth * nr_files bytes and lists no
	 * block), and a later run cannot lay the forgotten ones. */
	if (m->drop)
		fprintf(out, "# verify_backlog: the blocks read back are not "
			"kept\nforgotten %" PRIu64 "\n", m->dropped);
	for (uint64_t b = 0; m->keys && b < m->count; b++) {
		uint32_t id, len;

		if (!fio_verify_expected_len(m, m->order[b], &id, &len))
			continue;
		fprintf(out, "block %u %" PRIu64 " %" PRIu32 " %" PRIu32 "\n",
			fio_verify_key_file(m->order[b]),
			fio_verify_key_offset(m->order[b]), len,
			(id & 0xfffffu) ? (id & 0xfffffu) : 1);
	}
	if (fclose(out)) {
		fprintf(stderr, "fio: failed to write state file\n");
		return 0;
	}
	return 0;
}

void fio_vstate_save(void)
{
	/* backend.c thread_main's end: verify_state_save, verify= and a
	 * job that writes (td_write). */
	for (unsigned int i = 0; i < R->njobs; i++) {
		const struct fio_job *j = R->jobs[i].job;

		if (j->verify_state_save && j->verify[0] && !is_read(j->rw))
			vstate_write(i);
	}
}
