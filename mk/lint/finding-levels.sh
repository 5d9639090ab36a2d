#!/bin/sh
# finding-levels.sh - a finding's level is the table's (src/base/findings.c,
# docs/design/findings.md).  Callers name the finding; diag_report() takes
# its level from the table, and so do the reporters built on it
# (rule_report, check_report, drift_finding, drill plan's finding).  Over
# every C file of src/, this fails on:
#   - a call of diag_add()/diag_vadd() (they take a level) outside
#     src/base/diag.c: report with diag_report(), copy with diag_copy();
#   - a reporting call that passes a level (DIAG_ERROR, ...) anyway;
#   - a reporting call whose ID, a literal or a #define'd name (resolved
#     through the #defines of src/, a name defined as another name
#     included), has no row in the table, or is a name defined nowhere.
# An ID held in a variable is the caller's caller's: test_catalogue checks
# at run time that every ID reported has its row.
# Usage: sh mk/lint/finding-levels.sh [top]   (run from the top of the tree)
top=${1:-.}
cd "$top" || exit 2
[ -f src/base/findings.c ] || exit 0
python3 - <<\PY
import glob, re, sys

table = {}
for m in re.finditer(r'ROW\("(GS\d+)",\s*(DIAG_\w+)', open("src/base/findings.c").read()):
    table[m.group(1)] = m.group(2)

macros = {}
files = sorted(glob.glob("src/**/*.[ch]", recursive=True))
for path in files:
    text = re.sub(r"\\\n", " ", open(path).read())
    for m in re.finditer(r'^[ \t]*#[ \t]*define[ \t]+(\w+)[ \t]+("GS\d+"|[A-Z_][A-Z0-9_]*(?!\w))',
                         text, re.M):
        macros.setdefault(m.group(1), m.group(2))

# reporter -> index of its ID argument
REPORTERS = {"diag_report": 2, "diag_vreport": 2, "check_report": 1, "drift_finding": 2,
             "rule_report": None, "finding": 3}
LEVELS = re.compile(r"\bDIAG_(ERROR|WARNING|NOTE)\b")
CALL = re.compile(r"\b(diag_v?add|diag_v?report|check_report|drift_finding|rule_report|finding)\s*\(")


def arguments(text, i):
    """text[i] is '('; the call's arguments as text, or None."""
    depth, j, start, out = 0, i, i + 1, []
    while j < len(text):
        c = text[j]
        if c in "\"'":
            k = j + 1
            while k < len(text) and text[k] != c:
                k += 2 if text[k] == "\\" else 1
            j = k + 1
            continue
        if text.startswith("/*", j):
            e = text.find("*/", j)
            j = len(text) if e < 0 else e + 2
            continue
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
            if depth == 0:
                out.append(text[start:j].strip())
                return out
        elif c == "," and depth == 1:
            out.append(text[start:j].strip())
            start = j + 1
        j += 1
    return None


def resolve(name):
    seen = set()
    while name in macros and name not in seen:
        seen.add(name)
        name = macros[name]
    return name


def strip_comments(text):
    # keep the line count: a comment becomes blanks and its newlines
    return re.sub(r"/\*.*?\*/", lambda m: re.sub(r"[^\n]", " ", m.group(0)), text, flags=re.S)


bad = 0
for path in files:
    if not path.endswith(".c"):
        continue
    text = strip_comments(open(path).read())
    for m in CALL.finditer(text):
        name = m.group(1)
        line = text.count("\n", 0, m.start()) + 1
        if text[m.start() - 1:m.start()] in (".", ">"):
            continue  # a member of that name
        args = arguments(text, m.end() - 1)
        if args is None:
            continue
        if name in ("diag_add", "diag_vadd"):
            if path != "src/base/diag.c":
                print("%s:%d: %s() passes a level: report with diag_report() (the table's "
                      "level) or copy with diag_copy()" % (path, line, name), file=sys.stderr)
                bad += 1
            continue
        if any(LEVELS.fullmatch(a) for a in args):
            print("%s:%d: %s() passes a level: the level is the table of findings'"
                  % (path, line, name), file=sys.stderr)
            bad += 1
            continue
        k = REPORTERS[name]
        if k is None or len(args) <= k:
            continue
        rid = args[k]
        if re.fullmatch(r'"[^"]*"', rid):
            got = rid.strip('"')
        elif re.fullmatch(r"[A-Z][A-Z0-9_]*", rid):
            got = resolve(rid).strip('"')
            if not re.fullmatch(r"GS\d+", got):
                print("%s:%d: %s() reports %s, which no #define of src/ names as an ID"
                      % (path, line, name, rid), file=sys.stderr)
                bad += 1
                continue
        else:
            continue  # a variable: checked at run time (test_catalogue)
        if got not in table:
            print("%s:%d: %s() reports %s%s, which has no row in src/base/findings.c"
                  % (path, line, name, got, "" if rid == '"%s"' % got else " (" + rid + ")"),
                  file=sys.stderr)
            bad += 1
if bad:
    print("finding-levels: callers name the finding, the level is its row's in "
          "src/base/findings.c (a condition with two levels has two IDs)", file=sys.stderr)
sys.exit(1 if bad else 0)
PY
