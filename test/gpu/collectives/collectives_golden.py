"""Hardware goldens of the collectives suite, written by run.py on the GPU
(`run.py DIR --record=FILE`; test/gpu/run.sh passes it when GOLDEN_DIR is
set) and read by the interpreter's check in `make check`
(test/python/test_interpreter_collectives.py), which runs the same kernels,
generated at 4 warps (gen.py --total-warps 4), on the recorded inputs.

Every operand of the suite gives element e = 32 g + l to lane l of warp g
(gen.py's docstring), in a CTA of 4 warps or of one; the first WARPS warps'
elements, 0 .. 127, are the whole of a 4-warp launch. A golden keeps those
of every launch (each (b, c) point of a sweep is a launch) where TirX's
outputs equalled nvcc's bit for bit and both were fully written: the
launch's inputs and TirX's outputs.

The file is one compressed .npz:
- "index": a JSON document (as uint8 bytes): {"format": 1, "device": the
  GPU's name, "warps": WARPS, "kernels": [{"kernel", "group", "spelling",
  "inputs": {parameter: its row of "words"}, "outputs": [parameter],
  "scalars": [parameter], "first", "count"}]}: the kernel's launches are
  rows first .. first + count - 1 of "scalars" and "rows";
- "words": uint32 (R, 128), every distinct 128-element array (inputs and
  outputs) once: the 4-warp prefixes of the suite's shuffles hold the same
  structured words whatever the element type, so the variants of a form
  share their rows;
- "scalars": uint32 (L, 2), each launch's scalar arguments (b, c; unused
  columns 0); "rows": int32 (L, 2), the row of "words" of each output (-1
  unused).
One stream of rows compresses better than a member per array (the words
of one launch differ little from the next's).
"""
import hashlib
import json
import os

import numpy as np

FORMAT = 1
WARPS = 4
ELEMENTS = 32 * WARPS
COLUMNS = 2      # outputs (d, p) and scalars (b, c) of a launch, at most


def first_elements(words):
    """Elements 0 .. ELEMENTS - 1 of a launch's flat uint32 operand."""
    words = np.asarray(words)
    if words.dtype != np.uint32 or words.size < ELEMENTS:
        raise ValueError("expected at least %d uint32 words, got %d %s"
                         % (ELEMENTS, words.size, words.dtype))
    return np.ascontiguousarray(words.ravel()[:ELEMENTS])


def record(recorded, case, inputs, scalars, outputs):
    """Appends one launch to the list `recorded`: inputs {parameter: flat
    words launched}, scalars its scalar arguments, outputs TirX's flat words
    of each output (a launch where TirX and nvcc agreed)."""
    if len(outputs) != len(case["outputs"]) or len(scalars) != len(case["scalars"]):
        raise ValueError("%s: %d outputs and %d scalars, expected %d and %d" % (
            case["name"], len(outputs), len(scalars), len(case["outputs"]),
            len(case["scalars"])))
    recorded.append({"kernel": case["name"], "group": case["group"],
                     "spelling": case["spelling"], "outputs": list(case["outputs"]),
                     "scalar_names": list(case["scalars"]),
                     "scalars": [int(s) & 0xFFFFFFFF for s in scalars],
                     "inputs": {x: first_elements(inputs[x]) for x in case["inputs"]},
                     "results": [first_elements(o) for o in outputs]})


def save(path, device, recorded):
    """Writes the launches of `recorded` (record's list) to path; returns
    the number of distinct word rows stored."""
    rows, keys = [], {}

    def row(array):
        key = hashlib.sha256(array.tobytes()).digest()
        if key not in keys:
            keys[key] = len(rows)
            rows.append(array)
        return keys[key]

    kernels, scalars, refs = [], [], []
    for launch in recorded:
        if not kernels or kernels[-1]["kernel"] != launch["kernel"]:
            kernels.append({"kernel": launch["kernel"], "group": launch["group"],
                            "spelling": launch["spelling"],
                            "inputs": {x: row(v) for x, v in sorted(launch["inputs"].items())},
                            "outputs": launch["outputs"], "scalars": launch["scalar_names"],
                            "first": len(scalars), "count": 0})
        kernels[-1]["count"] += 1
        scalars.append(launch["scalars"] + [0] * (COLUMNS - len(launch["scalars"])))
        out = [row(r) for r in launch["results"]]
        refs.append(out + [-1] * (COLUMNS - len(out)))
    names = [k["kernel"] for k in kernels]
    if len(set(names)) != len(names):
        raise ValueError("a kernel's launches are not consecutive in the record")
    index = {"format": FORMAT, "device": device, "warps": WARPS, "kernels": kernels}
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path, "wb") as f:
        np.savez_compressed(
            f, index=np.frombuffer(json.dumps(index).encode(), dtype=np.uint8),
            words=np.array(rows, dtype=np.uint32).reshape(-1, ELEMENTS),
            scalars=np.array(scalars, dtype=np.uint32).reshape(-1, COLUMNS),
            rows=np.array(refs, dtype=np.int32).reshape(-1, COLUMNS))
    return len(rows)


def load(path):
    """(device, {kernel: {"group", "spelling", "inputs": {parameter: words},
    "launches": [(scalars tuple, [output words])]}}) of a saved file, every
    array (ELEMENTS,) uint32."""
    with np.load(path) as data:
        index = json.loads(bytes(data["index"]).decode())
        if index.get("format") != FORMAT or index.get("warps") != WARPS:
            raise ValueError("%s: format %s at %s warps, expected %d at %d: record it again"
                             % (path, index.get("format"), index.get("warps"), FORMAT, WARPS))
        words, scalars, rows = data["words"], data["scalars"], data["rows"]
    kernels = {}
    for k in index["kernels"]:
        launches = []
        for i in range(k["first"], k["first"] + k["count"]):
            launches.append((tuple(int(s) for s in scalars[i, :len(k["scalars"])]),
                             [words[r] for r in rows[i, :len(k["outputs"])]]))
        kernels[k["kernel"]] = {"group": k["group"], "spelling": k["spelling"],
                                "inputs": {x: words[r] for x, r in k["inputs"].items()},
                                "outputs": k["outputs"], "scalars": k["scalars"],
                                "launches": launches}
    return index["device"], kernels
