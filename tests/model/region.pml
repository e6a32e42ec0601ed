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
 *	atomic_store(&r->state, TPRT_R_DEAD);
 *	inflight_drain(rt);
 *	tprt_est_set(rt, r, c, 0) for each chunk;	// its own arrays
 */
inline unregister(k)
{
	state = R_DYING;
	state = R_DEAD;
#if MUTANT != 1
	DRAIN;
#endif
	prog[RANGE(k)] = true		/* returned: the program's range */
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

#if defined(STARVE)
	do
	:: true ->
#elif defined(LIVE)
	for (n : 1 .. NFAULT) {
#endif
	if
	:: addr = 3		/* A's range (C's) */
	:: addr = 1		/* B's range */
	fi;
#if MUTANT != 5
	atomic { inflight++; inc = true };
#endif
	EARLY;
	st = state;
	if
	:: st == R_FREE -> goto out		/* not found: not ours */
	:: else
	fi;
	EARLY;
	g = gen;
	if
	:: EARLY; s = start; EARLY; e = end
	:: EARLY; e = end; EARLY; s = start
	fi;
	if
	:: addr < s || addr >= e -> goto out	/* not found */
	:: else
	fi;
	EARLY;
	st = state;
#if MUTANT == 6
	if
	:: st == R_DEAD -> goto out
	:: else
	fi;
#else
	if
	:: st != R_LIVE && st != R_DYING -> goto out	/* retry */
	:: else
	fi;
#endif
#if MUTANT != 2
	EARLY;
	if
	:: gen != g -> goto out			/* retry */
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
	assert(!prog[addr / 2]);
	/* decide_pages(): the slow bits, the stamp, the pushes */
	assert(arr == g);
#endif
out:
	COUNTED;
	atomic { inflight--; inc = false };
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
		run registrar();
		for (i : 1 .. NH) {
			run handler()
		}
	}
}
