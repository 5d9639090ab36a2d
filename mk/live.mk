# live.mk - the live-cluster parts: `make golden-update-live` rewrites the
# expected drift / diff --live output of testdata/live/*/expected/ from the
# current binary (review it with git diff); `make bench-live` runs
# bench/live.sh (drift on 5,000 nodes against kubectl).
.PHONY: golden-update-live bench-live
golden-update-live: all
	@for t in tests/e2e/t5010-live-drift.sh tests/e2e/t5020-live-diff.sh \
		tests/e2e/t5050-live-large.sh; do \
		GOLDEN_UPDATE=1 O=$(O) TEST_TOP=$(CURDIR) GPUSITE=$(CURDIR)/$(O)/gpusite \
			sh $$t | grep -v '^ok' || true; \
	done
	@git status --short testdata/live

golden-update: golden-update-live

bench-live: all
	@O=$(O) sh bench/live.sh

bench: bench-live
