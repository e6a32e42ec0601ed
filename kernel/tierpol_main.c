// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * tierpol_main.c - kernel module glue for tierpol
 *
 * The algorithms are the C files of lib/, built unchanged: lib/tp_seam.h
 * maps them to the kernel's primitives under __KERNEL__. This file only adds
 * the module information and exports every public function that is not a
 * static inline in include/tierpol/, GPL-only, in the symbol namespace
 * TIERPOL: a module that calls them says MODULE_IMPORT_NS(TIERPOL). The
 * library's internal functions (__tp_*) are global, so that the objects of
 * lib/ can share them, but not exported. "make kmod" checks that the
 * exports below are exactly the global functions of lib/ other than those.
 *
 * TP_NS is the namespace as this kernel's export macros take it, set by
 * Kbuild: the identifier TIERPOL up to Linux 6.12, the string "TIERPOL"
 * from 6.13 on (which made namespaces string literals).
 *
 * Each export is preceded by who calls it in a NUMA-balancing kernel.
 */
#include <linux/module.h>
#include <tierpol/tierpol.h>

/* version.h: any caller, e.g. to log the library version. */
EXPORT_SYMBOL_NS_GPL(tp_version, TP_NS);
/* version.h: the same as a "MAJOR.MINOR.PATCH" string. */
EXPORT_SYMBOL_NS_GPL(tp_version_string, TP_NS);
/* version.h: an error code's meaning, for a log line. */
EXPORT_SYMBOL_NS_GPL(tp_strerror, TP_NS);

/* scan_ring.h: set up the per-mm scan history. */
EXPORT_SYMBOL_NS_GPL(tp_scan_ring_init, TP_NS);
/* scan_ring.h: task_numa_work() starting a scan pass (the single writer). */
EXPORT_SYMBOL_NS_GPL(tp_scan_ring_record, TP_NS);
/* scan_ring.h: task_numa_work() moving the scan offset (the writer). */
EXPORT_SYMBOL_NS_GPL(tp_scan_ring_advance, TP_NS);
/* scan_ring.h: forget the history, e.g. on exec (the writer). */
EXPORT_SYMBOL_NS_GPL(tp_scan_ring_reset, TP_NS);
/* scan_ring.h: the hint-fault path, lock-free. */
EXPORT_SYMBOL_NS_GPL(tp_scan_ring_latency, TP_NS);

/* atime.h: validate a per-page access-time stamp format. */
EXPORT_SYMBOL_NS_GPL(tp_atime_init, TP_NS);
/* atime.h: the scanner stamping a page it marks for hint faults. */
EXPORT_SYMBOL_NS_GPL(tp_atime_xchg, TP_NS);
/* atime.h: the hint-fault path (numa_hint_fault_latency()). */
EXPORT_SYMBOL_NS_GPL(tp_atime_fault, TP_NS);

/* threshold.h: set up a target node's hot-threshold controller. */
EXPORT_SYMBOL_NS_GPL(tp_thresh_init, TP_NS);
/* threshold.h: a sysctl write changing the controller's settings. */
EXPORT_SYMBOL_NS_GPL(tp_thresh_tune, TP_NS);
/* threshold.h: the hint-fault path, once per period per node. */
EXPORT_SYMBOL_NS_GPL(tp_thresh_update, TP_NS);
/* threshold.h: reset_memory_tiering() and the free-space bypass. */
EXPORT_SYMBOL_NS_GPL(tp_thresh_reset, TP_NS);
/* threshold.h: the hint-fault path counting a judged latency (histogram). */
EXPORT_SYMBOL_NS_GPL(tp_thresh_record, TP_NS);
/* threshold.h: the hint-fault path reading the current threshold. */
EXPORT_SYMBOL_NS_GPL(tp_thresh_get, TP_NS);

/* limiter.h: set up a target node's promotion rate limiter. */
EXPORT_SYMBOL_NS_GPL(tp_limiter_init, TP_NS);
/* limiter.h: a sysctl write changing rate, burst or variant. */
EXPORT_SYMBOL_NS_GPL(tp_limiter_tune, TP_NS);
/* limiter.h: the hint-fault path, lock-free. */
EXPORT_SYMBOL_NS_GPL(tp_limiter_consume, TP_NS);
/* limiter.h: monitoring (debugfs, tracepoints). */
EXPORT_SYMBOL_NS_GPL(tp_limiter_available, TP_NS);
/* limiter.h: monitoring, summed over the per-CPU slots. */
EXPORT_SYMBOL_NS_GPL(tp_limiter_busy, TP_NS);

/* vma_scan.h: validate the VMA scan filter settings. */
EXPORT_SYMBOL_NS_GPL(tp_vma_profile_init, TP_NS);
/* vma_scan.h: vma_numab_state allocation. */
EXPORT_SYMBOL_NS_GPL(tp_vma_scan_init, TP_NS);
/* vma_scan.h: the hint-fault path (vma_set_access_pid_bit()). */
EXPORT_SYMBOL_NS_GPL(tp_vma_scan_note, TP_NS);
/* vma_scan.h: task_numa_work() deciding whether to scan a VMA. */
EXPORT_SYMBOL_NS_GPL(tp_vma_scan_check, TP_NS);
/* vma_scan.h: task_numa_work() after scanning a VMA. */
EXPORT_SYMBOL_NS_GPL(tp_vma_scan_done, TP_NS);
/* vma_scan.h: the disjoint-VMA RFC's size-based forced-scan rate. */
EXPORT_SYMBOL_NS_GPL(tp_vma_scan_ratelimit, TP_NS);

/* policy.h: fill a configuration with the 2020 RFC or Linux 6.1 preset. */
EXPORT_SYMBOL_NS_GPL(tp_policy_preset, TP_NS);
/* policy.h: validate the sysctls into a policy. */
EXPORT_SYMBOL_NS_GPL(tp_policy_init, TP_NS);
/* policy.h: a sysctl write on a live policy. */
EXPORT_SYMBOL_NS_GPL(tp_policy_tune, TP_NS);
/* policy.h: set up a target node (pglist_data). */
EXPORT_SYMBOL_NS_GPL(tp_node_init, TP_NS);
/* policy.h: reset_memory_tiering() when the tiering mode is switched on. */
EXPORT_SYMBOL_NS_GPL(tp_node_reset, TP_NS);
/* policy.h: the hint-fault path (should_numa_migrate_memory()). */
EXPORT_SYMBOL_NS_GPL(tp_decide, TP_NS);
/* policy.h: vmstat-style statistics of a node: the node-wide part... */
EXPORT_SYMBOL_NS_GPL(tp_node_stats_read, TP_NS);
/* policy.h: ...and each CPU's slot folded in. */
EXPORT_SYMBOL_NS_GPL(tp_node_stats_add, TP_NS);
/* policy.h: a verdict's name, for tracepoints and logs. */
EXPORT_SYMBOL_NS_GPL(tp_verdict_name, TP_NS);
/* policy.h: the free-space bypass check. */
EXPORT_SYMBOL_NS_GPL(tp_free_space_enough, TP_NS);
/* policy.h: migrate_balanced_pgdat(). */
EXPORT_SYMBOL_NS_GPL(tp_promote_room, TP_NS);
/* policy.h: kswapd's demotion target. */
EXPORT_SYMBOL_NS_GPL(tp_demotion_target, TP_NS);
/* policy.h: __setup_per_zone_wmarks()' promo watermark. */
EXPORT_SYMBOL_NS_GPL(tp_wmark_promo, TP_NS);
/* policy.h: change_prot_numa() deciding whether to mark a page. */
EXPORT_SYMBOL_NS_GPL(tp_scan_wanted, TP_NS);
/* policy.h: task_numa_fault() with NUMA groups (Linux 3.15). */
EXPORT_SYMBOL_NS_GPL(tp_group_fault_local, TP_NS);
/* policy.h: numa_migrate_preferred() (Linux 3.15). */
EXPORT_SYMBOL_NS_GPL(tp_migrate_retry_interval, TP_NS);
/* policy.h: task_numa_migrate() (Linux 3.15). */
EXPORT_SYMBOL_NS_GPL(tp_preferred_node, TP_NS);

/* goal.h: a daemon or timer turning a goal into a rate or threshold. */
EXPORT_SYMBOL_NS_GPL(tp_goal_init, TP_NS);
/* goal.h: the goal or the bounds changed (a sysctl write). */
EXPORT_SYMBOL_NS_GPL(tp_goal_tune, TP_NS);
/* goal.h: once per control period, with the metric measured. */
EXPORT_SYMBOL_NS_GPL(tp_goal_update, TP_NS);
/* goal.h: the current output, for tracing. */
EXPORT_SYMBOL_NS_GPL(tp_goal_get, TP_NS);

/* hotness.h: validate a hotness record format. */
EXPORT_SYMBOL_NS_GPL(tp_hot_init, TP_NS);
/* hotness.h: a source (hint fault, scan, IBS/PEBS) recording an access. */
EXPORT_SYMBOL_NS_GPL(tp_hot_record, TP_NS);
/* hotness.h: the same on a shared 32-bit record, with cmpxchg. */
EXPORT_SYMBOL_NS_GPL(tp_hot_record32, TP_NS);
/* hotness.h: the migration thread looking for ready pages. */
EXPORT_SYMBOL_NS_GPL(tp_hot_ready, TP_NS);
/* hotness.h: a periodic walk clearing stale records. */
EXPORT_SYMBOL_NS_GPL(tp_hot_expired, TP_NS);
/* hotness.h: the promotion target of a precise record. */
EXPORT_SYMBOL_NS_GPL(tp_hot_nid, TP_NS);
/* hotness.h: the access count, for tracing. */
EXPORT_SYMBOL_NS_GPL(tp_hot_count, TP_NS);

/* fclock.h: a hint-fault counter used as a clock (per mm or per node). */
EXPORT_SYMBOL_NS_GPL(tp_fault_clock_init, TP_NS);
/* fclock.h: the hint-fault path counting a fault and reading the clock. */
EXPORT_SYMBOL_NS_GPL(tp_fault_clock_tick, TP_NS);
/* fclock.h: the scanner reading the clock when it marks a range. */
EXPORT_SYMBOL_NS_GPL(tp_fault_clock_now, TP_NS);

MODULE_LICENSE("Dual BSD/GPL");
MODULE_DESCRIPTION("tierpol: page-placement algorithms for tiered memory");
MODULE_VERSION(TP_VERSION_STRING);
