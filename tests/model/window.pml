/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * window.pml - the per-second windows of the 2020 RFC and Linux 6.1
 * (__tp_window_take() in lib/tp_inline.h) over a shared count fed by
 * per-CPU batches (__tp_count(), same file), as tp_decide() and
 * tp_limiter_consume() run them.
 *
 * C CPUs (slots) each make NCALL requests of 1 or NMAX pages at the
 * clock's current time; a ticker moves the clock. Every request is counted
 * first (into its slot; the slot's pending pages go to the shared count
 * once BATCH of them are pending), then the shared count is read, then
 * the window: whoever sees the window more than TPS ticks old and wins the
 * cmpxchg of its start opens the next one and stores the count as its
 * base; a request is admitted when count - base <= LIMIT (RFC2020) or
 * < LIMIT (LINUX61, -DLINUX61). The window starts expired, as
 * __tp_limiter_state_init() leaves it (start TPS + 1 ticks before the
 * init's time 0, base 0) and as the kernels' is at boot: the first request
 * opens the first window at its own time.
 *
 * Checked, every interleaving:
 *  - per window (the admissions that compared against one base), admitted
 *    pages <= LIMIT + C x (BATCH - 1) + C x NMAX: a late fold can hide
 *    BATCH - 1 pages per slot, and every slot can have one request in
 *    flight across the opening (counted before the base was taken,
 *    compared after), admitted for free; -DDOC_BOUND checks the tighter
 *    LIMIT + C x (BATCH - 1) + NMAX that limiter.h stated, and fails;
 *  - one opener per window: an opening replaces a start more than TPS
 *    ticks old, so windows open more than TPS ticks apart;
 *  - no window but a request's: a request compares against the init's
 *    base only once a window has been opened (it read the base before
 *    the opener stored its own), never because the init left a window
 *    open;
 *  - -DOLD_BASE_REFUSED checks what the first 1.0 comment of
 *    __tp_window_take() said, that a caller that reads the base before
 *    the opener stored it is refused, and fails: it may be admitted
 *    against the previous window's base when that window had room (it
 *    then counts against that window, and the bound above holds);
 *  - a slot never has BATCH or more pages pending after its own call;
 *  - at the end, shared + pending == every page counted;
 *  - no deadlock (every process ends; no step waits).
 *
 * -DHANDLER adds a handler that interrupts CPU 0 once and makes one request
 * on its slot (C then counts it as a request in flight, as limiter.h's
 * bound does); -DNSLOT=1 keeps one CPU; -DTUNE lowers the batch to 1 once,
 * at any point (__tp_count()'s batch <= 1 path).
 *
 * -DEXACT (with -DNSLOT=1): one CPU with a batch of 1, where the count is
 * exact, checks the window's own rule rather than the bound: per window,
 * the pages admitted besides the opener's request (whose pages are in the
 * base it takes) are at most LIMIT (RFC2020: refused when count - base >
 * LIMIT, the request's own pages counted) or LIMIT - 1 (LINUX61: >=), as
 * tp_limiter_available() states.
 *
 * Mutants (make model checks that each one FAILS):
 *  -DMUTANT=1  the start is stored, not cmpxchg'd: two callers that saw
 *              the same old window both open one, and the second resets
 *              the base in the middle of the first's window
 *  -DMUTANT=2  the count is read before the request is counted (with
 *              -DEXACT): a window admits a request more than its limit;
 *              the bound above does not see it
 *  -DMUTANT=3  the window opens at init (start 0, the 1.0 code): the
 *              first requests are counted in a window the init opened
 */

#ifndef MUTANT
#define MUTANT		0
#endif
#ifndef NCALL
#define NCALL		2	/* requests per CPU */
#endif

#ifndef NSLOT
#define NSLOT		2
#endif
#ifdef HANDLER
#define C		(NSLOT + 1)	/* requests in flight: slots + handler */
#else
#define C		NSLOT
#endif
#define BATCH		2	/* cand_batch */
#define LIMIT		2	/* pages per window */
#define NMAX		2	/* the largest request */
#define TPS		1	/* ticks per second */
#define TMAX		4	/* the last time */
#ifdef LINUX61
#define XLIMIT		(LIMIT - 1)	/* -DEXACT: admitted besides the opener */
#else
#define XLIMIT		LIMIT
#endif

#ifdef DOC_BOUND
#define BOUND		(LIMIT + C * (BATCH - 1) + NMAX)
#else
#define BOUND		(LIMIT + C * (BATCH - 1) + C * NMAX)
#endif

int shared;			/* l->count or node->cand (tp_atomic64) */
int diff[NSLOT];		/* the slots' pending pages (tp_local64) */
#ifdef EXACT
int batch = 1;			/* the batch in force */
#else
int batch = BATCH;		/* the batch in force (a tune may lower it) */
#endif
#if MUTANT == 3
int start = 0;			/* st->start: a window the init opened */
#else
int start = -(TPS + 1);		/* st->start: expired at init (time 0) */
#endif
int base;			/* st->base */
byte clk;			/* the callers' clock */

/* Ghosts. */
byte bgen;			/* the window whose base is in @base (0: init's) */
byte nwin;			/* windows opened (bases stored) */
byte nstart;			/* starts moved (cmpxchg won) */
byte adm[TMAX + 2];		/* pages admitted per window */
byte admx[TMAX + 2];		/* the same, the opener's request left out */
int counted;			/* pages counted */
byte ndone;
bool hdone;

proctype ticker()
{
	do
	:: clk < TMAX -> clk++
	:: else -> break
	od
}

/*
 * __tp_count(shared, diff, n, batch), lib/tp_inline.h:
 *	fold = tp_local64_read(diff) + n >= batch;
 *	tp_local64_add(diff, n);
 *	if (fold)
 *		tp_atomic64_add(shared, tp_local64_xchg(diff, 0));
 */
inline count(i)
{
	bt = batch;
	if
	:: bt <= 1 ->
		atomic { counted = counted + n };
		if
		:: diff[i] != 0 ->
			atomic { d = diff[i]; diff[i] = 0 }
		:: else
		fi;
		shared = shared + n + d;
		d = 0;
		goto counted_done
	:: else
	fi;
	d = diff[i] + n;				/* fold = tp_local64_read(diff) + n >= batch */
	atomic { diff[i] = diff[i] + n; counted = counted + n };	/* tp_local64_add() */
	if
	:: d >= BATCH ->
		atomic { d = diff[i]; diff[i] = 0 };	/* tp_local64_xchg(diff, 0) */
		shared = shared + d			/* tp_atomic64_add(shared, d) */
	:: else
	fi;
counted_done:
#ifdef HANDLER
	assert(diff[i] < BATCH + NMAX)	/* a handler's request on top */
#else
	assert(diff[i] < BATCH)
#endif
}

inline request(i)
{
		atomic {
			if
			:: n = 1
			:: n = NMAX
			fi;
			now = clk			/* the caller's @now */
		};
#if MUTANT == 2
		cnt = shared;				/* read before counting */
		count(i);
#else
		count(i);
		/* __tp_window_take(st, tp_atomic64_read(count), ...) */
		cnt = shared;				/* tp_atomic64_read(count) */
#endif
		atomic {
			st = start;			/* start = read(&st->start) */
			if				/* the window is over? */
			:: now - st > TPS
			:: else -> goto used
			fi
		};
#if MUTANT == 1
		atomic {				/* start = now, no cmpxchg */
			assert(now - start > TPS);
			start = now;
			nstart++
		};
#else
		atomic {				/* try_cmpxchg(&st->start, &start, now) */
			if
			:: start == st ->
				assert(now - start > TPS);
				start = now;
				nstart++
			:: else -> goto used
			fi
		};
#endif
		atomic { base = cnt; nwin++; bgen = nwin; opened = true };	/* set(&st->base, count) */
used:
		atomic {
			b = base;			/* used = count - read(&st->base) */
			g = bgen;
			/* the init's base only once a request opened a window */
			assert(g > 0 || nstart > 0);
			/* used is a u64: a count below the base is huge */
#ifdef LINUX61
			adm_ok = cnt >= b && cnt - b < LIMIT;
#else
			adm_ok = LIMIT && cnt >= b && cnt - b <= LIMIT;
#endif
			if
			:: adm_ok ->
				adm[g] = adm[g] + n;
				assert(adm[g] <= BOUND);
#ifdef EXACT
				if
				:: !opened ->
					admx[g] = admx[g] + n;
					assert(admx[g] <= XLIMIT)
				:: else
				fi;
#endif
#ifdef OLD_BASE_REFUSED
				/* a base read before the opener stored it */
				assert(g == nstart)
#else
				skip
#endif
			:: else
			fi;
			d = 0; cnt = 0; b = 0; st = 0; g = 0; n = 0; now = 0;
			adm_ok = false; opened = false
		}
}

proctype cpu(byte i)
{
	byte k, n, now, g, bt;
	int st;
	int d, cnt, b;
	bool adm_ok, opened;

	for (k : 1 .. NCALL) {
		request(i)
	}
	ndone++
}

proctype handler()
{
	byte n, now, g, bt;
	int st;
	int d, cnt, b;
	bool adm_ok, opened;

	atomic { request(0) }
	hdone = true
}

proctype tuner()
{
	batch = 1
}

init
{
	atomic {
		run ticker();
#ifdef HANDLER
		run handler();
#endif
#ifdef TUNE
		run tuner();
#endif
		run cpu(0);
#if NSLOT > 1
		run cpu(1)
#endif
	};
	ndone == NSLOT;
#ifdef HANDLER
	hdone;
#endif
#if NSLOT > 1
	assert(shared + diff[0] + diff[1] == counted)
#else
	assert(shared + diff[0] == counted)
#endif
}
