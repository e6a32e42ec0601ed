// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The SIGSEGV and SIGBUS handlers and their chaining.
 *
 * tprt_init() installs one handler for both signals and keeps the actions
 * installed before (again at each tprt_init() if someone replaced it). A fault that is not the runtime's (outside registered
 * memory, another si_code, a fault raised with kill()) goes to the previous
 * action: its handler, called with its own signal mask, or the default
 * action (the disposition is reset and the faulting access runs again, so
 * the process dies of the same signal with the same core dump; a signal
 * that was sent is sent again); a signal sent with kill(), or a memory
 * error the kernel reports early (BUS_MCEERR_AO), that was ignored stays
 * ignored (a fault cannot be: the kernel gives it the default action). The
 * handlers stay installed after tprt_shutdown(): a fault that raced the
 * shutdown must still find them.
 *
 * Async-signal safety: the handler runs with every signal blocked, saves
 * and restores errno, and calls only tprt_fault() (atomics, mprotect,
 * ioctl, futex), clock_gettime(), getrusage() (the default CPU clock: a
 * plain system call on Linux, though not on POSIX's async-signal-safe
 * list), sigaction(), pthread_sigmask(), getpid(), gettid(),
 * rt_tgsigqueueinfo() and raise().
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>
#include <sys/syscall.h>

#include "tprt_impl.h"

static struct sigaction old_act[2];	/* SIGSEGV, SIGBUS */
/*
 * A handler installed over the runtime's while it ran, which chains to its
 * own predecessor (the runtime's handler, as crash reporters do), becomes
 * the runtime's previous one at the next tprt_init(): the two would call
 * each other until the stack overflows. For such a handler (@over_us)
 * chain() notes where on this thread's stack it calls it (@chain_sp), and
 * is it reentered deeper on the stack, it is that handler calling back:
 * the default action instead. A previous handler that left with longjmp()
 * leaves a stale note, which a later fault at the same depth or above
 * replaces; only such a handler, left that way, then faulting deeper, would
 * be taken for a loop.
 */
static bool installed[2], over_us[2];
static __thread __attribute__((tls_model("initial-exec"))) uintptr_t
	chain_sp[2];

static struct sigaction *old_of(int sig)
{
	return &old_act[sig == SIGBUS];
}

/*
 * Call the previous action's handler as the kernel would have: with its
 * sa_mask added to the thread's mask, the signal itself left unblocked under
 * SA_NODEFER (a handler that probes memory relies on a nested fault
 * reaching it), and under SA_RESETHAND the action
 * reset to the default first, so the access it returns to dies of the
 * signal instead of calling a one-shot handler again. Threads faulting at
 * once may each call a one-shot handler once: the kernel resets it under
 * a lock, the runtime's copy is reset by the first of them.
 */
static void call_old(struct sigaction *old, int sig, siginfo_t *info, void *uc)
{
	struct sigaction a = *old;
	sigset_t mask;

	if (a.sa_flags & SA_RESETHAND) {
		memset(old, 0, sizeof(*old));
		old->sa_handler = SIG_DFL;
	}
	/*
	 * The kernel's mask for it: the thread's when the signal came, the
	 * handler's sa_mask and, unless SA_NODEFER, the signal (the
	 * runtime's handler itself runs with every signal blocked).
	 */
	if (uc)
		mask = ((ucontext_t *)uc)->uc_sigmask;
	else
		pthread_sigmask(SIG_SETMASK, NULL, &mask);
	sigorset(&mask, &mask, &a.sa_mask);
	if (!(a.sa_flags & SA_NODEFER))
		sigaddset(&mask, sig);
	pthread_sigmask(SIG_SETMASK, &mask, NULL);
	if (a.sa_flags & SA_SIGINFO)
		a.sa_sigaction(sig, info, uc);
	else
		a.sa_handler(sig);
}

/*
 * A signal that was sent (kill(), sigqueue(); a memory error the kernel
 * reports early, BUS_MCEERR_AO, which it sends as kill() does), not a
 * fault of the access the handler returns to: it does not come again by
 * itself, and while ignored it is discarded.
 */
static bool sent(int sig, const siginfo_t *info)
{
	return info->si_code <= 0 ||
	       (sig == SIGBUS && info->si_code == BUS_MCEERR_AO);
}

/* Send @sig to this thread again, with its siginfo if the kernel takes it. */
static void resend(int sig, siginfo_t *info)
{
	if (syscall(SYS_rt_tgsigqueueinfo, getpid(),
		    (pid_t)syscall(SYS_gettid), sig, info))
		raise(sig);
}

static void chain(int sig, siginfo_t *info, void *uc)
{
	struct sigaction *old = old_of(sig);
	int k = sig == SIGBUS;
	/* The real stack (a local may live on a sanitizer's fake one). */
	uintptr_t here = (uintptr_t)__builtin_frame_address(0);
	sigset_t saved;
	bool loop;

	if (old->sa_handler == SIG_IGN && sent(sig, info)) {
		/*
		 * Ignored before: a signal a process sent stays ignored. A
		 * fault cannot be (the kernel gives an ignored fault's signal
		 * the default action): the default action below.
		 */
		return;
	}
	loop = over_us[k] && chain_sp[k] && here < chain_sp[k];
	if (old->sa_handler != SIG_DFL && old->sa_handler != SIG_IGN &&
	    !loop) {
		chain_sp[k] = here;
		pthread_sigmask(SIG_SETMASK, NULL, &saved);
		call_old(old, sig, info, uc);
		pthread_sigmask(SIG_SETMASK, &saved, NULL);
		chain_sp[k] = 0;
	} else {
		/*
		 * The default action. A fault repeats when the access runs
		 * again; a signal that was sent is sent again, with its
		 * siginfo (BUS_MCEERR_AO was lost: the process lived on,
		 * without the runtime's handler).
		 */
		struct sigaction dfl;

		memset(&dfl, 0, sizeof(dfl));
		dfl.sa_handler = SIG_DFL;
		sigaction(sig, &dfl, NULL);
		if (sent(sig, info))
			resend(sig, info);
	}
}

static bool fault_is_write(const void *ucv)
{
#if defined(__x86_64__)
	const ucontext_t *uc = ucv;

	/* The page-fault error code: bit 1 is a write. */
	return uc && (uc->uc_mcontext.gregs[REG_ERR] & 2);
#else
	(void)ucv;
	return false;	/* unknown here: taken as a read */
#endif
}

static void handler(int sig, siginfo_t *info, void *uc)
{
	int saved_errno = errno;
	struct tprt_rt *rt;
	unsigned int kind = TPRT_K_OTHER;
	int res = TPRT_FR_NOT_OURS;

	/*
	 * Counted before the lookup reads a region's state, which is a
	 * seq_cst load for that (tprt_region_find()): a drain that reads no
	 * handler in flight has stored the state this one then sees.
	 */
	atomic_fetch_add(&tprt_inflight, 1);
	rt = __atomic_load_n(&tprt_rt, __ATOMIC_ACQUIRE);
	if (rt) {
		if (sig == SIGSEGV && info->si_code == SEGV_ACCERR)
			kind = TPRT_K_ACCERR;
		else if (sig == SIGBUS && info->si_code == BUS_ADRERR)
			kind = TPRT_K_UFFD;
		res = tprt_fault(rt, (uintptr_t)info->si_addr, kind,
				 fault_is_write(uc), tprt_now_ns());
		if (res == TPRT_FR_NOT_OURS)
			atomic_fetch_add_explicit(&tprt_my_slot(rt)->chained,
						  1, memory_order_relaxed);
	}
	atomic_fetch_sub(&tprt_inflight, 1);
	if (res == TPRT_FR_NOT_OURS)
		chain(sig, info, uc);
	errno = saved_errno;
}

/*
 * Install the handler for each signal whose action is not ours already (a
 * handler installed after a previous tprt_init() replaced it: it becomes
 * the one to chain to). Not concurrently with a fault that is not ours.
 */
int tprt_signal_install(void)
{
	static const int sigs[2] = { SIGSEGV, SIGBUS };
	struct sigaction sa, cur;
	int i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = handler;
	sa.sa_flags = SA_SIGINFO | SA_RESTART | SA_ONSTACK;
	/*
	 * Every signal blocked while it runs: a program's handler of another
	 * signal (a profiler's timer) that came during it and touched
	 * registered memory took its hint fault with SIGSEGV blocked, and the
	 * kernel killed the process; it runs once the runtime's returns.
	 */
	sigfillset(&sa.sa_mask);
	for (i = 0; i < 2; i++) {
		if (sigaction(sigs[i], NULL, &cur))
			return -errno;
		if ((cur.sa_flags & SA_SIGINFO) && cur.sa_sigaction == handler)
			continue;
		/* Not ours, though ours was installed: put over it. */
		over_us[i] = installed[i];
		installed[i] = true;
		old_act[i] = cur;
		if (sigaction(sigs[i], &sa, NULL))
			return -errno;
	}
	return 0;
}

/*
 * Start one of the runtime's threads with every signal blocked but the
 * synchronous ones (a fault in it must still be delivered, or the kernel
 * kills the process): a signal sent to the process is the program's, and
 * must find the program's threads, as a daemon that blocks SIGTERM to read
 * it from a signalfd expects (the threads inherited the caller's mask,
 * and a SIGTERM taken by one of them killed the process).
 */
int tprt_thread_create(pthread_t *t, void *(*fn)(void *), void *arg,
		       const char *name)
{
	static const int sync_sigs[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL,
					 SIGTRAP, SIGSYS };
	sigset_t all, saved;
	unsigned int i;
	int ret;

	sigfillset(&all);
	for (i = 0; i < sizeof(sync_sigs) / sizeof(sync_sigs[0]); i++)
		sigdelset(&all, sync_sigs[i]);
	pthread_sigmask(SIG_SETMASK, &all, &saved);
	ret = pthread_create(t, NULL, fn, arg);
	pthread_sigmask(SIG_SETMASK, &saved, NULL);
	if (!ret)
		pthread_setname_np(*t, name);
	return ret;
}
