# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# Included by the top-level Makefile (its variables, O and the library
# targets, are set before); paths are relative to the top of the tree.
#
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
# The tests/test_tiersim*.c link the simulator's objects, compiled in each
# build of the tests with its flags, so those builds cover them (ASan and
# UBSan with gcc, valgrind, TP_DEBUG, 32-bit; not coverage, which is of
# lib/); they need libm.

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

# The simulator without its main(), for the tests: tiersim's own objects
# here, each reliability build's compiled once with its compiler and flags
# (tests/reliability.mk's RL_BUILD). Every tests/test_tiersim*.c includes
# the simulator's headers and links the archive of its build (TEST_SIM).
TIERSIM_LIB	:= $(O)/tiersim/libsim.a
TIERSIM_TESTS	:= $(notdir $(basename $(wildcard tests/test_tiersim*.c)))

$(TIERSIM_LIB): $(filter-out %/main.o,$(TIERSIM_OBJS))
	$(call msg,AR,$@)
	$(Q)rm -f $@ && $(AR) rcs $@ $^

$(foreach d,$(O) $(addprefix $(O)/,$(addprefix asan-,$(SAN_CCS)) tsan debug cov),\
	$(foreach t,$(TIERSIM_TESTS),\
		$(eval $(d)/tests/$(t): TEST_SIM := $(d)/tiersim/libsim.a)\
		$(eval $(d)/tests/$(t): $(d)/tiersim/libsim.a $(TIERSIM_HDRS))))

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
# bash completion (tests/tiersim_cli.sh and tests/tiersim_ux.sh, about ten
# seconds).
check-tiersim: $(TIERSIM) $(SVGCHECK)
	$(Q)sh tests/tiersim_cli.sh $(TIERSIM) $(SVGCHECK) \
		examples/tiersim/tiersim.bash

check: check-tiersim

# make check-readme-run: the tables README.md quotes from make run are what
# the default suite prints (tests/docs/readme-run.sh, about a minute; in
# CI's .ci/tiersim.sh, not in make check).
check-readme-run: $(TIERSIM)
	$(Q)sh tests/docs/readme-run.sh $(TIERSIM) README.md $(RUN_JOBS)

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

.PHONY: tiersim run-short results check-tiersim check-readme-run \
	install-tiersim-completion uninstall-tiersim-completion
