// SPDX-License-Identifier: MIT
/*
 * realcode/symbols.c - kernel function names in --explain and failure
 * reports: in an execution that keeps its log (a replay), each event the
 * runtime records is tagged with the first function on the stack that is
 * not the runtime's (xas_store, rwsem_down_read_slowpath, ...), named
 * from the executable's own ELF symbol table (static functions
 * included), and the report's event printer shows it after the event.
 * Not a model of anything; leaves out inlined frames (an inlined
 * xarray.h helper is named by the function it was inlined into).
 */
#include <elf.h>
#include <execinfo.h>
#include <fcntl.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "realcode/rt.h"
#include "sim/engine.h"
#include "sim/explore.h"
#include "sim/lockdep.h"

struct sym {
	uintptr_t addr, size;
	const char *name;
};

static struct sym *syms;
static size_t nsyms;
static bool loaded;
static const char **event_fn;	/* per event index of the kept log */
#define EVENTS_KEPT (2 * SIM_STEPS_LIMIT)

static int by_addr(const void *a, const void *b)
{
	const struct sym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static int first_object(struct dl_phdr_info *info, size_t size, void *data)
{
	(void)size;
	*(uintptr_t *)data = info->dlpi_addr;
	return 1;	/* the executable comes first */
}

static void load(void)
{
	uintptr_t bias = 0;
	struct stat st;
	const Elf64_Ehdr *eh;
	const Elf64_Shdr *sh;
	void *map;
	int fd;

	loaded = true;
	fd = open("/proc/self/exe", O_RDONLY);
	if (fd < 0)
		return;
	if (fstat(fd, &st) < 0 || (map = mmap(NULL, (size_t)st.st_size,
					      PROT_READ, MAP_PRIVATE, fd, 0)) ==
	    MAP_FAILED) {
		close(fd);
		return;
	}
	close(fd);
	dl_iterate_phdr(first_object, &bias);
	eh = map;
	sh = (const Elf64_Shdr *)((const char *)map + eh->e_shoff);
	for (unsigned int i = 0; i < eh->e_shnum; i++) {
		const Elf64_Sym *s;
		const char *str;
		size_t n;

		if (sh[i].sh_type != SHT_SYMTAB)
			continue;
		s = (const Elf64_Sym *)((const char *)map + sh[i].sh_offset);
		str = (const char *)map + sh[sh[i].sh_link].sh_offset;
		n = sh[i].sh_size / sizeof(*s);
		syms = calloc(n, sizeof(*syms));
		if (!syms)
			return;
		for (size_t k = 0; k < n; k++)
			if (ELF64_ST_TYPE(s[k].st_info) == STT_FUNC &&
			    s[k].st_value) {
				syms[nsyms].addr = bias + s[k].st_value;
				syms[nsyms].size = s[k].st_size;
				syms[nsyms++].name = str + s[k].st_name;
			}
	}
	qsort(syms, nsyms, sizeof(*syms), by_addr);
}

static const char *name_of(uintptr_t pc)
{
	size_t lo = 0, hi = nsyms;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (syms[mid].addr <= pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || pc >= syms[lo - 1].addr + syms[lo - 1].size + 1)
		return NULL;
	return syms[lo - 1].name;
}

/* The runtime's own functions and the shims' helpers. */
static bool runtime(const char *n)
{
	static const char *const own[] = {
		"point", "plain", "record", "bit_point", "atomic_bit",
		"plain_bit", "spin_taken", "spin_dropped", "reader_enter",
		"reader_exit", "run_cb", "sl", "object_of", "register_word",
		"ext_object", "rc_note_fn", NULL,
	};

	if (!strncmp(n, "rc_", 3) || !strncmp(n, "__tsan", 6) ||
	    !strncmp(n, "sim_", 4) || !strncmp(n, "atomic_", 7))
		return true;
	for (int i = 0; own[i]; i++)
		if (!strcmp(n, own[i]))
			return true;
	return false;
}

/* Called by rt.c after it recorded an event, when the log is kept. */
void rc_note_fn(void)
{
	const struct sim_event *ev;
	uint32_t n = sim_exec_events(&ev);
	void *frames[16];
	int depth;

	if (!sim_lockdep_capturing() || !n || n > EVENTS_KEPT)
		return;
	if (!loaded)
		load();
	if (!event_fn && !(event_fn = calloc(EVENTS_KEPT, sizeof(*event_fn))))
		return;
	event_fn[n - 1] = NULL;
	depth = backtrace(frames, 16);
	for (int i = 1; i < depth; i++) {
		const char *name = name_of((uintptr_t)frames[i] - 1);

		if (name && !runtime(name)) {
			event_fn[n - 1] = name;
			return;
		}
	}
}

static void print_event(FILE *out, const struct sim_event *e)
{
	const struct sim_event *base;
	uint32_t n = sim_exec_events(&base), i = (uint32_t)(e - base);
	bool value = e->access != SIM_ACCESS_NONE &&
		     e->access != SIM_ACCESS_EXIT &&
		     e->access != SIM_ACCESS_BLOCK;

	fprintf(out, "  %5u  %-10s %-9s %s", e->step,
		sim_exec_task_name(e->task), sim_access_name(e->access),
		sim_exec_object_name(e->object));
	if (e->access == SIM_ACCESS_SPAWN || e->access == SIM_ACCESS_WAKE)
		fprintf(out, " -> %s", sim_exec_task_name((uint32_t)e->value));
	else if (value && (e->value >> 32) == (RC_HEAP_TAG >> 32))
		fprintf(out, " = heap+%#llx",
			(unsigned long long)(e->value & 0xffffffffULL));
	else if (value)
		fprintf(out, " = %lld", (long long)e->value);
	if (event_fn && i < n && i < EVENTS_KEPT && event_fn[i])
		fprintf(out, "  (%s)", event_fn[i]);
	fputc('\n', out);
}

void rc_symbols_install(void)
{
	sim_report_set_event_printer(print_event);
}

/* The kept log with function names (run --explain). */
void rc_print_log(FILE *out)
{
	const struct sim_event *ev;
	uint32_t n = sim_exec_events(&ev);

	for (uint32_t i = 0; i < n; i++)
		print_event(out, &ev[i]);
}
