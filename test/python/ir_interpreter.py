"""An interpreter of traced TirX IR on the CPU, for the pytest files (not a
test module): the subset that kernels of loads, stores, shuffles and
integer/float arithmetic use (test/gpu/run_reductions.py's kernels, the
reduction helpers of python/tirx/_reduce.py). Which thread owns which
element in which register slot, and which shared or global word an element
is, comes from the layout API (TileLayout.apply, the C++ layout library) on
each operand's type, so the interpreter runs the program the layouts
state, not a model of what the helpers meant.

    run = interpret(trace, {"A": words, "B": None})   # run.globals["B"]: uint32 words
    run = interpret(trace, {"A": True, "B": None}, symbolic=True)

Numeric runs hold 32-bit words (float32, int32 and uint32 instructions see
them as their type). Symbolic runs hold, for every register and word, a
vector of counts over the input words (run.tags names them: (parameter,
flat index), and tag 0 is "never written"): a word of a parameter given as
True starts as its own tag once; every arithmetic instruction (add, max,
min) adds its operands' vectors, so each result counts how often each input
reached it. The run records every shared
memory access, (instruction, alloc, block, thread, word, epoch), epochs
separated by barriers: `races(run)` lists the words that two threads touch
in one epoch, one of them writing.

Execution is in program order, each instruction for every thread of every
CTA of the grid at once (all CTAs run together: thread index b * block +
t), reading all operands before writing (what a warp's instruction does)."""
import collections
import math
import re

import numpy as np

from tirx.layout import TileLayout

UNDEFINED = 0  # the symbolic tag of a register or word never written


class InterpretError(Exception):
    """An op or form the interpreter does not know (the test must say so)."""


def _split_top(text):
    """`text` split at the commas outside <>, [] and ()."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch in "<[(":
            depth += 1
        elif ch in ">])":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
    parts.append(text[start:].strip())
    return [p for p in parts if p]


_TYPE = re.compile(r"!tirx\.tensor<((?:\d+x)+)(\w+), (\w+)(?:, #tirx\.layout<([^<>]*)>)?")


class TensorType:
    def __init__(self, text):
        match = _TYPE.match(text.strip())
        if not match:
            raise InterpretError("not a tensor type: %s" % text)
        self.shape = tuple(int(d) for d in match.group(1).split("x")[:-1])
        self.dtype, self.space, self.layout = match.group(2), match.group(3), match.group(4)


_MAPS = {}


def element_map(layout, shape):
    """For every element of `shape` (row-major), its coordinates on the
    layout's axes: {axis: int array}, through TileLayout.apply. No layout:
    row-major offsets in m."""
    key = (layout, shape)
    if key not in _MAPS:
        count = math.prod(shape)
        if layout is None:
            _MAPS[key] = {"m": np.arange(count)}
        else:
            tile = TileLayout(layout)
            coords = [tile.apply(*np.unravel_index(e, shape), shape=shape)
                      for e in range(count)]
            _MAPS[key] = {axis: np.array([c.get(axis, 0) for c in coords])
                          for axis in coords[0]}
    return _MAPS[key]


def _strides(type_):
    """The memory stride of each dimension of a shared/global tensor type
    (a region's dynamic offsets move its base by these)."""
    zero = element_map(type_.layout, type_.shape)["m"][0]
    strides = []
    for d in range(len(type_.shape)):
        if type_.shape[d] == 1:
            strides.append(0)
            continue
        index = np.ravel_multi_index(tuple(1 if i == d else 0 for i in range(len(type_.shape))),
                                     type_.shape)
        strides.append(int(element_map(type_.layout, type_.shape)["m"][index] - zero))
    return strides


class Tensor:
    """An SSA tensor value: its storage and the per-thread base offset (in
    words) that dynamic region offsets added (shared/global)."""

    def __init__(self, storage, space, base):
        self.storage, self.space, self.base = storage, space, base


class Run:
    def __init__(self, grid, block, tags):
        self.grid, self.block = grid, block
        self.tags = tags  # symbolic runs: the input word of each tag; None: numeric
        self.symbolic = tags is not None
        self.threads = grid * block
        self.tid = np.arange(self.threads) % block
        self.bid = np.arange(self.threads) // block
        self.events = []  # (instruction, alloc, thread, word, epoch) arrays
        self.epoch = 0
        self.globals = {}

    def fill(self, shape):
        if self.symbolic:
            array = np.zeros(_tuple(shape) + (len(self.tags),), dtype=np.int16)
            array[..., UNDEFINED] = 1
            return array
        return np.full(shape, 0xDEADBEEF, dtype=np.uint32)


_BINARY = {"add": {"f32": lambda a, b: a.view(np.float32) + b.view(np.float32),
                   "s32": lambda a, b: a + b, "u32": lambda a, b: a + b},
           "max": {"f32": lambda a, b: np.fmax(a.view(np.float32), b.view(np.float32)),
                   "s32": lambda a, b: np.maximum(a.view(np.int32), b.view(np.int32)),
                   "u32": np.maximum},
           "min": {"f32": lambda a, b: np.fmin(a.view(np.float32), b.view(np.float32)),
                   "s32": lambda a, b: np.minimum(a.view(np.int32), b.view(np.int32)),
                   "u32": np.minimum}}


def _tuple(shape):
    return tuple(shape) if isinstance(shape, tuple) else (shape,)


def _parse(text):
    """The kernel's lines as (kind, ...) items; scf.for bodies nested."""
    lines = [re.sub(r"\s+loc\(.*\)\s*$", "", line).strip() for line in text.splitlines()]
    header = lines[0]
    params = re.findall(r"%(\w+): (!tirx\.tensor<[^{]*?>)(?=, %|\) launch)", header)
    grid = [int(v) for v in re.search(r"grid = \[([^\]]*)\]", header).group(1).split(",")]
    block = [int(v) for v in re.search(r"block = \[([^\]]*)\]", header).group(1).split(",")]
    stack = [[]]
    for line in lines[1:]:
        loop = re.match(r"scf\.for (%\w+) = (%\w+) to (%\w+) step (%\w+) \{$", line)
        if loop:
            body = []
            stack[-1].append(("for",) + loop.groups() + (body,))
            stack.append(body)
        elif line.startswith("}"):
            if len(stack) > 1:
                stack.pop()
        elif line and line != "tirx.return":
            stack[-1].append(("op", line))
    return params, math.prod(grid), math.prod(block), stack[0]


def interpret(trace, arguments, symbolic=False):
    """Runs `trace` (a KernelTrace, or its text) on `arguments`: {parameter
    name: its words (numeric: an array, seen as uint32; symbolic: True, each
    word its own tag) or None (written only)}. Returns the Run:
    run.globals[name] holds each parameter's words afterwards (symbolic:
    (words, tags) counts)."""
    params, grid, block, body = _parse(getattr(trace, "text", trace))
    types = {name: TensorType(text) for name, text in params}
    tags = None
    if symbolic:
        tags = [None] + [(name, i) for name, _ in params if arguments.get(name) is not None
                         for i in range(math.prod(types[name].shape))]
    run = Run(grid, block, tags)
    values = {}
    for name, _ in params:
        count = math.prod(types[name].shape)
        given = arguments.get(name)
        if symbolic:
            words = run.fill(count)
            if given is not None:
                first = tags.index((name, 0))
                words[np.arange(count), UNDEFINED] = 0
                words[np.arange(count), first + np.arange(count)] = 1
        else:
            words = (np.full(count, 0xDEADBEEF, dtype=np.uint32) if given is None
                     else np.ascontiguousarray(given).reshape(-1).view(np.uint32).copy())
        run.globals[name] = words
        values["%" + name] = Tensor(("global", name), "global", np.zeros(run.threads, int))
    run.storage = {}
    _execute(run, body, values)
    return run


def _index(values, run, operand):
    value = values[operand]
    if isinstance(value, Tensor):
        raise InterpretError("%s is a tensor, not an index" % operand)
    return value


def _execute(run, body, values):
    for item in body:
        if item[0] == "for":
            _, iv, lo, hi, step, inner = item
            lo, hi, step = (int(_index(values, run, v)[0]) for v in (lo, hi, step))
            for i in range(lo, hi, step):
                values[iv] = np.full(run.threads, i)
                _execute(run, inner, values)
        else:
            _op(run, item[1], values)


_ARITH = {"addi": np.add, "subi": np.subtract, "muli": np.multiply,
          "divsi": lambda a, b: np.trunc(a / b).astype(int), "remsi": np.fmod,
          "floordivsi": np.floor_divide, "divui": np.floor_divide, "remui": np.mod,
          "ceildivsi": lambda a, b: -(-a // b)}
_CMP = {"eq": np.equal, "ne": np.not_equal, "slt": np.less, "sle": np.less_equal,
        "sgt": np.greater, "sge": np.greater_equal, "ult": np.less, "ule": np.less_equal,
        "ugt": np.greater, "uge": np.greater_equal}


def _op(run, line, values):
    match = re.match(r"(%\w+) = (\S+) ?(.*)$", line)
    if match:
        result, op, rest = match.groups()
        if op == "arith.constant":
            values[result] = np.full(run.threads, int(rest.split(":")[0]))
        elif op.startswith("arith.") and op[6:] in _ARITH:
            a, b = (s.strip() for s in rest.split(":")[0].split(","))
            values[result] = _ARITH[op[6:]](values[a], values[b])
        elif op == "arith.cmpi":
            pred, a, b = (s.strip() for s in rest.split(":")[0].split(","))
            values[result] = _CMP[pred](values[a], values[b])
        elif op == "tirx.thread_idx":
            values[result] = run.tid.copy()
        elif op == "tirx.block_idx":
            values[result] = run.bid.copy()
        elif op in ("tirx.alloc_local", "tirx.alloc_shared"):
            type_ = TensorType(rest[rest.index("!tirx"):])
            key = (op, result)
            if op == "tirx.alloc_local":
                span = max(1, int(element_map(type_.layout, type_.shape)["m"].max()) + 1
                           if type_.layout else math.prod(type_.shape))
                run.storage[key] = run.fill((run.threads, span))
                values[result] = Tensor(key, "local", None)
            else:
                size = math.prod(type_.shape)
                run.storage[key] = run.fill(run.grid * size)
                run.storage[key + ("size",)] = size
                values[result] = Tensor(key, "shared", np.zeros(run.threads, int))
        elif op in ("tirx.view", "tirx.reinterpret"):
            values[result] = values[rest.split(" ", 1)[0]]
        elif op == "tirx.region":
            region = re.match(r"(%\w+)\[([^\]]*)\] \[[^\]]*\](?: align \d+)? : (.*)$", rest)
            source = values[region.group(1)]
            offsets = _split_top(region.group(2))
            if source.space == "local":
                if any(o.startswith("%") for o in offsets):
                    raise InterpretError("a local region at a dynamic offset: %s" % line)
                values[result] = source  # static offsets are in the region's layout
            else:
                base = source.base.copy()
                for offset, stride in zip(offsets, _strides(TensorType(region.group(3)))):
                    if offset.startswith("%"):  # static offsets are in the layout
                        base = base + values[offset] * stride
                values[result] = Tensor(source.storage, source.space, base)
        else:
            raise InterpretError("unknown op: %s" % line)
        return
    if line == "tirx.cta_sync":
        run.epoch += 1
    elif line.startswith("tile.apply"):
        _apply(run, line, values)
    else:
        raise InterpretError("unknown op: %s" % line)


_APPLY = re.compile(r'tile\.apply "([^"]+)" scope\((\w+)\) \((.*?)\)(?: pred\((%\w+)\))? : (.*)$')


def _apply(run, line, values):
    match = _APPLY.match(line)
    if not match:
        raise InterpretError("unparsed apply: %s" % line)
    name, scope, operand_text, pred, type_text = match.groups()
    operands = _split_top(operand_text)
    types = iter(TensorType(t) for t in _split_top(type_text))
    tensors, immediates = [], []
    for operand in operands:
        if operand.startswith("%"):
            tensors.append((values[operand], next(types)))
        else:
            immediates.append(int(operand.split(":")[0].strip(), 0))
    # The elements, and the thread that executes each (from the local operands).
    local = [(t, ty) for t, ty in tensors if t.space == "local"]
    if not local:
        raise InterpretError("an apply without a local operand: %s" % line)
    maps = [element_map(ty.layout, ty.shape) for _, ty in tensors]
    owner = None
    for (tensor, ty), m in zip(tensors, maps):
        if tensor.space != "local":
            continue
        if scope == "cta":
            mine = m.get("warpid", 0) * 32 + m["laneid"]
        elif scope == "warp":
            if "warpid" in m:
                raise InterpretError("a warp-scope operand on warpid: %s" % line)
            mine = m["laneid"]
        else:
            raise InterpretError("scope %s: %s" % (scope, line))
        if owner is not None and not np.array_equal(owner, mine):
            raise InterpretError("local operands of different owners: %s" % line)
        owner = mine
    block = run.block
    if scope == "cta":
        starts = np.arange(run.grid) * block
    else:
        starts = np.arange(run.threads // 32) * 32
    threads = (starts[:, None] + owner[None, :]).reshape(-1)  # (executions,)
    element = np.tile(np.arange(owner.size), starts.size)
    active = np.ones(threads.size, bool) if pred is None else values[pred][threads]

    def location(k):
        """(array, index) of operand k's word for every execution."""
        tensor, _ = tensors[k]
        m = maps[k]["m"][element]
        if tensor.space == "local":
            return run.storage[tensor.storage], (threads, m)
        words = tensor.base[threads] + m
        if tensor.space == "global":
            return run.globals[tensor.storage[1]], (words,)
        size = run.storage[tensor.storage + ("size",)]
        if np.any((words < 0) | (words >= size)):
            raise InterpretError("a shared access outside its allocation: %s" % line)
        return run.storage[tensor.storage], (run.bid[threads] * size + words,)

    def record(kind, k):
        tensor, _ = tensors[k]
        if tensor.space == "shared":
            array, (flat,) = location(k)
            run.events.append((kind, tensor.storage, threads[active], flat[active],
                               run.epoch))

    family = name.split(".")[0]
    if family in ("ld", "st", "mov") and name.endswith(".b32"):
        array, index = location(1)
        source = array[index]
        record("read", 1)
        record("write", 0)
        array, index = location(0)
        _store(array, index, source, active)
    elif name == "shfl.sync.bfly.b32":
        offset, clamp, mask = immediates
        if clamp != 31 or mask != -1:
            raise InterpretError("a partial shuffle: %s" % line)
        array, index = location(1)
        by_thread = run.fill(run.threads)
        by_thread[threads] = array[index]
        partner = (threads & ~31) | ((threads & 31) ^ offset)
        array, index = location(0)
        _store(array, index, by_thread[partner], active)
    elif family in _BINARY:
        kind = name.split(".")[-1]
        a_array, a_index = location(1)
        b_array, b_index = location(2)
        a, b = a_array[a_index], b_array[b_index]
        if run.symbolic:
            result = a + b
        else:
            result = np.asarray(_BINARY[family][kind](a, b)).view(np.uint32)
        array, index = location(0)
        _store(array, index, result, active)
    else:
        raise InterpretError("unknown instruction %s" % name)


def _store(array, index, source, active):
    index = tuple(i[active] for i in index)
    array[index] = source[active]


def races(run):
    """The shared words two threads touch in one epoch, one of them writing:
    [(alloc, word, epoch, threads)]."""
    touched = collections.defaultdict(lambda: [set(), set()])
    for kind, alloc, threads, words, epoch in run.events:
        for t, w in zip(threads.tolist(), words.tolist()):
            touched[(alloc, w, epoch)][kind == "write"].add(t)
    out = []
    for (alloc, word, epoch), (readers, writers) in touched.items():
        if writers and len(readers | writers) > 1:
            out.append((alloc, word, epoch, sorted(readers | writers)))
    return out
