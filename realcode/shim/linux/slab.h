/* SPDX-License-Identifier: MIT */
/* realcode shim: slab caches on the per-execution kernel heap (wpsim's own). */
#ifndef RC_SLAB_H
#define RC_SLAB_H
#include "rc-kernel.h"
struct list_lru;
#define kmem_cache rc_cache
#define kmem_cache_alloc(c, gfp) rc_alloc((c), 0, NULL)
#define kmem_cache_alloc_lru(c, lru, gfp) rc_alloc((c), 0, NULL)
#define kmem_cache_zalloc(c, gfp) rc_alloc((c), 0, NULL)
#define kmem_cache_free(c, p) rc_free(p)
#define kmalloc(size, gfp) rc_alloc(NULL, (size), "kmalloc")
#define kzalloc(size, gfp) rc_alloc(NULL, (size), "kmalloc")
#define kfree(p) rc_free((void *)(p))
#endif
