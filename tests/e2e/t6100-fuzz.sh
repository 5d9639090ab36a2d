#!/bin/sh
# t6100: the fuzz targets (fuzz/) replay their seeds and kept regression
# inputs and survive a short fresh run each (FUZZ_SHORT seconds, default
# 3 here: a smoke test of each target, as every second of it is a second
# of a core; `make fuzz-regress` defaults to 10 and `make fuzz` is the
# long run), built with clang, libFuzzer, AddressSanitizer and
# UndefinedBehaviorSanitizer in their own directory ($O-fuzz:
# build-asan-fuzz in the sanitizer pass).  It runs in the sanitizer pass
# (make asan), not in the plain make test, which skips it visibly.  Every
# step of `make fuzz-regress` is a test here.
. "$TEST_TOP/tests/lib.sh"

if [ -z "${GPUSITE_SANITIZE:-}" ]; then
	# the targets are ASan+UBSan builds of their own: they belong to the
	# sanitizer pass (make asan, the second step of .ci/run), once a CI run
	test_skip "fuzz targets replay and survive a short run" \
		"run by the sanitizer pass (make asan) and make fuzz-regress: the targets are sanitizer builds"
	test_done
	exit
fi
if ! command -v clang >/dev/null 2>&1; then
	test_skip "fuzz targets replay and survive a short run" "clang not found (make deps)"
	test_done
	exit
fi
if ! ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1 &&
   ! ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-*.a >/dev/null 2>&1; then
	test_skip "fuzz targets replay and survive a short run" "libFuzzer runtime not found (libclang-rt-14-dev, make deps)"
	test_done
	exit
fi

fo="$O-fuzz"
[ "$O" = build ] && fo=build-fuzz
# a make of its own: nothing of the calling make (O, SANITIZE, -j's
# jobserver) may leak into the fuzz build
test_expect_success "the fuzz targets build ($fo)" '
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u MAKEOVERRIDES \
		make -C "$TEST_TOP" -j"$(nproc 2>/dev/null || echo 2)" FUZZ_O="$fo" fuzz-build >"$SCRATCH/build.log" 2>&1 ||
	{ tail -30 "$SCRATCH/build.log"; exit 1; }
'

# regress.sh speaks TAP: its lines become this script's tests
cd "$TEST_TOP" || exit 1
FUZZ_SHORT=${FUZZ_SHORT:-3} sh fuzz/regress.sh "$fo" >"$SCRATCH/regress.tap" 2>&1
rc=$?
while IFS= read -r line; do
	case $line in
	"ok "*)
		test_count=$((test_count + 1))
		echo "ok $test_count - ${line#ok * - }"
		;;
	"not ok "*)
		test_count=$((test_count + 1))
		test_failed=$((test_failed + 1))
		echo "not ok $test_count - ${line#not ok * - }"
		;;
	"#"*) echo "$line" ;;
	esac
done <"$SCRATCH/regress.tap"
test_expect_success 'fuzz/regress.sh ran every target and exited 0' '
	test "$rc" -eq 0 &&
	test "$(grep -c "^ok " "$SCRATCH/regress.tap")" -eq $((2 * $(ls fuzz/fuzz_*.c | wc -l)))
'
test_done
