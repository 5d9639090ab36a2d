#!/bin/sh
# action-install.sh - the install step of action.yml: puts a gpusite of
# this checkout's VERSION on the job's PATH and says which.
#   1. the gpusite already on PATH, when it is this version;
#   2. GPUSITE_DEB_URL: that .deb, installed with apt-get (its dependencies
#      from the runner's distribution: a Debian 12 runner or container);
#   3. else built from this checkout (the action's own) into
#      ~/.cache/gpusite/<version>, which actions/cache keeps between runs:
#      a cached build is used as it is.
# Writes version=... to $GITHUB_OUTPUT and the directory to $GITHUB_PATH.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
want=$(cat "$top/VERSION")
cache=${GPUSITE_CACHE:-$HOME/.cache/gpusite}/$want
sudo=
[ "$(id -u)" -eq 0 ] || sudo=sudo

version_of() {	# version_of BIN: its version, empty when it or a library it loads is missing
	"$1" --version 2>/dev/null | grep -q "not found" ||
		"$1" --version 2>/dev/null | sed -n '1s/^gpusite //p'
}

bin=
if command -v gpusite >/dev/null && [ "$(version_of gpusite)" = "$want" ]; then
	bin=$(command -v gpusite)
	echo "gpusite: using $bin"
elif [ -n "${GPUSITE_DEB_URL:-}" ]; then
	tmp=${RUNNER_TEMP:-/tmp}/gpusite.deb
	curl -fsSL --retry 3 -o "$tmp" "$GPUSITE_DEB_URL"
	$sudo apt-get update -qq
	$sudo apt-get install -y -qq "$tmp"
	bin=/usr/bin/gpusite
	echo "gpusite: installed $GPUSITE_DEB_URL"
elif [ -x "$cache/gpusite" ] && [ "$(version_of "$cache/gpusite")" = "$want" ]; then
	bin=$cache/gpusite
	echo "gpusite: using the cached build $bin"
else
	echo "gpusite: building $want from $top"
	$sudo apt-get update -qq
	$sudo apt-get install -y -qq --no-install-recommends gcc make pkg-config libgit2-dev \
		libyaml-dev libcjson-dev libcurl4-openssl-dev libpcre2-dev libmicrohttpd-dev
	mkdir -p "$cache"
	make -C "$top" -s -j2 O="$cache/build"
	cp "$cache/build/gpusite" "$cache/gpusite"
	rm -rf "$cache/build"
	bin=$cache/gpusite
fi
got=$(version_of "$bin")
[ "$got" = "$want" ] || { echo "gpusite: $bin is version '$got', not $want" >&2; exit 1; }
dirname "$bin" >>"$GITHUB_PATH"
echo "version=$got" >>"$GITHUB_OUTPUT"
