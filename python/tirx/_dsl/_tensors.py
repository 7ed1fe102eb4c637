"""Tensors: their types, parameters and the values a body works on."""
import ctypes
import math

from .. import _capi
from ..layout import TileLayout
from ._builder import _state, builder
from ._dtypes import DTYPES, DType, as_dtype
from ._errors import _error, _user_position, check_shape, is_int
from ._sizes import GridExpr, SizeVar, check_align, divisor_of

#===------------------------------------------------------------------------===#
# Tensors
#===------------------------------------------------------------------------===#

class TensorType:
    def __init__(self, shape, dtype, space, layout=None, align=None):
        self.shape = tuple(d if isinstance(d, SizeVar) else int(d) for d in shape)
        self.dtype, self.space = dtype, space
        self.layout = layout  # TileLayout or None
        self.align = align

    @property
    def size_vars(self):
        """The size variables of the runtime extents, in order."""
        return [d for d in self.shape if isinstance(d, SizeVar)]

    @property
    def alignment_or_default(self):
        """The declared alignment in bytes, else the element size (as
        TensorType::getAlignmentOrDefault in C++)."""
        return self.align or self.dtype.bits // 8

    def __str__(self):
        text = "x".join("?" if isinstance(d, SizeVar) else str(d) for d in self.shape) + \
            "x" + self.dtype.mlir + ", " + self.space
        if self.layout is not None:
            text += ", #tirx.layout<%s>" % self.layout
        if self.size_vars:
            text += ", sizes = [%s]" % ", ".join(v.name for v in self.size_vars)
        if self.align:
            text += ", align = %d" % self.align
        return "!tirx.tensor<%s>" % text

    @staticmethod
    def parse(text):
        """The type MLIR inferred (for regions), back into Python."""
        body = text[len("!tirx.tensor<"):-1]
        head, _, rest = body.partition(", ")
        dims = head.split("x")
        dtype = next(d for d in DTYPES.values() if d.mlir == dims[-1])
        space, _, rest = rest.partition(", ")
        layout = align = None
        if rest.startswith("#tirx.layout<"):
            depth, end = 0, 0
            for end, ch in enumerate(rest):
                depth += ch == "<"
                depth -= ch == ">"
                if depth == 0 and ch == ">":
                    break
            layout = TileLayout(rest[len("#tirx.layout<"):end])
            rest = rest[end + 1:].lstrip(", ")
        if rest.startswith("align = "):
            align = int(rest[len("align = "):])
        return TensorType([int(d) for d in dims[:-1]], dtype, space, layout, align)


class Tensor:
    """A parameter annotation: T.Tensor((2, 32, 4), "float32", align=16)."""

    def __init__(self, shape, dtype="float32", align=None, layout=None):
        shape = check_shape(shape, "T.Tensor", allow_sizes=True)
        if layout is not None and any(isinstance(d, SizeVar) for d in shape):
            raise _error("T.Tensor: a tensor with runtime extents is dense row-major and "
                         "takes no layout")
        if align is not None:
            align = check_align(align, "T.Tensor")
        self.type = TensorType(shape, as_dtype(dtype), "global",
                               _as_layout(layout), align)
        self.position = _user_position()  # where the annotation is written


def _as_layout(layout):
    if layout is None or layout == "default" or isinstance(layout, TileLayout):
        return None if layout == "default" else layout
    return TileLayout(layout)


def _check_bound(value):
    """A constant region index or slice bound: an int that fits in int64."""
    if not is_int(value):
        raise _error("a region index must be an int or an index value (e.g. "
                     "T.cuda.block_idx), got %r" % (value,))
    if not -(1 << 62) < value < 1 << 62:
        raise _error("region index %d is out of range" % value)
    return int(value)


def _frames_now():
    """The loop/branch frames open while a value is traced."""
    b = _state.builder
    return tuple(b.frames) if b is not None else ()


def _live_ssa(value):
    """The SSA name of `value`, or a DSLError when the loop or branch it was
    traced in has ended (its name is out of scope there)."""
    for frame in value._frames:
        if frame.closed:
            raise _error("a value traced inside the %s at line %d is used after it "
                         "ended; compute or allocate it before" % (frame.what, frame.position[1]))
    return value._ssa


class TensorValue:
    def __init__(self, ssa, type):
        self._ssa, self.type = ssa, type
        self._frames = _frames_now()

    ssa = property(_live_ssa)

    @property
    def shape(self):
        return self.type.shape

    @property
    def dtype(self):
        return self.type.dtype

    def _layout_or_default(self):
        if self.type.layout is not None:
            return self.type.layout
        dims = self.type.shape
        strides, step = [], 1
        for d in reversed(dims):
            strides.insert(0, step)
            step *= d
        inner = ", ".join(str(d) for d in dims)
        if len(dims) > 1:
            return TileLayout("S[(%s) : (%s)]" % (inner, ", ".join(map(str, strides))))
        return TileLayout("S[%s : 1]" % inner)

    def ptr_to(self, indices):
        """The element at `indices` as a one-element tile of this tensor
        (TIRx's `buf.ptr_to([i])`): a memory operand such as an mbarrier."""
        indices = list(indices)
        if len(indices) != len(self.shape):
            raise _error("ptr_to needs %d indices (one per dimension), got %d"
                         % (len(self.shape), len(indices)))
        return self._region(tuple(slice(i, i + 1) for i in indices), drop=False)

    @property
    def data(self):
        """TIRx's `buf.data`: the first element, as `ptr_to([0, ...])`."""
        return self.ptr_to([0] * len(self.shape))

    def view(self, *args, layout=None):
        """view(d0, d1, ...) reshapes (same element count, same layout);
        view("uint16") reinterprets the bits (spec §1.9);
        view(d0, d1, ..., layout=L) declares a tensor of that shape and
        layout over the same storage (tirx.reinterpret: TIRx's decl_tensor
        over a buffer), e.g. a shared row with lanes broadcast (stride 0)."""
        b = builder()
        if layout is not None:
            shape = tuple(args[0]) if len(args) == 1 and isinstance(args[0], (tuple, list)) else args
            shape = check_shape(shape, "view")
            layout = _as_layout(layout)
            # The layout is relative to this tensor's first element: a static
            # region (t[a:b]) starts at its offset in the storage.
            start = self._layout_or_default().apply(0)["m"]
            if start:
                layout = TileLayout("%s + %d" % (layout, start))
            new_type = TensorType(shape, self.type.dtype, self.type.space, layout,
                                  self.type.align)
            result = b.fresh("view")
            b.emit("%s = tirx.reinterpret %s : %s -> %s" % (result, self.ssa, self.type, new_type))
            return TensorValue(result, new_type)
        if len(args) == 1 and isinstance(args[0], (str, DType)):
            new_dtype = as_dtype(args[0])
            old = self.type
            if new_dtype.bits == old.dtype.bits:
                new_type = TensorType(old.shape, new_dtype, old.space, old.layout, old.align)
            elif old.layout is None and old.space != "local":
                # A row-major memory tensor stays row-major in the new
                # element (packing or unpacking its innermost dimension), so
                # its layout stays implicit and regions keep their alignment
                # claims (_alignment_claim).
                if new_dtype.bits < old.dtype.bits:
                    shape = old.shape[:-1] + (old.shape[-1] * (old.dtype.bits // new_dtype.bits),)
                else:
                    ratio = new_dtype.bits // old.dtype.bits
                    if not is_int(old.shape[-1]) or old.shape[-1] % ratio:
                        raise _error("cannot view %s as %s: the innermost extent %s is not "
                                     "divisible by %d" % (old.dtype.name, new_dtype.name,
                                                          old.shape[-1], ratio))
                    shape = old.shape[:-1] + (old.shape[-1] // ratio,)
                new_type = TensorType(shape, new_dtype, old.space, None, old.align)
            else:
                layout = self._layout_or_default()
                if new_dtype.bits < old.dtype.bits:
                    ratio = old.dtype.bits // new_dtype.bits
                    layout = layout.unpack(ratio)
                    shape = old.shape[:-1] + (old.shape[-1] * ratio,)
                else:
                    ratio = new_dtype.bits // old.dtype.bits
                    if old.shape[-1] % ratio:
                        raise _error("cannot view %s as %s: the innermost extent %d is not "
                                     "divisible by %d" % (old.dtype.name, new_dtype.name,
                                                          old.shape[-1], ratio))
                    layout = layout.pack(ratio)
                    shape = old.shape[:-1] + (old.shape[-1] // ratio,)
                new_type = TensorType(shape, new_dtype, old.space, layout, old.align)
        else:
            shape = tuple(args[0]) if len(args) == 1 and isinstance(args[0], (tuple, list)) else args
            if sum(1 for d in shape if is_int(d) and d == -1) == 1:
                known = 1
                for d in shape:
                    known *= d if is_int(d) and d > 0 else 1
                total = 1
                for d in self.type.shape:
                    total *= d
                shape = tuple(total // known if is_int(d) and d == -1 else d for d in shape)
            shape = check_shape(shape, "view")
            new_type = TensorType(shape, self.type.dtype, self.type.space,
                                  self.type.layout, self.type.align)
        result = b.fresh("view")
        b.emit("%s = tirx.view %s : %s -> %s" % (result, self.ssa, self.type, new_type))
        return TensorValue(result, new_type)

    def _region(self, key, drop, masked=False):
        b = builder()
        if masked and self.type.space != "global":
            raise _error("only a global tensor's regions can be masked (this tensor is in "
                         "%s memory)" % self.type.space)
        key = key if isinstance(key, tuple) else (key,)
        if len(key) > len(self.shape):
            raise _error("%d indices for a rank-%d tensor" % (len(key), len(self.shape)))
        if len(key) < len(self.shape):
            key = key + (slice(None),) * (len(self.shape) - len(key))
        offsets, sizes, dynamic, kept = [], [], [], []
        divisors = []  # per dimension: a known divisor of its offset
        as_value = lambda v: v.value() if isinstance(v, (SizeVar, GridExpr)) else v
        for dim, item in enumerate(key):
            extent = self.shape[dim]
            if isinstance(item, (SizeVar, GridExpr)):
                item = as_value(item)
            if isinstance(item, slice):
                if item.step not in (None, 1):
                    raise _error("stepped slices are not supported")
                if isinstance(extent, SizeVar) and (item.stop is None or item.start is None):
                    raise _error("dimension %d has the runtime extent %s: a slice of it needs "
                                 "both bounds and a static size, as in A[i*4:(i+1)*4]"
                                 % (dim, extent.name))
                start = 0 if item.start is None else as_value(item.start)
                stop = extent if item.stop is None else as_value(item.stop)
                divisors.append(divisor_of(start))
                if isinstance(start, _scalars.ScalarValue) or isinstance(stop, _scalars.ScalarValue):
                    # A[i*4:(i+1)*4]: a traced offset, a size known while tracing.
                    size = _scalars._static_difference(stop, start)
                    if size is None:
                        raise _error("a slice with a traced bound needs a static size: "
                                     "stop - start must be a constant, as in "
                                     "A[i*4:(i+1)*4]")
                    if isinstance(start, _scalars.ScalarValue):
                        offsets.append(None)
                        dynamic.append(start._as_index())
                    else:
                        offsets.append(_check_bound(start))
                    sizes.append(size)
                    kept.append(size)
                    continue
                _check_bound(start)
                _check_bound(stop)
                offsets.append(int(start))
                sizes.append(int(stop) - int(start))
                kept.append(int(stop) - int(start))
            else:
                divisors.append(divisor_of(item))
                if isinstance(item, _scalars.ScalarValue):
                    offsets.append(None)
                    dynamic.append(item._as_index())
                else:
                    offsets.append(_check_bound(item))
                sizes.append(1)
                if not drop:
                    kept.append(1)
        error = ctypes.c_void_p()
        text = _capi.lib.tirxInferRegionType(
            str(self.type).encode(),
            _capi.int64_array(-(1 << 63) if o is None else o for o in offsets),
            _capi.int64_array(sizes), len(sizes), ctypes.byref(error))
        if not text:
            message = _capi.take_string(error)
            raise _error(message if message.startswith("invalid region") else
                         "invalid region: %s" % message)
        region_type = TensorType.parse(_capi.take_string(text))
        claim = self._alignment_claim(offsets, divisors)
        if claim and claim > region_type.alignment_or_default:
            region_type.align = claim
        else:
            claim = None
        dyn = iter(dynamic)
        offset_text = ", ".join(next(dyn) if o is None else str(o) for o in offsets)
        result = b.fresh("region")
        b.emit("%s = tirx.region %s[%s] [%s]%s%s : %s" % (
            result, self.ssa, offset_text, ", ".join(map(str, sizes)),
            " masked" if masked else "", " align %d" % claim if claim else "", self.type))
        value = TensorValue(result, region_type)
        if drop and tuple(kept) != region_type.shape:
            value = value.view(*(kept or [1]))
        return value

    def _alignment_claim(self, offsets, divisors):
        """The base alignment a region of this row-major global/shared tensor
        keeps, from the divisors of its offsets known while tracing (the
        kernel's verifier proves it: docs/sizes.md), or None."""
        if self.type.space == "local" or self.type.layout is not None:
            return None
        if all(o is not None for o in offsets) and not self.type.size_vars:
            return None  # static offsets: the layout already says it
        moved = 0  # gcd of the bytes each offset may move the base by
        stride = self.type.dtype.bits // 8
        for dim in reversed(range(len(self.shape))):
            if offsets[dim] != 0:
                moved = math.gcd(moved, divisors[dim] * stride)
            extent = self.shape[dim]
            stride *= extent.multiple_of if isinstance(extent, SizeVar) else extent
        limit = self.type.alignment_or_default
        if moved == 0:
            return limit
        return min(limit, moved & -moved)

    def __getitem__(self, key):
        """t[a:b, ...]: a rank-keeping region (spec §1.9)."""
        return self._region(key, drop=False)

    @property
    def sub(self):
        """t.sub[i, a:b]: an integer index drops its dimension."""
        tensor = self

        class _Sub:
            def __getitem__(self, key):
                return tensor._region(key, drop=True)
        return _Sub()

    @property
    def masked(self):
        """t.masked[r:r + 32, c:c + 32] (rank-keeping) and t.masked.sub[i, a:b]
        (an integer index drops its dimension): a region that may overhang the
        tensor's end. Tile ops access only its elements inside the tensor: each
        repeat of the instruction is predicated on them, and a skipped load
        leaves its registers as they were (fill them first with the value the
        tail should count as). The bounds proof then checks only that the
        offsets are not negative (docs/sizes.md, "Masked regions")."""
        tensor = self

        class _Masked:
            def __getitem__(self, key):
                return tensor._region(key, drop=False, masked=True)

            @property
            def sub(self):
                class _MaskedSub:
                    def __getitem__(self, key):
                        return tensor._region(key, drop=True, masked=True)
                return _MaskedSub()
        return _Masked()


# Modules that import this one (used inside calls only): imported last.
from . import _scalars  # noqa: E402
