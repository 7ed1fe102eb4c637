#!/usr/bin/env python3
"""Every diagnostic a TirX user can see must have a test that expects it.

Lists the messages the TirX sources can produce -- MLIR diagnostics
(emitError, emitOpError, emitWarning, notifyMatchFailure, parser errors), the
layout library's and the PTX spelling parser's errors, the C API's and
the runtime's error strings, the tools' one-line errors, and the Python package's
raises -- and fails if one of them is not expected by any test.

A message is the text of its string literals; the parts computed at run time
(values, types, forwarded errors) split it into fragments. An expectation
expects it when it contains all its fragments, in order (a message that
picks one of several texts, `c ? "a" : "b"`, needs its longest fragment). A
call whose text is entirely computed (`emitOpError() << toString(error)`)
only forwards a message catalogued where it is created.

Only an expectation of the message's own kind counts (ACCEPTS):
  - an MLIR diagnostic (emitError, emitOpError, emitOperandError, the
    interpreter's emitRunError,
    emitWarning, emitRemark outside lib/CAPI): an `expected-<severity>
    {{...}}` of the same severity in a lit test run with
    -verify-diagnostics, or a FileCheck line whose prefix checks a tool's
    stderr (`2>&1 | FileCheck`, or `FileCheck < F` of a file written by
    `2> F`);
  - any other C++ string (layout library, PTX spellings, pipeline options,
    runtime, C API, tools): a FileCheck line of any stream, a string inside
    an EXPECT_*/ASSERT_* of unittests/, or an expected-error (a library
    error forwarded into a diagnostic);
  - a Python raise: a string of a pytest test (test/python/test_*.py) in a
    `raises(...)` call, a `match=` or an `assert`, names resolved to the
    strings bound to them (assignments, loops, @pytest.mark.parametrize).
Every expected-* of a -verify-diagnostics test must also say why: one whose
text is nothing but quoted names (`{{'add.rn.f32'}}`, `{{'tile.apply' op}}`)
passes whatever reason the compiler gives, and is reported as an error.
A FileCheck line counts only when a RUN line runs FileCheck on the test
file with its prefix (a -NOT line never counts); RUN lines are read after
`%if F %{...%} %else %{...%}`.

Only tests that run on this machine count: a lit test whose REQUIRES,
UNSUPPORTED or XFAIL lines, evaluated against lit's available features
(--features, which test/Tools/check-diagnostics.test passes from lit;
standalone, detected as test/lit.cfg.py does: cuda-gpu only when
`nvidia-smi -L` succeeds, the runtime tools when build/bin has them), keep it
from running does not; nor does a pytest test that can skip itself
(pytest.skip, skipif, importorskip, xfail, pytestmark). One exception:
the runtime messages of GPU_ONLY, which only a machine with a GPU can
produce, count as tested by a test that needs a GPU (run on the GPU machine
by test/gpu/run.sh) and are listed as such.

Usage: utils/check-diagnostics.py [SOURCE_ROOT] [--list] [--features=A,B]
Exit code 1 (and a list of the untested messages with their source lines)
when a message has no test.
"""

import argparse
import ast
import os
import pathlib
import re
import sys

# Calls that start a user-visible message, by the language of the source.
CXX_DIAGNOSTIC_CALL = re.compile(
    r"(?<![\w.:])(?:[\w.>-]*(?:\.|->))?"
    r"(emitError|emitOpError|emitRunError|emitWarning|emitRemark|"
    r"notifyMatchFailure|"
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
    """One message: where it is made, its fragments (`key`), and its kind,
    which decides the expectations that can test it (ACCEPTS)."""

    def __init__(self, path, line, key, text, kind, alternatives=False):
        self.path, self.line, self.key, self.text = path, line, key, text
        self.kind = kind
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

    def add(self, path, text, start, statement_start, language, kind):
        """The call at `start`, whose argument list begins at
        `statement_start`; `kind` is the message's kind (ACCEPTS)."""
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
            path, line_of(text, start), key, "<...>".join(parts), kind,
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
                             match.end() - 1, "c++",
                             cxx_kind(path.relative_to(root), match.group(1)))

    def add_python(self, root):
        for directory in PY_SOURCES:
            for path in sorted((root / directory).rglob("*.py")):
                text = path.read_text()
                for match in PY_RAISE.finditer(text):
                    self.add(path.relative_to(root), text, match.start(),
                             match.end() - 1, "python", "python")


#===----------------------------------------------------------------------===#
# Kinds: which expectation can test which message
#===----------------------------------------------------------------------===#

# An MLIR diagnostic, by severity.
# emitRunError is the interpreter's emitError (lib/Interpreter/KernelRun.h).
DIAGNOSTIC_SEVERITY = {"emitError": "error", "emitOpError": "error",
                       "emitRunError": "error",
                       "emitOperandError": "error", "emitWarning": "warning",
                       "emitRemark": "remark"}
# The C API turns the diagnostics of its own context into its error string.
C_API_SOURCES = ("lib/CAPI/",)


def cxx_kind(path, call):
    """`diagnostic-<severity>` for an MLIR diagnostic, `string` for every
    other C++ message (the layout library's and the PTX spelling parser's
    errors, the pipeline options', the runtime's, the C API's, the tools')."""
    severity = DIAGNOSTIC_SEVERITY.get(call)
    if severity and not str(path).startswith(C_API_SOURCES):
        return "diagnostic-" + severity
    return "string"


# The expectations that test a message of each kind:
#   verify-<severity>  expected-<severity> {{...}} in a -verify-diagnostics test
#   check-stderr       a FileCheck line whose prefix checks a tool's stderr
#   check              a FileCheck line whose prefix checks stdout or a file
#   unittest           a string inside an EXPECT_*/ASSERT_* of unittests/
#   pytest             a string in a pytest test's raises(...)/match=/assert
ACCEPTS = {
    "diagnostic-error": {"verify-error", "check-stderr"},
    "diagnostic-warning": {"verify-warning", "check-stderr"},
    "diagnostic-remark": {"verify-remark", "check-stderr"},
    # Strings reach users through a tool's output, the C API's error string
    # or a forwarded diagnostic (`emitError() << toString(error)`).
    "string": {"check", "check-stderr", "unittest", "verify-error"},
    "python": {"pytest"},
}


class Expectation:
    """`gpu_only`: in a test that runs only on a machine with a GPU (which
    this one lacks), counted only for GPU_ONLY messages."""

    def __init__(self, text, path, kind, gpu_only=False):
        self.text, self.path, self.kind = normalize(text), path, kind
        self.gpu_only = gpu_only


# Messages that only a machine with a GPU can produce (the runtime reaches
# them only after its device check, lib/Runtime/RuntimeError.cpp's
# checkDevice, succeeds), by source file and the start of their text. On a
# machine without a GPU no test can expect them, so a test that needs one
# (REQUIRES: cuda-gpu, run on the GPU machine by test/gpu/run.sh) counts for
# them, and they are listed as such. Every other message needs a test that
# runs here.
GPU_ONLY = {
    "lib/Runtime/TirXRuntime.cpp": (
        "tirxModuleLoadData: the <...>",
        "tirxModuleGetKernel: no kernel named",
        "tirxKernelLaunch: kernel '<...>' takes",
        "tirxKernelLaunch: grid and block extents must be positive",
        "tirxKernelLaunch: launching",
        ": no device",
        "tirxKernelPrepareLaunch: kernel '<...>' takes",
        "tirxPointerGetDevice: <...> is not device memory",
        "tirxLaunchPrepared: launching",
        "tirxKernelLaunch: '<...>' cannot use",
        "tirxPreparedLaunchSetSharedBytes: '<...>",
    ),
}


def gpu_only(message):
    return message.text.startswith(GPU_ONLY.get(str(message.path), ()))


#===----------------------------------------------------------------------===#
# lit features: REQUIRES / UNSUPPORTED / XFAIL and %if
#===----------------------------------------------------------------------===#

def detect_features(root):
    """What test/lit.cfg.py would make available on this machine, for runs
    outside lit (lit passes its own list with --features)."""
    import subprocess
    features = set()
    tools = root / "build" / "bin"
    for tool, feature in (("tirx-runtime-check", "tirx-runtime"),
                          ("run-affine-relu", "cpp-example"),
                          ("tirx-runner", "tirx-runner")):
        if (tools / tool).exists():
            features.add(feature)
    try:
        if subprocess.run(["nvidia-smi", "-L"], capture_output=True,
                          timeout=20).returncode == 0:
            features.add("cuda-gpu")
    except (OSError, subprocess.TimeoutExpired):
        pass
    # ptxas and nvcc by TirX's own search, as test/lit.cfg.py finds them
    # (the build's C API through python/tirx/_capi.py; docs/lowering.md).
    search = subprocess.run(
        [sys.executable, "-c", "import importlib.util, sys\n"
         "spec = importlib.util.spec_from_file_location('tirx_capi', sys.argv[1])\n"
         "capi = importlib.util.module_from_spec(spec); spec.loader.exec_module(capi)\n"
         "print(' '.join(t for t in ('ptxas', 'nvcc') if capi.cuda_tool(t)))",
         str(root / "python" / "tirx" / "_capi.py")],
        env=dict(os.environ, TIRX_LIBRARY=str(root / "build" / "lib")),
        capture_output=True, text=True)
    features.update(search.stdout.split())
    if subprocess.run(["/usr/bin/python3", "-c", "import sphinx, myst_parser"],
                      capture_output=True).returncode == 0:
        features.add("sphinx")
    return features


def evaluate(expression, features):
    """A lit boolean expression (`a && !b || (c)`) over `features`."""
    tokens = re.findall(r"&&|\|\||[!()]|[^\s&|!()]+", expression)
    python = []
    for token in tokens:
        python.append({"&&": " and ", "||": " or ", "!": " not ", "(": "(",
                       ")": ")"}.get(token, repr(token in features)))
    return bool(eval("".join(python) or "True"))


def resolve_if(command, features):
    """The command with each `%if F %{ A %} [%else %{ B %}]` replaced by the
    branch that runs."""
    pattern = re.compile(r"%if\s+(?P<cond>[^%]*?)\s*%\{(?P<then>.*?)%\}"
                         r"(?:\s*%else\s*%\{(?P<else>.*?)%\})?")
    while True:
        match = pattern.search(command)
        if not match:
            return command
        branch = match.group("then") if evaluate(match.group("cond"), features) \
            else (match.group("else") or "")
        command = command[:match.start()] + branch + command[match.end():]


#===----------------------------------------------------------------------===#
# Expectations
#===----------------------------------------------------------------------===#

EXPECTED = re.compile(r"expected-(?P<severity>error|warning|remark|note)"
                      r"(?:-re)?[^{]*\{\{(?P<text>.*)\}\}")
SUFFIX = re.compile(r"-(?:NEXT|SAME|DAG|LABEL|EMPTY|COUNT-\d+|NOT)$")
FILECHECK = re.compile(r"(?<![\w%/-])FileCheck\b(?P<args>[^|;&]*)")
PREFIXES = re.compile(r"--?check-prefix(?:es)?[= ](?P<list>\S+)")
# Test files lit runs (test/lit.cfg.py: suffixes and excludes).
LIT_SUFFIXES = (".mlir", ".test")
LIT_EXCLUDED_DIRS = ("Inputs",)


class LitTest:
    """One lit test: its RUN commands (after %if), whether it runs here, and
    which FileCheck prefixes check stdout or stderr."""

    def __init__(self, text, features):
        self.lines = text.splitlines()
        keyword = lambda k: [l.split(k + ":", 1)[1] for l in self.lines
                             if re.search(r"(?<![\w-])%s:" % k, l)]
        self.unsupported_by = []
        for requires in keyword("REQUIRES"):
            for expression in requires.split(","):
                if expression.strip() and not evaluate(expression, features):
                    self.unsupported_by.append("requires " + expression.strip())
        for name, why in (("UNSUPPORTED", "unsupported with "),
                          ("XFAIL", "expected to fail with ")):
            for expressions in keyword(name):
                for expression in expressions.split(","):
                    if expression.strip() and evaluate(expression, features):
                        self.unsupported_by.append(why + expression.strip())
        commands, current = [], ""
        for run in keyword("RUN"):
            current += run.strip()
            if current.endswith("\\"):
                current = current[:-1] + " "
                continue
            commands.append(resolve_if(current, features))
            current = ""
        self.verify = any("-verify-diagnostics" in c for c in commands)
        # Files that receive a tool's stderr: `2> F`, `&> F`, `> F 2>&1`.
        stderr_files = set()
        for command in commands:
            stderr_files.update(re.findall(r"(?:2|&)>\s*(\S+)", command))
            for target in re.findall(r"(?<![2&])>\s*(\S+)[^|;]*2>&1", command):
                stderr_files.add(target)
        self.prefixes = {}  # prefix -> {"stdout", "stderr"}
        for command in commands:
            for match in FILECHECK.finditer(command):
                if not re.search(r"(?<![\w%])%s\b", match.group("args")):
                    continue  # checks another file's lines
                piped = command[:match.start()]
                source = re.search(r"<\s*(\S+)", match.group("args"))
                if source:
                    stream = "stderr" if source.group(1) in stderr_files else "stdout"
                else:
                    stream = "stderr" if "2>&1" in piped or "&>" in piped else "stdout"
                names = PREFIXES.findall(match.group("args")) or ["CHECK"]
                for name in ",".join(names).split(","):
                    self.prefixes.setdefault(name, set()).add(stream)

    def expectations(self, relative, gpu_only=False):
        found = []
        for line in self.lines:
            expected = EXPECTED.search(line)
            if expected:
                if self.verify and expected.group("severity") != "note":
                    found.append(Expectation(expected.group("text"), relative,
                                             "verify-" + expected.group("severity"),
                                             gpu_only))
                continue
            for directive in re.finditer(r"(?<![\w-])[A-Za-z][\w-]*:", line):
                word = directive.group()[:-1]
                # A prefix may itself end like a suffix (SHAPE-EMPTY).
                prefix = word if word in self.prefixes else SUFFIX.sub("", word)
                streams = self.prefixes.get(prefix)
                if streams is None:
                    continue
                if not word.endswith("-NOT") or word in self.prefixes:
                    kind = "check-stderr" if "stderr" in streams else "check"
                    found.append(Expectation(line[directive.end():], relative,
                                             kind, gpu_only))
                break
        return found


# What an expectation may consist of and still state no reason: quoted
# names (instruction spellings, ops, symbols), regex blocks, punctuation and
# the words MLIR puts before an op's name.
NAME_ONLY_WORDS = {"op", "custom"}


def states_no_reason(text):
    """True when an expectation's text is only quoted names: `'redux.sync.add.f32'`
    expects any message about that instruction."""
    rest = re.sub(r"\{\{.*?\}\}", " ", text)
    rest = re.sub(r"'[^']*'", " ", rest)
    return not [w for w in re.findall(r"[A-Za-z]+", rest) if w not in NAME_ONLY_WORDS]


def reasonless(relative, test):
    """(path, line, directive, text) of every expected-* of TEST (a
    -verify-diagnostics test) that states no reason."""
    if not test.verify:
        return []
    found = []
    for number, line in enumerate(test.lines, 1):
        expected = EXPECTED.search(line)
        if expected and states_no_reason(expected.group("text")):
            found.append((relative, number, "expected-" + expected.group("severity"),
                          expected.group("text")))
    return found


def lit_tests(root, features):
    """(relative path, LitTest) of every lit test under test/."""
    for path in sorted((root / "test").rglob("*")):
        relative = path.relative_to(root)
        if (path.suffix not in LIT_SUFFIXES or not path.is_file()
                or any(part in LIT_EXCLUDED_DIRS for part in relative.parts)):
            continue
        yield relative, LitTest(path.read_text(errors="replace"), features)


def unittest_expectations(root):
    found = []
    for path in sorted((root / "unittests").rglob("*.cpp")):
        text = path.read_text()
        for match in re.finditer(r"\b(?:EXPECT|ASSERT)_\w+\s*\(", text):
            end = statement_end(text, match.end() - 1, "c++")
            for literal in joined_literals(text[match.end():end], "c++"):
                found.append(Expectation(literal, path.relative_to(root), "unittest"))
    return found


#===------------------------------------------------------------------------===#
# pytest: the strings a test expects of an exception
#===------------------------------------------------------------------------===#

UNKNOWN = "\x00"  # run-time text in an expectation; matches no fragment


def may_skip(node):
    """Whether a pytest test function (or module) can skip itself."""
    for sub in ast.walk(node):
        if isinstance(sub, ast.Attribute) and sub.attr in (
                "skip", "skipif", "importorskip", "xfail"):
            return True
    return False


class PytestFile:
    """Strings that the tests of one pytest file expect: the arguments of
    `raises(...)` / `pytest.raises(...)` calls, `match=` keywords and the
    strings of `assert` statements, with names resolved to the strings they
    are bound to (assignments, loops, @pytest.mark.parametrize)."""

    def __init__(self, text):
        self.tree = ast.parse(text)
        self.module_bindings = self.bindings(self.tree.body, top=True)

    @staticmethod
    def bindings(body, top=False):
        bound = {}
        nodes = body if top else [n for s in body for n in ast.walk(s)]
        for node in nodes:
            if isinstance(node, ast.Assign):
                for target in node.targets:
                    for name in ast.walk(target):
                        if isinstance(name, ast.Name):
                            bound.setdefault(name.id, []).append(node.value)
            elif isinstance(node, (ast.For, ast.comprehension)):
                for name in ast.walk(node.target):
                    if isinstance(name, ast.Name):
                        bound.setdefault(name.id, []).append(node.iter)
            elif (isinstance(node, ast.Call)
                  and isinstance(node.func, ast.Attribute)
                  and node.func.attr in ("append", "extend", "insert")
                  and isinstance(node.func.value, ast.Name)):
                # cases.append((kernel, "message")): a list built by calls.
                bound.setdefault(node.func.value.id, []).extend(node.args)
        return bound

    def tests(self):
        for node in self.tree.body:
            functions = [node]
            if isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
                functions = node.body
            for function in functions:
                if (isinstance(function, ast.FunctionDef)
                        and function.name.startswith("test")):
                    yield function

    def expectations(self, relative):
        if any(isinstance(n, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == "pytestmark" for t in n.targets)
               for n in self.tree.body) or may_skip_module(self.tree):
            return []
        found = []
        for function in self.tests():
            if may_skip(function):
                continue
            env = dict(self.module_bindings)
            env.update(self.bindings(function.body))
            for decorator in function.decorator_list:
                if (isinstance(decorator, ast.Call) and decorator.args
                        and getattr(decorator.func, "attr", "") == "parametrize"):
                    names = ast.literal_eval(decorator.args[0]) \
                        if isinstance(decorator.args[0], ast.Constant) else ""
                    for name in re.split(r"\s*,\s*", str(names)):
                        env.setdefault(name, []).extend(decorator.args[1:])
            for node in ast.walk(function):
                contexts = []
                if isinstance(node, ast.Assert):
                    contexts.append(node.test)
                elif isinstance(node, ast.Call):
                    callee = node.func.attr if isinstance(node.func, ast.Attribute) \
                        else getattr(node.func, "id", "")
                    # pytest.raises(Error, match=...) and a test's own
                    # raises(message) helper alike: exception classes name
                    # no strings, so every argument is searched.
                    if callee.endswith("raises"):
                        contexts.extend(node.args)
                    contexts.extend(k.value for k in node.keywords if k.arg == "match")
                for context in contexts:
                    for text in self.strings(context, env, set()):
                        found.append(Expectation(text, relative, "pytest"))
        return found

    def strings(self, node, env, seen):
        """The texts `node` can expect, run-time parts as UNKNOWN."""
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return [node.value]
        if isinstance(node, ast.JoinedStr):
            return ["".join(v.value if isinstance(v, ast.Constant) else UNKNOWN
                            for v in node.values)]
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            left = self.strings(node.left, env, seen) or [UNKNOWN]
            right = self.strings(node.right, env, seen) or [UNKNOWN]
            return [a + b for a in left for b in right][:64]
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
            # "%s:%d: %s" % (path, line, message): the format with its
            # fields unknown, and the texts that fill them, each expected.
            return [re.sub(r"%[-#0-9.]*[sdrxfig]", UNKNOWN, s)
                    for s in self.strings(node.left, env, seen)] + \
                self.strings(node.right, env, seen)
        if isinstance(node, ast.Name):
            if node.id in seen:
                return []
            values = env.get(node.id, [])
            return [s for v in values for s in self.strings(v, env, seen | {node.id})]
        # Anything else (re.escape(x), containers, comparisons): the strings
        # inside it.
        return [s for child in ast.iter_child_nodes(node)
                for s in self.strings(child, env, seen)]


def may_skip_module(tree):
    return any(may_skip(node) for node in tree.body
               if not isinstance(node, (ast.FunctionDef, ast.ClassDef)))


def pytest_expectations(root):
    """Tests pytest collects: test/python/test_*.py and *_test.py."""
    found = []
    for path in sorted((root / "test" / "python").rglob("*.py")):
        if path.name.startswith("test_") or path.name.endswith("_test.py"):
            found += PytestFile(path.read_text()).expectations(path.relative_to(root))
    return found


def expectations(root, features):
    """Every expectation of a test that runs on this machine, and the lit
    tests that do not run here (with why)."""
    found, skipped = [], []
    gpu_features = features | {"cuda-gpu"}
    for relative, test in lit_tests(root, features):
        if test.unsupported_by:
            skipped.append((relative, test.unsupported_by))
            text = (root / relative).read_text(errors="replace")
            on_gpu = LitTest(text, gpu_features)
            if not on_gpu.unsupported_by:
                found += on_gpu.expectations(relative, gpu_only=True)
            continue
        found += test.expectations(relative)
    found += unittest_expectations(root)
    found += pytest_expectations(root)
    return found, skipped


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
    parser.add_argument("--features", default=None,
                        help="lit's available features, comma-separated (lit "
                             "passes them; default: detected like test/lit.cfg.py)")
    args = parser.parse_args()
    root = args.root.resolve()
    features = (set(f for f in args.features.split(",") if f)
                if args.features is not None else detect_features(root))

    catalog = Catalog()
    catalog.add_cxx(root)
    catalog.add_python(root)
    cxx, python = catalog.messages["c++"], catalog.messages["python"]
    expected, not_run = expectations(root, features)
    no_reason = [r for relative, test in lit_tests(root, features)
                 for r in reasonless(relative, test)]

    unique = {}
    for message in cxx + python:
        unique.setdefault((message.kind, message.key), []).append(message)
    untested, on_gpu = [], []
    for (kind, key), sites in sorted(unique.items(), key=lambda i: (i[0][1], i[0][0])):
        accepted = ACCEPTS[kind]
        matching = [e for e in expected if e.kind in accepted and expects(e.text, key)]
        tests = sorted({str(e.path) for e in matching if not e.gpu_only})
        if not tests and gpu_only(sites[0]):
            tests = sorted({str(e.path) + " (on a GPU)" for e in matching})
            if tests:
                on_gpu.append((sites[0], tests))
        if args.list:
            print("%s:%d: %s %r -> %s" % (sites[0].path, sites[0].line, kind, key,
                                          ", ".join(tests[:3]) or "UNTESTED"))
        if not tests:
            untested.extend(sites)
    for message in untested:
        print("%s:%d: error: no test expects this %s message: %s"
              % (message.path, message.line, message.kind, message.text),
              file=sys.stderr)
    for path, number, directive, text in no_reason:
        print("%s:%d: error: %s {{%s}} names only what failed, not why: expect "
              "the message's reason too" % (path, number, directive, text), file=sys.stderr)
    for site in catalog.internal:
        print("%s: note: internal-invariant message, not required to have a "
              "test" % site)
    for message, tests in on_gpu:
        print("%s:%d: note: reachable only with a GPU; expected by %s, which "
              "does not run here: %s" % (message.path, message.line,
                                         ", ".join(t.replace(" (on a GPU)", "") for t in tests),
                                         message.text))
    for path, why in not_run:
        print("%s: note: does not run here (%s); its expectations do not count"
              % (path, "; ".join(why)))
    print("check-diagnostics: %d messages (%d C++ sites, %d Python sites; %d "
          "calls only forward a message; %d internal-invariant guards; %d "
          "match-failure reasons are seen only with -debug), %d expectations "
          "in %d test files (%d tests do not run here; %d GPU-only messages "
          "expected only by them): %d messages untested, %d expectations "
          "state no reason"
          % (len(unique), len(cxx), len(python), catalog.forwarded,
             len(catalog.internal), catalog.match_failures,
             len([e for e in expected if not e.gpu_only]),
             len({e.path for e in expected if not e.gpu_only}), len(not_run),
             len(on_gpu),
             len({(m.kind, m.key) for m in untested}), len(no_reason)))
    return 1 if untested or no_reason else 0


if __name__ == "__main__":
    sys.exit(main())
