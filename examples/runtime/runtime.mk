# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# Included by the top-level Makefile (its variables, O and the library
# targets, are set before); paths are relative to the top of the tree.
#
# ---- runtime: tierpol placing a process's pages on a real kernel (issue 17) --
#
#   make runtime          $(O)/libtprt.a (examples/runtime/tprt_*.c) and the
#                         demo program $(O)/examples/tprt-demo (also built by
#                         "make examples")
#   make runtime-check    the runtime's CMocka suites (one node is enough;
#                         "make check" runs it too)
#   make runtime-truth    the runtime against Linux 6.1's NUMA balancing on
#                         the kernel-truth qemu machine; writes
#                         docs/RUNTIME-RESULTS.md's figures (RT_RUNS=N runs
#                         each, RT_REUSE=1 reparses)
#   make runtime-truth-ci a short version of it (CI)
#
# The runtime is a userspace program library, not part of lib/: it needs
# libc, threads and Linux system calls. Its one file that calls tierpol is
# examples/runtime/tprt_tierpol.c.

RT_SRCS		:= $(wildcard examples/runtime/tprt_*.c)
RT_HDRS		:= $(wildcard examples/runtime/*.h)
RT_OBJS		:= $(patsubst examples/runtime/%.c,$(O)/runtime/%.o,$(RT_SRCS))
RT_LIB		:= $(O)/libtprt.a
RT_DEMO		:= $(O)/examples/tprt-demo
RT_TEST_SRCS	:= $(wildcard tests/runtime/test_*.c)
RT_TESTS	:= $(patsubst tests/runtime/%.c,$(O)/tests/runtime/%,$(RT_TEST_SRCS))
RT_CFLAGS	:= $(PROG_CFLAGS) -pthread -Iexamples/runtime

$(O)/runtime/%.o: examples/runtime/%.c $(RT_HDRS) $(LIB_HDRS)
	@mkdir -p $(dir $@)
	$(call msg,CC,$@)
	$(Q)$(CC) $(RT_CFLAGS) -c $< -o $@

$(RT_LIB): $(RT_OBJS)
	$(call msg,AR,$@)
	$(Q)rm -f $@ && $(AR) rcs $@ $^

$(RT_DEMO): examples/runtime/demo.c $(RT_LIB) $(STATIC_LIB) \
		$(TRUTH_WL) examples/tiersim/wl.h
	@mkdir -p $(dir $@)
	$(call msg,CC,$@)
	$(Q)$(CC) $(RT_CFLAGS) -Iexamples/tiersim $(LDFLAGS) $< \
		$(TRUTH_WL) $(RT_LIB) $(STATIC_LIB) -lm -o $@

$(O)/tests/runtime/%: tests/runtime/%.c tests/runtime/helpers.h \
		tests/tp_test_tsan.h $(RT_LIB) $(STATIC_LIB) | cmocka
	@mkdir -p $(dir $@)
	$(call msg,CC,$@)
	$(Q)$(CC) $(RT_CFLAGS) -Itests $(LDFLAGS) $< $(RT_LIB) $(STATIC_LIB) \
		$(TEST_LIBS) -o $@

runtime: $(RT_LIB) $(RT_DEMO)

# truth-guest (kernel-truth section) links the runtime for --runtime.
$(TRUTH_GUEST): $(RT_LIB) $(STATIC_LIB)

examples: $(RT_DEMO)

check: $(RT_TESTS)

runtime-check: $(RT_TESTS)
	@fail=0; for t in $^; do echo "== $$t"; $$t || fail=1; done; \
	[ $$fail = 0 ]

.PHONY: runtime runtime-check

RT_REPORT	:= $(TRUTH_DIR)/rtreport
RT_RUNS		?= 1
RT_ONLY		?=
RT_REUSE	?=

$(RT_REPORT): tests/truth/rtreport.c tests/truth/rtreport_svg.c \
		tests/truth/rtreport.h $(TRUTH_WL) examples/tiersim/wl.h
	@mkdir -p $(dir $@)
	$(call msg,CC,$@)
	$(Q)$(CC) $(PROG_CFLAGS) -Iexamples/tiersim $(LDFLAGS) \
		tests/truth/rtreport.c tests/truth/rtreport_svg.c \
		$(TRUTH_WL) -lm -o $@

runtime-truth: $(TRUTH_GUEST) $(RT_REPORT)
	tests/truth/runtime.sh --runs $(RT_RUNS) \
		$(if $(RT_ONLY),--only "$(RT_ONLY)") $(if $(RT_REUSE),--reuse)

runtime-truth-ci: $(TRUTH_GUEST) $(RT_REPORT)
	tests/truth/runtime.sh --ci

.PHONY: runtime-truth runtime-truth-ci

# make runtime-sanitize: the runtime's suite under ASan + UBSan (the first
# compiler of SAN_CCS) and under TSan (TSAN_CC), failing on any report.
# $(call RT_SAN,dir,cc,flags-variable), on top of RL_BUILD's libtierpol.a.
# Static pattern rules: the targets are explicit, so RL_BUILD's implicit
# $(O)/dir/tests/% rule (which would build without the runtime) never
# takes them.
RT_TEST_NAMES	:= $(notdir $(RT_TESTS))

define RT_SAN
$(patsubst examples/runtime/%.c,$(O)/$(1)/runtime/%.o,$(RT_SRCS)): \
		$(O)/$(1)/runtime/%.o: examples/runtime/%.c $$(RT_HDRS) $$(LIB_HDRS)
	@mkdir -p $$(dir $$@)
	$$(call msg,CC,$$@)
	$$(Q)$(2) $$(BASE_CFLAGS) -pthread -Iexamples/runtime $$(CPPFLAGS) \
		$$($(3)) -c $$< -o $$@

$(addprefix $(O)/$(1)/tests/runtime/,$(RT_TEST_NAMES)): \
		$(O)/$(1)/tests/runtime/%: tests/runtime/%.c tests/runtime/helpers.h \
		tests/tp_test_tsan.h \
		$$(patsubst examples/runtime/%.c,$(O)/$(1)/runtime/%.o,$$(RT_SRCS)) \
		$(O)/$(1)/libtierpol.a | cmocka
	@mkdir -p $$(dir $$@)
	$$(call msg,CC,$$@)
	$$(Q)$(2) $$(BASE_CFLAGS) -pthread -Iexamples/runtime -Itests \
		$$(CPPFLAGS) $$($(3)) $$(filter-out %.h,$$^) $$(TEST_LIBS) -o $$@
endef

RT_ASAN		:= asan-$(firstword $(SAN_CCS))
$(eval $(call RT_SAN,$(RT_ASAN),$(firstword $(SAN_CCS)),RL_F_ASAN))
$(eval $(call RT_SAN,tsan,$(TSAN_CC),RL_F_TSAN))


runtime-sanitize: $(addprefix $(O)/$(RT_ASAN)/tests/runtime/,$(RT_TEST_NAMES)) \
		$(addprefix $(O)/tsan/tests/runtime/,$(RT_TEST_NAMES))
	@$(call RL_RUN,$^) && echo "RUNTIME-SANITIZE PASSED"

.PHONY: runtime-sanitize
