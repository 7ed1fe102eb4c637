"""T.cuda.warp_reduce and T.cuda.cta_reduce: reductions across threads built
from the warp-collective tile families (docs/collectives.md), in the spirit
of TIRx's `T.cuda.warp_reduce(value, op, width)` / `cta_reduce` helpers, on
tiles instead of scalars.

`value` holds one value per thread of the CTA: a local tile of shape
(warps, 32, 1) whose layout puts element (w, l, 0) in warp w, lane l,
register 0 (`S[(warps, 32, 1) : (1@warpid, 1@laneid, 1)]`). Every helper
leaves the result in every thread's `value` (butterflies: all lanes end with
the same value), so it can be used right away as an operand of per-thread
instructions. The order of the floating-point operations is fixed
(butterfly over offsets 16, 8, 4, 2, 1, then over the warps), so a result is
reproducible from run to run."""
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
    dtype = value.dtype.name
    if op not in _OPS:
        raise _error("unknown reduction %r; expected one of %s" % (op, ", ".join(_OPS)))
    if dtype not in _OPS[op]:
        raise _error("%s reductions take %s tiles, got %s"
                     % (op, ", ".join(_OPS[op]), dtype))
    if width not in (2, 4, 8, 16, 32):
        raise _error("width must be 2, 4, 8, 16 or 32 lanes, got %r" % (width,))
    return _OPS[op][dtype]


def _lane_layout(warps):
    return TileLayout(S[(warps, 32, 1) : (1 @ warpid, 1 @ laneid, 1)])


def _halving(width):
    """The butterfly offsets over `width` lanes: width/2, ..., 1."""
    offsets = []
    while width > 1:
        width //= 2
        offsets.append(width)
    return offsets


def _butterflies(value, instruction, offsets):
    warps = value.shape[0]
    other = alloc_local(value.shape, value.dtype, layout=_lane_layout(warps))
    for offset in offsets:
        apply("shfl.sync.bfly.b32", other.view(warps, 32), value.view(warps, 32),
              as_dtype("int32")(offset), as_dtype("int32")(31), as_dtype("int32")(-1),
              scope="cta")
        apply(instruction, value, value, other, scope="cta")


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
