#!/bin/sh
# t6600: schemas a user gathers for validate --rendered are hostile input
# too.  An OpenAPI v3 document of 2 KB whose levels are
# {allOf: [{$ref: next}, {$ref: next}]} fans out to 2^22 evaluations (it
# took 25 s and 4 GB, or "out of memory" under a limit); an anyOf over
# 200 backtracking patterns took 34 s (each given up on after a million
# steps, and the object reported as one that could not be checked).  Each must end in one clean line:
# exit 3 naming the schema and the object when the evaluation passes its
# bounds (steps per object and run, memory, --timeout), never a pass; the
# RE2 patterns answered.  Time is bounded by a generous outer timeout, and
# the peak memory read from /usr/bin/time when it is there.
. "$TEST_TOP/tests/lib.sh"

cd "$SCRATCH" || exit 1

# fanout DIR LEVELS LEAF: an OpenAPI v3 document of example.com/v1 Thing
# whose LEVELS levels each apply the next twice (allOf of two $refs)
fanout() {
	mkdir -p "$1" &&
	{
		printf '{"openapi": "3.0.0", "info": {"title": "t", "version": "v1"}, "paths": {},\n'
		printf ' "components": {"schemas": {\n'
		i=0
		while [ "$i" -lt "$2" ]; do
			n=$((i + 1))
			printf '  "L%d": {"allOf": [{"$ref": "#/components/schemas/L%d"}, {"$ref": "#/components/schemas/L%d"}]' "$i" "$n" "$n"
			[ "$i" -eq 0 ] && printf ', "x-kubernetes-group-version-kind": [{"group": "example.com", "version": "v1", "kind": "Thing"}]'
			printf '},\n'
			i=$n
		done
		printf '  "L%d": %s}}}\n' "$2" "$3"
	} >"$1/api.json"
}

# run OUT CMD...: CMD under an outer timeout of 30 s (the old code took
# minutes), its stderr in OUT, its peak memory (KiB) in OUT.kib when
# /usr/bin/time is there; the exit code CMD gave
run() {
	out=$1 && shift &&
	/usr/bin/time -f %M -o "$out.kib" timeout 30 "$@" 2>"$out"
}

# small OUT: the peak memory is under 300 MiB
small() {
	kib=$(tail -1 "$1.kib") && echo "peak memory: $kib KiB" &&
	test "$kib" -lt 307200
}

test_expect_success '/usr/bin/time and prlimit are there (make deps)' '
	test -x /usr/bin/time && command -v prlimit
'


# one_line OUT: exactly one line, the GS241 error (the table's level: an error; GS131 is a warning) naming schema and object
one_line() {
	cat "$1" &&
	test "$(wc -l <"$1")" -eq 1 &&
	grep "^obj.yaml:1:1: error: example.com/v1 Thing t1 could not be checked against the schema of $2/api.json: .*\[GS241\]$" "$1"
}

# the fields of the object, spec a string
FIELDS='"apiVersion": {"type": "string"}, "kind": {"type": "string"}, "metadata": {"type": "object", "x-kubernetes-preserve-unknown-fields": true}, "spec": {"type": "string"}'

test_expect_success 'setup: the fan-out documents and an object' '
	fanout fail 22 "{\"type\": \"object\", \"properties\": {$FIELDS}}" &&
	fanout pass 22 "{\"type\": \"object\", \"x-kubernetes-preserve-unknown-fields\": true}" &&
	fanout few 4 "{\"type\": \"object\", \"properties\": {$FIELDS}}" &&
	test "$(wc -c <fail/api.json)" -lt 4096 &&
	printf "%s\n" "apiVersion: example.com/v1" "kind: Thing" "metadata:" "  name: t1" "spec: 1" >obj.yaml &&
	sed "s/^spec: 1/spec: one/" obj.yaml >good.yaml
'

test_expect_success 'a fan-out of 2^22 failing evaluations: exit 3, one line, bounded' '
	{ run err "$GPUSITE" validate --rendered --upstream fail obj.yaml; test $? -eq 3; } &&
	one_line err fail &&
	grep "the limit of steps of one object" err &&
	small err
'

test_expect_success 'a fan-out of 2^22 passing evaluations: exit 3, never a silent pass' '
	{ run err "$GPUSITE" validate --rendered --upstream pass good.yaml; test $? -eq 3; } &&
	sed "s/^good/obj/" err >err.obj &&
	one_line err.obj pass &&
	small err
'

test_expect_success '--timeout bounds the evaluation of local schemas' '
	{ run err "$GPUSITE" validate --rendered --upstream pass good.yaml --timeout 0.05; test $? -eq 3; } &&
	sed "s/^good/obj/" err >err.obj &&
	one_line err.obj pass &&
	grep "the --timeout ran out" err
'

if [ -n "${GPUSITE_SANITIZE:-}${GPUSITE_VALGRIND:-}" ]; then
	# the sanitizers reserve terabytes of shadow address space at start
	test_skip 'under an address-space cap: the same clean line' "sanitizer or valgrind run"
else
test_expect_success 'under an address-space cap: the same clean line, no "out of memory"' '
	{ prlimit --as=1073741824 timeout 30 "$GPUSITE" validate --rendered \
		--upstream fail obj.yaml 2>err; test $? -eq 3; } &&
	one_line err fail && ! grep -i "out of memory" err
'
fi

test_expect_success 'a few levels of the same shape are evaluated to the end' '
	expect_exit 1 "$GPUSITE" validate --rendered --upstream few obj.yaml 2>err &&
	grep "error: spec .*string.*\[GS130\]" err &&
	"$GPUSITE" validate --rendered --upstream few good.yaml
'

test_expect_success 'anyOf over 200 backtracking RE2 patterns: answered, not given up on' '
	mkdir -p any &&
	{
		printf "{\"openapi\": \"3.0.0\", \"info\": {\"title\": \"t\", \"version\": \"v1\"}, \"paths\": {},\n" &&
		printf " \"components\": {\"schemas\": {\"T\": {\"type\": \"object\",\n" &&
		printf "  \"x-kubernetes-group-version-kind\": [{\"group\": \"example.com\", \"version\": \"v1\", \"kind\": \"Thing\"}],\n" &&
		printf "  \"properties\": {%s, \"spec\": {\"anyOf\": [\n" "${FIELDS%, \"spec\"*}" &&
		i=0 &&
		while [ "$i" -lt 200 ]; do
			printf "   {\"type\": \"string\", \"pattern\": \"^(a+)+[b-z]{0,%d}\$\"}," "$((i + 1))" &&
			i=$((i + 1)) || return 1
		done &&
		printf "   {\"type\": \"string\", \"pattern\": \"^(a+)+[0-9]\$\"}]}}}}}}\n"
	} >any/api.json &&
	printf "%s\n" "apiVersion: example.com/v1" "kind: Thing" "metadata:" "  name: t1" \
		"spec: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!" >any.yaml &&
	{ run err "$GPUSITE" validate --rendered --upstream any any.yaml; test $? -eq 1; } &&
	cat err &&
	grep "does not match the pattern" err &&
	! grep "could not be checked" err &&
	small err &&
	sed "s/aaaa!/aaaa7/" any.yaml >any-ok.yaml &&
	"$GPUSITE" validate --rendered --upstream any any-ok.yaml
'

test_done
