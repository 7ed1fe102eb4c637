#!/usr/bin/env python3
"""A minimal FileCheck for machines without LLVM: CHECK and CHECK-NEXT lines
of a test file, literal text with {{regex}} parts, matched in order against
standard input. Usage: filecheck.py TEST_FILE < output"""
import re
import sys


def pattern(text):
    parts = re.split(r"\{\{(.*?)\}\}", text.strip())
    regex = "".join(p if i % 2 else re.escape(p) for i, p in enumerate(parts))
    # FileCheck ignores differences in horizontal whitespace.
    return re.compile(re.sub(r"(\\ )+", r"\\s+", regex))


def main(path):
    checks = []
    for line in open(path):
        match = re.search(r"\bCHECK(-NEXT)?:(.*)$", line)
        if match:
            checks.append((bool(match.group(1)), pattern(match.group(2))))
    output = sys.stdin.read().splitlines()
    position = 0
    for next_line, regex in checks:
        candidates = [position] if next_line else range(position, len(output))
        for index in candidates:
            if index < len(output) and regex.search(output[index]):
                position = index + 1
                break
        else:
            sys.stderr.write("%s: no match for %r after output line %d\n"
                             % (path, regex.pattern, position))
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
