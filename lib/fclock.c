// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Fault-count clock. See fclock.h.
 */
#include "tp_inline.h"
#include <tierpol/fclock.h>

int tp_fault_clock_init(struct tp_fault_clock *clk, u32 batch)
{
	if (!clk || batch > TP_CAND_BATCH_MAX)
		return -EINVAL;
	tp_atomic64_set(&clk->count, 0);
	clk->batch = batch ? batch : 1;
	return 0;
}

u64 tp_fault_clock_tick(struct tp_fault_clock *clk,
			struct tp_fault_clock_cpu *cpu, u64 n)
{
	TP_ASSERT(clk && clk->batch && cpu);
	/* Not a count of faults: 2^64 - 1 would step the clock back. */
	if (tp_unlikely(n > TP_RATE_MAX))
		return tp_atomic64_read(&clk->count);
	__tp_count(&clk->count, &cpu->diff, n, clk->batch);
	return tp_atomic64_read(&clk->count);
}

u64 tp_fault_clock_now(const struct tp_fault_clock *clk)
{
	TP_ASSERT(clk);
	return tp_atomic64_read(&clk->count);
}
