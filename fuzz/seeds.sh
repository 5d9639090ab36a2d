#!/bin/sh
# seeds.sh TARGET: the seed inputs of one fuzz target, one path a line:
# files from testdata/ that exercise its input surface, plus the
# hand-written ones in fuzz/seeds/TARGET/.  Run from the checkout's top.
set -u
t=${1:?usage: seeds.sh TARGET}
small() {	# regular files under 256 KiB
	find "$@" -type f -size -256k 2>/dev/null
}
case $t in
fuzz_json)
	small testdata -name '*.json' ;;
fuzz_spec | fuzz_yaml_emit)
	small testdata -name '*.yaml' ;;
fuzz_diff)
	# rendered streams (live = first document, rendered = second)
	# and cluster fixtures as the fake API server serves them
	small testdata/render -path '*/expected/*' -name '*.yaml'
	small testdata/live -name '*.json' ;;
fuzz_kubeconfig)
	small testdata/cmp -name '*.yaml' ;;
fuzz_argocd_params)
	;;
fuzz_http)
	# API bodies as the fake API server serves them; whole answers
	# (status line, headers, body) are in fuzz/corpus/fuzz_http/
	small testdata/live -name '*.json' ;;
fuzz_model)
	# a field number and one value: the inputs are in fuzz/corpus/fuzz_model
	;;
esac
small "fuzz/seeds/$t"
