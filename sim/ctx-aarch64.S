/* SPDX-License-Identifier: MIT */
/*
 * sim_ctx_switch for AArch64 (AAPCS64).
 *
 * void sim_ctx_switch(struct sim_ctx *from, struct sim_ctx *to)
 *   x0 = from, x1 = to.  Saves x19-x30 and d8-d15 (the callee-saved set)
 *   in a 176-byte frame, stores sp in from->sp, loads to->sp, restores the
 *   other side's frame and returns through its x30.
 */
	.text
	.globl	sim_ctx_switch
	.type	sim_ctx_switch, %function
	.p2align 4
sim_ctx_switch:
	sub	sp, sp, #176
	stp	x19, x20, [sp, #0]
	stp	x21, x22, [sp, #16]
	stp	x23, x24, [sp, #32]
	stp	x25, x26, [sp, #48]
	stp	x27, x28, [sp, #64]
	stp	x29, x30, [sp, #80]
	stp	d8, d9, [sp, #96]
	stp	d10, d11, [sp, #112]
	stp	d12, d13, [sp, #128]
	stp	d14, d15, [sp, #144]
	mov	x2, sp
	str	x2, [x0]
	ldr	x2, [x1]
	mov	sp, x2
	ldp	x19, x20, [sp, #0]
	ldp	x21, x22, [sp, #16]
	ldp	x23, x24, [sp, #32]
	ldp	x25, x26, [sp, #48]
	ldp	x27, x28, [sp, #64]
	ldp	x29, x30, [sp, #80]
	ldp	d8, d9, [sp, #96]
	ldp	d10, d11, [sp, #112]
	ldp	d12, d13, [sp, #128]
	ldp	d14, d15, [sp, #144]
	add	sp, sp, #176
	ret
	.size	sim_ctx_switch, .-sim_ctx_switch

	.section .note.GNU-stack,"",%progbits
