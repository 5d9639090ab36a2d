#!/bin/sh
# t2070-render-links.sh - render writes no file through a symlink.  A link
# anywhere below --nodeconfigs DIR, --values DIR or the directory of -o
# FILE - the target file itself, a <site>/ or <site>/<group>/ directory,
# a <cluster>/ directory, a dangling link - is refused with exit 3 and one
# line naming it, before anything is written: no file, no temporary, no
# directory, and the link's target untouched (an SSM activation code
# never lands outside the directory, world-readable).  The directory the
# user names is followed as given, as git and kubectl follow a path: a
# link there is the user's choice.  The race (a link swapped in while the
# files are written) is test_emit_file's.
. "$TEST_TOP/tests/lib.sh"
cd "$SCRATCH" || exit 1

fleet="$TEST_TOP/testdata/fleet/sites"
export SSM_ACTIVATION_CODE_RACK_B=Rb0aXw9Lq2Zt7Ke4Vn1Hs8Dc
export SSM_ACTIVATION_CODE_INCHEON=In9cH3on5Ac7Ti9Va1Ti0nCd
export SSM_ACTIVATION_CODE_INCHEON_L40S=L4s0aBcDeFgHiJkLmNoPqRs
LINK_FILE="is a symlink, and render writes through no link (it could lead anywhere): remove the link or write to its target"
LINK_DIR="is a symlink, and render writes through no link below the directory it is given: remove the link or give the real directory"

# tree DIR: every entry below DIR with its type, mode and size.
tree() {
	(cd "$1" && find . -printf '%p %y %m %s\n' | sort)
}

# refused LINE CMD...: CMD exits 3, stdout empty, stderr exactly LINE.
refused() {
	r_line=$1
	shift
	expect_exit 3 "$@" >out 2>err &&
	test ! -s out &&
	printf 'gpusite render: error: %s\n' "$r_line" >want &&
	test_cmp want err
}

test_expect_success 'an SSM NodeConfig that is a link out: refused, the code goes nowhere' '
	mkdir -p 1/nc/seoul-dc1 1/outside &&
	: >1/outside/stolen && chmod 644 1/outside/stolen &&
	ln -s ../../outside/stolen 1/nc/seoul-dc1/rack-b.yaml &&
	tree 1 >before &&
	refused "'\''1/nc/seoul-dc1/rack-b.yaml'\'' $LINK_FILE" \
		"$GPUSITE" render --nodeconfigs 1/nc "$fleet" &&
	test ! -s 1/outside/stolen &&
	tree 1 >after && test_cmp before after
'

test_expect_success 'a dangling link at a NodeConfig: refused, nothing created at its target' '
	mkdir -p 2/nc/seoul-dc1 &&
	ln -s ../../made-by-render 2/nc/seoul-dc1/rack-b.yaml &&
	tree 2 >before &&
	refused "'\''2/nc/seoul-dc1/rack-b.yaml'\'' $LINK_FILE" \
		"$GPUSITE" render --nodeconfigs 2/nc "$fleet" &&
	test ! -e 2/made-by-render &&
	tree 2 >after && test_cmp before after
'

test_expect_success 'a <site>/ directory that is a link: refused, its target stays empty' '
	mkdir -p 3/nc 3/outside &&
	ln -s ../outside 3/nc/seoul-dc1 &&
	tree 3 >before &&
	refused "'\''3/nc/seoul-dc1'\'' $LINK_DIR" \
		"$GPUSITE" render --nodeconfigs 3/nc "$fleet" &&
	tree 3 >after && test_cmp before after
'

test_expect_success 'a <site>/<group>/ directory that is a link: refused' '
	mkdir -p 4/nc/seoul-dc1 4/outside &&
	ln -s ../../outside 4/nc/seoul-dc1/rack-a &&
	tree 4 >before &&
	refused "'\''4/nc/seoul-dc1/rack-a'\'' $LINK_DIR" \
		"$GPUSITE" render --nodeconfigs 4/nc "$fleet" &&
	tree 4 >after && test_cmp before after
'

test_expect_success 'a --values <cluster>/ link: refused before any NodeConfig or -o file is written' '
	mkdir -p 5/values 5/outside &&
	ln -s ../outside 5/values/my-hybrid-cluster &&
	tree 5 >before &&
	refused "'\''5/values/my-hybrid-cluster'\'' $LINK_DIR" \
		"$GPUSITE" render -o 5/stream.yaml --nodeconfigs 5/nc --values 5/values "$fleet" &&
	tree 5 >after && test_cmp before after
'

test_expect_success '-o FILE that is a link (to a file, or dangling): refused, the target untouched' '
	mkdir -p 6/outside && echo old >6/outside/stream &&
	ln -s outside/stream 6/s.yaml && ln -s outside/none 6/d.yaml &&
	tree 6 >before &&
	refused "'\''6/s.yaml'\'' $LINK_FILE" "$GPUSITE" render -o 6/s.yaml "$fleet" &&
	refused "'\''6/d.yaml'\'' $LINK_FILE" "$GPUSITE" render -o 6/d.yaml "$fleet" &&
	test "$(cat 6/outside/stream)" = old &&
	tree 6 >after && test_cmp before after
'

test_expect_success 'a link that stays inside the directory is refused as well' '
	mkdir -p 7/nc/seoul-dc1 && : >7/nc/elsewhere.yaml &&
	ln -s ../elsewhere.yaml 7/nc/seoul-dc1/rack-b.yaml &&
	refused "'\''7/nc/seoul-dc1/rack-b.yaml'\'' $LINK_FILE" \
		"$GPUSITE" render --nodeconfigs 7/nc "$fleet" &&
	test ! -s 7/nc/elsewhere.yaml
'

test_expect_success 'the directory the user names may itself be a link: followed, as git and kubectl do' '
	mkdir -p 8/real-nc 8/real-out &&
	ln -s real-nc 8/nc && ln -s real-out 8/out &&
	"$GPUSITE" render -o 8/out/stream.yaml --nodeconfigs 8/nc "$fleet" >out 2>/dev/null &&
	test ! -s out &&
	test -L 8/nc && test -L 8/out &&
	test -s 8/real-out/stream.yaml &&
	grep -q "activationCode: Rb0aXw9Lq2Zt7Ke4Vn1Hs8Dc" 8/real-nc/seoul-dc1/rack-b.yaml
'

test_expect_success 'SSM files are created 0600 whatever the umask, and replace a world-readable file' '
	mkdir -p 9/nc/seoul-dc1 && echo old >9/nc/seoul-dc1/rack-b.yaml &&
	chmod 644 9/nc/seoul-dc1/rack-b.yaml &&
	(umask 000 && "$GPUSITE" render --nodeconfigs 9/nc "$fleet" >/dev/null 2>&1) &&
	test "$(stat -c %a 9/nc/seoul-dc1/rack-b.yaml)" = 600 &&
	test "$(stat -c %a 9/nc/incheon-edge/a100-racks.yaml)" = 600 &&
	test "$(stat -c %a 9/nc/seoul-dc1/rack-a/gpu-a-01.yaml)" = 666 &&
	grep -q "activationCode: Rb0aXw9Lq2Zt7Ke4Vn1Hs8Dc" 9/nc/seoul-dc1/rack-b.yaml
'

test_expect_success 'the same runs without the links write everything' '
	rm 3/nc/seoul-dc1 5/values/my-hybrid-cluster &&
	"$GPUSITE" render --nodeconfigs 3/nc "$fleet" >/dev/null 2>&1 &&
	test "$(find 3/nc -type f | wc -l)" -eq 9 && test -z "$(ls -A 3/outside)" &&
	"$GPUSITE" render -o 5/stream.yaml --nodeconfigs 5/nc --values 5/values "$fleet" 2>/dev/null &&
	test "$(find 5/values -type f | wc -l)" -eq 3 && test -s 5/stream.yaml &&
	test -z "$(find 3 5 -name ".*gpusite-*")"
'

test_done
