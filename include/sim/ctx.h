/* SPDX-License-Identifier: MIT */
/*
 * sim_ctx: the engine's context switch.
 *
 * A context is a saved stack pointer; everything else a switch must keep
 * (the callee-saved registers and the return address) lives on the stack
 * it points into.  Hand-written switches exist for x86-64 and aarch64; any
 * other machine, or a build with -Dcontext=ucontext, uses the portable
 * ucontext(3) fallback.  Stacks are mmap()ed once, with a PROT_NONE guard
 * page below, and reused for every execution.
 */
#ifndef WPSIM_SIM_CTX_H
#define WPSIM_SIM_CTX_H

#include <stddef.h>

#if defined(WPSIM_CTX_UCONTEXT)
#include <ucontext.h>
struct sim_ctx {
	ucontext_t uc;
};
#else
struct sim_ctx {
	void *sp;
};
#endif

struct sim_stack {
	void *base;		/* lowest usable byte, just above the guard */
	size_t size_bytes;	/* usable size */
	void *map;		/* the whole mapping, guard included */
	size_t map_bytes;
};

/* Name of the switch in use: "x86_64-asm", "aarch64-asm" or "ucontext". */
const char *sim_ctx_kind(void);

/* Map a stack of at least @size_bytes with a guard page; 0 or -errno. */
int sim_stack_map(struct sim_stack *stack, size_t size_bytes);
void sim_stack_unmap(struct sim_stack *stack);

/*
 * Prepare @ctx so that the first switch to it calls @entry on @stack.
 * @entry must never return: it ends by switching away for good.
 */
void sim_ctx_make(struct sim_ctx *ctx, struct sim_stack *stack,
		  void (*entry)(void));

/* Save the running context into @from and resume @to. */
void sim_ctx_switch(struct sim_ctx *from, struct sim_ctx *to);

#endif /* WPSIM_SIM_CTX_H */
