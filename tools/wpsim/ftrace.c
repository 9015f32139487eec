// SPDX-License-Identifier: MIT
/*
 * tools/wpsim/ftrace.c - which kernel functions of the model each task
 * is in, at every step: the model's function graph, recorded only when
 * asked for (run --html, --emit-kunit, `wpsim where`, claims).
 *
 * The model library is compiled with -finstrument-functions (meson.build),
 * so every function of model/ calls __cyg_profile_func_enter/exit here on
 * entry and exit, inlined ones included (GCC instruments before it
 * inlines).  Off (the default), each hook is one load and a return.  On,
 * a call or return of a km_ function (named from the executable's symbol
 * table, else its dynamic symbols) is appended to a log with the running
 * task and the number of events in the execution's event log at that
 * moment: the call or return happened in that task's step that recorded
 * the last of those events (after its access), and before its next step.
 * Nothing here is a scheduling point or touches the model's state, so the
 * executions and their event logs are the same with the log on or off.
 *
 * Left out: functions that are not km_ (model glue, static helpers named
 * otherwise), and names in a stripped executable without dynamic symbols
 * (then wpsim_ftrace_names_available() is false and the log stays empty).
 * A task that fails inside a function leaves its calls open.
 */
#include "tools/wpsim/ftrace.h"

#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sim/engine.h"

/* A km_ function every model has: the dynamic-symbol probe. */
struct km_folio;
bool km_folio_mark_dirty(struct km_folio *folio);

#define NOTRACE __attribute__((no_instrument_function))

bool wpsim_ftrace_on;

static struct wpsim_fn_record *records;
static size_t records_count, records_size;

/* ---- function names ------------------------------------------------------- */

/* Address -> name (NULL: not a km_ function), open addressing. */
#define NAMES_SLOTS	8192

struct name_slot {
	const void *fn;
	const char *name;	/* NULL: looked up, not km_ */
};

static struct name_slot names[NAMES_SLOTS];

/* The executable's symbol table: every function, static ones too. */
struct sym {
	uintptr_t addr;
	const char *name;
};

static struct sym *syms;
static size_t syms_count;
static bool syms_loaded;

NOTRACE static int sym_cmp(const void *a, const void *b)
{
	const struct sym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* Read .symtab of /proc/self/exe; the load bias from a known symbol. */
NOTRACE static void syms_load(void)
{
	const Elf64_Ehdr *eh;
	const Elf64_Shdr *sh;
	struct stat st;
	void *map;
	int fd;
	uintptr_t bias = 0;
	bool have_bias = false;

	syms_loaded = true;
	fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	if (fstat(fd, &st) != 0 || (size_t)st.st_size < sizeof(*eh)) {
		close(fd);
		return;
	}
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return;
	eh = map;
	if (memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh->e_shoff + (size_t)eh->e_shnum * sizeof(*sh) >
	    (size_t)st.st_size)
		return;
	sh = (const Elf64_Shdr *)((const char *)map + eh->e_shoff);
	for (unsigned int i = 0; i < eh->e_shnum; i++) {
		const Elf64_Sym *s;
		const char *str;
		size_t n;

		if (sh[i].sh_type != SHT_SYMTAB || sh[i].sh_link >= eh->e_shnum)
			continue;
		s = (const Elf64_Sym *)((const char *)map + sh[i].sh_offset);
		str = (const char *)map + sh[sh[i].sh_link].sh_offset;
		n = sh[i].sh_size / sizeof(*s);
		syms = calloc(n, sizeof(*syms));
		if (!syms)
			abort();
		for (size_t k = 0; k < n; k++) {
			const char *name = str + s[k].st_name;

			if (ELF64_ST_TYPE(s[k].st_info) != STT_FUNC ||
			    !s[k].st_value)
				continue;
			if (strcmp(name, "wpsim_ftrace_reset") == 0) {
				bias = (uintptr_t)&wpsim_ftrace_reset -
				       s[k].st_value;
				have_bias = true;
			}
			if (strncmp(name, "km_", 3) != 0)
				continue;
			syms[syms_count].addr = s[k].st_value;
			syms[syms_count++].name = name;
		}
		break;
	}
	if (!have_bias) {
		syms_count = 0;
		return;
	}
	for (size_t k = 0; k < syms_count; k++)
		syms[k].addr += bias;
	qsort(syms, syms_count, sizeof(*syms), sym_cmp);
	/* The map stays: the names point into it. */
}

NOTRACE static const char *lookup(const void *fn)
{
	size_t lo = 0, hi = syms_count;
	Dl_info info;

	if (!syms_loaded)
		syms_load();
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (syms[mid].addr == (uintptr_t)fn)
			return syms[mid].name;
		if (syms[mid].addr < (uintptr_t)fn)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!syms_count && dladdr(fn, &info) && info.dli_saddr == fn &&
	    info.dli_sname && strncmp(info.dli_sname, "km_", 3) == 0)
		return info.dli_sname;
	return NULL;
}

NOTRACE const char *wpsim_ftrace_name(const void *fn)
{
	size_t h = ((uintptr_t)fn >> 4) * 0x9e3779b97f4a7c15ull >> 51;

	for (size_t i = 0; i < NAMES_SLOTS; i++) {
		struct name_slot *s = &names[(h + i) % NAMES_SLOTS];

		if (s->fn == fn)
			return s->name;
		if (!s->fn) {
			s->fn = fn;
			s->name = lookup(fn);
			return s->name;
		}
	}
	return lookup(fn);
}

NOTRACE bool wpsim_ftrace_names_available(void)
{
	if (!wpsim_ftrace_instrumented)
		return false;
	if (!syms_loaded)
		syms_load();
	return syms_count > 0 ||
	       wpsim_ftrace_name((const void *)&km_folio_mark_dirty) != NULL;
}

NOTRACE bool wpsim_ftrace_has_function(const char *km_name)
{
	if (!syms_loaded)
		syms_load();
	for (size_t i = 0; i < syms_count; i++)
		if (strcmp(syms[i].name, km_name) == 0)
			return true;
	return !syms_count && dlsym(RTLD_DEFAULT, km_name) != NULL;
}

/* ---- the instrumented binary ---------------------------------------------- */

bool wpsim_ftrace_instrumented;
char **wpsim_ftrace_argv;
const char *wpsim_ftrace_libexec;

NOTRACE void wpsim_ftrace_exec(void)
{
	char self[4096], path[4200];
	ssize_t n;

	if (wpsim_ftrace_instrumented || !wpsim_ftrace_argv)
		return;
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n > 0) {
		char *slash;

		self[n] = '\0';
		slash = strrchr(self, '/');
		if (slash) {
			*slash = '\0';
			snprintf(path, sizeof(path), "%s/wpsim-ftrace", self);
			fflush(NULL);
			execv(path, wpsim_ftrace_argv);
			/* An install moved as a whole (DESTDIR, a prefix
			 * other than the configured one): BIN/../libexec. */
			snprintf(path, sizeof(path),
				 "%s/../libexec/wpsim/wpsim-ftrace", self);
			execv(path, wpsim_ftrace_argv);
		}
	}
	if (wpsim_ftrace_libexec) {
		snprintf(path, sizeof(path), "%s/wpsim-ftrace",
			 wpsim_ftrace_libexec);
		fflush(NULL);
		execv(path, wpsim_ftrace_argv);
	}
	fprintf(stderr, "wpsim: wpsim-ftrace (the model with function "
		"records) is not installed beside wpsim nor in %s: kernel "
		"functions are not named\n", wpsim_ftrace_libexec ?
		wpsim_ftrace_libexec : "libexec");
	wpsim_ftrace_argv = NULL;
}

/* ---- the log -------------------------------------------------------------- */

NOTRACE void wpsim_ftrace_reset(void)
{
	records_count = 0;
}

NOTRACE size_t wpsim_ftrace_records(const struct wpsim_fn_record **out)
{
	*out = records;
	return records_count;
}

NOTRACE static void note(void *fn, bool ret)
{
	const struct sim_event *ev;
	int task = sim_task_current();
	const char *name;

	if (task < 0)
		return;
	name = wpsim_ftrace_name(fn);
	if (!name)
		return;
	if (records_count == records_size) {
		records_size = records_size ? 2 * records_size : 4096;
		records = realloc(records, records_size * sizeof(*records));
		if (!records)
			abort();
	}
	records[records_count++] = (struct wpsim_fn_record){
		.events = sim_exec_events(&ev),
		.task = (uint16_t)task,
		.ret = ret,
		.name = name,
	};
}

NOTRACE void __cyg_profile_func_enter(void *fn, void *site)
{
	(void)site;
	if (__builtin_expect(wpsim_ftrace_on, 0))
		note(fn, false);
}

NOTRACE void __cyg_profile_func_exit(void *fn, void *site)
{
	(void)site;
	if (__builtin_expect(wpsim_ftrace_on, 0))
		note(fn, true);
}
