// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * tpdemo - an out-of-tree module that uses tierpol
 *
 * What a kernel user of tierpol writes: one policy (the sysctls), one node
 * state per target node, one counter slot per CPU and node (alloc_percpu),
 * a decision per hint fault on the CPU's own slot with preemption disabled
 * (get_cpu_ptr), statistics folded over the CPUs, and a tune that publishes
 * new settings while decisions run. Built either with tierpol's sources in
 * the module (vendored) or against tierpol.ko; Kbuild and docs/kernel.md
 * say how.
 *
 * On load it decides @faults synthetic hint faults on every online CPU (a
 * work item per CPU), retunes the rate limit, decides as many again, prints
 * the verdicts and checks that every decision was counted once.
 */
#include <linux/cpu.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/workqueue.h>

#include <tierpol/tierpol.h>

/* How this module has tierpol: Kbuild defines TPDEMO_VENDORED or not. */
#ifdef TPDEMO_VENDORED
#define TPDEMO_HOW	"vendored"
#else
#define TPDEMO_HOW	"tierpol.ko"
#endif

static unsigned int faults = 1000;
module_param(faults, uint, 0444);
MODULE_PARM_DESC(faults, "synthetic hint faults decided on each CPU");

/* The sysctls, shared by every node; tp_policy_tune() changes them. */
static struct tp_policy tpdemo_pol;
/* One target node's live state (cache-line aligned by its type). */
static struct tp_node tpdemo_node;
/* Each CPU's counters for that node. */
static struct tp_node_cpu __percpu *tpdemo_slots;
/* Pages decided, to check the statistics against. */
static atomic64_t tpdemo_pages = ATOMIC64_INIT(0);
/* A work item per CPU, for the synthetic faults. */
static DEFINE_PER_CPU(struct work_struct, tpdemo_works);

/*
 * The node's memory in pages. A real user reads them from the node's zones
 * (free pages, min/low/high and, from Linux 6.1, promo watermarks); these
 * leave room above the high watermark but not enough for the free-space
 * bypass, so the hotness check and the rate limit decide.
 */
static const struct tp_node_mem tpdemo_mem = {
	.free = 200000,
	.wmark_min = 1000,
	.wmark_low = 2000,
	.wmark_high = 3000,
	.wmark_promo = 4000,
	.present = 1 << 22,
};

/* The hint-fault path: decide on this CPU's slot, preemption disabled. */
static int tpdemo_decide(const struct tp_fault *f)
{
	struct tp_node_cpu *slot;
	int v;

	slot = get_cpu_ptr(tpdemo_slots);
	v = tp_decide(&tpdemo_pol, &tpdemo_node, slot, f, &tpdemo_mem,
		      get_jiffies_64());
	put_cpu_ptr(tpdemo_slots);
	return v;
}

/* A CPU's share of the synthetic faults: latencies up to 2 s, a THP in 16. */
static void tpdemo_work(struct work_struct *work)
{
	struct tp_fault f = { .flags = 0 };
	u32 x = 0x9e3779b9U * (raw_smp_processor_id() + 1);
	unsigned int i;

	for (i = 0; i < faults; i++) {
		x = x * 1664525U + 1013904223U;
		f.latency = (x >> 8) % (2 * HZ);
		f.nr_pages = x & 15 ? 1 : 512;
		if (tpdemo_decide(&f) >= 0)
			atomic64_add(f.nr_pages, &tpdemo_pages);
	}
}

/* Runs tpdemo_work() on every online CPU and waits for them all. */
static void tpdemo_run(void)
{
	int cpu;

	cpus_read_lock();
	for_each_online_cpu(cpu) {
		struct work_struct *w = per_cpu_ptr(&tpdemo_works, cpu);

		INIT_WORK(w, tpdemo_work);
		queue_work_on(cpu, system_wq, w);
	}
	for_each_online_cpu(cpu)
		flush_work(per_cpu_ptr(&tpdemo_works, cpu));
	cpus_read_unlock();
}

static int __init tpdemo_init(void)
{
	struct tp_policy_cfg cfg;
	struct tp_node_stats s;
	int ret, cpu, v;

	/* Linux 6.1's settings at 16 MB/s, the clock in jiffies. */
	ret = tp_policy_preset(&cfg, TP_PRESET_LINUX61, HZ);
	cfg.rate_limit_mbps = 16;
	ret = ret ?: tp_policy_init(&tpdemo_pol, &cfg);
	ret = ret ?: tp_node_init(&tpdemo_node, &tpdemo_pol, get_jiffies_64());
	if (ret) {
		pr_err("tpdemo: policy: %s\n", tp_strerror(ret));
		return ret;
	}
	tpdemo_slots = alloc_percpu(struct tp_node_cpu);
	if (!tpdemo_slots)
		return -ENOMEM;

	tpdemo_run();
	/* A sysctl write: the rate limit doubles, decisions go on. */
	cfg.rate_limit_mbps = 32;
	ret = tp_policy_tune(&tpdemo_pol, &cfg);
	if (ret) {
		pr_err("tpdemo: tune: %s\n", tp_strerror(ret));
		goto out;
	}
	tpdemo_run();

	tp_node_stats_read(&tpdemo_pol, &tpdemo_node, &s);
	for_each_possible_cpu(cpu)
		tp_node_stats_add(&s, per_cpu_ptr(tpdemo_slots, cpu));
	pr_info("tpdemo: tierpol %s (%s): %llu pages decided on %u CPUs, threshold %llu jiffies\n",
		tp_version_string(), TPDEMO_HOW, s.decided,
		num_online_cpus(), s.threshold);
	for (v = 0; v < TP_NR_VERDICTS; v++)
		if (s.verdict[v])
			pr_info("tpdemo:   %-16s %llu\n", tp_verdict_name(v),
				s.verdict[v]);
	if (s.decided != atomic64_read(&tpdemo_pages) ||
	    !s.verdict[TP_PROMOTE]) {
		pr_err("tpdemo: %llu pages counted, %lld decided\n",
		       s.decided, atomic64_read(&tpdemo_pages));
		ret = -EIO;
	}
out:
	if (ret)
		free_percpu(tpdemo_slots);
	return ret;
}

static void __exit tpdemo_exit(void)
{
	free_percpu(tpdemo_slots);
}

module_init(tpdemo_init);
module_exit(tpdemo_exit);

MODULE_LICENSE("Dual BSD/GPL");
MODULE_DESCRIPTION("tpdemo: an out-of-tree module that uses tierpol");
#ifndef TPDEMO_VENDORED
/*
 * tierpol.ko exports its functions in this namespace: TIERPOL, or
 * "TIERPOL" from 6.13 on (the Kbuild passes the form as TPDEMO_NS).
 */
MODULE_IMPORT_NS(TPDEMO_NS);
#endif
