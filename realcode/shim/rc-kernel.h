/* SPDX-License-Identifier: MIT */
/*
 * rc-kernel.h - the kernel's base vocabulary for real kernel files
 * compiled in user space under wpsim (realcode/).  Written for wpsim from
 * the kernel's documented meaning, not copied: types, compiler
 * attributes, READ_ONCE/WRITE_ONCE, BUG/WARN, errors, limits, GFP flags
 * and bitops.  Every shared access goes through realcode/rt.h, one
 * scheduling point each; plain C accesses of the real code are seen by
 * GCC's -fsanitize=thread instrumentation (realcode/rt.c).
 * Memory model: sequentially consistent; barriers are compiler barriers.
 */
#ifndef RC_KERNEL_H
#define RC_KERNEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "realcode/rt.h"

/* ---- config (include/generated/autoconf.h's role) ---- */
#define CONFIG_64BIT 1
#define CONFIG_XARRAY_MULTI 1
#define CONFIG_SMP 1
#ifndef RC_BASE_SMALL
#define RC_BASE_SMALL 1		/* XA_CHUNK_SHIFT 4: 16-slot nodes */
#endif
#if RC_BASE_SMALL
#define CONFIG_BASE_SMALL 1
#endif

/* IS_ENABLED(CONFIG_X): 1 when CONFIG_X is defined as 1, else 0. */
#define RC_ARG_1 0,
#define RC_SECOND(a, b, ...) b
#define RC_IS_ONE_(junk) RC_SECOND(junk 1, 0, 0)
#define RC_IS_ONE(x) RC_IS_ONE_(RC_ARG_##x)
#define IS_ENABLED(option) RC_IS_ONE(option)
#define IS_BUILTIN(option) IS_ENABLED(option)
#define IS_REACHABLE(option) IS_ENABLED(option)

/* ---- types ---- */
typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;
typedef u8 __u8;
typedef u16 __u16;
typedef u32 __u32;
typedef u64 __u64;
typedef s32 __s32;
typedef s64 __s64;
typedef long long loff_t;
typedef long ssize_t;
typedef unsigned int gfp_t;
typedef unsigned long pgoff_t;
typedef struct { int counter; } atomic_t;
typedef struct { long counter; } atomic_long_t;
typedef atomic_long_t atomic64_t;

struct list_head {
	struct list_head *next, *prev;
};
struct hlist_head {
	struct hlist_node *first;
};
struct hlist_node {
	struct hlist_node *next, **pprev;
};
struct callback_head {
	struct callback_head *next;
	void (*func)(struct callback_head *head);
};
#define rcu_head callback_head

/* ---- compiler ---- */
#define __rcu
#define __bitwise
#define __force
#define __iomem
#define __user
#define __percpu
#define __init
#define __exit
#define __read_mostly
#define __cacheline_aligned
#define ____cacheline_aligned
#define __randomize_layout
#define __no_randstruct
#define __must_check __attribute__((warn_unused_result))
#undef __always_inline
#define __always_inline inline __attribute__((always_inline))
#define noinline __attribute__((noinline))
#define __maybe_unused __attribute__((unused))
#define __always_unused __attribute__((unused))
#define __cold __attribute__((cold))
#define __pure __attribute__((pure))
#define __aligned(x) __attribute__((aligned(x)))
#define __packed __attribute__((packed))
#define __noreturn __attribute__((noreturn))
#define fallthrough __attribute__((fallthrough))
#define __must_hold(x)
#define __acquires(x)
#define __releases(x)
#define __cond_acquires(x)
#define __sched
#define __lockfunc
#define notrace
#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#define barrier() __asm__ __volatile__("" ::: "memory")
#define __same_type(a, b) __builtin_types_compatible_p(typeof(a), typeof(b))
#define BUILD_BUG_ON(c) _Static_assert(!(c), "BUILD_BUG_ON: " #c)
#define BUILD_BUG_ON_ZERO(c) ((int)(sizeof(struct { int:(-!!(c)); })))
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define container_of(ptr, type, member)					\
	((type *)(void *)((char *)(ptr) - offsetof(type, member)))
#define __stringify_1(x) #x
#define __stringify(x) __stringify_1(x)

/* READ_ONCE/WRITE_ONCE and data_race(): marked accesses, a point each. */
#define READ_ONCE(x)							\
	({ __typeof__(x) *rc_p_ = &(x);					\
	   union { __typeof__(x) v; uint64_t u; } rc_u_;		\
	   rc_u_.u = rc_load(rc_p_, sizeof(x), false); rc_u_.v; })
#define WRITE_ONCE(x, val)						\
	do { __typeof__(x) *rc_p_ = &(x);				\
	     union { __typeof__(x) v; uint64_t u; } rc_u_ = { .u = 0 };	\
	     rc_u_.v = (val);						\
	     rc_store(rc_p_, rc_u_.u, sizeof(x), false); } while (0)
#define data_race(expr) (expr)

/* ---- barriers: sequential consistency, so compiler barriers only ---- */
#define smp_mb() barrier()
#define smp_rmb() barrier()
#define smp_wmb() barrier()
#define smp_mb__before_atomic() barrier()
#define smp_mb__after_atomic() barrier()
#define smp_mb__after_spinlock() barrier()
#define smp_acquire__after_ctrl_dep() barrier()
#define smp_load_acquire(p) READ_ONCE(*(p))
#define smp_store_release(p, v) WRITE_ONCE(*(p), v)
#define smp_store_mb(var, value) WRITE_ONCE(var, value)
#define smp_cond_load_acquire(ptr, cond_expr)				\
	({ __typeof__(*(ptr)) VAL;					\
	   for (;;) { VAL = READ_ONCE(*(ptr)); if (cond_expr) break;	\
		      rc_cpu_relax(); }					\
	   VAL; })
#define smp_cond_load_relaxed smp_cond_load_acquire
void rc_cpu_relax(void);
#define cpu_relax() rc_cpu_relax()

/* ---- bugs and warnings ---- */
#define BUG() rc_bug(__FILE__, __LINE__, "BUG()")
#define BUG_ON(c) do { if (unlikely(c)) rc_bug(__FILE__, __LINE__, #c); } while (0)
#define WARN_ON(c)							\
	({ bool rc_w_ = !!(c);						\
	   if (unlikely(rc_w_)) rc_warn(__FILE__, __LINE__, #c);	\
	   unlikely(rc_w_); })
#define WARN_ON_ONCE(c) WARN_ON(c)
#define WARN(c, ...) WARN_ON(c)
#define WARN_ONCE(c, ...) WARN_ON(c)
#define VM_BUG_ON(c) BUG_ON(c)
#define VM_WARN_ON(c) WARN_ON(c)

/* printk: xa_dump and friends; quiet unless a test asks. */
int rc_printk(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
#define pr_info(...) rc_printk(__VA_ARGS__)
#define pr_cont(...) rc_printk(__VA_ARGS__)
#define pr_warn(...) rc_printk(__VA_ARGS__)
#define pr_err(...) rc_printk(__VA_ARGS__)
#define printk(...) rc_printk(__VA_ARGS__)

/* ---- errors ---- */
#define EINTR 4
#define EAGAIN 11
#define ENOMEM 12
#define EBUSY 16
#define EEXIST 17
#define EINVAL 22
#define ENOSPC 28
#define EWOULDBLOCK EAGAIN
#define MAX_ERRNO 4095
#define IS_ERR_VALUE(x) unlikely((unsigned long)(void *)(x) >= (unsigned long)-MAX_ERRNO)
static inline void *ERR_PTR(long error) { return (void *)error; }
static inline long PTR_ERR(const void *ptr) { return (long)ptr; }
static inline bool IS_ERR(const void *ptr) { return IS_ERR_VALUE((unsigned long)ptr); }
static inline bool IS_ERR_OR_NULL(const void *ptr) { return !ptr || IS_ERR(ptr); }

/* ---- limits and arithmetic ---- */
#define BITS_PER_LONG 64
#define BITS_PER_BYTE 8
#define U8_MAX ((u8)~0U)
#define U32_MAX ((u32)~0U)
#define U64_MAX ((u64)~0ULL)
#define INT_MAX ((int)(~0U >> 1))
#define UINT_MAX (~0U)
#define LONG_MAX ((long)(~0UL >> 1))
#define LONG_MIN (-LONG_MAX - 1)
#define ULONG_MAX (~0UL)
#define BIT(nr) (1UL << (nr))
#define BIT_MASK(nr) (1UL << ((nr) % BITS_PER_LONG))
#define BIT_WORD(nr) ((nr) / BITS_PER_LONG)
#define DIV_ROUND_UP(n, d) (((n) + (d) - 1) / (d))
#define BITS_TO_LONGS(nr) DIV_ROUND_UP(nr, BITS_PER_LONG)
#define DECLARE_BITMAP(name, bits) unsigned long name[BITS_TO_LONGS(bits)]
#define min(a, b) ({ __typeof__(a) rc_a_ = (a); __typeof__(b) rc_b_ = (b); rc_a_ < rc_b_ ? rc_a_ : rc_b_; })
#define max(a, b) ({ __typeof__(a) rc_a_ = (a); __typeof__(b) rc_b_ = (b); rc_a_ > rc_b_ ? rc_a_ : rc_b_; })
#define min_t(t, a, b) min((t)(a), (t)(b))
#define max_t(t, a, b) max((t)(a), (t)(b))
static inline unsigned long __ffs(unsigned long w) { return (unsigned long)__builtin_ctzl(w); }
static inline int fls(unsigned int x) { return x ? 32 - __builtin_clz(x) : 0; }
static inline int fls64(u64 x) { return x ? 64 - __builtin_clzll(x) : 0; }

/* ---- GFP ---- */
#define __GFP_BITS_SHIFT 26
#define __GFP_DIRECT_RECLAIM 0x400u
#define __GFP_KSWAPD_RECLAIM 0x800u
#define __GFP_RECLAIM (__GFP_DIRECT_RECLAIM | __GFP_KSWAPD_RECLAIM)
#define __GFP_IO 0x40u
#define __GFP_FS 0x80u
#define __GFP_ZERO 0x100u
#define __GFP_HIGH 0x20u
#define __GFP_NOWARN 0x2000u
#define __GFP_ACCOUNT 0x400000u
#define GFP_KERNEL (__GFP_RECLAIM | __GFP_IO | __GFP_FS)
#define GFP_NOFS (__GFP_RECLAIM | __GFP_IO)
#define GFP_NOIO (__GFP_RECLAIM)
#define GFP_NOWAIT (__GFP_KSWAPD_RECLAIM)
#define GFP_ATOMIC (__GFP_HIGH | __GFP_KSWAPD_RECLAIM)
static inline bool gfpflags_allow_blocking(gfp_t gfp)
{
	return !!(gfp & __GFP_DIRECT_RECLAIM);
}
#define might_alloc(gfp) do { (void)(gfp); } while (0)
#define might_sleep() do { } while (0)

/* ---- exports ---- */
#define EXPORT_SYMBOL(s)
#define EXPORT_SYMBOL_GPL(s)
#define EXPORT_SYMBOL_NS_GPL(s, ns)

/* ---- bitops: atomic ones are one RMW; the __ ones a load and a store ---- */
#define test_bit(nr, addr) rc_test_bit((nr), (const volatile unsigned long *)(addr))
#define set_bit(nr, addr) rc_set_bit((nr), (volatile unsigned long *)(addr))
#define clear_bit(nr, addr) rc_clear_bit((nr), (volatile unsigned long *)(addr))
#define test_and_set_bit(nr, addr) rc_test_and_set_bit((nr), (volatile unsigned long *)(addr))
#define test_and_clear_bit(nr, addr) rc_test_and_clear_bit((nr), (volatile unsigned long *)(addr))
#define __set_bit(nr, addr) rc___set_bit((nr), (volatile unsigned long *)(addr))
#define __clear_bit(nr, addr) rc___clear_bit((nr), (volatile unsigned long *)(addr))
#define __test_and_set_bit(nr, addr) rc___test_and_set_bit((nr), (volatile unsigned long *)(addr))
#define __test_and_clear_bit(nr, addr) rc___test_and_clear_bit((nr), (volatile unsigned long *)(addr))
#define find_next_bit(addr, size, off) rc_find_next_bit((addr), (size), (off))
#define find_first_bit(addr, size) rc_find_next_bit((addr), (size), 0)
#define bitmap_empty(addr, n) rc_bitmap_empty((addr), (n))
#define bitmap_fill(addr, n) rc_bitmap_fill((addr), (n))
#define bitmap_zero(addr, n) rc_bitmap_zero((addr), (n))
#define bitmap_clear(addr, s, n) rc_bitmap_clear((addr), (s), (n))

/* ---- atomics: one point each ---- */
#define ATOMIC_INIT(i) { (i) }
#define ATOMIC_LONG_INIT(i) { (i) }
#define RC_ATOMIC_OPS(pfx, T, TT)					\
static inline TT pfx##_read(const T *v)				\
{ return (TT)rc_load(&v->counter, sizeof(v->counter), false); }	\
static inline void pfx##_set(T *v, TT i)				\
{ rc_store(&v->counter, (uint64_t)i, sizeof(v->counter), false); }	\
static inline void pfx##_add(TT i, T *v)				\
{ rc_add_nr(&v->counter, (uint64_t)i, sizeof(v->counter)); }		\
static inline void pfx##_sub(TT i, T *v)				\
{ rc_add_nr(&v->counter, (uint64_t)-i, sizeof(v->counter)); }		\
static inline void pfx##_inc(T *v) { pfx##_add(1, v); }			\
static inline void pfx##_dec(T *v) { pfx##_sub(1, v); }			\
static inline TT pfx##_fetch_add(TT i, T *v)				\
{ return (TT)rc_fetch_add(&v->counter, (uint64_t)i, sizeof(v->counter)); } \
static inline TT pfx##_add_return(TT i, T *v)				\
{ return pfx##_fetch_add(i, v) + i; }					\
static inline TT pfx##_sub_return(TT i, T *v)				\
{ return pfx##_fetch_add(-i, v) - i; }					\
static inline TT pfx##_inc_return(T *v) { return pfx##_add_return(1, v); } \
static inline TT pfx##_dec_return(T *v) { return pfx##_sub_return(1, v); } \
static inline bool pfx##_dec_and_test(T *v) { return pfx##_dec_return(v) == 0; } \
static inline TT pfx##_fetch_or(TT i, T *v)				\
{ return (TT)rc_fetch_or(&v->counter, (uint64_t)i, sizeof(v->counter)); } \
static inline TT pfx##_fetch_and(TT i, T *v)				\
{ return (TT)rc_fetch_and(&v->counter, (uint64_t)i, sizeof(v->counter)); } \
static inline TT pfx##_fetch_andnot(TT i, T *v)				\
{ return pfx##_fetch_and(~i, v); }					\
static inline TT pfx##_fetch_xor(TT i, T *v)				\
{ return (TT)rc_fetch_xor(&v->counter, (uint64_t)i, sizeof(v->counter)); } \
static inline void pfx##_or(TT i, T *v) { (void)pfx##_fetch_or(i, v); }	\
static inline void pfx##_and(TT i, T *v) { (void)pfx##_fetch_and(i, v); } \
static inline void pfx##_andnot(TT i, T *v) { (void)pfx##_fetch_and(~i, v); } \
static inline TT pfx##_xchg(T *v, TT i)				\
{ return (TT)rc_xchg(&v->counter, (uint64_t)i, sizeof(v->counter)); }	\
static inline TT pfx##_cmpxchg(T *v, TT o, TT n)			\
{ return (TT)rc_cmpxchg(&v->counter, (uint64_t)o, (uint64_t)n, sizeof(v->counter)); } \
static inline bool pfx##_try_cmpxchg(T *v, TT *o, TT n)			\
{ TT rc_r_ = pfx##_cmpxchg(v, *o, n);					\
  if (rc_r_ == *o)							\
	return true;							\
  *o = rc_r_;								\
  return false; }
RC_ATOMIC_OPS(atomic, atomic_t, int)
RC_ATOMIC_OPS(atomic_long, atomic_long_t, long)
#define atomic_long_read_acquire atomic_long_read
#define atomic_long_set_release atomic_long_set
#define atomic_long_cmpxchg_acquire atomic_long_cmpxchg
#define atomic_long_cmpxchg_release atomic_long_cmpxchg
#define atomic_long_cmpxchg_relaxed atomic_long_cmpxchg
#define atomic_long_try_cmpxchg_acquire atomic_long_try_cmpxchg
#define atomic_long_try_cmpxchg_release atomic_long_try_cmpxchg
#define atomic_long_try_cmpxchg_relaxed atomic_long_try_cmpxchg
#define atomic_long_fetch_add_release atomic_long_fetch_add
#define atomic_long_fetch_add_acquire atomic_long_fetch_add
#define atomic_long_add_return_acquire atomic_long_add_return
#define atomic_long_add_return_release atomic_long_add_return
#define atomic_long_fetch_andnot_release atomic_long_fetch_andnot
#define atomic_long_fetch_or_acquire atomic_long_fetch_or
#define atomic_read_acquire atomic_read
#define atomic_set_release atomic_set
/* cmpxchg()/xchg() on a scalar lvalue's address. */
#define cmpxchg(ptr, o, n)						\
	((__typeof__(*(ptr)))rc_cmpxchg((ptr), (uint64_t)(uintptr_t)(o), \
					(uint64_t)(uintptr_t)(n), sizeof(*(ptr))))
#define cmpxchg_relaxed cmpxchg
#define cmpxchg_acquire cmpxchg
#define cmpxchg_release cmpxchg
#define xchg(ptr, v)							\
	((__typeof__(*(ptr)))rc_xchg((ptr), (uint64_t)(uintptr_t)(v), sizeof(*(ptr))))
#define try_cmpxchg(ptr, po, n)						\
	({ __typeof__(*(ptr)) rc_o_ = *(po);				\
	   __typeof__(*(ptr)) rc_r_ = cmpxchg((ptr), rc_o_, (n));	\
	   bool rc_ok_ = rc_r_ == rc_o_; if (!rc_ok_) *(po) = rc_r_; rc_ok_; })

/* ---- preemption and interrupts: one CPU per task, no interrupts ---- */
#define preempt_disable() barrier()
#define preempt_enable() barrier()
#define preempt_enable_no_resched() barrier()
#define local_irq_save(f) do { (f) = 0; } while (0)
#define local_irq_restore(f) do { (void)(f); } while (0)
#define local_irq_disable() barrier()
#define local_irq_enable() barrier()
#define in_interrupt() 0
#define in_task() 1

#endif /* RC_KERNEL_H */
