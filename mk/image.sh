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
set -eu
deb=$1 out=$2 cache=$3 tag=$4
mirror=${GPUSITE_DEBIAN_MIRROR:-http://deb.debian.org/debian}
suite=bookworm
top=$(cd "$(dirname "$0")/.." && pwd)
if [ -z "${SOURCE_DATE_EPOCH:-}" ]; then
	SOURCE_DATE_EPOCH=$(dpkg-parsechangelog -l "$top/debian/changelog" -S Timestamp)
fi
export SOURCE_DATE_EPOCH
created=$(date -u -d "@$SOURCE_DATE_EPOCH" +%Y-%m-%dT%H:%M:%SZ)
for t in debootstrap umoci chroot; do
	command -v "$t" >/dev/null || { echo "image.sh: $t not found (make deps installs it)" >&2; exit 1; }
done
[ "$(id -u)" -eq 0 ] || { echo "image.sh: needs root (debootstrap, chroot)" >&2; exit 1; }

tarball=$cache/$suite-minbase-image.tgz
if [ ! -s "$tarball" ]; then
	mkdir -p "$cache"
	rm -rf "$cache/image-work"
	debootstrap --variant=minbase --make-tarball="$tarball.tmp" "$suite" \
		"$cache/image-work" "$mirror" >"$cache/debootstrap-image.log" 2>&1 ||
		{ tail -20 "$cache/debootstrap-image.log" >&2; exit 1; }
	mv "$tarball.tmp" "$tarball"
	rm -rf "$cache/image-work"
fi

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
cp /etc/resolv.conf "$root/etc/resolv.conf"
cp "$deb" "$root/tmp/gpusite.deb"
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
