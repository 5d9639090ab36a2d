#!/bin/sh
# action-install.sh [key] - the install steps of action.yml.
#
# `key`: writes hash=<sha256> to $GITHUB_OUTPUT, a hash of the files the
# build reads (action.yml, VERSION, Makefile, mk/, src/, schemas/ of this
# checkout, the action's own), for the actions/cache key.  GitHub's
# hashFiles() cannot give it: it skips every file outside GITHUB_WORKSPACE
# (actions/runner, src/Misc/expressionFunc/hashFiles/src/hashFiles.ts) and
# a composite action's checkout lies outside it, under the runner's
# _actions directory; github.action_ref names a branch such as main, which
# stays the same when the action's code changes.
#
# Without an argument: puts a gpusite of this checkout's VERSION on the
# job's PATH and says which.
#   1. the gpusite already on PATH, when it is this version;
#   2. GPUSITE_DEB_URL: that .deb, downloaded over HTTPS only, checked
#      against GPUSITE_DEB_SHA256 (required), installed with apt-get (its
#      dependencies from the runner's distribution: a Debian 12 runner or
#      container);
#   3. else built from this checkout (in RUNNER_TEMP) into the one file
#      ~/.cache/gpusite-action/gpusite, which actions/cache keeps between
#      runs: a cached build of this version is used as it is.  gpusite's own
#      cache of Git clones (~/.cache/gpusite) is never part of it.
# Writes version=... to $GITHUB_OUTPUT and the directory to $GITHUB_PATH.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
die() {
	echo "gpusite: $*" >&2
	exit 1
}

if [ "${1:-}" = key ]; then
	hash=$(cd "$top" && find action.yml VERSION Makefile mk src schemas -type f -print0 |
		LC_ALL=C sort -z | xargs -0 sha256sum | sha256sum | cut -d" " -f1)
	echo "hash=$hash" >>"$GITHUB_OUTPUT"
	exit 0
fi

want=$(cat "$top/VERSION")
cache=${GPUSITE_CACHE:-$HOME/.cache/gpusite-action}
url=${GPUSITE_DEB_URL:-} sum=${GPUSITE_DEB_SHA256:-}
sudo=
[ "$(id -u)" -eq 0 ] || sudo=sudo

# the inputs are checked whichever way gpusite comes: a wrong one fails the
# job at once, not on the day the runner has no gpusite
if [ -n "$url" ]; then
	case $url in
	https://*) ;;
	*) die "deb-url must be an https:// URL (a package fetched in the clear can be swapped)" ;;
	esac
	printf '%s\n' "$sum" | grep -qxE "[0-9a-fA-F]{64}" ||
		die "deb-url needs deb-sha256, the package's SHA-256 (64 hex digits, as sha256sum prints it)"
elif [ -n "$sum" ]; then
	die "deb-sha256 is given without deb-url"
fi
# need_runner_temp: the job's temporary directory is there; a shared /tmp
# is never used instead
need_runner_temp() {
	if [ -z "${RUNNER_TEMP:-}" ] || [ ! -d "$RUNNER_TEMP" ]; then
		die "RUNNER_TEMP is not set (or not a directory): run the action as a step of a GitHub Actions job"
	fi
}

version_of() {	# version_of BIN: its version, empty when it or a library it loads is missing
	"$1" --version 2>/dev/null | grep -q "not found" ||
		"$1" --version 2>/dev/null | sed -n '1s/^gpusite //p'
}

bin=
if command -v gpusite >/dev/null && [ "$(version_of gpusite)" = "$want" ]; then
	bin=$(command -v gpusite)
	echo "gpusite: using $bin"
elif [ -n "$url" ]; then
	need_runner_temp
	tmp=$RUNNER_TEMP/gpusite.deb
	rm -f "$tmp"
	curl -fsSL --proto =https --proto-redir =https --retry 3 -o "$tmp" "$url"
	got=$(sha256sum <"$tmp" | cut -d" " -f1)
	if [ "$got" != "$(printf '%s' "$sum" | tr A-F a-f)" ]; then
		rm -f "$tmp"
		die "the package from deb-url has SHA-256 $got, not deb-sha256: not installed"
	fi
	$sudo apt-get update -qq
	$sudo apt-get install -y -qq "$tmp"
	bin=/usr/bin/gpusite
	echo "gpusite: installed $url"
elif [ -f "$cache/gpusite" ] && [ -x "$cache/gpusite" ] && [ "$(version_of "$cache/gpusite")" = "$want" ]; then
	bin=$cache/gpusite
	echo "gpusite: using the cached build $bin"
else
	need_runner_temp
	build=$RUNNER_TEMP/gpusite-build
	echo "gpusite: building $want from $top"
	$sudo apt-get update -qq
	$sudo apt-get install -y -qq --no-install-recommends gcc make pkg-config libgit2-dev \
		libyaml-dev libcjson-dev libcurl4-openssl-dev libpcre2-dev libmicrohttpd-dev
	rm -rf "$build"
	make -C "$top" -s -j2 O="$build"
	mkdir -p "$cache"
	cp "$build/gpusite" "$cache/gpusite.tmp"
	mv "$cache/gpusite.tmp" "$cache/gpusite"
	rm -rf "$build"
	bin=$cache/gpusite
fi
got=$(version_of "$bin")
[ "$got" = "$want" ] || die "$bin is version '$got', not $want"
dirname "$bin" >>"$GITHUB_PATH"
echo "version=$got" >>"$GITHUB_OUTPUT"
