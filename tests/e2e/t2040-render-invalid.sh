#!/bin/sh
# t2040-render-invalid.sh - nothing invalid or hostile ever renders: every
# invalid case (testdata/invalid/) and every hostile file
# (testdata/hostile/) makes `render` exit non-zero with nothing at all on
# stdout and no file written, and `generate`-style output never starts.
. "$TEST_TOP/tests/lib.sh"

# render_refuses INPUT: non-zero exit, empty stdout, findings on stderr,
# no -o / --values file left behind.
render_refuses() {
	rm -rf "$SCRATCH/w" && mkdir -p "$SCRATCH/w" &&
	# shellcheck disable=SC2086
	"$GPUSITE" render ${RENDER_ARGS:-} "$1" >"$SCRATCH/w/out" 2>"$SCRATCH/w/err"
	rc=$?
	if [ "$rc" -eq 0 ]; then
		echo "render exited 0 on $1" >&2
		return 1
	fi
	test ! -s "$SCRATCH/w/out" || { echo "stdout not empty for $1" >&2; return 1; }
	test -s "$SCRATCH/w/err" || { echo "no finding printed for $1" >&2; return 1; }
	# shellcheck disable=SC2086
	timeout 20 "$GPUSITE" render ${RENDER_ARGS:-} -o "$SCRATCH/w/o.yaml" --values "$SCRATCH/w/v" "$1" \
		>/dev/null 2>&1
	test ! -e "$SCRATCH/w/o.yaml" && test ! -e "$SCRATCH/w/v"
}

invalid="$TEST_TOP/testdata/invalid"
if [ -d "$invalid" ]; then
	for c in "$invalid"/*; do
		[ -e "$c" ] || continue
		case "$c" in
		*.yaml | *.yml) input=$c ;;
		*) [ -d "$c" ] || continue; input=$c
		   [ -d "$c/sites" ] && input=$c/sites ;;
		esac
		# a case with a setup script (a FIFO git cannot store) runs in a
		# scratch copy, as the golden runner does
		if [ -f "$c/setup" ]; then
			copy="$SCRATCH/case-$(basename "$c")"
			rm -rf "$copy" && cp -R "$c" "$copy" && (cd "$copy" && sh ./setup) || continue
			input=$copy/sites
		fi
		# warning-only cases (expected.exit 0) still render, unless the
		# case runs under --strict, which render honours as validate does;
		# a note-only case (GS127: a file that is not a site) renders too
		args=$(cat "$c/args" 2>/dev/null || true)
		# a case that fails only in generate (the version Argo CD passes)
		# runs its own command in its directory, as t1000 does
		if [ -f "$c/command" ] && [ "$(cat "$c/command")" = generate ]; then
			test_expect_success "invalid $(basename "$c") generates nothing" "
				(cd '$input/..' && expect_exit 1 env \$(grep -v '^#' '$c/env') '$GPUSITE' generate \
					>'$SCRATCH/gen.out' 2>'$SCRATCH/gen.err') &&
				test ! -s '$SCRATCH/gen.out' && test -s '$SCRATCH/gen.err'"
			continue
		fi
		if [ "$(cat "$c/expected.exit" 2>/dev/null || echo 1)" = 0 ]; then
			test_expect_success "warning-only $(basename "$c") still renders" \
				"'$GPUSITE' render '$input' >'$SCRATCH/ok.yaml' 2>'$SCRATCH/ok.err' && test -s '$SCRATCH/ok.yaml' && grep -q 'warning:\\|note:' '$SCRATCH/ok.err'"
			continue
		fi
		test_expect_success "invalid $(basename "$c") renders nothing" \
			"RENDER_ARGS='$args' render_refuses '$input'"
	done
else
	test_skip 'every testdata/invalid case renders nothing' 'testdata/invalid not found'
fi

for f in "$TEST_TOP"/testdata/hostile/*.yaml; do
	[ -f "$f" ] || continue
	test_expect_success "hostile $(basename "$f") renders nothing" \
		"render_refuses '$f'"
done

test_expect_success 'a document that is not a GPUSite renders nothing' '
	mkdir -p "$SCRATCH/cm" &&
	printf "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n" >"$SCRATCH/cm/x.yaml" &&
	render_refuses "$SCRATCH/cm"
'

test_expect_success 'one bad site spoils the run: the good one is not printed alone' '
	mkdir -p "$SCRATCH/mixed" &&
	cp "$TEST_TOP/testdata/fleet/sites/seoul-dc1.yaml" "$SCRATCH/mixed/" &&
	sed "s/gpuLimit: 8 .*/gpuLimit: 0/" "$TEST_TOP/testdata/fleet/sites/frankfurt-lab.yaml" \
		>"$SCRATCH/mixed/frankfurt-lab.yaml" &&
	render_refuses "$SCRATCH/mixed"
'

test_done
