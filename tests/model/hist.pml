/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * hist.pml - the capacity-fitted threshold's per-CPU latency bins
 * (__tp_thresh_record() in lib/tp_inline.h) under an interrupt or signal
 * handler that records on the same slot, and the cooling of the shared
 * bins at a period's close (thresh_fit() in lib/threshold.c) on another
 * CPU at the same time.
 *
 * This is not fold.pml again: a slot has several bins and a separate
 * count of pending pages that decides the fold; the fold resets that
 * count first, then takes each bin with its own exchange, and the
 * closer's halving subtracts from the shared bins while slots add to
 * them. Two bins stand for TP_THRESH_BINS.
 *
 * The owner of a slot records NCALL faults of 1 or NMAX pages into either
 * bin; a handler interrupts it once, at any point, and records one fault
 * on the same slot, to completion, while the owner is stopped (an atomic
 * block). Each tp_local64 access is one step, which a handler cannot
 * split. NCLOSE closers (default 1) on other CPUs halve each shared bin
 * once, at any point, as bin_cool() does: read the bin, then cmpxchg it
 * from the value read to its larger half, retried from the value found at
 * most RETRIES times (2 here; TP_RETRIES in C, the property does not
 * depend on it). Closes are not serialised end to end, so the closers of
 * three periods in a row can cool at once (-DNCLOSE=3; with -DNOHANDLER,
 * as the handler only adds to a slot, to keep the search small).
 *
 * Checked, at every step:
 *  - per bin, the shared bin never exceeds the pages recorded less the
 *    pages the cooling removed (it lags, it never leads), and no bin,
 *    shared or per-CPU, goes negative;
 *  - after each of the owner's calls, the slot's bins hold no more than
 *    its pending count, and that count is below BATCH + NMAX (BATCH - 1
 *    but for the handler's fault, whose fold may wait for the next call);
 *  - at the end: per bin, shared + slot == recorded - cooled, exactly; and
 *    if the owner's last call read the lowered batch, the slot is empty.
 *
 * A tuner lowers the batch from BATCH to 1 once, at any point (each call
 * reads it once, at its start); a call with a batch of 1 adds its pages to
 * the shared bin and folds what the slot held under the larger batch.
 *
 * Mutants (make model checks that each one FAILS):
 *  -DMUTANT=1  the cooling stores the halved value of what it read
 *              without comparing: a batch added between its read and its
 *              store is lost
 *  -DMUTANT=2  the fold takes a bin with a load and a store of 0 instead
 *              of one exchange: a handler's pages recorded in between are
 *              lost
 *  -DMUTANT=3  the fold lowers the pending count by what the owner read
 *              before it added (the first 1.0 fold of the candidate
 *              count, fold.pml's second mutant) instead of exchanging it
 *              for 0: a handler that folds in between leaves it negative
 *  -DMUTANT=4  a batch of 1 adds the fault to the shared bin and leaves
 *              the slot's bins (the 1.0.0 code): after the tune they stay
 *  -DMUTANT=5  the cooling adds minus half of what it read (the 1.0.0
 *              code): with three closers (-DNCLOSE=3) reading the same
 *              value, the bin goes below zero
 *
 * (Resetting the pending count after taking the bins instead of before
 * would be no bug: a handler that runs in between finds the count at or
 * above BATCH and folds everything itself.)
 */

#ifndef MUTANT
#define MUTANT		0
#endif
#ifndef NCALL
#define NCALL		3	/* the owner's faults */
#endif
#ifndef NCLOSE
#define NCLOSE		1	/* closers cooling at once */
#endif
#ifndef RETRIES
#define RETRIES		2	/* the cooling's cmpxchg attempts */
#endif

#define NB		2	/* bins */
#define BATCH		3	/* the policy's cand_batch */
#define NMAX		2	/* the largest fault, in pages */

int batch = BATCH;		/* the batch in force */
int shared[NB];			/* st->hist[] (tp_atomic64) */
int bins[NB];			/* cpu->hist[] (tp_local64) */
int pending;			/* cpu->pending (tp_local64) */
int rec[NB];			/* ghost: pages recorded per bin */
int cooled[NB];			/* ghost: pages the cooling removed per bin */
bool handled;			/* ghost: the handler ran */
byte cooling_done;		/* ghost: closers done */

inline check()
{
	assert(shared[0] <= rec[0] - cooled[0] &&
	       shared[1] <= rec[1] - cooled[1]);
	assert(shared[0] >= 0 && shared[1] >= 0 && bins[0] >= 0 &&
	       bins[1] >= 0 && pending >= 0)
}

/*
 * __tp_thresh_record(st, cpu, shift, batch, latency, n), batch > 1:
 *	fold = tp_local64_read(&cpu->pending) + n >= batch;
 *	tp_local64_add(&cpu->hist[bin], n);
 *	tp_local64_add(&cpu->pending, n);
 *	if (fold)
 *		__tp_thresh_fold(st, cpu);
 * batch <= 1:
 *	tp_atomic64_add(&st->hist[bin], n);
 *	if (tp_local64_read(&cpu->pending))
 *		__tp_thresh_fold(st, cpu);
 * __tp_thresh_fold():
 *	tp_local64_set(&cpu->pending, 0);
 *	for (b = 0; b < TP_THRESH_BINS; b++)
 *		if (tp_local64_read(&cpu->hist[b])) {
 *			v = tp_local64_xchg(&cpu->hist[b], 0);
 *			tp_atomic64_add(&st->hist[b], v);
 *		}
 */
inline take(b)
{
	if
	:: bins[b] != 0 ->				/* tp_local64_read(&cpu->hist[b]) */
#if MUTANT == 2
		v = bins[b];				/* load */
		bins[b] = 0;				/* store */
#else
		atomic { v = bins[b]; bins[b] = 0 };	/* tp_local64_xchg(&cpu->hist[b], 0) */
#endif
		check();
		shared[b] = shared[b] + v;		/* tp_atomic64_add(&st->hist[b], v) */
		check()
	:: else
	fi;
	v = 0
}

inline record(b, n)
{
	bt = batch;
	if
	:: bt <= 1 ->
		atomic { shared[b] = shared[b] + n; rec[b] = rec[b] + n };	/* tp_atomic64_add(&st->hist[bin], n) */
		check();
#if MUTANT != 4
		if
		:: pending != 0 ->			/* tp_local64_read(&cpu->pending) */
			pending = 0;			/* tp_local64_set(&cpu->pending, 0) */
			take(0);
			take(1)
		:: else
		fi;
#endif
		goto recorded
	:: else
	fi;
	p = pending;					/* tp_local64_read(&cpu->pending) */
	fold = p + n >= BATCH;
	atomic { bins[b] = bins[b] + n; rec[b] = rec[b] + n };	/* tp_local64_add(&cpu->hist[bin], n) */
	check();
	pending = pending + n;				/* tp_local64_add(&cpu->pending, n) */
	if
	:: fold ->
#if MUTANT == 3
		pending = pending - (p + n);		/* tp_local64_sub(&cpu->pending, p + n) */
#else
		pending = 0;				/* tp_local64_set(&cpu->pending, 0) */
#endif
		check();
		take(0);
		take(1)
	:: else
	fi;
recorded:
	fold = false;
	p = 0
}

inline pick(b, n)
{
	if
	:: b = 0
	:: b = 1
	fi;
	if
	:: n = 1
	:: n = NMAX
	fi
}

proctype owner()
{
	byte k, b, n, bt, lastb;
	int v, p;
	bool fold;

	for (k : 1 .. NCALL) {
		pick(b, n);
		record(b, n);
		lastb = bt;
		assert(bins[0] + bins[1] <= pending && pending < BATCH + NMAX);
		b = 0;
		n = 0
	}
	/* every process but the handler and the closer is done */
	atomic {
		handled && cooling_done == NCLOSE ->
		assert(shared[0] + bins[0] == rec[0] - cooled[0]);
		assert(shared[1] + bins[1] == rec[1] - cooled[1]);
		assert(lastb > 1 || bins[0] + bins[1] == 0)
	}
}

proctype handler()
{
	byte b, n, bt;
	int v, p;
	bool fold;

	atomic {
		pick(b, n);
		record(b, n);
		handled = true
	}
}

/*
 * thresh_fit()'s cooling, bin_cool(): v = read; while (v >= 2 and tries
 * left) cmpxchg(v -> v - v / 2), which on failure reads the value found.
 */
inline cool(b)
{
	v = shared[b];					/* tp_atomic64_read(&st->hist[b]) */
	tries = 0;
	do
	:: v >= 2 && tries < RETRIES ->
#if MUTANT == 1
		atomic { shared[b] = v - v / 2; cooled[b] = cooled[b] + v / 2 };
		break
#elif MUTANT == 5
		atomic { shared[b] = shared[b] - v / 2; cooled[b] = cooled[b] + v / 2 };
		break
#else
		atomic {
			if
			:: shared[b] == v ->		/* try_cmpxchg succeeds */
				shared[b] = v - v / 2;
				cooled[b] = cooled[b] + v / 2;
				tries = RETRIES + 1
			:: else ->			/* fails: old = the value found */
				v = shared[b];
				tries++
			fi
		}
#endif
	:: else -> break
	od;
	check();
	v = 0;
	tries = 0
}

proctype closer()
{
	int v;
	byte tries;

	cool(0);
	cool(1);
	cooling_done++
}

/* tp_thresh_tune() (or tp_policy_tune()) lowering the batch to 1, once */
proctype tuner()
{
	batch = 1
}

init
{
	atomic {
		run owner();
#ifdef NOHANDLER
		handled = true;
#else
		run handler();
#endif
		run closer();
#if NCLOSE > 1
		run closer();
#endif
#if NCLOSE > 2
		run closer();
#endif
		run tuner()
	}
}
