/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * tprt internals: the runtime's state, shared by its files and its tests
 * (tests/runtime/). Not installed, not part of the API.
 *
 * Who touches what:
 *   handlers (any thread, signal context): region lookup, block bits, the
 *	VMA estimate, the tierpol adapter's decision, the queue's producer
 *	side, their thread's slot. No lock, no allocation.
 *   scanner thread: the scan state under scan_lock, protection under
 *	prot_lock, the adapter's ring writer side.
 *   migrator thread: the queue's consumer side, the memory snapshot's
 *	writer side, the kswapd nudge, the scan period (under scan_lock),
 *	the demotion of cold blocks (their restore under prot_lock).
 *   API calls (normal context): registration and pins under prot_lock.
 */
#ifndef TPRT_IMPL_H
#define TPRT_IMPL_H

#include <pthread.h>
#include <stdalign.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "tprt.h"

#define TPRT_CACHELINE		64
#define TPRT_NS_PER_MS		1000000ULL
#define TPRT_NS_PER_SEC		1000000000ULL
/* The address space's end for the scan ring: x86-64's TASK_SIZE. */
#define TPRT_ADDR_LIMIT		(1ULL << 47)
/*
 * Faults in a row on one address whose block is open: past this many the
 * fault is not the runtime's (the scanner re-protecting the block between
 * each retry and the next access this often does not happen).
 */
#define TPRT_STALE_MAX		64
/* move_pages(2)'s MPOL_MF_MOVE (<numaif.h> is libnuma's, not libc's). */
#define MPOL_MF_MOVE_		(1 << 1)
/* Capacity of the deferred queue (pages refused for want of room). */
#define TPRT_DEFER_PAGES	8192
/*
 * Pages a TLB flush of a range covers one by one at most: x86's
 * tlb_single_page_flush_ceiling; a wider range flushes the whole TLB.
 * Counted only (tprt_stats.scan_calls_wide).
 */
#define TPRT_FLUSH_CEILING	33

/* Region states. */
enum {
	TPRT_R_FREE = 0,	/* never used, arrays unmapped */
	TPRT_R_LIVE,		/* registered */
	TPRT_R_DYING,		/* being unregistered: faults still ours */
	TPRT_R_DEAD,		/* unregistered: a fault in it is retried once */
};

/* Per-block state bits (struct tprt_region.blk). */
#define TPRT_BLK_PROT		0x1U	/* protected by the scanner */
#define TPRT_BLK_FRESH		0x2U	/* newly protected: stamp it */
/* A fast-node block protected to see whether it is used (TPRT_F_VICTIMS). */
#define TPRT_BLK_SAMPLE		0x4U
/* What a restore clears. */
#define TPRT_BLK_STATE		(TPRT_BLK_PROT | TPRT_BLK_FRESH | \
				 TPRT_BLK_SAMPLE)
/*
 * A sample found untouched for cold_ns: a block to demote. A measurement,
 * so a later touch (a restore) keeps it; the scanner clears it when it
 * samples the block again or the block leaves the fast node.
 */
#define TPRT_BLK_VICTIM		0x8U
/* Queued to be protected again (TPRT_F_RECHECK); the scanner's visit clears. */
#define TPRT_BLK_RECHECK	0x10U
/* Capacity of the queue of blocks to protect again. */
#define TPRT_RECHECK_BLOCKS	4096
/* Victim pages demoted by one call at most (one move_pages(2) call). */
#define TPRT_VICTIM_MAX		4096

/**
 * struct tprt_region - one registered region
 * @state: TPRT_R_*; LIVE is published with release order after the rest
 * @gen: which registration holds the slot (never 0, never reused, even
 *	across tprt_init()): a handler checks it to know the slot still holds
 *	the region it found, not a new one registered in the slot since
 * @source: &enum tprt_source
 * @broken: restoring by blocks failed; the scanner leaves it alone
 * @start: first byte
 * @end: last byte + 1
 * @npages: pages
 * @nblocks: blocks of cfg.block_pages
 * @nchunks: chunks of cfg.chunk_pages (the last ones may be short)
 * @slow: a bit per page: on a slow node at the last scan
 * @blk: a byte per block: TPRT_BLK_* bits
 * @pin: a pin count per block
 * @chunk_est: per chunk, a bound on the VMAs that start inside it
 * @stamp: per block, when the scanner protected it (tierpol's access-time
 *	stamp, as 6.1 stamps each page it marks; the fault swaps in its time)
 * @arrays: the mapping holding @slow .. @stamp
 * @arrays_len: its length
 */
struct tprt_region {
	_Atomic int state;
	_Atomic uint64_t gen;
	unsigned int source;
	_Atomic int broken;
	_Atomic uintptr_t start;
	_Atomic uintptr_t end;
	uint64_t npages;
	uint64_t nblocks;
	uint64_t nchunks;
	_Atomic uint64_t *slow;
	_Atomic uint8_t *blk;
	_Atomic uint16_t *pin;
	_Atomic uint32_t *chunk_est;
	uint32_t *stamp;
	void *arrays;
	size_t arrays_len;
};

/*
 * A thread's counters. One slot per thread (TPRT_MAX_SLOTS, the last one
 * shared by any more threads), so the handler's counters stay in the
 * thread's own cache lines; the adapter keeps tierpol's per-thread struct
 * tp_node_cpu of slot i at the same index. Relaxed atomics: the shared
 * slot, and tprt_stats() reading while threads count.
 */
struct tprt_slot {
	_Atomic uint64_t faults;
	_Atomic uint64_t faults_write;
	_Atomic uint64_t faults_stale;
	_Atomic uint64_t chained;
	_Atomic uint64_t restore_block;
	_Atomic uint64_t restore_chunk;
	_Atomic uint64_t restore_region;
	_Atomic uint64_t restore_fail;
	_Atomic uint64_t verdict[TPRT_NR_VERDICTS];
	_Atomic uint64_t verdict_others[TPRT_NR_VERDICTS];
	_Atomic uint64_t queued;
	_Atomic uint64_t queue_full;
	_Atomic uint64_t deferred;
	_Atomic uint64_t deferred_full;
	_Atomic uint64_t sample_faults;
} __attribute__((aligned(TPRT_CACHELINE)));

/*
 * The fast node's memory, in pages (tierpol's struct tp_node_mem): the
 * zone with the most room (tprt_mem_sample()). @wake, @slack and @spare are
 * for a kswapd nudge, filled by tprt_mem_sample() only (0 from the
 * snapshot): @spare is the free pages above their high watermarks of the
 * other nodes, where demotions land.
 */
struct tprt_mem {
	uint64_t free;
	uint64_t wmark_min;
	uint64_t wmark_low;
	uint64_t wmark_high;
	uint64_t wmark_promo;
	uint64_t present;
	uint64_t wake;
	uint64_t slack;
	uint64_t spare;
};

#define TPRT_MEM_FIELDS	6

/*
 * The fast node is still filling: its free pages more than a sixteenth of
 * it above the promotion watermark (6.1's margin of
 * pgdat_free_space_enough() without the 1 GiB floor). Any context.
 */
static inline bool tprt_mem_filling(const struct tprt_mem *m)
{
	return m->free > m->wmark_promo + (m->present >> 4);
}

/*
 * The memory snapshot: one writer (the migrator), readers in handlers.
 * A latch (two copies, the sequence picks one): a reader never waits for
 * the writer, and retries a bounded number of times. Each copy holds the
 * memory and, last, @done as it was before the memory was read: the pages
 * pushed since (@pushed less it) are queued, or moved after the snapshot
 * was taken, and come off the free count handlers see.
 */
struct tprt_memsnap {
	_Atomic uint32_t seq;
	_Atomic uint64_t copy[2][TPRT_MEM_FIELDS + 1];
	/* pages pushed on the promotion queue, ever */
	_Atomic uint64_t pushed;
	/* pages the migrator has taken off the queue and handled, ever */
	_Atomic uint64_t done;
};

/* Bounded lock-free queue of page addresses (many producers, one consumer). */
struct tprt_cell {
	_Atomic uint64_t seq;
	uintptr_t addr;
};

struct tprt_queue {
	struct tprt_cell *cell;
	uint64_t mask;
	alignas(TPRT_CACHELINE) _Atomic uint64_t tail;	/* producers */
	alignas(TPRT_CACHELINE) _Atomic uint64_t head;	/* the consumer */
};

/* Test seams: replace the node query (one-node machines), the clock. */
struct tprt_hooks {
	/* As move_pages(2) with nodes NULL: status[i] = node or -errno. */
	int (*node_query)(void *const *pages, int *status, size_t n);
	/* Monotonic ns; called from handlers too. */
	uint64_t (*now)(void);
	/* As move_pages(2) with nodes (demotions only): 0 or -errno. */
	int (*move)(void *const *pages, const int *nodes, int *status,
		    size_t n);
};

struct tprt_tp;		/* the tierpol adapter's state (tprt_tierpol.c) */

/* Blocks [b0, b1) of a region the scanner will give protection @prot. */
struct tprt_run {
	struct tprt_region *r;
	uint64_t b0;
	uint64_t b1;
	bool prot;
};

/**
 * struct tprt_rt - the process's runtime
 */
struct tprt_rt {
	struct tprt_cfg cfg;
	_Atomic int running;
	int fast_node;
	unsigned int page_shift;
	size_t page_size;

	struct tprt_region region[TPRT_MAX_REGIONS];
	pthread_mutex_t prot_lock;	/* scanner vs pin/unpin/register */

	/* the scanner and the scan period (task_numa_work()) */
	pthread_t scanner;
	bool scanner_started;
	pthread_mutex_t scan_lock;
	pthread_cond_t scan_cond;
	bool scan_stop;
	uintptr_t cursor;		/* where the next chunk starts */
	_Atomic uint32_t period_ms;	/* numa_scan_period */
	bool stamped;
	uint64_t node_stamp;		/* ns */
	uint64_t next_scan;		/* ns, mm->numa_next_scan */
	uint64_t placement_seq;		/* p->numa_scan_seq */
	uint64_t migrate_retry;		/* ns */
	struct tprt_run pend;		/* the scanner's pending run */
	int *qstatus;			/* scanner buffers, chunk_pages each */
	void **qpages;
	bool *qwant;
	bool *qfast;
	/* a slow node a page was last seen on: where victims go; -1 none */
	_Atomic int slow_node;
	/* the victim walk's position: region index, block */
	int vic_region;
	uint64_t vic_block;
	/* a sample untouched this long is a victim (the latency clock, ns) */
	uint64_t cold_ns;

	/* the migrator */
	pthread_t migrator;
	bool migrator_started;
	_Atomic uint32_t mig_futex;
	_Atomic int mig_stop;
	/* pages refused for want of room since the last nudge */
	_Atomic uint64_t want_demote;
	struct tprt_queue q;
	/* pages refused for want of room, moved after a nudge */
	struct tprt_queue dq;
	/* blocks to protect again (TPRT_F_RECHECK): their first page */
	struct tprt_queue rq;
	_Atomic uint64_t rechecks, recheck_full;
	uint64_t defer_lat;		/* latency a deferred page beats */
	_Atomic uint64_t deferred_moved;
	struct tprt_memsnap mem;
	uint64_t nudge_at;		/* ns of the last nudge */
	uint32_t zone_scale;		/* vm.watermark_scale_factor */

	/* VMAs added by protection (mprotect source) */
	_Atomic uint64_t vma_total;
	uint64_t vma_cap;

	int uffd;			/* -1 until a uffd region registers */

	struct tprt_tp *tp;

	/* counters of the threads; slots claimed in order */
	_Atomic uint32_t nr_slots;
	_Atomic uint64_t passes, passes_fill, seq, scan_pages, blocks_protected;
	_Atomic uint64_t scan_cpu_ns;
	_Atomic uint64_t scan_query_ns, scan_calls, scan_calls_wide;
	_Atomic uint64_t moved, move_calls, move_fail[TPRT_NR_MOVE_FAIL];
	_Atomic uint64_t nudges, nudge_pages, pins;
	_Atomic uint64_t victims_found, demoted, demote_calls, demote_fail;

	struct tprt_hooks hooks;
	struct tprt_slot slot[TPRT_MAX_SLOTS];
};

/* Page @p of @r was on a slow node at the last scan (any context). */
static inline bool tprt_slow_page(const struct tprt_region *r, uint64_t p)
{
	return (atomic_load_explicit(&r->slow[p / 64], memory_order_relaxed) >>
		(p % 64)) & 1;
}

/* The slow pages of [p0, p1) of @r but page @skip (any context). */
static inline uint32_t tprt_count_slow(const struct tprt_region *r,
				       uint64_t p0, uint64_t p1, uint64_t skip)
{
	uint32_t nr = 0;

	for (; p0 < p1; p0++)
		nr += p0 != skip && tprt_slow_page(r, p0);
	return nr;
}

/*
 * The one runtime of the process (NULL before the first tprt_init()).
 * tprt_init() stores it with release, the handler and tprt_now_ns() load it
 * with acquire; the calls serialized with tprt_init() read it plainly.
 */
extern struct tprt_rt *tprt_rt;
/* Handlers running now; outside the runtime, which a restart clears. */
extern _Atomic uint64_t tprt_inflight;
/* Regions retired so far (unregistered, shut down): see tprt_fault.c gone(). */
extern _Atomic uint64_t tprt_retired;
/* Bumped by every tprt_init(): a thread's slot is claimed again after it. */
extern _Atomic uint32_t tprt_gen;

/* ---- tprt_cfg.c: the settings ---- */
/*
 * 0, or -EINVAL for bad settings (a fast node without memory too), -EINVAL
 * or -ERANGE for settings tierpol refuses (tprt_tp_check()).
 */
int tprt_cfg_check(const struct tprt_cfg *c);
/* The fast node and the VMA cap in force (their 0 and -1 resolved). */
int tprt_cfg_fast_node(const struct tprt_cfg *c);
uint64_t tprt_cfg_vma_cap(const struct tprt_cfg *c);

/* ---- tprt_core.c ---- */
uint64_t tprt_now_ns(void);
/* The latency clock (cfg.clock), ns; the test clock when one is set. */
uint64_t tprt_lat_now(const struct tprt_rt *rt);
struct tprt_region *tprt_region_of(struct tprt_rt *rt, uintptr_t addr,
				   bool dead);
/* The same, and the region's generation (struct tprt_region.gen). */
struct tprt_region *tprt_region_find(struct tprt_rt *rt, uintptr_t addr,
				     bool dead, uint64_t *gen);
/* Test seams for the next tprt_init() (before it: its threads read them). */
void tprt_set_hooks(const struct tprt_hooks *h);

/* ---- tprt_fault.c: the handler's logic ---- */
enum tprt_fault_kind {
	TPRT_K_ACCERR = 0,	/* SIGSEGV, SEGV_ACCERR */
	TPRT_K_UFFD,		/* SIGBUS, BUS_ADRERR */
	TPRT_K_OTHER,		/* anything else: never ours */
};

enum tprt_fault_res {
	TPRT_FR_HANDLED = 0,	/* ours: decided */
	TPRT_FR_RETRY,		/* ours but stale: retry the access */
	TPRT_FR_NOT_OURS,	/* chain to the previous handler */
};

struct tprt_slot *tprt_my_slot(struct tprt_rt *rt);
int tprt_fault(struct tprt_rt *rt, uintptr_t addr, unsigned int kind,
	       bool write, uint64_t now);
/* Its part after the lookup found @r at generation @gen (tests call it). */
int tprt_fault_at(struct tprt_rt *rt, struct tprt_region *r, uint64_t gen,
		  uintptr_t addr, unsigned int kind, bool write, uint64_t now);
int tprt_restore_blocks(struct tprt_rt *rt, struct tprt_region *r,
			uint64_t b0, uint64_t b1);
void tprt_est_set(struct tprt_rt *rt, struct tprt_region *r, uint64_t c,
		  uint32_t val);
int tprt_uffd_wp(struct tprt_rt *rt, uintptr_t start, size_t len, bool wp);

/* ---- tprt_signal.c ---- */
int tprt_signal_install(void);
int tprt_thread_create(pthread_t *t, void *(*fn)(void *), void *arg,
		       const char *name);

/* ---- tprt_scan.c ---- */
int tprt_scan_start(struct tprt_rt *rt);
void tprt_scan_stop(struct tprt_rt *rt);
void tprt_scan_free(struct tprt_rt *rt);
int tprt_scan_pass(struct tprt_rt *rt);
void tprt_scan_placement(struct tprt_rt *rt, uint64_t now);
int tprt_apply_blocks(struct tprt_rt *rt, struct tprt_region *r, uint64_t c,
		      const bool *want, bool full);
int tprt_protect_again(struct tprt_rt *rt, uintptr_t addr);

/* ---- tprt_migrate.c ---- */
int tprt_queue_init(struct tprt_queue *q, uint32_t cap);
void tprt_queue_free(struct tprt_queue *q);
int tprt_queue_push(struct tprt_queue *q, uintptr_t addr);
size_t tprt_queue_pop(struct tprt_queue *q, uintptr_t *out, size_t max);
uint64_t tprt_queue_len(struct tprt_queue *q);
void tprt_mem_read(struct tprt_rt *rt, struct tprt_mem *m);
void tprt_mem_publish(struct tprt_rt *rt, const struct tprt_mem *m,
		      uint64_t done);
int tprt_mem_sample(struct tprt_rt *rt, struct tprt_mem *m);
/* The same from zoneinfo text (tests). */
int tprt_zoneinfo_parse(FILE *f, int node, uint32_t scale,
			struct tprt_mem *m);
int tprt_migrate_start(struct tprt_rt *rt);
void tprt_migrate_stop(struct tprt_rt *rt);
size_t tprt_migrate_batch(struct tprt_rt *rt);
void tprt_migrate_deferred(struct tprt_rt *rt);
uint64_t tprt_nudge_pages(const struct tprt_mem *m, uint64_t target,
			  uint64_t demand, uint64_t cap);
uint64_t tprt_room_cap(const struct tprt_cfg *c, const struct tprt_mem *m);
void tprt_migrate_kick(struct tprt_rt *rt, uint32_t n);
void tprt_make_room(struct tprt_rt *rt, uint64_t now);
size_t tprt_recheck(struct tprt_rt *rt);

/* ---- tprt_victim.c: cold fast-node blocks (TPRT_F_VICTIMS) ---- */
bool tprt_victim_mark(struct tprt_rt *rt, struct tprt_region *r, uint64_t b,
		      bool fast);
uint64_t tprt_victim_check(struct tprt_rt *rt);
void tprt_victim_after_pass(struct tprt_rt *rt);
uint64_t tprt_victim_demote(struct tprt_rt *rt, uint64_t want);
uint64_t tprt_victim_room(const struct tprt_mem *m, uint64_t target);

/* ---- tprt_tierpol.c: every tierpol call of the runtime ---- */
int tprt_tp_check(const struct tprt_cfg *cfg, unsigned int page_shift);
int tprt_tp_init(struct tprt_rt *rt, uint64_t now);
void tprt_tp_free(struct tprt_rt *rt);
void tprt_tp_pass_begin(struct tprt_tp *tp, uintptr_t start, uint64_t now);
void tprt_tp_pass_advance(struct tprt_tp *tp, uintptr_t end);
void tprt_tp_pass_wrap(struct tprt_tp *tp);
/* A latency the ring has no record of. */
#define TPRT_LAT_UNKNOWN	UINT64_MAX
uint64_t tprt_tp_latency(struct tprt_tp *tp, uintptr_t addr, uint64_t now);
void tprt_tp_stamp(struct tprt_tp *tp, uint32_t *stamp, uint64_t now);
uint64_t tprt_tp_stamp_fault(struct tprt_tp *tp, uint32_t *stamp,
			     uint64_t now);
uint64_t tprt_tp_stamp_age(struct tprt_tp *tp, const uint32_t *stamp,
			   uint64_t now);
int tprt_tp_decide(struct tprt_tp *tp, uint32_t si, uint64_t lat, bool write,
		   uint32_t nr_slow, const struct tprt_mem *mem, uint64_t now);
void tprt_tp_stats(struct tprt_tp *tp, uint32_t nr_slots,
		   struct tprt_stats *s);
const char *tprt_tp_verdict_name(unsigned int v);
uint64_t tprt_tp_wmark_promo(uint64_t min, uint64_t high, uint64_t managed,
			     uint32_t scale);
uint64_t tprt_tp_demotion_target(struct tprt_tp *tp,
				 const struct tprt_mem *mem);

#endif /* TPRT_IMPL_H */
