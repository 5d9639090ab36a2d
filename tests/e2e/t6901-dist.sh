#!/bin/sh
# t6901-dist.sh - make dist: the source tarball of HEAD and its SHA256SUMS,
# the same bytes from two runs (a release can be rebuilt and checked), and
# .commit filled in, so a build from the tarball names its commit.
. "$TEST_TOP/tests/lib.sh"
cd "$SCRATCH" || exit 1

VERSION=$(cat "$TEST_TOP/VERSION")
NAME=gpusite-$VERSION

if ! git -C "$TEST_TOP" rev-parse --verify -q HEAD >/dev/null 2>&1; then
	test_skip 'make dist' "the tree is not a git checkout (make dist archives HEAD)"
	test_done
	exit 0
fi

test_expect_success 'make dist: the tarball and SHA256SUMS, which checks' '
	make -s -C "$TEST_TOP" O="$SCRATCH/a" dist >a.out 2>a.err &&
	test -s "a/dist/$NAME.tar.gz" &&
	(cd a/dist && sha256sum -c SHA256SUMS) &&
	test "$(wc -l <a/dist/SHA256SUMS)" -eq 1
'

test_expect_success 'two runs, another time and umask: the same bytes' '
	sleep 1 &&
	(umask 077 && TZ=Asia/Seoul make -s -C "$TEST_TOP" O="$SCRATCH/b" dist >b.out 2>b.err) &&
	cmp "a/dist/$NAME.tar.gz" "b/dist/$NAME.tar.gz" &&
	cmp a/dist/SHA256SUMS b/dist/SHA256SUMS
'

test_expect_success 'the tarball: every file git tracks at HEAD under one directory, owned by root; gzip without name or time' '
	tar -tzf "a/dist/$NAME.tar.gz" | sed "s|^$NAME/||" | grep -v "/\$" | grep . | sort >listed &&
	git -C "$TEST_TOP" ls-tree -r --name-only HEAD | sort >tracked &&
	test_cmp tracked listed &&
	tar -tvzf "a/dist/$NAME.tar.gz" | awk "{ print \$2 }" | sort -u >owners &&
	echo root/root >expect && test_cmp expect owners &&
	od -An -tx1 -N8 "a/dist/$NAME.tar.gz" | tr -d " \n" >gzhead && echo >>gzhead &&
	echo 1f8b080000000000 >expect && test_cmp expect gzhead
'

test_expect_success 'the tarball.s .commit is the commit, and mk/commit.sh reads it' '
	tar -xzf "a/dist/$NAME.tar.gz" &&
	git -C "$TEST_TOP" rev-parse HEAD >expect &&
	test_cmp expect "$NAME/.commit" &&
	(cd "$NAME" && sh mk/commit.sh) >actual &&
	git -C "$TEST_TOP" rev-parse --short=12 HEAD >expect &&
	test_cmp expect actual
'

test_done
