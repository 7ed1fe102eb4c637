#!/usr/bin/env python3
"""Seed corpora for the fuzzers, from the tests and examples:
every layout written in them (S[...]/#tirx.layout<...>) and every PTX
spelling in a tile.apply.   Usage: make-corpus.py OUT_DIR"""
import hashlib
import os
import re
import sys

root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
out = sys.argv[1]
layouts, spellings = set(), set()
for base in ("test", "examples", "python"):
    for folder, _, files in os.walk(os.path.join(root, base)):
        for name in files:
            if not name.endswith((".mlir", ".py", ".test")):
                continue
            text = open(os.path.join(folder, name), errors="replace").read()
            layouts.update(re.findall(r"#tirx\.layout<(.*?)>\s*$", text, re.M))
            layouts.update(re.findall(r"'(S\[[^']*\])'", text))
            spellings.update(re.findall(r'tile\.apply "([^"]+)"', text))
            spellings.update(re.findall(r'T\.ptx\["([^"]+)"\]', text))


def write(kind, items, prefix=b""):
    folder = os.path.join(out, kind)
    os.makedirs(folder, exist_ok=True)
    for item in items:
        data = prefix + item.encode()
        open(os.path.join(folder, hashlib.sha1(data).hexdigest()), "wb").write(data)
    print("%s: %d seeds" % (kind, len(items)))


# The C API fuzzer: "<options>\n<IR>", the options of the docs and tests.
options = ["", "chip=sm_90", "chip=sm_90a features=+ptx80 opt-level=2",
           "fast-math=1 format=isa", "chip=sm_100a features=+ptx86",
           "chip=sm_80 features=+ptx70 opt-level=0", "format=fatbin",
           "chip=sm_120a features=+ptx87 fast-math=0"]
kernels = []
for name in sorted(os.listdir(os.path.join(root, "examples"))):
    if name.endswith(".mlir"):
        kernels.append(open(os.path.join(root, "examples", name)).read())
write("capi", ["%s\n%s" % (o, k) for o in options for k in kernels[:3]])

write("layout", sorted(layouts))
write("ptx-spelling", sorted(spellings), prefix=b"\xff")
