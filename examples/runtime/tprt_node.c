// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Which node a page is on, from /proc/PID/pagemap: the page's frame number,
 * then the memory block holding it (/sys/devices/system/memory), then the
 * node that block belongs to (/sys/devices/system/node/nodeN/memoryM).
 *
 * One pread() answers 512 pages, and pagemap reports pages whose PTE is
 * PROT_NONE or a NUMA hint (move_pages(2) without nodes reports -ENOENT
 * for those: follow_page() does not follow protnone PTEs). Frame numbers
 * need CAP_SYS_ADMIN; without it they read as 0 and tprt_page_nodes()
 * returns -EPERM, and the scanner asks move_pages(2) instead.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tprt_impl.h"

#define PM_PRESENT	(1ULL << 63)
#define PM_PFN_MASK	((1ULL << 55) - 1)

static pthread_once_t table_once = PTHREAD_ONCE_INIT;
static int16_t *block_node;	/* node of each memory block, -1: none */
static unsigned long nr_blocks;
static unsigned int block_shift;	/* log2(block size / page size) */
static int self_fd = -1;		/* /proc/self/pagemap */
static pid_t self_pid;			/* the process that opened it */

static void table_build(void)
{
	char path[300], line[64];
	unsigned long long bs = 0;
	long psz = sysconf(_SC_PAGESIZE);
	struct dirent *de, *me;
	unsigned long id, max = 0;
	DIR *d, *nd;
	FILE *f;
	int pass, node;

	f = fopen("/sys/devices/system/memory/block_size_bytes", "r");
	if (f) {
		if (fgets(line, sizeof(line), f))
			bs = strtoull(line, NULL, 16);
		fclose(f);
	}
	self_fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
	self_pid = getpid();
	if (!bs || psz <= 0 || bs % (unsigned long long)psz)
		return;
	for (bs /= (unsigned long long)psz; bs > 1; bs >>= 1)
		block_shift++;
	/* Two passes over the nodes: the largest block id, then the map. */
	for (pass = 0; pass < 2; pass++) {
		d = opendir("/sys/devices/system/node");
		while (d && (de = readdir(d))) {
			if (sscanf(de->d_name, "node%d", &node) != 1)
				continue;
			snprintf(path, sizeof(path),
				 "/sys/devices/system/node/%s", de->d_name);
			nd = opendir(path);
			while (nd && (me = readdir(nd))) {
				if (sscanf(me->d_name, "memory%lu", &id) != 1)
					continue;
				if (!pass && id + 1 > max)
					max = id + 1;
				if (pass && id < nr_blocks)
					block_node[id] = (int16_t)node;
			}
			if (nd)
				closedir(nd);
		}
		if (d)
			closedir(d);
		if (!pass) {
			block_node = malloc(max * sizeof(*block_node));
			if (!block_node)
				return;
			memset(block_node, 0xff, max * sizeof(*block_node));
			nr_blocks = max;
		}
	}
}

int tprt_page_nodes(int pid, const void *addr, size_t n, int *nodes)
{
	uint64_t ent[512];
	long psz = sysconf(_SC_PAGESIZE);
	uintptr_t first = (uintptr_t)addr / (uintptr_t)psz;
	char path[64];
	size_t i, j, k;
	bool any_pfn = false, any_present = false;
	bool own = true;
	int fd;

	pthread_once(&table_once, table_build);
	if (!block_node)
		return -ENOENT;
	if (pid) {
		snprintf(path, sizeof(path), "/proc/%d/pagemap", pid);
		fd = open(path, O_RDONLY | O_CLOEXEC);
	} else if (getpid() != self_pid) {
		/* A forked child: the inherited file reads the parent's. */
		fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
	} else {
		fd = self_fd;
		own = false;
	}
	if (fd < 0)
		return own ? -errno : -ENOENT;
	for (i = 0; i < n; i += k) {
		k = n - i < 512 ? n - i : 512;
		if (pread(fd, ent, k * 8, (off_t)((first + i) * 8)) !=
		    (ssize_t)(k * 8)) {
			if (own)
				close(fd);
			return -EIO;
		}
		for (j = 0; j < k; j++) {
			uint64_t pfn = ent[j] & PM_PFN_MASK, blk;

			nodes[i + j] = -ENOENT;
			if (!(ent[j] & PM_PRESENT))
				continue;
			any_present = true;
			if (!pfn)
				continue;
			any_pfn = true;
			blk = pfn >> block_shift;
			if (blk < nr_blocks && block_node[blk] >= 0)
				nodes[i + j] = block_node[blk];
		}
	}
	if (own)
		close(fd);
	return any_present && !any_pfn ? -EPERM : 0;
}

/* ---- the fast node's memory ---------------------------------------------- */

/* One zone of the fast node, from /proc/zoneinfo. */
struct zone_rec {
	uint64_t free, min, low, high, managed, present, reserve;
};

/*
 * The fast node's memory as the kernel's promotion path sees it: it has
 * room for nr pages if any zone has more than its high watermark plus nr
 * free, above what the zone keeps back from movable allocations (its
 * lowmem reserve; migrate_balanced_pgdat(), pgdat_free_space_enough()).
 * So the runtime's view is the zone with the most room: its free pages
 * less its reserve, and its watermarks (the promo one computed as the
 * kernel does). A node whose top zone is full may have room in a lower
 * one (DMA beside DMA32 on a small node): the kernel promotes into it, and
 * kswapd does not reclaim before every zone is below its mark
 * (pgdat_balanced()), so the runtime must count it too.
 *
 * For a kswapd nudge: @wake, the pages an allocation takes before every
 * zone is below its low watermark (plus reserve), when the allocator wakes
 * kswapd; @slack, the pages it may take beyond that before a zone comes
 * within half way of its min watermark.
 */
static void zone_add(const struct zone_rec *z, struct tprt_mem *m,
		     int64_t *best, uint32_t scale)
{
	int64_t room = (int64_t)z->free - (int64_t)(z->reserve + z->high);
	uint64_t low = z->low + z->reserve;
	uint64_t floor = z->min + (z->low - z->min) / 2 + z->reserve;

	m->present += z->present;
	if (!z->managed)
		return;
	if (z->free > low)
		m->wake += z->free - low;
	if ((z->free < low ? z->free : low) > floor)
		m->slack += (z->free < low ? z->free : low) - floor;
	if (*best != INT64_MIN && room <= *best)
		return;
	*best = room;
	m->free = z->free > z->reserve ? z->free - z->reserve : 0;
	m->wmark_min = z->min;
	m->wmark_low = z->low;
	m->wmark_high = z->high;
	m->wmark_promo = tprt_tp_wmark_promo(z->min, z->high, z->managed,
					     scale);
}

/*
 * A zone's record is complete: the fast node's counts as zone_add(); another
 * node's free pages above its high watermark are room for demotions.
 */
static void zone_end(const struct zone_rec *z, bool fast, bool any,
		     struct tprt_mem *m, int64_t *best, uint32_t scale)
{
	if (!any)
		return;
	if (fast)
		zone_add(z, m, best, scale);
	else if (z->managed && z->free > z->high)
		m->spare += z->free - z->high;
}

/*
 * The largest number of a "protection: (a, b, ...)" list: the zone's
 * lowmem reserve against the highest zone. Each step moves past a number
 * or one other character, so the walk always ends.
 */
static uint64_t parse_reserve(const char *p)
{
	uint64_t max = 0;
	unsigned long long v;
	char *end;

	while (*p && *p != ')') {
		if (*p < '0' || *p > '9') {
			p++;
			continue;
		}
		v = strtoull(p, &end, 10);
		if (v > max)
			max = v;
		p = end;
	}
	return max;
}

/* tprt_mem_sample() on the zoneinfo text @f (tests feed their own). */
int tprt_zoneinfo_parse(FILE *f, int node, uint32_t scale,
			struct tprt_mem *m)
{
	struct tprt_mem out = { 0 };
	struct zone_rec z = { 0 };
	int64_t best = INT64_MIN;
	unsigned long long v;
	bool in = false, zone = false;
	char line[256], name[32], *p;
	int n;

	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "Node %d, zone %31s", &n, name) == 2) {
			zone_end(&z, in, zone, &out, &best, scale);
			memset(&z, 0, sizeof(z));
			in = n == node;
			zone = true;
			continue;
		}
		if (!zone)
			continue;
		if (sscanf(line, " pages free %llu", &v) == 1)
			z.free = v;
		else if (sscanf(line, " min %llu", &v) == 1)
			z.min = v;
		else if (sscanf(line, " low %llu", &v) == 1)
			z.low = v;
		else if (sscanf(line, " high %llu", &v) == 1)
			z.high = v;
		else if (sscanf(line, " present %llu", &v) == 1)
			z.present = v;
		else if (sscanf(line, " managed %llu", &v) == 1)
			z.managed = v;
		else if ((p = strstr(line, "protection: (")))
			z.reserve = parse_reserve(p + 13);
	}
	zone_end(&z, in, zone, &out, &best, scale);
	if (best == INT64_MIN)
		return -ENOENT;
	out.wake++;
	*m = out;
	return 0;
}

int tprt_mem_sample(struct tprt_rt *rt, struct tprt_mem *m)
{
	FILE *f = fopen("/proc/zoneinfo", "r");
	int ret;

	if (!f)
		return -errno;
	ret = tprt_zoneinfo_parse(f, rt->fast_node, rt->zone_scale, m);
	fclose(f);
	return ret;
}
