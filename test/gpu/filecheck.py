#!/usr/bin/env python3
"""A small FileCheck for machines without LLVM (the GPU bundle).

Usage: filecheck.py [--check-prefix=P] TEST_FILE < output

Reads the directives of TEST_FILE and matches them against standard input
as LLVM's FileCheck does (with --enable-var-scope, as lit.cfg.py sets):

  P:        the pattern, after the previous match
  P-NEXT:   on the line after the previous match's line
  P-SAME:   on the previous match's line, after it
  P-EMPTY:  the line after the previous match's line is empty
  P-NOT:    not between the previous match and the next one
  P-DAG:    a run of DAG directives matches in any order (no overlaps)
  P-LABEL:  cuts the input into blocks first; the directives after a label
            match within its block; local variables end at each label
  P-COUNT-N: N matches in a row

Patterns are literal text with {{regex}} parts, [[NAME:regex]] variable
definitions and [[NAME]] uses; runs of spaces or tabs match any run of
horizontal whitespace. Anything else that looks like a directive of the
prefix (a misspelled suffix, numeric [[#...]] or [[@LINE]] expressions,
an empty pattern), and a file with no directives, is an error: the check
fails rather than passing without checking.
"""
import re
import sys

SUFFIXES = ("", "-NEXT", "-SAME", "-EMPTY", "-NOT", "-DAG", "-LABEL")


class CheckError(Exception):
    pass


class Directive:
    def __init__(self, kind, text, line, count=1):
        self.kind, self.text, self.line, self.count = kind, text, line, count

    def describe(self):
        return "%s: %s (test line %d)" % (self.kind or "CHECK", self.text, self.line)


def parse(lines, prefix):
    """The directives of a test file, in order."""
    directives = []
    found = re.compile(r"(?<![A-Za-z0-9_-])%s(-[A-Za-z0-9-]*)?\s*:(.*)$" % re.escape(prefix))
    for number, line in enumerate(lines, 1):
        match = found.search(line)
        if not match:
            continue
        suffix, text = match.group(1) or "", match.group(2).strip()
        count = 1
        counted = re.fullmatch(r"-COUNT-([0-9]+)", suffix)
        if counted:
            count, suffix = int(counted.group(1)), "-COUNT"
            if count < 1:
                raise CheckError("line %d: %s-COUNT needs a count of at least 1" % (number, prefix))
        elif suffix not in SUFFIXES:
            raise CheckError("line %d: unsupported directive %s%s:" % (number, prefix, suffix))
        if not text and suffix != "-EMPTY":
            raise CheckError("line %d: empty pattern in %s%s:" % (number, prefix, suffix))
        if suffix == "-EMPTY" and text:
            raise CheckError("line %d: %s-EMPTY takes no pattern" % (number, prefix))
        directives.append(Directive(suffix.lstrip("-"), text, number, count))
    return directives


def compile_pattern(text, variables):
    """A regex for a pattern; returns (regex, names of the variables it defines)."""
    out, defined = [], []
    position = 0
    token = re.compile(r"\{\{(.*?)\}\}|\[\[(.*?)\]\]")
    for match in token.finditer(text):
        out.append(literal(text[position:match.start()]))
        position = match.end()
        if match.group(1) is not None:
            out.append("(?:%s)" % match.group(1))
            continue
        body = match.group(2)
        if body.startswith("#") or body.startswith("@"):
            raise CheckError("unsupported expression [[%s]]" % body)
        definition = re.fullmatch(r"(\$?[A-Za-z_][A-Za-z0-9_]*):(.*)", body, re.S)
        if definition:
            name, regex = definition.groups()
            group = "v%d_%s" % (len(defined), name.lstrip("$"))
            defined.append((name, group))
            out.append("(?P<%s>%s)" % (group, regex))
            continue
        if not re.fullmatch(r"\$?[A-Za-z_][A-Za-z0-9_]*", body):
            raise CheckError("malformed variable use [[%s]]" % body)
        earlier = [g for n, g in defined if n == body]
        if earlier:
            out.append("(?P=%s)" % earlier[-1])
        elif body in variables:
            out.append(re.escape(variables[body]))
        else:
            raise CheckError("undefined variable [[%s]]" % body)
    out.append(literal(text[position:]))
    try:
        return re.compile("".join(out)), defined
    except re.error as error:
        raise CheckError("bad regex in %r: %s" % (text, error))


def literal(text):
    return "[ \t]+".join(re.escape(part) for part in re.split(r"[ \t]+", text))


class Matcher:
    def __init__(self, text):
        self.text = text
        self.variables = {}

    def line_of(self, offset):
        return self.text.count("\n", 0, offset)

    def line_start(self, number):
        """Offset of the start of line `number` (0-based), or None."""
        offset = 0
        for _ in range(number):
            offset = self.text.find("\n", offset)
            if offset < 0:
                return None
            offset += 1
        return offset

    def search(self, directive, start, end):
        regex, defined = compile_pattern(directive.text, self.variables)
        match = regex.search(self.text, start, end)
        # A match never spans lines.
        while match and "\n" in match.group(0):
            match = regex.search(self.text, match.start() + 1, end)
        return match, defined

    def bind(self, match, defined):
        for name, group in defined:
            self.variables[name] = match.group(group)

    def fail(self, directive, start, why="no match"):
        raise CheckError("%s for %s after input line %d" % (
            why, directive.describe(), self.line_of(start) + 1))

    def block(self, directives, start, end):
        """Matches directives within text[start:end]; returns the end."""
        position = start
        last_line_start = start  # start of the previous match (for SAME/NEXT)
        pending_not = []
        index = 0
        while index < len(directives):
            directive = directives[index]
            if directive.kind == "NOT":
                pending_not.append(directive)
                index += 1
                continue
            if directive.kind == "DAG":
                group = []
                while index < len(directives) and directives[index].kind == "DAG":
                    group.append(directives[index])
                    index += 1
                spans = []
                for dag in group:
                    search_from = position
                    while True:
                        match, defined = self.search(dag, search_from, end)
                        if not match:
                            self.fail(dag, position)
                        if not any(match.start() < e and s < match.end() for s, e in spans):
                            break
                        search_from = match.start() + 1
                    self.bind(match, defined)
                    spans.append((match.start(), match.end()))
                first = min(s for s, _ in spans)
                self.check_not(pending_not, position, first)
                pending_not = []
                position = max(e for _, e in spans)
                last_line_start = position
                continue
            if directive.kind == "NEXT" or directive.kind == "EMPTY":
                line = self.line_of(last_line_start) + 1
                lo = self.line_start(line)
                if lo is None or lo > end:
                    self.fail(directive, position, "no next line")
                hi = self.text.find("\n", lo)
                hi = len(self.text) if hi < 0 else hi
                if directive.kind == "EMPTY":
                    if hi != lo:
                        self.fail(directive, position, "next line is not empty")
                    self.check_not(pending_not, position, lo)
                    pending_not = []
                    position = last_line_start = hi
                    index += 1
                    continue
                match, defined = self.search(directive, lo, min(hi, end))
            elif directive.kind == "SAME":
                hi = self.text.find("\n", position)
                hi = len(self.text) if hi < 0 else hi
                match, defined = self.search(directive, position, min(hi, end))
            else:  # CHECK, COUNT (LABELs are handled by check())
                match, defined = self.search(directive, position, end)
            if not match:
                self.fail(directive, position)
            self.check_not(pending_not, position, match.start())
            pending_not = []
            self.bind(match, defined)
            position = last_line_start = match.end()
            if directive.kind == "COUNT":
                for _ in range(directive.count - 1):
                    match, defined = self.search(directive, position, end)
                    if not match:
                        self.fail(directive, position, "fewer than %d matches" % directive.count)
                    self.bind(match, defined)
                    position = last_line_start = match.end()
            index += 1
        self.check_not(pending_not, position, end)
        return position

    def check_not(self, directives, start, end):
        for directive in directives:
            match, _ = self.search(directive, start, end)
            if match:
                raise CheckError("%s matched input line %d: %r" % (
                    directive.describe(), self.line_of(match.start()) + 1,
                    self.text[match.start():match.end()]))


def check(directives, text):
    if not directives:
        raise CheckError("no check directives")
    matcher = Matcher(text)
    # Labels first: each cuts the input where it matches.
    labels, position = [], 0
    for index, directive in enumerate(directives):
        if directive.kind == "LABEL":
            match, defined = matcher.search(directive, position, len(text))
            if not match:
                matcher.fail(directive, position)
            matcher.bind(match, defined)
            labels.append((index, match, defined))
            position = match.end()
    if not labels:
        matcher.block(directives, 0, len(text))
        return
    if labels[0][0] > 0:
        matcher.block(directives[:labels[0][0]], 0, labels[0][1].start())
    for number, (index, match, defined) in enumerate(labels):
        # --enable-var-scope: variables not starting with $ end at a label.
        matcher.variables = {k: v for k, v in matcher.variables.items() if k.startswith("$")}
        matcher.bind(match, defined)
        following = labels[number + 1] if number + 1 < len(labels) else None
        end = following[1].start() if following else len(text)
        stop = following[0] if following else len(directives)
        matcher.block(directives[index + 1:stop], match.end(), end)


def main(argv):
    prefix = "CHECK"
    args = []
    for arg in argv:
        if arg.startswith("--check-prefix="):
            prefix = arg.split("=", 1)[1]
        else:
            args.append(arg)
    if len(args) != 1:
        sys.stderr.write("usage: filecheck.py [--check-prefix=P] TEST_FILE < output\n")
        return 2
    path = args[0]
    try:
        with open(path) as f:
            directives = parse(f.read().splitlines(), prefix)
        check(directives, sys.stdin.read())
    except CheckError as error:
        sys.stderr.write("%s: error: %s\n" % (path, error))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
