# Sanitizer runs: `make asan` (= make O=build-asan SANITIZE=address,undefined
# ARENA_DEBUG=1 test, the second half of .ci/run).
#
# Every instrumented process the tests start (gpusite, the unit tests, the
# test tools) writes any report to $(O)/test-logs/sanitizer.<pid> instead of
# stderr, and exits 86 - never 1, which a test would take for "findings".
# tests/e2e/t6999-sanitizer-logs.sh, the last script of the suite, fails
# when such a file exists and prints it, so a report in a test that only
# checks "non-zero" is still caught.  tests/run.sh empties test-logs/ at
# the start of a run.
#
# mk/lsan.supp suppresses leaks of third-party code only (documented there).
ifdef SANITIZE
SAN_LOG := $(abspath $(O))/test-logs/sanitizer
SAN_COMMON := log_path=$(SAN_LOG):exitcode=86:print_stacktrace=1
export ASAN_OPTIONS := $(SAN_COMMON):detect_leaks=1:abort_on_error=0:check_initialization_order=1:strict_string_checks=1:detect_stack_use_after_return=1
export UBSAN_OPTIONS := $(SAN_COMMON):halt_on_error=1
export LSAN_OPTIONS := $(SAN_COMMON):suppressions=$(abspath mk/lsan.supp):print_suppressions=0
export GPUSITE_SANITIZE := $(SANITIZE)
endif
