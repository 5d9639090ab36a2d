#!/bin/sh
# t6501: libgit2 is loaded only by the commands that read Git
# (src/source/source_git2.c), so a machine without it still validates and
# renders the work tree, and a command that reads Git says in one line
# what is missing and how to install it (exit 3).  The dynamic loader is
# pointed (LD_LIBRARY_PATH, searched before the system's cache) at a
# library of libgit2's soname that is not libgit2, then at one whose own
# dependency is missing: the two ways the real library can be unusable.
. "$TEST_TOP/tests/lib.sh"
. "$TEST_TOP/tests/tools/git.sh"
cd "$SCRATCH" || exit 1

bin=${GPUSITE_BINARY:-$GPUSITE}	# make valgrind: $GPUSITE is a wrapper
CC=${CC:-cc}
SONAME=$(sed -n 's/^#define LIBGIT2_SOVERSION *"\(.*\)"/libgit2.so.\1/p' \
	"$(pkg-config --variable=includedir libgit2)/git2/version.h")
INSTALL="install libgit2 ${SONAME#libgit2.so.} (Debian: libgit2-${SONAME#libgit2.so.}) to read specs from Git"

# A repository with one valid site, committed and staged.
git init -q repo && (
	cd repo && mkdir sites &&
	cp "$GIT_FIXTURES/sites/frankfurt-lab.yaml" sites/ && git_commit one
) >/dev/null

# fake/: a shared object named like libgit2 without its functions;
# broken/: one that needs a library nobody has.
echo 'int gpusite_not_libgit2;' >fake.c
mkdir fake broken dep
built=false
"$CC" -shared -fPIC -o "fake/$SONAME" fake.c &&
	"$CC" -shared -fPIC -Wl,-soname,libgpusite-absent.so.0 -o dep/libgpusite-absent.so.0 fake.c &&
	"$CC" -shared -fPIC -Wl,--no-as-needed -o "broken/$SONAME" fake.c dep/libgpusite-absent.so.0 &&
	rm dep/libgpusite-absent.so.0 && built=true

# without DIR CMD...: run CMD with the libgit2 of DIR, stderr in err.
without() {
	dir=$1; shift
	LD_LIBRARY_PATH="$SCRATCH/$dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$@" 2>"$SCRATCH/err"
}

# one_line MESSAGE: err is exactly that one error line.
one_line() {
	printf 'gpusite: error: %s [GS007]\n' "$1" >"$SCRATCH/want" &&
	test_cmp "$SCRATCH/want" "$SCRATCH/err"
}

LACKS="the $SONAME found lacks a function gpusite calls: $INSTALL"
MISSING="$SONAME cannot be loaded (libgpusite-absent.so.0: cannot open shared object file: No such file or directory): $INSTALL"

if ! $built; then
	test_skip 'a Git-reading command without libgit2 fails in one line' "no C compiler ($CC)"
else
	test_expect_success 'the soname loaded is the one of the headers' '
		test -n "$SONAME" &&
		(cd repo && LD_DEBUG=libs "$bin" validate -q --ref HEAD 2>"$SCRATCH/ld") &&
		grep -q "find library=$SONAME " "$SCRATCH/ld" &&
		grep -q "calling init: .*/$SONAME\$" "$SCRATCH/ld"
	'

	test_expect_success 'the work tree is read without libgit2' '
		cd repo &&
		without fake "$bin" validate -q sites &&
		test ! -s "$SCRATCH/err" &&
		without fake "$bin" render sites >"$SCRATCH/out" &&
		grep -q "^kind: NodePool" "$SCRATCH/out"
	'

	test_expect_success '--ref without libgit2: exit 3, one line' '
		cd repo &&
		expect_exit 3 without fake "$bin" validate --ref HEAD &&
		one_line "$LACKS"
	'

	test_expect_success '--repo, --staged, diff --base without libgit2: exit 3, one line' '
		expect_exit 3 without fake "$bin" render --repo repo >"$SCRATCH/out" &&
		test ! -s "$SCRATCH/out" && one_line "$LACKS" &&
		cd repo &&
		expect_exit 3 without fake "$bin" validate --staged &&
		one_line "$LACKS" &&
		expect_exit 3 without fake "$bin" diff --base HEAD >"$SCRATCH/out" &&
		test ! -s "$SCRATCH/out" && one_line "$LACKS"
	'

	test_expect_success 'a dependency of libgit2 missing: named, exit 3, one line' '
		cd repo &&
		expect_exit 3 without broken "$bin" validate --ref HEAD &&
		one_line "$MISSING"
	'

	test_expect_success '--version names the library it could not load' '
		without fake "$bin" --version >"$SCRATCH/v" &&
		grep -qx "libgit2 (not found: $SONAME)" "$SCRATCH/v"
	'
fi

test_done
