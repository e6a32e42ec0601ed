# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# tierpol - page-placement algorithms for tiered memory
#
#   make                 libtierpol.a, libtierpol.so, tierpol.pc (in build/)
#   make check           build and run the CMocka tests, and the checks below
#   make run             the main program: tiersim's default suite
#   make docs            Doxygen HTML from the kernel-doc comments (-Werror)
#   make install         the library, headers, tierpol.pc, tiersim and its
#                        man page: PREFIX, LIBDIR, INCLUDEDIR, PKGCONFIGDIR,
#                        BINDIR, MANDIR, DESTDIR (see the install section)
#   make uninstall
#   make check-headers, check-cxx, check-exports, check-man,
#   check-doc-examples, check-bad-input-doc  header hygiene, C++, the
#                        libraries' symbols, the man page, the docs'
#                        example programs and test names: part of make check
#   make abi-check       the shared library's ABI against abi/ (issue 13)
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
OBJCOPY		?= objcopy
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

# The archive holds one object, linked from lib/*.o with the internal
# (hidden) __tp_* symbols made local: a static link gets the exported tp_
# functions and nothing else in its namespace, as the shared library does.
# Only __tp_*: the compiler's own hidden symbols stay (i386's PIC thunks
# are COMDAT, and a local reference to a copy the link discards fails).
$(STATIC_LIB): $(LIB_OBJS)
	$(call msg,AR,$@)
	$(Q)rm -f $@ $(O)/tierpol.o && \
		$(CC) -r -nostdlib $(LDFLAGS) -o $(O)/tierpol.o $^ && \
		$(OBJCOPY) --wildcard --localize-symbol='__tp_*' \
			$(O)/tierpol.o && \
		$(AR) rcs $@ $(O)/tierpol.o

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

# test_math and test_threshold call internal helpers, which the archive
# keeps local: they link the helpers' object before the archive.
$(O)/tests/test_math $(O)/tests/test_threshold: TEST_PRIV := $(O)/lib/math.o
$(O)/tests/test_math $(O)/tests/test_threshold: $(O)/lib/math.o

$(O)/tests/%: tests/%.c $(STATIC_LIB) \
		$(wildcard tests/*.h tests/selftest/*.h) | cmocka
	@mkdir -p $(dir $@)
	$(call msg,CC,$@)
	$(Q)$(CC) $(PROG_CFLAGS) -Itests $(LDFLAGS) $< $(TEST_PRIV) \
		$(TEST_SIM) $(STATIC_LIB) $(TEST_LIBS) -o $@

check: $(TEST_BINS)
	@fail=0; for t in $(TEST_BINS) $(RT_TESTS); do \
		echo "== $$t"; $$t || fail=1; \
	done; \
	if [ $$fail = 0 ]; then echo "ALL TESTS PASSED"; \
	else echo "SOME TESTS FAILED"; exit 1; fi

# ---- header hygiene and C++ (issue 13) -----------------------------------
#
#   make check-headers  every public header on its own and included twice,
#                       as C99, C11, C++11 and C++17 with gcc, clang, g++ and
#                       clang++ (-Wall -Wextra -pedantic -Werror and more);
#                       no macro or name outside tp_/TP_, none changed;
#                       extern "C" on every function (tests/headers/check.sh),
#                       and the check's self-test on headers that break each
#                       rule (tests/headers/bad/)
#   make check-cxx      tests/cxx/api.cc, a C++ program calling the whole
#                       API: C++11 and C++17, g++ and clang++, linked with
#                       the static and with the shared library, and run
#   make check-exports  the archive defines the very symbols the shared
#                       library exports, every one tp_
#
# All three run in "make check". HDR_CCS, HDR_CXXS and CXX_CHECKS choose the
# compilers; the names check needs clang and perl (JSON::PP).

HDR_CCS		?= gcc clang
HDR_CXXS	?= g++ clang++
CXX_CHECKS	?= g++:c++11 g++:c++17 clang++:c++11 clang++:c++17
CXXFLAGS	?= -O2 -g
CXX_WARN	:= -Wall -Wextra -pedantic -Werror -Wold-style-cast \
		   -Wzero-as-null-pointer-constant
PUB_HDRS	:= $(wildcard include/tierpol/*.h)
HDR_CHECK	:= tests/headers/check.sh tests/headers/names.pl
HDR_STAMPS	:= $(patsubst include/tierpol/%.h,$(O)/headers/%.ok,$(PUB_HDRS))
HDR_BAD		:= $(wildcard tests/headers/bad/tierpol/*.h)

# A header's check includes the headers it includes: depend on all of them.
$(O)/headers/%.ok: include/tierpol/%.h $(PUB_HDRS) $(HDR_CHECK)
	@mkdir -p $(dir $@)
	$(call msg,HEADER,tierpol/$*.h)
	$(Q)HDR_CCS="$(HDR_CCS)" HDR_CXXS="$(HDR_CXXS)" \
		sh tests/headers/check.sh tierpol/$*.h && touch $@

# The check's self-test, a header that breaks a rule at a time (in
# parallel: each is a whole check).
HDR_BAD_STAMPS	:= $(patsubst tests/headers/bad/tierpol/%.h,$(O)/headers/bad/%.ok,$(HDR_BAD))

$(O)/headers/bad/%.ok: tests/headers/bad/tierpol/%.h tests/headers/selftest.sh $(HDR_CHECK)
	@mkdir -p $(dir $@)
	$(call msg,HEADER,self-test: $*.h)
	$(Q)HDR_CCS=gcc HDR_CXXS="g++ clang++" sh tests/headers/selftest.sh $*.h && touch $@

check-headers: $(HDR_BAD_STAMPS) $(HDR_STAMPS)
	@echo "HEADERS PASSED: $(words $(HDR_STAMPS)) public headers;" \
		"the check judged $(words $(HDR_BAD)) headers of its self-test right"

# $(call CXX_API,compiler,std): the C++ program, compiled once and linked
# with the static and with the shared library.
define CXX_API
$(O)/cxx/api-$(1)-$(2).o: tests/cxx/api.cc $(PUB_HDRS)
	@mkdir -p $$(dir $$@)
	$$(call msg,CXX,$$@)
	$$(Q)$(1) -std=$(2) $$(CXX_WARN) -Iinclude $$(CPPFLAGS) $$(CXXFLAGS) \
		-c $$< -o $$@

$(O)/cxx/api-$(1)-$(2)-static: $(O)/cxx/api-$(1)-$(2).o $(STATIC_LIB)
	$$(call msg,LD,$$@)
	$$(Q)$(1) $$(CXXFLAGS) $$(LDFLAGS) $$< $(STATIC_LIB) -pthread -o $$@

$(O)/cxx/api-$(1)-$(2)-shared: $(O)/cxx/api-$(1)-$(2).o $(SHARED_LIB)
	$$(call msg,LD,$$@)
	$$(Q)$(1) $$(CXXFLAGS) $$(LDFLAGS) $$< -L$(O) -ltierpol \
		-Wl,-rpath,$(abspath $(O)) -pthread -o $$@
endef

$(foreach p,$(CXX_CHECKS),$(eval $(call CXX_API,$(word 1,$(subst :, ,$(p))),$(word 2,$(subst :, ,$(p))))))
CXX_BINS	:= $(foreach p,$(subst :,-,$(CXX_CHECKS)),\
		   $(O)/cxx/api-$(p)-static $(O)/cxx/api-$(p)-shared)

# The shared builds must load build/libtierpol.so.1, the static ones none;
# a shared build must call every function the library exports.
check-cxx: $(CXX_BINS)
	@fail=0; for t in $(CXX_BINS); do \
		printf '== %s: ' $$t; $$t || fail=1; \
		case $$t in \
		*-shared) ldd $$t | grep -q 'libtierpol\.so\.$(VERSION_MAJOR) => $(abspath $(O))/' || \
			{ echo "FAILED: $$t does not load $(O)/$(SONAME)"; fail=1; }; \
			unused=$$( { nm -D --undefined-only $$t | \
				awk '{ sub(/@.*/, "", $$2); print "U", $$2 }'; \
				nm -D --defined-only $(SHARED_LIB) | \
				awk '$$2 == "T" { sub(/@.*/, "", $$3); print "T", $$3 }'; } | \
				awk '$$1 == "U" { u[$$2] = 1 } \
				     $$1 == "T" && !u[$$2] { print $$2 }'); \
			[ -z "$$unused" ] || { echo "FAILED: tests/cxx/api.cc" \
				"calls none of:" $$unused; fail=1; } ;; \
		*) ! ldd $$t | grep -q libtierpol || \
			{ echo "FAILED: $$t loads libtierpol"; fail=1; } ;; \
		esac; \
	done; [ $$fail = 0 ] && echo "C++ PASSED: $(words $(CXX_BINS)) builds"

# A static link sees what a shared one does: the archive defines exactly
# the symbols the shared library exports, all tp_ (the internal __tp_
# helpers are local to its one object).
check-exports: $(STATIC_LIB) $(SHARED_LIB)
	@nm -g --defined-only $(STATIC_LIB) | \
		awk 'NF == 3 { print $$3 }' | LC_ALL=C sort >$(O)/exports.a
	@nm -D --defined-only $(SHARED_LIB) | \
		awk '$$2 != "A" { sub(/@.*/, "", $$3); print $$3 }' | \
		LC_ALL=C sort -u >$(O)/exports.so
	@fail=0; \
	bad=$$(grep -v '^tp_' $(O)/exports.a); \
	[ -z "$$bad" ] || { echo "FAILED: $(STATIC_LIB) defines" $$bad; fail=1; }; \
	diff -u $(O)/exports.so $(O)/exports.a || \
		{ echo "FAILED: $(STATIC_LIB) and $(SHARED_LIB) export different symbols"; fail=1; }; \
	[ $$fail = 0 ] && echo "EXPORTS PASSED: $$(wc -l <$(O)/exports.a) tp_ symbols, the same in both libraries"

check: check-headers check-cxx check-exports

.PHONY: check-headers check-cxx check-exports

# ---- examples and the main program --------------------------------------

$(O)/examples/%: examples/%.c $(STATIC_LIB)
	@mkdir -p $(dir $@)
	$(call msg,CC,$@)
	$(Q)$(CC) $(PROG_CFLAGS) $(LDFLAGS) $< $(STATIC_LIB) -o $@

examples: $(EXAMPLE_BINS)

# "make run" (tiersim's default suite) is in the tiersim section below.

# ---- docs ----------------------------------------------------------------
#
#   make docs                the API reference: Doxygen HTML in
#                            $(O)/docs/html, warnings are errors; the
#                            images the pages show are copied next to them
#                            and every local link and anchor is checked
#                            (docs/check-links.pl)
#   make check-doc-examples  the example programs of README.md and
#                            docs/mainpage.md compile as C99 and C11, run,
#                            and print what the pages say
#                            (tests/docs/examples.sh); part of make check
#   make check-bad-input-doc every test case docs/BAD_INPUT.md names exists
#                            in tests/test_bad_input*.c
#                            (tests/docs/bad-input-rows.sh); part of make
#                            check
#   make check-api-table     docs/mainpage.md's object table names every
#                            exported function (tests/docs/api-table.sh);
#                            part of make check

DOC_EXAMPLES	:= README.md docs/mainpage.md

check-doc-examples: $(STATIC_LIB) tests/docs/examples.sh
	$(Q)CC="$(CC)" sh tests/docs/examples.sh $(STATIC_LIB) $(DOC_EXAMPLES)

check-bad-input-doc:
	$(Q)sh tests/docs/bad-input-rows.sh docs/BAD_INPUT.md \
		$(wildcard tests/test_bad_input*.c)

check-api-table:
	$(Q)sh tests/docs/api-table.sh docs/mainpage.md $(PUB_HDRS)

check: check-doc-examples check-bad-input-doc check-api-table

.PHONY: check-doc-examples check-bad-input-doc check-api-table


docs:
	@command -v doxygen >/dev/null || { \
		echo "doxygen is missing. Run: sudo apt-get install doxygen" >&2; \
		exit 1; }
	$(call msg,DOXYGEN,$(O)/docs/html)
	$(Q)rm -rf $(O)/docs/html
	$(Q)mkdir -p $(O)/docs
	$(Q)doxygen docs/Doxyfile
	$(Q)perl docs/check-links.pl $(O)/docs/html

# ---- install -------------------------------------------------------------
#
#   make install     headers, libtierpol.a, libtierpol.so.1, tierpol.pc,
#                    tiersim and its man page, under PREFIX (/usr/local);
#                    LIBDIR, INCLUDEDIR, PKGCONFIGDIR, BINDIR, MANDIR and
#                    DESTDIR (staging) are honoured. As root with no
#                    DESTDIR it runs ldconfig and says if LIBDIR is not on
#                    the loader's path; otherwise it says what to do.
#   make uninstall   removes the same files (and refreshes the cache)
#   make check-man   tiersim's man page lists every option, policy and
#                    workload of "tiersim --help" and no other option, and
#                    keeps the case of the names that start an option's
#                    text (tests/man/check.sh); part of "make check"

BINDIR		?= $(PREFIX)/bin
MANDIR		?= $(PREFIX)/share/man
LDCONFIG	?= ldconfig
MAN_PAGE	:= docs/tiersim.1

# $(call LOADER_CACHE,install|uninstall): after the shared library came or
# went, refresh the loader's cache when this is the system and we are root,
# or say what to do.
define LOADER_CACHE
	@if [ -n "$(DESTDIR)" ]; then \
		[ $(1) = uninstall ] || echo "Staged under DESTDIR=$(DESTDIR): run ldconfig on the target system once the files are in place (a package does it in its postinst)."; \
	elif [ "$$(id -u)" = 0 ] && command -v $(LDCONFIG) >/dev/null; then \
		echo "$(LDCONFIG)"; $(LDCONFIG) || exit 1; \
		if [ $(1) = install ] && ! $(LDCONFIG) -p | \
			grep -q "=> $(LIBDIR)/$(SONAME)$$"; then \
			echo "note: $(LIBDIR) is not on the loader's path: add it (echo $(LIBDIR) > /etc/ld.so.conf.d/tierpol.conf && ldconfig), or link programs with -Wl,-rpath,$(LIBDIR), or run them with LD_LIBRARY_PATH=$(LIBDIR)."; \
		fi; \
	elif [ $(1) = install ]; then \
		echo "note: not root, so the loader's cache is not refreshed. If $(LIBDIR) is a system directory (/usr/local/lib, /usr/lib), run: sudo ldconfig. Otherwise link programs with -Wl,-rpath,$(LIBDIR) or run them with LD_LIBRARY_PATH=$(LIBDIR)."; \
	fi
endef

install: all $(O)/examples/tiersim
	$(INSTALL) -d $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCLUDEDIR)/tierpol \
		$(DESTDIR)$(PKGCONFIGDIR) $(DESTDIR)$(BINDIR) \
		$(DESTDIR)$(MANDIR)/man1
	$(INSTALL) -m 644 include/tierpol/*.h $(DESTDIR)$(INCLUDEDIR)/tierpol/
	$(INSTALL) -m 644 $(STATIC_LIB) $(DESTDIR)$(LIBDIR)/
	$(INSTALL) -m 755 $(SHARED_REAL) $(DESTDIR)$(LIBDIR)/
	ln -sf $(notdir $(SHARED_REAL)) $(DESTDIR)$(LIBDIR)/$(SONAME)
	ln -sf $(SONAME) $(DESTDIR)$(LIBDIR)/libtierpol.so
	$(PC_SED) tierpol.pc.in > $(DESTDIR)$(PKGCONFIGDIR)/tierpol.pc
	$(INSTALL) -m 755 $(TIERSIM) $(DESTDIR)$(BINDIR)/tiersim
	$(INSTALL) -m 644 $(MAN_PAGE) $(DESTDIR)$(MANDIR)/man1/tiersim.1
	$(call LOADER_CACHE,install)

uninstall:
	rm -f $(DESTDIR)$(LIBDIR)/libtierpol.a \
		$(DESTDIR)$(LIBDIR)/libtierpol.so \
		$(DESTDIR)$(LIBDIR)/$(SONAME) \
		$(DESTDIR)$(LIBDIR)/$(notdir $(SHARED_REAL)) \
		$(DESTDIR)$(PKGCONFIGDIR)/tierpol.pc \
		$(DESTDIR)$(BINDIR)/tiersim \
		$(DESTDIR)$(MANDIR)/man1/tiersim.1
	rm -rf $(DESTDIR)$(INCLUDEDIR)/tierpol
	$(call LOADER_CACHE,uninstall)

check-man: $(O)/examples/tiersim $(MAN_PAGE) tests/man/check.sh
	$(Q)sh tests/man/check.sh $(TIERSIM) $(MAN_PAGE)

check: check-man

.PHONY: check-man

# ---- ABI check against the committed baseline (issue 13) ----------------
#
#   make abi-check     build the shared library the way the baseline was
#                      built, dump its ABI (abidw) and compare it with
#                      abi/$(SONAME).abi (abidiff, unreachable types too,
#                      so enums count): fails on any change docs/ABI.md does
#                      not allow (a removed or changed function, a changed
#                      layout of any public struct, a changed enumerator);
#                      appended config fields (abi/suppressions.abignore;
#                      abi/cfg-append.pl fails one placed in a released
#                      struct's padding), new enumerators and new
#                      functions in a new version node of
#                      lib/libtierpol.map pass. Also compares the
#                      public macros with abi/$(SONAME).macros: a changed
#                      or removed TP_ constant fails.
#   make abi-baseline  rewrite abi/ from this tree (at a release only; see
#                      docs/ABI.md)
#
# Needs abidw and abidiff (Debian: abigail-tools). The ABI build uses fixed
# flags (ABI_CC, ABI_CFLAGS), not CC and CFLAGS, so that the baseline is
# reproducible: "make abi-baseline" twice gives the same files.

ABI_CC		:= gcc
ABI_CFLAGS	:= -O2 -g -fno-eliminate-unused-debug-types
ABI_DIR		:= $(O)/abi
ABI_LIB		:= $(ABI_DIR)/$(SONAME)
ABI_BASE	:= abi/$(SONAME).abi
ABI_BASE_MACROS	:= abi/$(SONAME).macros
ABI_SUPPR	:= abi/suppressions.abignore
ABIDW_FLAGS	:= --headers-dir include/tierpol --drop-private-types \
		   --load-all-types --no-corpus-path --no-comp-dir-path \
		   --no-show-locs --type-id-style hash
# No --headers-dir here: abidw already dropped the types that are not in
# the public headers, and the dumps carry no locations to tell them apart.
ABIDIFF_FLAGS	:= --non-reachable-types --suppressions $(ABI_SUPPR)
# Macros that change within a major version by design: the version, and
# TP_POL_ALL, which grows with every new switch.
ABI_MACRO_SKIP	:= TP_VERSION_(MINOR|PATCH|NUMBER|STRING)|TP_POL_ALL

$(ABI_DIR)/lib/%.o: lib/%.c $(LIB_HDRS)
	@mkdir -p $(dir $@)
	$(call msg,CC,$@)
	$(Q)$(ABI_CC) $(BASE_CFLAGS) -Ilib -ffreestanding -fno-builtin \
		-fvisibility=hidden -fPIC -fno-semantic-interposition \
		$(ABI_CFLAGS) -c $< -o $@

$(ABI_LIB): $(patsubst lib/%.c,$(ABI_DIR)/lib/%.o,$(LIB_SRCS)) lib/libtierpol.map
	$(call msg,LD,$@)
	$(Q)$(ABI_CC) -shared -Wl,-soname,$(SONAME) \
		-Wl,--version-script=lib/libtierpol.map -o $@ \
		$(filter %.o,$^)

$(ABI_DIR)/$(SONAME).abi: $(ABI_LIB)
	@command -v abidw >/dev/null || { \
		echo "abidw is missing. Run: sudo apt-get install abigail-tools" >&2; \
		exit 1; }
	$(call msg,ABIDW,$@)
	$(Q)abidw $(ABIDW_FLAGS) --out-file $@ $<

$(ABI_DIR)/$(SONAME).macros: $(PUB_HDRS) Makefile
	@mkdir -p $(dir $@)
	$(call msg,GEN,$@)
	$(Q)printf '#include <tierpol/tierpol.h>\n' | \
		$(ABI_CC) -x c -std=c11 -Iinclude -dM -E - | \
		grep -E '^#define TP_' | grep -vE '^#define ($(ABI_MACRO_SKIP)) ' | \
		LC_ALL=C sort >$@

abi-check: $(ABI_DIR)/$(SONAME).abi $(ABI_DIR)/$(SONAME).macros
	@fail=0; \
	echo "abidiff $(ABI_BASE) $(ABI_DIR)/$(SONAME).abi"; \
	abidiff $(ABIDIFF_FLAGS) --no-added-syms $(ABI_BASE) \
		$(ABI_DIR)/$(SONAME).abi || { rc=$$?; \
		echo "FAILED: abidiff exit status $$rc: an ABI change docs/ABI.md does not allow"; \
		fail=1; }; \
	new=$$(abidiff $(ABIDIFF_FLAGS) --added-fns $(ABI_BASE) \
		$(ABI_DIR)/$(SONAME).abi | grep -E '^ *\[A\]' || true); \
	if [ -n "$$new" ]; then echo "new functions:"; echo "$$new"; fi; \
	if echo "$$new" | grep -q "@@$$(sed -n 's/^\(TIERPOL_[0-9.]*\) {.*/\1/p' \
			lib/libtierpol.map | head -1)}"; then \
		echo "FAILED: a new function in the released version node:" \
			"give it a new node in lib/libtierpol.map"; fail=1; fi; \
	perl abi/cfg-append.pl $(ABI_BASE) $(ABI_DIR)/$(SONAME).abi || fail=1; \
	gone=$$(LC_ALL=C comm -23 $(ABI_BASE_MACROS) $(ABI_DIR)/$(SONAME).macros); \
	if [ -n "$$gone" ]; then echo "FAILED: public macros changed or removed:"; \
		echo "$$gone"; fail=1; fi; \
	[ $$fail = 0 ] && echo "ABI CHECK PASSED: compatible with $(ABI_BASE)"

abi-baseline: $(ABI_DIR)/$(SONAME).abi $(ABI_DIR)/$(SONAME).macros
	$(Q)mkdir -p abi
	$(Q)cp $(ABI_DIR)/$(SONAME).abi $(ABI_BASE)
	$(Q)cp $(ABI_DIR)/$(SONAME).macros $(ABI_BASE_MACROS)
	@echo "$(ABI_BASE) and $(ABI_BASE_MACROS) rewritten: commit them with the release"

.PHONY: abi-check abi-baseline

# ---- freestanding proof --------------------------------------------------

# With every compiler here: clang -m32 once needed libatomic where gcc did not.
FREESTANDING_CCS ?= $(sort $(filter-out cc,$(CC)) $(SAN_CCS))
freestanding:
	$(Q)sh .ci/freestanding.sh $(FREESTANDING_CCS)

# ---- reliability: sanitizers, stress, fuzzing, coverage (issue 7) --------
# make sanitize, tsan, valgrind, check-debug, stress, fuzz and coverage

include tests/reliability.mk

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
#                         C=2 runs sparse on every file, W=1 adds warnings;
#                         TP_ST_SKIP="ring ..." leaves vector files out.
#   make kmod-example     the example module examples/kmod/ both ways:
#                         tierpol vendored, and against tierpol.ko
#   make kcheck           boot Debian's kernel under qemu with the modules
#                         and check the self-test's KTAP (VMLINUZ=,
#                         KCHECK_TIMEOUT=)
#   make kunit            the KUnit suite on UML built from Debian's
#                         linux-source (build/kunit/<tree>/um; JOBS=,
#                         TP_ST_SKIP=, KSRC=)
#   make kunit32          the same on a 32-bit x86 kernel under qemu, 2 CPUs
#   make klatest          make kunit and make kcheck on the newest kernel
#                         Debian ships (trixie-backports), fetched into
#                         build/klatest/ (KLATEST_SUITE=, KLATEST_STEPS=)
#   make kstyle           checkpatch --strict, kernel-doc, sparse: no findings
#   make check32          the CMocka suites as i386 programs under qemu-i386
#   make kclean           remove kbuild's output (make clean does it too)
#
# The work is done by kernel/{kmod,kexample,kcheck,kstyle,kunit,klatest}.sh
# and tests/check32.sh; .ci/kcheck.sh, .ci/kstyle.sh, .ci/kunit.sh,
# .ci/klatest.sh and .ci/check32.sh install their packages first. How to
# vendor tierpol into a kernel tree or use it from a module: docs/kernel.md.

KDIR		?=
KBUILD_OUT	= $(wildcard *.ko *.mod *.mod.c *.o .*.o .*.cmd .*.d \
		  Module.symvers modules.order lib/*.o lib/.*.cmd lib/.*.d \
		  kernel/*.o kernel/.*.cmd kernel/.*.d kernel/tierpol_vectors.h)

kmod:
	$(Q)KDIR="$(KDIR)" C="$(C)" W="$(W)" V="$(V)" TP_ST_SKIP="$(TP_ST_SKIP)" \
		sh kernel/kmod.sh

kmod-example: kmod
	$(Q)sh kernel/kexample.sh

kcheck: kmod-example
	$(Q)sh kernel/kcheck.sh

kunit:
	$(Q)TP_ST_SKIP="$(TP_ST_SKIP)" sh kernel/kunit.sh

kunit32:
	$(Q)KUNIT_ARCH=i386 TP_ST_SKIP="$(TP_ST_SKIP)" sh kernel/kunit.sh

klatest:
	$(Q)sh kernel/klatest.sh

kstyle:
	$(Q)KDIR="$(KDIR)" sh kernel/kstyle.sh

check32:
	$(Q)CC="$(CC)" sh tests/check32.sh

kclean:
	$(Q)$(if $(KBUILD_OUT),rm -f $(KBUILD_OUT))

clean: kclean

.PHONY: kmod kmod-example kcheck kunit kunit32 klatest kstyle check32 kclean

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

# ---- tiersim, kernel-truth and the runtime: beside their code --------------

include examples/tiersim/tiersim.mk
include tests/truth/truth.mk
include examples/runtime/runtime.mk
