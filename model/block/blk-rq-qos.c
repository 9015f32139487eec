// SPDX-License-Identifier: MIT
/*
 * model/block/blk-rq-qos.c - the queue-depth scaling rq_qos policies
 * share (used by blk-wbt.c).
 *
 * Models block/blk-rq-qos.c's rq_depth_calc_max_depth,
 * rq_depth_scale_up and rq_depth_scale_down, v6.18, as pure functions.
 * Leaves out: the rq_qos chain and its ops (the timed queue calls
 * blk-wbt.c directly: wbt is the only policy modelled), rq_qos_wait
 * (in blk-wbt.c, with its one caller), blk-iolatency's use.
 */
#include "model/block/blk-wbt.h"

/**
 * km_rq_depth_calc_max_depth - the depth for the current scale step.
 * Kernel: block/blk-rq-qos.c rq_depth_calc_max_depth, v6.18.
 * Context: any; pure.
 * Return: true when the depth cannot grow further by scaling up.
 */
bool km_rq_depth_calc_max_depth(struct km_rq_depth *rqd)
{
	unsigned int depth;
	bool ret = false;

	if (rqd->queue_depth == 1) {
		if (rqd->scale_step > 0) {
			rqd->max_depth = 1;
		} else {
			rqd->max_depth = 2;
			ret = true;
		}
	} else {
		depth = rqd->default_depth < rqd->queue_depth ?
			rqd->default_depth : rqd->queue_depth;
		if (rqd->scale_step > 0) {
			int shift = rqd->scale_step < 31 ? rqd->scale_step :
							   31;

			depth = 1 + ((depth - 1) >> shift);
		} else if (rqd->scale_step < 0) {
			unsigned int maxd = 3 * rqd->queue_depth / 4;
			int shift = -rqd->scale_step;

			/* KM: the kernel's shift is unbounded; past 31 it
			 * is undefined, and the cap below applies anyway. */
			depth = shift < 31 ? 1 + ((depth - 1) << shift) :
					     maxd + 1;
			if (depth > maxd) {
				depth = maxd;
				ret = true;
			}
		}
		rqd->max_depth = depth;
	}
	return ret;
}

/**
 * km_rq_depth_scale_up - one step towards a deeper queue.
 * Kernel: block/blk-rq-qos.c rq_depth_scale_up, v6.18.
 * Context: any; pure.
 * Return: false if the previous step already reached the maximum.
 */
bool km_rq_depth_scale_up(struct km_rq_depth *rqd)
{
	if (rqd->scaled_max)
		return false;
	rqd->scale_step--;
	rqd->scaled_max = km_rq_depth_calc_max_depth(rqd);
	return true;
}

/**
 * km_rq_depth_scale_down - one step towards a shallower queue; after a
 * latency violation (@hard_throttle) a negative step snaps back to 0.
 * Kernel: block/blk-rq-qos.c rq_depth_scale_down, v6.18.
 * Context: any; pure.
 * Return: false if the depth is already 1.
 */
bool km_rq_depth_scale_down(struct km_rq_depth *rqd, bool hard_throttle)
{
	if (rqd->max_depth == 1)
		return false;
	if (rqd->scale_step < 0 && hard_throttle)
		rqd->scale_step = 0;
	else
		rqd->scale_step++;
	rqd->scaled_max = false;
	km_rq_depth_calc_max_depth(rqd);
	return true;
}
