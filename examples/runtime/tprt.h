/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * tprt - the tierpol runtime: tierpol placing a process's own pages on a
 * Linux machine with two memory tiers (docs/RUNTIME.md).
 *
 * A program calls tprt_init() once, then tprt_register() for the memory it
 * wants placed. A scanner thread does the kernel's NUMA-balancing scan in
 * userspace over that memory (the scan-history ring of tierpol, the scan
 * period adaptation of task_numa_work()), protecting the pages that sit on
 * a slow-tier node; the program's next access to such a page faults, the
 * runtime's signal handler restores access, asks tierpol whether to promote
 * it and queues it; a migrator thread moves the queued pages to the fast
 * node with move_pages(2). Nothing outside the registered regions is
 * touched, and a fault that is not the runtime's goes to the handler that
 * was installed before (a JIT, a sanitizer, the default action).
 *
 * One runtime per process. Linux only; x86-64 tells reads from writes.
 */
#ifndef TPRT_H
#define TPRT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * enum tprt_source - how the hint faults of a region are raised
 * @TPRT_SRC_MPROTECT: mprotect(PROT_NONE) on slow-tier blocks: sees reads
 *	and writes (SIGSEGV). Each restored block may split the region's VMA;
 *	the runtime bounds the count (&struct tprt_cfg.vma_cap).
 * @TPRT_SRC_UFFD_WP: userfaultfd write-protect in SIGBUS mode: adds no VMA,
 *	but sees writes only (reads of a slow page never fault, so a page
 *	that is only read is never promoted). Anonymous private memory only
 *	(tprt_register() refuses other memory with -EINVAL).
 */
enum tprt_source {
	TPRT_SRC_MPROTECT = 0,
	TPRT_SRC_UFFD_WP = 1,
};

/* Flags of &struct tprt_cfg. */
/** never allocate on the fast node to wake kswapd (see docs/RUNTIME.md) */
#define TPRT_F_NO_NUDGE		0x1U
/** do not start the migrator thread: promotions are queued only (tests) */
#define TPRT_F_NO_MIGRATOR	0x2U
/** do not start the scanner thread: tprt_scan_now() drives it (tests) */
#define TPRT_F_NO_SCANNER	0x4U
/**
 * a hint fault's latency from tierpol's scan ring (the first version's
 * way) instead of its block's protection stamp; for comparison only: the
 * ring gives a block that stayed protected the time of a later run
 * (docs/RUNTIME.md)
 */
#define TPRT_F_RING_LATENCY	0x8U
/**
 * drop the pages refused for want of room on the fast node instead of
 * keeping them for the migrator to move once a nudge has made room
 * (@defer_shift); in %TPRT_F_DEFAULT: with the fill measured again, the
 * kept pages' exchange adds migrations, not share (docs/RUNTIME-DEFAULTS.md,
 * "The defaults")
 */
#define TPRT_F_NO_DEFER		0x10U
/**
 * choose the pages to demote: the scanner also protects some of the fast
 * node's blocks as samples (one in 2^&struct tprt_cfg.sample_shift a
 * sweep), marks those still untouched @hot_threshold_ms / @block_pages
 * later as victims (a block's age times its pages estimates a page's
 * latency), and when promotions are refused for want of room the migrator
 * moves victims to the slow node itself before it wakes kswapd
 * (docs/RUNTIME.md, "Victims")
 */
#define TPRT_F_VICTIMS		0x20U
/**
 * measure a block again: when a fault's page is promoted and its block's
 * other pages are refused as cold (their estimate multiplies the block's
 * latency, and a stamp from before a pause or a first-touch pass
 * multiplies too), the migrator protects the block again with a fresh
 * stamp, once per sweep (docs/RUNTIME.md, "Measuring a block again");
 * in %TPRT_F_DEFAULT, with %TPRT_F_RECHECK_FILL
 */
#define TPRT_F_RECHECK		0x40U
/**
 * with %TPRT_F_RECHECK (alone it is rejected): measure blocks again only
 * while the fast node fills, its free pages more than a sixteenth of it
 * above the promotion watermark (6.1's free-space margin without its 1 GiB
 * floor; docs/RUNTIME.md, "Measuring a block again"); in %TPRT_F_DEFAULT
 */
#define TPRT_F_RECHECK_FILL	0x80U
/**
 * while the fast node fills (as for %TPRT_F_RECHECK_FILL), a pass scans
 * as far as the kernel ever scans in one period (2560 MB a second of it,
 * MAX_SCAN_WINDOW) instead of @scan_size_mb, and promotions do not double
 * the period: all of the registered memory competes for the room at once,
 * instead of the first addresses scanned taking it while the rest waits
 * for later passes (docs/RUNTIME.md, "Sweeping while node 0 fills"); in
 * %TPRT_F_DEFAULT
 */
#define TPRT_F_SWEEP_FILL	0x100U
/** every defined flag */
#define TPRT_F_ALL		0x1ffU
/**
 * the flags tprt_cfg_default() sets: blocks measured again and passes that
 * sweep while the fast node fills, refused pages dropped
 * (docs/RUNTIME-DEFAULTS.md, "The defaults" and "Sweeping while node 0
 * fills"); clear them for the first version's behaviour
 */
#define TPRT_F_DEFAULT	(TPRT_F_RECHECK | TPRT_F_RECHECK_FILL | \
			 TPRT_F_NO_DEFER | TPRT_F_SWEEP_FILL)

/**
 * enum tprt_decide - what a hint fault decides (&struct tprt_cfg.decide)
 * @TPRT_DECIDE_PAGE: the faulting page on its own latency (the time since
 *	its block was protected); the block's other slow pages together,
 *	on that latency times the block's pages (their mean rate's estimate:
 *	the first of n pages of equal rate is reached n times sooner)
 * @TPRT_DECIDE_BLOCK: the block's slow pages together, on the latency of
 *	the first access to any of them (as one large folio)
 * @TPRT_DECIDE_FAULT: the faulting page alone; the block's other pages
 *	wait for a later fault
 */
enum tprt_decide {
	TPRT_DECIDE_PAGE = 0,
	TPRT_DECIDE_BLOCK = 1,
	TPRT_DECIDE_FAULT = 2,
};

/**
 * enum tprt_clock - the clock of hint-fault latencies (&struct
 *	tprt_cfg.clock)
 * @TPRT_CLOCK_CPU: the process's user CPU time (getrusage(2)): time in
 *	which the program ran its own code and could touch the page. The
 *	runtime's own cost (its faults' signals and mprotect() calls, its
 *	migrations, in system time) does not age a page: a burst of hint
 *	faults after a pass does not make the pages behind it look cold.
 *	With N threads busy it runs N times as fast as the wall clock.
 * @TPRT_CLOCK_WALL: CLOCK_MONOTONIC, as the kernel's latencies
 */
enum tprt_clock {
	TPRT_CLOCK_CPU = 0,
	TPRT_CLOCK_WALL = 1,
};

/** The most regions registered at once. */
#define TPRT_MAX_REGIONS	16
/**
 * Counter slots: the first TPRT_MAX_SLOTS - 1 threads that fault get one of
 * their own, later threads share the last; a slot is not reused when its
 * thread exits.
 */
#define TPRT_MAX_SLOTS		128

/**
 * struct tprt_cfg - runtime settings; tprt_cfg_default() fills them
 * @fast_node: the node to promote to; -1: the first node of the top memory
 *	tier (/sys/devices/virtual/memory_tiering), or node 0 without tiers
 * @flags: TPRT_F_* flags (%TPRT_F_DEFAULT)
 * @scan_delay_ms: delay before the first pass (numa_balancing_scan_delay_ms)
 * @scan_period_min_ms: numa_balancing_scan_period_min_ms
 * @scan_period_max_ms: numa_balancing_scan_period_max_ms
 * @scan_size_mb: slow-tier memory a pass protects at most
 *	(numa_balancing_scan_size_mb; the pass also stops after 8 times as
 *	much address space, as task_numa_work())
 * @scan_cost_factor: a pass delays the next one by this many times its
 *	CPU time (task_numa_work()'s node_stamp: 32)
 * @hot_threshold_ms: tierpol's hot threshold (numa_balancing_hot_threshold_ms);
 *	0 selects the mainline preset's 1000 ms (for the victims' timeout too)
 * @rate_limit_mbps: tierpol's promotion rate limit, MB/s
 * @block_pages: pages restored together after a fault, a power of two
 *	dividing @chunk_pages (default 16); at most 4096 with %TPRT_F_VICTIMS
 *	(a victim block is demoted in one move_pages(2) call)
 * @chunk_pages: the scanner's unit, and what a restore falls back to when
 *	the VMA budget is spent (default 512: 2 MiB, as the kernel's chunks)
 * @vma_cap: the most VMAs the runtime's protection may add; 0: half of
 *	what vm.max_map_count leaves at tprt_init()
 * @batch: pages per move_pages(2) call at most (default 256: each call
 *	pays lru_cache_disable(), an expedited RCU grace period and a drain
 *	on every CPU, before its first page)
 * @queue_pages: promotion queue capacity in pages, a power of two (default
 *	65536)
 * @mem_interval_ms: how often the fast node's free pages and watermarks
 *	are read from /proc/zoneinfo while promotions are queued (default
 *	100; else once a second)
 * @decide: &enum tprt_decide (default %TPRT_DECIDE_PAGE)
 * @clock: &enum tprt_clock (default %TPRT_CLOCK_CPU)
 * @defer_shift: with %TPRT_F_NO_DEFER cleared (it is in the default
 *	flags), a page refused for want of room on the fast node is kept
 *	for the migrator to move once a nudge has made room if its latency
 *	is at most @hot_threshold_ms / 2^@defer_shift (0 to 16, default 2;
 *	each one moved costs a demotion)
 * @sample_shift: with %TPRT_F_VICTIMS, a fast-node block is protected to
 *	sample its use in one sweep of 2^@sample_shift (0 to 8, default 2);
 *	a block found cold stays protected every sweep
 * @room_batches: a nudge also makes room for the pages refused for want
 *	of it since the last one, up to this many @batch (0 to 64; default
 *	0: room for the demotion target and a batch only, as kswapd makes
 *	when the kernel's promotion path wakes it). Each page of that room
 *	costs a demotion; with the fill measured again it buys no share
 *	(docs/RUNTIME-DEFAULTS.md, "The room a nudge makes")
 */
struct tprt_cfg {
	int fast_node;
	uint32_t flags;
	uint32_t scan_delay_ms;
	uint32_t scan_period_min_ms;
	uint32_t scan_period_max_ms;
	uint32_t scan_size_mb;
	uint32_t scan_cost_factor;
	uint32_t hot_threshold_ms;
	uint32_t rate_limit_mbps;
	uint32_t block_pages;
	uint32_t chunk_pages;
	uint32_t vma_cap;
	uint32_t batch;
	uint32_t queue_pages;
	uint32_t mem_interval_ms;
	uint32_t decide;
	uint32_t clock;
	uint32_t defer_shift;
	uint32_t sample_shift;
	uint32_t room_batches;
};

/**
 * Verdicts counted in &struct tprt_stats, one per decided fault: tierpol's,
 * in its order, then the runtime's own.
 */
enum tprt_verdict {
	TPRT_V_PROMOTE = 0,
	TPRT_V_PROMOTE_NRL,
	TPRT_V_REFUSE_MODE,
	TPRT_V_REFUSE_TOPTIER,
	TPRT_V_REFUSE_NOT_YOUNG,
	TPRT_V_REFUSE_COLD,
	TPRT_V_REFUSE_RATELIMIT,
	TPRT_V_REFUSE_NOSPACE,
	TPRT_V_REFUSE_BUSY,
	TPRT_V_ERROR,		/* tierpol refused the arguments */
	TPRT_V_SLOT_BUSY,	/* the shared last slot was in use: not decided */
	TPRT_NR_VERDICTS,
};

/** Why move_pages(2) did not put a page on the fast node (per-page status). */
enum tprt_move_fail {
	TPRT_MF_ENOENT = 0,	/* not present, or protected again */
	TPRT_MF_EBUSY,		/* busy (not requeued: a later fault may) */
	TPRT_MF_ENOMEM,		/* no room on the fast node */
	TPRT_MF_EACCES,		/* mapped by several processes */
	TPRT_MF_EFAULT,		/* no longer mapped */
	TPRT_MF_OTHER,		/* another status or a failed call */
	TPRT_NR_MOVE_FAIL,
};

/**
 * struct tprt_stats - what the runtime did (tprt_stats())
 * @faults: hint faults taken on registered memory
 * @faults_write: of those, write faults
 * @faults_stale: faults on a block already restored (another thread's
 *	fault, or one that raced an unregister, its restore failed or not):
 *	retried
 * @chained: faults passed to the previous handler
 * @restore_block: faults restored by one aligned block
 * @restore_chunk: restores that fell back to the whole chunk (VMA budget)
 * @restore_region: restores that fell back to the whole region
 * @restore_fail: restores that failed every way in a live region (the
 *	fault was chained)
 * @verdict: decisions by &enum tprt_verdict (a fault makes one, or two
 *	with %TPRT_DECIDE_PAGE: its page, the block's other slow pages)
 * @verdict_others: of those, the decisions of a block's other slow pages
 *	(%TPRT_DECIDE_PAGE's second decision), by verdict
 * @queued: pages pushed on the promotion queue
 * @queue_full: promotions dropped because the queue was full
 * @deferred: pages refused for want of room, kept on the deferred queue
 *	to be moved once a nudge has made room
 * @deferred_full: of those, pages dropped because that queue was full
 * @deferred_moved: pages taken off the deferred queue and moved (counted
 *	in @moved too)
 * @moved: pages move_pages(2) reported on the fast node
 * @move_calls: move_pages(2) calls
 * @move_fail: pages not moved, by &enum tprt_move_fail
 * @passes: scan passes
 * @passes_fill: of them, passes that scanned past @scan_size_mb while the
 *	fast node filled (%TPRT_F_SWEEP_FILL)
 * @seq: completed sweeps of the registered memory (numa_scan_seq)
 * @scan_period_ms: the current scan period
 * @scan_pages: pages whose node the scanner asked for
 * @blocks_protected: blocks protected by the scanner (all passes)
 * @scan_cpu_ns: the scanner's CPU time
 * @scan_query_ns: of which asking the pages' nodes
 * @scan_calls: system calls the scanner's protection made (mprotect(2)
 *	or UFFDIO_WRITEPROTECT), restores included
 * @scan_calls_wide: of them, those over more than 33 pages (x86 flushes
 *	the whole TLB for a range that large)
 * @vma_est: the runtime's bound on the VMAs its protection added
 * @vma_cap: the bound's cap
 * @nudges: allocations made on the fast node to wake kswapd
 * @nudge_pages: pages those allocations took
 * @mem_free: the fast node's free pages at the last snapshot
 * @pins: pages pinned now (tprt_pin())
 * @rechecks: blocks protected again by %TPRT_F_RECHECK
 * @recheck_full: blocks not protected again, the queue full
 * @sample_faults: hint faults on fast-node blocks protected as samples
 *	(%TPRT_F_VICTIMS); counted in @faults too, decide nothing
 * @victims_found: fast-node samples found untouched for
 *	@hot_threshold_ms / @block_pages (%TPRT_F_VICTIMS; each time)
 * @demoted: pages of cold blocks move_pages(2) put on the slow node
 * @demote_calls: move_pages(2) calls that demoted
 * @demote_fail: pages of cold blocks not moved
 * @tp_decided: tierpol's statistics of the fast node, in pages (a fault
 *	decides the pages it covers): pages decided
 * @tp_candidate: pages that passed the hotness check
 * @tp_promoted: pages with a verdict to promote
 * @tp_threshold_ms: tierpol's hot threshold now (the adaptive one)
 * @tp_th_raised: threshold raises
 * @tp_th_lowered: threshold reductions
 */
struct tprt_stats {
	uint64_t faults;
	uint64_t faults_write;
	uint64_t faults_stale;
	uint64_t chained;
	uint64_t restore_block;
	uint64_t restore_chunk;
	uint64_t restore_region;
	uint64_t restore_fail;
	uint64_t verdict[TPRT_NR_VERDICTS];
	uint64_t verdict_others[TPRT_NR_VERDICTS];
	uint64_t queued;
	uint64_t queue_full;
	uint64_t deferred;
	uint64_t deferred_full;
	uint64_t deferred_moved;
	uint64_t moved;
	uint64_t move_calls;
	uint64_t move_fail[TPRT_NR_MOVE_FAIL];
	uint64_t passes;
	uint64_t passes_fill;
	uint64_t seq;
	uint64_t scan_period_ms;
	uint64_t scan_pages;
	uint64_t blocks_protected;
	uint64_t scan_cpu_ns;
	uint64_t scan_query_ns;
	uint64_t scan_calls;
	uint64_t scan_calls_wide;
	uint64_t vma_est;
	uint64_t vma_cap;
	uint64_t nudges;
	uint64_t nudge_pages;
	uint64_t mem_free;
	uint64_t pins;
	uint64_t rechecks;
	uint64_t recheck_full;
	uint64_t sample_faults;
	uint64_t victims_found;
	uint64_t demoted;
	uint64_t demote_calls;
	uint64_t demote_fail;
	uint64_t tp_decided;
	uint64_t tp_candidate;
	uint64_t tp_promoted;
	uint64_t tp_threshold_ms;
	uint64_t tp_th_raised;
	uint64_t tp_th_lowered;
};

/**
 * tprt_cfg_default() - the default settings (the kernel's sysctl defaults)
 * @cfg: filled completely
 *
 * Context: Any thread.
 */
void tprt_cfg_default(struct tprt_cfg *cfg);

/**
 * tprt_init() - start the runtime
 * @cfg: settings; NULL for the defaults
 *
 * Installs the SIGSEGV and SIGBUS handlers (keeping the ones installed
 * before, to chain to), reads the topology and starts the scanner and
 * migrator threads, with every signal blocked but the synchronous ones (a
 * signal sent to the process goes to the program's threads). The
 * handlers stay installed after tprt_shutdown(), in pass-through mode.
 *
 * A SIGSEGV or SIGBUS handler the program installs after tprt_init()
 * replaces the runtime's: it must chain to the action it replaced (the
 * runtime's, the old action sigaction() gives it) for every fault it does
 * not handle itself, as crash reporters do; otherwise the runtime's hint
 * faults reach it instead, and an access to protected registered memory
 * faults again and again or is taken for a crash. A later tprt_init()
 * puts the runtime's handler back over it and chains to it.
 *
 * Context: Any thread, not concurrently with other tprt_* calls.
 * Return: 0; -EINVAL for bad settings, -ERANGE for a rate limit above
 * what tierpol's limiter takes, -EBUSY if the runtime already runs
 * (nothing is started or changed: tprt_stats() still reads the last run's
 * counters); -errno if a thread or a mapping cannot be made.
 */
int tprt_init(const struct tprt_cfg *cfg);

/**
 * tprt_register() - have a region placed by the runtime
 * @addr: page-aligned start
 * @len: length in bytes, a multiple of the page size
 * @source: &enum tprt_source
 *
 * The region must be mapped read-write, without exec, for its whole
 * length (each restore gives that back); the program must not change its
 * protection (mprotect, userfaultfd) nor unmap it before tprt_unregister();
 * a system call that reads or writes it must run between tprt_pin() and
 * tprt_unpin() (otherwise it may fail with EFAULT). Futex words (mutexes,
 * condition variables, semaphores) must not be in a region of the mprotect
 * source: glibc aborts when futex(2) gets EFAULT. A thread that touches
 * the region must not block the source's signal (SIGSEGV for mprotect,
 * SIGBUS for userfaultfd): the kernel kills the process then.
 *
 * Context: Any thread but a signal handler; serialized with the other
 * tprt_* calls except tprt_stats().
 * Return: 0; -EINVAL (unaligned, empty, overlapping a registered region,
 * unknown source, memory not read-write or with exec, or for userfaultfd
 * not private and anonymous); -EFAULT (part of the range not mapped);
 * -EBUSY (the program's own userfaultfd has the range); -ENOSPC
 * (%TPRT_MAX_REGIONS reached); -ENOSYS (no userfaultfd write-protect);
 * -ENOMEM (no memory for the region's state); -ESRCH (the runtime is not
 * running).
 */
int tprt_register(void *addr, size_t len, unsigned int source);

/**
 * tprt_unregister() - give a region back
 * @addr: the start given to tprt_register()
 *
 * Restores access to the whole region; pages already queued may still be
 * moved. Faults that raced it are retried, not passed on, also one whose
 * restore failed because the range was being given back (userfaultfd);
 * once it returns, the runtime never changes the range's protection
 * again, even when its slot is reused by a later tprt_register().
 *
 * Context: As tprt_register().
 * Return: 0, -ENOENT if no region starts at @addr, or -ESRCH if the
 * runtime is not running.
 */
int tprt_unregister(void *addr);

/**
 * tprt_pin() - make registered memory safe to hand to a system call
 * @addr: start (any alignment)
 * @len: length in bytes
 *
 * Restores access to the blocks covering the range and keeps the scanner
 * off them until as many tprt_unpin() calls. Use it around read(2),
 * write(2) and any call the kernel makes access the memory: the kernel's
 * own accesses to a protected page fail with EFAULT instead of faulting.
 * Pins nest (a count per block, up to 65535). Memory outside registered
 * regions is ignored.
 *
 * Context: As tprt_register(); not from a signal handler.
 * Return: 0; -EINVAL for an empty or wrapping range; -EOVERFLOW if a
 * block's count is full (nothing is pinned then).
 */
int tprt_pin(const void *addr, size_t len);

/**
 * tprt_unpin() - undo one tprt_pin() of the same range
 * @addr: start
 * @len: length in bytes
 *
 * Context: As tprt_pin().
 * Return: 0, or -EINVAL if a block of the range is not pinned (nothing is
 * changed then).
 */
int tprt_unpin(const void *addr, size_t len);

/**
 * tprt_stats() - a snapshot of the runtime's counters
 * @s: filled completely (zeros if the runtime never ran)
 *
 * Context: Any thread, concurrently with everything but tprt_init();
 * counters are read one by one, not as one instant.
 */
void tprt_stats(struct tprt_stats *s);

/**
 * tprt_scan_now() - run one scan pass on the calling thread
 *
 * For programs and tests that started the runtime with
 * %TPRT_F_NO_SCANNER: protects as the scanner thread would, ignoring the
 * scan period.
 *
 * Context: As tprt_register().
 * Return: blocks protected, or -ESRCH (not running) or -EBUSY (the
 * scanner thread runs).
 */
int tprt_scan_now(void);

/**
 * tprt_shutdown() - stop the runtime
 *
 * Stops the scanner, unregisters every region (restoring access), waits
 * for the handlers in flight, then stops the migrator (queued pages are
 * dropped). Threads may keep faulting on the memory meanwhile.
 *
 * Context: As tprt_register().
 * Return: 0, or -ESRCH if the runtime is not running.
 */
int tprt_shutdown(void);

/**
 * tprt_page_nodes() - the nodes a process's pages are on
 * @pid: the process; 0 for the calling one
 * @addr: the first page (rounded down to a page)
 * @n: pages
 * @nodes: filled with each page's node, or -ENOENT (not present)
 *
 * Reads /proc/PID/pagemap, which needs CAP_SYS_ADMIN for frame numbers;
 * unlike move_pages(2) it also answers for pages the runtime (or the
 * kernel's NUMA balancing) has made inaccessible. The memory blocks' nodes
 * are read from sysfs at the first call: memory onlined later (a CXL
 * device brought up after it) reads as not present.
 *
 * Context: Any thread but a signal handler.
 * Return: 0; -EPERM without the capability; -ENOENT without the sysfs
 * memory blocks; -errno if the pagemap cannot be read.
 */
int tprt_page_nodes(int pid, const void *addr, size_t n, int *nodes);

/**
 * tprt_verdict_name() - a verdict's name
 * @v: &enum tprt_verdict
 *
 * Context: Any.
 * Return: a static string: tierpol's name for its verdicts
 * (tp_verdict_name(): "promote", "refuse-cold", ...), "error" and
 * "slot-busy" for the runtime's own, "?" for an unknown value.
 */
const char *tprt_verdict_name(unsigned int v);

/**
 * tprt_move_fail_name() - a move failure's name
 * @r: &enum tprt_move_fail
 *
 * Context: Any.
 * Return: a static string ("?" for an unknown value).
 */
const char *tprt_move_fail_name(unsigned int r);

#ifdef __cplusplus
}
#endif

#endif /* TPRT_H */
