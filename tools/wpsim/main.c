// SPDX-License-Identifier: MIT
/*
 * tools/wpsim/main.c - the wpsim command.
 *
 *   wpsim demo                          the main job (see README)
 *   wpsim check FILE|PROGRAM... [options]
 *                                       explore; exit 0 clean / every
 *                                       expectation holds, 1 not
 *   wpsim run FILE|PROGRAM --schedule S [--explain] [--perfetto OUT]
 *   wpsim list [ops|variants|invariants|paths|kinds|scenarios|programs|
 *               devices]
 *   wpsim fio [fio options | job files]  fio jobs in virtual time (fio.c)
 *
 * A FILE argument ending in .litmus is a scenario (scenario.c, check.c,
 * trace.c), a directory stands for the scenarios under it; anything else
 * names a built-in engine program (tools/programs/).
 *
 * Exit codes: 0 no failure found, 1 a failure found (or an expectation
 * missed), 2 bad usage or input, 3 not decided: the search did not cover
 * its space and found nothing that decides (without --accept-incomplete).
 * Output is deterministic: no pointers, no wall-clock times outside the
 * progress line of a TTY.
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "model/hw/nvme.h"
#include "sim/arena.h"
#include "sim/clock.h"
#include "sim/ctx.h"
#include "sim/explore.h"
#include "sim/lockdep.h"
#include "sim/snapshot.h"
#include "tools/profiles.h"
#include "tools/programs/programs.h"
#include "tools/wpsim/scenario.h"
#include "tools/wpsim/replay.h"
#include "tools/wpsim/search.h"
#include "tools/wpsim/ftrace.h"
#include "tools/wpsim/claims.h"
#include "model-hash.h"

#define ARGS_MAX	4096	/* FILE and PROGRAM arguments, expanded */
#define JOBS_MAX	256

struct cli {
	const char *program_name;
	const char *strategy;
	uint64_t seed;
	uint64_t executions;
	int64_t preemptions;
	uint32_t depth;
	uint32_t steps_max;
	const char *schedule;
	bool explain;
	bool verify;
	bool keep_going;
	bool iterative;
	bool shrink;
	bool compare_dfs;
	bool exhaustive;
	bool accept_incomplete;
	uint32_t estimate_probes;
	double progress_seconds;	/* --progress SECONDS; 0: TTY only */
	bool quiet;			/* --quiet: no progress line */
	const char *perfetto;
	const char *html;
	const char *emit_kunit;
	const char *format;
	unsigned int jobs;
	const char **names;	/* every FILE or PROGRAM argument */
	size_t names_count;
	struct wpsim_opts scenario;	/* the options a scenario needs */
};

static void usage(FILE *out)
{
	fprintf(out,
"usage: wpsim demo\n"
"       wpsim check FILE.litmus|DIR|PROGRAM... [--variant KEY=VALUE]...\n"
"                   [--strategy dfs|dpor|random|pct|timed] [--seed N]\n"
"                   [--cpus N]\n"
"                   [--executions N] [--preemptions K] [--depth D]\n"
"                   [--steps N] [--jobs N] [--format text|ktap|tap|json]\n"
"                   [--verify-determinism] [--keep-going]\n"
"                   [--iterative] [--shrink] [--estimate PROBES]\n"
"                   [--progress SECONDS] [--quiet]\n"
"                   [--compare-dfs] [--exhaustive] [--accept-incomplete]\n"
"                   [--wakeup-trees] [--lock-aware all|plain|off]\n"
"                   [--allocator bump|jemalloc] [--max-pages N] [--races]\n"
"       wpsim run FILE.litmus|PROGRAM --schedule S [--variant KEY=VALUE]...\n"
"                   [--steps N] [--explain] [--perfetto OUT.json] [--cpus N]\n"
"                   [--max-pages N] [--races] [--html OUT.html]\n"
"                   [--emit-kunit OUT.c]\n"
"       wpsim list [ops|variants|invariants|paths|kinds|scenarios|programs|\n"
"                   devices]\n"
"       wpsim ext4-nowait LAYOUT OFFSET LENGTH | --check TABLE\n"
"                   [--variant ext4_dio=V]\n"
"       wpsim fio [FIO OPTIONS | JOBFILE]... [--device NAME] [--cpus N]\n"
"                   [--cpu-profile NAME] [--fs xfs|ext4] [--fs-size SIZE]\n"
"                   [--dev-size SIZE]\n"
"                   [--mem SIZE] [--ram SIZE]\n"
"                   [--dirty_ratio N | --dirty_bytes SIZE]\n"
"                   [--dirty_background_ratio N |\n"
"                    --dirty_background_bytes SIZE]\n"
"                   [--seed N] [--replayable | --schedule S] [--steps N]\n"
"                   [--group-spans] [--name=JOB]\n"
"                   [--output-format=normal|json|json+]\n"
"                   (wpsim fio --help)\n"
"       wpsim replay TRACE [--summary] [--skip-bad] [--device NAME]\n"
"                   [--cpus N] [--seed N] [--variant KEY=VALUE]... [--calls]\n"
"                   [--compare KEY=V1,V2...] [--explore (--from A --to B |\n"
"                   --window K)] [--pages N] [--no-flusher]\n"
"                   [--emit-scenario OUT.litmus] (wpsim replay --help)\n"
"       wpsim where FUNCTION [FUNCTION...] [FILE.litmus|DIR]...\n"
"                   [--executions N] [--exhaustive]\n"
"\n"
"A .litmus FILE is a scenario (docs/scenario-language.md); a DIR stands for\n"
"the scenarios under it; anything else names a built-in program.\n"
"check explores each scenario under each variant its expect lines name\n"
"(or the one --variant options give), by default with dpor (exhaustive),\n"
"and prints herd7's Observation line, the final states with counts, and\n"
"for a witness or a failure the schedule and the command that replays it.\n"
"--jobs N splits an unbounded dpor search (the default) into items that N\n"
"worker processes take one at a time, merged in item order: the report\n"
"is the same for every N (its counts can differ from a run without\n"
"--jobs; its observations, states and verdicts do not); other searches\n"
"run up to N scenario x variant pairs at once, as with --jobs 1.\n"
"--format ktap (KTAP v1: a test per scenario, a subtest per variant), tap\n"
"(TAP 14, one flat result per scenario x variant, what meson reads) and json\n"
"apply to scenarios; built-in programs print text.\n"
"--preemptions K bounds dfs or dpor (dpor: Coons et al.'s bounded POR);\n"
"--iterative runs dpor with bounds 0, 1, ... K (default 2), stops at the\n"
"first that finds a witness or cuts nothing, else runs unbounded; --shrink\n"
"searches for a witness with fewer preemptions and steps; --estimate\n"
"PROBES first runs PROBES executions of dpor (its whole count if they\n"
"end, else at least that many) and estimates the whole from about as\n"
"many again over a sample of the subtrees below the top of its tree (with\n"
"dfs: Knuth's estimate of the schedule tree from PROBES random walks).\n"
"A progress line with an ETA goes to stderr on a terminal; --progress\n"
"SECONDS prints one every SECONDS whatever stderr is, --quiet none.\n"
"Unbounded dpor is source-DPOR with sleep sets and the lock-aware\n"
"reduction; --wakeup-trees runs optimal DPOR (wakeup trees: no execution\n"
"ends with every task asleep unless steps block or fail), which on the\n"
"model's lock-heavy scenarios runs more executions (docs/performance.md).\n"
"--lock-aware plain leaves bit locks (the folio lock) and read sections\n"
"out of the reduction, off turns it off: the same states, more\n"
"executions, for measuring it (bench/search-growth.py).\n"
"--compare-dfs also runs DFS (capped by --executions,\n"
"default 10^6) and prints the ratio.  A pair whose expect line says\n"
"Sometimes stops once one execution satisfies the condition and one does\n"
"not (the observation is decided); --exhaustive explores the rest.\n"
"--strategy timed runs the step that starts first in virtual time (ties\n"
"broken by --seed) on --cpus N simulated CPUs (default 1): one ordinary\n"
"schedule, replayed by run --schedule with the same --cpus, which with\n"
"--explain and --perfetto shows virtual timestamps (docs/timed-mode.md).\n"
"--max-pages N: pages per file the model holds (default 64, at most\n"
"1048576; folios per execution: twice that, at least 128); a scenario or\n"
"a write past it is an error that names the option.\n"
"A search that did not cover its space (capped by --executions, bounded\n"
"by --preemptions, sampled by random or pct, stopped by SIGINT or SIGTERM)\n"
"decides only what it found: a witness against Never or Always, one\n"
"execution each way for Sometimes; otherwise the expectation is \"not\n"
"decided: incomplete (why)\".  --accept-incomplete exits 0 on that.\n"
"--races turns on the data-race detector: two unordered conflicting\n"
"accesses of which one is plain fail the execution (docs/lockdep.md).\n"
"Locking rules are checked in every execution (kind \"locking\").\n"
"run --html OUT.html writes the replayed execution as one self-contained\n"
"page (a lane per task, kernel function nesting, state changes, the\n"
"failure); --emit-kunit OUT.c the skeleton of a KUnit test that drives it.\n"
"where FUNCTION lists the scenarios and statements whose executions reach\n"
"the model's km_FUNCTION (every FUNCTION named, in one execution), per\n"
"variant.  A scenario's claim (a partial\n"
"order on the schedule) is checked over the traces that can honour it\n"
"(docs/scenario-language.md, \"Claims\").\n"
"Exit: 0 every expectation holds (no failure found), 1 one does not (a\n"
"failure found), 2 bad usage or input (file:line:col: error: ...), 3 not\n"
"decided (an incomplete search found nothing that decides; see above).\n");
}

static int usage_error(const char *fmt, const char *arg)
{
	fprintf(stderr, "wpsim: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\n");
	usage(stderr);
	return EXIT_USAGE;
}

static int parse_u64(const char *opt, const char *text, uint64_t *out)
{
	char *end;

	if (!text)
		return usage_error("%s needs a value", opt);
	errno = 0;
	*out = strtoull(text, &end, 0);
	if (errno || *end || *text == '-' || end == text) {
		fprintf(stderr, "wpsim: %s: expected a non-negative integer, "
			"found '%s'\n", opt, text);
		return EXIT_USAGE;
	}
	return 0;
}

/*
 * A name that is neither a scenario (.litmus) nor a directory is a
 * built-in program; when it is not one either, say what it is: a path
 * that does not exist, a file that is not a scenario, or an unknown
 * program name.
 */
static const struct sim_program *find_program(const char *name)
{
	const struct sim_program *p = wpsim_program_find(name);
	struct stat st;

	if (!p) {
		if (stat(name, &st) == 0)
			fprintf(stderr, "wpsim: '%s': expected a scenario "
				"FILE.litmus, a DIR or a built-in program, "
				"found a file that is none of them; known "
				"programs:\n", name);
		else
			fprintf(stderr, "wpsim: '%s': no such file or "
				"directory, nor a built-in program; known "
				"programs:\n", name);
		for (int i = 0; wpsim_programs[i]; i++)
			fprintf(stderr, "  %s\n", wpsim_programs[i]->name);
	}
	return p;
}

/* --variant KEY=VALUE: the key and value must be the model's. */
static int parse_variant(struct cli *cli, const char *text)
{
	struct wpsim_opts *o = &cli->scenario;
	struct m_variant_choice c;
	char why[640];

	if (!text)
		return usage_error("%s needs a value", "--variant");
	if (m_variant_parse(text, &c, why, sizeof(why))) {
		fprintf(stderr, "wpsim: --variant: %s\n", why);
		return EXIT_USAGE;
	}
	for (size_t i = 0; i < o->variants_count; i++) {
		if (o->variant_key[i] == (int)c.key) {
			o->variant_value[i] = c.value;
			return 0;
		}
	}
	o->variant_key[o->variants_count] = (int)c.key;
	o->variant_value[o->variants_count++] = c.value;
	return 0;
}

enum command { CMD_CHECK = 1, CMD_RUN = 2 };

/*
 * Which command takes which option: an option the command does not use
 * is an error, never ignored.  run --shrink works on built-in programs
 * only; cmd_run says so.
 */
static const struct option_use {
	const char *name;
	unsigned int commands;
} option_uses[] = {
	{ "--variant", CMD_CHECK | CMD_RUN },
	{ "--steps", CMD_CHECK | CMD_RUN },
	{ "--allocator", CMD_CHECK | CMD_RUN },
	{ "--max-pages", CMD_CHECK | CMD_RUN },
	{ "--shrink", CMD_CHECK | CMD_RUN },
	{ "--schedule", CMD_RUN },
	{ "--explain", CMD_RUN },
	{ "--races", CMD_CHECK | CMD_RUN },
	{ "--perfetto", CMD_RUN },
	{ "--html", CMD_RUN },
	{ "--emit-kunit", CMD_RUN },
	{ "--format", CMD_CHECK },
	{ "--jobs", CMD_CHECK },
	{ "--verify-determinism", CMD_CHECK },
	{ "--keep-going", CMD_CHECK },
	{ "--iterative", CMD_CHECK },
	{ "--compare-dfs", CMD_CHECK },
	{ "--exhaustive", CMD_CHECK },
	{ "--accept-incomplete", CMD_CHECK },
	{ "--wakeup-trees", CMD_CHECK },
	{ "--lock-aware", CMD_CHECK },
	{ "--estimate", CMD_CHECK },
	{ "--progress", CMD_CHECK },
	{ "--quiet", CMD_CHECK },
	{ "--strategy", CMD_CHECK },
	{ "--seed", CMD_CHECK },
	{ "--executions", CMD_CHECK },
	{ "--preemptions", CMD_CHECK },
	{ "--depth", CMD_CHECK },
};

/* 0 if @command takes option @a (or wpsim knows no such option). */
static int option_check(const char *a, enum command command)
{
	const char *self = command == CMD_CHECK ? "check" : "run";
	const char *other = command == CMD_CHECK ? "run" : "check";

	for (size_t i = 0; i < sizeof(option_uses) / sizeof(option_uses[0]);
	     i++) {
		if (strcmp(a, option_uses[i].name) != 0)
			continue;
		if (option_uses[i].commands & command)
			return 0;
		fprintf(stderr, "wpsim %s: %s is an option of wpsim %s, not "
			"of %s\n", self, a, other, self);
		return EXIT_USAGE;
	}
	return 0;
}

/*
 * Long (~200 lines) for a reason: one `if` per option of every command,
 * in the order of the usage text; splitting it by command would repeat
 * the shared options.
 */
static int parse_options(int argc, char **argv, struct cli *cli,
			 enum command command)
{
	cli->names = calloc((size_t)argc + 1, sizeof(*cli->names));
	if (!cli->names)
		abort();
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;
		uint64_t n = 0;
		int rc;

		if (a[0] != '-') {
			if (!cli->program_name)
				cli->program_name = a;
			cli->names[cli->names_count++] = a;
			continue;
		}
		rc = option_check(a, command);
		if (rc)
			return rc;
		if (strcmp(a, "--variant") == 0) {
			rc = parse_variant(cli, v);
			if (rc)
				return rc;
			i++;
		} else if (strcmp(a, "--format") == 0) {
			if (!v)
				return usage_error("%s needs a value", a);
			if (strcmp(v, "text") && strcmp(v, "ktap") &&
			    strcmp(v, "tap") && strcmp(v, "json")) {
				fprintf(stderr, "wpsim: --format: expected "
					"text, ktap, tap or json, found '%s'\n",
					v);
				return EXIT_USAGE;
			}
			cli->format = v;
			i++;
		} else if (strcmp(a, "--perfetto") == 0) {
			if (!v)
				return usage_error("%s needs a value", a);
			cli->perfetto = v;
			i++;
		} else if (strcmp(a, "--html") == 0 ||
			   strcmp(a, "--emit-kunit") == 0) {
			if (!v)
				return usage_error("%s needs a value", a);
			*(a[2] == 'h' ? &cli->html : &cli->emit_kunit) = v;
			i++;
		} else if (strcmp(a, "--jobs") == 0) {
			rc = parse_u64(a, v, &n);
			if (rc)
				return rc;
			if (n < 1 || n > JOBS_MAX) {
				fprintf(stderr, "wpsim: --jobs: expected 1.."
					"%d, found '%s'\n", JOBS_MAX, v);
				return EXIT_USAGE;
			}
			cli->jobs = (unsigned int)n;
			i++;
		} else if (strcmp(a, "--explain") == 0) {
			cli->explain = true;
		} else if (strcmp(a, "--races") == 0) {
			/* Every execution, also in --jobs children. */
			sim_race_enable(true);
		} else if (strcmp(a, "--verify-determinism") == 0) {
			cli->verify = true;
		} else if (strcmp(a, "--keep-going") == 0) {
			cli->keep_going = true;
		} else if (strcmp(a, "--iterative") == 0) {
			cli->iterative = true;
		} else if (strcmp(a, "--shrink") == 0) {
			cli->shrink = true;
		} else if (strcmp(a, "--compare-dfs") == 0) {
			cli->compare_dfs = true;
		} else if (strcmp(a, "--exhaustive") == 0) {
			cli->exhaustive = true;
		} else if (strcmp(a, "--accept-incomplete") == 0) {
			cli->accept_incomplete = true;
		} else if (strcmp(a, "--wakeup-trees") == 0) {
			sim_dpor_default_optimal(true);
		} else if (strcmp(a, "--lock-aware") == 0) {
			if (!v || (strcmp(v, "all") && strcmp(v, "plain") &&
				   strcmp(v, "off"))) {
				fprintf(stderr, "wpsim: --lock-aware: expected "
					"all, plain or off, found '%s'\n",
					v ? v : "");
				return EXIT_USAGE;
			}
			sim_dpor_default_lock_sections(
				!strcmp(v, "all") ? SIM_DPOR_SECTIONS_ALL :
				!strcmp(v, "plain") ? SIM_DPOR_SECTIONS_PLAIN :
				SIM_DPOR_SECTIONS_NONE);
			i++;
		} else if (strcmp(a, "--quiet") == 0) {
			cli->quiet = true;
		} else if (strcmp(a, "--progress") == 0) {
			rc = parse_u64(a, v, &n);
			if (rc)
				return rc;
			if (n < 1 || n > 86400) {
				fprintf(stderr, "wpsim: --progress: expected "
					"1..86400 seconds, found '%s'\n", v);
				return EXIT_USAGE;
			}
			cli->progress_seconds = (double)n;
			i++;
		} else if (strcmp(a, "--estimate") == 0) {
			rc = parse_u64(a, v, &n);
			if (rc)
				return rc;
			if (n < 1 || n > 10000000) {
				fprintf(stderr, "wpsim: --estimate: expected "
					"1..10000000 probes, found '%s'\n", v);
				return EXIT_USAGE;
			}
			cli->estimate_probes = (uint32_t)n;
			i++;
		} else if (strcmp(a, "--strategy") == 0) {
			if (!v)
				return usage_error("%s needs a value", a);
			if (strcmp(v, "dfs") && strcmp(v, "dpor") &&
			    strcmp(v, "random") && strcmp(v, "pct") &&
			    strcmp(v, "timed")) {
				fprintf(stderr, "wpsim: --strategy: expected "
					"dfs, dpor, random, pct or timed, "
					"found '%s'\n", v);
				return EXIT_USAGE;
			}
			cli->strategy = v;
			i++;
		} else if (strcmp(a, "--cpus") == 0) {
			struct sim_clock_config c = *sim_clock_config();

			rc = parse_u64(a, v, &n);
			if (rc)
				return rc;
			if (n < 1 || n > SIM_CPUS_MAX) {
				fprintf(stderr, "wpsim: --cpus: expected "
					"1..%d, found '%s'\n", SIM_CPUS_MAX,
					v);
				return EXIT_USAGE;
			}
			/* Process-wide: replays and reports use it too. */
			c.cpus = (unsigned int)n;
			sim_clock_configure(&c);
			i++;
		} else if (strcmp(a, "--max-pages") == 0) {
			rc = parse_u64(a, v, &n);
			if (rc)
				return rc;
			if (n < 1 || n > M_FILE_PAGES_LIMIT) {
				fprintf(stderr, "wpsim: --max-pages: expected "
					"1..%lu, found '%s'\n",
					M_FILE_PAGES_LIMIT, v);
				return EXIT_USAGE;
			}
			/* Process-wide, before any scenario is read. */
			m_file_pages_max = (unsigned long)n;
			i++;
		} else if (strcmp(a, "--schedule") == 0) {
			if (!v)
				return usage_error("%s needs a value", a);
			cli->schedule = v;
			i++;
		} else if (strcmp(a, "--allocator") == 0) {
			enum sim_arena_backend b;

			if (!v)
				return usage_error("%s needs a value", a);
			if (strcmp(v, "bump") == 0) {
				b = SIM_ARENA_BUMP;
			} else if (strcmp(v, "jemalloc") == 0) {
				b = SIM_ARENA_JEMALLOC;
			} else {
				fprintf(stderr, "wpsim: --allocator: expected "
					"bump or jemalloc, found '%s'\n", v);
				return EXIT_USAGE;
			}
			if (!sim_arena_select(b)) {
				fprintf(stderr, "wpsim: --allocator %s: not "
					"built in\n", v);
				return EXIT_USAGE;
			}
			i++;
		} else if (strcmp(a, "--seed") == 0 ||
			   strcmp(a, "--executions") == 0 ||
			   strcmp(a, "--preemptions") == 0 ||
			   strcmp(a, "--depth") == 0 ||
			   strcmp(a, "--steps") == 0) {
			rc = parse_u64(a, v, &n);
			if (rc)
				return rc;
			i++;
			if (strcmp(a, "--seed") == 0)
				cli->seed = n;
			else if (strcmp(a, "--executions") == 0)
				cli->executions = n;
			else if (strcmp(a, "--preemptions") == 0)
				cli->preemptions = (int64_t)n;
			else if (strcmp(a, "--depth") == 0)
				cli->depth = (uint32_t)n;
			else if (n > SIM_STEPS_LIMIT)
				return usage_error("--steps: at most 65536, "
						   "found %s", v);
			else
				cli->steps_max = (uint32_t)n;
		} else {
			return usage_error("unknown option '%s'", a);
		}
	}
	return 0;
}

static int setup_strategy(const struct cli *cli, struct sim_strategy *s)
{
	if (strcmp(cli->strategy, "random") == 0) {
		sim_strategy_random(s, cli->seed, cli->executions ?
				    cli->executions : 1000);
	} else if (strcmp(cli->strategy, "pct") == 0) {
		sim_strategy_pct(s, cli->seed, cli->executions ?
				 cli->executions : 1000,
				 cli->depth ? cli->depth : 2);
	} else if (strcmp(cli->strategy, "timed") == 0) {
		sim_strategy_timed(s, cli->seed, cli->executions ?
				   cli->executions : 1);
	} else if (strcmp(cli->strategy, "dpor") == 0) {
		if (sim_strategy_dpor_bounded(s, cli->preemptions) != 0) {
			fprintf(stderr, "wpsim: out of memory\n");
			return EXIT_USAGE;
		}
	} else if (sim_strategy_dfs(s, cli->preemptions) != 0) {
		fprintf(stderr, "wpsim: out of memory\n");
		return EXIT_USAGE;
	}
	return 0;
}

/* The replay line names the step bound when it is not the default. */
static void replay_command(char *buf, size_t size,
			   const struct sim_program *p, uint32_t steps_max)
{
	unsigned int cpus = sim_clock_config()->cpus;
	size_t len = (size_t)snprintf(buf, size, "wpsim run %s", p->name);

	if (cpus != SIM_CPUS_DEFAULT && len < size)
		len += (size_t)snprintf(buf + len, size - len, " --cpus %u",
					cpus);
	if (m_file_pages_max != M_FILE_PAGES_DEFAULT && len < size)
		len += (size_t)snprintf(buf + len, size - len,
					" --max-pages %lu", m_file_pages_max);
	if (steps_max && len < size)
		snprintf(buf + len, size - len, " --steps %u", steps_max);
}

static bool stop_requested(void *ctx)
{
	(void)ctx;
	return wpsim_stop_signal() != 0;
}

/*
 * Whether the search of a built-in program did not cover its space, and
 * why: "no failure found" is then not a result.
 */
static bool program_incomplete(const struct sim_strategy *s,
			       const struct sim_explore_result *res,
			       const struct cli *cli, int64_t bound,
			       char *why, size_t size)
{
	if (wpsim_stop_signal() && !res->complete)
		snprintf(why, size, "stopped by %s after %" PRIu64
			 " executions", wpsim_stop_signal_name(),
			 res->executions);
	else if (s->kind != SIM_STRATEGY_DFS && s->kind != SIM_STRATEGY_DPOR)
		snprintf(why, size, "sampled: %s, %" PRIu64 " executions, "
			 "seed %" PRIu64, s->ops->name, res->executions,
			 cli->seed);
	else if (!res->complete && cli->executions)
		snprintf(why, size, "capped by --executions %" PRIu64,
			 cli->executions);
	else if (!res->complete)
		snprintf(why, size, "the search stopped after %" PRIu64
			 " executions", res->executions);
	else if (res->bound_hit)
		snprintf(why, size, "bounded by %s at %" PRId64
			 " preemptions", cli->iterative ? "--iterative" :
			 "--preemptions", bound);
	else
		return false;
	return true;
}

/*
 * --iterative: as for scenarios (check.c), bounds 0..max, then the bound
 * asked for, or unbounded if none was.  Returns the bound of the last
 * search, whose result is in @res.
 */
static int64_t explore_iterative(const struct sim_program *p,
				 const struct cli *cli, struct sim_strategy *s,
				 const struct sim_explore_options *opt,
				 struct sim_explore_result *res)
{
	int64_t max = cli->preemptions >= 0 ? cli->preemptions :
		      WPSIM_ITERATIVE_MAX;
	int64_t bound;

	for (int64_t k = 0;; k++) {
		bool last = k > max;
		char name[32] = "none";

		bound = last ? -1 : k;
		sim_strategy_fini(s);
		sim_strategy_dpor_bounded(s, bound);
		sim_explore(p, s, opt, res);
		if (!last)
			snprintf(name, sizeof(name), "%" PRId64, k);
		printf("%s: iterative: bound %s: %" PRIu64 " executions, %"
		       PRIu64 " failing%s\n", p->name, name, res->executions,
		       res->failures, res->bound_hit ? "" : ", nothing cut");
		if (last || res->failures || !res->bound_hit ||
		    (k == max && cli->preemptions >= 0))
			return bound;
		sim_explore_result_fini(res);
	}
}

/* The one-line summary of a search of @p. */
static void print_program_summary(const struct sim_program *p,
				  const struct cli *cli,
				  const struct sim_strategy *s,
				  const struct sim_explore_result *res,
				  int64_t bound)
{
	printf("%s: %s, %" PRIu64 " executions, %" PRIu64 " failing",
	       p->name, s->ops->name, res->executions, res->failures);
	if (s->kind == SIM_STRATEGY_DPOR)
		printf(", %" PRIu64 " redundant", res->pruned);
	if (s->kind == SIM_STRATEGY_DFS || s->kind == SIM_STRATEGY_DPOR) {
		if (res->complete && !res->bound_hit)
			printf(", exhaustive");
		else if (res->complete)
			printf(", complete up to %" PRId64 " preemptions",
			       bound);
		else
			printf(", incomplete");
	} else {
		printf(", seed %" PRIu64, cli->seed);
	}
	if (s->kind == SIM_STRATEGY_TIMED)
		printf(", the last ends at %" PRIu64 " ns of virtual time on "
		       "%u CPU(s)", sim_exec_end_ns(),
		       sim_clock_config()->cpus);
	printf("\n");
	if (res->determinism_checked)
		printf("determinism: %s\n", res->determinism_ok ?
		       "replay reproduced the event-log hash" :
		       "MISMATCH (engine bug)");
}

/* The failure's report, with its replay command and, asked, shrunk. */
static void print_program_failure(const struct sim_program *p,
				  const struct cli *cli,
				  const struct sim_strategy *s,
				  const struct sim_explore_options *opt,
				  const struct sim_explore_result *res)
{
	const struct sim_witness *w = cli->keep_going ? &res->shortest :
				      &res->first;
	char cmd[256];

	if (cli->keep_going)
		printf("shortest failing schedule (%u steps):\n", w->steps);
	replay_command(cmd, sizeof(cmd), p, cli->steps_max);
	sim_report_failure(stdout, p, s, w, cmd, 12);
	if (cli->shrink) {
		struct sim_witness shrunk;
		char line[512];

		sim_shrink(p, w, &opt->exec, WPSIM_SHRINK_PER_BOUND, &shrunk);
		snprintf(line, sizeof(line), "%s --schedule %s", cmd,
			 shrunk.found ? shrunk.schedule : "");
		wpsim_print_shrunk(stdout, "", w, &shrunk,
				   shrunk.found ? line : NULL);
		sim_witness_fini(&shrunk);
	}
}

/* Explore @p; print a summary and, for a failure, the report. */
static int check_program(const struct sim_program *p, const struct cli *cli,
			 bool quiet_success)
{
	struct sim_explore_options opt = { 0 };
	struct sim_explore_result res;
	struct sim_strategy s;
	int64_t bound;
	char why[160];
	int rc;

	rc = setup_strategy(cli, &s);
	if (rc)
		return rc;
	bound = cli->preemptions;
	opt.exec.steps_max = cli->steps_max;
	opt.stop_on_failure = !cli->keep_going;
	opt.verify_determinism = cli->verify;
	/* Without --progress, printed only on a terminal. */
	opt.progress = cli->quiet ? NULL : stderr;
	opt.progress_seconds = cli->progress_seconds;
	opt.progress_label = p->name;
	opt.stop = stop_requested;
	if (cli->executions && (s.kind == SIM_STRATEGY_DFS ||
				s.kind == SIM_STRATEGY_DPOR))
		opt.executions_max = cli->executions;
	if (cli->estimate_probes) {
		struct wpsim_estimate e;

		wpsim_estimate(stdout, "", p, &opt.exec, cli->estimate_probes,
			       s.kind == SIM_STRATEGY_DPOR, cli->preemptions,
			       &e);
		opt.estimated_total = e.mean;
	}
	if (cli->iterative)
		bound = explore_iterative(p, cli, &s, &opt, &res);
	else
		sim_explore(p, &s, &opt, &res);

	print_program_summary(p, cli, &s, &res, bound);
	if (res.failures) {
		print_program_failure(p, cli, &s, &opt, &res);
		rc = EXIT_FOUND;
	} else if (!program_incomplete(&s, &res, cli, bound, why,
				       sizeof(why))) {
		if (!quiet_success)
			printf("no failure found\n");
		rc = EXIT_CLEAN;
	} else {
		printf("no failure found in the %" PRIu64 " executions "
		       "explored; not decided: incomplete (%s)%s\n",
		       res.executions, why, cli->accept_incomplete ?
		       "; accepted (--accept-incomplete)" : "");
		rc = cli->accept_incomplete ? EXIT_CLEAN : EXIT_INCOMPLETE;
	}
	if (res.determinism_checked && !res.determinism_ok)
		rc = EXIT_FOUND;
	if (cli->compare_dfs) {
		struct wpsim_compare c;

		wpsim_compare_dfs(stdout, "", p, &opt.exec,
				  s.preemption_bound, cli->executions ?
				  cli->executions : WPSIM_COMPARE_DFS_CAP,
				  res.executions, res.complete, &c);
	}
	sim_explore_result_fini(&res);
	sim_strategy_fini(&s);
	return rc;
}

static bool is_scenario(const char *name)
{
	size_t len = strlen(name);

	return len > 7 && strcmp(name + len - 7, ".litmus") == 0;
}

static bool is_dir(const char *name)
{
	struct stat st;

	return stat(name, &st) == 0 && S_ISDIR(st.st_mode);
}

/*
 * Whether @path says `// tier: deep` (docs/scenario-language.md,
 * "Tiers"): a directory check leaves such a file out, and says so; named
 * on the command line, it runs.
 */
static bool scenario_tier_deep(const char *path)
{
	char line[256];
	bool deep = false;
	FILE *f = fopen(path, "r");

	if (!f)
		return false;
	while (!deep && fgets(line, sizeof(line), f)) {
		const char *p = line + strspn(line, " \t");

		if (strncmp(p, "// tier:", 8) == 0)
			deep = strncmp(p + 8 + strspn(p + 8, " \t"), "deep",
				       4) == 0;
	}
	fclose(f);
	return deep;
}

/* The .litmus files under @dir, recursively, in sorted order. */
static int expand_dir(const char *dir, char ***out, size_t *n)
{
	struct dirent **list;
	int count = scandir(dir, &list, NULL, alphasort);

	if (count < 0) {
		fprintf(stderr, "wpsim: %s: %s\n", dir, strerror(errno));
		return EXIT_USAGE;
	}
	for (int i = 0; i < count; i++) {
		const char *e = list[i]->d_name;
		size_t len = strlen(dir) + strlen(e) + 2;
		char *path;

		if (e[0] == '.') {
			free(list[i]);
			continue;
		}
		path = malloc(len);
		if (!path)
			abort();
		snprintf(path, len, "%s%s%s", dir,
			 dir[strlen(dir) - 1] == '/' ? "" : "/", e);
		free(list[i]);
		if (is_dir(path)) {
			if (expand_dir(path, out, n) != 0)
				return EXIT_USAGE;
			free(path);
		} else if (is_scenario(path) && scenario_tier_deep(path)) {
			fprintf(stderr, "wpsim: %s: left out: // tier: deep "
				"(name the file to check it)\n", path);
			free(path);
		} else if (is_scenario(path) && *n == ARGS_MAX) {
			fprintf(stderr, "wpsim: %s: more than %d scenario "
				"files in one call; check them in several "
				"calls\n", path, ARGS_MAX);
			free(path);
			return EXIT_USAGE;
		} else if (is_scenario(path)) {
			(*out)[(*n)++] = path;
		} else {
			free(path);
		}
	}
	free(list);
	return 0;
}

static void scenario_opts(struct cli *cli)
{
	struct wpsim_opts *o = &cli->scenario;

	o->strategy = cli->strategy;
	o->seed = cli->seed;
	o->executions = cli->executions;
	o->preemptions = cli->preemptions;
	o->depth = cli->depth;
	o->steps_max = cli->steps_max;
	o->schedule = cli->schedule;
	o->explain = cli->explain;
	o->verify = cli->verify;
	o->keep_going = cli->keep_going;
	o->perfetto = cli->perfetto;
	o->html = cli->html;
	o->emit_kunit = cli->emit_kunit;
	o->format = cli->format;
	o->jobs = cli->jobs ? cli->jobs : 1;
	o->split = cli->jobs != 0;
	o->iterative = cli->iterative;
	o->shrink = cli->shrink;
	o->estimate_probes = cli->estimate_probes;
	o->progress_seconds = cli->progress_seconds;
	o->quiet = cli->quiet;
	o->compare_dfs = cli->compare_dfs;
	o->exhaustive = cli->exhaustive;
	o->accept_incomplete = cli->accept_incomplete;
}

static int cmd_check(int argc, char **argv)
{
	struct cli cli = { .preemptions = -1 };
	struct wpsim_scenario **scs;
	char **files;
	size_t nfiles = 0, nscs = 0;
	int rc = parse_options(argc, argv, &cli, CMD_CHECK), worst = EXIT_CLEAN;
	bool bad = false;

	if (rc)
		return rc;
	if (!cli.names_count)
		return usage_error("check needs a FILE.litmus, a DIR or a "
				   "PROGRAM%s", "");
	scenario_opts(&cli);
	if (cli.iterative && cli.strategy &&
	    strcmp(cli.strategy, "dpor") != 0)
		return usage_error("--iterative deepens DPOR's preemption "
				   "bound; it does not go with --strategy %s",
				   cli.strategy);
	files = calloc(ARGS_MAX, sizeof(*files));
	scs = calloc(ARGS_MAX, sizeof(*scs));
	if (!files || !scs)
		abort();
	/* Every argument is checked before anything runs. */
	for (size_t i = 0; i < cli.names_count; i++) {
		const char *name = cli.names[i];

		if (is_dir(name)) {
			size_t before = nfiles;

			if (expand_dir(name, &files, &nfiles) != 0)
				return EXIT_USAGE;
			if (nfiles == before) {
				fprintf(stderr, "wpsim: '%s': expected a "
					"directory with scenarios, found no "
					".litmus file under it\n", name);
				bad = true;
			}
		} else if (is_scenario(name)) {
			if (nfiles == ARGS_MAX) {
				fprintf(stderr, "wpsim: %s: more than %d "
					"scenario files in one call; check "
					"them in several calls\n", name,
					ARGS_MAX);
				return EXIT_USAGE;
			}
			files[nfiles++] = strdup(name);
		} else if (!find_program(name)) {
			bad = true;
		} else if (cli.format && strcmp(cli.format, "text") != 0) {
			fprintf(stderr, "wpsim: --format %s: scenarios only; "
				"'%s' is a built-in program (text output)\n",
				cli.format, name);
			bad = true;
		}
	}
	for (size_t i = 0; i < nfiles; i++) {
		scs[nscs] = wpsim_scenario_load(files[i], stderr);
		if (scs[nscs])
			nscs++;
		else
			bad = true;
	}
	if (bad)
		return EXIT_USAGE;
	for (size_t i = 0; i < nscs; i++)
		if (scs[i]->scn->claim)
			wpsim_ftrace_exec();	/* claims name functions */
	if (wpsim_claims_validate(scs, nscs, &cli.scenario) != EXIT_CLEAN)
		return EXIT_USAGE;
	wpsim_stop_install();
	/* Built-in programs first, as named; then the scenarios. */
	for (size_t i = 0; i < cli.names_count; i++) {
		const struct sim_program *p;

		if (is_dir(cli.names[i]) || is_scenario(cli.names[i]))
			continue;
		p = wpsim_program_find(cli.names[i]);
		if (!cli.strategy)
			cli.strategy = "dfs";
		rc = check_program(p, &cli, false);
		cli.strategy = cli.scenario.strategy;
		worst = wpsim_exit_worse(worst, rc);
	}
	/* Scenarios with a claim: claims.c (they leave the array). */
	rc = wpsim_claims_check(scs, &nscs, &cli.scenario);
	if (rc == EXIT_USAGE)
		return rc;	/* never check them without their claims */
	worst = wpsim_exit_worse(worst, rc);
	if (nscs) {
		rc = wpsim_check_scenarios(scs, nscs, &cli.scenario);
		worst = wpsim_exit_worse(worst, rc);
	}
	for (size_t i = 0; i < nscs; i++)
		wpsim_scenario_free(scs[i]);
	for (size_t i = 0; i < nfiles; i++)
		free(files[i]);
	free(scs);
	free(files);
	free(cli.names);
	return worst;
}

/* run --shrink: a witness with fewer preemptions or steps than the last. */
static void shrink_last(const struct sim_program *p,
			const struct sim_outcome *o, uint32_t steps_max)
{
	struct sim_exec_options exec = { .steps_max = steps_max };
	struct sim_witness from = { .found = true, .outcome = *o };
	struct sim_witness to;
	const uint16_t *choices;
	char cmd[512];

	from.steps = sim_exec_schedule(&choices);
	from.choices = malloc((from.steps + 1) * sizeof(*from.choices));
	from.enabled = malloc((from.steps + 1) * sizeof(*from.enabled));
	if (!from.choices || !from.enabled)
		abort();
	memcpy(from.choices, choices, from.steps * sizeof(*choices));
	memcpy(from.enabled, sim_exec_enabled_sets(),
	       from.steps * sizeof(*from.enabled));
	from.schedule = sim_exec_schedule_string();
	sim_shrink(p, &from, &exec, WPSIM_SHRINK_PER_BOUND, &to);
	snprintf(cmd, sizeof(cmd), "wpsim run %s --schedule %s", p->name,
		 to.found ? to.schedule : "");
	wpsim_print_shrunk(stdout, "", &from, &to, to.found ? cmd : NULL);
	sim_witness_fini(&to);
	sim_witness_fini(&from);
}

static int run_schedule(const struct sim_program *p, const char *schedule,
			uint32_t steps_max, bool explain, bool shrink)
{
	struct sim_exec_options exec = { .keep_log = true,
					  .steps_max = steps_max };
	struct sim_outcome o;
	char *trimmed;

	sim_replay(p, schedule, &exec, &o);
	if (o.kind == SIM_FAIL_DIVERGED && o.steps == 0 && !o.log_hash) {
		fprintf(stderr, "wpsim: --schedule: %s\n", o.message);
		return EXIT_USAGE;
	}
	trimmed = sim_exec_schedule_string();
	printf("%s: replayed schedule %s (%" PRIu64 " steps, %u preemptions), "
	       "event-log hash %016llx\n", p->name, trimmed, o.steps,
	       o.preemptions, (unsigned long long)o.log_hash);
	printf("virtual time: ends at %" PRIu64 " ns on %u CPU(s)\n",
	       sim_exec_end_ns(), sim_clock_config()->cpus);
	free(trimmed);
	if (explain) {
		printf("   step        t (us)  cpu  task       access    "
		       "object = value\n");
		sim_exec_print_log_times(stdout, 0);
	}
	if (o.kind != SIM_OK) {
		printf("result: FAIL %s: %s\n", sim_failure_kind_name(o.kind),
		       o.message);
		sim_exec_dump(stdout);
		if (shrink)
			shrink_last(p, &o, steps_max);
		return EXIT_FOUND;
	}
	printf("result: ok\n");
	return EXIT_CLEAN;
}

static int cmd_run(int argc, char **argv)
{
	struct cli cli = { .strategy = "dfs", .preemptions = -1 };
	const struct sim_program *p;
	int rc = parse_options(argc, argv, &cli, CMD_RUN);

	if (rc)
		return rc;
	if (!cli.program_name)
		return usage_error("run needs a FILE.litmus or a PROGRAM%s",
				   "");
	if (cli.names_count > 1)
		return usage_error("run takes one FILE or PROGRAM, found "
				   "'%s' too", cli.names[1]);
	if (!cli.schedule)
		return usage_error("run needs --schedule S%s", "");
	if (cli.html || cli.emit_kunit)
		wpsim_ftrace_exec();	/* returns only where it runs */
	scenario_opts(&cli);
	if (is_scenario(cli.program_name)) {
		struct wpsim_scenario *sc =
			wpsim_scenario_load(cli.program_name, stderr);

		free(cli.names);
		if (!sc)
			return EXIT_USAGE;
		if (cli.shrink) {
			wpsim_scenario_free(sc);
			return usage_error("run --shrink shrinks a built-in "
					   "PROGRAM's failure; for a scenario "
					   "use check --shrink, found '%s'",
					   cli.program_name);
		}
		rc = wpsim_run_scenario(sc, &cli.scenario);
		wpsim_scenario_free(sc);
		return rc;
	}
	free(cli.names);
	if (cli.perfetto || cli.html || cli.emit_kunit ||
	    cli.scenario.variants_count)
		return usage_error("--perfetto, --html, --emit-kunit and "
				   "--variant need a scenario FILE.litmus, "
				   "found '%s'",
				   cli.program_name);
	p = find_program(cli.program_name);
	if (!p)
		return EXIT_USAGE;
	return run_schedule(p, cli.schedule, cli.steps_max, cli.explain,
			    cli.shrink);
}

#ifndef WPSIM_SOURCE_DIR
#define WPSIM_SOURCE_DIR "."
#endif

/* Every scenario under ./scenarios, else under the source tree's. */
static int list_scenarios(void)
{
	const char *dir = is_dir("scenarios") ? "scenarios" :
			  WPSIM_SOURCE_DIR "/scenarios";
	char **files = calloc(ARGS_MAX, sizeof(*files));
	size_t n = 0;
	int rc;

	if (!files)
		abort();
	rc = expand_dir(dir, &files, &n);
	for (size_t i = 0; i < n; i++) {
		struct litmus_scenario *scn =
			litmus_parse_file(files[i], NULL, NULL);

		printf("%-48s %s\n", files[i], scn ? scn->description :
		       "(does not parse)");
		litmus_free(scn);
		free(files[i]);
	}
	free(files);
	return rc;
}

/* Every device profile under ./profiles/devices, else the source's. */
static int list_devices(void)
{
	const char *dir = is_dir("profiles/devices") ? "profiles/devices" :
			  WPSIM_SOURCE_DIR "/profiles/devices";

	return wpsim_device_profile_list(dir, stdout) < 0 ? EXIT_USAGE : EXIT_CLEAN;
}

static int cmd_list(int argc, char **argv)
{
	static const char *const what[] = {
		"programs", "ops", "variants", "invariants", "paths",
		"kinds", "scenarios", "devices",
	};
	const char *w = argc > 0 ? argv[0] : NULL;

	if (argc > 1)
		return usage_error("list takes one argument, found '%s' too",
				   argv[1]);
	if (w) {
		bool known = false;

		for (size_t i = 0; i < sizeof(what) / sizeof(what[0]); i++)
			known = known || strcmp(w, what[i]) == 0;
		if (!known) {
			fprintf(stderr, "wpsim: list: expected programs, ops, "
				"variants, invariants, paths, kinds, "
				"scenarios or devices, found '%s'\n", w);
			return EXIT_USAGE;
		}
	}
	if (!w || strcmp(w, "programs") == 0) {
		if (!w)
			printf("== built-in programs\n");
		for (int i = 0; wpsim_programs[i]; i++)
			printf("%-24s %s\n", wpsim_programs[i]->name,
			       wpsim_programs[i]->description);
	}
	if (!w)
		printf("\n== ops (wpsim list ops)\n");
	if (!w || strcmp(w, "ops") == 0)
		wpsim_list_ops(stdout);
	if (!w)
		printf("\n== initial state (wpsim list kinds)\n");
	if (!w || strcmp(w, "kinds") == 0)
		wpsim_list_kinds(stdout);
	if (!w)
		printf("\n== variants (wpsim list variants)\n");
	if (!w || strcmp(w, "variants") == 0)
		wpsim_list_variants(stdout);
	if (!w)
		printf("\n== paths (wpsim list paths)\n");
	if (!w || strcmp(w, "paths") == 0)
		wpsim_list_paths(stdout);
	if (!w)
		printf("\n== invariants (wpsim list invariants)\n");
	if (!w || strcmp(w, "invariants") == 0)
		wpsim_list_invariants(stdout);
	if (!w)
		printf("\n== device profiles (wpsim list devices)\n");
	if (!w || strcmp(w, "devices") == 0) {
		int rc = list_devices();

		if (w || rc)
			return rc;
	}
	if (!w)
		printf("\n== scenarios (wpsim list scenarios)\n");
	if (!w || strcmp(w, "scenarios") == 0)
		return list_scenarios();
	return EXIT_CLEAN;
}

/* WPSIM_CHECKS_TAGGED=count's line at exit (tests/fio/test-checks-tagged.sh). */
static void checks_tagged_count(void)
{
	const char *names[SIM_CHECKS_MAX];
	uint64_t passed[SIM_CHECKS_MAX], rounds;
	uint32_t n = sim_exec_checks_tagged_stats(&rounds, names, passed,
						  SIM_CHECKS_MAX);

	fprintf(stderr, "wpsim: checks by tag: %llu rounds; passed over:",
		(unsigned long long)rounds);
	for (uint32_t i = 0; i < n; i++)
		fprintf(stderr, "%s %s %llu", i ? "," : "", names[i],
			(unsigned long long)passed[i]);
	fputc('\n', stderr);
}

int main(int argc, char **argv)
{
	/* Every schedule this process prints names the model it is from. */
	sim_schedule_set_origin(WPSIM_MODEL_HASH);
#ifdef WPSIM_FTRACE_BINARY
	wpsim_ftrace_instrumented = true;
#else
	wpsim_ftrace_argv = argv;
	wpsim_ftrace_libexec = WPSIM_LIBEXEC_DIR;
#endif
	/* A test's switch (tests/fio, tests/scenarios): timed executions
	 * check the order rule, a no-op there (sim_exec_order_check). */
	if (getenv("WPSIM_ORDER_CHECK") &&
	    strcmp(getenv("WPSIM_ORDER_CHECK"), "1") == 0)
		sim_exec_order_check(true);
	/* A test's switch (tests/fio/test-checks-tagged.sh): long runs
	 * log every store and run every check (sim_exec_checks_tagged). */
	if (getenv("WPSIM_CHECKS_TAGGED") &&
	    strcmp(getenv("WPSIM_CHECKS_TAGGED"), "0") == 0)
		sim_exec_checks_tagged(false);
	/* =count: the promises taken, and at exit how many rounds took
	 * them and how often each check was passed over (the test that a
	 * broken model is caught with them). */
	if (getenv("WPSIM_CHECKS_TAGGED") &&
	    strcmp(getenv("WPSIM_CHECKS_TAGGED"), "count") == 0)
		atexit(checks_tagged_count);
	/* Tests' switches (tests/cli/test-setup-snapshot.sh): searches
	 * without the snapshot after setup, every restore verified against
	 * a real setup, one registered static left out of it. */
	if (getenv("WPSIM_SETUP_SNAPSHOT")) {
		const char *v = getenv("WPSIM_SETUP_SNAPSHOT");

		sim_setup_snapshot_enable(strcmp(v, "0") != 0);
		sim_setup_snapshot_verify(strcmp(v, "verify") == 0);
	}
	if (getenv("WPSIM_SETUP_SNAPSHOT_LEAVE_OUT"))
		sim_setup_snapshot_leave_out(
			getenv("WPSIM_SETUP_SNAPSHOT_LEAVE_OUT"));
	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (strcmp(argv[1], "demo") == 0)
		return wpsim_demo_main();
	if (strcmp(argv[1], "check") == 0)
		return cmd_check(argc - 2, argv + 2);
	if (strcmp(argv[1], "run") == 0)
		return cmd_run(argc - 2, argv + 2);
	if (strcmp(argv[1], "list") == 0)
		return cmd_list(argc - 2, argv + 2);
	if (strcmp(argv[1], "ext4-nowait") == 0)
		return wpsim_ext4_nowait_main(argc - 2, argv + 2);
	if (strcmp(argv[1], "fio") == 0)
		return wpsim_fio_main(argc - 2, argv + 2);
	if (strcmp(argv[1], "replay") == 0)
		return wpsim_replay_main(argc - 2, argv + 2);
	if (strcmp(argv[1], "where") == 0) {
		wpsim_ftrace_exec();
		return wpsim_where_main(argc - 2, argv + 2);
	}
	if (strcmp(argv[1], "--version") == 0) {
		printf("wpsim %s (model %s)\n", WPSIM_VERSION, WPSIM_MODEL_HASH);
		return EXIT_CLEAN;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		usage(stdout);
		return EXIT_CLEAN;
	}
	fprintf(stderr, "wpsim: unknown command '%s'\n", argv[1]);
	usage(stderr);
	return EXIT_USAGE;
}
