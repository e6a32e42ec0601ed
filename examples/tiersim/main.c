// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * tiersim - trace-driven two-tier memory simulator on tierpol's public API.
 *
 * main() and the job pool (one policy run per job, --jobs at a time);
 * cli.h says where the rest of the command line lives. See
 * docs/tiersim.md.
 */
#define _GNU_SOURCE
#include "cli.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

/* ---- the job pool ------------------------------------------------------- */

struct job {
	struct set *set;
	u32 pol;
	_Atomic u64 progress;
};

struct pool {
	struct job *jobs;
	u32 nr;
	_Atomic u32 next;
	_Atomic u32 done;
};

static void *worker(void *arg)
{
	struct pool *pl = arg;
	u32 i;

	while ((i = atomic_fetch_add(&pl->next, 1)) < pl->nr) {
		struct job *j = &pl->jobs[i];
		struct set *s = j->set;

		sim_run(&s->cfg, &s->pol[j->pol], &s->src,
			&s->rs.res[j->pol], &j->progress);
		atomic_fetch_add(&pl->done, 1);
	}
	return NULL;
}

void run_sets(struct set *sets, u32 nr_sets, int jobs, int progress)
{
	struct pool pl;
	struct progress pr;
	pthread_t th[256];
	u32 i, k, n = 0;
	u64 total = 0, acc = 0;
	int nth;
	double el;
	char cnt[32];

	for (i = 0; i < nr_sets; i++)
		n += sets[i].nr_pol;
	memset(&pl, 0, sizeof(pl));
	pl.jobs = calloc(n, sizeof(*pl.jobs));
	if (!pl.jobs)
		die(1, "out of memory");
	for (i = 0; i < nr_sets; i++)
		for (k = 0; k < sets[i].nr_pol; k++) {
			pl.jobs[pl.nr].set = &sets[i];
			pl.jobs[pl.nr].pol = k;
			pl.nr++;
			total += sets[i].src.total;
		}
	progress_begin(&pr, progress);
	nth = jobs < (int)n ? jobs : (int)n;
	for (i = 0; i < (u32)nth; i++)
		if (pthread_create(&th[i], NULL, worker, &pl))
			die(1, "pthread_create failed");
	while (atomic_load(&pl.done) < pl.nr) {
		usleep(progress == PROGRESS_OFF ? 200000 : 50000);
		acc = 0;
		for (i = 0; i < pl.nr; i++)
			acc += atomic_load_explicit(&pl.jobs[i].progress,
						    memory_order_relaxed);
		el = progress_elapsed(&pr);
		progress_update(&pr, (double)acc / (double)total,
				"%u/%u runs, %.0f %% of %s accesses, "
				"%.1f M/s", atomic_load(&pl.done), pl.nr,
				100.0 * (double)acc / (double)total,
				progress_count(cnt, sizeof(cnt),
					       (double)total),
				el > 0 ? (double)acc / 1e6 / el : 0.0);
	}
	for (i = 0; i < (u32)nth; i++)
		pthread_join(th[i], NULL);
	free(pl.jobs);
	/* A failed run: its reason alone, no "simulated N runs" before it. */
	for (i = 0; i < nr_sets; i++)
		for (k = 0; k < sets[i].nr_pol; k++)
			if (sets[i].rs.res[k].failed) {
				progress_clear(&pr);
				die(1, "%s", sets[i].rs.res[k].err);
			}
	el = progress_elapsed(&pr);
	progress_end(&pr, "simulated %u run%s: %s accesses in %.1f s (%.1f "
		     "M accesses/s)", pl.nr, pl.nr == 1 ? "" : "s",
		     progress_count(cnt, sizeof(cnt), (double)total), el,
		     el > 0 ? (double)total / 1e6 / el : 0.0);
}

FILE *open_out(const char *path)
{
	FILE *f;

	if (!strcmp(path, "-"))
		return stdout;
	f = fopen(path, "w");
	if (!f)
		die(1, "%s: %s", path, strerror(errno));
	return f;
}

/* The directory @path is in, into @dir (may be @path): "." for a name. */
static void parent_dir(char *dir, size_t n, const char *path)
{
	char *slash;

	if (dir != path)
		snprintf(dir, n, "%s", path);
	slash = strrchr(dir, '/');
	if (!slash)
		snprintf(dir, n, ".");
	else if (slash == dir)
		dir[1] = 0;
	else
		*slash = 0;
}

/*
 * procfs and sysfs: their files open for writing (as root) and fail only
 * at the write, after the simulation; nothing can be created there.
 */
static const char *pseudo_fs(const char *path)
{
	struct statfs sf;

	if (statfs(path, &sf))
		return NULL;
	if (sf.f_type == PROC_SUPER_MAGIC)
		return "procfs";
	if (sf.f_type == SYSFS_MAGIC)
		return "sysfs";
	return NULL;
}

/*
 * --@opt @path can be written: a file there that is no directory and is
 * writable, or none and a writable directory to create it in. Checked
 * before any simulation, so that a bad path costs no run; exits 2.
 */
static void check_out_path(const char *opt, const char *path)
{
	char dir[4096];
	const char *fs;
	struct stat st;

	if (!*path)
		die_usage("--%s: an empty file name", opt);
	if (!stat(path, &st)) {
		if (S_ISDIR(st.st_mode))
			die(EXIT_USAGE, "--%s %s: %s", opt, path,
			    strerror(EISDIR));
		fs = pseudo_fs(path);
		if (fs && S_ISREG(st.st_mode))
			die(EXIT_USAGE, "--%s %s: a file of %s, not one to "
			    "write results to", opt, path, fs);
		if (access(path, W_OK))
			die(EXIT_USAGE, "--%s %s: %s", opt, path,
			    strerror(errno));
		return;
	}
	if (errno != ENOENT)
		die(EXIT_USAGE, "--%s %s: %s", opt, path, strerror(errno));
	parent_dir(dir, sizeof(dir), path);
	if (stat(dir, &st))
		die(EXIT_USAGE, "--%s %s: directory %s: %s", opt, path, dir,
		    strerror(errno));
	if (!S_ISDIR(st.st_mode))
		die(EXIT_USAGE, "--%s %s: %s: %s", opt, path, dir,
		    strerror(ENOTDIR));
	if (access(dir, W_OK | X_OK))
		die(EXIT_USAGE, "--%s %s: directory %s: %s", opt, path, dir,
		    strerror(errno));
	fs = pseudo_fs(dir);
	if (fs)
		die(EXIT_USAGE, "--%s %s: directory %s is %s: no file can be "
		    "created there", opt, path, dir, fs);
}

/*
 * --outdir @dir: a writable directory, or one mkdir -p can create (its
 * nearest existing ancestor a writable directory); exits 2.
 */
static void check_out_dir(const char *dir)
{
	char up[4096], *slash;
	const char *fs;
	struct stat st;

	if (!*dir)
		die_usage("--outdir: an empty directory name");
	if (!stat(dir, &st)) {
		if (!S_ISDIR(st.st_mode))
			die(EXIT_USAGE, "--outdir %s: %s", dir,
			    strerror(ENOTDIR));
		if (access(dir, W_OK | X_OK))
			die(EXIT_USAGE, "--outdir %s: %s", dir,
			    strerror(errno));
		fs = pseudo_fs(dir);
		if (fs)
			die(EXIT_USAGE, "--outdir %s is %s: no file can be "
			    "created there", dir, fs);
		return;
	}
	if (errno != ENOENT)
		die(EXIT_USAGE, "--outdir %s: %s", dir, strerror(errno));
	snprintf(up, sizeof(up), "%s", dir);
	for (;;) {
		while ((slash = strrchr(up, '/')) && slash != up && !slash[1])
			*slash = 0;	/* "a/b/" is "a/b" */
		parent_dir(up, sizeof(up), up);
		if (!stat(up, &st))
			break;
		if (errno != ENOENT || !strcmp(up, ".") || !strcmp(up, "/"))
			die(EXIT_USAGE, "--outdir %s: %s: %s", dir, up,
			    strerror(errno));
	}
	if (!S_ISDIR(st.st_mode))
		die(EXIT_USAGE, "--outdir %s: %s: %s", dir, up,
		    strerror(ENOTDIR));
	if (access(up, W_OK | X_OK))
		die(EXIT_USAGE, "--outdir %s: %s: %s", dir, up,
		    strerror(errno));
	fs = pseudo_fs(up);
	if (fs)
		die(EXIT_USAGE, "--outdir %s: %s is %s: no directory can be "
		    "created there", dir, up, fs);
}

/*
 * @path as a file it names: its directory's real path and its name, so
 * that "o.json", "./o.json" and "d/../o.json" compare equal; a symbolic
 * link stands for the file it points to, existing or not (a hard link to
 * an existing file is caught by check_same()'s inode compare).
 */
static void canon_path(char *out, size_t n, const char *path)
{
	char cur[4096], link[4096], dir[4096], real[PATH_MAX];
	size_t dl;
	const char *base;
	struct stat st;
	ssize_t len;
	int hops;

	snprintf(cur, sizeof(cur), "%s", path);
	for (hops = 0; hops < 40 && !lstat(cur, &st) && S_ISLNK(st.st_mode);
	     hops++) {
		len = readlink(cur, link, sizeof(link) - 1);
		if (len <= 0)
			break;
		link[len] = 0;
		parent_dir(dir, sizeof(dir), cur);
		dl = link[0] == '/' ? 0 : strlen(dir) + 1;
		if (dl + (size_t)len >= sizeof(cur))
			break;
		if (dl) {
			memcpy(cur, dir, dl - 1);
			cur[dl - 1] = '/';
		}
		memcpy(cur + dl, link, (size_t)len + 1);
	}
	base = strrchr(cur, '/');
	parent_dir(dir, sizeof(dir), cur);
	base = base ? base + 1 : cur;
	if (!realpath(dir, real))
		snprintf(real, sizeof(real), "%s", dir);
	snprintf(out, n, "%s/%s", real, base);
}

/*
 * Two outputs that would write one file (the second would overwrite it),
 * or an output that would overwrite input @b (@b_in).
 */
static void check_same(const char *opt_a, const char *a, const char *opt_b,
		       const char *b, int b_in)
{
	char ca[8192], cb[8192];
	struct stat sa, sb;

	if (!a || !b || !strcmp(a, "-") || !strcmp(b, "-"))
		return;
	/* /dev/null takes both */
	if ((!stat(a, &sa) && !S_ISREG(sa.st_mode)) ||
	    (!stat(b, &sb) && !S_ISREG(sb.st_mode)))
		return;
	canon_path(ca, sizeof(ca), a);
	canon_path(cb, sizeof(cb), b);
	if (!strcmp(ca, cb) || (!stat(a, &sa) && !stat(b, &sb) &&
				S_ISREG(sa.st_mode) && sa.st_dev == sb.st_dev &&
				sa.st_ino == sb.st_ino))
		die_usage("--%s %s and --%s %s are the same file (%s)", opt_a,
			  a, opt_b, b, b_in ? "the output would overwrite the "
			  "input" : "one would overwrite the other");
}

/* Every output can be written: refuse before simulating, not after. */
static void check_outputs(const struct opts *o)
{
	const char *const name[] = { "json", "csv", "svg", "results-md" };
	const char *const path[] = { o->json, o->csv, o->svg, o->results_md };
	const char *const in_name[] = { "trace", "cpu-ns-file" };
	const char *const in_path[] = { o->trace, o->cpu_file };
	unsigned int i, j;

	if (o->json && o->csv && !strcmp(o->json, "-") &&
	    !strcmp(o->csv, "-"))
		die_usage("--json - and --csv - both write to stdout (give "
			  "one of them a file)");
	if (o->svg && !strcmp(o->svg, "-"))
		die_usage("--svg: \"-\" is no file (the plot cannot go to "
			  "stdout)");
	if (o->json && strcmp(o->json, "-"))
		check_out_path("json", o->json);
	if (o->csv && strcmp(o->csv, "-"))
		check_out_path("csv", o->csv);
	if (o->svg)
		check_out_path("svg", o->svg);
	if (o->results_md)
		check_out_path("results-md", o->results_md);
	if (o->suite)
		check_out_dir(o->outdir ? o->outdir : "build/run");
	for (i = 0; i < 4; i++) {
		for (j = i + 1; j < 4; j++)
			check_same(name[i], path[i], name[j], path[j], 0);
		for (j = 0; j < 2; j++)
			check_same(name[i], path[i], in_name[j], in_path[j],
				   1);
	}
}

int main(int argc, char **argv)
{
	struct opts o;
	struct set *s;
	u32 warned;
	FILE *f;

	opts_init(&o);
	parse_args(&o, argc, argv);
	if (o.results_md && (!o.suite || strcmp(o.suite, "results")))
		die_usage("--results-md needs --suite results");
	if (o.outdir && !o.suite)
		die_usage("--outdir needs --suite (one run writes only the "
			  "files --json, --csv and --svg name)");
	if (o.svg && o.suite)
		die_usage("--svg does not apply to a suite (it writes a plot "
			  "per workload under --outdir)");
	check_outputs(&o);
	if (o.suite)
		return run_suite(&o);

	s = calloc(1, sizeof(*s));
	if (!s)
		die(1, "out of memory");
	build_set(s, &o, NULL);
	run_sets(s, 1, o.jobs, progress_mode(&o));
	if (!o.quiet && !(o.json && !strcmp(o.json, "-")) &&
	    !(o.csv && !strcmp(o.csv, "-")))
		out_table(stdout, &s->rs);
	warned = warn_set(stderr, s, o.strict);
	if (o.json) {
		f = open_out(o.json);
		out_json(f, &s->rs, 1);
		close_out(f, o.json);
	}
	if (o.csv) {
		f = open_out(o.csv);
		out_csv(f, &s->rs, 1);
		close_out(f, o.csv);
	}
	if (o.svg && out_svg(o.svg, &s->rs))
		die(1, "%s: %s", o.svg, strerror(errno));
	close_out(stdout, "-");	/* the table's write error, if any */
	free_set(s);
	free(s);
	return o.strict && warned ? EXIT_USAGE : 0;
}
