# libFuzzer targets (clang + libclang-rt-14-dev), built in their own
# directory with AddressSanitizer, UndefinedBehaviorSanitizer and
# ARENA_DEBUG (every arena allocation its own block, so ASan sees overruns).
#   make fuzz [FUZZ_SECONDS=60]  run each target 60 s (the default); new inputs go to
#                                $(FUZZ_O)/corpus/<target> (not checked in)
#   make fuzz-regress            replay seeds + fuzz/corpus/<target>, then a
#                                short fresh run of each (FUZZ_SHORT=10); TAP
# A crash, leak or timeout leaves its input in $(FUZZ_O)/artifacts/; once
# fixed, copy it to fuzz/corpus/<target>/ as a regression input.
FUZZ_O       ?= build-fuzz
FUZZ_SECONDS ?= 60
FUZZ_CC      ?= clang
FUZZ_FLAGS   := -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined -O1 -g
FUZZ_SRC     := $(sort $(wildcard fuzz/fuzz_*.c))
FUZZ_BIN     := $(patsubst fuzz/%.c,$(FUZZ_O)/fuzz/%,$(FUZZ_SRC))

.PHONY: fuzz fuzz-build fuzz-regress
fuzz-build:
	@command -v $(FUZZ_CC) >/dev/null || { echo "fuzz: $(FUZZ_CC) not found (make deps)" >&2; exit 2; }
	@$(MAKE) --no-print-directory O=$(FUZZ_O) CC=$(FUZZ_CC) WERROR=0 ARENA_DEBUG=1 \
		CFLAGS="$(FUZZ_FLAGS)" $(FUZZ_BIN)

$(FUZZ_O)/fuzz/%: fuzz/%.c $(FUZZ_O)/libgpusite.a
	@mkdir -p $(@D)
	$(FUZZ_CC) -std=c11 -D_POSIX_C_SOURCE=200809L -D_XOPEN_SOURCE=700 -D_DEFAULT_SOURCE -Isrc -include base/compat.h \
		-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
		-O1 -g -o $@ $< $(FUZZ_O)/libgpusite.a $(LDLIBS_ALL)

fuzz: fuzz-build
	@mkdir -p $(FUZZ_O)/artifacts
	@for t in $(FUZZ_BIN); do n=$$(basename $$t); \
		mkdir -p $(FUZZ_O)/corpus/$$n $(FUZZ_O)/seeds/$$n fuzz/corpus/$$n; \
		i=0; for f in $$(sh fuzz/seeds.sh $$n); do i=$$((i + 1)); \
			cp "$$f" $(FUZZ_O)/seeds/$$n/$$i; done; \
		echo "fuzz: $$n for $(FUZZ_SECONDS)s"; \
		$$t -max_total_time=$(FUZZ_SECONDS) -max_len=65536 -timeout=10 \
			-rss_limit_mb=2048 -malloc_limit_mb=2048 -print_final_stats=1 \
			-artifact_prefix=$(FUZZ_O)/artifacts/$$n- \
			$(FUZZ_O)/corpus/$$n $(FUZZ_O)/seeds/$$n fuzz/corpus/$$n || exit 1; done

fuzz-regress: fuzz-build
	@sh fuzz/regress.sh $(FUZZ_O)
