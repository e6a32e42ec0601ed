/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * variant.pml - a change of limiter variant under callers
 * (tp_limiter_tune() or tp_policy_tune() while tp_limiter_consume() or
 * tp_decide() run; struct tp_limiter_state in include/tierpol/limiter.h).
 *
 * The tuner switches a window limiter to the token bucket and back; two
 * callers each make two requests, each reading the variant through the
 * latch (one step: latch.pml) and then touching the state words of that
 * variant, one access per step (lib/tp_inline.h __tp_bucket_take() and
 * __tp_window_take(), lib/limiter.c tp_limiter_consume()). A caller that
 * read the variant before a switch works on after it: the model shows
 * such callers exist. Every state word carries, as a ghost, the variant
 * whose code wrote it last.
 *
 * Checked: no state word is ever read by one variant's code after the
 * other variant's code wrote it (a change of variant never reinterprets
 * live state); no deadlock.
 *
 * What it does not cover: under tp_decide() the window's count is the
 * node's candidate count (node->cand), which decide.c adds to for every
 * variant, the bucket's included. After a switch from the bucket to a
 * window whose second has not ended, the bucket's candidates count
 * against that window: it refuses more, never admits more (limiter.h).
 *
 * Mutant (make model checks that it FAILS):
 *  -DMUTANT=1  the 0.1 layout: the bucket's words in a union with the
 *              window's (the TAT on the window start, the bucket's second
 *              word on the count): a late window caller's count lands in
 *              the bucket, a late bucket caller's TAT becomes the window
 *              start (issue 12 item 1)
 */

#ifndef MUTANT
#define MUTANT		0
#endif

#define INIT		0
#define BUCKET		1
#define WINDOW		2

/* The state words (struct tp_limiter_state, tp_limiter.count). */
#if MUTANT == 1
#define TAT		0	/* union { struct { tat, scale } bucket; */
#define FRESH		1
#define START		0	/*         struct { start, count } window; } */
#define COUNT		1
#define BASE		2
#define NWORDS		3
#else
#define TAT		0
#define FRESH		1
#define START		2
#define BASE		3
#define COUNT		4
#define NWORDS		5
#endif

byte word[NWORDS];		/* values do not matter here: who wrote them */
byte tag[NWORDS];		/* ghost: the variant that wrote each word */
byte variant = WINDOW;		/* the settings in force */

inline rd(w, v)
{
	atomic { assert(tag[w] == INIT || tag[w] == v); x = word[w] }
}

inline wr(w, v)
{
	atomic { word[w] = x + 1; tag[w] = v }
}

proctype tuner()
{
	variant = BUCKET;
	variant = WINDOW
}

proctype caller()
{
	byte k, v, x;

	for (k : 1 .. 2) {
		v = variant;			/* limiter_read() */
		if
		:: v == BUCKET ->		/* __tp_bucket_take() */
			rd(FRESH, BUCKET);	/* read_acquire(&st->fresh) */
			rd(TAT, BUCKET);	/* read(&st->tat) */
			wr(TAT, BUCKET);	/* try_cmpxchg(&st->tat, ...) */
			wr(FRESH, BUCKET)	/* set_release(&st->fresh, now) */
		:: v == WINDOW ->
			rd(COUNT, WINDOW);	/* __tp_count(): add to count */
			wr(COUNT, WINDOW);
			rd(START, WINDOW);	/* __tp_window_take(): start */
			if
			:: wr(START, WINDOW);	/* it opens a window */
				wr(BASE, WINDOW)
			:: skip
			fi;
			rd(BASE, WINDOW)
		fi;
		x = 0
	}
}

init
{
	atomic {
		run tuner();
		run caller();
		run caller()
	}
}
