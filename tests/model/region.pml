/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * region.pml - the runtime's region slot against its fault handler
 * (examples/runtime: handler() in tprt_signal.c, tprt_region_find() in
 * tprt_core.c, tprt_fault_at() and region_state() in tprt_fault.c, against
 * region_retire() (tprt_unregister()), tprt_register() reusing the slot,
 * and with -DINIT tprt_shutdown() then tprt_init(), in tprt_core.c).
 *
 * One slot. Registration A (ranges as small addresses: [2, 4)) is live;
 * the registrar unregisters it and registers B ([0, 2)) in the same slot,
 * with -DTWICE then unregisters B and registers C (A's range again, a new
 * generation). NH handlers fault once each, anywhere in the registrar's
 * run, at an address of A's range or of B's (a page the program protected
 * itself faults too): each counts itself in tprt_inflight, looks the slot
 * up (state, generation, range), checks it with region_state() and, if the
 * region is its own, acts on it (the block bits, the mprotect() of the
 * block, the decision's reads of the arrays). Generations are the
 * registrations' ids (A 1, B 2, C 3; 0 after tprt_init()'s memset()).
 *
 * Orders. The registrar's stores are seq_cst or release, each after the
 * ones before it; the drain's loads are seq_cst. The handler's fetch_add
 * is seq_cst and the lookup's state load is seq_cst since this model found
 * the store-buffering race of -DMUTANT=5 (an acquire load may be satisfied
 * before the increment is visible: C11 allows it, ARMv8.3 RCpc LDAPR and
 * POWER do it): so the increment comes first here; every later load of
 * the handler is after an acquire, in program order, but the lookup's
 * start and end (two relaxed loads), read in either order.
 *
 * Checked (assertions, at each step of the handler's action):
 *  - the arrays it touches are mapped, and are the ones of the region
 *    whose generation it found (never freed ones, never another's);
 *  - its address is in that region's range (never B's arrays with A's
 *    address) and the range is the slot's;
 *  - it never changes the protection of a range the program owns again:
 *    from tprt_unregister()'s return until the range is registered again;
 *  - no deadlock: every drain ends once the handlers have left (the
 *    drain is the wait for tprt_inflight == 0); with -DLIVE (a registrar
 *    that never stops, handlers that fault NFAULT times), no non-progress
 *    cycle: every drain ends. -DSTARVE, a known limit (expected to fail):
 *    handlers that never stop faulting can keep a drain waiting for ever
 *    (it needs a moment with no handler in flight, of any region).
 *
 * And the retire count (gone() in tprt_fault.c, tprt_retired bumped in
 * region_retire() after the restore, before DEAD): A's block starts
 * protected by the runtime (P_RT), B's range by the program (P_PROG); the
 * program may protect A's range after its unregister, the scanner a new
 * region's block; a thread's access faults only on a protected page, and
 * after "handled" or "retry" it runs again at any later point (MAXF faults
 * at most, asserted: no retry loop; -DNACC=2 a second access, either
 * range; -DNORETRY no access again, for the larger configurations):
 *  - a fault on the runtime's protection is never passed on;
 *  - a retry needs a retire since the thread's last one: with none in
 *    between, the program's own fault is passed on.
 *
 * Redundant guards (checks that pass with one removed): with the drain
 * after DEAD in region_retire(), the reuse's FREE store (-DNOFREE) and its
 * drain (-DNOREDRAIN) are a second guard. The drain after DEAD has waited
 * for every handler that could see the old region alive, and a handler
 * counted later takes a DEAD slot for dead; FREE and the reuse's drain
 * keep such a handler from reading the new generation with the old range
 * (what the range's order before the generation, -DMUTANT=4, and the
 * generation's check, -DMUTANT=2, guard as well: each pair is caught).
 *
 * Mutants (make model checks that each one FAILS):
 *  -DMUTANT=1  region_retire() returns without draining: a handler that
 *              found the region alive opens a block of a range the
 *              program owns again
 *  -DMUTANT=2  region_state() ignores the generation: with -DINIT (the
 *              slots cleared without a drain) or -DNOFREE, a handler that
 *              found the dead region acts on the new one with its address
 *  -DMUTANT=3  tprt_register() publishes the generation after LIVE: a
 *              handler acts on B with A's generation
 *  -DMUTANT=4  tprt_register() publishes the range after the generation:
 *              with -DNOFREE, B's generation with A's range and address
 *  -DMUTANT=5  the lookup's state load only acquire (the code before this
 *              model): the handler's loads may pass its increment, the
 *              drain reads 0 and the handler acts on the range and the
 *              arrays after unregister returned and the arrays are freed
 *  -DMUTANT=6  region_state() takes FREE for alive (it only turned DEAD
 *              away: the code before the generation): a handler that
 *              found the dead region acts while tprt_register() drains
 *  -DMUTANT=7  the code before tprt_retired: a fault that finds no region
 *              is passed on, a dead one retried once per address: A's
 *              fault whose handler runs after B took the slot is passed on
 *  -DMUTANT=8  the count bumped after the DEAD store (10: after the
 *              drain): a handler that reads DEAD sees the old count
 *  -DMUTANT=9  the count bumped before the restore (-DNACC=2): a thread's
 *              retry of its other access reads the new count before its
 *              fault on A's still protected block, which is passed on
 * (With -DMUTANT=5 the new assertion, a runtime fault passed on, is the
 * one hit first.)
 */

#ifndef MUTANT
#define MUTANT		0
#endif
#ifndef NH
#define NH		2	/* handlers */
#endif
#ifndef NFAULT
#define NFAULT		2	/* -DLIVE: faults per handler */
#endif
#ifndef NACC
#define NACC		1	/* accesses per handler, each at either range */
#endif
#ifndef MAXF
#define MAXF		6	/* faults per handler: more is a retry loop */
#endif

#define R_FREE		0	/* TPRT_R_FREE */
#define R_LIVE		1	/* TPRT_R_LIVE */
#define R_DYING		2	/* TPRT_R_DYING */
#define R_DEAD		3	/* TPRT_R_DEAD */

/* Registration k's range: A (1) and C (3) [2, 4), B (2) [0, 2). */
#define RS(k)		((k) == 2 -> 0 : 2)
#define RE(k)		((k) == 2 -> 2 : 4)
#define RANGE(k)	((k) == 2 -> 0 : 1)
#define IN(k, a)	((k) != 0 && (a) >= RS(k) && (a) < RE(k))

/* struct tprt_region's words, and tprt_inflight */
byte state = R_LIVE, gen = 1, start = 2, end = 4;
byte inflight;
/* Ghosts: whose arrays the slot maps (0: none); ranges the program owns. */
byte arr = 1;
bool prog[2] = true;		/* prog[1] (A's) is set false in init */
#ifndef LIVE
byte retired;			/* tprt_retired */
/*
 * Ghost: each range's protection, 0 open, P_RT a registration's block
 * (the scanner's mprotect()), P_PROG the program's own. In init A's block
 * is protected and B's range the program's, protected by the program.
 */
#define P_RT		1
#define P_PROG		2
byte prot[2];
#define RETIRE		retired++
#define RESTORE(k)	prot[RANGE(k)] = 0
/*
 * the program protects the range it got back, or not (A's: B's range is
 * the program's, protected, in init; after B's unregister, not again)
 */
#define PROGPROT(k)	if :: (k) != 2 -> prot[RANGE(k)] = P_PROG :: skip fi
/* the scanner protects the new region's block, or not (prot_lock) */
#define SCAN(k)		if :: prot[RANGE(k)] = P_RT :: skip fi
#define HANDIN(k)	prot[RANGE(k)] = 0;
#else
#define RETIRE		skip
#define RESTORE(k)	skip
#define PROGPROT(k)	skip
#define SCAN(k)		skip
#define HANDIN(k)
#endif

/*
 * inflight_drain(): while (atomic_load(&tprt_inflight)) sched_yield();
 * -DLIVE spins (a drain that never ends is then a cycle), else the wait.
 */
#ifdef LIVE
#define DRAIN		do :: inflight == 0 -> break :: else -> skip od
#else
#define DRAIN		inflight == 0
#endif

/*
 * region_retire(), under prot_lock, then tprt_unregister() returns:
 *	atomic_store(&r->state, TPRT_R_DYING);
 *	mprotect(start, len, PROT_READ | PROT_WRITE);	// the runtime's range
 *	atomic_fetch_add(&tprt_retired, 1);
 *	atomic_store(&r->state, TPRT_R_DEAD);
 *	inflight_drain(rt);
 *	tprt_est_set(rt, r, c, 0) for each chunk;	// its own arrays
 * then the program may protect the range it got back itself.
 */
inline unregister(k)
{
	state = R_DYING;
#if MUTANT == 9
	RETIRE;
#endif
	RESTORE(k);
#if MUTANT != 8 && MUTANT != 9 && MUTANT != 10
	RETIRE;
#endif
	state = R_DEAD;
#if MUTANT == 8
	RETIRE;
#endif
#if MUTANT != 1
	DRAIN;
#endif
#if MUTANT == 10
	RETIRE;
#endif
	prog[RANGE(k)] = true;		/* returned: the program's range */
	PROGPROT(k)
}

/*
 * region_fill() and the publication of tprt_register():
 *	r->arrays = mmap(...); r->slow = ...; ...	// plain stores
 *	atomic_store(&r->start, start);
 *	atomic_store(&r->end, start + len);
 *	atomic_store_explicit(&r->gen, ++region_gen, memory_order_release);
 *	atomic_store_explicit(&r->state, TPRT_R_LIVE, memory_order_release);
 * (each seq_cst or release store keeps the stores before it before it).
 */
inline fill(k)
{
	arr = k;
#if MUTANT == 4
	gen = k;
#endif
	start = RS(k);
	end = RE(k);
#if MUTANT != 3 && MUTANT != 4
	gen = k;
#endif
	state = R_LIVE;
#if MUTANT == 3
	gen = k;
#endif
	SCAN(k)
}

/*
 * tprt_register() taking the dead slot (the program hands the range in):
 *	atomic_store(&r->state, TPRT_R_FREE);
 *	inflight_drain(rt);
 *	region_arrays_free(r);				// munmap()
 * then fill().
 */
inline reuse(k)
{
	atomic {
		prog[RANGE(k)] = false;
		HANDIN(k)		/* open: the program hands it in */
#ifndef NOFREE
		state = R_FREE
#endif
	}
#ifndef NOREDRAIN
	DRAIN;
#endif
	arr = 0;
	fill(k)
}

proctype registrar()
{
	byte k = 1, w;

#ifdef LIVE

	do
	:: unregister(k);
		k = 3 - k;
		reuse(k);
progress:	skip
	od
#else
	unregister(1);
#ifdef INIT
	/* tprt_shutdown(): running = 0; inflight_drain(rt); */
	DRAIN;
	/*
	 * tprt_init(), without a drain: region_arrays_free(), then
	 * memset(rt, 0, ...): state, gen, start and end in any order.
	 */
	arr = 0;
	do
	:: atomic { !(w & 1) -> state = R_FREE; w = w | 1 }
	:: atomic { !(w & 2) -> gen = 0; w = w | 2 }
	:: atomic { !(w & 4) -> start = 0; w = w | 4 }
	:: atomic { !(w & 8) -> end = 0; w = w | 8 }
	:: w == 15 -> break
	od;
	/* tprt_register() into the free slot: no drain, no FREE store */
	prog[RANGE(2)] = false;
	HANDIN(2)
	fill(2)
#else
	reuse(2);
#ifdef TWICE
	unregister(2);
	reuse(3)
#endif
#endif
#endif
}

/*
 * MUTANT 5: the increment becomes visible at any point before the
 * handler's first seq_cst access of the region (r->start, r->blk[b]);
 * the loads of the lookup and of region_state() may come before it.
 */
#if MUTANT == 5
#define EARLY	if :: !inc -> atomic { inflight++; inc = true } :: true fi
#else
#define EARLY	skip
#endif
#define COUNTED	if :: !inc -> atomic { inflight++; inc = true } :: else fi

/*
 * gone()'s seq_cst load of tprt_retired may be satisfied before the
 * relaxed loads before it in program order (an LDAR after an LDR on
 * ARMv8; C11 allows it), not before an acquire: SNAP takes the count at
 * such an earlier point (before the lookup's start and end, the earliest
 * and so the stalest; before region_state()'s relaxed generation), and
 * region_state()'s acquire load of the state drops one taken before it
 * (UNSNAP).
 */
#ifndef LIVE
#define SNAP	if :: !cs -> atomic { c = retired; cs = true } :: true fi
#define UNSNAP	cs = false
#else
#define SNAP	skip
#define UNSNAP	skip
#endif

/*
 * handler():
 *	atomic_fetch_add(&tprt_inflight, 1);
 *	tprt_fault():
 *	  tprt_region_find(rt, addr, true, &gen):
 *	    st = atomic_load(&r->state);		// seq_cst
 *	    if (st == TPRT_R_FREE) continue;		// (DEAD: dead = true)
 *	    g = atomic_load_explicit(&r->gen, memory_order_acquire);
 *	    start, end: relaxed loads; addr outside: continue;
 *	  tprt_fault_at(): region_state(r, gen):
 *	    st = atomic_load_explicit(&r->state, memory_order_acquire);
 *	    not LIVE or DYING: retry (TPRT_R_DEAD);
 *	    atomic_load_explicit(&r->gen, relaxed) != gen: retry;
 *	  the action (below)
 *	atomic_fetch_sub(&tprt_inflight, 1);
 */
proctype handler()
{
	byte addr, st, g, s, e;
	bool inc;
	byte n;
#ifndef LIVE
	/* kind: whose protection the access faulted on; seen: retired_seen */
	byte kind, seen, c, nf, na;
	bool cs, pass;
#if MUTANT == 7
	byte ra;			/* retry_addr */
#endif
#endif

#if defined(STARVE)
	do
	:: true ->
#elif defined(LIVE)
	for (n : 1 .. NFAULT) {
#endif
#ifndef LIVE
access:
#endif
	if
	:: addr = 3		/* A's range (C's) */
	:: addr = 1		/* B's range */
	fi;
#ifndef LIVE
	/*
	 * The thread's access (again after a retry, at any later point):
	 * the page open, it succeeds; protected, it faults, on the
	 * runtime's protection (P_RT) or the program's (P_PROG).
	 */
fault:
	atomic {
		if
		:: prot[addr / 2] == 0 -> goto next
		:: else -> kind = prot[addr / 2]; nf++;
			cs = false
		fi
	}
	assert(nf <= MAXF);		/* no retry loop */
#endif
#if MUTANT != 5
	atomic { inflight++; inc = true };
#endif
	EARLY;
	st = state;
	if
	:: st == R_FREE -> goto nofind		/* not found */
	:: else
	fi;
	EARLY;
	g = gen;
	SNAP;
	if
	:: EARLY; s = start; EARLY; e = end
	:: EARLY; e = end; EARLY; s = start
	fi;
	if
	:: addr < s || addr >= e -> goto nofind	/* not found */
	:: else
	fi;
	EARLY;
	atomic { st = state; UNSNAP };
	SNAP;
#if MUTANT == 6
	if
	:: st == R_DEAD -> goto dead
	:: else
	fi;
#else
	if
	:: st != R_LIVE && st != R_DYING -> goto dead	/* TPRT_R_DEAD */
	:: else
	fi;
#endif
#if MUTANT != 2
	EARLY;
	if
	:: gen != g -> goto dead			/* TPRT_R_DEAD */
	:: else
	fi;
#endif
	COUNTED;
#ifndef LIVE
	/*
	 * page = (addr - r->start) >> page_shift;	// seq_cst load
	 * prev = atomic_fetch_and(&r->blk[b], ~TPRT_BLK_PROT);
	 */
	assert(g != 0 && arr == g && IN(g, addr) && start == RS(g));
	/* tprt_restore_blocks(): mprotect() (or UFFDIO_WRITEPROTECT) */
	atomic { assert(!prog[addr / 2]); prot[addr / 2] = 0 };
	/* decide_pages(): the slow bits, the stamp, the pushes */
	assert(arr == g);
	/* handled, or stale (retried): the access again */
#if MUTANT == 7
	ra = 0;
#endif
	pass = false;
	goto out;
nofind:
#if MUTANT == 7
	pass = true;		/* the code before gone(): not ours */
	goto out;
#endif
	goto gone;
dead:
#if MUTANT == 7
	/* before gone(): retried once per address (TLS retry_addr) */
	if
	:: ra == addr -> atomic { ra = 0; pass = true }
	:: else -> atomic { ra = addr; pass = false }
	fi;
	goto out;
#endif
	/*
	 * gone(): c = atomic_load(&tprt_retired);	// seq_cst
	 * the same as retired_seen: not ours; else retired_seen = c, retry.
	 */
gone:
	if
	:: !cs -> c = retired
	:: else
	fi;
	if
	:: c == seen -> pass = true
	:: else ->
		/*
		 * A retry needs a retire since the thread's last one: with
		 * none in between, the fault (the program's own) is passed
		 * on, not retried for ever.
		 */
		assert(retired != seen);
		atomic { seen = c; pass = false }
	fi;
#else
nofind:
dead:
	skip;
#endif
out:
	COUNTED;
	atomic { inflight--; inc = false };
#ifndef LIVE
	if
	:: pass ->
		/* passed on: never a fault on the runtime's protection */
		assert(kind != P_RT);
		goto next
	:: else ->
#ifdef NORETRY
		goto next		/* the retried access not modelled */
#endif
		atomic { st = 0; g = 0; s = 0; e = 0; c = 0; cs = false };
		goto fault
	fi;
next:
	atomic {
		na++; nf = 0; kind = 0; c = 0; cs = false;
		pass = false; st = 0; g = 0; s = 0; e = 0
	};
	if
	:: na < NACC -> goto access
	:: else
	fi
#endif
#ifdef LIVE
	atomic { addr = 0; st = 0; g = 0; s = 0; e = 0 }
#endif
#if defined(STARVE)
	od
#elif defined(LIVE)
	}
#endif
}

init
{
	byte i;

	atomic {
		prog[1] = false;
#ifndef LIVE
		prot[0] = P_PROG;
		prot[1] = P_RT;
#endif
		run registrar();
		for (i : 1 .. NH) {
			run handler()
		}
	}
}
