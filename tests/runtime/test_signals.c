// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * CMocka: the runtime and the program's signals. A fault that is not the
 * runtime's goes to the previous action (a previous SA_SIGINFO handler,
 * SIGBUS, the default action in a child, signals ignored before, a
 * chaining handler across a restart), called as the kernel would have
 * (SA_NODEFER: the signal unblocked in it; SA_RESETHAND: once, then the
 * default action); the runtime's threads take none of the signals a
 * process is sent (a daemon that blocks SIGTERM to read it from a
 * signalfd gets it); a program's signal that comes while the runtime's
 * handler runs waits for it (its handler may take a hint fault); a
 * signal the kernel sends (BUS_MCEERR_AO) is not lost. The cases that
 * end a process run in a child. One NUMA node is enough.
 */
#include "runtime/helpers.h"
#include "tp_test_tsan.h"

#include <poll.h>
#include <sys/signalfd.h>

/* ---- signal chaining ---------------------------------------------------- */

static sigjmp_buf jb;
static volatile sig_atomic_t prev_calls;
static void *volatile prev_addr;
static volatile int prev_sig;

static void prev_handler(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	prev_calls++;
	prev_addr = si->si_addr;
	prev_sig = sig;
	siglongjmp(jb, 1);
}

static void test_chaining(void **state)
{
	struct sigaction sa, old_segv, old_bus;
	struct tprt_stats s;
	volatile char *guard, *tail;
	char path[] = "/tmp/tprt-test-XXXXXX";
	char *m;
	int fd;

	(void)state;
	/* A handler installed before the runtime (a JIT, a sanitizer). */
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = prev_handler;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGSEGV, &sa, &old_segv);
	sigaction(SIGBUS, &sa, &old_bus);
	rt_start(TPRT_F_NO_SCANNER | TPRT_F_NO_MIGRATOR, NULL);
	mem_set(1ULL << 30, 1000);
	m = map_touched(512);
	assert_int_equal(tprt_register(m, 512 * PG, TPRT_SRC_MPROTECT), 0);
	tprt_scan_now();

	/* A PROT_NONE page of the program's own: not ours. */
	guard = mmap(NULL, PG, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	prev_calls = 0;
	if (!sigsetjmp(jb, 1))
		(void)guard[10];
	assert_int_equal(prev_calls, 1);
	assert_ptr_equal(prev_addr, (void *)(guard + 10));
	assert_int_equal(prev_sig, SIGSEGV);
	/* An unmapped address (SEGV_MAPERR): not ours. */
	munmap((void *)guard, PG);
	if (!sigsetjmp(jb, 1))
		(void)guard[20];
	assert_int_equal(prev_calls, 2);
	assert_ptr_equal(prev_addr, (void *)(guard + 20));
	/* SIGBUS past the end of a file: not ours either. */
	fd = mkstemp(path);
	assert_true(fd >= 0);
	unlink(path);
	assert_int_equal(ftruncate(fd, PG), 0);
	tail = mmap(NULL, 2 * PG, PROT_READ, MAP_SHARED, fd, 0);
	assert_true(tail != MAP_FAILED);
	if (!sigsetjmp(jb, 1))
		(void)tail[PG + 5];
	assert_int_equal(prev_calls, 3);
	assert_int_equal(prev_sig, SIGBUS);
	munmap((void *)tail, 2 * PG);
	close(fd);
	/* And a registered page: ours, the previous handler never sees it. */
	assert_int_equal(((volatile char *)m)[100 * PG], 100);
	assert_int_equal(prev_calls, 3);
	tprt_stats(&s);
	assert_int_equal(s.chained, 3);
	assert_int_equal(s.faults, 1);

	/* After shutdown the handler passes everything on. */
	assert_int_equal(tprt_shutdown(), 0);
	guard = mmap(NULL, PG, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (!sigsetjmp(jb, 1))
		(void)guard[1];
	assert_int_equal(prev_calls, 4);
	munmap((void *)guard, PG);
	munmap(m, 512 * PG);
	sigaction(SIGSEGV, &old_segv, NULL);
	sigaction(SIGBUS, &old_bus, NULL);
}

/* Send this thread @sig with si_code @code, as the kernel would. */
static int send_self(int sig, int code)
{
	siginfo_t si;

	memset(&si, 0, sizeof(si));
	si.si_signo = sig;
	si.si_code = code;
	return (int)syscall(SYS_rt_tgsigqueueinfo, getpid(),
			    (pid_t)syscall(SYS_gettid), sig, &si);
}

/* The child of test_default_action: no handler before the runtime. */
static int child_segv(void)
{
	volatile char *guard;

	signal(SIGSEGV, SIG_DFL);
	if (tprt_init(NULL))
		return 3;
	guard = mmap(NULL, PG, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	(void)guard[0];
	return 4;	/* not reached: the default action kills */
}

/*
 * The child of test_ignored: SIGSEGV and SIGBUS ignored before the runtime.
 * A kill() of either stays ignored (the runtime turned it into death).
 */
static int child_ignored(void)
{
	signal(SIGSEGV, SIG_IGN);
	signal(SIGBUS, SIG_IGN);
	if (tprt_init(NULL))
		return 3;
	/* A memory error reported early is sent, as kill() is: ignored. */
	if (send_self(SIGBUS, BUS_MCEERR_AO))
		return 6;
	if (kill(getpid(), SIGBUS) || kill(getpid(), SIGSEGV))
		return 4;
	return tprt_shutdown() ? 5 : 0;
}

/*
 * The child of test_sent_default: SIGBUS with its default action, and a
 * memory error the kernel reports early (BUS_MCEERR_AO, a positive
 * si_code, sent as kill() sends, not a fault of the access the handler
 * returns to). The runtime reset the action and returned: the process
 * lived on, its SIGBUS action no longer the runtime's.
 */
static int child_sent_default(void)
{
	signal(SIGBUS, SIG_DFL);
	if (tprt_init(NULL))
		return 3;
	if (send_self(SIGBUS, BUS_MCEERR_AO))
		return 4;
	return 5;	/* not reached: the default action kills */
}

static void test_sent_default(void **state)
{
	int st;

	(void)state;
	st = child_status("--child-sent-default");
	assert_true(WIFSIGNALED(st));
	assert_int_equal(WTERMSIG(st), SIGBUS);
}

static void test_ignored(void **state)
{
	int st;

	(void)state;
	st = child_status("--child-ignored");
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
}

static void test_default_action(void **state)
{
	int st;

	(void)state;
	st = child_status("--child-segv");
	assert_true(WIFSIGNALED(st));
	assert_int_equal(WTERMSIG(st), SIGSEGV);
}

/* ---- a handler that chains to the runtime, across a restart ---------------- */

static struct sigaction rep_prev;
static volatile sig_atomic_t rep_calls;

/* A crash reporter installed after tprt_init(): it chains, as they do. */
static void reporter(int sig, siginfo_t *si, void *uc)
{
	if (++rep_calls > 1)
		_exit(7);	/* called again: the two handlers recurse */
	if (rep_prev.sa_flags & SA_SIGINFO)
		rep_prev.sa_sigaction(sig, si, uc);
}

/*
 * The child of test_chain_restart: after tprt_shutdown() and tprt_init()
 * the reporter is the runtime's previous handler and the runtime its.
 */
static int child_chain_restart(void)
{
	struct sigaction sa;
	volatile char *guard;

	signal(SIGSEGV, SIG_DFL);	/* no sanitizer's handler before */
	if (tprt_init(NULL))
		return 3;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = reporter;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGSEGV, &sa, &rep_prev);
	if (tprt_shutdown() || tprt_init(NULL))
		return 4;
	guard = mmap(NULL, PG, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	guard[0] = 1;
	return 5;	/* not reached: the default action kills */
}

static void test_chain_restart(void **state)
{
	int st;

	(void)state;
	st = child_status("--child-chain-restart");
	assert_true(WIFSIGNALED(st));
	assert_int_equal(WTERMSIG(st), SIGSEGV);
}

/* ---- the previous handler's flags, the runtime's threads ------------------- */

static volatile sig_atomic_t calls, blocked_in_handler;

/* The previous handler: is its own signal blocked while it runs? */
static void probe_handler(int sig, siginfo_t *si, void *uc)
{
	sigset_t cur;

	(void)si;
	(void)uc;
	calls++;
	pthread_sigmask(SIG_BLOCK, NULL, &cur);
	blocked_in_handler = sigismember(&cur, sig);
	siglongjmp(jb, 1);
}

/* A fault on a PROT_NONE page of the program's own, with @flags. */
static void fault_with(int flags, bool want_blocked)
{
	struct sigaction sa, old;
	volatile char *guard;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = probe_handler;
	sa.sa_flags = SA_SIGINFO | flags;
	sigaction(SIGSEGV, &sa, &old);
	rt_start(TPRT_F_NO_SCANNER | TPRT_F_NO_MIGRATOR, NULL);
	guard = mmap(NULL, PG, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(guard != MAP_FAILED);
	calls = 0;
	blocked_in_handler = -1;
	if (!sigsetjmp(jb, 1))
		(void)guard[7];
	assert_int_equal(calls, 1);
	assert_int_equal(blocked_in_handler, want_blocked);
	munmap((void *)guard, PG);
	assert_int_equal(tprt_shutdown(), 0);
	sigaction(SIGSEGV, &old, NULL);
}

/*
 * SA_NODEFER: the kernel leaves the signal unblocked in the handler, and a
 * handler that probes memory relies on it (a nested fault with the signal
 * blocked kills the process). The runtime called it with SIGSEGV blocked.
 */
static void test_chain_nodefer(void **state)
{
	(void)state;
	fault_with(SA_NODEFER, false);
	/* without it the signal is blocked, as the kernel does */
	fault_with(0, true);
}

/*
 * SA_RESETHAND: a one-shot crash reporter that writes its report and
 * returns; the access runs again and the process dies of the signal. The
 * runtime kept calling it, for ever (here: exit 42 at the second call).
 */
static volatile sig_atomic_t oneshot_calls;

static void oneshot(int sig)
{
	(void)sig;
	if (++oneshot_calls > 1)
		_exit(42);
}

static int child_resethand(void)
{
	struct sigaction sa;
	volatile char *guard;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = oneshot;
	sa.sa_flags = SA_RESETHAND;
	sigaction(SIGSEGV, &sa, NULL);
	if (tprt_init(NULL))
		return 3;
	guard = mmap(NULL, PG, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	guard[0] = 1;
	return 4;	/* not reached: the default action kills */
}

/*
 * A daemon's usual order: libraries first, then block SIGTERM and read it
 * from a signalfd. The runtime's scanner and migrator were started with
 * the caller's mask, took the SIGTERM and died of it.
 */
static int child_sigterm(void)
{
	struct tprt_cfg cfg;
	struct signalfd_siginfo si;
	struct pollfd pfd;
	sigset_t term;
	int fd;

	tprt_cfg_default(&cfg);
	cfg.fast_node = 0;
	cfg.flags = TPRT_F_NO_NUDGE;
	tprt_set_hooks(&hooks);
	if (tprt_init(&cfg) || !tprt_rt->scanner_started ||
	    !tprt_rt->migrator_started)
		return 3;
	sigemptyset(&term);
	sigaddset(&term, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &term, NULL);
	fd = signalfd(-1, &term, SFD_CLOEXEC);
	if (fd < 0)
		return 4;
	/* Several times: any thread may be picked. */
	for (int i = 0; i < 20; i++) {
		if (kill(getpid(), SIGTERM))
			return 5;
		pfd.fd = fd;
		pfd.events = POLLIN;
		if (poll(&pfd, 1, 5000) != 1)
			return 6;
		if (read(fd, &si, sizeof(si)) != sizeof(si) ||
		    si.ssi_signo != SIGTERM)
			return 7;
	}
	close(fd);
	return tprt_shutdown() ? 8 : 0;
}

/*
 * A signal of the program's (a profiler's timer, say) comes while the
 * runtime's handler runs, and its handler reads registered memory. The
 * runtime's handler ran with SIGSEGV blocked and the other signals not:
 * the nested hint fault, its signal blocked, killed the process. Here the
 * signal is raised from the clock the handler reads; a 50 us timer did it
 * within a second.
 */
static volatile char *volatile async_mem;
static volatile sig_atomic_t async_arm, async_calls;

static void async_handler(int sig)
{
	(void)sig;
	async_calls++;
	(void)async_mem[200 * PG];	/* a protected page: a hint fault */
}

static uint64_t async_now(void)
{
	if (async_arm) {
		async_arm = 0;
		raise(SIGUSR1);
	}
	return fake_now();
}

static int child_async(void)
{
	struct tprt_hooks h = hooks;
	struct tprt_stats s;
	struct tprt_cfg cfg;
	struct sigaction sa;
	char *m;
	int i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = async_handler;
	sigaction(SIGUSR1, &sa, NULL);
	h.now = async_now;
	tprt_cfg_default(&cfg);
	cfg.fast_node = 0;
	cfg.flags = TPRT_F_NO_NUDGE | TPRT_F_NO_SCANNER | TPRT_F_NO_MIGRATOR;
	tprt_set_hooks(&h);
	if (tprt_init(&cfg))
		return 3;
	m = mmap(NULL, 512 * PG, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		return 4;
	for (i = 0; i < 512; i++)
		m[i * PG] = 1;
	async_mem = m;
	/* Every page slow (fast_lo == fast_hi): every block protected. */
	if (tprt_register(m, 512 * PG, TPRT_SRC_MPROTECT) ||
	    tprt_scan_now() <= 0)
		return 5;
	async_arm = 1;
	async_mem[0] = 2;	/* the hint fault the signal comes in */
	if (async_calls != 1 || async_mem[0] != 2)
		return 6;
	tprt_stats(&s);
	if (s.faults != 2 || s.chained)
		return 7;
	return tprt_shutdown() ? 8 : 0;
}

static void test_async_signal(void **state)
{
	int st;

	(void)state;
	/*
	 * TSan runs a program's handler at its next interceptor, with every
	 * signal blocked: the handler's hint fault kills the process there,
	 * whatever the runtime does.
	 */
	if (TP_TEST_TSAN)
		skip();
	st = child_status("--child-async");
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
}

static void test_chain_resethand(void **state)
{
	int st;

	(void)state;
	st = child_status("--child-resethand");
	assert_true(WIFSIGNALED(st));
	assert_int_equal(WTERMSIG(st), SIGSEGV);
}

static void test_threads_take_no_signal(void **state)
{
	int st;

	(void)state;
	st = child_status("--child-sigterm");
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		rt_test(test_chaining),
		rt_test(test_default_action),
		rt_test(test_ignored),
		rt_test(test_chain_restart),
		rt_test(test_chain_nodefer),
		rt_test(test_chain_resethand),
		rt_test(test_threads_take_no_signal),
		rt_test(test_sent_default),
		rt_test(test_async_signal),
	};

	if (argc == 2 && !strcmp(argv[1], "--child-segv"))
		return child_segv();
	if (argc == 2 && !strcmp(argv[1], "--child-ignored"))
		return child_ignored();
	if (argc == 2 && !strcmp(argv[1], "--child-chain-restart"))
		return child_chain_restart();
	if (argc == 2 && !strcmp(argv[1], "--child-resethand"))
		return child_resethand();
	if (argc == 2 && !strcmp(argv[1], "--child-sigterm"))
		return child_sigterm();
	if (argc == 2 && !strcmp(argv[1], "--child-sent-default"))
		return child_sent_default();
	if (argc == 2 && !strcmp(argv[1], "--child-async"))
		return child_async();
	self_path = argv[0];
	return cmocka_run_group_tests(tests, NULL, NULL);
}
