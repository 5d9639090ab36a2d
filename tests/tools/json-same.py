#!/usr/bin/env python3
"""json-same.py DIR_A DIR_B [NAME...]: whether each NAME (default: every
*.json file of DIR_A) holds the same JSON value in DIR_A and in DIR_B, all
in one process (a python start per pair of files is most of a policy
test's time).  One line per NAME on stdout, "same NAME", "differs NAME" or
"missing NAME" (not a JSON file in one of the two; the reason on stderr).
Exit 0 when every NAME is the same, 1 otherwise, 2 on bad usage.
"""
import json
import os
import sys


def load(path):
    with open(path) as f:
        return json.load(f)


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    a_dir, b_dir = sys.argv[1], sys.argv[2]
    names = sys.argv[3:] or sorted(n for n in os.listdir(a_dir) if n.endswith(".json"))
    if not names:
        print(f"json-same.py: no JSON file in {a_dir}", file=sys.stderr)
        return 1
    rc = 0
    for name in names:
        try:
            same = load(os.path.join(a_dir, name)) == load(os.path.join(b_dir, name))
            verdict = "same" if same else "differs"
        except (OSError, ValueError) as e:
            print(f"json-same.py: {name}: {e}", file=sys.stderr)
            verdict = "missing"
        print(verdict, name)
        if verdict != "same":
            rc = 1
    return rc


if __name__ == "__main__":
    sys.exit(main())
