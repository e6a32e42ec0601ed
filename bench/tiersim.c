// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Section "tiersim": the simulator's speed (simulated accesses per second
 * on pmbench with 1 M pages) and its state per simulated page, measured on
 * the binary built by make (--tiersim PATH).
 */
#include <stdio.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"

/*
 * Run tiersim quietly on one policy and one core; return the child's CPU
 * seconds (user + sys) and its max RSS in KiB; -1 on failure.
 */
static double tiersim_run(const char *policy, u64 pages, u64 accesses,
			  long *maxrss_kb)
{
	char p[32], a[32];
	char *argv[] = { (char *)opt_tiersim, (char *)"-q", (char *)"-j",
			 (char *)"1", (char *)"-w", (char *)"pmbench",
			 (char *)"-p", (char *)policy, (char *)"--pages", p,
			 (char *)"--accesses", a, NULL };
	struct rusage ru;
	int status;
	pid_t pid;

	snprintf(p, sizeof(p), "%llu", (unsigned long long)pages);
	snprintf(a, sizeof(a), "%llu", (unsigned long long)accesses);
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		if (!freopen("/dev/null", "w", stdout) ||
		    !freopen("/dev/null", "w", stderr))
			_exit(127);
		execv(argv[0], argv);
		_exit(127);
	}
	if (wait4(pid, &status, 0, &ru) < 0)
		return -1;
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		return -1;
	*maxrss_kb = ru.ru_maxrss;
	return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6 +
	       (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6;
}

/*
 * Accesses per second: the CPU time of a run with extra accesses minus that
 * of the same run without them (start-up and the initialisation pass over
 * every page cancel out). Bytes per page: the max RSS of 1 M pages minus
 * that of 64 Ki pages, over the difference in pages.
 */
void bench_tiersim(void)
{
	static const char *policies[] = { "mainline" };
	const u64 pages = opt_smoke ? 65536 : 1048576;
	const u64 small = 65536, base_acc = 1000000;
	const u64 extra = opt_smoke ? 1000000 : 10000000;
	char title[128];
	double rates[64], t0, t1;
	long rss0 = 0, rss1 = 0, rss_small = 0;
	struct stat st;
	struct stat3 r;
	size_t k;
	int i, n;

	snprintf(title, sizeof(title),
		 "simulated accesses per second (pmbench, %llu pages, 1 core), state per page",
		 (unsigned long long)pages);
	if (!section_plain("tiersim", title))
		return;
	mdf("\n**tiersim** (pmbench, %llu pages, one policy, -j 1; child CPU time)\n\n",
	    (unsigned long long)pages);
	if (stat(opt_tiersim, &st) || !(st.st_mode & S_IXUSR)) {
		printf("  SKIPPED: %s does not exist yet (make tiersim); not measured\n",
		       opt_tiersim);
		mdf("Skipped: %s did not exist when this table was made.\n",
		    opt_tiersim);
		target(-1, "tiersim >= 20 M accesses/s on pmbench, 1 M pages: not measured (no %s)",
		       opt_tiersim);
		target(-1, "tiersim <= 64 B of state per simulated page: not measured");
		return;
	}
	mdf("| policy | M accesses/s (min–max) |\n|---|---|\n");
	for (k = 0; k < sizeof(policies) / sizeof(policies[0]); k++) {
		n = opt_smoke ? 1 : opt_repeats;
		for (i = 0; i < n; i++) {
			t0 = tiersim_run(policies[k], pages, base_acc, &rss0);
			t1 = tiersim_run(policies[k], pages, base_acc + extra,
					 &rss1);
			if (t0 < 0 || t1 < 0 || t1 <= t0) {
				printf("  FAILED: %s -q -j 1 -w pmbench -p %s --pages %llu did not run\n",
				       opt_tiersim, policies[k],
				       (unsigned long long)pages);
				target(-1, "tiersim >= 20 M accesses/s: could not be measured");
				return;
			}
			rates[i] = (double)extra / (t1 - t0);
		}
		r = stat3(rates, n);
		printf("  %-10s %6.1f M accesses/s [%.1f..%.1f] (%llu extra accesses, CPU time of the child)\n",
		       policies[k], r.med / 1e6, r.min / 1e6, r.max / 1e6,
		       (unsigned long long)extra);
		mdf("| %s | %.1f (%.1f–%.1f) |\n", policies[k], r.med / 1e6,
		    r.min / 1e6, r.max / 1e6);
		if (k == 0)
			target(r.med >= 20e6,
			       "tiersim >= 20 M accesses/s on pmbench, %llu pages (mainline): %.1f M/s",
			       (unsigned long long)pages, r.med / 1e6);
	}
	if (tiersim_run(policies[0], small, base_acc, &rss_small) < 0 ||
	    tiersim_run(policies[0], pages, base_acc, &rss0) < 0 ||
	    pages <= small) {
		target(-1, "tiersim <= 64 B per simulated page: not measured");
		return;
	}
	{
		double bpp = (double)(rss0 - rss_small) * 1024.0 /
			     (double)(pages - small);

		printf("  state: max RSS %ld KiB at %llu pages, %ld KiB at %llu: %.1f B per page\n",
		       rss0, (unsigned long long)pages, rss_small,
		       (unsigned long long)small, bpp);
		mdf("\nState: max RSS %ld KiB at %llu pages, %ld KiB at %llu pages: %.1f bytes per simulated page.\n",
		    rss0, (unsigned long long)pages, rss_small,
		    (unsigned long long)small, bpp);
		target(bpp <= 64, "tiersim <= 64 B per simulated page: %.1f B", bpp);
	}
}

