#!/bin/sh
# t6906-readme-paths.sh - mk/lint/readme-paths.sh: the README names no path
# of the test layout (../shared/..., shared/upstream) outside a section that
# says it is for contributors; the README of this tree passes.
. "$TEST_TOP/tests/lib.sh"
cd "$SCRATCH" || exit 1

LINT=$TEST_TOP/mk/lint/readme-paths.sh

test_expect_success 'the README of this tree passes' '
	sh "$LINT" "$TEST_TOP"
'

test_expect_success 'a path of the test layout in a section for users: refused, line and section named' '
	mkdir -p user &&
	printf "%s\n" "# gpusite" "" "## Install" "" "Run it with the CRDs of ../shared/upstream/karpenter." >user/README.md &&
	expect_exit 1 sh "$LINT" user 2>err &&
	grep -x "lint: README.md:5: a path of the test layout in \"Install\", a section for users: speak of what the user downloads, or say the section is for contributors" err &&
	printf "%s\n" "## Validate" "" "gpusite validate --upstream shared/upstream/argocd" >user/README.md &&
	expect_exit 1 sh "$LINT" user 2>err &&
	grep "README.md:3: .* in \"Validate\"" err
'

test_expect_success 'the same path in a section for contributors passes; a heading in a code block is no heading' '
	mkdir -p contrib &&
	printf "%s\n" "## Performance" "" "The benchmark is for contributors." "" "\`\`\`sh" "# a comment, not a heading" "\`\`\`" \
		"It reads ../shared/upstream/nvidia-device-plugin/chart." >contrib/README.md &&
	sh "$LINT" contrib &&
	printf "%s\n" "## Performance" "For contributors." "### Figures" "../shared/upstream" >contrib/README.md &&
	expect_exit 1 sh "$LINT" contrib 2>err &&
	grep "in \"Figures\"" err
'

test_done
