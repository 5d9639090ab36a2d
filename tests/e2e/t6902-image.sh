#!/bin/sh
# t6902-image.sh - make image: the Argo CD plugin sidecar as an OCI image
# built without docker or a registry.  `make image` runs exactly as the
# README writes it, at the top of a copy of the checkout (the default,
# relative O=build; the cached base tarball and its checksum in the
# default, relative build/e2e-cache: a copy of the base the package test
# shares), once per test run (debroot_image, tests/tools/debroot.sh: the
# package test takes the package it builds), and again here with every
# path relative (O, IMAGE_DEB, IMAGE_CACHE): a second build from scratch,
# the same sources and SOURCE_DATE_EPOCH give the same manifest digest.
# The image runs as user 999 in /home/argocd,
# holds no compiler and no apt lists or caches; unpacked (umoci),
# `gpusite generate` runs in it as argocd-cmp-server runs it (uid 999, its
# environment) and prints what the build tree's binary prints.  Skips
# visibly when debootstrap cannot reach the archive.
. "$TEST_TOP/tests/lib.sh"
cd "$SCRATCH" || exit 1

. "$TEST_TOP/tests/tools/debroot.sh"
WORK=$odir/t6902
# the README's build: this run's, shared with the package test (a script
# run alone has its own)
[ -n "$DEBROOT_RUN" ] || DEBROOT_RUN=$WORK/run
README=$DEBROOT_RUN/readme
TREE=$README/tree

trap 'rm -rf "$WORK" "$SCRATCH"' EXIT

why=$(debroot_why) || { echo "debroot_why failed" >&2; exit 1; }
if [ -z "$why" ]; then
	rm -rf "$WORK" && mkdir -p "$WORK" &&
		why=$(debroot_image) || { echo "debroot_image failed" >&2; exit 1; }
fi
if [ -n "$why" ]; then
	test_skip 'make image' "$why"
	test_done
	exit 0
fi

test_expect_success 'make image as the README writes it: relative O=build, the cached base in build/e2e-cache' '
	test "$(cat "$README/cmd")" = "make image" &&
	{ test "$(cat "$README/rc")" = 0 || { tail -40 "$README/make.out"; exit 1; }; } &&
	! grep "must be given an absolute path" "$README/make.out" &&
	grep -E "^sha256:[0-9a-f]{64}$" "$TREE/build/image/DIGEST"
'

test_expect_success 'again, O, IMAGE_DEB and IMAGE_CACHE relative: the same digest' '
	debroot_cache_in "$TREE/cache2" &&
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
