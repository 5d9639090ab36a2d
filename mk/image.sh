#!/bin/sh
# image.sh DEB OUT CACHE TAG: the Argo CD plugin sidecar image as an OCI
# image layout in OUT/oci (tag TAG), without docker or a registry:
#   - a Debian 12 minbase root from debootstrap (its tarball cached in
#     CACHE), the package DEB installed with apt-get from the distribution
#     (its Recommends too: libcurl, libmicrohttpd, for serve and the live
#     commands);
#   - user and group 999 (argocd), HOME and working directory
#     /home/argocd, as argocd-cmp-server runs the sidecar (runAsUser: 999);
#   - no compiler, no apt lists or caches, no logs, no resolv.conf;
#   - every time stamp SOURCE_DATE_EPOCH (default: debian/changelog's
#     date), so the same sources give the same image digest.
# umoci builds the layer and the configuration; OUT/DIGEST is the manifest
# digest.  Push it with skopeo: skopeo copy oci:OUT/oci:TAG docker://...
# DEB, OUT and CACHE may be relative (make's default O=build): each is made
# absolute before use, since debootstrap takes only absolute tarball paths.
# It runs as root, so nothing is copied into the root through a symbolic
# link (a link as the source, the destination or a directory on the way is
# refused), and the cached base tarball is used only when it matches the
# checksum kept beside it (CACHE/bookworm-minbase-image.tgz.sha256, written
# when the tarball is made).
set -eu
[ $# -eq 4 ] || { echo "usage: image.sh DEB OUT CACHE TAG" >&2; exit 2; }
die() {
	echo "image.sh: $*" >&2
	exit 1
}
abs() {	# abs PATH: PATH from the current directory when relative
	case $1 in
	/*) printf '%s\n' "$1" ;;
	*) printf '%s\n' "$PWD/$1" ;;
	esac
}
deb=$(abs "$1") out=$(abs "$2") cache=$(abs "$3") tag=$4
mirror=${GPUSITE_DEBIAN_MIRROR:-http://deb.debian.org/debian}
suite=bookworm
top=$(cd "$(dirname "$0")/.." && pwd)
if [ -z "${SOURCE_DATE_EPOCH:-}" ]; then
	SOURCE_DATE_EPOCH=$(dpkg-parsechangelog -l "$top/debian/changelog" -S Timestamp)
fi
export SOURCE_DATE_EPOCH
created=$(date -u -d "@$SOURCE_DATE_EPOCH" +%Y-%m-%dT%H:%M:%SZ)
for t in debootstrap umoci chroot sha256sum; do
	command -v "$t" >/dev/null || die "$t not found (make deps installs it)"
done
[ "$(id -u)" -eq 0 ] || die "needs root (debootstrap, chroot)"
[ ! -L "$deb" ] || die "$deb is a symbolic link: give the package file itself"
[ -f "$deb" ] || die "$deb: no such package file"

tarball=$cache/$suite-minbase-image.tgz
sumfile=$tarball.sha256
sha256_of() {	# sha256_of FILE: its SHA-256, hex
	sha256sum <"$1" | cut -d" " -f1
}
for f in "$cache" "$tarball" "$sumfile"; do
	[ ! -L "$f" ] || die "$f is a symbolic link: the cached base is read only from a file of its own"
done
if [ ! -e "$tarball" ]; then
	mkdir -p "$cache"
	rm -rf "$cache/image-work" "$tarball.tmp"
	debootstrap --variant=minbase --make-tarball="$tarball.tmp" "$suite" \
		"$cache/image-work" "$mirror" >"$cache/debootstrap-image.log" 2>&1 ||
		{ tail -20 "$cache/debootstrap-image.log" >&2; exit 1; }
	printf '%s  %s\n' "$(sha256_of "$tarball.tmp")" "$(basename "$tarball")" >"$sumfile"
	mv "$tarball.tmp" "$tarball"
	rm -rf "$cache/image-work"
fi
{ [ -f "$tarball" ] && [ -s "$tarball" ]; } || die "$tarball is not a regular non-empty file: remove it to have it made again"
[ -f "$sumfile" ] || die "$tarball has no checksum beside it ($sumfile): remove the tarball to have it made again"
want=$(cut -d" " -f1 "$sumfile")
printf '%s\n' "$want" | grep -qxE "[0-9a-f]{64}" || die "$sumfile holds no SHA-256: remove the tarball to have it made again"
[ "$(sha256_of "$tarball")" = "$want" ] ||
	die "$tarball does not match its checksum ($sumfile): remove both to have them made again"

rm -rf "$out"
mkdir -p "$out"
oci=$out/oci bundle=$out/bundle
umoci init --layout "$oci"
umoci new --image "$oci:$tag"
umoci unpack --image "$oci:$tag" "$bundle" >/dev/null
root=$bundle/rootfs
debootstrap --variant=minbase --unpack-tarball="$tarball" "$suite" "$root" "$mirror" \
	>"$out/debootstrap.log" 2>&1 || { tail -20 "$out/debootstrap.log" >&2; exit 1; }

in_root() {
	env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LC_ALL=C.UTF-8 \
		DEBIAN_FRONTEND=noninteractive SOURCE_DATE_EPOCH="$SOURCE_DATE_EPOCH" \
		chroot "$root" "$@"
}
# no_link_below ROOT PATH: refuse when PATH, or a directory on the way to
# it from ROOT, is a symbolic link (a root of our own, but made by
# packages: a write through a link would land on the build machine)
no_link_below() {
	nl_p=$1
	for nl_c in $(printf '%s\n' "${2#/}" | tr / ' '); do
		nl_p=$nl_p/$nl_c
		[ ! -L "$nl_p" ] || die "${nl_p#"$1"} in the root is a symbolic link: nothing is copied through it"
	done
}
# into_root SRC DEST: copy the regular file SRC to DEST inside the root,
# never through a symbolic link
into_root() {
	{ [ ! -L "$1" ] && [ -f "$1" ]; } || die "$1 is not a regular file: nothing is copied into the root from it"
	no_link_below "$root" "$2"
	rm -f "$root$2"
	cp -P "$1" "$root$2"
}
# the build machine's resolver, read through its links (systemd-resolved
# makes /etc/resolv.conf one): a file, never a link, goes into the root
into_root "$(readlink -f /etc/resolv.conf)" /etc/resolv.conf
into_root "$deb" /tmp/gpusite.deb
{
	in_root apt-get update -qq
	in_root apt-get install -y -qq ./tmp/gpusite.deb
	in_root groupadd --gid 999 argocd
	in_root useradd --uid 999 --gid 999 --home-dir /home/argocd --create-home \
		--shell /usr/sbin/nologin argocd
	in_root gpusite --version
} >"$out/install.log" 2>&1 || { tail -20 "$out/install.log" >&2; exit 1; }

# what a container does not need, and what differs from build to build
in_root apt-get clean
for d in /tmp /var/lib/apt/lists /var/cache/apt /var/cache/debconf /var/lib/dpkg /var/cache/ldconfig \
	/etc /root /var/log; do
	no_link_below "$root" "$d"
done
rm -rf "$root/tmp/gpusite.deb" "$root/var/lib/apt/lists/"* "$root/var/cache/apt/"* \
	"$root/var/cache/debconf/"*-old "$root/var/lib/dpkg/"*-old "$root/var/cache/ldconfig/aux-cache" \
	"$root/etc/resolv.conf" "$root/etc/hostname" "$root/root/.bash_history"
find "$root/var/log" -type f -delete
if [ -e "$root/usr/bin/gcc" ] || [ -e "$root/usr/bin/cc" ]; then
	echo "image.sh: a compiler is in the root" >&2
	exit 1
fi
find "$root" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +

umoci repack --image "$oci:$tag" --history.created "$created" \
	--history.created_by "gpusite make image: debootstrap $suite minbase + $(basename "$deb")" \
	"$bundle" >/dev/null
umoci config --image "$oci:$tag" --created "$created" --no-history \
	--config.user 999:999 --config.workingdir /home/argocd \
	--config.env HOME=/home/argocd \
	--config.env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
	--config.cmd /usr/bin/gpusite --config.cmd --help \
	--author "gpusite" --architecture "$(dpkg --print-architecture)" --os linux
umoci gc --layout "$oci"
rm -rf "$bundle"
python3 -c 'import json, sys
idx = json.load(open(sys.argv[1] + "/index.json"))
print([m["digest"] for m in idx["manifests"]
       if m.get("annotations", {}).get("org.opencontainers.image.ref.name") == sys.argv[2]][0])' \
	"$oci" "$tag" >"$out/DIGEST"
echo "image: $oci:$tag $(cat "$out/DIGEST")"
