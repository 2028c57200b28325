# mmtop — see README.md. `make` builds the BPF objects and skeletons and
# links ./mmtop; it installs nothing (a missing build dependency is named,
# and `make deps` installs it). `make run`, `make test` and `make bench`
# install what is missing first (scripts/deps.sh), then build.

CLANG    ?= clang
BPFTOOL  ?= $(shell command -v bpftool 2>/dev/null || echo /usr/sbin/bpftool)

# The target architecture, as the kernel names it (x86, arm64): the
# host's, or another's with ARCH=arm64 or CROSS_COMPILE=aarch64-linux-gnu-.
# A cross build goes to build/ARCH/ (its binary build/ARCH/mmtop), with a
# vmlinux.h from the BTF in Debian's kernel package for ARCH (the kernel
# the matrix boots), unless BTF names another file (a target machine's
# /sys/kernel/btf/vmlinux, copied).
arch_of   = $(shell echo '$(1)' | sed -e 's/^x86_64.*/x86/' -e 's/^aarch64.*/arm64/')
HOST_ARCH := $(call arch_of,$(shell uname -m))
ifneq ($(CROSS_COMPILE),)
ARCH     ?= $(call arch_of,$(CROSS_COMPILE))
endif
ARCH     ?= $(HOST_ARCH)
override ARCH := $(call arch_of,$(ARCH))
ifeq ($(ARCH),$(HOST_ARCH))
OUT      := build
BIN      := mmtop
CC       ?= cc
BTF      ?= /sys/kernel/btf/vmlinux
else
OUT      := build/$(ARCH)
BIN      := $(OUT)/mmtop
DEB_ARCH := $(subst x86,amd64,$(ARCH))
CROSS_COMPILE ?= $(subst arm64,aarch64,$(subst x86,x86_64,$(ARCH)))-linux-gnu-
CC       := $(CROSS_COMPILE)gcc
BTF      ?= $(OUT)/vmlinux.btf
CROSS_DEPS := --cross $(ARCH)
endif
# The target's kernel headers, for the syscall numbers the BPF side names.
BPF_SYSINC := -idirafter /usr/include/$(shell $(CC) -print-multiarch)
# The version, in one place: the package's changelog (debian/).
VERSION  := $(shell sed -n '1s/^[^(]*(\([^)]*\)).*/\1/p' debian/changelog)
PREFIX   ?= /usr/local
SBINDIR  ?= $(PREFIX)/sbin
UNITDIR  ?= $(PREFIX)/lib/systemd/system
MANDIR   ?= $(PREFIX)/share/man
COMPDIR  ?= $(PREFIX)/share/bash-completion/completions

WARN     := -Wall -Wextra -Werror
CFLAGS   ?= -O2 -g
CFLAGS   += $(WARN) -std=gnu11 -D_GNU_SOURCE -DMMTOP_VERSION='"$(VERSION)"'
# The row tables (src/model/row_types.c) reach each typed row array of a
# snapshot through one untyped view (struct row_array), as the kernel's
# own code reaches memory through several types: no type-based aliasing.
CFLAGS   += -fno-strict-aliasing
LDLIBS   := -lbpf -lelf -lz -lnuma -lncursesw -ltinfo -lmicrohttpd -lpthread -lm
ifeq ($(SANITIZE),1)
CFLAGS   += -fsanitize=address,undefined -fno-omit-frame-pointer
LDFLAGS  += -fsanitize=address,undefined
endif

# Each folder sees the headers of its own layer and of the layers below it
# (README: Layout). A fence folder holds headers that stop the build with
# an error: the model, the sinks and the viewer cannot include libbpf, the
# collector and the files cannot include curses. src/modes/ and main.c wire
# the layers together and see them all.
FENCE_BPF   := -Isrc/fence/no-libbpf
FENCE_CURS  := -Isrc/fence/no-curses
INC_common  := -Isrc/common
INC_model   := $(INC_common) -Isrc/model
INC_collect := $(INC_model) -Isrc/collect -Isrc/collect/faults -Isrc/collect/locks \
	       -Isrc/collect/pcp -I$(OUT) -Ibpf
INC_output  := $(INC_model) -Isrc/output
INC_record  := $(INC_model) -Isrc/record
INC_ui      := $(INC_model) -Iui
INC_bench   := $(INC_record) -Isrc/bench
INC_all     := $(INC_collect) -Isrc/output -Isrc/record -Isrc/bench -Isrc/modes -Iui

BPF_SRCS := $(wildcard bpf/*.bpf.c)
SKELS    := $(patsubst bpf/%.bpf.c,$(OUT)/%.skel.h,$(BPF_SRCS))
SRCS     := $(wildcard src/*.c src/*/*.c src/*/*/*.c ui/*.c)
OBJS     := $(patsubst %.c,$(OUT)/%.o,$(SRCS))
LIB_OBJS := $(filter-out $(OUT)/src/main.o,$(OBJS))
UNIT_SRC := $(wildcard tests/unit/test_*.c)
UNITS    := $(patsubst tests/unit/%.c,$(OUT)/tests/%,$(UNIT_SRC))
TOOLS    := $(patsubst tests/tools/%.c,$(OUT)/tests/tools/%,$(wildcard tests/tools/*.c))

.PHONY: all objects deps run test bench fuzz install uninstall clean
.DELETE_ON_ERROR:
# Generated skeletons and BPF objects are kept: they are slow to rebuild.
.SECONDARY:

all: $(BIN)

deps:
	@$(strip sh scripts/deps.sh $(CROSS_DEPS))

$(OUT):
	@mkdir -p $(OUT)

$(OUT)/vmlinux.btf: | $(OUT)
	sh scripts/kernel-btf.sh "$$(sh scripts/debian-pkg.sh linux-image-cloud-$(DEB_ARCH):$(DEB_ARCH))"/boot/vmlinuz-* $@

$(OUT)/vmlinux.h: $(filter $(OUT)/%,$(BTF)) | $(OUT)
	@$(strip sh scripts/deps.sh --check $(CROSS_DEPS))
	@test -r $(BTF) || { echo "mmtop: $(BTF) not found: the kernel must be built with CONFIG_DEBUG_INFO_BTF=y" >&2; exit 1; }
	$(BPFTOOL) btf dump file $(BTF) format c > $@

$(OUT)/%.bpf.o: bpf/%.bpf.c $(OUT)/vmlinux.h
	$(CLANG) -g -O2 -target bpf -D__TARGET_ARCH_$(ARCH) $(WARN) \
		-Wno-unused-parameter -I$(OUT) -Ibpf $(BPF_SYSINC) -MMD -MP -c $< -o $@

$(OUT)/%.skel.h: $(OUT)/%.bpf.o
	$(BPFTOOL) gen skeleton $< name $*_bpf > $@

$(OUT)/src/common/%.o:  INC := $(INC_common) $(FENCE_BPF) $(FENCE_CURS)
$(OUT)/src/model/%.o:   INC := $(INC_model) $(FENCE_BPF) $(FENCE_CURS)
$(OUT)/src/collect/%.o: INC := $(INC_collect) $(FENCE_CURS)
$(OUT)/src/output/%.o:  INC := $(INC_output) $(FENCE_BPF) $(FENCE_CURS)
$(OUT)/src/record/%.o:  INC := $(INC_record) $(FENCE_BPF) $(FENCE_CURS)
$(OUT)/src/bench/%.o:   INC := $(INC_bench) $(FENCE_BPF) $(FENCE_CURS)
$(OUT)/src/modes/%.o:   INC := $(INC_all)
$(OUT)/src/main.o:      INC := $(INC_all)
$(OUT)/ui/%.o:          INC := $(INC_ui) $(FENCE_BPF)

# -MMD -MP: each object depends on the headers it includes (build/**/*.d),
# skeletons too. The collector's skeletons must exist before its first
# compile; nothing else includes them.
$(OUT)/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(INC) -MMD -MP -c $< -o $@

$(filter $(OUT)/src/collect/%,$(OBJS)): | $(SKELS)

-include $(OBJS:.o=.d) $(SKELS:.skel.h=.bpf.d)

objects: $(OBJS)

$(BIN): $(OBJS)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(OUT)/tests/%: tests/unit/%.c tests/unit/unit.h $(LIB_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(INC_all) -Itests/unit $(LDFLAGS) -o $@ $< $(LIB_OBJS) $(LDLIBS)

# Helpers of the tests and the bench (tests/tools), built as the unit tests.
$(OUT)/tests/tools/%: tests/tools/%.c $(LIB_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(INC_all) $(LDFLAGS) -o $@ $< $(LIB_OBJS) $(LDLIBS)

run: deps
	@$(MAKE) --no-print-directory mmtop
	./mmtop

test: deps
	@$(MAKE) --no-print-directory $(BIN) $(UNITS) $(TOOLS) $(FUZZERS)
	@SANITIZE=$(SANITIZE) sh tests/run.sh

bench: deps
	@$(MAKE) --no-print-directory mmtop $(OUT)/tests/floor $(TOOLS)
	@sh tests/bench.sh

# make bench's floor: empty programs on mmtop's hooks (bpf/floor.bpf.c).
$(OUT)/tests/floor: tests/bench/floor.c $(OUT)/floor.skel.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -I$(OUT) -o $@ $< -lbpf -lelf -lz

# libFuzzer targets with ASan and UBSan (tests/fuzz/fuzz_*.c): the
# recording reader from real recordings (tests/fuzz/corpus), and the
# snapshot parser past the frame CRC from real payloads
# (tests/fuzz/corpus-snapshot). make test builds them and runs each for a
# short time (tests/integration/fuzz.sh); make fuzz runs each for
# FUZZ_SECONDS, new inputs going to build/corpus*.
FUZZ_SECONDS ?= 60
FUZZERS  := $(patsubst tests/fuzz/%.c,$(OUT)/fuzz/%,$(wildcard tests/fuzz/fuzz_*.c))
FUZZ_LIB := src/record/reader.c src/record/recfile.c src/record/crc32.c \
	    src/model/snapshot.c src/model/row_fields.c src/model/row_types.c src/common/util.c
FUZZ_CC  := $(CLANG) -g -O1 -fno-strict-aliasing -fsanitize=fuzzer,address,undefined \
	    -D_GNU_SOURCE $(INC_record)
$(OUT)/fuzz/%: tests/fuzz/%.c $(FUZZ_LIB) $(wildcard src/record/*.h src/model/*.h)
	@mkdir -p $(@D)
	$(FUZZ_CC) $< $(FUZZ_LIB) -lz -lm -o $@
fuzz: deps $(FUZZERS)
	@FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_KEEP=$(OUT) sh tests/fuzz/run.sh

# What install puts in place; uninstall removes exactly these.
# The man pages, each in its section's directory (man/mmtop.8 -> man8).
MANPAGES := $(wildcard man/*.[578])
man_dest = $(MANDIR)/man$(subst .,,$(suffix $(1)))/$(notdir $(1)).gz
INSTALLED := $(SBINDIR)/mmtop $(foreach p,$(MANPAGES),$(call man_dest,$(p))) $(COMPDIR)/mmtop \
	     $(UNITDIR)/mmtop-serve.service $(UNITDIR)/mmtop-record.service

install: $(BIN)
	install -D -m 0755 $(BIN) $(DESTDIR)$(SBINDIR)/mmtop
	install -d $(DESTDIR)$(COMPDIR) $(DESTDIR)$(UNITDIR)
	$(foreach p,$(MANPAGES),install -d $(dir $(DESTDIR)$(call man_dest,$(p))) && \
		sed '/^\.TH /s/"mmtop"/"mmtop $(VERSION)"/' $(p) | gzip -9n \
		>$(DESTDIR)$(call man_dest,$(p)) && chmod 0644 $(DESTDIR)$(call man_dest,$(p)) &&) true
	install -m 0644 scripts/mmtop.bash-completion $(DESTDIR)$(COMPDIR)/mmtop
	for u in mmtop-serve mmtop-record; do \
		sed 's|@SBINDIR@|$(SBINDIR)|g' scripts/$$u.service.in >$(DESTDIR)$(UNITDIR)/$$u.service && \
		chmod 0644 $(DESTDIR)$(UNITDIR)/$$u.service || exit 1; \
	done

uninstall:
	rm -f $(addprefix $(DESTDIR),$(INSTALLED))

clean:
	rm -rf $(OUT) $(BIN)
