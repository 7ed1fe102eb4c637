#!/usr/bin/env python3
"""Decompresses the xz'ed files of a GPU bundle in place (FILE.xz -> FILE,
executable), so the bundle needs only Python on the GPU machine. (Python
alone does not need it for lib/libTirXCAPI.so.xz: `import tirx`
decompresses that into its cache folder, python/tirx/_capi.py.)
Usage: unpack.py DIR..."""
import glob
import lzma
import os
import sys

for folder in sys.argv[1:]:
    for packed in glob.glob(os.path.join(folder, "*.xz")):
        with lzma.open(packed) as source, open(packed[:-3], "wb") as target:
            target.write(source.read())
        os.chmod(packed[:-3], 0o755)
        os.remove(packed)
