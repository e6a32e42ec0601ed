# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# Included by the top-level Makefile (its variables, O and the library
# targets, are set before), ahead of examples/tiersim/tiersim.mk, which
# uses SAN_CCS; paths are relative to the top of the tree.
#
# ---- reliability: sanitizers, stress, fuzzing, coverage (issue 7) --------
#
#   make sanitize     lib/ and every tests/test_*.c under ASan + UBSan without
#                     recovery, with the first compiler of SAN_CCS (gcc
#                     clang); the library's suites (RL_LIB_TESTS) with each
#                     of the others too
#   make tsan         the multi-threaded tests (those calling pthread_create)
#                     and the stress program under ThreadSanitizer (TSAN_CC)
#   make valgrind     every test under valgrind memcheck (--fair-sched=yes:
#                     the multi-threaded suites' waits take seconds, not
#                     tens of seconds that vary from run to run), as make
#                     check built it: valgrind reads the machine code, so
#                     the -O2 build needs no build of its own (one at -O1
#                     took 39 s of CPU, December 2026)
#   make check-debug  every test with -DTP_DEBUG: contract checks trap, and
#                     tests/test_bad_input*.c show that they do; with
#                     -DTP_FAULT_INJECT, as coverage, tests/test_fail_closed.c
#                     forces the paths that fail closed when settings keep
#                     changing (elsewhere it skips; lib/tp_seam_user.h)
#   make stress       the concurrency stress program; STRESS_ARGS, e.g. -h
#   make fuzz         every libFuzzer target for FUZZ_SECONDS (default 20)
#   make coverage     lib/ line and branch coverage by the library's CMocka
#                     suites (RL_LIB_TESTS) alone; fails below COV_LINES % /
#                     COV_BRANCHES %
#
# Each build has its own directory under $(O)/ (asan-gcc, asan-clang, tsan,
# debug, cov, stress, fuzz); none touches $(O)/libtierpol.a. A run fails
# on a non-zero exit status and on any sanitizer report in its output.

SAN_CCS		?= $(foreach c,gcc clang,$(if $(shell command -v $(c)),$(c)))
TSAN_CC		?= clang
FUZZ_CC		?= clang
COV_CC		?= gcc
COV_GCOV	?= gcov
FUZZ_SECONDS	?= 20
COV_LINES	?= 98
COV_BRANCHES	?= 92
VALGRIND	?= valgrind
STRESS_ARGS	?=
TSAN_STRESS_ARGS ?= -q
RL_CFLAGS	?= -O1 -g -fno-omit-frame-pointer
RL_JOBS		?= $(shell nproc 2>/dev/null || echo 2)

RL_SAN		:= -fsanitize=address,undefined -fno-sanitize-recover=all
RL_F_ASAN	= $(RL_CFLAGS) $(RL_SAN)
# gcc warns that TSan does not model atomic_thread_fence: the seqlock's data
# accesses are all atomic, so there is nothing for it to miss.
RL_F_TSAN	= $(RL_CFLAGS) -fsanitize=thread \
		  $(if $(filter gcc%,$(notdir $(TSAN_CC))),-Wno-tsan)
# TP_FAULT_INJECT: tests may force the fail-closed paths (lib/tp_seam_user.h).
RL_F_DEBUG	= $(RL_CFLAGS) -DTP_DEBUG -DTP_FAULT_INJECT
# Atomic counters: the multi-threaded suites would otherwise race them.
RL_F_COV	= -O0 -g --coverage -fprofile-update=atomic -DTP_FAULT_INJECT
RL_F_STRESS	= -O2 -g
RL_F_FUZZLIB	= $(RL_CFLAGS) -fsanitize=fuzzer-no-link,address,undefined \
		  -fno-sanitize-recover=all
RL_F_FUZZ	= $(RL_CFLAGS) -fsanitize=fuzzer,address,undefined \
		  -fno-sanitize-recover=all

RL_TEST_HDRS	:= $(wildcard tests/*.h tests/selftest/*.h)
# The simulator without main.c, for tiersim's suites (TEST_SIM).
RL_SIM_SRCS	:= $(filter-out %/main.c,$(wildcard examples/tiersim/*.c))
RL_SIM_HDRS	:= $(wildcard examples/tiersim/*.h)
STRESS_SRCS	:= $(wildcard tests/stress/*.c tests/stress/*.h)
RL_TESTS	:= $(notdir $(TEST_BINS))
RL_MT_TESTS	:= $(basename $(notdir \
		   $(shell grep -l pthread_create $(TEST_SRCS) /dev/null)))
# The suites of a program test that program: tiersim's include its
# headers from examples/ and link its objects (RL_SIM_SRCS), the kernel
# comparison's compiles its sources in. The others test the library. The
# second sanitizer compiler and coverage (of lib/) take the library's only:
# the programs' suites added not one line or branch of lib/ to the coverage
# (1305/1311 lines, 886/949 branches either way, December 2026), and
# without them clang's sanitizer build and run took 59 s less here,
# coverage 34 s less (when each compiled the simulator's 13,000 lines in).
RL_HASH		:= \#
RL_SIM_TESTS	:= $(basename $(notdir $(shell grep -l \
		   -e '^$(RL_HASH)include "\.\./examples/' \
		   -e '^$(RL_HASH)include ".*\.c"' $(TEST_SRCS) /dev/null)))
RL_LIB_TESTS	:= $(filter-out $(RL_SIM_TESTS),$(RL_TESTS))
RL_FUZZ		:= $(basename $(notdir $(wildcard tests/fuzz/fuzz_*.c)))
RL_ENV		:= ASAN_OPTIONS=detect_leaks=1:halt_on_error=1:detect_stack_use_after_return=1 \
		   UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
		   TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1
RL_VG		:= $(VALGRIND) -q --error-exitcode=99 --leak-check=full \
		   --errors-for-leak-kinds=definite,indirect --fair-sched=yes

# $(call RL_BUILD,dir,cc,flags-variable): lib/, the simulator's objects
# (tiersim/libsim.a, which tiersim's suites link: TEST_SIM, set in
# examples/tiersim/tiersim.mk), the CMocka tests and the stress program
# built into $(O)/dir, compiled and linked with the flags.
define RL_BUILD
$(O)/$(1)/lib/%.o: lib/%.c $$(LIB_HDRS)
	@mkdir -p $$(dir $$@)
	$$(call msg,CC,$$@)
	$$(Q)$(2) $$(BASE_CFLAGS) -Ilib -ffreestanding -fno-builtin $$(CPPFLAGS) \
		$$($(3)) -c $$< -o $$@

$(O)/$(1)/libtierpol.a: $$(patsubst lib/%.c,$(O)/$(1)/lib/%.o,$$(LIB_SRCS))
	$$(call msg,AR,$$@)
	$$(Q)rm -f $$@ && $$(AR) rcs $$@ $$^

$(O)/$(1)/tiersim/%.o: examples/tiersim/%.c $$(RL_SIM_HDRS) $$(LIB_HDRS)
	@mkdir -p $$(dir $$@)
	$$(call msg,CC,$$@)
	$$(Q)$(2) $$(BASE_CFLAGS) $$(CPPFLAGS) $$($(3)) -c $$< -o $$@

$(O)/$(1)/tiersim/libsim.a: \
		$$(patsubst examples/tiersim/%.c,$(O)/$(1)/tiersim/%.o,$$(RL_SIM_SRCS))
	$$(call msg,AR,$$@)
	$$(Q)rm -f $$@ && $$(AR) rcs $$@ $$^

$(O)/$(1)/tests/%: tests/%.c $(O)/$(1)/libtierpol.a $$(RL_TEST_HDRS) | cmocka
	@mkdir -p $$(dir $$@)
	$$(call msg,CC,$$@)
	$$(Q)$(2) $$(BASE_CFLAGS) -Itests $$(CPPFLAGS) $$($(3)) $$< \
		$$(TEST_SIM) $(O)/$(1)/libtierpol.a $$(TEST_LIBS) -o $$@

$(O)/$(1)/stress: $$(STRESS_SRCS) $(O)/$(1)/libtierpol.a
	$$(call msg,CC,$$@)
	$$(Q)$(2) $$(BASE_CFLAGS) $$(CPPFLAGS) $$($(3)) $$(filter %.c,$$^) \
		$(O)/$(1)/libtierpol.a -lpthread -o $$@
endef

$(foreach c,$(SAN_CCS),$(eval $(call RL_BUILD,asan-$(c),$(c),RL_F_ASAN)))
$(eval $(call RL_BUILD,tsan,$(TSAN_CC),RL_F_TSAN))
$(eval $(call RL_BUILD,debug,$(CC),RL_F_DEBUG))
$(eval $(call RL_BUILD,cov,$(COV_CC),RL_F_COV))
$(eval $(call RL_BUILD,stress,$(CC),RL_F_STRESS))
$(eval $(call RL_BUILD,fuzz,$(FUZZ_CC),RL_F_FUZZLIB))

$(O)/fuzz/bin/%: tests/fuzz/%.c $(O)/fuzz/libtierpol.a $(wildcard tests/fuzz/*.h)
	@mkdir -p $(dir $@)
	$(call msg,CC,$@)
	$(Q)$(FUZZ_CC) $(BASE_CFLAGS) $(CPPFLAGS) $(RL_F_FUZZ) $< \
		$(O)/fuzz/libtierpol.a -o $@

# The trace fuzzer compiles the simulator's sources in (tiersim's suites
# link its objects: examples/tiersim/tiersim.mk).
$(O)/fuzz/bin/fuzz_trace: $(wildcard examples/tiersim/*.c examples/tiersim/*.h)

# $(call RL_RUN,binaries[,wrapper]): run each binary (behind the wrapper),
# RL_JOBS at a time, with the sanitizers' options; fail on a non-zero exit
# or a sanitizer report (tests/run-suites.sh).
RL_RUN = sh tests/run-suites.sh $(RL_JOBS) "env $(RL_ENV) $(2)" $(1)

sanitize: $(addprefix $(O)/asan-$(firstword $(SAN_CCS))/tests/,$(RL_TESTS)) \
	$(foreach c,$(wordlist 2,$(words $(SAN_CCS)),$(SAN_CCS)),\
		$(addprefix $(O)/asan-$(c)/tests/,$(RL_LIB_TESTS)))
	@$(call RL_RUN,$^) && echo "SANITIZE PASSED ($(SAN_CCS))"

tsan: $(addprefix $(O)/tsan/tests/,$(RL_MT_TESTS)) $(O)/tsan/stress
	@$(call RL_RUN,$(filter-out %/stress,$^)) && \
	echo "== $(O)/tsan/stress $(TSAN_STRESS_ARGS)" && \
	$(RL_ENV) $(O)/tsan/stress $(TSAN_STRESS_ARGS) && echo "TSAN PASSED"

valgrind: $(addprefix $(O)/tests/,$(RL_TESTS))
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

coverage: $(addprefix $(O)/cov/tests/,$(RL_LIB_TESTS))
	@find $(O)/cov -name '*.gcda' -delete
	@st=0; ($(call RL_RUN,$^)) >$(O)/cov/tests.log 2>&1 || st=$$?; \
	grep -E '^(== |FAILED|\[  (PASSED|FAILED)|\[==========\] .*run)' \
		$(O)/cov/tests.log; \
	sh .ci/coverage.sh $(O)/cov/lib $(COV_LINES) $(COV_BRANCHES) \
		"$(COV_GCOV)" || st=1; exit $$st

.PHONY: sanitize tsan valgrind check-debug stress fuzz coverage
