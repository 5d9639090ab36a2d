#!/usr/bin/env python3
"""chainlint.py TOP: every test body's commands are joined by &&.

A test body is the string a function of tests/lib.sh evaluates
(test_expect_success PREREQ? TITLE BODY).  Inside it, each command must be
joined to the next by && (or || or |, or run in the background with &), so
that a failing step fails the test instead of being forgotten.  The checker
parses the body as POSIX shell and recurses into { ...; } groups,
( ... ) subshells, if/then/else, case arms (;; ends an arm) and loops.
Here-document bodies, comments and line continuations are no commands.

Exceptions, as a careful reader of a test would allow:
  - a command that ends the body: exit, return, continue, break;
  - the command before one that reads $? (it looks at the status itself);
  - commands before `false`, `return N` or `exit N` in the same list (the
    list fails on purpose anyway);
  - the last command of a list.
A for/while/until loop in a body must stop the test when a command in it
fails: its body needs `|| return 1` (or `|| exit 1`), since a loop's status
is that of its last iteration only.  And `a && b &` runs a as well as b in
the background (a's assignments and cd are lost): the background command
goes in { b & }.

Prints "lint: FILE:LINE: ..." lines on stderr and exits 1 on any problem,
0 when every body is chained.  Also fails when tests/lib.sh grows a function
that evaluates an argument and BODY_FUNCS below does not name it.
"""
import os
import re
import sys

# the functions of tests/lib.sh that evaluate an argument as a test body,
# each with the number of arguments before the body when a prerequisite is
# given and when it is not (the body is always the last argument)
BODY_FUNCS = {"test_expect_success": (2, 3)}

RESERVED = {"if", "then", "elif", "else", "fi", "do", "done", "case", "esac",
            "while", "until", "for", "in", "{", "}", "!"}
OPS = ["&&", "||", ";;", "<<-", "<<", ">>", "<&", ">&", "<>", ">|",
       ";", "&", "|", "(", ")", "<", ">"]
REDIRS = {"<<-", "<<", ">>", "<&", ">&", "<>", ">|", "<", ">"}
SEPS = {"&&", "||", "|", ";", "&"}


class ParseError(Exception):
    pass


class Tok:
    __slots__ = ("kind", "text", "line", "end", "subs", "pos", "stop")

    def __init__(self, kind, text, line, end=None):
        self.kind = kind  # "word", "op", "nl", "eof"
        self.text = text
        self.line = line
        self.end = end if end is not None else line
        self.subs = []  # command substitutions inside a word: lists
        self.pos = self.stop = 0  # where it is in the lexer's text

    def is_op(self, *texts):
        return self.kind == "op" and self.text in texts

    def is_word(self, *texts):
        return self.kind == "word" and self.text in texts


class Lexer:
    """POSIX shell tokens: words (quotes, $(...), `...`, ${...} kept
    inside), operators, newlines.  Comments are dropped; here-document
    bodies are skipped at the newline that follows their operator."""

    def __init__(self, text, line=1):
        self.s = text
        self.i = 0
        self.line = line
        self.heredocs = []  # (tag, strip_tabs) waiting for the next newline

    def peekc(self, k=0):
        j = self.i + k
        return self.s[j] if j < len(self.s) else ""

    def take(self):
        c = self.s[self.i]
        self.i += 1
        if c == "\n":
            self.line += 1
        return c

    def skip_heredocs(self):
        for tag, strip in self.heredocs:
            while self.i < len(self.s):
                j = self.s.find("\n", self.i)
                j = len(self.s) if j < 0 else j
                body_line = self.s[self.i:j]
                self.i = min(j + 1, len(self.s))
                self.line += 1
                if (body_line.lstrip("\t") if strip else body_line) == tag:
                    break
        self.heredocs = []

    def next(self):
        pos = self.i
        tok = self.scan()
        tok.pos = pos if tok.kind == "eof" else self.tok_start
        tok.stop = self.i if tok.kind != "nl" else tok.pos
        return tok

    def scan(self):
        while True:
            c = self.peekc()
            if c in (" ", "\t"):
                self.i += 1
            elif c == "\\" and self.peekc(1) == "\n":
                self.i += 2
                self.line += 1
            elif c == "#":
                while self.peekc() not in ("", "\n"):
                    self.i += 1
            else:
                break
        line = self.line
        self.tok_start = self.i
        c = self.peekc()
        if c == "":
            return Tok("eof", "", line)
        if c == "\n":
            self.take()
            self.skip_heredocs()
            return Tok("nl", "\n", line)
        for op in OPS:
            if self.s.startswith(op, self.i):
                self.i += len(op)
                tok = Tok("op", op, line)
                if op in ("<<", "<<-"):
                    self.heredoc_tag(op == "<<-")
                return tok
        return self.word()

    def heredoc_tag(self, strip):
        while self.peekc() in (" ", "\t"):
            self.i += 1
        start = self.i
        tag = self.word()
        # the tag word stays in the stream as the operator's target
        self.i = start
        self.line = tag.line
        self.heredocs.append((re.sub(r"[\"'\\]", "", tag.text), strip))

    def word(self):
        line = self.line
        start = self.i
        tok = Tok("word", "", line)
        while True:
            c = self.peekc()
            if c == "" or c in " \t\n;&|()<>":
                break
            if c == "'":
                self.take()
                while self.peekc() not in ("", "'"):
                    self.take()
                if self.peekc() == "":
                    raise ParseError("unterminated '")
                self.take()
            elif c == '"':
                self.take()
                self.dquoted(tok)
            else:
                self.char(tok)
        tok.text = self.s[start:self.i]
        tok.end = self.line
        if tok.text.isdigit() and self.peekc() in ("<", ">"):
            tok.kind = "io"  # 2>err: the descriptor of a redirection
        return tok

    def dquoted(self, tok):
        while True:
            c = self.peekc()
            if c == "":
                raise ParseError('unterminated "')
            if c == '"':
                self.take()
                return
            self.char(tok)

    def char(self, tok):
        """one character, or what it opens (\\x, $..., `...`), alike
        inside and outside double quotes"""
        c = self.peekc()
        if c == "\\":
            self.take()
            if self.peekc():
                self.take()
        elif c == "$":
            self.take()
            self.dollar(tok)
        elif c == "`":
            self.backquoted()
        else:
            self.take()

    def backquoted(self):
        self.take()
        while self.peekc() not in ("", "`"):
            if self.take() == "\\" and self.peekc():
                self.take()
        if self.peekc() == "":
            raise ParseError("unterminated `")
        self.take()

    def balanced(self, open_c, close_c):
        depth = 1
        while depth:
            c = self.peekc()
            if c == "":
                raise ParseError("unterminated " + open_c)
            if c == "\\":
                self.take()
            elif c == "'" and open_c == "{":
                self.take()
                while self.peekc() not in ("", "'"):
                    self.take()
            elif c == open_c:
                depth += 1
            elif c == close_c:
                depth -= 1
            self.take()

    def dollar(self, tok):
        if self.s.startswith("((", self.i):
            self.i += 2
            self.balanced("(", ")")
            if self.peekc() == ")":
                self.take()
        elif self.peekc() == "(":
            self.take()
            sub = Parser(self)
            tok.subs.append(sub.parse_list(stop_ops={")"}))
            if not sub.peek().is_op(")"):
                raise ParseError("unterminated $(")
            sub.advance()
        elif self.peekc() == "{":
            self.take()
            self.balanced("{", "}")


class Cmd:
    """One command of a list: a simple command (words), or a compound one
    with the lists inside it.  sep is what joins it to the next command
    ("&&", "||", "|", ";", "&", "\\n" or "" at the end of the list)."""

    def __init__(self, kind, line):
        self.kind = kind  # simple, group, subshell, if, loop, case, func
        self.words = []
        self.lists = []
        self.line = line
        self.end = line
        self.sep = ""


class Parser:
    def __init__(self, lexer):
        self.lx = lexer
        self.ahead = None
        self.last_stop = 0

    def peek(self):
        if self.ahead is None:
            self.ahead = self.lx.next()
        return self.ahead

    def advance(self):
        tok = self.peek()
        self.ahead = None
        if tok.kind not in ("nl", "eof"):
            self.last_stop = tok.stop
        return tok

    def expect_word(self, text):
        tok = self.advance()
        if not tok.is_word(text):
            raise ParseError("line %d: expected %s, found %r" %
                             (tok.line, text, tok.text))
        return tok

    def newlines(self):
        while self.peek().kind == "nl":
            self.advance()

    def at_stop(self, stop_words, stop_ops):
        tok = self.peek()
        return (tok.kind == "eof" or (tok.kind == "word" and tok.text in stop_words)
                or (tok.kind == "op" and tok.text in stop_ops))

    def parse_list(self, stop_words=(), stop_ops=()):
        cmds = []
        while True:
            while self.peek().kind == "nl" or self.peek().is_op(";"):
                self.advance()
            if self.at_stop(stop_words, stop_ops):
                return cmds
            cmd = self.command()
            tok = self.peek()
            if tok.kind == "op" and tok.text in SEPS:
                self.advance()
                cmd.sep = tok.text
                if tok.text in ("&&", "||", "|"):
                    self.newlines()
            elif tok.kind == "nl":
                self.advance()
                cmd.sep = "\n"
            elif not self.at_stop(stop_words, stop_ops) and not tok.is_op(";;", ")"):
                raise ParseError("line %d: unexpected %r" % (tok.line, tok.text))
            cmds.append(cmd)

    def command(self):
        start = self.peek().pos
        cmd = self.command_at()
        cmd.src = self.lx.s[start:self.last_stop]
        return cmd

    def command_at(self):
        tok = self.peek()
        if tok.is_word("!"):
            self.advance()
            cmd = self.command()
            cmd.words.insert(0, tok)
            return cmd
        compound = {"{": self.group, "if": self.if_, "while": self.loop,
                    "until": self.loop, "for": self.for_, "case": self.case}
        if tok.kind == "word" and tok.text in compound:
            self.advance()
            cmd = compound[tok.text](tok)
            return self.redirections(cmd)
        if tok.is_op("("):
            self.advance()
            cmd = Cmd("subshell", tok.line)
            cmd.lists.append(self.parse_list(stop_ops={")"}))
            self.close_op(")")
            return self.redirections(cmd)
        return self.simple()

    def close_op(self, text):
        tok = self.advance()
        if not tok.is_op(text):
            raise ParseError("line %d: expected %s, found %r" %
                             (tok.line, text, tok.text))

    def redirections(self, cmd):
        while self.peek().kind == "io" or (self.peek().kind == "op" and
                                          self.peek().text in REDIRS):
            if self.peek().kind == "io":
                self.advance()
            self.advance()
            cmd.end = self.advance().end
        return cmd

    def simple(self):
        cmd = Cmd("simple", self.peek().line)
        while True:
            tok = self.peek()
            if tok.kind in ("word", "io"):
                cmd.words.append(self.advance())
                cmd.end = tok.end
            elif tok.kind == "op" and tok.text in REDIRS:
                cmd.words.append(self.advance())
                target = self.advance()
                cmd.words.append(target)
                cmd.end = target.end
            elif tok.is_op("(") and len(cmd.words) == 1:
                self.advance()
                self.close_op(")")
                self.newlines()
                func = Cmd("func", cmd.line)
                body = self.command()
                func.words = cmd.words
                func.lists.append([body])
                func.end = body.end
                return func
            else:
                if not cmd.words:
                    raise ParseError("line %d: unexpected %r" % (tok.line, tok.text))
                return cmd

    def group(self, tok):
        cmd = Cmd("group", tok.line)
        cmd.lists.append(self.parse_list(stop_words={"}"}))
        cmd.end = self.expect_word("}").end
        return cmd

    def if_(self, tok):
        cmd = Cmd("if", tok.line)
        while True:
            cmd.lists.append(self.parse_list(stop_words={"then"}))
            self.expect_word("then")
            cmd.lists.append(self.parse_list(stop_words={"elif", "else", "fi"}))
            nxt = self.advance()
            if nxt.is_word("elif"):
                continue
            if nxt.is_word("else"):
                cmd.lists.append(self.parse_list(stop_words={"fi"}))
                nxt = self.expect_word("fi")
            if not nxt.is_word("fi"):
                raise ParseError("line %d: expected fi" % nxt.line)
            cmd.end = nxt.end
            return cmd

    def loop_body(self, cmd):
        self.newlines()
        self.expect_word("do")
        body = self.parse_list(stop_words={"done"})
        cmd.end = self.expect_word("done").end
        cmd.lists.append(body)
        cmd.body = body
        return cmd

    def loop(self, tok):
        cmd = Cmd("loop", tok.line)
        cmd.lists.append(self.parse_list(stop_words={"do"}))
        return self.loop_body(cmd)

    def for_(self, tok):
        cmd = Cmd("loop", tok.line)
        cmd.words.append(self.advance())  # the variable
        self.newlines()
        if self.peek().is_word("in"):
            self.advance()
            while self.peek().kind == "word":
                cmd.words.append(self.advance())
        if self.peek().is_op(";"):
            self.advance()
        return self.loop_body(cmd)

    def case(self, tok):
        cmd = Cmd("case", tok.line)
        cmd.words.append(self.advance())  # the subject
        self.newlines()
        self.expect_word("in")
        self.newlines()
        while not self.peek().is_word("esac"):
            if self.peek().kind == "eof":
                raise ParseError("line %d: case without esac" % tok.line)
            if self.peek().is_op("("):
                self.advance()
            while not self.peek().is_op(")"):
                if self.peek().kind == "eof":
                    raise ParseError("line %d: unterminated case pattern" % tok.line)
                self.advance()
            self.advance()
            cmd.lists.append(self.parse_list(stop_words={"esac"}, stop_ops={";;"}))
            if self.peek().is_op(";;"):
                self.advance()
            self.newlines()
        cmd.end = self.advance().end
        return cmd


def words_of(cmds):
    """every word of the commands, at any depth"""
    for cmd in cmds:
        yield from cmd.words
        for inner in cmd.lists:
            yield from words_of(inner)
        for w in cmd.words:
            for sub in w.subs:
                yield from words_of(sub)


def commands_of(cmds):
    for cmd in cmds:
        yield cmd
        for inner in cmd.lists:
            yield from commands_of(inner)


def name_of(cmd):
    words = [w.text for w in cmd.words if w.text != "!"]
    return words[0] if words and cmd.kind == "simple" else ""


def reads_status(cmd):
    return any("$?" in w.text for w in words_of([cmd]))


def shown(cmd):
    text = " ".join(cmd.src.replace("\\\n", " ").split())
    return text if len(text) <= 60 else text[:57] + "..."


def check_list(cmds, problems):
    mine = []
    for i, cmd in enumerate(cmds):
        for inner in cmd.lists:
            check_list(inner, problems)
        for w in cmd.words:
            for sub in w.subs:
                check_list(sub, problems)
        if cmd.kind == "loop" and not any(
                name_of(c) in ("return", "exit") for c in commands_of(cmd.body)) \
                and not any("$?" in w.text for w in words_of(cmd.body)):
            problems.append((cmd.line, "a failure inside this loop is lost: "
                             "end its body with || return 1"))
        if cmd.sep == "&" and i and cmds[i - 1].sep in ("&&", "||"):
            problems.append((cmd.end, "'&' sends the whole && chain before "
                             "'%s' to the background: write { ... & }" % shown(cmd)))
        if i == len(cmds) - 1:
            continue
        nxt = cmds[i + 1]
        if name_of(nxt) in ("false", "return", "exit"):
            mine = []
            continue
        if cmd.sep in ("&&", "||", "|", "&") or reads_status(nxt):
            continue
        if name_of(cmd) in ("exit", "return", "continue", "break"):
            continue
        mine.append((cmd.end, "no && after '%s'" % shown(cmd)))
    problems.extend(mine)


def unwrap(text):
    """the value of a shell word, as the body's eval sees it ($... kept;
    a line continuation kept so that line numbers stay right)"""
    out = []
    i = 0
    quote = None
    while i < len(text):
        c = text[i]
        if quote == "'":
            if c == "'":
                quote = None
            else:
                out.append(c)
        elif quote == '"':
            if c == '"':
                quote = None
            elif c == "\\" and i + 1 < len(text) and text[i + 1] in '$`"\\\n':
                i += 1
                out.append("\\\n" if text[i] == "\n" else text[i])
            else:
                out.append(c)
        elif c in "'\"":
            quote = c
        elif c == "\\" and i + 1 < len(text):
            i += 1
            out.append("\\\n" if text[i] == "\n" else text[i])
        else:
            out.append(c)
        i += 1
    return "".join(out)


def check_body(path, title_tok, body_tok, out):
    body = unwrap(body_tok.text)
    title = unwrap(title_tok.text)
    try:
        lexer = Lexer(body, body_tok.line)
        parser = Parser(lexer)
        cmds = parser.parse_list()
        if parser.peek().kind != "eof":
            raise ParseError("line %d: unexpected %r" % (parser.peek().line,
                                                          parser.peek().text))
    except ParseError as e:
        out.append("lint: %s:%d: test '%s': cannot parse the body (%s)" %
                   (path, body_tok.line, title, e))
        return
    problems = []
    check_list(cmds, problems)
    for line, what in sorted(problems):
        out.append("lint: %s:%d: test '%s': %s" % (path, line, title, what))


def check_script(path, shown_path, out):
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    try:
        cmds = Parser(Lexer(text)).parse_list()
    except ParseError as e:
        out.append("lint: %s: cannot parse the script (%s)" % (shown_path, e))
        return 0
    count = 0
    for cmd in commands_of(cmds):
        name = name_of(cmd)
        if name not in BODY_FUNCS:
            continue
        args = [w for w in cmd.words[1:]]
        if len(args) not in BODY_FUNCS[name]:
            out.append("lint: %s:%d: %s takes %s arguments, not %d" %
                       (shown_path, cmd.line, name,
                        " or ".join(map(str, BODY_FUNCS[name])), len(args)))
            continue
        check_body(shown_path, args[-2], args[-1], out)
        count += 1
    return count


def check_lib(top, out):
    """every function of tests/lib.sh that evals one of its arguments is
    known here, or its bodies would go unchecked"""
    lib = os.path.join(top, "tests", "lib.sh")
    if not os.path.exists(lib):
        return
    func = None
    with open(lib, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            m = re.match(r"^([A-Za-z_][A-Za-z_0-9]*)\(\)", line)
            if m:
                func = m.group(1)
            if re.search(r"\beval\b[^#]*\"\$", line) and func not in BODY_FUNCS:
                out.append("lint: tests/lib.sh:%d: %s evaluates an argument; "
                           "add it to BODY_FUNCS in mk/lint/chainlint.py" % (n, func))


def main():
    top = sys.argv[1] if len(sys.argv) > 1 else "."
    out = []
    check_lib(top, out)
    scripts = []
    for sub in ("tests/e2e", "tests/golden"):
        d = os.path.join(top, sub)
        if os.path.isdir(d):
            scripts += sorted(os.path.join(sub, f) for f in os.listdir(d)
                              if f.endswith(".sh"))
    for rel in scripts:
        check_script(os.path.join(top, rel), rel, out)
    if out:
        print("\n".join(out), file=sys.stderr)
        print("lint: broken && chains in test bodies: join each command to "
              "the next with && (a loop: end its body with || return 1)",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
