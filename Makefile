# SPDX-License-Identifier: GPL-2.0-or-later
# fslab - one hand-written, non-recursive GNU Makefile.
#
#   make              build ./fslab (build/fslab); WERROR=1 for -Werror
#   make run          install Debian deps if missing, build, run the default suite
#   make check        install deps, build plain + ASan/UBSan, run unit tests
#                     and the integration tests (root + loop devices)
#   make unit         unit tests only (plain build)
#   make asan         sanitized build in build/asan
#   make no-mpi       build/no-mpi/fslab: the same without MPI
#   make deps         install the Debian packages fslab needs (root)
#   make check-includes  fail on an include up the layers of scripts/layers.txt or a circle
#   make check-sizes     fail on a src/ file over 900 lines or a function over 150
#   make clean

CC      ?= cc
CFLAGS  ?= -O2 -g
BUILD   ?= build
PKGS     = sqlite3 blkid mount jansson gsl cairo fontconfig libarchive libtracefs libtraceevent liburing nettle

# -Werror is for developers and CI (`make WERROR=1`; `make check` and
# .ci/run turn it on): a packager's newer compiler must not fail the
# build over a warning it learnt since.
WERROR  ?= 0

# A missing library is named with its Debian package here, not found
# later as a confusing missing header.  Goals that install the packages
# first (deps, run, check) or need none (clean) skip the check; their
# sub-makes check.
PC_DEB = sqlite3:libsqlite3-dev blkid:libblkid-dev mount:libmount-dev \
	jansson:libjansson-dev gsl:libgsl-dev cairo:libcairo2-dev \
	fontconfig:libfontconfig-dev libarchive:libarchive-dev \
	libtracefs:libtracefs-dev libtraceevent:libtraceevent-dev \
	liburing:liburing-dev nettle:nettle-dev cmocka:libcmocka-dev
PC_NEED = $(PKGS) $(if $(filter unit check,$(MAKECMDGOALS))$(filter tests/%,$(MAKECMDGOALS)),cmocka)
ifeq ($(filter deps run check clean check-includes check-sizes,$(MAKECMDGOALS)),)
ifeq ($(shell command -v pkg-config),)
$(error pkg-config not found: install the Debian package pkg-config (or run 'make deps'))
endif
PC_MISSING := $(shell for p in $(PC_NEED); do pkg-config --exists $$p || echo $$p; done)
ifneq ($(PC_MISSING),)
$(error missing $(PC_MISSING:%=%.pc): install the Debian package(s) $(foreach p,$(PC_MISSING),$(patsubst $(p):%,%,$(filter $(p):%,$(PC_DEB)))) (or run 'make deps'))
endif
endif

FSLAB_CFLAGS = -std=c17 -D_GNU_SOURCE -Isrc -I$(BUILD)/gen -Wall -Wextra \
	$(if $(filter 1,$(WERROR)),-Werror) \
	-Wformat=2 -Wshadow -Wstrict-prototypes -Wvla -Wwrite-strings \
	-Wno-format-nonliteral -pthread -MMD -MP \
	$(shell pkg-config --cflags $(PKGS))
LIBS = $(shell pkg-config --libs $(PKGS)) -lm -pthread

# The version: `git describe` of this checkout at build time, else the
# VERSION file (a release tarball) - scripts/version.sh.  The generated
# header is rewritten only when the string changes, and only the few
# files that print the version include it (util/version.h).
VERSION_STR := $(shell scripts/version.sh)
VERSION_H = $(BUILD)/gen/fslab-version.h

# MPI is optional: with Open MPI's pkg-config file present (Debian
# libopenmpi-dev) fslab can run one process per rank under mpirun.
# MPI=0 builds without it even when it is installed.
ifneq ($(MPI),0)
ifeq ($(shell pkg-config --exists ompi-c && echo yes),yes)
MPI_CFLAGS := -DHAVE_MPI $(shell pkg-config --cflags ompi-c)
MPI_LIBS := $(shell pkg-config --libs ompi-c)
FSLAB_CFLAGS += $(MPI_CFLAGS)
LIBS += $(MPI_LIBS)
endif
endif

# TEST_HOOKS=1 compiles in the FSLAB_TEST_HOOK_* shell hooks the safety
# tests use (fs/target.c); only make check's test build has them.
ifeq ($(TEST_HOOKS),1)
FSLAB_CFLAGS += -DFSLAB_TEST_HOOKS
endif

ifdef SANITIZE
FSLAB_CFLAGS += -fsanitize=$(SANITIZE) -fno-sanitize-recover=all \
	-fno-omit-frame-pointer
LIBS += -fsanitize=$(SANITIZE)
endif

SRCS   := $(sort $(wildcard src/*.c src/*/*.c src/*/*/*.c))
OBJS   := $(SRCS:%.c=$(BUILD)/%.o)
LIBOBJS := $(filter-out $(BUILD)/src/main.o,$(OBJS))
UNIT_SRCS := $(sort $(wildcard tests/unit/test_*.c))
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(BUILD)/tests/%)

.DEFAULT_GOAL := all

$(VERSION_H): FORCE
	@mkdir -p $(dir $@)
	@echo '#define FSLAB_VERSION "$(VERSION_STR)"' >$@.tmp
	@cmp -s $@.tmp $@ && rm -f $@.tmp || mv -f $@.tmp $@

# Every module's include graph (src/<dir>) must stay acyclic.
check-includes:
	@scripts/check-includes.sh

# No src/ file over 900 lines, no function over 150 (but the listed).
check-sizes:
	@scripts/check-sizes.sh

FORCE:
.PHONY: FORCE check-includes check-sizes

all: $(BUILD)/fslab fslab

fslab: $(BUILD)/fslab
	@[ "$(BUILD)" != build ] || ln -sf $(BUILD)/fslab fslab

$(BUILD)/fslab: $(OBJS)
	$(CC) $(LDFLAGS) -o $@ $^ $(LIBS)

$(BUILD)/%.o: %.c | $(VERSION_H)
	@mkdir -p $(dir $@)
	$(CC) $(FSLAB_CFLAGS) $(CFLAGS) -c -o $@ $<

$(BUILD)/tests/%: tests/unit/%.c $(LIBOBJS)
	@mkdir -p $(dir $@)
	$(CC) $(FSLAB_CFLAGS) $(CFLAGS) $(shell pkg-config --cflags cmocka) \
		-DFSLAB_TEST_DATA_DIR='"$(CURDIR)/tests/data"' \
		-o $@ $< $(LIBOBJS) $(LIBS) $(shell pkg-config --libs cmocka)

# bench/NAME.c programs that link fslab's objects (bench/*.sh build
# them with `make $(BUILD)/bench/NAME`): the same flags and libraries
# as fslab, so their link line never drifts from this one.
$(BUILD)/bench/%: bench/%.c $(LIBOBJS)
	@mkdir -p $(dir $@)
	$(CC) $(FSLAB_CFLAGS) $(CFLAGS) -o $@ $< $(LIBOBJS) $(LIBS)

# `make no-mpi`: $(BUILD)/no-mpi/fslab, this build as it would be without
# MPI (tests/t/t9010).  Only the sources that test HAVE_MPI differ, so
# only they are compiled again; every other object is shared.
MPI_SRCS := $(shell grep -l HAVE_MPI $(SRCS))
NOMPI_OBJS := $(filter-out $(MPI_SRCS:%.c=$(BUILD)/%.o),$(OBJS)) \
	$(MPI_SRCS:%.c=$(BUILD)/no-mpi/%.o)

no-mpi: $(BUILD)/no-mpi/fslab

$(BUILD)/no-mpi/fslab: $(NOMPI_OBJS)
	$(CC) $(LDFLAGS) -o $@ $^ $(filter-out $(MPI_LIBS),$(LIBS))

$(BUILD)/no-mpi/%.o: %.c | $(VERSION_H)
	@mkdir -p $(dir $@)
	$(CC) $(filter-out $(MPI_CFLAGS),$(FSLAB_CFLAGS)) $(CFLAGS) -c -o $@ $<

deps:
	@scripts/install-deps.sh

unit: $(UNIT_BINS)
	@scripts/run-unit.sh $(UNIT_BINS)

asan:
	$(MAKE) BUILD=build/asan SANITIZE=address,undefined all

check:
	@scripts/install-deps.sh --test
	$(MAKE) WERROR=1 all
	$(MAKE) WERROR=1 unit
	$(MAKE) WERROR=1 BUILD=build/asan SANITIZE=address,undefined \
		TEST_HOOKS=1 all unit
	scripts/check-includes.sh
	scripts/check-sizes.sh
	scripts/check-externs.sh build
	scripts/check-paths.sh
	FSLAB="$(CURDIR)/build/asan/fslab" prove -v -e bash tests/t/t[0-9]*.sh

run: deps all
	./fslab run

clean:
	rm -rf build fslab

# Fuzzing (README "Fuzzing"): one libFuzzer target per parser in
# tests/fuzz/fuzz_*.c.  `make fuzz` builds all objects with clang +
# ASan/UBSan + coverage in build/fuzz and links build/fuzz/fuzz_NAME;
# `make fuzz-smoke` runs each for FUZZ_TIME seconds; `make fuzz-replay`
# links them with tests/fuzz/replay.c instead (any CC) into
# $(BUILD)/fuzz-replay/ to replay the corpora (tests/t/t9500).
FUZZ_NAMES := $(sort $(patsubst tests/fuzz/fuzz_%.c,%,$(wildcard tests/fuzz/fuzz_*.c)))
FUZZ_TIME ?= 20

fuzz:
	$(MAKE) BUILD=build/fuzz CC=clang SANITIZE=address,undefined \
		CFLAGS="-O1 -g -fsanitize=fuzzer-no-link" fuzz-bins

fuzz-bins: $(FUZZ_NAMES:%=$(BUILD)/fuzz_%)

$(BUILD)/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz.h $(LIBOBJS)
	$(CC) $(FSLAB_CFLAGS) $(CFLAGS) -fsanitize=fuzzer -o $@ $< \
		$(LIBOBJS) $(LIBS)

fuzz-smoke: fuzz
	FUZZ_TIME=$(FUZZ_TIME) scripts/fuzz-smoke.sh build/fuzz

fuzz-replay: $(FUZZ_NAMES:%=$(BUILD)/fuzz-replay/fuzz_%)

$(BUILD)/fuzz-replay/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/replay.c \
		tests/fuzz/fuzz.h $(LIBOBJS)
	@mkdir -p $(dir $@)
	$(CC) $(FSLAB_CFLAGS) $(CFLAGS) -o $@ $< tests/fuzz/replay.c \
		$(LIBOBJS) $(LIBS)

.PHONY: fuzz fuzz-bins fuzz-smoke fuzz-replay

# Installing (README "Installing").  Man pages and the bash completion
# are generated by the binary from its own option tables, so they list
# exactly what it parses; EXAMPLES come from README.md.
PREFIX  ?= /usr/local
BINDIR  ?= $(PREFIX)/bin
DATADIR ?= $(PREFIX)/share
MANDIR  ?= $(DATADIR)/man
DOCDIR  ?= $(DATADIR)/doc/fslab
BASHCOMPDIR ?= $(DATADIR)/bash-completion/completions
INSTALL ?= install

man: $(BUILD)/fslab
	@mkdir -p $(BUILD)/man
	@$(BUILD)/fslab --dump-man list | while read -r page sec; do \
		FSLAB_README=README.md $(BUILD)/fslab --dump-man "$$page" \
			>$(BUILD)/man/"$$page.$$sec" || exit 1; \
	done

completion: $(BUILD)/fslab
	@mkdir -p $(BUILD)/completion
	$(BUILD)/fslab --dump-completion >$(BUILD)/completion/fslab

install: all man completion
	$(INSTALL) -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 \
		$(DESTDIR)$(MANDIR)/man7 $(DESTDIR)$(BASHCOMPDIR) \
		$(DESTDIR)$(DOCDIR)/examples/ffsb $(DESTDIR)$(DOCDIR)/examples/age
	$(INSTALL) -m 755 $(BUILD)/fslab $(DESTDIR)$(BINDIR)/fslab
	$(INSTALL) -m 644 $(BUILD)/man/*.1 $(DESTDIR)$(MANDIR)/man1/
	$(INSTALL) -m 644 $(BUILD)/man/*.7 $(DESTDIR)$(MANDIR)/man7/
	$(INSTALL) -m 644 $(BUILD)/completion/fslab $(DESTDIR)$(BASHCOMPDIR)/fslab
	$(INSTALL) -m 644 README.md doc/*.md $(DESTDIR)$(DOCDIR)/
	$(INSTALL) -m 644 examples/ffsb/*.ffsb $(DESTDIR)$(DOCDIR)/examples/ffsb/
	$(INSTALL) -m 644 examples/age/*.profile $(DESTDIR)$(DOCDIR)/examples/age/

# Only what install wrote: DOCDIR may be shared.
uninstall:
	rm -f $(DESTDIR)$(BINDIR)/fslab $(DESTDIR)$(BASHCOMPDIR)/fslab
	rm -f $(DESTDIR)$(MANDIR)/man1/fslab.1 $(DESTDIR)$(MANDIR)/man1/fslab-*.1 \
		$(DESTDIR)$(MANDIR)/man7/fslab-*.7
	rm -f $(DESTDIR)$(DOCDIR)/README.md \
		$(addprefix $(DESTDIR)$(DOCDIR)/,$(notdir $(wildcard doc/*.md))) \
		$(addprefix $(DESTDIR)$(DOCDIR)/examples/ffsb/,$(notdir $(wildcard examples/ffsb/*.ffsb))) \
		$(addprefix $(DESTDIR)$(DOCDIR)/examples/age/,$(notdir $(wildcard examples/age/*.profile)))
	-rmdir $(DESTDIR)$(DOCDIR)/examples/ffsb $(DESTDIR)$(DOCDIR)/examples/age \
		$(DESTDIR)$(DOCDIR)/examples $(DESTDIR)$(DOCDIR) 2>/dev/null

# `make dist`: fslab-VERSION.tar.gz of the tracked files, its VERSION
# file holding the full version (scripts/version.sh falls back to it
# where there is no git), which builds where it is unpacked.
DIST_VERSION = $(VERSION_STR)
DIST_NAME = fslab-$(DIST_VERSION)

dist:
	@rm -rf $(BUILD)/dist && mkdir -p $(BUILD)/dist/$(DIST_NAME)
	git ls-files -z | xargs -0 cp --parents -t $(BUILD)/dist/$(DIST_NAME)
	echo '$(DIST_VERSION)' >$(BUILD)/dist/$(DIST_NAME)/VERSION
	tar -C $(BUILD)/dist -czf $(DIST_NAME).tar.gz --owner=0 --group=0 \
		--sort=name $(DIST_NAME)
	@echo "wrote $(DIST_NAME).tar.gz"

.PHONY: man completion install uninstall dist

.PHONY: all deps unit asan check run clean fslab no-mpi
-include $(OBJS:.o=.d) $(MPI_SRCS:%.c=$(BUILD)/no-mpi/%.d)
