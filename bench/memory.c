// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Section "memory": the size of every state object, and the cache lines a
 * decision touches on each path: the lines it reads, derived from the
 * fields lib/decide.c reads (by offsetof), and the lines it writes,
 * measured by comparing the policy, the node and the caller's slot byte by
 * byte before and after each call.
 */
#include <stdio.h>
#include <string.h>

#include "bench.h"

#define LINE		TP_CACHELINE_BYTES
#define LINES(sz)	(((sz) + LINE - 1) / LINE)
#define MAX_LINES	8U

static void mem_row(const char *name, size_t size, const char *what)
{
	printf("  %-40s %5zu B  %2zu line%s  %s\n", name, size, LINES(size),
	       LINES(size) == 1 ? " " : "s", what);
	mdf("| %s | %zu | %zu | %s |\n", name, size, LINES(size), what);
}

static void mem_sizes(void)
{
	mdf("\n**memory**: sizeof, and 64-byte cache lines when 64-byte aligned\n\n");
	mdf("| object | bytes | lines | note |\n|---|---|---|---|\n");
	mem_row("struct tp_scan_ring (header)", sizeof(struct tp_scan_ring),
		"seq, mask, nr, offset, run, prev_run, limit, pass pointer");
	mem_row("struct tp_scan_pass x 16", 16 * sizeof(struct tp_scan_pass),
		"caller-owned array (align it to 64)");
	mem_row("ring + 16 passes", sizeof(struct tp_scan_ring) +
		16 * sizeof(struct tp_scan_pass), "if laid out contiguously");
	mem_row("RFC: mm idx + offset + 2 x 16 longs", sizeof(struct bl_mm) -
		sizeof(int), "numa_scan_idx/offset/jiffies[16]/starts[16]");
	mem_row("struct tp_atime (format)", sizeof(struct tp_atime), "read-only");
	mem_row("page stamp", sizeof(u32), "per page, caller-owned");
	mem_row("struct tp_limiter", sizeof(struct tp_limiter),
		"state + count + settings latch (2 copies)");
	mem_row("struct tp_limiter_cpu", sizeof(struct tp_limiter_cpu),
		"per CPU (or thread) and limiter");
	mem_row("baseline: mutex bucket", offsetof(struct bl_bucket, last) +
		sizeof(unsigned long), "pthread_mutex_t + 5 longs");
	mem_row("struct tp_thresh", sizeof(struct tp_thresh),
		"state + settings latch (2 copies)");
	mem_row("struct tp_node", sizeof(struct tp_node),
		"per target node: limiter, candidates, controller");
	mem_row("struct tp_node_cpu", sizeof(struct tp_node_cpu),
		"per CPU (or thread) and node: candidates, verdicts");
	mem_row("struct tp_policy", sizeof(struct tp_policy),
		"shared, read-mostly: latch + 2 copies of the settings");
	mem_row("baseline: struct bl_pgdat", sizeof(struct bl_pgdat),
		"the pglist_data fields of both kernels");
	mem_row("baseline: struct bl_pcp", sizeof(struct bl_pcp),
		"per CPU: vmstat diff + event counts");
	mem_row("struct tp_node_mem", sizeof(struct tp_node_mem), "caller's input");
	mem_row("struct tp_fault", sizeof(struct tp_fault), "caller's input");
	mem_row("struct tp_vma_scan", sizeof(struct tp_vma_scan), "per VMA");
	mem_row("struct tp_vma_profile", sizeof(struct tp_vma_profile), "shared");
	mem_row("struct tp_vma_facts", sizeof(struct tp_vma_facts), "caller's input");

	target(LINES(16 * sizeof(struct tp_scan_pass)) <= 4,
	       "ring of 16 entries <= 4 cache lines: %zu B = %zu lines (+ %zu B header)",
	       16 * sizeof(struct tp_scan_pass),
	       LINES(16 * sizeof(struct tp_scan_pass)),
	       sizeof(struct tp_scan_ring));
}

/* ---- lines read: derived ----------------------------------------------- */

/** struct fld - a field a decision path reads, as an offset in its object */
struct fld {
	const char *name;
	size_t off;
};

#define FLD_END		{ NULL, 0 }
#define NODE_F(m)	{ #m, offsetof(struct tp_node, m) }
/* tp_decide() reads the copy the latch names: set[0] after init. */
#define POL_F(m)	{ #m, offsetof(struct tp_policy, m) }
#define SET_F(m)	{ "set." #m, offsetof(struct tp_policy, set[0].m) }

/* A mask of the lines of a 64-byte aligned object that @f touches. */
static unsigned int fld_lines(const struct fld *f)
{
	unsigned int mask = 0;

	for (; f && f->name; f++)
		mask |= 1U << (f->off / LINE);
	return mask;
}

/* "n: a,b" for a mask of lines. */
static unsigned int mask_str(unsigned int mask, char *buf, size_t len)
{
	unsigned int l, n = 0;
	size_t off = 0;

	buf[0] = 0;
	for (l = 0; l < MAX_LINES; l++) {
		if (!(mask & (1U << l)))
			continue;
		n++;
		off += (size_t)snprintf(buf + off, len - off, "%s%u",
					off ? "," : "", l);
	}
	if (!n)
		snprintf(buf, len, "-");
	return n;
}

/* ---- lines written: measured ------------------------------------------- */

/** struct wset - how often each line of an object was written */
struct wset {
	u64 calls;
	u64 line[MAX_LINES];	/* calls that wrote the line */
	u64 any;		/* calls that wrote any line */
};

static void wset_diff(struct wset *w, const void *before, const void *after,
		      size_t size)
{
	const unsigned char *a = before, *b = after;
	unsigned int mask = 0, l;
	size_t i;

	for (i = 0; i < size; i++) {
		if (a[i] != b[i])
			mask |= 1U << (i / LINE);
	}
	for (l = 0; l < MAX_LINES; l++)
		w->line[l] += !!(mask & (1U << l));
	w->any += !!mask;
	w->calls++;
}

/* "0 100%, 1 3.1%" */
static void wset_str(const struct wset *w, char *buf, size_t len)
{
	unsigned int l;
	size_t off = 0;

	buf[0] = 0;
	for (l = 0; l < MAX_LINES; l++) {
		if (!w->line[l])
			continue;
		off += (size_t)snprintf(buf + off, len - off, "%s%u: %.1f%%",
					off ? ", " : "", l,
					100.0 * (double)w->line[l] /
					(double)w->calls);
	}
	if (!off)
		snprintf(buf, len, "none");
}

#define WSET_CALLS	8192U

/*
 * Decide WSET_CALLS times on the set-up's first caller, continuing its
 * clock, comparing the policy, the node and the slot around every call.
 */
static void measure_writes(struct dec_setup *d, struct wset *pol,
			   struct wset *node, struct wset *cpu)
{
	static struct tp_policy p0;
	static struct tp_node n0;
	static struct tp_node_cpu c0;
	struct decide_ctx *c = &d->c[0];
	u64 i;

	memset(pol, 0, sizeof(*pol));
	memset(node, 0, sizeof(*node));
	memset(cpu, 0, sizeof(*cpu));
	for (i = 0; i < WSET_CALLS; i++) {
		memcpy(&p0, d->pol, sizeof(p0));
		memcpy(&n0, d->node, sizeof(n0));
		memcpy(&c0, c->cpu, sizeof(c0));
		tp_decide(d->pol, d->node, c->cpu, &c->f[i & TBL_MASK], c->mem,
			  c->now + (i >> c->shift));
		wset_diff(pol, &p0, d->pol, sizeof(p0));
		wset_diff(node, &n0, d->node, sizeof(n0));
		wset_diff(cpu, &c0, c->cpu, sizeof(c0));
	}
}

/* ---- the section ------------------------------------------------------- */

void bench_memory(void)
{
	/*
	 * What every preset path reads: the latch, which specialised
	 * decision applies, the rate and the bypass margin.
	 */
#define POL_COMMON	POL_F(latch), SET_F(fast), SET_F(lim.limit), \
			SET_F(bypass_min)
	/* What a candidate reads on top of it. */
#define POL_CAND	POL_COMMON, SET_F(lim.batch), SET_F(th.period), \
			SET_F(th.ref_th), SET_F(th.unit), SET_F(th.max), \
			POL_F(tps)
	static const struct fld pol_bypass[] = { POL_COMMON, FLD_END };
	static const struct fld pol_cand[] = { POL_CAND, FLD_END };
	static const struct fld node_th[] = {
		NODE_F(th.start), NODE_F(th.th), FLD_END,
	};
	static const struct fld node_cand[] = {
		NODE_F(th.start), NODE_F(th.th), NODE_F(cand),
		NODE_F(lim.start), NODE_F(lim.base), FLD_END,
	};
	static const struct fld node_forget[] = { NODE_F(th.th), FLD_END };
	static const struct {
		const char *name;
		struct dec_case dc;
		const struct fld *pol, *node;
		bool cold;	/* latencies above the threshold */
	} paths[] = {
		{ "RFC: bypass -> PROMOTE_NRL", DEC_RFC_BYPASS,
		  pol_bypass, NULL, false },
		{ "RFC: full -> PROMOTE", DEC_RFC_ADMIT, pol_cand, node_cand, false },
		{ "RFC: full -> RATELIMIT", DEC_RFC_LIMIT, pol_cand, node_cand, false },
		{ "RFC: full -> COLD", DEC_RFC_ADMIT, pol_cand, node_th, true },
		{ "6.1: bypass -> PROMOTE_NRL", DEC_61_BYPASS,
		  pol_bypass, node_forget, false },
		{ "6.1: full -> PROMOTE", DEC_61_ADMIT, pol_cand, node_cand, false },
		{ "6.1: full -> RATELIMIT", DEC_61_LIMIT, pol_cand, node_cand, false },
		{ "6.1: full -> COLD", DEC_61_ADMIT, pol_cand, node_th, true },
	};
	struct dec_setup d;
	struct wset wp, wn, wc;
	char a[32], b[32], c[96], e[96];
	unsigned int n, worst_read = 0;
	double node_rate, worst_rate = 0;
	const char *worst_read_name = "", *worst_rate_name = "";
	bool slot_only = true, pol_clean = true;
	size_t k;
	u32 j;

	if (!section_plain("memory", "sizeof, and 64-byte lines if the object is 64-byte aligned"))
		return;
	mem_sizes();

	printf("\n== cache lines per decision path: tp_policy (%zu B), tp_node (%zu B), the caller's tp_node_cpu (%zu B), each 64-byte aligned\n",
	       sizeof(struct tp_policy), sizeof(struct tp_node),
	       sizeof(struct tp_node_cpu));
	printf("   read (derived from the fields lib/decide.c reads); written (measured over %u calls: the share of calls that wrote each line)\n",
	       WSET_CALLS);
	printf("  %-28s %-12s %-12s %-24s %s\n", "path", "policy read",
	       "node read", "node written", "slot written");
	mdf("\n**cache lines per decision path** (tp_policy, tp_node and the caller's tp_node_cpu 64-byte aligned; lines read derived from offsetof of the fields lib/decide.c reads; lines written measured by comparing the objects byte by byte around each of %u calls: the share of calls that wrote each line)\n\n",
	    WSET_CALLS);
	mdf("| path | policy lines read | node lines read | node lines written | slot lines written |\n|---|---|---|---|---|\n");
	dec_alloc(&d);
	for (k = 0; k < ARRAY_SIZE(paths); k++) {
		mask_str(fld_lines(paths[k].pol), a, sizeof(a));
		n = mask_str(fld_lines(paths[k].node), b, sizeof(b));
		dec_init(&d, &paths[k].dc);
		for (j = 0; paths[k].cold && j < TBL; j++)
			d.f[j].latency = 5000 + rnd() % 1000;	/* > 2 x 2000 ms */
		/* warm up into the path's steady state */
		sink += lib_decide(&d.c[0], 100000);
		measure_writes(&d, &wp, &wn, &wc);
		wset_str(&wn, c, sizeof(c));
		wset_str(&wc, e, sizeof(e));
		printf("  %-28s %-12s %-12s %-24s %s\n", paths[k].name, a, b,
		       c, e);
		mdf("| %s | %s | %s | %s | %s |\n", paths[k].name, a, b, c, e);
		if (n > worst_read) {
			worst_read = n;
			worst_read_name = paths[k].name;
		}
		node_rate = (double)wn.any / (double)wn.calls;
		if (node_rate >= worst_rate) {
			worst_rate = node_rate;
			worst_rate_name = paths[k].name;
		}
		if (wc.any != wc.calls)
			slot_only = false;
		if (wp.any)
			pol_clean = false;
	}
	target(worst_read <= 2,
	       "per-node state read <= 2 cache lines on every decision path: worst %u (%s)",
	       worst_read, worst_read_name);
	target(slot_only && pol_clean && worst_rate <= 1.0 / 16,
	       "a decision writes its per-CPU slot, the node in <= 1 call in 16, never the policy: node in %.2f%% of calls at worst (%s)%s%s",
	       100.0 * worst_rate, worst_rate_name,
	       slot_only ? "" : "; some call did not write its slot",
	       pol_clean ? "" : "; the policy was written");
}
