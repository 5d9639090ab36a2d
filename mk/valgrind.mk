# make valgrind: the script tests (tests/golden, tests/e2e) with every run
# of gpusite under valgrind's memcheck.  $(VG_O)/gpusite is a wrapper that
# runs the optimised build of $(O) under
#   valgrind --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite
# writing each process's report to $(VG_O)/test-logs/valgrind.<pid> (so the
# tests still see gpusite's own stderr byte for byte); a report makes that
# run exit 99 and tests/e2e/t6999-sanitizer-logs.sh fail with the report.
# Not part of `make test`: it takes about ten times as long (CONTRIBUTING.md).
VG_O ?= $(O)-valgrind

.PHONY: valgrind
valgrind: all
	@command -v valgrind >/dev/null || { echo "valgrind: not installed (make deps)" >&2; exit 2; }
	@mkdir -p $(VG_O)
	@{ echo '#!/bin/sh'; \
	   echo '# gpusite under memcheck (mk/valgrind.mk)'; \
	   echo 'exec valgrind -q --error-exitcode=99 --leak-check=full \'; \
	   echo '	--errors-for-leak-kinds=definite --show-leak-kinds=definite \'; \
	   echo '	--suppressions=$(abspath mk/valgrind.supp) \'; \
	   echo '	--log-file=$(abspath $(VG_O))/test-logs/valgrind.%p \'; \
	   echo '	$(abspath $(BIN)) "$$@"'; } >$(VG_O)/gpusite.tmp
	@chmod +x $(VG_O)/gpusite.tmp && mv $(VG_O)/gpusite.tmp $(VG_O)/gpusite
	@# the test tools of the build (schema-check) are used as they are
	@rm -rf $(VG_O)/tests && ln -s $(abspath $(O))/tests $(VG_O)/tests
	@GPUSITE_VALGRIND=1 O=$(VG_O) sh tests/run.sh scripts
