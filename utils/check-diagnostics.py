#!/usr/bin/env python3
"""Every diagnostic a TirX user can see must have a test that expects it.

Lists the messages the TirX sources can produce -- MLIR diagnostics
(emitError, emitOpError, emitWarning, notifyMatchFailure, parser errors), the
layout library's and the PTX spelling parser's errors, the C API's and the
runtime's error strings, the tools' one-line errors, and the Python package's
raises -- and fails if one of them is not expected by any test.

A message is the text of its string literals; the parts computed at run time
(values, types, forwarded errors) split it into fragments. It counts as
tested when one test expectation contains all its fragments, in order (a
message that picks one of several texts, `c ? "a" : "b"`, needs its longest
fragment): an
`expected-error {{...}}` / FileCheck line (not -NOT) in test/, a string in
a Python test, or a string inside an EXPECT_*/ASSERT_* statement of
unittests/. A call whose text is entirely computed (`emitOpError() <<
toString(error)`) only forwards a message catalogued where it is created.

Usage: utils/check-diagnostics.py [SOURCE_ROOT] [--list]
Exit code 1 (and a list of the untested messages with their source lines)
when a message has no test.
"""

import argparse
import pathlib
import re
import sys

# Calls that start a user-visible message, by the language of the source.
CXX_DIAGNOSTIC_CALL = re.compile(
    r"(?<![\w.:])(?:[\w.>-]*(?:\.|->))?"
    r"(emitError|emitOpError|emitWarning|emitRemark|notifyMatchFailure|"
    r"emitOperandError|makeError|error|errorAt|fail|internalError|"
    r"createStringError|setError|reportError|addDiagnostic)\s*\(")
# A definition, not a call: `llvm::Error makeError(const Twine &message)`.
CXX_DEFINITION = re.compile(
    r"(?:Error|Diagnostic|LogicalResult|void|TirxStatus|auto|static)\s*[&*]?\s*"
    r"(?:\w+::)*\w+\s*\($")
PY_RAISE = re.compile(r"\braise\s+\w+(?:\.\w+)*\s*\(")

# Sources whose messages reach users.
CXX_SOURCES = ["lib", "tools", "include/TirX"]
PY_SOURCES = ["python/tirx"]
# Where tests live.
TEST_DIRS = ["test", "unittests", "fuzz/regressions"]

# The text between the start of a call and the `;` (C++) or the end of the
# raise (Python) that closes it.
def statement_end(text, start, language):
    depth = 0
    i = start
    while i < len(text):
        c = text[i]
        if c in "\"'":
            i = skip_string(text, i)
            continue
        if language == "c++" and text.startswith("//", i):
            i = text.index("\n", i)
            continue
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
            if depth == 0 and language == "python":
                return i + 1
            if depth < 0:
                return i
        elif c == ";" and depth == 0 and language == "c++":
            return i
        elif c == "," and depth == 0 and language == "c++":
            return i  # `return parser.emitError(...), Type();`
        i += 1
    return len(text)


def skip_string(text, i):
    quote = text[i]
    if text.startswith(quote * 3, i):  # Python triple quotes
        end = text.find(quote * 3, i + 3)
        return len(text) if end < 0 else end + 3
    if quote == "'" and i > 0 and (text[i - 1].isalnum()):
        return i + 1  # a C++14 digit separator, not a character literal
    i += 1
    while i < len(text) and text[i] != quote:
        i += 2 if text[i] == "\\" else 1
    return i + 1


STRING = re.compile(r"""(?P<prefix>\b[rRbBfFuU]{0,2})?(?P<quote>"|')(?P<body>(?:\\.|(?!(?P=quote)).)*)(?P=quote)""")
SPACES = re.compile(r"\s+")


def unescape(body):
    return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)), body)


def fragments(statement, language):
    """The literal parts of a message, split where run-time text goes."""
    parts, current, last_end = [], "", 0
    for match in STRING.finditer(statement):
        if language == "c++" and match.group("quote") == "'":
            between = statement[last_end:match.start()]
            # A character literal is a (one-character) fragment of its own.
            current, last_end = flush(parts, current, between), match.end()
            parts.append(unescape(match.group("body")))
            continue
        between = statement[last_end:match.start()]
        if statement.startswith("[", match.end()):
            # "xyz"[index]: one character chosen at run time.
            current, last_end = flush(parts, current, between + "x"), match.end()
            continue
        current = flush(parts, current, between)
        body = unescape(match.group("body"))
        # %-formats, f-string and formatv fields are run-time text.
        pieces = re.split(r"%[-#0-9.]*[sdrxfig]|\{[^}]*\}", body)
        current += pieces[0]
        for piece in pieces[1:]:
            parts.append(current)
            current = piece
        last_end = match.end()
    flush(parts, current, "x")
    return [p for p in parts if p]


def flush(parts, current, between):
    """Adjacent literals join; anything else between them ends a fragment."""
    if between.strip() in ("", "<<", "+"):
        return current
    if current:
        parts.append(current)
    return ""


def key_of(parts):
    """The fragments with words in them, trimmed of punctuation at their
    ends, in order; None when there is none."""
    cleaned = [SPACES.sub(" ", p).strip(" '\"`:;,.()#@") for p in parts]
    cleaned = tuple(c for c in cleaned if sum(ch.isalpha() for ch in c) >= 3)
    return cleaned or None


def expects(text, key):
    """Whether an expectation contains every fragment of `key`, in order."""
    position = 0
    for fragment in key:
        position = text.find(fragment, position)
        if position < 0:
            return False
        position += len(fragment)
    return True


# Guards of invariants no input can break (a comment line
# `// check-diagnostics: internal, <why>` (`#` in Python) at most 3 lines
# above the call): listed, not required to have a test; the fuzzers look for
# inputs that reach them.
INTERNAL_MARK = "check-diagnostics: internal"


class Message:
    def __init__(self, path, line, key, text, alternatives=False):
        self.path, self.line, self.key, self.text = path, line, key, text
        # A conditional picks one of several texts: then the longest
        # fragment is what a test must expect.
        if alternatives:
            self.key = (max(key, key=len),)


def has_alternatives(statement, language):
    """Whether a message chooses between texts (`c ? "a" : "b"`)."""
    code = STRING.sub('""', statement)
    if language == "c++":
        return "?" in code
    return re.search(r"\bif\b[^\n]*\belse\b", code) is not None


def line_of(text, offset):
    return text.count("\n", 0, offset) + 1


class Catalog:
    """The messages of the sources, and the calls that are not messages."""

    def __init__(self):
        self.messages = {"c++": [], "python": []}
        self.forwarded = 0       # calls whose text is all computed
        self.internal = []       # "path:line" of internal-invariant guards
        self.match_failures = 0  # notifyMatchFailure reasons (-debug only)

    def add(self, path, text, start, statement_start, language):
        """The call at `start`, whose argument list begins at
        `statement_start`."""
        line_start = text.rfind("\n", 0, start) + 1
        site = "%s:%d" % (path, line_of(text, start))
        if any(INTERNAL_MARK in line for line in text[:line_start].splitlines()[-3:]):
            self.internal.append(site)
            return
        statement = text[statement_start:statement_end(text, statement_start, language)]
        if language == "python":
            # `"format" % (values...)`: the values are run-time text.
            statement = re.split(r"\s%\s", statement, maxsplit=1)[0]
        parts = fragments(statement, language)
        key = key_of(parts)
        if key is None:
            self.forwarded += 1
            return
        self.messages[language].append(Message(
            path, line_of(text, start), key, "<...>".join(parts),
            has_alternatives(statement, language)))

    def add_cxx(self, root):
        for directory in CXX_SOURCES:
            for path in sorted((root / directory).rglob("*")):
                if path.suffix not in (".cpp", ".h") or ".inc" in path.name:
                    continue
                text = path.read_text()
                for match in CXX_DIAGNOSTIC_CALL.finditer(text):
                    line_start = text.rfind("\n", 0, match.start()) + 1
                    prefix = text[line_start:match.end()]
                    if prefix.lstrip().startswith(("//", "*", "///")):
                        continue
                    if CXX_DEFINITION.search(prefix.rstrip()[:-1].rstrip() + "("):
                        continue
                    if match.group(1) == "notifyMatchFailure":
                        # Seen only with -debug, which release LLVM lacks.
                        self.match_failures += 1
                        continue
                    self.add(path.relative_to(root), text, match.start(),
                             match.end() - 1, "c++")

    def add_python(self, root):
        for directory in PY_SOURCES:
            for path in sorted((root / directory).rglob("*.py")):
                text = path.read_text()
                for match in PY_RAISE.finditer(text):
                    self.add(path.relative_to(root), text, match.start(),
                             match.end() - 1, "python")


# FileCheck directives that expect text (not -NOT, which forbids it).
CHECK_LINE = re.compile(r"\b[A-Z][A-Z0-9_-]*?(?:-NEXT|-SAME|-DAG|-LABEL|-EMPTY|-COUNT-\d+)?:(?P<text>.*)$")
EXPECTED = re.compile(r"expected-(?:error|warning|remark|note)[^{]*\{\{(?P<text>.*)\}\}")


def expectations(root):
    """(expected text, test file) pairs from every test."""
    found = []
    for directory in TEST_DIRS:
        base = root / directory
        if not base.exists():
            continue
        for path in sorted(base.rglob("*")):
            if not path.is_file():
                continue
            relative = path.relative_to(root)
            if path.suffix in (".mlir", ".test", ".ll", ".txt"):
                for line in path.read_text(errors="replace").splitlines():
                    if "-NOT:" in line:
                        continue
                    for pattern in (EXPECTED, CHECK_LINE):
                        m = pattern.search(line)
                        if m:
                            found.append((normalize(m.group("text")), relative))
                            break
            elif path.suffix == ".py":
                for literal in joined_literals(path.read_text(), "python"):
                    found.append((normalize(literal), relative))
            elif path.suffix == ".cpp":
                text = path.read_text()
                for match in re.finditer(r"\b(?:EXPECT|ASSERT)_\w+\s*\(", text):
                    end = statement_end(text, match.end() - 1, "c++")
                    for literal in joined_literals(text[match.end():end], "c++"):
                        found.append((normalize(literal), relative))
    return found


def joined_literals(text, language):
    """The string literals of `text`, adjacent ones ("a" "b") joined."""
    literals, current, last_end = [], None, 0
    for match in STRING.finditer(text):
        if language == "c++" and match.group("quote") == "'":
            continue
        body = unescape(match.group("body"))
        if current is not None and text[last_end:match.start()].strip() == "":
            current += body
        else:
            if current is not None:
                literals.append(current)
            current = body
        last_end = match.end()
    if current is not None:
        literals.append(current)
    return literals


def normalize(text):
    # FileCheck regex blocks `{{...}}` and regex escapes in pytest match=.
    text = re.sub(r"\{\{.*?\}\}", "\x00", text)
    text = re.sub(r"\\([^\w])", r"\1", text)
    return SPACES.sub(" ", text)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("root", nargs="?", type=pathlib.Path,
                        default=pathlib.Path(__file__).resolve().parent.parent)
    parser.add_argument("--list", action="store_true",
                        help="print every message and the test expecting it")
    args = parser.parse_args()
    root = args.root.resolve()

    catalog = Catalog()
    catalog.add_cxx(root)
    catalog.add_python(root)
    cxx, python = catalog.messages["c++"], catalog.messages["python"]
    expected = expectations(root)
    test_files = {path for _, path in expected}

    unique = {}
    for message in cxx + python:
        unique.setdefault(message.key, []).append(message)
    untested = []
    for key, sites in sorted(unique.items()):
        tests = sorted({str(path) for text, path in expected if expects(text, key)})
        if args.list:
            print("%s:%d: %r -> %s" % (sites[0].path, sites[0].line, key,
                                       ", ".join(tests[:3]) or "UNTESTED"))
        if not tests:
            untested.extend(sites)
    for message in untested:
        print("%s:%d: error: no test expects this message: %s"
              % (message.path, message.line, message.text), file=sys.stderr)
    for site in catalog.internal:
        print("%s: note: internal-invariant message, not required to have a "
              "test" % site)
    print("check-diagnostics: %d messages (%d C++ sites, %d Python sites; %d "
          "calls only forward a message; %d internal-invariant guards; %d "
          "match-failure reasons are seen only with -debug), %d expectations "
          "in %d test files: %d messages untested"
          % (len(unique), len(cxx), len(python), catalog.forwarded,
             len(catalog.internal), catalog.match_failures, len(expected),
             len(test_files),
             len({m.key for m in untested})))
    return 1 if untested else 0


if __name__ == "__main__":
    sys.exit(main())
