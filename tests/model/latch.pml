/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * latch.pml - the settings latch (lib/tp_seam.h tp_latch_*, and its users
 * limiter_publish()/limiter_read() in lib/limiter.c, thresh_publish()/
 * thresh_read() in lib/threshold.c, policy_publish()/__tp_policy_read() in
 * lib/policy.c, the reads of tp_decide() in lib/decide.c).
 *
 * A tuner publishes generations 2..NGEN of the settings; readers read one
 * copy and validate it, at most RETRIES times, then fail closed. Every
 * 64-bit field is two 32-bit halves written and read separately (a 32-bit
 * target, where READ_ONCE() of a u64 is two loads); a 64-bit target's runs
 * are the subset where both halves move together. Between two fences the
 * writer's stores, and between two fences the reader's loads, may happen in
 * any order: the model lets them (the nondeterministic loops below).
 *
 * Checked:
 *  - a validated read never combines two generations (torn or mixed);
 *  - it is never older than the generation completed before the read
 *    began, nor newer than the one being published, and a reader's
 *    successive reads never go back in time;
 *  - a handler that interrupts the tuner (runs to completion while the
 *    tuner is stopped) reads the settings on its first attempt: the latch
 *    reader never waits for the writer;
 *  - no deadlock (every process ends); with -DLIVE (tuner and readers loop
 *    for ever), no non-progress cycle under weak fairness: every reader
 *    completes its reads, validated or fail-closed (bounded retries).
 *
 * Mutants (make model checks that each one FAILS):
 *  -DMUTANT=1  the 0.1 reader: no validation, the fields of whatever copy
 *              it happened to read are used (torn / mixed settings, issue
 *              12 items 1 and 8)
 *  -DMUTANT=2  the writer writes a copy before flipping the count to the
 *              other one (the latch steps in the wrong order)
 *  -DMUTANT=3  with -DLIVE: the reader retries without bound (livelock
 *              under a tuner that never stops)
 */

#ifndef MUTANT
#define MUTANT		0
#endif
#ifndef NGEN
#define NGEN		3	/* generations: 1 at init, 2..NGEN tuned */
#endif
#ifndef RETRIES
#define RETRIES		8	/* TP_RETRIES, include/tierpol/types.h */
#endif
#ifndef NREAD
#define NREAD		2	/* reads per reader */
#endif

/*
 * One copy of the settings, as words: cost (a u64: two halves) and variant
 * (a u32); the other fields are more of the same. Each word holds the
 * generation that wrote it.
 */
#ifndef LIVE
#define NW		3
#define ALLW		7	/* (1 << NW) - 1 */
#else
#define NW		1	/* progress does not depend on the values */
#define ALLW		1
#endif

byte seq;			/* struct tp_latch: the sequence count */
/*
 * A tuner that never stops wraps any finite count: the C count is 32 bits
 * wide, so a reader would have to stall across 2^31 tunes to be fooled by
 * the wrap. The finite runs never wrap it; -DLIVE, which checks progress
 * only, keeps it modulo 4 (its parity, the copy to read, is kept).
 */
#ifdef LIVE
#define FLIP		seq = (seq + 1) % 4
#else
#define FLIP		seq++
#endif
byte cp[2 * NW];		/* struct tp_limiter_set set[2] */
byte done_gen = 1;		/* ghost: last generation fully published */
byte pub_gen = 1;		/* ghost: generation being published */
bool tuning;			/* ghost: the tuner is between two steps */

/*
 * __tp_limiter_set_write(&set[i], s): one tp_write_once() per word, in any
 * order between the two fences of tp_latch_flip().
 */
inline write_copy(i, g)
{
	wdone = 0;
	do
	:: atomic { !(wdone & 1) -> cp[(i) * NW + 0] = g; wdone = wdone | 1 }
#if NW > 1
	:: atomic { !(wdone & 2) -> cp[(i) * NW + 1] = g; wdone = wdone | 2 }
#endif
#if NW > 2
	:: atomic { !(wdone & 4) -> cp[(i) * NW + 2] = g; wdone = wdone | 4 }
#endif
	:: wdone == ALLW -> break
	od
}

/* __tp_limiter_set_read(s, &set[i]): one tp_read_once() per word. */
inline read_copy(i)
{
	rdone = 0;
	do
	:: atomic { !(rdone & 1) -> r[0] = cp[(i) * NW + 0]; rdone = rdone | 1 }
#if NW > 1
	:: atomic { !(rdone & 2) -> r[1] = cp[(i) * NW + 1]; rdone = rdone | 2 }
#endif
#if NW > 2
	:: atomic { !(rdone & 4) -> r[2] = cp[(i) * NW + 2]; rdone = rdone | 4 }
#endif
	:: rdone == ALLW -> break
	od
}

/*
 * limiter_read() (lib/limiter.c): at most RETRIES attempts of
 *	seq = tp_latch_begin(&l->latch);	// seq load; smp_rmb()
 *	__tp_limiter_set_read(s, &l->set[seq & 1]);
 *	if (!tp_latch_retry(&l->latch, seq))	// smp_rmb(); seq load
 *		return true;
 * then false (the caller fails closed). @g0: the generation completed
 * when the read began; @ok: validated; @g: the generation read.
 */
inline latch_read()
{
	tries = 0;
	ok = false;
	do
	:: tries < RETRIES || MUTANT == 3 ->
		atomic { s = seq; g0 = done_gen }	/* tp_latch_begin() */
		read_copy(s & 1);
#if MUTANT == 1
		ok = true;				/* no validation */
		break
#else
		if
		:: seq == s -> ok = true; break		/* tp_latch_retry() */
#if MUTANT == 3
		:: else					/* retry for ever */
#else
		:: else -> tries++
#endif
		fi
#endif
	:: else -> break				/* fail closed */
	od
}

/* What a validated read guarantees. */
inline check_read()
{
	if
	:: ok ->
#ifndef LIVE
		assert(r[0] == r[1] && r[1] == r[2]);
		assert(r[0] >= g0 && r[0] <= pub_gen);	/* not stale, real */
		assert(r[0] >= last);			/* monotonic */
		last = r[0]
#endif
	:: else
	fi
}

/*
 * limiter_publish() (lib/limiter.c), callers serialise tunes:
 *	for (i = 0; i < 2; i++) {
 *		tp_latch_flip(&l->latch);	// smp_wmb(); seq++; smp_wmb()
 *		__tp_limiter_set_write(&l->set[i], s);
 *	}
 */
proctype tuner()
{
	byte g = 1, wdone, i;

#ifdef LIVE
	do
	:: g = (g + 1) % 3;
#else
	do
	:: g < NGEN -> g++;
#endif
		pub_gen = g;
		tuning = true;
		for (i : 0 .. 1) {
#if MUTANT == 2
			write_copy(i, g);
			FLIP;
#else
			FLIP;				/* tp_latch_flip() */
			write_copy(i, g);
#endif
		}
		atomic { done_gen = g; tuning = false }
#ifndef LIVE
	:: else -> break
#endif
	od
}

proctype reader()
{
	byte s, g0, tries, rdone, last, k;
	byte r[NW];
	bool ok;

#ifdef LIVE
	do
	:: latch_read();
		check_read();
progress:	atomic { s = 0; tries = 0; rdone = 0; g0 = 0; ok = false }
	od
#else
	for (k : 1 .. NREAD) {
		latch_read();
		check_read();
		atomic { s = 0; tries = 0; rdone = 0; g0 = 0; ok = false }
	}
#endif
}

/*
 * An interrupt (or signal) handler on the tuner's CPU: once, at any point
 * of the tuner, it runs to completion while the tuner is stopped. It must
 * not need the tuner to move on: its first attempt validates.
 */
proctype handler()
{
	byte s, g0, tries, rdone, last;
	byte r[NW];
	bool ok;

	atomic {
		latch_read();
		check_read();
		assert(ok && tries == 0)
	}
}

init
{
	byte i;

	atomic {
		/* tp_limiter_init(): seq 0, then the first publication. */
		for (i : 0 .. 2 * NW - 1) {
			cp[i] = 1
		}
		seq = 2;
		run tuner();
		run reader();
#ifndef LIVE
		run handler()
#endif
	}
}
