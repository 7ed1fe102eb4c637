"""T.cuda.warp_reduce, T.cuda.cta_reduce and T.cuda.group_reduce: reductions
across threads, and T.cuda.group_exchange, group_reduce's exchange between
warps alone; built from the warp-collective tile families
(docs/collectives.md), in the spirit of TIRx's
`T.cuda.warp_reduce(value, op, width)` / `cta_reduce` helpers, on tiles
instead of scalars.

`value` holds one value per thread of the CTA: a local tile of shape
(warps, 32, 1) whose layout puts element (w, l, 0) in warp w, lane l,
register 0 (`S[(warps, 32, 1) : (1@warpid, 1@laneid, 1)]`); for
group_reduce and group_exchange (and warp_reduce too), a warp-scope (32, n)
tile. Every helper
leaves the result in every thread's `value` (butterflies: all lanes end with
the same value), so it can be used right away as an operand of per-thread
instructions. The order of the floating-point operations is fixed
(butterfly over offsets 16, 8, 4, 2, 1, then over the warps), so a result is
reproducible from run to run.

cta_reduce, group_reduce and group_exchange exchange values through shared
slots that each call allocates once, with one barrier between the writes
and the reads. Inside a loop kept on the GPU (T.serial, T.DoWhile) the same
slots serve every iteration, and a fast warp's next writes could overtake a
slow warp's reads: there the call adds a second barrier after its reads.
(A T.unroll loop traces a call per iteration, each with its own slots.)"""
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
    """The instruction for `op` on `value` and the scope `value` is used
    at: `cta` for a local (warps, 32, 1) tile of one value per thread,
    `warp` for a (32, n) tile of n values per lane."""
    if not isinstance(value, TensorValue):
        raise _error("a reduction needs a local tile of one value per thread, got %s"
                     % type(value).__name__)
    if value.type.space != "local":
        raise _error("a reduction needs a local tile of one value per thread, got a %s tensor"
                     % value.type.space)
    shape = value.shape
    if len(shape) == 2 and shape[0] == 32:
        scope = "warp"
    elif len(shape) == 3 and shape[1] == 32 and shape[2] == 1:
        scope = "cta"
    else:
        raise _error("a reduction needs a (warps, 32, 1) tile (one value per thread) or a "
                     "warp-scope (32, n) tile, got shape %s" % (tuple(shape),))
    instruction = _instruction(op, value)
    if width not in (2, 4, 8, 16, 32):
        raise _error("width must be 2, 4, 8, 16 or 32 lanes, got %r" % (width,))
    return instruction, scope


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
    result. `value` is a (warps, 32, 1) tile at `cta` scope or a (32, n)
    tile at `warp` scope (`S[(32, n) : (1@laneid, 1)]`, each of its n
    values reduced on its own)."""
    instruction, scope = _check(value, op, width)
    _butterflies(value, instruction, _halving(width), scope=scope)
    return value


def cta_reduce(value, op="sum"):
    """Reduces `value` over the whole CTA, in place, with one barrier (two
    in a loop kept on the GPU: see above): each
    warp reduces by butterflies, lane 0 of each warp stores its warp's value
    to shared memory, and lane l of every warp reads warp (l mod warps)'s
    value back for log2(warps) more butterflies. The block must have a
    power-of-two number of warps (at most 32)."""
    instruction, scope = _check(value, op, 32)
    if scope != "cta":
        raise _error("cta_reduce needs a (warps, 32, 1) tile (one value per thread), got "
                     "shape %s; group_reduce takes warp-scope tiles" % (tuple(value.shape),))
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
    _release_slots()
    _butterflies(value, instruction, _halving(warps))
    return value


def _release_slots():
    """After the reads of a call's shared slots: inside a loop kept on the
    GPU, a barrier, so that no warp's next writes to the slots overtake
    another warp's reads (the next iteration runs the same call)."""
    if any(frame.kind in ("T.serial", "T.DoWhile") for frame in builder().frames):
        cta_sync()


def _warp_tile(value, what):
    """`value`'s n values per lane, or a CompileError: a warp-scope (32, n)
    local tile."""
    if not isinstance(value, TensorValue) or value.type.space != "local":
        raise _error("%s needs a local (32, n) tile of n values per lane" % what)
    shape = value.shape
    if len(shape) != 2 or shape[0] != 32:
        raise _error("%s needs a (32, n) tile (n values per lane), got shape %s"
                     % (what, tuple(shape)))
    return shape[1]


def _block_warps(warps, what):
    """The block's warps, which groups of `warps` must divide, or a
    CompileError."""
    if not isinstance(warps, int) or isinstance(warps, bool) or warps < 1 \
            or warps > 32 or warps & (warps - 1):
        raise _error("%s: warps must be a power of two in [1, 32], got %r" % (what, warps))
    launch = builder().launch
    if launch is None:
        raise _error("%s comes after T.device_entry (it needs the block's warps)" % what)
    block = launch.block
    threads = math.prod(block)
    if any(extent != 1 for extent in block[1:]) or threads % 32 or (threads // 32) % warps:
        raise _error("%s needs a one-dimensional block of whole warps that groups "
                     "of %d warps divide, got block %s" % (what, warps, tuple(block)))
    return threads // 32


def group_exchange(value, warps):
    """Shares lane 0's values of every warp with its group of `warps`
    consecutive warps (a power of two; warp w is in group w / warps), in
    place, with one barrier (two in a loop kept on the GPU): afterwards
    lane l of warp w holds the n values
    that lane 0 of warp (w / warps) warps + l mod warps held. `value` is a
    warp-scope (32, n) tile laid out as `S[(32, n) : (1@laneid, 1)]`. Every
    warp of the CTA must call it (it meets the others at the barrier).
    Butterflies over `warps` lanes (T.cuda.warp_reduce with width=warps)
    then combine the group's values; group_reduce is that, after a warp
    reduction. Lane 0 of warp w writes shared slots w n .. w n + n - 1."""
    values = _warp_tile(value, "group_exchange")
    block_warps = _block_warps(warps, "group_exchange")
    smem = alloc_shared((block_warps * values,), value.dtype)
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
    _release_slots()
    return value


def group_reduce(value, op="sum", warps=1):
    """Reduces a warp-scope tile over each group of `warps` consecutive
    warps of the CTA (a power of two), in place, with one barrier (two in a
    loop kept on the GPU): a CTA
    that holds several rows gives each row a group of warps (warp w is in
    group w / warps). `value` holds n values per lane, a (32, n) local tile
    laid out as `S[(32, n) : (1@laneid, 1)]`, used at `warp` scope; each of
    the n is reduced on its own. Every warp of the CTA must call it (it
    meets the others at the barrier). Each warp reduces by butterflies, then
    group_exchange gives lane l of warp w the values of warp
    (w / warps) warps + l mod warps, and log2(warps) more butterflies leave
    every lane of a group with the group's results."""
    _warp_tile(value, "group_reduce")
    _block_warps(warps, "group_reduce")
    instruction = _instruction(op, value)
    _butterflies(value, instruction, _halving(32), scope="warp")
    if warps == 1:
        return value
    group_exchange(value, warps)
    _butterflies(value, instruction, _halving(warps), scope="warp")
    return value
