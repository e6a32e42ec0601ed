// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * tprt settings: their defaults, their checking, and the defaults
 * tprt_init() takes from the machine (the fast node, the VMA cap).
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tprt_impl.h"

void tprt_cfg_default(struct tprt_cfg *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->fast_node = -1;
	cfg->flags = TPRT_F_DEFAULT;
	cfg->scan_delay_ms = 1000;
	cfg->scan_period_min_ms = 1000;
	cfg->scan_period_max_ms = 60000;
	cfg->scan_size_mb = 256;
	cfg->scan_cost_factor = 32;
	cfg->hot_threshold_ms = 1000;
	cfg->rate_limit_mbps = 65536;
	cfg->block_pages = 16;
	cfg->chunk_pages = 512;
	cfg->batch = 256;
	cfg->queue_pages = 65536;
	cfg->mem_interval_ms = 100;
	cfg->defer_shift = 2;
	cfg->sample_shift = 2;
	cfg->room_batches = 0;
}

static bool pow2(uint32_t v)
{
	return v && !(v & (v - 1));
}

static int cfg_check(const struct tprt_cfg *c)
{
	if (c->flags & ~TPRT_F_ALL)
		return -EINVAL;
	/* The fill's gate on a re-measure that is off. */
	if ((c->flags & TPRT_F_RECHECK_FILL) && !(c->flags & TPRT_F_RECHECK))
		return -EINVAL;
	if (!pow2(c->block_pages) || !pow2(c->chunk_pages) ||
	    c->block_pages > c->chunk_pages || c->chunk_pages > 65536)
		return -EINVAL;
	/* A victim block is demoted in one move_pages(2) batch. */
	if ((c->flags & TPRT_F_VICTIMS) && c->block_pages > TPRT_VICTIM_MAX)
		return -EINVAL;
	if (!pow2(c->queue_pages) || c->queue_pages > (1U << 24))
		return -EINVAL;
	if (!c->batch || c->batch > 4096 || !c->scan_size_mb ||
	    !c->scan_period_min_ms || c->scan_period_max_ms <
	    c->scan_period_min_ms || !c->mem_interval_ms ||
	    c->fast_node < -1 || c->fast_node > 1023 ||
	    c->decide > TPRT_DECIDE_FAULT || c->clock > TPRT_CLOCK_WALL ||
	    c->defer_shift > 16 || c->sample_shift > 8 ||
	    c->room_batches > 64)
		return -EINVAL;
	return 0;
}

/* The first number in a file (a node list, a sysctl), or -1. */
static long read_first_num(const char *path)
{
	char buf[64];
	FILE *f = fopen(path, "r");
	long v = -1;

	if (!f)
		return -1;
	if (fgets(buf, sizeof(buf), f))
		v = strtol(buf, NULL, 10);
	fclose(f);
	return v;
}

/*
 * Is @node in the node list at @path ("0-1,3")? True if the list cannot be
 * read (no sysfs, a kernel without NUMA): nothing to check against then.
 */
static bool node_listed(const char *path, int node)
{
	char buf[256], *p = buf, *end;
	FILE *f = fopen(path, "r");
	long lo, hi;
	bool ok;

	if (!f)
		return true;
	ok = fgets(buf, sizeof(buf), f) != NULL;
	fclose(f);
	if (!ok)
		return true;
	while (*p >= '0' && *p <= '9') {
		lo = strtol(p, &end, 10);
		hi = lo;
		if (*end == '-')
			hi = strtol(end + 1, &end, 10);
		if (node >= lo && node <= hi)
			return true;
		if (*end != ',')
			break;
		p = end + 1;
	}
	return false;
}

/* The first node of the top memory tier (the smallest tier id), or 0. */
static int top_tier_node(void)
{
	const char *dir = "/sys/devices/virtual/memory_tiering";
	char path[320];
	struct dirent *de;
	long best = -1, node = 0;
	DIR *d = opendir(dir);

	while (d && (de = readdir(d))) {
		long id;

		if (strncmp(de->d_name, "memory_tier", 11))
			continue;
		id = strtol(de->d_name + 11, NULL, 10);
		if (best >= 0 && id >= best)
			continue;
		snprintf(path, sizeof(path), "%s/%s/nodelist", dir,
			 de->d_name);
		if (read_first_num(path) >= 0) {
			best = id;
			node = read_first_num(path);
		}
	}
	if (d)
		closedir(d);
	return (int)node;
}

/* Half of the mappings vm.max_map_count leaves the process now. */
static uint64_t vma_cap_auto(void)
{
	long max = read_first_num("/proc/sys/vm/max_map_count");
	FILE *f = fopen("/proc/self/maps", "r");
	long cur = 0;
	int c;

	if (max <= 0)
		max = 65530;
	while (f && (c = getc(f)) != EOF)
		cur += c == '\n';
	if (f)
		fclose(f);
	return max > cur ? (uint64_t)(max - cur) / 2 : 0;
}

int tprt_cfg_check(const struct tprt_cfg *c)
{
	unsigned long page_size = (unsigned long)sysconf(_SC_PAGESIZE);
	int ret = cfg_check(c);

	if (ret)
		return ret;
	/* A fast node the machine has, with memory to promote into. */
	if (c->fast_node >= 0 &&
	    !node_listed("/sys/devices/system/node/has_memory", c->fast_node))
		return -EINVAL;
	/*
	 * tierpol's own checks (a rate limit above its limiter's), here with
	 * the others: tprt_init() clears the last run's state only once the
	 * settings are known good, so a rejected one changes nothing.
	 */
	return tprt_tp_check(c, (unsigned int)__builtin_ctzl(page_size));
}

int tprt_cfg_fast_node(const struct tprt_cfg *c)
{
	return c->fast_node >= 0 ? c->fast_node : top_tier_node();
}

uint64_t tprt_cfg_vma_cap(const struct tprt_cfg *c)
{
	return c->vma_cap ? c->vma_cap : vma_cap_auto();
}
