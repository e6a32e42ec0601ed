/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * tierpol - page-placement algorithms for tiered memory (DRAM + CXL/PMEM),
 * as Linux's NUMA balancing uses them for hot-page promotion.
 *
 * The umbrella header: include this, or the component headers one by one.
 *
 *   scan_ring.h  scan-history ring and hint-fault latency lookup
 *   atime.h      per-page access-time stamp (mainline's alternative)
 *   threshold.h  hot-threshold controller
 *   limiter.h    promotion rate limiter (token bucket, per-second window)
 *   vma_scan.h   VMA scan rate limiter and access filter
 *   policy.h     the promotion decision pipeline, watermarks, statistics
 *   goal.h       goal controller (DAMOS quota-goal feedback)
 *   hotness.h    per-page hotness record (pghot's formats)
 *   fclock.h     fault-count clock (latency in hint faults)
 *   version.h    version macros, tp_version() and tp_strerror()
 *
 * Bad input (docs/BAD_INPUT.md has the full table): the init, tune and
 * preset functions return -EINVAL for a NULL argument and -EINVAL or
 * -ERANGE for a value out of range, leaving their object untouched;
 * tp_decide() and tp_vma_scan_check() refuse inconsistent per-call input
 * (a page count, watermarks out of order) with -EINVAL but, being on the
 * fault path, do not test their pointers. Everywhere else, and for those
 * two, a NULL pointer, or an object its init
 * function never accepted (a zero-filled one, say), is a violation of the
 * caller's contract: TP_ASSERT() traps in userspace builds with TP_DEBUG,
 * warns once (VM_WARN_ON_ONCE) in a kernel with CONFIG_DEBUG_VM, and is not
 * checked otherwise.
 */
#ifndef TP_TIERPOL_H
#define TP_TIERPOL_H

#include <tierpol/types.h>
#include <tierpol/version.h>
#include <tierpol/scan_ring.h>
#include <tierpol/atime.h>
#include <tierpol/threshold.h>
#include <tierpol/limiter.h>
#include <tierpol/vma_scan.h>
#include <tierpol/policy.h>
#include <tierpol/goal.h>
#include <tierpol/hotness.h>
#include <tierpol/fclock.h>

#endif /* TP_TIERPOL_H */
