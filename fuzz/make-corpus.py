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


write("layout", sorted(layouts))
write("ptx-spelling", sorted(spellings), prefix=b"\xff")
