// SPDX-License-Identifier: MIT
/*
 * sim/ctx.c - stacks and the context switch.
 *
 * Models: nothing of the kernel; this is the engine's cooperative task
 * switch.  The assembly switches (ctx-x86_64.S, ctx-aarch64.S) save only
 * callee-saved registers, which is what makes a switch ~30x cheaper than
 * swapcontext(3), which also saves the signal mask with a system call.
 *
 * Leaves out: floating-point control state (never changed by the engine),
 * signal masks (tasks never differ in them), shadow stacks (CET).
 */
#include "sim/ctx.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#define WPSIM_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#include <sanitizer/asan_interface.h>
#define WPSIM_ASAN 1
#endif
#endif

/*
 * A context made on @stack starts a task from nothing: every frame an
 * earlier task left on it is dead.  Under AddressSanitizer their
 * redzones stay poisoned (a task never returns from its entry, and one
 * an execution abandons never unwinds), and ASan poisons only a new
 * frame's redzones, not its variables: a later frame over an old
 * redzone was reported as a stack-buffer-underflow that is not one
 * (mm/fsync-vs-punch-hole under exhaustive DPOR).  So the whole stack is
 * unpoisoned here (256 KiB of stack: 32 KiB of shadow per task start).
 */
static void stack_fresh(struct sim_stack *stack)
{
#ifdef WPSIM_ASAN
	ASAN_UNPOISON_MEMORY_REGION(stack->base, stack->size_bytes);
#else
	(void)stack;
#endif
}

static size_t page_bytes(void)
{
	long page = sysconf(_SC_PAGESIZE);

	return page > 0 ? (size_t)page : 4096;
}

int sim_stack_map(struct sim_stack *stack, size_t size_bytes)
{
	size_t page = page_bytes();
	size_t usable = (size_bytes + page - 1) & ~(page - 1);
	void *map;

	map = mmap(NULL, usable + page, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (map == MAP_FAILED)
		return -errno;
	/* The guard page sits below the stack: stacks grow down. */
	if (mprotect(map, page, PROT_NONE) != 0) {
		int err = -errno;

		munmap(map, usable + page);
		return err;
	}
	stack->map = map;
	stack->map_bytes = usable + page;
	stack->base = (char *)map + page;
	stack->size_bytes = usable;
	return 0;
}

void sim_stack_unmap(struct sim_stack *stack)
{
	if (stack->map)
		munmap(stack->map, stack->map_bytes);
	memset(stack, 0, sizeof(*stack));
}

#if defined(WPSIM_CTX_UCONTEXT)

const char *sim_ctx_kind(void)
{
	return "ucontext";
}

void sim_ctx_make(struct sim_ctx *ctx, struct sim_stack *stack,
		  void (*entry)(void))
{
	stack_fresh(stack);
	getcontext(&ctx->uc);
	ctx->uc.uc_stack.ss_sp = stack->base;
	ctx->uc.uc_stack.ss_size = stack->size_bytes;
	ctx->uc.uc_link = NULL;
	makecontext(&ctx->uc, entry, 0);
}

void sim_ctx_switch(struct sim_ctx *from, struct sim_ctx *to)
{
	swapcontext(&from->uc, &to->uc);
}

#elif defined(__x86_64__)

const char *sim_ctx_kind(void)
{
	return "x86_64-asm";
}

/*
 * Initial frame, from the top of the stack down: a zero return address
 * for @entry (it never returns), @entry itself (popped by the switch's
 * ret), then six zeroed callee-saved registers.  After the ret, rsp is
 * 8 mod 16, as at any function entry.
 */
void sim_ctx_make(struct sim_ctx *ctx, struct sim_stack *stack,
		  void (*entry)(void))
{
	uintptr_t top = ((uintptr_t)stack->base + stack->size_bytes) & ~15UL;
	uint64_t *sp = (uint64_t *)top;

	stack_fresh(stack);
	*--sp = 0;
	*--sp = (uint64_t)(uintptr_t)entry;
	for (int i = 0; i < 6; i++)
		*--sp = 0;
	ctx->sp = sp;
}

#elif defined(__aarch64__)

const char *sim_ctx_kind(void)
{
	return "aarch64-asm";
}

/* Initial 176-byte frame: all zero but x30 (slot 11) = @entry. */
void sim_ctx_make(struct sim_ctx *ctx, struct sim_stack *stack,
		  void (*entry)(void))
{
	uintptr_t top = ((uintptr_t)stack->base + stack->size_bytes) & ~15UL;
	uint64_t *sp = (uint64_t *)(top - 176);

	stack_fresh(stack);
	memset(sp, 0, 176);
	sp[11] = (uint64_t)(uintptr_t)entry;
	ctx->sp = sp;
}

#else
#error "no assembly context switch for this machine: configure -Dcontext=ucontext"
#endif
