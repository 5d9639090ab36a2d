#!/bin/sh
# finding-levels.sh - a finding's severity is the one of the table of
# findings (src/base/findings.c, docs/design/findings.md): every
# diag_add() that names a finding ID as a literal passes the level that
# table gives it.  The rules and drift take it from the table already;
# this keeps every other module from saying "error" where the catalogue,
# the --help lists and SARIF say "warning".
# Usage: sh mk/lint/finding-levels.sh [top]   (run from the top of the tree)
top=${1:-.}
cd "$top" || exit 2
[ -f src/base/findings.c ] || exit 0
python3 - <<\PY
import glob, re, sys
table = {}
for m in re.finditer(r'ROW\("(GS\d+)",\s*(DIAG_\w+)', open("src/base/findings.c").read()):
    table[m.group(1)] = m.group(2)
call = re.compile(r'diag_add\(\s*[^,()]+,\s*(DIAG_\w+)\s*,\s*[^,]+,\s*"(GS\d+)"')
bad = 0
for path in sorted(glob.glob("src/**/*.c", recursive=True)):
    text = open(path).read()
    for m in call.finditer(text):
        level, rid = m.group(1), m.group(2)
        if rid in table and table[rid] != level:
            line = text.count("\n", 0, m.start()) + 1
            print("%s:%d: %s reported as %s, the table of findings says %s"
                  % (path, line, rid, level, table[rid]), file=sys.stderr)
            bad += 1
if bad:
    print("finding-levels: pass the level of src/base/findings.c (findings_find(ID)->level)",
          file=sys.stderr)
sys.exit(1 if bad else 0)
PY
