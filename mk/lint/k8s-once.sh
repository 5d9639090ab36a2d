#!/bin/sh
# k8s-once.sh - each Kubernetes semantic is defined once, in src/k8s/.
# Fails when a label-selector evaluator or a toleration matcher appears
# elsewhere: "DoesNotExist" (or a negated "NotIn" test) in a strcmp, a
# function whose name says it matches tolerations and that reads a
# toleration's operator, a timestamp parser (timegm), or a list of the
# kubelet's own labels, or a GPU resource name list (the MIG prefix).
# src/spec/ and src/schema/ hold the words as vocabulary
# only, and render code that builds requirements passes them as values,
# not to strcmp.
# Usage: sh mk/lint/k8s-once.sh [top]   (run from the top of the tree)
top=${1:-.}
cd "$top" || exit 2
status=0

flag() {	# flag HITS WHAT FIX: report HITS (grep -Hn lines) when not empty
	[ -n "$1" ] || return 0
	echo "k8s-once: $2:" >&2
	echo "$1" >&2
	echo "k8s-once: $3" >&2
	status=1
}

files=$(find src -name '*.[ch]' ! -path 'src/k8s/*' ! -path 'src/spec/*' \
	! -path 'src/schema/*' | LC_ALL=C sort)
[ -n "$files" ] || { echo "k8s-once: no sources under $top/src" >&2; exit 2; }

# an evaluator must decide NotIn and DoesNotExist; validators and
# builders only name In, Gt or Lt
# shellcheck disable=SC2086
hits=$(grep -HnE 'strn?cmp\([^;]*"DoesNotExist"|!strn?cmp\([^)]*"NotIn"\) *&&' $files)
flag "$hits" "a selector or toleration operator is evaluated outside src/k8s/" \
	"use k8s_label_selector_matches, k8s_requirement_eval or k8s_toleration_tolerates (src/k8s/)"

# a function whose name says it matches tolerations and whose body
# reads a toleration's operator ("Exists", "Equal" or the "operator" key)
# shellcheck disable=SC2086
defs=$(awk 'FNR == 1 { name = "" }
	prev ~ /^(static )?bool$/ && $0 ~ /^[a-z_0-9]*tolerat[a-z_0-9]*\(/ {
		name = $0; at = FNR }
	name != "" && /"(Exists|Equal|operator)"/ {
		print FILENAME ":" at ": " name; name = "" }
	/^}/ { name = "" }
	{ prev = $0 }' $files)
flag "$defs" "a toleration matcher is defined outside src/k8s/" \
	"call k8s_toleration_tolerates (src/k8s/k8s_toleration.h) instead"
# a timestamp reader: RFC 3339 as the API server writes it is
# k8s_time_parse (src/k8s/k8s_time.h), the only timegm() of the tree
# shellcheck disable=SC2086
hits=$(grep -Hn 'timegm *(' $files)
flag "$hits" "a timestamp parser outside src/k8s/" "use k8s_time_parse (src/k8s/k8s_time.h)"
# the kubelet's own labels (well_known_labels.go): a list of them is
# k8s_is_kubelet_label and its callers (src/k8s/k8s_labels.h)
# shellcheck disable=SC2086
hits=$(grep -Hn '"failure-domain.beta.kubernetes.io/region"\|"node-restriction.kubernetes.io"' $files)
flag "$hits" "a list of kubelet labels outside src/k8s/" \
	"use k8s_kubelet_refuses_label or k8s_node_restriction_forbids (src/k8s/k8s_labels.h)"
# the GPU resource names are one list, k8s_gpu_resources[] (src/k8s/k8s_gpu.h):
# a MIG prefix spelled elsewhere is a second list
# shellcheck disable=SC2086
hits=$(grep -Hn '"nvidia.com/mig-' $files)
flag "$hits" "a GPU resource name list outside src/k8s/" \
	"use k8s_gpu_pod or k8s_gpu_resources[] (src/k8s/k8s_gpu.h)"
exit $status
