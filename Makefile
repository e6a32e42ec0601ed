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
#   make clean
#
# CC, CFLAGS, LDFLAGS and CPPFLAGS are honoured; the flags tierpol needs are
# added on top of them. V=1 prints every command.

VERSION_MAJOR	:= 0
VERSION_MINOR	:= 1
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
LIB_CFLAGS	:= $(BASE_CFLAGS) -Ilib -ffreestanding -fno-builtin \
		   -fvisibility=hidden -fPIC $(CPPFLAGS) $(CFLAGS)
PROG_CFLAGS	:= $(BASE_CFLAGS) $(CPPFLAGS) $(CFLAGS)

LIB_SRCS	:= $(wildcard lib/*.c)
LIB_HDRS	:= $(wildcard include/tierpol/*.h) lib/tp_seam.h
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

$(O)/tests/%: tests/%.c $(STATIC_LIB) $(wildcard tests/*.h) | cmocka
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

run: $(EXAMPLE_BINS)
	$(O)/examples/tpdaemon

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

clean:
	rm -rf $(O)
