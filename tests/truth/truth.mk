# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# Included by the top-level Makefile (its variables, O and the library
# targets, are set before); paths are relative to the top of the tree.
#
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
#                         $(O)/truth (reparse, rerun tiersim, rewrite);
#                         TRUTH_PROG_MS=N the guest's progress lines between
#                         the samples (default 100, 0: none), which the
#                         speed profile follows unless TRUTH_PROG=off
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

TRUTH_GUEST_SRCS := tests/truth/guest.c tests/truth/guest_opts.c \
		    tests/truth/guest_proc.c tests/truth/guest_rt.c

$(TRUTH_GUEST): $(TRUTH_GUEST_SRCS) tests/truth/guest_opts.h \
		tests/truth/guest_proc.h tests/truth/guest_rt.h $(TRUTH_WL) \
		examples/tiersim/wl.h examples/tiersim/wl_int.h
	@mkdir -p $(dir $@)
	$(call msg,CC,$@)
	$(Q)$(CC) $(PROG_CFLAGS) -Iexamples/tiersim -Iexamples/runtime \
		-static $(LDFLAGS) $(TRUTH_GUEST_SRCS) \
		$(TRUTH_WL) $(RT_LIB) $(STATIC_LIB) -lm -pthread -o $@

TRUTH_SRCS	:= $(wildcard tests/truth/truth*.c) tests/truth/json.c \
		   examples/tiersim/svg.c

# tests/test_truth_fit.c compiles the harness's fit in, in each build of
# the tests (the reliability builds' directories included).
$(foreach d,$(O) $(addprefix $(O)/,$(addprefix asan-,$(SAN_CCS)) tsan debug cov),\
	$(eval $(d)/tests/test_truth_fit: tests/truth/truth_fit.c \
		tests/truth/truth_parse.c tests/truth/json.c \
		tests/truth/truth.h tests/truth/json.h))

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
