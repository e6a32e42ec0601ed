/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * thresh.pml - the threshold controller's period close (__tp_thresh_due()
 * in lib/tp_inline.h, __tp_thresh_close() in lib/threshold.c, as
 * tp_thresh_update() and tp_decide()'s decide_close() run them) against a
 * concurrent reset: the forget of the free-space bypass
 * (__tp_thresh_forget(), tp_thresh_reset(rearm = false)) or the rearm of
 * tp_node_reset() / tp_thresh_reset(rearm = true).
 *
 * NDEC deciders (2, or 3 with -DNDEC=3) each make NCALL calls at the
 * clock's current time, which moves forward between any two reads of it;
 * a resetter runs once, at any point, either a forget or a rearm. A call
 * reads the candidate count, either before it checks whether the period
 * is over (tp_thresh_update()'s argument, read by its caller) or only
 * once the period is due (tp_decide()'s decide_close()), and if the
 * period is over tries to close it: it reads the start again, and the caller
 * that wins the cmpxchg of the start reads the baseline and the
 * threshold, judges the candidates since the baseline, and stores the
 * baseline (if candidates came) and the threshold. Then the call may
 * count a candidate of its own. Each step below is one access to shared
 * memory; the threshold is the Linux 6.1 variant's arithmetic on small
 * numbers (reference 2, step 1, bound 4; "0" stands for the reference).
 *
 * Checked, every interleaving:
 *  - one closer per period: a close replaces the start that began a
 *    period (a start stored by the init, by a close or by a rearm) and
 *    each period is closed at most once;
 *  - no early close: a close replaces a start more than P ticks before
 *    its own time, a start a rearm moved included;
 *  - the threshold stays 0 (the reference) or inside [step, bound], and a
 *    close moves it by at most one step from the value it read;
 *  - a forget is undone only by a close that had won its cmpxchg before
 *    the forget's store (one in flight): a close that begins after the
 *    forget judges from the reference;
 *  - a rearm that races no close (no close in flight at its stores, none
 *    between them) restarts the baseline: the close of the period it
 *    began judges the candidates counted since the rearm, unless that
 *    closer is delayed past the close of the next period (the race of
 *    -DSTRICT below);
 *  - -DSTRICT checks the tighter claim that every close judges from the
 *    baseline stored by the event that began its period, and FAILS, with
 *    no reset at all (-DNORESET): a closer delayed between its cmpxchg and
 *    its stores (a period of 0, a preempted thread) lets the next
 *    period's closer read the baseline before it; and with a reset, whose
 *    baseline a close in flight may read or overwrite (docs/concurrency.md
 *    states both races);
 *  - no deadlock (every process ends; no step waits).
 *
 * Mutants (make model checks that each one FAILS):
 *  -DMUTANT=1  the start is stored, not cmpxchg'd: two callers that saw
 *              the same period over both close it, the second after the
 *              first began a new one
 *  -DMUTANT=2  the rearm stores the start before the baseline: a closer of
 *              the new period can judge from the old baseline (what a
 *              weakly ordered CPU may do without the start's
 *              store-release, which keeps the baseline's store first)
 *  -DMUTANT=3  the closer reads the threshold before its cmpxchg (a close
 *              that prepares its result before it wins): it can undo a
 *              forget it did not race
 */

#ifndef MUTANT
#define MUTANT		0
#endif
#ifndef NDEC
#define NDEC		2	/* deciders */
#endif
#ifndef NCALL
#define NCALL		2	/* calls per decider */
#endif

#ifndef P
#define P		0	/* period in ticks: 0 closes one at every tick */
#endif
#ifndef TMAX
#define TMAX		2	/* the last time */
#endif
#define REF		2	/* ref_th */
#define UNIT		1	/* the step */
#define MAXTH		4	/* the bound: 2 x ref_th */
#define NGEN		(NDEC * NCALL + 3)

byte start;			/* st->start */
byte th;			/* st->th (0: the reference) */
byte base;			/* st->base */
byte cand;			/* node->cand */
byte clk;			/* the callers' clock */

/* Ghosts. */
byte gen;			/* periods begun: the current one's number */
bool closed[NGEN];		/* periods closed */
#ifdef STRICT
byte want[NGEN];		/* the baseline its starter meant for a period */
#define WANT(g, v)	want[g] = v
#else
#define WANT(g, v)	skip
#endif
bool ifl[NDEC];			/* a closer between its cmpxchg and its baseline store */
byte repl[NDEC];		/* the period it closed */
bool fdone;			/* the forget stored 0 */
byte rgen;			/* the period the rearm began, 0: none */
byte rnc;			/* the rearm's baseline */
bool rphase;			/* between the rearm's two stores */
bool rdirty;			/* the rearm raced a close */

inline eff(o, e)
{
	if
	:: o == 0 -> e = REF
	:: o != 0 && o < UNIT -> e = UNIT
	:: o > MAXTH -> e = MAXTH
	:: else -> e = o
	fi
}

/* A close is in flight with a period other than the rearm's. */
#define OLD_IFL(i)	(ifl[i] && repl[i] != rgen)
#if NDEC > 2
#define RACING		(OLD_IFL(0) || OLD_IFL(1) || OLD_IFL(2))
#else
#define RACING		(OLD_IFL(0) || OLD_IFL(1))
#endif

/* The cmpxchg won (or, MUTANT 1, the store done): a period ends. */
inline won()
{
	assert(now - start > P);		/* no early close */
	assert(!closed[gen]);			/* one closer per period */
	closed[gen] = true;
	repl[id] = gen;
	if
	:: rphase && gen != rgen -> rdirty = true
	:: else
	fi;
	ifl[id] = true;
	cas_after_forget = fdone;
	start = now;
	gen++;
	WANT(gen, 255)				/* set by the baseline store */
}

/*
 * The caller's now: the clock may have moved since anyone last read it.
 * (Moving the clock only matters to the next reads of it, so a ticker
 * process would add interleavings and no behaviour.)
 */
inline read_clock(now)
{
	atomic {
		do
		:: clk < TMAX -> clk++
		:: break
		od;
		now = clk
	}
}

/* The new threshold from the old one and the candidates (local). */
inline judge()
{
	eff(o, e);
	d = (nc > b -> nc - b : 0);
	if
	:: d > 1 -> t = (e - UNIT >= UNIT -> e - UNIT : UNIT)
	:: d == 0 -> t = (e + UNIT <= MAXTH -> e + UNIT : MAXTH)
	:: else -> t = e
	fi;
	assert(t >= UNIT && t <= MAXTH);		/* inside the bounds */
	assert(t <= e + UNIT && t + UNIT >= e)		/* one step at most */
}

/*
 * Each atomic block is one access to shared memory with the local
 * computation around it.
 */
inline close()
{
	atomic {
		s = start;				/* start = tp_atomic64_read(&st->start) */
		ok = now - s > P			/* tp_time_diff(now, start) > period */
	};
	if
	:: ok ->
#if MUTANT == 3
		atomic { o = th; rdf = fdone };		/* old = ... tp_atomic64_read(&st->th) */
#endif
#if MUTANT == 1
		atomic { won() };			/* tp_atomic64_set(&st->start, now) */
#else
		atomic {				/* tp_atomic64_try_cmpxchg(&st->start, &start, now) */
			if
			:: start == s -> won()
			:: else -> ok = false
			fi
		};
#endif
		if
		:: ok ->
			atomic {
				b = base;		/* base = tp_atomic64_read(&st->base) */
				/*
				 * a rearm that raced no close restarts the
				 * baseline (unless this closer is so late that
				 * the period it began is closed already)
				 */
				if
				:: repl[id] == rgen && rgen != 0 && !rdirty &&
				   !closed[repl[id] + 1] ->
					assert(b == rnc)
				:: else
				fi;
#ifdef STRICT
				assert(b == want[repl[id]]);
#endif
			};
			atomic {
#if MUTANT != 3
				o = th; rdf = fdone;	/* old = ... tp_atomic64_read(&st->th) */
#endif
				/* a forget before the cmpxchg is not undone */
				assert(!cas_after_forget || rdf);
				judge()
			};
			atomic {				/* if (delta > 0) tp_atomic64_set(&st->base, nr_cand) */
				if
				:: nc > b -> base = nc; WANT(repl[id] + 1, nc)
				:: else -> WANT(repl[id] + 1, b)
				fi;
				ifl[id] = false
			};
			th = t;				/* tp_atomic64_set(&st->th, th) */
		:: else
		fi
	:: else
	fi
}

proctype decider(byte id)
{
	byte k, now, nc, s, b, o, e, d, t;
	bool ok, rdf, cas_after_forget, late;

	for (k : 1 .. NCALL) {
		read_clock(now);			/* the caller's now */
		if
		:: nc = cand; late = false		/* tp_thresh_update(): the caller's argument */
		:: late = true				/* decide_close(): read after the due check */
		fi;
		if
		:: now - start > P ->			/* __tp_thresh_due() */
			if :: late -> nc = cand :: else fi;
			close()
		:: else
		fi;
		if
		:: cand++				/* this call's candidate */
		:: skip
		fi;
		/* dead locals back to 0: fewer states */
		atomic {
			now = 0; nc = 0; s = 0; b = 0; o = 0; e = 0; d = 0;
			t = 0; ok = false; rdf = false; cas_after_forget = false; late = false
		}
	}
}

proctype resetter()
{
	byte now, o, nc;

	read_clock(now);				/* the caller's now */
	o = th;						/* __tp_thresh_forget() */
	if
	:: o != 0 -> atomic { th = 0; fdone = true }
	:: else
	fi;
	if
	:: skip						/* forget only: the bypass */
	:: nc = cand;					/* tp_atomic64_read(&node->cand) */
#if MUTANT == 2
		atomic {				/* tp_atomic64_set(&st->start, now) */
			rdirty = RACING;
			start = now;
			gen++;
			rgen = gen;
			WANT(gen, nc);
			rphase = true
		};
		atomic {				/* tp_atomic64_set(&st->base, nr_cand) */
			rdirty = rdirty || RACING;
			base = nc;
			rnc = nc;
			rphase = false
		}
#else
		atomic {				/* tp_atomic64_set(&st->base, nr_cand) */
			rdirty = RACING;
			base = nc;
			rnc = nc;
			rphase = true
		};
		atomic {				/* tp_atomic64_set(&st->start, now) */
			rdirty = rdirty || RACING;
			start = now;
			gen++;
			rgen = gen;
			WANT(gen, nc);
			rphase = false
		}
#endif
	fi
}

init
{
	atomic {
		gen = 1;			/* the init's period; 0 stands for none */
		WANT(1, 0);
#ifndef NORESET
		run resetter();
#endif
		run decider(0);
		run decider(1);
#if NDEC > 2
		run decider(2)
#endif
	}
}
