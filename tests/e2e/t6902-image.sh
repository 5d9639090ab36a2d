#!/bin/sh
# t6902-image.sh - make image: the Argo CD plugin sidecar as an OCI image
# built without docker or a registry.  Two builds from the same sources
# and SOURCE_DATE_EPOCH give the same manifest digest; the image runs as
# user 999 in /home/argocd, holds no compiler and no apt lists or caches;
# unpacked (umoci), `gpusite generate` runs in it as argocd-cmp-server
# runs it (uid 999, its environment) and prints what the build tree's
# binary prints.  Skips visibly when debootstrap cannot reach the archive.
. "$TEST_TOP/tests/lib.sh"
cd "$SCRATCH" || exit 1

INCLUDE=
DEBROOT_TOOLS="umoci"
. "$TEST_TOP/tests/tools/debroot.sh"
TARBALL=$CACHE/$SUITE-minbase-image.tgz
WORK=$odir/t6902

trap 'rm -rf "$WORK" "$SCRATCH"' EXIT

why=$(debroot_why) || { echo "debroot_why failed" >&2; exit 1; }
if [ -n "$why" ]; then
	test_skip 'make image' "$why"
	test_done
	exit 0
fi
rm -rf "$WORK" && mkdir -p "$WORK"

test_expect_success 'make image twice, the same sources and SOURCE_DATE_EPOCH: the same digest' '
	DEB_BUILD_OPTIONS=nocheck make -s -C "$TEST_TOP" O="$WORK/o" deb >deb.out 2>&1 ||
		{ tail -40 deb.out; exit 1; } &&
	deb=$(ls "$WORK"/o/deb/gpusite_"$VERSION"_*.deb) &&
	for n in 1 2; do
		make -s -C "$TEST_TOP" O="$WORK/$n" IMAGE_DEB="$deb" IMAGE_CACHE="$CACHE" \
			image >image$n.out 2>&1 || { tail -20 image$n.out; return 1; }
	done &&
	grep -E "^sha256:[0-9a-f]{64}$" "$WORK/1/image/DIGEST" &&
	test_cmp "$WORK/1/image/DIGEST" "$WORK/2/image/DIGEST"
'

test_expect_success 'the configuration: user 999, HOME and workdir /home/argocd, created SOURCE_DATE_EPOCH' '
	umoci stat --image "$WORK/1/image/oci:$VERSION" --json >stat.json &&
	cfg=$(python3 -c "import json, sys
idx = json.load(open(sys.argv[1] + \"/index.json\"))
m = json.load(open(sys.argv[1] + \"/blobs/\" + idx[\"manifests\"][0][\"digest\"].replace(\":\", \"/\")))
print(sys.argv[1] + \"/blobs/\" + m[\"config\"][\"digest\"].replace(\":\", \"/\"))" "$WORK/1/image/oci") &&
	python3 -c "import json, sys
c = json.load(open(sys.argv[1]))
assert c[\"config\"][\"User\"] == \"999:999\", c
assert c[\"config\"][\"WorkingDir\"] == \"/home/argocd\", c
assert \"HOME=/home/argocd\" in c[\"config\"][\"Env\"], c
assert c[\"created\"] == sys.argv[2], c" "$cfg" \
		"$(date -u -d "@$(dpkg-parsechangelog -l "$TEST_TOP/debian/changelog" -S Timestamp)" +%Y-%m-%dT%H:%M:%SZ)"
'

test_expect_success 'unpacked: the package, user 999 with its home, no compiler, no apt caches' '
	umoci unpack --image "$WORK/1/image/oci:$VERSION" "$WORK/bundle" >/dev/null &&
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
