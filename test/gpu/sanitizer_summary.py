#!/usr/bin/env python3
"""Reads a compute-sanitizer log: prints its summary line and exits 0 when
it reports 0 errors, 1 when it reports errors, 2 when the log has no summary
(the tool did not run to the end). memcheck, synccheck and initcheck end
with `ERROR SUMMARY: N errors`; racecheck with `RACECHECK SUMMARY: H hazards
displayed (N errors, W warnings)` (checked on an H200, compute-sanitizer
2025.3.1). The last summary of the log counts. Usage: sanitizer_summary.py LOG"""
import re
import sys

SUMMARY = re.compile(r"(?:ERROR SUMMARY: ([0-9]+) errors?"
                     r"|RACECHECK SUMMARY: .*?\(([0-9]+) errors?,.*\))")


def main(path):
    with open(path, errors="replace") as f:
        found = [(m.group(0), int(m.group(1) or m.group(2))) for m in SUMMARY.finditer(f.read())]
    if not found:
        print("no ERROR SUMMARY or RACECHECK SUMMARY line in %s: 1 errors" % path)
        return 2
    line, errors = found[-1]
    print(line)
    return 0 if errors == 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
