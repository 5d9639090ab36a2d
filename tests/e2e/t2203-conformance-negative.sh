#!/bin/sh
# t2203: every upstream check fires with its own rule and message.
# Each file of testdata/upstream-bad/ marks the lines where a diagnostic is
# expected ("# expect SEVERITY RULE text", several joined by " | "); the
# run must produce each of them on that line and nothing else (notes aside).
. "$TEST_TOP/tests/lib.sh"

bad="$TEST_TOP/testdata/upstream-bad"

if ! need_upstream; then
	test_skip "deliberately broken objects fail their upstream checks" "../shared/upstream not found"
	test_done
	exit
fi

# markers FILE: one line per expectation, LINE<TAB>SEVERITY<TAB>RULE<TAB>TEXT
markers() {
	awk '{
		i = index($0, "# expect ")
		if (!i) next
		n = split(substr($0, i + 9), part, / \| /)
		for (k = 1; k <= n; k++) {
			p = part[k]
			sev = p; sub(/ .*/, "", sev); p = substr(p, length(sev) + 2)
			rule = p; sub(/ .*/, "", rule); text = substr(p, length(rule) + 2)
			printf "%d\t%s\t%s\t%s\n", NR, sev, rule, text
		}
	}' "$1"
}

# has_diag OUT FILE LINE SEVERITY RULE TEXT: OUT holds that diagnostic.
has_diag() {
	grep -F "$2:$3:" "$1" | grep -F ": $4: " | grep -F "[$5]" | grep -qF -- "$6"
}

total=0
for f in "$bad"/*.yaml; do
	name=$(basename "$f")
	rel="testdata/upstream-bad/$name"
	out="$SCRATCH/$name.out"
	(cd "$TEST_TOP" && "$GPUSITE" validate --rendered --upstream "$UPSTREAM" "$rel") \
		>"$SCRATCH/$name.stdout" 2>"$out"
	echo $? >"$SCRATCH/$name.rc"
	markers "$f" >"$SCRATCH/$name.exp"
	test_expect_success "$name: validate --rendered exits 1" '
		test "$(cat "$SCRATCH/$name.rc")" = 1
	'
	while IFS='	' read -r line sev rule text; do
		total=$((total + 1))
		printf '%s\n' "$text" >"$SCRATCH/exp.$total"
		test_expect_success "$name:$line: $sev $rule fires" "
			has_diag '$out' '$rel' '$line' '$sev' '$rule' \"\$(cat '$SCRATCH/exp.$total')\" ||
			{ cat '$out'; false; }
		"
	done <"$SCRATCH/$name.exp"
	test_expect_success "$name: no diagnostic beyond the expected ones" '
		want=$(wc -l <"$SCRATCH/$name.exp") &&
		got=$(grep -c ": \(error\|warning\): " "$out") &&
		test "$want" -eq "$got" || { cat "$out"; false; }
	'
done

# Every rule of the checker is exercised by at least one broken object.
test_expect_success "every NodePool CEL rule and runtime check has a broken example" '
	for r in GS133 GS134 GS135 GS136 GS137 GS138 GS139 GS140 GS141 GS142 GS143 \
		 GS144 GS145 GS146 GS147 GS148 GS149 GS150 GS151 GS152; do
		cat "$SCRATCH"/*.exp | cut -f3 | grep -qx "$r" || { echo "no example for $r"; exit 1; }
	done
'
test_expect_success "every other check has a broken example" '
	for r in GS130 GS131 GS132 GS153 GS154 GS155 GS156 GS157 GS158 GS159 GS164 \
		 GS165 GS166 GS167 GS168 GS169 GS170 GS242 GS243 GS244; do
		cat "$SCRATCH"/*.exp | cut -f3 | grep -qx "$r" || { echo "no example for $r"; exit 1; }
	done
'
test_expect_success "--rendered without upstream schemas is a usage error" '
	(unset GPUSITE_UPSTREAM && expect_exit 2 "$GPUSITE" validate --rendered "$bad/application.yaml")
'
test_expect_success "an unreadable stream cannot be checked (exit 3)" '
	expect_exit 3 "$GPUSITE" validate --rendered --upstream "$UPSTREAM" "$SCRATCH/missing.yaml"
'
test_expect_success "an empty stream is an error, not a success" '
	: >"$SCRATCH/empty.yaml" &&
	expect_exit 1 "$GPUSITE" validate --rendered --upstream "$UPSTREAM" "$SCRATCH/empty.yaml" 2>"$SCRATCH/empty.err" &&
	grep -q "holds no object" "$SCRATCH/empty.err"
'
test_done
