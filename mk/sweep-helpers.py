#!/usr/bin/env python3
"""sweep-helpers.py [--write] [FILE...]: convert hand-written copies to the
base helpers (default: every .c/.h under src/).

  - the growth block
        if (COUNT == CAP) {            (or >=)
                size_t N = CAP ? CAP * 2 : MIN;

                PTR = arena_realloc(A, PTR, CAP * sizeof(*PTR),
                                    N * sizeof(*PTR));
                CAP = N;
        }
    becomes ARENA_GROW(A, PTR, COUNT, CAP, MIN);  (base/arena.h)
  - `struct pos x = { NULL, 0, 0 };` and `= { 0 }` become `= POS_NONE;`,
    `(struct pos){ 0 }` and `(struct pos){ NULL, 0, 0 }` become
    `(struct pos)POS_NONE`  (base/diag.h)

Without --write it prints a unified diff and changes nothing.  It then
lists, for review by hand, the growth blocks of other shapes and the
UTF-8 continuation-byte loops (candidates for utf8_length()).
"""
import difflib
import os
import re
import sys

ID = r'[A-Za-z_][A-Za-z0-9_]*(?:(?:->|\.)[A-Za-z_][A-Za-z0-9_]*)*'
GROW = re.compile(
    r'(?P<ind>[ \t]*)if \((?P<count>' + ID + r') (?:==|>=) (?P<cap>' + ID + r')\) \{\n'
    r'[ \t]*size_t (?P<n>[a-z_]+) = (?P=cap) \? (?P=cap) \* 2 : (?P<min>[0-9]+);\n'
    r'\n'
    r'[ \t]*(?P<ptr>' + ID + r') = arena_realloc\((?P<a>[^,]+), (?P=ptr),\s*'
    r'(?P=cap) \* sizeof\(\*(?P=ptr)\),\s*'
    r'(?P=n) \* sizeof\(\*(?P=ptr)\)\);\n'
    r'[ \t]*(?P=cap) = (?P=n);\n'
    r'(?P=ind)\}\n')
POS_DECL = re.compile(r'(struct pos [A-Za-z_][A-Za-z0-9_]* = )\{ *(?:NULL, *0, *0|0) *\};')
POS_LIT = re.compile(r'\(struct pos\)\{ *(?:NULL, *0, *0|0) *\}')
OTHER_GROW = re.compile(r'\? *[A-Za-z_>.-]+ \* 2 : [0-9]+')
UTF8_LOOP = re.compile(r'& 0x[cC]0\) [!=]= 0x80')


def convert(text):
    text = GROW.sub(lambda m: '%sARENA_GROW(%s, %s, %s, %s, %s);\n' % (
        m['ind'], m['a'].strip(), m['ptr'], m['count'], m['cap'], m['min']), text)
    text = POS_DECL.sub(r'\1POS_NONE;', text)
    text = POS_LIT.sub('(struct pos)POS_NONE', text)
    return text


def sources(args):
    if args:
        return args
    out = []
    for root, _, files in os.walk('src'):
        out += [os.path.join(root, f) for f in files if f.endswith(('.c', '.h'))]
    return sorted(out)


def main():
    args = sys.argv[1:]
    write = '--write' in args
    args = [a for a in args if a != '--write']
    changed = 0
    review = []
    for path in sources(args):
        with open(path, encoding='utf-8') as f:
            old = f.read()
        new = convert(old)
        if new != old:
            changed += 1
            if write:
                with open(path, 'w', encoding='utf-8') as f:
                    f.write(new)
            else:
                sys.stdout.writelines(difflib.unified_diff(
                    old.splitlines(True), new.splitlines(True), 'a/' + path, 'b/' + path))
        for no, line in enumerate(new.splitlines(), 1):
            if OTHER_GROW.search(line) or UTF8_LOOP.search(line):
                review.append('%s:%d: %s' % (path, no, line.strip()))
    print('# %d file(s) %s' % (changed, 'changed' if write else 'would change'),
          file=sys.stderr)
    if review:
        print('# review by hand (other growth shapes, UTF-8 length loops):', file=sys.stderr)
        for r in review:
            print('#   ' + r, file=sys.stderr)


if __name__ == '__main__':
    main()
