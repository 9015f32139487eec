/* SPDX-License-Identifier: MIT */
/*
 * The model's execution context: in_task() of include/linux/preempt.h
 * (v6.18), and the hardirq entry and exit that make it false
 * (irq_enter / irq_exit, kernel/softirq.c).  model/kernel/softirq.c.
 */
#ifndef WPSIM_MODEL_LINUX_PREEMPT_H
#define WPSIM_MODEL_LINUX_PREEMPT_H

#include <stdbool.h>

/* The running task or event enters / leaves hardirq context. */
void km_irq_enter(void);
void km_irq_exit(void);
/* in_task(): not in hardirq (or softirq, NMI) context. */
bool km_in_task(void);

#endif
