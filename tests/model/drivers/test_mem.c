// SPDX-License-Identifier: MIT
/*
 * tests/model/drivers/test_mem.c - /dev/null and /dev/zero
 * (model/drivers/char/mem.c; Kernel: drivers/char/mem.c
 * write_iter_null, read_iter_null, read_iter_zero, v6.18; fs/open.c
 * do_dentry_open's O_DIRECT check), through the syscall table as fio
 * reaches them (examples/steadystate.fio).
 *
 * One task: a 128 KiB pwrite64 to /dev/null takes every byte; a read of
 * /dev/null is 0 (end of file); a 64 KiB pread64 of /dev/zero fills the
 * buffer with zeroes (the model's id 0 in every sector, over ids that
 * were not 0) and costs the clearing's CPU time; pwritev2 to /dev/zero
 * takes every byte; an O_DIRECT open is -EINVAL; an unknown minor
 * -ENXIO; an ioctl is -ENOTTY (no unlocked_ioctl).
 */
#include <criterion/criterion.h>
#include <string.h>

#include "model/drivers/mem.h"
#include "model/linux/syscalls.h"
#include "model/world.h"
#include "sim/clock.h"
#include "sim/engine.h"
#include "sim/strategy.h"

static long r_wnull, r_rnull, r_rzero, r_wzero, r_odirect, r_minor, r_ioctl;
static uint64_t zero_ns;
static uint32_t ids[128];

static void task(void *arg)
{
	struct km_file *null, *zero, *unused;
	uint64_t t0;

	(void)arg;
	cr_assert_eq(m_chrdev_mem_open(KM_MEM_MINOR_NULL, 0, &null), 0);
	cr_assert_eq(m_chrdev_mem_open(KM_MEM_MINOR_ZERO, 0, &zero), 0);
	r_odirect = m_chrdev_mem_open(KM_MEM_MINOR_ZERO, KM_O_DIRECT, &unused);
	r_minor = m_chrdev_mem_open(1 /* /dev/mem */, 0, &unused);
	r_wnull = m_syscall(M_SYS_PWRITE64, &(struct m_sys_args){
		.file = null, .pos = 0, .len = 131072, .data_id = 3 });
	r_rnull = m_syscall(M_SYS_PREAD64, &(struct m_sys_args){
		.file = null, .pos = 0, .len = 4096, .out = ids });
	for (unsigned int i = 0; i < 128; i++)
		ids[i] = 77;
	t0 = sim_now();
	r_rzero = m_syscall(M_SYS_PREAD64, &(struct m_sys_args){
		.file = zero, .pos = 4096, .len = 65536, .out = ids });
	zero_ns = sim_now() - t0;
	r_wzero = m_syscall(M_SYS_PWRITEV2, &(struct m_sys_args){
		.file = zero, .pos = 0, .len = 8192, .data_id = 4 });
	r_ioctl = m_syscall(M_SYS_IOCTL, &(struct m_sys_args){
		.file = null, .flags = KM_BLKDISCARD, .pos = 0, .len = 4096 });
}

static void setup(void *unused)
{
	struct m_world_config c;

	(void)unused;
	m_world_config_default(&c);
	m_world_setup(&c);
	sim_task_spawn("t", task, NULL);
}

Test(mem, null_and_zero_through_the_syscall_table)
{
	static const struct sim_program prog = { .name = "mem",
						 .setup = setup };
	struct sim_exec_options exec = { 0 };
	struct sim_strategy s;
	struct sim_outcome o;

	sim_clock_configure(&(struct sim_clock_config){
		.cpus = 1, .costs = sim_cpu_costs_default });
	sim_strategy_timed(&s, 1, 1);
	sim_exec_run(&prog, &s, &exec, &o);
	sim_strategy_fini(&s);
	cr_assert_eq(o.kind, SIM_OK, "%s", o.message);
	cr_assert_eq(r_wnull, 131072);
	cr_assert_eq(r_rnull, 0);
	cr_assert_eq(r_rzero, 65536);
	for (unsigned int i = 0; i < 128; i++)
		cr_assert_eq(ids[i], 0, "sector %u: %u", i, ids[i]);
	cr_assert_gt(zero_ns, 0, "clearing 64 KiB costs CPU time");
	cr_assert_eq(r_wzero, 8192);
	cr_assert_eq(r_odirect, -KM_EINVAL);
	cr_assert_eq(r_minor, -KM_ENXIO);
	cr_assert_eq(r_ioctl, -KM_ENOTTY);
}
