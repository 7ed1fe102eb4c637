"""A kernel's launch described once: its parameters (names, kinds, argument
slots, dtypes, shapes with size variables, alignments, scalar ranges), its
size variables and its TMA tensor maps, as the compact descriptor that the
C checker (lib/Python/FastLaunch.c, `tirx._fastlaunch.Launcher`) executes.
Every check of a launch's arguments runs there, on the fast path and on the
general one alike; this module only says what to check."""
import ctypes
import os

from .._dsl import DType
from ._library import _fast_launch_module

_CTYPES = {"f32": ctypes.c_float, "f64": ctypes.c_double, "i32": ctypes.c_int32,
           "ui32": ctypes.c_uint32, "i64": ctypes.c_int64, "ui64": ctypes.c_uint64,
           "i16": ctypes.c_int16, "ui16": ctypes.c_uint16, "i8": ctypes.c_int8,
           "ui8": ctypes.c_uint8, "i1": ctypes.c_bool}
_F32_MAX = 3.4028234663852886e38
_F64_MAX = 1.7976931348623157e308

# How the general path read a tensor (FastLaunch.c's ReadTorch, ...): which
# element type names it accepts (__cuda_array_interface__ also says <V2 or
# <f2 for bfloat16).
READ_TORCH, READ_INTERFACE, READ_DLPACK = 0, 1, 2


def _is_static(extent):
    return isinstance(extent, int) and not isinstance(extent, bool)


def scalar_spec(name, kind, slot):
    """A scalar parameter's description: ("float", slot, name, type, bytes,
    largest finite magnitude), ("int", slot, name, type, bytes, low, high),
    or ("other", slot, name, type, is_float) for a type no launch passes."""
    if kind.mlir in ("f32", "f64"):
        return ("float", slot, name, kind.name, kind.bits // 8,
                _F32_MAX if kind.mlir == "f32" else _F64_MAX)
    if kind.mlir in _CTYPES:
        low = 0 if kind.kind in "ub" else -(1 << (kind.bits - 1))
        return ("int", slot, name, kind.name, ctypes.sizeof(_CTYPES[kind.mlir]), low,
                low + (1 << kind.bits) - 1)
    return ("other", slot, name, kind.name, bool(kind.is_float))


def tensor_spec(name, kind, slot, size_index):
    """A tensor parameter's description: ("tensor", slot, name, dims,
    alignment, typestr, dtype name, element bytes); dims hold the static
    extents and size variable k as -(k + 1)."""
    dims = tuple(e if _is_static(e) else -(size_index[e.name] + 1) for e in kind.shape)
    return ("tensor", slot, name, dims, kind.alignment_or_default, kind.dtype.typestr,
            kind.dtype.name, kind.dtype.bits // 8)


def slot_type(kind):
    """The ctypes type of a parameter's argument value."""
    if isinstance(kind, DType):
        return _CTYPES.get(kind.mlir, ctypes.c_int64)
    return ctypes.c_void_p


class MapBuffer:
    """Room for one 128-byte CUtensorMap, 64-byte aligned: `address`."""

    def __init__(self):
        self._buffer = (ctypes.c_ubyte * 192)()
        base = ctypes.addressof(self._buffer)
        self.address = base + (-base) % 64


def _missing():
    return RuntimeError("tirx: launching needs the launcher's C part, _fastlaunch.abi3.so "
                        "(lib/Python, built beside libTirXRuntime.so, for CPython 3.11 or "
                        "later and not free-threaded), which was not found")


class Plan:
    """The descriptor of one kernel's launch and the C checker made from it.

    `params` are (name, kind) pairs (a DType for a scalar, a TensorType
    otherwise), `size_vars` the kernel's size variables (.name,
    .multiple_of, .at_most), `maps` its TMA maps as (parameter, box,
    swizzle[, element type]). `slots` are the fast path's argument values
    (ctypes objects: the parameters', then the size variables'), and
    `map_buffers` its tensor maps'; `checker` is the C Launcher. `general`
    (args -> result) is where the fast path sends a call it does not take;
    `fast` False sends it every call (TIRX_FAST_LAUNCH=0 too)."""

    def __init__(self, name, params, size_vars=(), maps=(), general=None, failed=None,
                 grids=None, grid_for=None, fast=True):
        module = _fast_launch_module()
        if module is None:
            raise _missing()
        self.params, self.size_vars = list(params), list(size_vars)
        size_index = {v.name: k for k, v in enumerate(self.size_vars)}
        self.slot_types = [slot_type(kind) for _, kind in self.params]
        self.slot_types += [ctypes.c_int64] * len(self.size_vars)
        self.slots = [t() for t in self.slot_types]
        specs = []
        for i, (name_, kind) in enumerate(self.params):
            slot = ctypes.addressof(self.slots[i])
            if isinstance(kind, DType):
                specs.append(scalar_spec(name_, kind, slot))
            else:
                specs.append(tensor_spec(name_, kind, slot, size_index))
        n = len(self.params)
        sizes = tuple((ctypes.addressof(self.slots[n + k]), var.name, var.multiple_of,
                       var.at_most or 0) for k, var in enumerate(self.size_vars))
        self.maps = [(entry[0], tuple(entry[1]), entry[2], entry[3] if len(entry) > 3 else "")
                     for entry in maps]
        self.map_buffers = [MapBuffer() for _ in self.maps]
        map_specs = tuple(m + (b.address,) for m, b in zip(self.maps, self.map_buffers))
        fast = fast and os.environ.get("TIRX_FAST_LAUNCH", "1") != "0"
        self.descriptor = (tuple(specs), sizes, map_specs)
        self.checker = module.Launcher(general, failed, name, tuple(specs), sizes, map_specs,
                                       grids, grid_for, fast)
        # The fast path's args array: the slots, then the maps.
        self.pointers = (ctypes.c_void_p * max(len(self.slots) + len(self.maps), 1))(
            *([ctypes.addressof(s) for s in self.slots] +
              [b.address for b in self.map_buffers]))


def size_vars_of(params):
    """The size variables in the shapes of `params`, each once, in order."""
    seen = {}
    for _, kind in params:
        if isinstance(kind, DType):
            continue
        for extent in kind.shape:
            if not _is_static(extent) and extent.name not in seen:
                seen[extent.name] = extent
    return list(seen.values())
