// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * tierpol_main.c - kernel module glue for tierpol
 *
 * The algorithms are the C files of lib/, built unchanged: lib/tp_seam.h
 * maps them to the kernel's primitives under __KERNEL__. This file only adds
 * the module information and exports every public function that is not a
 * static inline in include/tierpol/. "make kmod" checks that the exports
 * below and the global functions of lib/ are the same set.
 *
 * Each export is preceded by who calls it in a NUMA-balancing kernel.
 */
#include <linux/module.h>
#include <tierpol/tierpol.h>

/* version.h: any caller, e.g. to log the library version. */
EXPORT_SYMBOL_GPL(tp_version);
/* version.h: the same as a "MAJOR.MINOR.PATCH" string. */
EXPORT_SYMBOL_GPL(tp_version_string);

/* scan_ring.h: set up the per-mm scan history. */
EXPORT_SYMBOL_GPL(tp_scan_ring_init);
/* scan_ring.h: task_numa_work() starting a scan pass (the single writer). */
EXPORT_SYMBOL_GPL(tp_scan_ring_record);
/* scan_ring.h: task_numa_work() moving the scan offset (the writer). */
EXPORT_SYMBOL_GPL(tp_scan_ring_advance);
/* scan_ring.h: forget the history, e.g. on exec (the writer). */
EXPORT_SYMBOL_GPL(tp_scan_ring_reset);
/* scan_ring.h: the hint-fault path, lock-free. */
EXPORT_SYMBOL_GPL(tp_scan_ring_latency);

/* atime.h: validate a per-page access-time stamp format. */
EXPORT_SYMBOL_GPL(tp_atime_init);
/* atime.h: the scanner stamping a page it marks for hint faults. */
EXPORT_SYMBOL_GPL(tp_atime_xchg);
/* atime.h: the hint-fault path (numa_hint_fault_latency()). */
EXPORT_SYMBOL_GPL(tp_atime_fault);

/* threshold.h: set up a target node's hot-threshold controller. */
EXPORT_SYMBOL_GPL(tp_thresh_init);
/* threshold.h: a sysctl write changing the controller's settings. */
EXPORT_SYMBOL_GPL(tp_thresh_tune);
/* threshold.h: the hint-fault path, once per period per node. */
EXPORT_SYMBOL_GPL(tp_thresh_update);
/* threshold.h: reset_memory_tiering() and the free-space bypass. */
EXPORT_SYMBOL_GPL(tp_thresh_reset);
/* threshold.h: the hint-fault path reading the current threshold. */
EXPORT_SYMBOL_GPL(tp_thresh_get);

/* limiter.h: set up a target node's promotion rate limiter. */
EXPORT_SYMBOL_GPL(tp_limiter_init);
/* limiter.h: a sysctl write changing rate, burst or variant. */
EXPORT_SYMBOL_GPL(tp_limiter_tune);
/* limiter.h: the hint-fault path, lock-free. */
EXPORT_SYMBOL_GPL(tp_limiter_consume);
/* limiter.h: monitoring (debugfs, tracepoints). */
EXPORT_SYMBOL_GPL(tp_limiter_available);

/* vma_scan.h: validate the VMA scan filter settings. */
EXPORT_SYMBOL_GPL(tp_vma_profile_init);
/* vma_scan.h: vma_numab_state allocation. */
EXPORT_SYMBOL_GPL(tp_vma_scan_init);
/* vma_scan.h: the hint-fault path (vma_set_access_pid_bit()). */
EXPORT_SYMBOL_GPL(tp_vma_scan_note);
/* vma_scan.h: task_numa_work() deciding whether to scan a VMA. */
EXPORT_SYMBOL_GPL(tp_vma_scan_check);
/* vma_scan.h: task_numa_work() after scanning a VMA. */
EXPORT_SYMBOL_GPL(tp_vma_scan_done);
/* vma_scan.h: seed 004's size-based forced-scan rate. */
EXPORT_SYMBOL_GPL(tp_vma_scan_ratelimit);

/* policy.h: fill a configuration with the seed or mainline preset. */
EXPORT_SYMBOL_GPL(tp_policy_preset);
/* policy.h: validate the sysctls into a policy. */
EXPORT_SYMBOL_GPL(tp_policy_init);
/* policy.h: a sysctl write on a live policy. */
EXPORT_SYMBOL_GPL(tp_policy_tune);
/* policy.h: set up a target node (pglist_data). */
EXPORT_SYMBOL_GPL(tp_node_init);
/* policy.h: apply a tuned policy to a node. */
EXPORT_SYMBOL_GPL(tp_node_sync);
/* policy.h: the hint-fault path (should_numa_migrate_memory()). */
EXPORT_SYMBOL_GPL(tp_decide);
/* policy.h: vmstat-style statistics of a node. */
EXPORT_SYMBOL_GPL(tp_node_stats);
/* policy.h: the free-space bypass check. */
EXPORT_SYMBOL_GPL(tp_free_space_enough);
/* policy.h: migrate_balanced_pgdat(). */
EXPORT_SYMBOL_GPL(tp_promote_room);
/* policy.h: kswapd's demotion target. */
EXPORT_SYMBOL_GPL(tp_demotion_target);
/* policy.h: __setup_per_zone_wmarks()' promo watermark. */
EXPORT_SYMBOL_GPL(tp_wmark_promo);
/* policy.h: change_prot_numa() deciding whether to mark a page. */
EXPORT_SYMBOL_GPL(tp_scan_wanted);
/* policy.h: task_numa_fault() with NUMA groups (seed 001). */
EXPORT_SYMBOL_GPL(tp_group_fault_local);
/* policy.h: numa_migrate_preferred() (seed 001). */
EXPORT_SYMBOL_GPL(tp_migrate_retry_interval);
/* policy.h: task_numa_migrate() (seed 001). */
EXPORT_SYMBOL_GPL(tp_preferred_node);

MODULE_LICENSE("Dual BSD/GPL");
MODULE_DESCRIPTION("tierpol: page-placement algorithms for tiered memory");
MODULE_VERSION(TP_VERSION_STRING);
