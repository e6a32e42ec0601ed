# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# tierpol - page-placement algorithms for tiered memory
#
#   make                 libtierpol.a, libtierpol.so, tierpol.pc (in build/)
#   make check           build and run the CMocka tests
#   make run             the main program: tiersim's default suite
#   make docs            Doxygen HTML from the kernel-doc comments (-Werror)
#   make install         PREFIX, LIBDIR, INCLUDEDIR, PKGCONFIGDIR, DESTDIR
#   make uninstall
#   make freestanding    prove lib/ needs no libc, no FPU, no libgcc division
#   make sanitize, tsan, valgrind, check-debug, stress, fuzz, coverage
#                        reliability checks (see their section below)
#   make model           the Promela models of the lock-free protocols
#   make clean
#
# CC, CFLAGS, LDFLAGS and CPPFLAGS are honoured; the flags tierpol needs are
# added on top of them. V=1 prints every command.

VERSION_MAJOR	:= 1
VERSION_MINOR	:= 0
VERSION_PATCH	:= 0
VERSION		:= $(VERSION_MAJOR).$(VERSION_MINOR).$(VERSION_PATCH)

PREFIX		?= /usr/local
LIBDIR		?= $(PREFIX)/lib
INCLUDEDIR	?= $(PREFIX)/include
PKGCONFIGDIR	?= $(LIBDIR)/pkgconfig
DESTDIR		?=

CC		?= cc
AR		?= ar
INSTALL		?= install
CFLAGS		?= -O2 -g
LDFLAGS		?=
CPPFLAGS	?=

O		:= build

ifeq ($(V),1)
Q	:=
msg	:= @true
else
Q	:= @
msg	= @printf '  %-8s %s\n' "$(1)" "$(2)";
endif

WARN		:= -Wall -Wextra -Werror
BASE_CFLAGS	:= -std=gnu11 $(WARN) -Iinclude
# lib/ is freestanding: no libc headers, no builtins that call libc.
# -fno-semantic-interposition: calls between exported functions of the
# shared library may be inlined (nobody interposes tierpol's symbols).
LIB_CFLAGS	:= $(BASE_CFLAGS) -Ilib -ffreestanding -fno-builtin \
		   -fvisibility=hidden -fPIC -fno-semantic-interposition \
		   $(CPPFLAGS) $(CFLAGS)
PROG_CFLAGS	:= $(BASE_CFLAGS) $(CPPFLAGS) $(CFLAGS)

LIB_SRCS	:= $(wildcard lib/*.c)
LIB_HDRS	:= $(wildcard include/tierpol/*.h lib/*.h)
LIB_OBJS	:= $(patsubst lib/%.c,$(O)/lib/%.o,$(LIB_SRCS))

STATIC_LIB	:= $(O)/libtierpol.a
SONAME		:= libtierpol.so.$(VERSION_MAJOR)
SHARED_REAL	:= $(O)/libtierpol.so.$(VERSION)
SHARED_LIB	:= $(O)/libtierpol.so
PC_FILE		:= $(O)/tierpol.pc

TEST_SRCS	:= $(wildcard tests/test_*.c)
TEST_BINS	:= $(patsubst tests/%.c,$(O)/tests/%,$(TEST_SRCS))
TEST_LIBS	:= -lcmocka -lpthread

EXAMPLE_BINS	:= $(O)/examples/tpdaemon

.PHONY: all check run docs install uninstall freestanding clean examples \
	cmocka

all: $(STATIC_LIB) $(SHARED_LIB) $(PC_FILE)

$(O)/lib/%.o: lib/%.c $(LIB_HDRS)
	@mkdir -p $(dir $@)
	$(call msg,CC,$@)
	$(Q)$(CC) $(LIB_CFLAGS) -c $< -o $@

$(STATIC_LIB): $(LIB_OBJS)
	$(call msg,AR,$@)
	$(Q)rm -f $@ && $(AR) rcs $@ $^

$(SHARED_REAL): $(LIB_OBJS) lib/libtierpol.map
	$(call msg,LD,$@)
	$(Q)$(CC) -shared -Wl,-soname,$(SONAME) \
		-Wl,--version-script=lib/libtierpol.map $(LDFLAGS) \
		-o $@ $(LIB_OBJS)

$(SHARED_LIB): $(SHARED_REAL)
	$(Q)ln -sf $(notdir $(SHARED_REAL)) $(O)/$(SONAME)
	$(Q)ln -sf $(SONAME) $@

PC_SED		= sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@LIBDIR@|$(LIBDIR)|g' \
		  -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|g' -e 's|@VERSION@|$(VERSION)|g'

# Regenerated at install time too, so PREFIX given to "make install" wins.
$(PC_FILE): tierpol.pc.in Makefile
	@mkdir -p $(dir $@)
	$(call msg,GEN,$@)
	$(Q)$(PC_SED) $< > $@

# ---- tests ---------------------------------------------------------------

# CMocka: present, installable (root on Debian), or say what to run.
cmocka:
	@if ! printf '#include <stdarg.h>\n#include <stddef.h>\n#include <stdint.h>\n#include <setjmp.h>\n#include <cmocka.h>\n' | \
		$(CC) -E -x c - >/dev/null 2>&1; then \
		if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
			echo "  CMocka missing: installing libcmocka-dev"; \
			apt-get update -qq && \
			DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
				libcmocka-dev >/dev/null || exit 1; \
		else \
			echo "CMocka is missing. Run: sudo apt-get install libcmocka-dev" >&2; \
			exit 1; \
		fi; \
	fi

$(O)/tests/%: tests/%.c $(STATIC_LIB) \
		$(wildcard tests/*.h tests/selftest/*.h) | cmocka
	@mkdir -p $(dir $@)
	$(call msg,CC,$@)
	$(Q)$(CC) $(PROG_CFLAGS) -Itests $(LDFLAGS) $< $(STATIC_LIB) \
		$(TEST_LIBS) -o $@

check: $(TEST_BINS)
	@fail=0; for t in $(TEST_BINS); do \
		echo "== $$t"; $$t || fail=1; \
	done; \
	if [ $$fail = 0 ]; then echo "ALL TESTS PASSED"; \
	else echo "SOME TESTS FAILED"; exit 1; fi

# ---- examples and the main program --------------------------------------

$(O)/examples/%: examples/%.c $(STATIC_LIB)
	@mkdir -p $(dir $@)
	$(call msg,CC,$@)
	$(Q)$(CC) $(PROG_CFLAGS) $(LDFLAGS) $< $(STATIC_LIB) -o $@

examples: $(EXAMPLE_BINS)

# "make run" (tiersim's default suite) is in the tiersim section below.

# ---- docs ----------------------------------------------------------------

docs:
	@command -v doxygen >/dev/null || { \
		echo "doxygen is missing. Run: sudo apt-get install doxygen" >&2; \
		exit 1; }
	$(call msg,DOXYGEN,$(O)/docs/html)
	$(Q)mkdir -p $(O)/docs
	$(Q)doxygen docs/Doxyfile

# ---- install -------------------------------------------------------------

install: all
	$(INSTALL) -d $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCLUDEDIR)/tierpol \
		$(DESTDIR)$(PKGCONFIGDIR)
	$(INSTALL) -m 644 include/tierpol/*.h $(DESTDIR)$(INCLUDEDIR)/tierpol/
	$(INSTALL) -m 644 $(STATIC_LIB) $(DESTDIR)$(LIBDIR)/
	$(INSTALL) -m 755 $(SHARED_REAL) $(DESTDIR)$(LIBDIR)/
	ln -sf $(notdir $(SHARED_REAL)) $(DESTDIR)$(LIBDIR)/$(SONAME)
	ln -sf $(SONAME) $(DESTDIR)$(LIBDIR)/libtierpol.so
	$(PC_SED) tierpol.pc.in > $(DESTDIR)$(PKGCONFIGDIR)/tierpol.pc

uninstall:
	rm -f $(DESTDIR)$(LIBDIR)/libtierpol.a \
		$(DESTDIR)$(LIBDIR)/libtierpol.so \
		$(DESTDIR)$(LIBDIR)/$(SONAME) \
		$(DESTDIR)$(LIBDIR)/$(notdir $(SHARED_REAL)) \
		$(DESTDIR)$(PKGCONFIGDIR)/tierpol.pc
	rm -rf $(DESTDIR)$(INCLUDEDIR)/tierpol

# ---- freestanding proof --------------------------------------------------

freestanding:
	$(Q)sh .ci/freestanding.sh "$(CC)"

# ---- reliability: sanitizers, stress, fuzzing, coverage (issue 7) --------
#
#   make sanitize     lib/ and every tests/test_*.c under ASan + UBSan without
#                     recovery, once per compiler in SAN_CCS (gcc clang)
#   make tsan         the multi-threaded tests (those calling pthread_create)
#                     and the stress program under ThreadSanitizer (TSAN_CC)
#   make valgrind     every test under valgrind memcheck
#   make check-debug  every test with -DTP_DEBUG: contract checks trap, and
#                     tests/test_bad_input.c shows that they do
#   make stress       the concurrency stress program; STRESS_ARGS, e.g. -h
#   make fuzz         every libFuzzer target for FUZZ_SECONDS (default 20)
#   make coverage     lib/ line and branch coverage by the CMocka suites
#                     alone; fails below COV_LINES % / COV_BRANCHES %
#
# Each build has its own directory under $(O)/ (asan-gcc, asan-clang, tsan,
# vg, debug, cov, stress, fuzz); none touches $(O)/libtierpol.a. A run fails
# on a non-zero exit status and on any sanitizer report in its output.

SAN_CCS		?= $(foreach c,gcc clang,$(if $(shell command -v $(c)),$(c)))
TSAN_CC		?= clang
FUZZ_CC		?= clang
COV_CC		?= gcc
COV_GCOV	?= gcov
FUZZ_SECONDS	?= 20
COV_LINES	?= 95
COV_BRANCHES	?= 90
VALGRIND	?= valgrind
STRESS_ARGS	?=
TSAN_STRESS_ARGS ?= -q
RL_CFLAGS	?= -O1 -g -fno-omit-frame-pointer

RL_SAN		:= -fsanitize=address,undefined -fno-sanitize-recover=all
RL_F_ASAN	= $(RL_CFLAGS) $(RL_SAN)
# gcc warns that TSan does not model atomic_thread_fence: the seqlock's data
# accesses are all atomic, so there is nothing for it to miss.
RL_F_TSAN	= $(RL_CFLAGS) -fsanitize=thread \
		  $(if $(filter gcc%,$(notdir $(TSAN_CC))),-Wno-tsan)
RL_F_PLAIN	= $(RL_CFLAGS)
RL_F_DEBUG	= $(RL_CFLAGS) -DTP_DEBUG
# Atomic counters: the multi-threaded suites would otherwise race them.
RL_F_COV	= -O0 -g --coverage -fprofile-update=atomic
RL_F_STRESS	= -O2 -g
RL_F_FUZZLIB	= $(RL_CFLAGS) -fsanitize=fuzzer-no-link,address,undefined \
		  -fno-sanitize-recover=all
RL_F_FUZZ	= $(RL_CFLAGS) -fsanitize=fuzzer,address,undefined \
		  -fno-sanitize-recover=all

RL_TEST_HDRS	:= $(wildcard tests/*.h tests/selftest/*.h)
STRESS_SRCS	:= $(wildcard tests/stress/*.c tests/stress/*.h)
RL_TESTS	:= $(notdir $(TEST_BINS))
RL_MT_TESTS	:= $(basename $(notdir \
		   $(shell grep -l pthread_create $(TEST_SRCS) /dev/null)))
RL_FUZZ		:= $(basename $(notdir $(wildcard tests/fuzz/fuzz_*.c)))
RL_REPORT	:= '(ERROR|WARNING): [A-Za-z]+Sanitizer|runtime error:'
RL_ENV		:= ASAN_OPTIONS=detect_leaks=1:halt_on_error=1:detect_stack_use_after_return=1 \
		   UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
		   TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1
RL_VG		:= $(VALGRIND) -q --error-exitcode=99 --leak-check=full \
		   --errors-for-leak-kinds=definite,indirect

# $(call RL_BUILD,dir,cc,flags-variable): lib/, the CMocka tests and the
# stress program built into $(O)/dir, compiled and linked with the flags.
define RL_BUILD
$(O)/$(1)/lib/%.o: lib/%.c $$(LIB_HDRS)
	@mkdir -p $$(dir $$@)
	$$(call msg,CC,$$@)
	$$(Q)$(2) $$(BASE_CFLAGS) -Ilib -ffreestanding -fno-builtin $$(CPPFLAGS) \
		$$($(3)) -c $$< -o $$@

$(O)/$(1)/libtierpol.a: $$(patsubst lib/%.c,$(O)/$(1)/lib/%.o,$$(LIB_SRCS))
	$$(call msg,AR,$$@)
	$$(Q)rm -f $$@ && $$(AR) rcs $$@ $$^

$(O)/$(1)/tests/%: tests/%.c $(O)/$(1)/libtierpol.a $$(RL_TEST_HDRS) | cmocka
	@mkdir -p $$(dir $$@)
	$$(call msg,CC,$$@)
	$$(Q)$(2) $$(BASE_CFLAGS) -Itests $$(CPPFLAGS) $$($(3)) $$< \
		$(O)/$(1)/libtierpol.a $$(TEST_LIBS) -o $$@

$(O)/$(1)/stress: $$(STRESS_SRCS) $(O)/$(1)/libtierpol.a
	$$(call msg,CC,$$@)
	$$(Q)$(2) $$(BASE_CFLAGS) $$(CPPFLAGS) $$($(3)) $$(filter %.c,$$^) \
		$(O)/$(1)/libtierpol.a -lpthread -o $$@
endef

$(foreach c,$(SAN_CCS),$(eval $(call RL_BUILD,asan-$(c),$(c),RL_F_ASAN)))
$(eval $(call RL_BUILD,tsan,$(TSAN_CC),RL_F_TSAN))
$(eval $(call RL_BUILD,vg,$(CC),RL_F_PLAIN))
$(eval $(call RL_BUILD,debug,$(CC),RL_F_DEBUG))
$(eval $(call RL_BUILD,cov,$(COV_CC),RL_F_COV))
$(eval $(call RL_BUILD,stress,$(CC),RL_F_STRESS))
$(eval $(call RL_BUILD,fuzz,$(FUZZ_CC),RL_F_FUZZLIB))

$(O)/fuzz/bin/%: tests/fuzz/%.c $(O)/fuzz/libtierpol.a $(wildcard tests/fuzz/*.h)
	@mkdir -p $(dir $@)
	$(call msg,CC,$@)
	$(Q)$(FUZZ_CC) $(BASE_CFLAGS) $(CPPFLAGS) $(RL_F_FUZZ) $< \
		$(O)/fuzz/libtierpol.a -o $@

# The trace fuzzer and test_tiersim compile the simulator's sources in.
RL_TIERSIM_SRCS	:= $(wildcard examples/tiersim/*.c examples/tiersim/*.h)
$(O)/fuzz/bin/fuzz_trace: $(RL_TIERSIM_SRCS)
$(foreach d,$(addprefix asan-,$(SAN_CCS)) tsan vg debug cov,\
	$(eval $(O)/$(d)/tests/test_tiersim: $(RL_TIERSIM_SRCS)) \
	$(eval $(O)/$(d)/tests/test_tiersim61: $(RL_TIERSIM_SRCS)))

# $(call RL_RUN,binaries[,wrapper]): run each binary, keep its output in
# <binary>.log, fail on a non-zero exit or a sanitizer report.
RL_RUN = fail=0; for t in $(1); do \
		echo "== $$t"; $(RL_ENV) $(2) $$t >$$t.log 2>&1; rc=$$?; \
		cat $$t.log; \
		if [ $$rc != 0 ] || grep -Eq $(RL_REPORT) $$t.log; then \
			echo "FAILED: $$t (exit $$rc)"; fail=1; fi; \
	done; [ $$fail = 0 ]

sanitize: $(foreach c,$(SAN_CCS),$(addprefix $(O)/asan-$(c)/tests/,$(RL_TESTS)))
	@$(call RL_RUN,$^) && echo "SANITIZE PASSED ($(SAN_CCS))"

tsan: $(addprefix $(O)/tsan/tests/,$(RL_MT_TESTS)) $(O)/tsan/stress
	@$(call RL_RUN,$(filter-out %/stress,$^)) && \
	echo "== $(O)/tsan/stress $(TSAN_STRESS_ARGS)" && \
	$(RL_ENV) $(O)/tsan/stress $(TSAN_STRESS_ARGS) && echo "TSAN PASSED"

valgrind: $(addprefix $(O)/vg/tests/,$(RL_TESTS))
	@command -v $(VALGRIND) >/dev/null || { \
		echo "valgrind is missing. Run: sudo apt-get install valgrind" >&2; \
		exit 1; }
	@$(call RL_RUN,$^,$(RL_VG)) && echo "VALGRIND PASSED"

check-debug: $(addprefix $(O)/debug/tests/,$(RL_TESTS))
	@$(call RL_RUN,$^) && echo "CHECK-DEBUG PASSED"

stress: $(O)/stress/stress
	$(O)/stress/stress $(STRESS_ARGS)

fuzz: $(addprefix $(O)/fuzz/bin/,$(RL_FUZZ))
	@sh .ci/fuzz-run.sh $(O)/fuzz $(FUZZ_SECONDS) $(RL_FUZZ)

coverage: $(addprefix $(O)/cov/tests/,$(RL_TESTS))
	@find $(O)/cov -name '*.gcda' -delete
	@st=0; ($(call RL_RUN,$^)) >$(O)/cov/tests.log 2>&1 || st=$$?; \
	grep -E '^(== |FAILED|\[  (PASSED|FAILED)|\[==========\] .*run)' \
		$(O)/cov/tests.log; \
	sh .ci/coverage.sh $(O)/cov/lib $(COV_LINES) $(COV_BRANCHES) \
		"$(COV_GCOV)" || st=1; exit $$st

.PHONY: sanitize tsan valgrind check-debug stress fuzz coverage

clean:
	rm -rf $(O)

# ---- model: Promela models of the lock-free protocols (issue 12) ---------
#
#   make model        every check of tests/model/checks with SPIN: the
#                     settings latch, the token bucket, a change of variant,
#                     the windows, the scan ring and the per-CPU count,
#                     exhaustively (safety, and non-progress cycles where a
#                     process never stops), and each mutant (a bug put back)
#                     must be caught; MODEL_ARGS="latch bucket-gap" selects
#                     checks by name prefix. Needs spin (Debian: spin;
#                     .ci/model.sh installs it). docs/concurrency.md says
#                     what each model proves.

MODEL_ARGS	?=

model:
	$(Q)CC="$(CC)" sh tests/model/run.sh $(O)/model $(MODEL_ARGS)

.PHONY: model

# ---- kernel: modules, in-kernel self-test, kernel style, 32-bit (issue 5) --
#
#   make kmod [KDIR=dir]  tierpol.ko and tierpol_test.ko from the same lib/*.c
#                         (see Kbuild). KDIR: the running kernel's headers,
#                         else the newest installed ones (it says which).
#                         C=2 runs sparse on every file, W=1 adds warnings.
#   make kcheck           boot Debian's kernel under qemu with both modules
#                         and check the self-test's KTAP (VMLINUZ=,
#                         KCHECK_TIMEOUT=)
#   make kstyle           checkpatch --strict, kernel-doc, sparse: no findings
#   make check32          the CMocka suites as i386 programs under qemu-i386
#   make kclean           remove kbuild's output (make clean does it too)
#
# The work is done by kernel/{kmod,kcheck,kstyle}.sh and tests/check32.sh; .ci/kcheck.sh,
# .ci/kstyle.sh and .ci/check32.sh install their packages first. How to
# vendor tierpol into a kernel tree: docs/kernel.md.

KDIR		?=
KBUILD_OUT	= $(wildcard *.ko *.mod *.mod.c *.o .*.cmd Module.symvers \
		  modules.order lib/*.o lib/.*.cmd kernel/*.o kernel/.*.cmd)

kmod:
	$(Q)KDIR="$(KDIR)" C="$(C)" W="$(W)" V="$(V)" sh kernel/kmod.sh

kcheck: kmod
	$(Q)sh kernel/kcheck.sh

kstyle:
	$(Q)KDIR="$(KDIR)" sh kernel/kstyle.sh

check32:
	$(Q)CC="$(CC)" sh tests/check32.sh

kclean:
	$(Q)$(if $(KBUILD_OUT),rm -f $(KBUILD_OUT))

clean: kclean

.PHONY: kmod kcheck kstyle check32 kclean

# ---- bench: performance figures and targets (issues 6 and 12) ------------
#
#   make bench        every figure against its baseline, the memory and
#                     cache-line report and the PASS/MISS targets (< 2 min);
#                     BENCH_ARGS="-f ring --md FILE ..." (bench --help)
#   make bench-smoke  the same with 3 repeats of ~3 ms: proves it builds and
#                     runs (CI); never asserts a timing
#   make bench-instr  instructions per operation of both sides of every
#                     single-thread row, under callgrind (noise-free,
#                     seconds); BENCH_INSTR=N calls per side, BENCH_ARGS
#                     as for make bench (-f FILTER)
#
# Always -O2 (on top of CFLAGS), linked against $(STATIC_LIB); bench/inline.c
# compiles lib/*.c into the benchmark as well, for the out-of-line vs inlined
# comparison. bench/harness.c measures, one file per section does the rest.
# The method is in docs/PERFORMANCE.md.

BENCH_ARGS	?=
BENCH_BIN	:= $(O)/bench/bench
BENCH_SRCS	:= $(wildcard bench/*.c)
BENCH_OBJS	:= $(patsubst bench/%.c,$(O)/bench/%.o,$(BENCH_SRCS))
BENCH_HDRS	:= $(wildcard bench/*.h)
BENCH_CFLAGS	:= $(BASE_CFLAGS) $(CPPFLAGS) $(filter-out -O%,$(CFLAGS)) -O2

$(O)/bench/inline.o: bench/inline.c $(BENCH_HDRS) $(LIB_SRCS) $(LIB_HDRS)
	@mkdir -p $(dir $@)
	$(call msg,CC,$@)
	$(Q)$(CC) $(BENCH_CFLAGS) -Ilib -c $< -o $@

$(O)/bench/%.o: bench/%.c $(BENCH_HDRS) $(LIB_HDRS)
	@mkdir -p $(dir $@)
	$(call msg,CC,$@)
	$(Q)$(CC) $(BENCH_CFLAGS) -DBENCH_LIB='"$(STATIC_LIB)"' \
		-DBENCH_CFLAGS='"$(strip $(filter-out -O%,$(CFLAGS)) -O2)"' \
		-c $< -o $@

$(BENCH_BIN): $(BENCH_OBJS) $(STATIC_LIB)
	$(call msg,LD,$@)
	$(Q)$(CC) $(LDFLAGS) $(BENCH_OBJS) $(STATIC_LIB) -lpthread -o $@

# The simulator's speed is one of the figures: build it when its sources
# are there (its rule is in the tiersim section below).
BENCH_TIERSIM	:= $(if $(wildcard examples/tiersim/main.c),$(O)/examples/tiersim)

bench: $(BENCH_BIN) $(BENCH_TIERSIM)
	$(BENCH_BIN) --tiersim $(O)/examples/tiersim $(BENCH_ARGS)

bench-smoke: $(BENCH_BIN) $(BENCH_TIERSIM)
	$(BENCH_BIN) --smoke --tiersim $(O)/examples/tiersim $(BENCH_ARGS)

BENCH_INSTR	?= 20000

bench-instr: $(BENCH_BIN)
	sh bench/instr.sh $(BENCH_BIN) $(BENCH_INSTR) $(BENCH_ARGS)

.PHONY: bench bench-smoke bench-instr

# ---- tiersim: the trace-driven two-tier memory simulator (issue 4) -------
#
#   make tiersim      $(O)/examples/tiersim (also built by "make examples")
#   make run          everything, then tiersim's default suite: several
#                     workloads x the main policies, tables on stdout, JSON,
#                     CSV and SVG plots in RUN_DIR (default $(O)/run);
#                     RUN_SHORT=1 runs the short suite instead
#   make run-short    the short suite CI runs (well under a minute)
#   make results      regenerate docs/RESULTS.md from tiersim's own runs
#                     (their JSON, CSV and SVG in $(O)/results)
#
# RUN_JOBS policies are simulated in parallel (default: online CPUs).
# examples/tiersim/wl.[ch], the workload generators, need only libc and
# libm, so the ground-truth harness can compile them a second time.
# tests/test_tiersim.c compiles the simulator's sources in, so every build
# of the tests (sanitizers, valgrind, ...) covers them; they need libm.

TIERSIM		:= $(O)/examples/tiersim
TIERSIM_SRCS	:= $(wildcard examples/tiersim/*.c)
TIERSIM_HDRS	:= $(wildcard examples/tiersim/*.h)
TIERSIM_OBJS	:= $(patsubst examples/tiersim/%.c,$(O)/tiersim/%.o,$(TIERSIM_SRCS))
RUN_DIR		?= $(O)/run
RUN_JOBS	?= $(shell nproc 2>/dev/null || echo 2)
RUN_SHORT	?=
TEST_LIBS	+= -lm

$(O)/tiersim/%.o: examples/tiersim/%.c $(TIERSIM_HDRS) $(LIB_HDRS)
	@mkdir -p $(dir $@)
	$(call msg,CC,$@)
	$(Q)$(CC) $(PROG_CFLAGS) -c $< -o $@

$(TIERSIM): $(TIERSIM_OBJS) $(STATIC_LIB)
	@mkdir -p $(dir $@)
	$(call msg,LD,$@)
	$(Q)$(CC) $(LDFLAGS) $(TIERSIM_OBJS) $(STATIC_LIB) -lm -lpthread -o $@

$(O)/tests/test_tiersim: $(TIERSIM_SRCS) $(TIERSIM_HDRS)
$(O)/tests/test_tiersim61: $(TIERSIM_SRCS) $(TIERSIM_HDRS)
$(O)/tests/test_tiersim_ui: $(TIERSIM_SRCS) $(TIERSIM_HDRS)
$(foreach d,$(addprefix asan-,$(SAN_CCS)) tsan vg debug cov,\
	$(eval $(O)/$(d)/tests/test_tiersim_ui: $(RL_TIERSIM_SRCS)))

tiersim: $(TIERSIM)

examples: $(TIERSIM)

# tests/svgcheck.c: every plot a suite writes is well-formed and has its
# panels, axis labels, ticks and policies (make run checks its own).
SVGCHECK	:= $(O)/tools/svgcheck

$(SVGCHECK): tests/svgcheck.c
	@mkdir -p $(dir $@)
	$(call msg,CC,$@)
	$(Q)$(CC) $(PROG_CFLAGS) $(LDFLAGS) $< -o $@

# The bash completion (examples/tiersim/tiersim.bash) goes with make install.
BASHCOMPDIR	?= $(PREFIX)/share/bash-completion/completions

install: install-tiersim-completion
uninstall: uninstall-tiersim-completion

install-tiersim-completion:
	$(INSTALL) -d $(DESTDIR)$(BASHCOMPDIR)
	$(INSTALL) -m 644 examples/tiersim/tiersim.bash \
		$(DESTDIR)$(BASHCOMPDIR)/tiersim

uninstall-tiersim-completion:
	rm -f $(DESTDIR)$(BASHCOMPDIR)/tiersim

# make check-tiersim (part of make check): tiersim's command line as a user
# meets it: messages, exit status, --help, warnings, progress, plots, the
# bash completion (tests/tiersim_cli.sh, about ten seconds).
check-tiersim: $(TIERSIM) $(SVGCHECK)
	$(Q)sh tests/tiersim_cli.sh $(TIERSIM) $(SVGCHECK) \
		examples/tiersim/tiersim.bash

check: check-tiersim

run: all examples $(SVGCHECK)
	$(TIERSIM) --suite $(if $(RUN_SHORT),short,default) \
		--outdir $(RUN_DIR) -j $(RUN_JOBS)
	@$(SVGCHECK) --tiersim $(RUN_DIR)/*.svg >/dev/null && \
	echo "svgcheck: the plots in $(RUN_DIR)/ are well-formed, with their axes and labels"

run-short: all examples $(SVGCHECK)
	$(TIERSIM) --suite short --outdir $(RUN_DIR) -j $(RUN_JOBS)
	@$(SVGCHECK) --tiersim $(RUN_DIR)/*.svg >/dev/null && \
	echo "svgcheck: the plots in $(RUN_DIR)/ are well-formed, with their axes and labels"

# docs/img/ keeps two of the plots for README.md and RESULTS.md.
RESULTS_PLOTS	:= rfc2020-pmbench bypass-cold-burst

results: $(TIERSIM)
	$(TIERSIM) --suite results --outdir $(O)/results -j $(RUN_JOBS) -q \
		--results-md docs/RESULTS.md
	@mkdir -p docs/img
	$(Q)for p in $(RESULTS_PLOTS); do \
		cp $(O)/results/$$p.svg docs/img/$$p.svg || exit 1; done
	@echo "docs/RESULTS.md and docs/img/ regenerated (runs in $(O)/results)"

.PHONY: tiersim run-short results check-tiersim install-tiersim-completion \
	uninstall-tiersim-completion

# ---- kernel-truth: tiersim against the real kernel's tiering (issue 8) ----
#
#   make kernel-truth     every scenario of tests/truth/run.sh, two runs each
#                         (30-60 minutes): boots Debian's 6.1 kernel under
#                         qemu with a DRAM node (the CPUs) and an emulated
#                         NVDIMM node in a lower memory tier, runs tiersim's
#                         workloads there with NUMA balancing mode 2, then
#                         tiersim's mainline preset on each run's measured
#                         machine; writes docs/FIDELITY.md and
#                         docs/fidelity/*.svg. TRUTH_RUNS=N, TRUTH_ONLY="...",
#                         TRUTH_REUSE=1 keeps the kernel runs already in
#                         $(O)/truth (reparse, rerun tiersim, rewrite)
#   make kernel-truth-ci  one short scenario, one run, end to end (about 2
#                         minutes); fails if the harness breaks, never on
#                         fidelity; report in $(O)/truth/ci/
#
# truth-guest is static, built from tests/truth/guest.c and tiersim's own
# examples/tiersim/wl.c: one workload generator, compiled twice. Needs (as
# Debian packages) qemu-system-x86 busybox-static cpio ndctl daxctl and
# linux-image-6.1.0-57-amd64; .ci/kernel-truth.sh installs them.

TRUTH_DIR	:= $(O)/truth
TRUTH_GUEST	:= $(TRUTH_DIR)/truth-guest
TRUTH_TOOL	:= $(TRUTH_DIR)/truth
TRUTH_RUNS	?= 2
TRUTH_ONLY	?=
TRUTH_REUSE	?=

TRUTH_WL	:= examples/tiersim/wl.c examples/tiersim/wl_gen.c

$(TRUTH_GUEST): tests/truth/guest.c $(TRUTH_WL) examples/tiersim/wl.h \
		examples/tiersim/wl_int.h
	@mkdir -p $(dir $@)
	$(call msg,CC,$@)
	$(Q)$(CC) $(PROG_CFLAGS) -Iexamples/tiersim -static $(LDFLAGS) \
		tests/truth/guest.c $(TRUTH_WL) -lm -pthread -o $@

TRUTH_SRCS	:= $(wildcard tests/truth/truth*.c) tests/truth/json.c \
		   examples/tiersim/svg.c

$(TRUTH_TOOL): $(TRUTH_SRCS) tests/truth/truth.h tests/truth/json.h \
		examples/tiersim/svg.h
	@mkdir -p $(dir $@)
	$(call msg,CC,$@)
	$(Q)$(CC) $(PROG_CFLAGS) -Iexamples/tiersim $(LDFLAGS) $(TRUTH_SRCS) \
		-lm -o $@

kernel-truth: $(TRUTH_GUEST) $(TRUTH_TOOL) $(TIERSIM)
	TRUTH_OUT=$(TRUTH_DIR) TIERSIM=$(TIERSIM) tests/truth/run.sh \
		--runs $(TRUTH_RUNS) $(if $(TRUTH_ONLY),--only "$(TRUTH_ONLY)") \
		$(if $(TRUTH_REUSE),--reuse)

kernel-truth-ci: $(TRUTH_GUEST) $(TRUTH_TOOL) $(TIERSIM)
	TRUTH_OUT=$(TRUTH_DIR) TIERSIM=$(TIERSIM) tests/truth/run.sh --ci

.PHONY: kernel-truth kernel-truth-ci
