// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * CMocka: the runtime and the program's signals. A fault that is not the
 * runtime's reaches the previous handler as the kernel would have called
 * it (SA_NODEFER: the signal unblocked in it; SA_RESETHAND: once, then the
 * default action), and the runtime's threads take none of the signals a
 * process is sent (a daemon that blocks SIGTERM to read it from a
 * signalfd gets it). The cases that end a process run in a child. One
 * NUMA node is enough.
 */
#include "runtime/helpers.h"

#include <poll.h>
#include <sys/signalfd.h>

static sigjmp_buf jb;
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

static const char *self_path;

static int child_status(const char *flag)
{
	pid_t pid;
	int st;

	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		execl(self_path, self_path, flag, (char *)NULL);
		_exit(127);
	}
	assert_int_equal(waitpid(pid, &st, 0), pid);
	return st;
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
		rt_test(test_chain_nodefer),
		rt_test(test_chain_resethand),
		rt_test(test_threads_take_no_signal),
	};

	if (argc == 2 && !strcmp(argv[1], "--child-resethand"))
		return child_resethand();
	if (argc == 2 && !strcmp(argv[1], "--child-sigterm"))
		return child_sigterm();
	self_path = argv[0];
	return cmocka_run_group_tests(tests, NULL, NULL);
}
