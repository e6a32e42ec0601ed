/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * fold.pml - the per-CPU count and its fold (__tp_count() in
 * lib/tp_inline.h; tp_local64_*() in lib/tp_seam.h) under an interrupt or
 * signal handler that counts on the same slot.
 *
 * The owner of a slot (a CPU, or a thread in userspace) counts NCALL
 * requests of 1 or NMAX pages; a handler interrupts it once, at any point,
 * and counts one request on the same slot, to completion, while the owner
 * is stopped (an atomic block). Each tp_local64 access is one step: one
 * instruction on the owning CPU (x86 addq/subq/xchgq, or an atomic
 * elsewhere), which a handler cannot split. Other CPUs read the shared
 * count at any time (tp_node_stats(), the window, the controller).
 *
 * A tuner lowers the batch from BATCH to 1 once, at any point (a
 * tp_policy_tune(): each call reads the batch once, at its start).
 *
 * Checked, at every step:
 *  - the shared count never exceeds the pages counted so far (what other
 *    CPUs read lags, it never leads), and no slot holds a negative count;
 *  - at the end: shared + pending == every page counted, exactly, and the
 *    slot holds fewer than BATCH + NMAX pages (BATCH - 1 but for the
 *    handler's request, whose fold may wait for the next call); and if the
 *    owner's last call read the lowered batch, the slot is empty: the
 *    pages counted under the larger batch moved.
 *
 * Mutants (make model checks that each one FAILS):
 *  -DMUTANT=1  a slot update that is a load and a store (a plain
 *              "diff += n" on an architecture without a one-instruction
 *              add, or this_cpu_add() outside the kernel): the handler's
 *              count is lost
 *  -DMUTANT=2  the fold subtracts what the owner read before the handler
 *              ran (the first 1.0 code): a handler that folds in between
 *              leaves the slot negative and the shared count ahead of the
 *              pages counted
 *  -DMUTANT=3  a batch of 1 adds the request to the shared count and
 *              leaves what the slot held (the 1.0.0 code): after the tune
 *              the slot keeps its pages for good
 */

#ifndef MUTANT
#define MUTANT		0
#endif
#ifndef NCALL
#define NCALL		3	/* the owner's requests */
#endif

#define BATCH		3	/* cand_batch */
#define NMAX		2	/* the largest request */

int batch = BATCH;		/* cand_batch in force */
int shared;			/* node->cand (tp_atomic64) */
int diff;			/* cpu->cand (tp_local64) */
int counted;			/* ghost: pages counted so far */
bool handled;			/* ghost: the handler ran */

inline check()
{
	assert(shared <= counted && diff >= 0)
}

/*
 * __tp_count(shared, diff, n, batch), batch <= 1:
 *	if (tp_local64_read(diff))
 *		n += tp_local64_xchg(diff, 0);
 *	tp_atomic64_add(shared, n);
 * batch > 1:
 *	fold = tp_local64_read(diff) + n >= batch;
 *	tp_local64_add(diff, n);
 *	if (fold)
 *		tp_atomic64_add(shared, tp_local64_xchg(diff, 0));
 */
inline count(n)
{
	b = batch;
	if
	:: b <= 1 ->
		atomic { counted = counted + n };	/* the request, in hand */
#if MUTANT != 3
		if
		:: diff != 0 ->				/* tp_local64_read(diff) */
			atomic { d = diff; diff = 0 };	/* tp_local64_xchg(diff, 0) */
			check()
		:: else
		fi;
#endif
		shared = shared + n + d;		/* tp_atomic64_add() */
		check();
		d = 0;
		goto count_done
	:: else
	fi;
	d = diff + n;					/* fold = tp_local64_read(diff) + n >= batch */
#if MUTANT == 1
	t = diff;					/* load */
	atomic { diff = t + n; counted = counted + n };	/* store */
#else
	atomic { diff = diff + n; counted = counted + n };	/* tp_local64_add() */
#endif
	check();
	if
	:: d >= BATCH ->
#if MUTANT == 2
		diff = diff - d;			/* tp_local64_sub(diff, d) */
#else
		atomic { d = diff; diff = 0 };		/* tp_local64_xchg(diff, 0) */
#endif
		check();
		shared = shared + d;			/* tp_atomic64_add(shared, d) */
		check()
	:: else
	fi;
	d = 0;
count_done:
	skip
}

proctype owner()
{
	byte k, n, b, lastb;
	int d, t;

	for (k : 1 .. NCALL) {
		if
		:: n = 1
		:: n = NMAX
		fi;
		count(n);
		lastb = b;
		n = 0
	}
	/* every process but the handler is done: the handler may not be */
	atomic {
		handled ->
		assert(shared + diff == counted);
		assert(diff < BATCH + NMAX);
		assert(lastb > 1 || diff == 0)
	}
}

proctype handler()
{
	byte n, b;
	int d, t;

	atomic {
		if
		:: n = 1
		:: n = NMAX
		fi;
		count(n);
		handled = true
	}
}

/* tp_policy_tune() lowering cand_batch to 1, once, at any point */
proctype tuner()
{
	batch = 1
}

init
{
	atomic {
		run owner();
		run handler();
		run tuner()
	}
}
