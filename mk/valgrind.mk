# make valgrind: the script tests (tests/golden, tests/e2e) with every run
# of gpusite under valgrind's memcheck.  $(VG_O)/gpusite is a wrapper that
# runs the optimised build of $(O) under
#   valgrind --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite
# writing each process's report to $(VG_O)/test-logs/valgrind.<pid> (so the
# tests still see gpusite's own stderr byte for byte); a report makes that
# run exit 99 and tests/e2e/t6999-sanitizer-logs.sh fail with the report.
# GPUSITE_BINARY names the real binary for tests that inspect the ELF file.
# Not part of `make test`: it takes about 20 minutes (CONTRIBUTING.md).
VG_O ?= $(O)-valgrind

.PHONY: valgrind valgrind-setup
valgrind: valgrind-setup
	@GPUSITE_VALGRIND=1 GPUSITE_BINARY=$(abspath $(BIN)) O=$(VG_O) sh tests/run.sh scripts

# the wrapper alone, to run one script under it:
#   make valgrind-setup && GPUSITE_VALGRIND=1 O=build-valgrind sh tests/e2e/t2020-render-cli.sh
valgrind-setup: all
	@command -v valgrind >/dev/null || { echo "valgrind: not installed (make deps)" >&2; exit 2; }
	@mkdir -p $(VG_O)
	@{ echo '#!/bin/sh'; \
	   echo '# gpusite under memcheck (mk/valgrind.mk).  With standard output'; \
	   echo '# or error closed, valgrind would open its log on that descriptor'; \
	   echo '# and gpusite would write into the log: those runs go native.'; \
	   echo 'if ! true 2>/dev/null 3>&1 || ! true 3>&2; then exec $(abspath $(BIN)) "$$@"; fi'; \
	   echo '# valgrind keeps scratch files in TMPDIR (gpusite never reads it):'; \
	   echo '# its own, so a run still writes nothing where it works (t4001)'; \
	   echo 'TMPDIR=$(abspath $(VG_O))/tmp; export TMPDIR'; \
	   echo 'exec valgrind -q --error-exitcode=99 --leak-check=full --vgdb=no \'; \
	   echo '	--errors-for-leak-kinds=definite --show-leak-kinds=definite \'; \
	   echo '	--suppressions=$(abspath mk/valgrind.supp) \'; \
	   echo '	--log-file=$(abspath $(VG_O))/test-logs/valgrind.%p \'; \
	   echo '	$(abspath $(BIN)) "$$@"'; } >$(VG_O)/gpusite.tmp
	@chmod +x $(VG_O)/gpusite.tmp && mv $(VG_O)/gpusite.tmp $(VG_O)/gpusite
	@# the test tools of the build (schema-check) are used as they are
	@rm -rf $(VG_O)/tests && ln -s $(abspath $(O))/tests $(VG_O)/tests
	@mkdir -p $(VG_O)/test-logs $(VG_O)/tmp
