// SPDX-License-Identifier: MIT
/*
 * tools/fio/showcmd.c - fio's --showcmd (init.c, dump_opt_list()): a
 * config printed as one command line, "fio --opt=value ... --name=job
 * --opt=value ...", and the job comparison its round trip is tested
 * with.
 *
 * One divergence: fio prints a [global] section that follows a job
 * without a --name, so its options would land in that job when the line
 * is parsed back; wpsim prints --name=global there.  Options are
 * printed as given (after ${VAR}), so the line is only as portable as
 * the values: a value with a space needs quoting the printer does not
 * add.  wpsim's own options (--variant, --device, ...) are not printed,
 * as fio prints none of its command-line options.
 */
#include "tools/fio/internal.h"

#include <string.h>

void fio_showcmd(FILE *out, const struct fio_config *cfg)
{
	fputs("fio ", out);
	for (uint32_t i = 0; i < cfg->section_count; i++) {
		const struct fio_section *sec = &cfg->sections[i];

		if (sec->implicit) {
			/* Options with no --name stay without one. */
		} else if (!sec->global) {
			fprintf(out, "--name=%s ", sec->name);
		} else if (i > 0) {
			fputs("--name=global ", out);
		}
		for (uint32_t j = 0; j < sec->given_count; j++) {
			const struct fio_given *g = &sec->given[j];

			if (g->value)
				fprintf(out, "--%s=%s ", g->name, g->value);
			else
				fprintf(out, "--%s ", g->name);
		}
	}
	fputc('\n', out);
}

bool fio_jobs_equal(const struct fio_job *a, const struct fio_job *b)
{
#define SAME(f) (a->f == b->f)
#define SAME_STR(f) (!strcmp(a->f, b->f))
#define SAME_SIZE(f) (SAME(f.set) && SAME(f.bytes) && SAME(f.percent))
	for (int i = 0; i < FIO_DDIR_COUNT; i++)
		if (!SAME(bs[i]) || !SAME(bs_min[i]) || !SAME(bs_max[i]) ||
		    !SAME(ba[i]) ||
		    !SAME(bssplit_nr[i]) ||
		    memcmp(a->bssplit[i], b->bssplit[i],
			   sizeof(a->bssplit[i])))
			return false;
	return SAME_STR(name) && SAME(jobnum) && SAME(groupid) &&
	       SAME(stonewall) && SAME(new_group) && SAME(rw) &&
	       SAME(rw_seq_nr) &&
	       SAME(rw_seq_add) && SAME(rwmixread) && SAME_SIZE(size) &&
	       SAME_SIZE(io_size) && SAME(number_ios) && SAME(numjobs) &&
	       SAME(iodepth) && SAME(ioengine) && SAME(direct) &&
	       SAME(sync) && SAME(fsync_blocks) && SAME(fdatasync_blocks) &&
	       SAME(sfr_flags) && SAME(sfr_nr) && SAME(end_fsync) &&
	       SAME(file_append) && SAME(overwrite) && SAME_STR(filename) &&
	       SAME(filename_count) && SAME_STR(filename_format) &&
	       SAME_STR(directory) && SAME(nrfiles) && SAME_SIZE(offset) &&
	       SAME_SIZE(offset_increment) && SAME(zonemode) &&
	       SAME(zonesize) && SAME(zoneskip) && SAME(zonerange) &&
	       SAME(runtime_ns) && SAME(time_based) && SAME(ramp_time_ns) &&
	       SAME(startdelay_ns) && SAME(uncached) && SAME(writethrough) &&
	       SAME(hipri) && SAME(nowait) && SAME(atomic) && SAME(group_reporting) &&
	       SAME(randseed) && SAME(randrepeat) && SAME(norandommap) &&
	       SAME(ba_norandommap) &&
	       SAME(random_generator) && SAME(sprandom) &&
	       SAME(spr_num_regions) && SAME(spr_op) && SAME(spr_cs) &&
	       SAME(spr_set_lfsr) && SAME(spr_set_nomap) &&
	       SAME(spr_randseed_given) && SAME(thread) && SAME(fallocate) &&
	       SAME(create_on_open) && SAME(invalidate) &&
	       SAME(filesize) && SAME(loops) && SAME_STR(verify) &&
	       SAME(do_verify) && SAME(verify_fatal) &&
	       SAME(verify_write_sequence) &&
	       SAME(verify_backlog) && SAME(verify_batch) &&
	       SAME(verify_dump) && SAME(verify_async) &&
	       SAME(verify_interval) &&
	       SAME(verify_given) && SAME_STR(verify_pattern) &&
	       SAME(verify_pattern_offset) && SAME_STR(buffer_pattern) &&
	       SAME(experimental_verify) && SAME(verify_state_save) &&
	       SAME(verify_state_load) && SAME(buffer_compress_percentage) &&
	       SAME(dedupe_percentage) && SAME(dedupe_mode) &&
	       SAME(dedupe_global) && SAME(dedupe_working_set_percentage) &&
	       SAME(refill_buffers) &&
	       SAME_STR(description) && SAME(io_submit_mode) &&
	       SAME(serialize_overlap) && SAME(gtod_reduce) &&
	       SAME_STR(write_iolog) && SAME_STR(read_iolog) &&
	       SAME_STR(wait_for) &&
	       SAME(replay_no_stall) && SAME(replay_time_scale) &&
	       SAME(kb_base) && SAME(logs) &&
	       !memcmp(a->log_file, b->log_file, sizeof(a->log_file)) &&
	       SAME(log_avg_msec) && SAME(log_window_value) &&
	       SAME(log_issue_time) &&
	       SAME(per_job_logs) && SAME(log_offset) &&
	       fio_pace_jobs_equal(a, b) && fio_ss_jobs_equal(a, b) &&
	       fio_err_jobs_equal(a, b);
#undef SAME
#undef SAME_STR
#undef SAME_SIZE
}
