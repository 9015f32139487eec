/* SPDX-License-Identifier: MIT */
/*
 * sim_ctx_switch for x86-64 System V.
 *
 * void sim_ctx_switch(struct sim_ctx *from, struct sim_ctx *to)
 *   rdi = from, rsi = to.  Pushes the six callee-saved integer registers,
 *   stores rsp in from->sp, loads to->sp, pops the six registers of the
 *   other side and returns into it.  MXCSR and the x87 control word are not
 *   saved: the engine never changes them, and all contexts share a thread.
 */
	.text
	.globl	sim_ctx_switch
	.type	sim_ctx_switch, @function
	.p2align 4
sim_ctx_switch:
	.cfi_startproc
	pushq	%rbp
	pushq	%rbx
	pushq	%r12
	pushq	%r13
	pushq	%r14
	pushq	%r15
	movq	%rsp, (%rdi)
	movq	(%rsi), %rsp
	popq	%r15
	popq	%r14
	popq	%r13
	popq	%r12
	popq	%rbx
	popq	%rbp
	ret
	.cfi_endproc
	.size	sim_ctx_switch, .-sim_ctx_switch

	.section .note.GNU-stack,"",@progbits
