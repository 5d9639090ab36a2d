# libFuzzer targets (clang + libclang-rt-14-dev).
#   make fuzz [FUZZ_SECONDS=60]   run every target for a while, corpus kept in fuzz/corpus/<target>
#   make fuzz-regress             run every target over its corpus once (CI does this)
FUZZ_O       ?= build-fuzz
FUZZ_SECONDS ?= 30
FUZZ_FLAGS   := -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined -O1 -g
FUZZ_SRC     := $(sort $(wildcard fuzz/fuzz_*.c))
FUZZ_BIN     := $(patsubst fuzz/%.c,$(FUZZ_O)/fuzz/%,$(FUZZ_SRC))

.PHONY: fuzz fuzz-build fuzz-regress
fuzz-build:
	@$(MAKE) --no-print-directory O=$(FUZZ_O) CC=clang WERROR=0 \
		CFLAGS="$(FUZZ_FLAGS)" $(FUZZ_O)/libgpusite.a
	@$(MAKE) --no-print-directory O=$(FUZZ_O) CC=clang $(FUZZ_BIN)

$(FUZZ_O)/fuzz/%: fuzz/%.c $(FUZZ_O)/libgpusite.a
	@mkdir -p $(@D)
	clang -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -Isrc \
		-fsanitize=fuzzer,address,undefined -O1 -g -o $@ $< \
		$(FUZZ_O)/libgpusite.a $(LDLIBS_ALL)

fuzz: fuzz-build
	@for t in $(FUZZ_BIN); do n=$$(basename $$t); mkdir -p fuzz/corpus/$$n; \
		echo "fuzz: $$n for $(FUZZ_SECONDS)s"; \
		$$t -max_total_time=$(FUZZ_SECONDS) -max_len=65536 -timeout=10 \
			-rss_limit_mb=2048 fuzz/corpus/$$n fuzz/seeds/$$n || exit 1; done

fuzz-regress: fuzz-build
	@sh fuzz/regress.sh $(FUZZ_O)
