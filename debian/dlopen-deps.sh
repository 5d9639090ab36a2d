#!/bin/sh
# dlopen-deps.sh: the substvars for the libraries gpusite loads with dlopen
# on first use, which dpkg-shlibdeps cannot see (they are not DT_NEEDED).
# Each is named the way dpkg-shlibdeps would name a linked library: the
# package and minimum version of its shlibs file.
#
#   dlopen:Depends     libgit2 - every command that reads Git: validate
#                      --staged and --repo, diff --base, and the pre-commit
#                      hook this package ships; without it those fail.
#   dlopen:Recommends  libcurl4, the OpenSSL build - only the commands that
#                      talk to a cluster (drift, diff --live, drill, --live).
#                      The GnuTLS build (libcurl3-gnutls, which git pulls
#                      in) is tried second, but takes no certificate
#                      authority or client key from memory, as kubeconfigs
#                      give them, so it cannot stand in; libmicrohttpd - only
#                      `serve`.  Validate, render and generate (the Argo CD
#                      plugin) run without them, so a minimal image may
#                      leave them out with --no-install-recommends.
#
# The sonames are the ones the code loads (src/source/source_git2.c,
# src/kube/kube_curl.c, src/argocd/serve_http.c); the missing-library
# message of each names its Debian package.
set -eu
# shlib NAME VERSION: "package (>= version)" from the installed shlibs files
shlib() {
	dep=$(cat /var/lib/dpkg/info/*.shlibs 2>/dev/null |
		awk -v n="$1" -v v="$2" '$1 == n && $2 == v { $1 = ""; $2 = ""; sub(/^ +/, ""); print; exit }')
	if [ -z "$dep" ]; then
		echo "dlopen-deps.sh: no shlibs entry for $1 $2 (is its -dev package installed?)" >&2
		exit 1
	fi
	echo "$dep"
}
# the libgit2 soname version is the one of the headers the build used
git2=$(sed -n 's/^#define LIBGIT2_SOVERSION[[:space:]]*"\(.*\)"/\1/p' \
	"$(pkg-config --variable=includedir libgit2)/git2/version.h")
[ -n "$git2" ] || { echo "dlopen-deps.sh: LIBGIT2_SOVERSION not found" >&2; exit 1; }
echo "dlopen:Depends=$(shlib libgit2 "$git2")"
echo "dlopen:Recommends=$(shlib libcurl 4), $(shlib libmicrohttpd 12)"
