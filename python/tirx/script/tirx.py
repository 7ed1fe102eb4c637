"""The T namespace: `from tirx.script import tirx as T`."""
import types as _types

from .._control import DoWhile, Else, If, Then, serial, unroll
from .._reduce import (cta_reduce as _cta_reduce, group_exchange as _group_exchange,
                       group_reduce as _group_reduce, warp_reduce as _warp_reduce)
from .._dsl import (DTYPES as _DTYPES, SizeVar as _SizeVar, Tensor, ceildiv, if_then_else,
                    math_functions as _math_functions, to_index as index)


def dynamic(name, multiple_of=1, at_most=None):
    """`n = T.dynamic("n")`: a tensor extent known at launch (docs/sizes.md);
    `multiple_of=4` declares that every launch's value is a multiple of 4
    (checked by the launcher) so that vector accesses stay provably aligned;
    `at_most=4096` that no launch's value exceeds 4096 (checked by the
    launcher too): the most a kernel whose registers hold a row can take."""
    return _SizeVar(name, multiple_of, at_most)
from .._function import (LaunchConfig, alloc_local, alloc_shared, apply as _apply,
                         atomic_add as _atomic_add,
                         block_idx as _block_idx, cta_sync as _cta_sync,
                         device_entry, ewise as _ewise, function, print_, ptx,
                         thread_idx as _thread_idx)

globals().update(_DTYPES)


# The math functions (TVM's T names; docs/python.md "Math functions"):
# exp, exp2, exp10, log, log2, log10, log1p, expm1, sqrt, rsqrt, cbrt,
# sigmoid, sin, cos, tan, asin, acos, atan, atan2, sinh, cosh, tanh, asinh,
# acosh, atanh, erf, pow, hypot, fma, fmod, copysign, abs/fabs, floor, ceil,
# trunc, round, nearbyint, max, min, isnan, isinf, isfinite, clz, popcount.
globals().update(_math_functions())


cuda = _types.SimpleNamespace(
    LaunchConfig=LaunchConfig,
    thread_idx=_thread_idx,
    block_idx=_block_idx,
    cta_sync=_cta_sync,
    atomic_add=_atomic_add,
    warp_reduce=_warp_reduce,
    cta_reduce=_cta_reduce,
    group_reduce=_group_reduce,
    group_exchange=_group_exchange,
    tile=_types.SimpleNamespace(apply=_apply, ewise=_ewise),
)

# T.print: printf from the threads that execute it (docs/python.md).
globals()["print"] = print_
