#!/bin/sh
# chainlint.sh TOP: inside every test body of tests/e2e/ and tests/golden/
# (the strings tests/lib.sh evaluates: test_expect_success's last
# argument), each command is joined to the next by && (or ||, |, &), and
# every loop ends its body with `|| return 1`, so that no failing step is
# forgotten.  The parser and its exceptions (here-documents, case arms,
# groups and subshells checked inside, comments, line continuations) are in
# chainlint.py.
set -u
top=${1:?usage: chainlint.sh TOP}
[ -d "$top/tests" ] || exit 0
command -v python3 >/dev/null || { echo "lint: chainlint needs python3" >&2; exit 2; }
exec python3 "$(dirname "$0")/chainlint.py" "$top"
