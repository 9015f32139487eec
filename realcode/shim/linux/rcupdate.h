/* SPDX-License-Identifier: MIT */
/*
 * realcode shim: RCU (wpsim's own text).  Read-side sections are counted
 * per task; rcu_dereference* and rcu_assign_pointer are marked accesses
 * (a point each), rcu_dereference_protected a plain one; call_rcu runs
 * its callback once every reader that was inside at the call has left
 * (a sound grace period: realcode/rt.c).  With rc_prove_rcu on, the
 * conditions of rcu_dereference_check/_protected are checked, as
 * CONFIG_PROVE_RCU does.
 */
#ifndef RC_RCUPDATE_H
#define RC_RCUPDATE_H
#include "rc-kernel.h"
#include "linux/lockdep.h"
#define rcu_read_lock() rc_rcu_read_lock()
#define rcu_read_unlock() rc_rcu_read_unlock()
#define rcu_read_lock_held() rc_rcu_read_lock_held()
#define rcu_dereference_check(p, c)					\
	({ rc_rcu_check(!!(c), true, "rcu_dereference_check(" #p ")");	\
	   READ_ONCE(p); })
#define rcu_dereference(p) rcu_dereference_check(p, 0)
#define rcu_dereference_raw(p) READ_ONCE(p)
#define rcu_dereference_protected(p, c)					\
	({ rc_rcu_check(!!(c), false, "rcu_dereference_protected(" #p ")"); \
	   (p); })
#define rcu_access_pointer(p) READ_ONCE(p)
#define rcu_assign_pointer(p, v) WRITE_ONCE(p, v)
#define RCU_INIT_POINTER(p, v) WRITE_ONCE(p, v)
#define rcu_pointer_handoff(p) (p)
typedef void (*rcu_callback_t)(struct rcu_head *head);
#define call_rcu(head, fn) rc_call_rcu((head), (void (*)(void *))(fn))
#define synchronize_rcu() rc_synchronize_rcu()
#endif
