#!/bin/sh
# t6902-image.sh - make image: the Argo CD plugin sidecar as an OCI image
# built without docker or a registry.  `make image` runs exactly as the
# README writes it, at the top of a copy of the checkout (the default,
# relative O=build; the cached base tarball and its checksum in the
# default, relative build/e2e-cache: a copy of the base the package test
# shares, tests/tools/debroot.sh), and again with every path relative
# (O, IMAGE_DEB, IMAGE_CACHE): the same sources and SOURCE_DATE_EPOCH give
# the same manifest digest.  The image runs as user 999 in /home/argocd,
# holds no compiler and no apt lists or caches; unpacked (umoci),
# `gpusite generate` runs in it as argocd-cmp-server runs it (uid 999, its
# environment) and prints what the build tree's binary prints.  Skips
# visibly when debootstrap cannot reach the archive.
. "$TEST_TOP/tests/lib.sh"
cd "$SCRATCH" || exit 1

DEBROOT_TOOLS="umoci"
. "$TEST_TOP/tests/tools/debroot.sh"
WORK=$odir/t6902
TREE=$WORK/tree

trap 'rm -rf "$WORK" "$SCRATCH"' EXIT

why=$(debroot_why) || { echo "debroot_why failed" >&2; exit 1; }
# the debootstrap base the package test shares, made once under $O
[ -n "$why" ] || why=$(debroot_base) || { echo "debroot_base failed" >&2; exit 1; }
if [ -z "$why" ] && ! git -C "$TEST_TOP" rev-parse --verify -q HEAD >/dev/null 2>&1; then
	why="the tree is not a git checkout (make deb copies the files git knows)"
fi
if [ -n "$why" ]; then
	test_skip 'make image' "$why"
	test_done
	exit 0
fi
rm -rf "$WORK" && mkdir -p "$TREE"

# cache_in DIR: the cached base tarball and its checksum in DIR, as
# make image leaves them
cache_in() {
	mkdir -p "$1" &&
	cp "$TARBALL" "$1/" &&
	(cd "$1" && sha256sum "$(basename "$TARBALL")" >"$(basename "$TARBALL").sha256")
}

# copy_tree DIR: the files of the checkout (those make deb takes) in DIR
copy_tree() {
	(cd "$TEST_TOP" && git ls-files -z --cached --others --exclude-standard |
		xargs -0 sh -c 'for f; do [ -e "$f" ] && printf "%s\0" "$f"; done' sh |
		tar --null -T - -cf -) | tar -xf - -C "$1"
}

test_expect_success 'make image as the README writes it: relative O=build, the cached base in build/e2e-cache' '
	cmd=$(sed -n "s/^\(make image\) *#.*/\1/p" "$TEST_TOP/README.md") &&
	test "$cmd" = "make image" &&
	copy_tree "$TREE" &&
	(cd "$TREE" && git init -q && git add -A && git -c user.name=t -c user.email=t@example.invalid \
		commit -q -m tree) &&
	cache_in "$TREE/build/e2e-cache" &&
	(cd "$TREE" && DEB_BUILD_OPTIONS=nocheck $cmd) >image1.out 2>&1 || { tail -40 image1.out; exit 1; } &&
	! grep "must be given an absolute path" image1.out &&
	grep -E "^sha256:[0-9a-f]{64}$" "$TREE/build/image/DIGEST"
'

test_expect_success 'again, O, IMAGE_DEB and IMAGE_CACHE relative: the same digest' '
	cache_in "$TREE/cache2" &&
	deb=$(cd "$TREE" && ls build/deb/gpusite_"$VERSION"_*.deb) &&
	(cd "$TREE" && make -s O=build2 IMAGE_DEB="$deb" IMAGE_CACHE=cache2 image) >image2.out 2>&1 ||
		{ tail -20 image2.out; exit 1; } &&
	test_cmp "$TREE/build/image/DIGEST" "$TREE/build2/image/DIGEST" &&
	test ! -e "$TREE/cache2/image-work"
'

test_expect_success 'the configuration: user 999, HOME and workdir /home/argocd, created SOURCE_DATE_EPOCH' '
	umoci stat --image "$TREE/build/image/oci:$VERSION" --json >stat.json &&
	cfg=$(python3 -c "import json, sys
idx = json.load(open(sys.argv[1] + \"/index.json\"))
m = json.load(open(sys.argv[1] + \"/blobs/\" + idx[\"manifests\"][0][\"digest\"].replace(\":\", \"/\")))
print(sys.argv[1] + \"/blobs/\" + m[\"config\"][\"digest\"].replace(\":\", \"/\"))" "$TREE/build/image/oci") &&
	python3 -c "import json, sys
c = json.load(open(sys.argv[1]))
assert c[\"config\"][\"User\"] == \"999:999\", c
assert c[\"config\"][\"WorkingDir\"] == \"/home/argocd\", c
assert \"HOME=/home/argocd\" in c[\"config\"][\"Env\"], c
assert c[\"created\"] == sys.argv[2], c" "$cfg" \
		"$(date -u -d "@$(dpkg-parsechangelog -l "$TEST_TOP/debian/changelog" -S Timestamp)" +%Y-%m-%dT%H:%M:%SZ)"
'

test_expect_success 'unpacked: the package, user 999 with its home, no compiler, no apt caches' '
	umoci unpack --image "$TREE/build/image/oci:$VERSION" "$WORK/bundle" >/dev/null &&
	R=$WORK/bundle/rootfs &&
	test -x "$R/usr/bin/gpusite" &&
	grep -q "^Package: gpusite$" "$R/var/lib/dpkg/status" &&
	grep -E "^argocd:x:999:999:.*:/home/argocd:" "$R/etc/passwd" &&
	test "$(stat -c %u "$R/home/argocd")" = 999 &&
	test ! -e "$R/usr/bin/gcc" && test ! -e "$R/usr/bin/cc" &&
	test -z "$(find "$R/var/lib/apt/lists" "$R/var/cache/apt" -type f)" &&
	test -z "$(find "$R/var/log" -type f)" &&
	test ! -e "$R/etc/resolv.conf"
'

test_expect_success 'gpusite generate inside, as argocd-cmp-server runs it (uid 999)' '
	R=$WORK/bundle/rootfs &&
	env -i PATH=/usr/bin:/bin "$CHROOT" --userspec=999:999 "$R" gpusite --version >version &&
	grep -x "gpusite $VERSION" version &&
	! grep "not found" version &&
	mkdir -p "$R/home/argocd/repo" "$R/home/argocd/tmp" &&
	cp -R "$TEST_TOP/testdata/cmp/fleet/." "$R/home/argocd/repo/" &&
	chown -R 999:999 "$R/home/argocd" &&
	cmp_env_in_root "$R" /home/argocd/repo gen.out &&
	test -s gen.out &&
	test_cmp cmp/ref/stdout gen.out
'

test_done
