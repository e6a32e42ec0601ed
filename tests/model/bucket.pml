/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * bucket.pml - the token bucket's take (__tp_bucket_take() in
 * lib/tp_inline.h, called by tp_limiter_consume() in lib/limiter.c and by
 * tp_decide() in lib/decide.c) with concurrent takers and a tuner that
 * changes the price and the capacity through the settings latch.
 *
 * Units, as in lib/limiter.c: the TAT counts units of 2^-SHIFT tick, U =
 * 2^SHIFT units per tick whatever the rate; a page costs @cost units, the
 * bucket holds @tau units; requests and capacities are at most MAXU units
 * (TP_BUCKET_UNITS_MAX), and a TAT whose latest admission is more than
 * STALE = MAXU >> SHIFT ticks old is stale (a full bucket). The settings
 * are read through the latch: latch.pml proves that a validated read is
 * one whole generation, the one in force at some moment of the read (or a
 * fail-closed -EBUSY), so here that read is one step.
 *
 * The run starts either at init (a full, fresh bucket) or after an idle
 * gap longer than STALE, with any value in the TAT (a wrapped, meaningless
 * one included). A ticker moves the clock; each taker asks NCALL times,
 * for 1 page or for a huge page bigger than the first burst, at the
 * clock's current time; the tuner publishes the second settings meanwhile.
 *
 * Checked (all takers done, every interleaving):
 *  - the admission bound in units: the units admitted are at most
 *    U x (latest - earliest admitting time) + the largest capacity or
 *    request in force, plus, after an idle gap, one request per caller
 *    that raced to take the stale bucket (k stale takes: k - 1 requests);
 *    tunes included, whichever settings each caller used;
 *  - no lost admission: a caller that finds the bucket stale replaces at
 *    most one admission, one made by another caller racing it after the
 *    same gap (every other admission stays counted in the TAT);
 *  - no false debt: a refusal never comes from a TAT left before the gap;
 *  - no deadlock, and every call ends within RETRIES attempts (fail
 *    closed: -EBUSY admits nothing).
 *
 * Mutants (make model checks that each one FAILS):
 *  -DMUTANT=1  the 0.1 tune: it stores a fresh state word, erasing the
 *              admissions made before it (issue 12 item 3)
 *  -DMUTANT=2  no stale check: a TAT left before an idle gap reads as
 *              debt (issue 12 item 4)
 *  -DMUTANT=3  the stale check without the second look at @fresh: a caller
 *              that read @fresh before others took the bucket erases their
 *              admissions (the race this model found in the first 1.0 code)
 */

#ifndef MUTANT
#define MUTANT		0
#endif
#ifndef RETRIES
#define RETRIES		8	/* TP_RETRIES */
#endif
#ifndef NCALL
#define NCALL		2	/* calls per taker */
#endif

#define SHIFT		1	/* U = 2 units per tick */
#define U		2
#define MAXU		8	/* TP_BUCKET_UNITS_MAX */
#define STALE		4	/* MAXU >> SHIFT ticks */
#define T0		6	/* the first time */
#define TMAX		8	/* the last time */
#define HUGE		3	/* pages of a huge page */

/*
 * The settings (struct tp_limiter_set), by generation: 1 at init, 2 tuned.
 * 1: cost 2 (1 page a tick), burst 2 pages: tau 4, n_max 4;
 * 2: cost 1 (2 pages a tick), burst 3 pages: tau 3, n_max 8.
 */
#define COST(g)		((g) == 1 -> 2 : 1)
#define TAU(g)		((g) == 1 -> 4 : 3)
#define NMAX(g)		(MAXU / COST(g))

byte gen = 1;			/* the settings in force (the latch) */

int tat;			/* st->tat, units */
int fresh;			/* st->fresh, ticks */
byte clk = T0;			/* the callers' clock */

/* Ghosts: every admission, and what the TAT holds. */
int sum;			/* units admitted */
byte tmin = 255, tmax;		/* admitting times */
byte cap;			/* largest tau or need in force */
byte maxneed;			/* largest need admitted */
byte nstale;			/* admissions by a caller that saw it stale */
bool pregap;			/* the TAT holds what was there before the gap */
byte chain;			/* admissions in the TAT since the last reset */
byte chain_fresh;		/* ... of which by callers that saw it fresh */
byte ndone;			/* takers done */

/*
 * tp_limiter_tune(): limiter_publish() (latch.pml); here the moment the new
 * settings are in force, as readers see them.
 */
proctype tuner()
{
	gen = 2;
#if MUTANT == 1
	atomic { tat = clk << SHIFT; fresh = clk }	/* the 0.1 tune */
#endif
}

proctype ticker()
{
	do
	:: clk < TMAX -> clk++
	:: else -> break
	od
}

/*
 * One call: the caller reads its clock, then limiter_read() and
 * __tp_bucket_take(); @res: 1 admitted, 0 refused, 2 -EBUSY. Each atomic
 * block below is one access to shared memory (the C line in its comment)
 * with the local computation around it.
 */
inline take()
{
	atomic {
		if				/* 1 page or a huge one */
		:: n = 1
		:: n = HUGE
		fi;
		now = clk			/* the caller's @now */
	};
	/*
	 * limiter_read() (lib/limiter.c): one whole copy of the settings in
	 * force at some moment of the read, or -EBUSY (latch.pml).
	 */
	atomic {
		if
		:: g = gen
		:: res = 2; goto done
		fi;
		/* __tp_bucket_take(st, cost, tau, n_max, shift, stale, n, now) */
		if
		:: n > NMAX(g) -> res = 0; goto done	/* n > n_max */
		:: else
		fi;
		need = n * COST(g);		/* need = n * cost; */
		ns = now << SHIFT;		/* ns = now << shift; */
		tries = 0
	};
again:
	if
	:: tries == RETRIES -> res = 2; goto done	/* return -EBUSY; */
	:: else
	fi;
	/* stale_tat = __tp_bucket_stale(st, stale, now); (read_acquire) */
#if MUTANT == 2
	stale = false;
#else
	stale = (now - fresh > STALE);
#endif
	/* old = tp_atomic64_read(&st->tat); (read_acquire when stale) */
	atomic { old = tat; oldgap = pregap };
#if MUTANT != 3
	/*
	 * if (stale_tat && !__tp_bucket_stale(st, stale, now)) continue;
	 * An admission that the first read of @fresh missed may be in the TAT
	 * just read: it is not stale; look again. (The acquire read of the
	 * TAT makes every @fresh stored before that TAT visible here, as the
	 * sequentially consistent model has it; only an admission whose
	 * @fresh is not stored yet can be missed, one per racing caller.)
	 */
	if
	:: stale ->
		atomic {
			if
			:: now - fresh <= STALE -> tries++; goto again
			:: else
			fi
		}
	:: else
	fi;
#endif
	atomic {
		/* d = old - ns; base = stale_tat || d <= 0 ? ns : old; */
		if
		:: stale || old - ns <= 0 -> base = ns
		:: else -> base = old
		fi;
		/* if (base != ns && base - ns + need > tau) return 0; */
		if
		:: base != ns && base - ns + need > TAU(g) ->
			assert(!oldgap);	/* no false debt */
			res = 0; goto done
		:: else
		fi
	};
	/* tp_atomic64_try_cmpxchg(&st->tat, &old, base + need) */
	atomic {
		if
		:: tat == old ->
			tat = base + need;
			/* ghosts */
			sum = sum + need;
			if :: now < tmin -> tmin = now :: else fi;
			if :: now > tmax -> tmax = now :: else fi;
			if :: TAU(g) > cap -> cap = TAU(g) :: else fi;
			if :: need > cap -> cap = need :: else fi;
			if :: need > maxneed -> maxneed = need :: else fi;
			if
			:: stale ->
				nstale++;
				/* what it replaces: one racing take at most */
				assert(pregap || (chain <= 1 && chain_fresh == 0));
				pregap = false;
				chain = 1;
				chain_fresh = 0
			:: else ->
				chain++;
				chain_fresh++
			fi
		:: else -> tries++; goto again
		fi
	};
	fresh = now;				/* tp_atomic64_set_release(&st->fresh, now) */
	res = 1;
done:
	skip
}

proctype taker()
{
	byte g, tries, n, now, k, res;
	int need, ns, old, base;
	bool stale, oldgap;

	for (k : 1 .. NCALL) {
		take();
		/* dead locals: not part of the next call's state */
		atomic {
			g = 0; tries = 0; n = 0; now = 0; res = 0;
			need = 0; ns = 0; old = 0; base = 0; stale = false;
			oldgap = false
		}
	}
	ndone++
}

/* The bound, once every taker is done. */
proctype judge()
{
	int slack = 0;

	ndone == 2;
	if
	:: nstale > 1 -> slack = (nstale - 1) * maxneed
	:: else
	fi;
	assert(sum == 0 || sum <= U * (tmax - tmin) + cap + slack)
}

init
{
	atomic {
#ifndef GAP
		tat = T0 << SHIFT;			/* tp_limiter_init() at T0 */
		fresh = T0;
		run tuner();
#else
		fresh = T0 - STALE - 1;			/* idle since, any TAT: */
		pregap = true;
		if
		:: tat = 0				/* long repaid */
		:: tat = (T0 + 1) << SHIFT		/* a wrapped one: "debt" */
		:: tat = (T0 + 9) << SHIFT		/* beyond any capacity */
#ifdef ABA
		/*
		 * A TAT the post-gap admissions reach again: in C a gap
		 * within tau of a multiple of 2^64 clock units. A stale
		 * caller that read it before the others took the bucket and
		 * came back to it then replaces their admissions (an ABA on
		 * the TAT's cmpxchg): a known limit, see limiter.h.
		 */
		:: tat = (T0 + 2) << SHIFT
#endif
		fi;
#endif
		run ticker();
		run taker();
		run taker();
		run judge()
	}
}
