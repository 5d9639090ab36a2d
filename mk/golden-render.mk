# golden-render.mk - `make golden-update-render` rewrites the expected
# output of the render golden cases (testdata/render/*/expected/) from the
# current binary, so a change of output shows up in review as a diff.
.PHONY: golden-update-render
golden-update-render: all
	@GOLDEN_UPDATE=1 O=$(O) TEST_TOP=$(CURDIR) GPUSITE=$(CURDIR)/$(O)/gpusite \
		sh tests/golden/t2000-render.sh >/dev/null || true
	@O=$(O) TEST_TOP=$(CURDIR) GPUSITE=$(CURDIR)/$(O)/gpusite \
		sh tests/golden/t2000-render.sh | grep -v '^ok' || true
	@git status --short testdata/render

golden-update: golden-update-render
