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
	int fd;

	pthread_once(&table_once, table_build);
	if (!block_node)
		return -ENOENT;
	if (pid) {
		snprintf(path, sizeof(path), "/proc/%d/pagemap", pid);
		fd = open(path, O_RDONLY | O_CLOEXEC);
	} else {
		fd = self_fd;
	}
	if (fd < 0)
		return pid ? -errno : -ENOENT;
	for (i = 0; i < n; i += k) {
		k = n - i < 512 ? n - i : 512;
		if (pread(fd, ent, k * 8, (off_t)((first + i) * 8)) !=
		    (ssize_t)(k * 8)) {
			if (pid)
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
	if (pid)
		close(fd);
	return any_present && !any_pfn ? -EPERM : 0;
}
