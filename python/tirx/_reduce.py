"""T.cuda.warp_reduce, T.cuda.cta_reduce and T.cuda.group_reduce: reductions
across threads built from the warp-collective tile families
(docs/collectives.md), in the spirit of TIRx's
`T.cuda.warp_reduce(value, op, width)` / `cta_reduce` helpers, on tiles
instead of scalars.

`value` holds one value per thread of the CTA: a local tile of shape
(warps, 32, 1) whose layout puts element (w, l, 0) in warp w, lane l,
register 0 (`S[(warps, 32, 1) : (1@warpid, 1@laneid, 1)]`); for
group_reduce, a warp-scope (32, n) tile. Every helper
leaves the result in every thread's `value` (butterflies: all lanes end with
the same value), so it can be used right away as an operand of per-thread
instructions. The order of the floating-point operations is fixed
(butterfly over offsets 16, 8, 4, 2, 1, then over the warps), so a result is
reproducible from run to run.

cta_reduce and group_reduce exchange values through shared slots that each
call allocates once, with one barrier between the writes and the reads.
Called again on the same slots (one call in the body of a loop), a warp's
next writes may overtake another warp's reads: separate two such calls by
a barrier (T.cuda.cta_sync(), or another of these reductions, as softmax's
max and sum are)."""
import math

from ._dsl import TensorValue, _error, as_dtype, builder
from ._function import alloc_local, alloc_shared, apply, cta_sync, thread_idx
from .layout import S, TileLayout
from .cuda.axis import laneid, warpid

# op -> instruction per element dtype.
_OPS = {
    "sum": {"float32": "add.rn.f32", "int32": "add.s32", "uint32": "add.u32"},
    "max": {"float32": "max.f32", "int32": "max.s32", "uint32": "max.u32"},
    "min": {"float32": "min.f32", "int32": "min.s32", "uint32": "min.u32"},
}


def _check(value, op, width):
    if not isinstance(value, TensorValue):
        raise _error("a reduction needs a local tile of one value per thread, got %s"
                     % type(value).__name__)
    if value.type.space != "local":
        raise _error("a reduction needs a local tile of one value per thread, got a %s tensor"
                     % value.type.space)
    shape = value.shape
    if len(shape) != 3 or shape[1] != 32 or shape[2] != 1:
        raise _error("a reduction needs a (warps, 32, 1) tile (one value per thread), got shape %s"
                     % (tuple(shape),))
    instruction = _instruction(op, value)
    if width not in (2, 4, 8, 16, 32):
        raise _error("width must be 2, 4, 8, 16 or 32 lanes, got %r" % (width,))
    return instruction


def _instruction(op, value):
    """The PTX instruction that combines two of `value`'s elements for `op`."""
    dtype = value.dtype.name
    if op not in _OPS:
        raise _error("unknown reduction %r; expected one of %s" % (op, ", ".join(_OPS)))
    if dtype not in _OPS[op]:
        raise _error("%s reductions take %s tiles, got %s"
                     % (op, ", ".join(_OPS[op]), dtype))
    return _OPS[op][dtype]


def _halving(width):
    """The butterfly offsets over `width` lanes: width/2, ..., 1."""
    offsets = []
    while width > 1:
        width //= 2
        offsets.append(width)
    return offsets


def _butterflies(value, instruction, offsets, scope="cta"):
    """Butterflies over the lanes of `value`: a (warps, 32, n) tile at `cta`
    scope or a (32, n) tile at `warp` scope, n values per thread. For each
    offset, all n shuffles, then the n operations (independent chains)."""
    *threads, values = value.shape
    lanes = (S[(threads[0], 32, values) : (1 @ warpid, 1 @ laneid, 1)] if scope == "cta"
             else S[(32, values) : (1 @ laneid, 1)])
    other = alloc_local(value.shape, value.dtype, layout=TileLayout(lanes))

    def slot(tile, i):
        return tile.sub[(slice(None),) * len(threads) + (slice(i, i + 1),)]
    for offset in offsets:
        for i in range(values):
            apply("shfl.sync.bfly.b32", slot(other, i).view(*threads),
                  slot(value, i).view(*threads), as_dtype("int32")(offset),
                  as_dtype("int32")(31), as_dtype("int32")(-1), scope=scope)
        for i in range(values):
            apply(instruction, slot(value, i), slot(value, i), slot(other, i), scope=scope)


def warp_reduce(value, op="sum", width=32):
    """Reduces `value` over groups of `width` consecutive lanes of each warp
    (shfl.sync.bfly), in place: every lane of a group ends with the group's
    result."""
    instruction = _check(value, op, width)
    _butterflies(value, instruction, _halving(width))
    return value


def cta_reduce(value, op="sum"):
    """Reduces `value` over the whole CTA, in place, with one barrier: each
    warp reduces by butterflies, lane 0 of each warp stores its warp's value
    to shared memory, and lane l of every warp reads warp (l mod warps)'s
    value back for log2(warps) more butterflies. The block must have a
    power-of-two number of warps (at most 32)."""
    instruction = _check(value, op, 32)
    warps = value.shape[0]
    if warps & (warps - 1):
        raise _error("cta_reduce needs a power-of-two number of warps, got %d" % warps)
    _butterflies(value, instruction, _halving(32))
    if warps == 1:
        return value
    smem = alloc_shared((warps,), value.dtype)
    # Written with lanes broadcast (lane 0 writes), read with warps broadcast.
    per_warp = TileLayout(S[(warps, 32, 1) : (1, 0, 1)])
    lane_reads = TileLayout(S[(warps, 32 // warps, warps, 1) : (0, 0, 1, 1)])
    is_lane0 = thread_idx("x") % 32 == 0
    apply("st.shared.b32", smem.view(warps, 32, 1, layout=per_warp), value, scope="cta",
          pred=is_lane0)
    cta_sync()
    apply("ld.shared.b32", value, smem.view(warps, 32, 1, layout=lane_reads), scope="cta")
    _butterflies(value, instruction, _halving(warps))
    return value


def group_reduce(value, op="sum", warps=1):
    """Reduces a warp-scope tile over each group of `warps` consecutive
    warps of the CTA (a power of two), in place, with one barrier: a CTA
    that holds several rows gives each row a group of warps (warp w is in
    group w / warps). `value` holds n values per lane, a (32, n) local tile
    laid out as `S[(32, n) : (1@laneid, 1)]`, used at `warp` scope; each of
    the n is reduced on its own. Every warp of the CTA must call it (it
    meets the others at the barrier). Each warp reduces by butterflies, lane
    0 stores the warp's values to shared memory, and lane l of warp w reads
    those of warp (w / warps) warps + l mod warps for log2(warps) more
    butterflies; every lane of a group ends with the group's results."""
    if not isinstance(value, TensorValue) or value.type.space != "local":
        raise _error("group_reduce needs a local (32, n) tile of n values per lane")
    shape = value.shape
    if len(shape) != 2 or shape[0] != 32:
        raise _error("group_reduce needs a (32, n) tile (n values per lane), got shape %s"
                     % (tuple(shape),))
    if not isinstance(warps, int) or isinstance(warps, bool) or warps < 1 \
            or warps > 32 or warps & (warps - 1):
        raise _error("group_reduce: warps must be a power of two in [1, 32], got %r" % (warps,))
    instruction = _instruction(op, value)
    launch = builder().launch
    if launch is None:
        raise _error("group_reduce comes after T.device_entry (it needs the block's warps)")
    block = launch.block
    threads = math.prod(block)
    if any(extent != 1 for extent in block[1:]) or threads % 32 or (threads // 32) % warps:
        raise _error("group_reduce needs a one-dimensional block of whole warps that groups "
                     "of %d warps divide, got block %s" % (warps, tuple(block)))
    values = shape[1]
    _butterflies(value, instruction, _halving(32), scope="warp")
    if warps == 1:
        return value
    # Lane 0 of warp w writes slots w n .. w n + n - 1; lane l of warp w
    # reads those of its group's warp l mod warps.
    smem = alloc_shared((threads // 32 * values,), value.dtype)
    warp = thread_idx("x") // 32
    first = warp // warps * warps
    apply("st.shared.b32",
          smem[warp * values:warp * values + values].view(
              32, values, 1, layout=TileLayout(S[(32, values, 1) : (0, 1, 1)])),
          value.view(32, values, 1), scope="warp", pred=thread_idx("x") % 32 == 0)
    cta_sync()
    apply("ld.shared.b32", value.view(32, values, 1),
          smem[first * values:first * values + warps * values].view(
              32, values, 1,
              layout=TileLayout(S[(32 // warps, warps, values, 1) : (0, values, 1, 1)])),
          scope="warp")
    _butterflies(value, instruction, _halving(warps), scope="warp")
    return value
