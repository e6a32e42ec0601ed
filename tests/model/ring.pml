/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * ring.pml - the scan ring's sequence count (lib/scan_ring.c:
 * tp_scan_ring_record() and tp_scan_ring_advance(), the single writer;
 * tp_scan_ring_latency(), any number of readers, each alone against the
 * writer since readers write nothing; tp_seq_*() in lib/tp_seam.h).
 *
 * A ring of depth 2. The writer records passes 1..NREC (pass p goes to
 * slot (p - 1) & 1 with start = time = p); a reader, starting anywhere in
 * the writer's run, looks up: it reads the pass count, picks the pass its
 * search would end at (the newest or the one before: every pass the
 * search can reach), reads that pass's start and time, and validates. The
 * u64 start and time are two 32-bit halves each (a 32-bit target); the
 * writer's stores between its two fences and the reader's loads between
 * its two fences happen in any order.
 *
 * Checked:
 *  - a validated lookup returns the start and the time of one pass, the
 *    one it picked (never a pair of two passes, never a torn half);
 *  - at most RETRIES attempts, then -EBUSY; a handler that interrupts the
 *    writer on its CPU (runs to completion while the writer is stopped)
 *    answers at once when the writer is between two updates, and returns
 *    -EBUSY after RETRIES attempts when it is in the middle of one: it
 *    never waits for the writer (-DIRQ: the handler instead of the
 *    reader);
 *  - no deadlock; with -DLIVE (a writer that never stops), no
 *    non-progress cycle: every lookup ends, answered or -EBUSY.
 *
 * Mutants (make model checks that each one FAILS):
 *  -DMUTANT=1  the 2020 RFC's reader: independent READ_ONCE()s, no
 *              sequence count (the torn pair of docs/algorithms.md)
 *  -DMUTANT=2  with -DLIVE: the reader retries while the writer is busy,
 *              without bound (livelock under a writer that never stops)
 */

#ifndef MUTANT
#define MUTANT		0
#endif
#ifndef RETRIES
#define RETRIES		8	/* TP_RING_READ_RETRIES */
#endif
#ifndef NREC
#define NREC		3	/* passes recorded (slot 0 is reused) */
#endif
#ifndef NLOOK
#define NLOOK		1	/* lookups */
#endif

#ifdef LIVE
#define BUMP		seq = (seq + 1) % 4	/* see latch.pml */
#define NEXT(p)		((p) % 3 + 1)
#else
#define BUMP		seq++
#define NEXT(p)		((p) + 1)
#endif

byte seq;			/* struct tp_seqcount */
byte nr;			/* ring->nr (small: one word) */
/* pass[slot]: start (lo, hi), time (lo, hi) */
byte ps_lo[2], ps_hi[2], pt_lo[2], pt_hi[2];

/*
 * tp_scan_ring_record(ring, start, now): the stores between
 * tp_seq_write_begin() (seq++; smp_wmb()) and tp_seq_write_end()
 * (smp_wmb(); seq++), in any order:
 *	tp_write_once(ring->pass[idx].start, start);	// two halves
 *	tp_write_once(ring->pass[idx].time, now);	// two halves
 *	tp_write_once(ring->nr, nr + 1);
 * (the offset, run and prev_run stores are more of the same: the search
 * reads them, and whatever they hold, it ends at a pass). -DLIVE, which
 * checks progress only, keeps the count's store alone.
 */
inline record(p)
{
	idx = (p - 1) & 1;
	BUMP;					/* tp_seq_write_begin() */
#ifndef LIVE
	w = 0;
	do
	:: atomic { !(w & 1) -> ps_lo[idx] = p; w = w | 1 }
	:: atomic { !(w & 2) -> ps_hi[idx] = p; w = w | 2 }
	:: atomic { !(w & 4) -> pt_lo[idx] = p; w = w | 4 }
	:: atomic { !(w & 8) -> pt_hi[idx] = p; w = w | 8 }
	:: atomic { !(w & 16) -> nr = p; w = w | 16 }
	:: w == 31 -> break
	od;
#else
	nr = p;
#endif
	BUMP;					/* tp_seq_write_end() */
	w = 0
}

proctype writer()
{
	byte p = 0, idx, w;

#ifdef LIVE
	do
	:: p = NEXT(p);
#else
	do
	:: p < NREC -> p = NEXT(p);
#endif
		record(p)
#ifndef LIVE
	:: else -> break
#endif
	od
}

/*
 * tp_scan_ring_latency(): at most RETRIES attempts of
 *	seq = tp_seq_read_begin(&ring->seq);	// seq load; smp_rmb()
 *	if (seq & 1) continue;
 *	nr = tp_read_once(ring->nr);
 *	... the search: pass_start() of passes, ring->offset, run, ...
 *	time = tp_read_once(ring->pass[hit & mask].time);
 *	if (tp_seq_read_retry(&ring->seq, seq))	// smp_rmb(); seq load
 *		continue;
 * then -EBUSY.
 */
inline lookup()
{
	tries = 0;
	ok = false;
	do
	:: tries < RETRIES || MUTANT == 2 ->
		s = seq;
		if
		:: MUTANT != 1 && (s & 1) -> goto retry
		:: else
		fi;
		n = nr;
		if
		:: n == 0 -> goto check		/* -ENOENT */
		:: else
		fi;
		/* the search ends at the newest pass or an older one */
		if
		:: hit = n
		:: n > 1 -> hit = n - 1
		fi;
#ifndef LIVE
		/* its start and its time, in any order */
		r = 0;
		do
		:: atomic { !(r & 1) -> sl = ps_lo[(hit - 1) & 1]; r = r | 1 }
		:: atomic { !(r & 2) -> sh = ps_hi[(hit - 1) & 1]; r = r | 2 }
		:: atomic { !(r & 4) -> tl = pt_lo[(hit - 1) & 1]; r = r | 4 }
		:: atomic { !(r & 8) -> th = pt_hi[(hit - 1) & 1]; r = r | 8 }
		:: r == 15 -> break
		od;
#endif
check:
#if MUTANT == 1
		ok = true; break			/* no sequence count */
#else
		if
		:: seq == s -> ok = true; break	/* tp_seq_read_retry() */
		:: else
		fi;
#endif
retry:
#if MUTANT != 2
		tries++
#else
		skip
#endif
	:: else -> break				/* -EBUSY */
	od;
#ifndef LIVE
	/* a pass's own start and time, of the pass the search meant */
	assert(!ok || n == 0 ||
	       (sl == hit && sh == hit && tl == hit && th == hit))
#endif
}

proctype reader()
{
	byte s, n, hit, sl, sh, tl, th, tries, k, r;
	bool ok;

#ifdef LIVE
	do
	:: true ->
#else
	for (k : 1 .. NLOOK) {
#endif
		lookup();
progress:
		atomic {
			s = 0; n = 0; hit = 0; sl = 0; sh = 0; tl = 0; th = 0;
			tries = 0; r = 0; ok = false
		}
#ifdef LIVE
	od
#else
	}
#endif
}

/*
 * A handler on the writer's CPU: once, at any point of the writer, it
 * looks up while the writer is stopped.
 */
proctype handler()
{
	byte s, n, hit, sl, sh, tl, th, tries, r;
	bool ok, busy;

	atomic {
		busy = seq & 1;
		lookup();
		assert(busy && !ok && tries == RETRIES ||
		       !busy && ok && tries == 0)
	}
}

init
{
	atomic {
		run writer();
#ifdef IRQ
		run handler()
#else
		run reader()
#endif
	}
}
