"""Hardware goldens of the matrix suite's mma.sync forms, written by run.py
on the GPU (`run.py DIR --record=FILE`; test/gpu/run.sh passes it when
GOLDEN_DIR is set) and read by the interpreter's check in `make check`
(test/python/test_interpreter_matrix.py), which runs the same kernels,
generated at 4 warps (gen.py --total-warps 4), on the recorded inputs.

Every kernel of the suite gives thread t of a launch W_X consecutive words
of each operand X (gen.py's docstring); the first WARPS warps' words are the
whole input of a 4-warp launch, so a golden keeps those: threads 0 .. 127
of A, B, C and of TirX's D, for the variants in VARIANTS, on every data set
where TirX's D equalled nvcc's bit for bit (and both were fully written).

The file is one compressed .npz:
- "index": a JSON document (as uint8 bytes): {"format": 1, "device": the
  GPU's name, "warps": WARPS, "launches": [{"kernel", "form", "spelling",
  "variant", "dataset", "words": {operand: W_X}, "arrays": {operand: the
  name of its array}}]};
- the arrays "w0", "w1", ...: uint32 (128, W_X), row t thread t's words.
  An array several launches share is stored once (the in-place variant's
  inputs are the warp variant's, and so is, normally, its D).
About 0.6 MB for the 11 forms (warp, warp_inplace and cta on 3 data sets):
the words are nearly incompressible.
"""
import hashlib
import json
import os

import numpy as np

FORMAT = 1
WARPS = 4
THREADS = 32 * WARPS
# The variants recorded: the simplest of each scope, and D in C's registers.
VARIANTS = ("warp", "warp_inplace", "cta")
OPERANDS = "abcd"


def recordable(kernel):
    """Whether run.py records this kernel's launches."""
    return kernel.get("kind", "mma") == "mma" and kernel["variant"] in VARIANTS


def first_threads(words, per_thread):
    """Threads 0 .. THREADS - 1's words of a launch's flat operand words, as
    (THREADS, per_thread) uint32."""
    words = np.asarray(words)
    if words.dtype != np.uint32 or words.size < THREADS * per_thread:
        raise ValueError("expected at least %d uint32 words, got %d %s"
                         % (THREADS * per_thread, words.size, words.dtype))
    return np.ascontiguousarray(words.ravel()[:THREADS * per_thread].reshape(THREADS, per_thread))


def record(recorded, kernel, dataset, inputs, d):
    """Appends one launch to the list `recorded`: inputs {"a", "b", "c": the
    flat words launched}, d TirX's flat D words (a launch where TirX and
    nvcc agreed)."""
    words = {x: int(kernel["words"][x]) for x in OPERANDS}
    arrays = {x: first_threads(inputs[x], words[x]) for x in "abc"}
    arrays["d"] = first_threads(d, words["d"])
    recorded.append({"kernel": kernel["name"], "form": kernel["form"],
                     "spelling": kernel["spelling"], "variant": kernel["variant"],
                     "dataset": dataset, "words": words, "arrays": arrays})


def save(path, device, recorded):
    """Writes the launches of `recorded` (record's list) to path; returns
    the number of arrays stored."""
    stored, names, launches = {}, {}, []
    for launch in recorded:
        refs = {}
        for x, array in launch["arrays"].items():
            key = hashlib.sha256(repr(array.shape).encode() + array.tobytes()).digest()
            if key not in names:
                names[key] = "w%d" % len(names)
                stored[names[key]] = array
            refs[x] = names[key]
        launches.append(dict({k: v for k, v in launch.items() if k != "arrays"}, arrays=refs))
    index = {"format": FORMAT, "device": device, "warps": WARPS, "launches": launches}
    directory = os.path.dirname(os.path.abspath(path))
    os.makedirs(directory, exist_ok=True)
    with open(path, "wb") as f:
        np.savez_compressed(f, index=np.frombuffer(json.dumps(index).encode(), dtype=np.uint8),
                            **stored)
    return len(stored)


def load(path):
    """(device, [launch]) of a saved file: each launch as record made it,
    its "arrays" the (THREADS, W_X) uint32 words of a, b, c, d."""
    with np.load(path) as data:
        index = json.loads(bytes(data["index"]).decode())
        if index.get("format") != FORMAT or index.get("warps") != WARPS:
            raise ValueError("%s: format %s at %s warps, expected %d at %d: record it again"
                             % (path, index.get("format"), index.get("warps"), FORMAT, WARPS))
        arrays = {name: data[name] for name in data.files if name != "index"}
    launches = []
    for launch in index["launches"]:
        launches.append(dict(launch, arrays={x: arrays[n] for x, n in launch["arrays"].items()}))
    return index["device"], launches
