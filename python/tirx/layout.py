"""TileLayout in the seed's notation, computed by the C++ layout library.

    from tirx.layout import S, R, TileLayout, ComposeLayout
    from tirx.cuda.axis import laneid, warpid
    TileLayout(S[(2, 32, 4) : (1 @ warpid, 1 @ laneid, 1)])
    ComposeLayout(3, 3, 3, TileLayout(S[64, 64]))  # 128B swizzle of f16

A swizzled layout prints as `S[...] + Swizzle[per_element, swizzle_len,
atom_len]` (`, outer` when swizzle_inner is false), the notation of
`#tirx.layout` (TirX/Layout/Swizzle.h).
"""
import ctypes
import numbers
import re

from . import _capi


def _int(value, what):
    """`value` as an int that fits in int64, or a LayoutError naming `what`."""
    if not isinstance(value, numbers.Integral) or isinstance(value, bool) or \
            not -(1 << 63) <= value < 1 << 63:
        raise LayoutError("%s must be an int64, got %r" % (what, value))
    return int(value)


class Axis:
    """A named axis; `k @ axis` is a stride (or offset) on it."""

    def __init__(self, name):
        self.name = name

    def __rmatmul__(self, value):
        return _Stride(_int(value, "a stride"), self.name)

    def __repr__(self):
        return self.name


m = Axis("m")


class _Stride:
    def __init__(self, value, axis):
        self.value, self.axis = value, axis

    def __str__(self):
        return str(self.value) if self.axis == "m" else "%d@%s" % (self.value, self.axis)

    def __add__(self, other):
        return _Spec() + self + other

    def __radd__(self, other):
        return _Spec() + other + self


class _Term:
    """One S[...] or R[...] term."""

    def __init__(self, kind, extents, strides):
        self.kind, self.extents, self.strides = kind, extents, strides

    def __str__(self):
        def group(items):
            items = [str(i) for i in items]
            return items[0] if len(items) == 1 else "(%s)" % ", ".join(items)
        text = group(self.extents)
        if self.strides is not None:
            text += " : " + group(self.strides)
        return "%s[%s]" % (self.kind, text)

    def __add__(self, other):
        return _Spec() + self + other


def _as_tuple(value):
    return tuple(value) if isinstance(value, (tuple, list)) else (value,)


class _TermBuilder:
    def __init__(self, kind):
        self.kind = kind

    def __getitem__(self, key):
        if isinstance(key, slice):
            strides = tuple(s if isinstance(s, _Stride) else _Stride(_int(s, "a stride"), "m")
                            for s in _as_tuple(key.stop))
            return _Term(self.kind, tuple(_int(e, "an extent") for e in _as_tuple(key.start)),
                         strides)
        return _Term(self.kind, tuple(_int(e, "an extent") for e in _as_tuple(key)), None)


S = _TermBuilder("S")
R = _TermBuilder("R")


class _Spec:
    """S[...] + R[...] + offsets, as written."""

    def __init__(self, terms=()):
        self.terms = list(terms)

    def __add__(self, other):
        if isinstance(other, numbers.Integral) and not isinstance(other, bool):
            other = _Stride(_int(other, "an offset"), "m")
        if not isinstance(other, (_Term, _Stride, _Spec)):
            return NotImplemented
        return _Spec(self.terms + (other.terms if isinstance(other, _Spec) else [other]))

    def __str__(self):
        return " + ".join(str(t) for t in self.terms)


class LayoutError(ValueError):
    """A malformed layout (or a misuse of one), at the user's line."""

    def __init__(self, message):
        import inspect
        import os
        frame = inspect.currentframe()
        here = os.path.dirname(os.path.abspath(__file__))
        while frame and os.path.abspath(frame.f_code.co_filename).startswith(here):
            frame = frame.f_back
        if frame is not None:
            message = "%s:%d: %s" % (frame.f_code.co_filename, frame.f_lineno, message)
        super().__init__(message)


def _axis_name(axis):
    """The name of a known axis (an Axis or its name), as bytes."""
    name = axis.name if isinstance(axis, Axis) else axis
    if name not in _capi.AXES:
        raise LayoutError("unknown axis %r; expected one of %s" % (name, ", ".join(_capi.AXES)))
    return name.encode()


class TileLayout:
    """A layout; the math is the C++ TileLayout's (TirX/Layout/TileLayout.h)."""

    def __init__(self, spec):
        text = spec if isinstance(spec, str) else str(spec)
        if "\0" in text:
            raise LayoutError("invalid layout %r: it contains a NUL character" % text)
        error = ctypes.c_void_p()
        handle = _capi.lib.tirxLayoutParse(text.encode(), ctypes.byref(error))
        if not handle:
            raise LayoutError("invalid layout '%s': %s" % (text, _capi.take_string(error)))
        self._handle = handle

    @classmethod
    def _wrap(cls, handle):
        layout = cls.__new__(cls)
        layout._handle = handle
        return layout

    def __reduce__(self):
        # Copies and pickles carry the notation, never the C++ handle.
        return TileLayout, (str(self),)

    def __del__(self):
        handle = getattr(self, "_handle", None)
        if handle and _capi is not None and _capi.lib is not None:
            _capi.lib.tirxLayoutDestroy(handle)
            self._handle = None

    def __str__(self):
        # A layout never changes: its canonical text is computed once (every
        # tensor type of a trace prints it).
        text = self.__dict__.get("_text")
        if text is None:
            text = self._text = _capi.take_string(_capi.lib.tirxLayoutToString(self._handle))
        return text

    __repr__ = lambda self: "TileLayout(%s)" % self

    def __eq__(self, other):
        return isinstance(other, TileLayout) and str(self) == str(other)

    def size(self, axis=None):
        """Number of elements (product of shard extents), or on `axis`."""
        if axis is None:
            return _capi.lib.tirxLayoutSize(self._handle, None)
        return _capi.lib.tirxLayoutSize(self._handle, _axis_name(axis))

    def span(self, axis=None):
        """Physical footprint on `axis` (default m: a local tile's slots)."""
        return _capi.lib.tirxLayoutSpan(self._handle, _axis_name(axis or "m"))

    def apply(self, *coord, shape=None):
        """The base physical coordinate of a logical coordinate: a dict from
        axis name to value (axes the layout does not use are left out, but m
        is always there). One argument without `shape` is a flat index."""
        if shape is None:
            if len(coord) != 1:
                raise LayoutError("apply with several coordinates needs shape=")
            shape = (self.size(),)
        if len(coord) != len(shape):
            raise LayoutError("%d coordinates for a rank-%d shape" % (len(coord), len(shape)))
        coord = [_int(c, "a coordinate") for c in coord]
        shape = [_int(d, "a shape dimension") for d in shape]
        out = (ctypes.c_int64 * 10)()
        error = ctypes.c_void_p()
        if _capi.lib.tirxLayoutApply(self._handle, _capi.int64_array(coord),
                                     _capi.int64_array(shape), len(shape), out,
                                     ctypes.byref(error)):
            raise LayoutError(_capi.take_string(error))
        used = set(self._axes()) | {"m"}
        return {axis: out[i] for i, axis in enumerate(_capi.AXES) if axis in used}

    def _axes(self):
        text = str(self)
        return [a for a in _capi.AXES if "@" + a in text]

    def canonicalize(self):
        return TileLayout._wrap(_capi.lib.tirxLayoutCanonicalize(self._handle))

    def _transform(self, function, factor):
        factor = _int(factor, "the factor")
        error = ctypes.c_void_p()
        handle = function(self._handle, factor, ctypes.byref(error))
        if not handle:
            raise LayoutError(_capi.take_string(error))
        return TileLayout._wrap(handle)

    def pack(self, factor):
        return self._transform(_capi.lib.tirxLayoutPack, factor)

    def unpack(self, factor):
        return self._transform(_capi.lib.tirxLayoutUnpack, factor)

    # The layout algebra (TirX/Layout/LayoutAlgebra.h, docs/library.md).

    def compose(self, inner):
        """x -> self(inner(x)) for an index layout `inner` (iters on m only)."""
        return _algebra(_capi.lib.tirxLayoutCompose, self, _as_layout(inner))

    def complement(self, cosize):
        """The layout R (on this layout's one axis) that fills its holes and
        repeats it so that [R, self] covers [0, cosize) one-to-one."""
        return _algebra(_capi.lib.tirxLayoutComplement, self, _int(cosize, "the cosize"))

    def coalesce(self):
        """The same function with the fewest shard iters."""
        return TileLayout._wrap(_capi.lib.tirxLayoutCoalesce(self._handle))

    def right_inverse(self):
        """The index layout R with self(R(j)) == j for j < R.size()."""
        return _algebra(_capi.lib.tirxLayoutRightInverse, self)

    def _view(self, shape, which):
        shape = [_int(d, "a shape dimension") for d in _as_tuple(shape or (self.size(),))]
        error = ctypes.c_void_p()
        text = _capi.lib.tirxLayoutPrintView(self._handle, _capi.int64_array(shape),
                                             len(shape), which, ctypes.byref(error))
        if not text:
            raise LayoutError(_capi.take_string(error))
        return _capi.take_string(text)

    def tensor_view(self, shape=None):
        """Each element → its owner threads and slot (the layout printer)."""
        return self._view(shape, 0)

    def thread_view(self, shape=None):
        """Each thread → its elements by slot (the layout printer)."""
        return self._view(shape, 1)

    def to_svg(self, shape=None, html=False):
        """The layout's picture (the C++ LayoutPicture, as `tirx-layout
        --format=svg` draws it): the tensor view as a grid of cells labelled
        thread:slot beside the thread view, replicated elements hatched. An
        SVG document, or with html=True an HTML page embedding it. `shape`
        defaults to the shard extents (as `tirx-layout` without --shape)."""
        error = ctypes.c_void_p()
        if shape is None:
            dims, rank = None, 0
        else:
            shape = [_int(d, "a shape dimension") for d in _as_tuple(shape)]
            dims, rank = _capi.int64_array(shape), len(shape)
        text = _capi.lib.tirxLayoutDrawPicture(self._handle, dims, rank, int(bool(html)),
                                               ctypes.byref(error))
        if not text:
            raise LayoutError(_capi.take_string(error))
        return _capi.take_string(text)

    @property
    def swizzle(self):
        """The layout's XOR swizzle as a SwizzleLayout, or None."""
        match = _SWIZZLE_TERM.search(str(self))
        if match is None:
            return None
        p, s, a, side = match.groups()
        return SwizzleLayout(int(p), int(s), int(a), side is None)

    def _repr_svg_(self):
        """Jupyter shows a layout as its picture over the shard extents (None,
        so that the text repr is used, when it is too large to draw)."""
        try:
            return self.to_svg()
        except LayoutError:
            return None


def _as_layout(value):
    return value if isinstance(value, TileLayout) else TileLayout(value)


def _algebra(function, *args):
    """Calls a layout-algebra function of the C API: handles for layouts, a
    LayoutError with its reason when a condition fails."""
    error = ctypes.c_void_p()
    handle = function(*[a._handle if isinstance(a, TileLayout) else a for a in args],
                      ctypes.byref(error))
    if not handle:
        raise LayoutError(_capi.take_string(error))
    return TileLayout._wrap(handle)


def composition(outer, inner):
    """outer(inner(x)): `inner` is an index layout into `outer`'s elements."""
    return _as_layout(outer).compose(inner)


def complement(layout, cosize):
    return _as_layout(layout).complement(cosize)


def coalesce(layout):
    return _as_layout(layout).coalesce()


def right_inverse(layout):
    return _as_layout(layout).right_inverse()


def logical_product(a, b):
    """[b', a]: `a` repeated at every value of `b`, each copy placed where it
    overlaps neither `a` nor another copy (flat index ib * a.size() + ia)."""
    return _algebra(_capi.lib.tirxLayoutLogicalProduct, _as_layout(a), _as_layout(b))


def logical_divide(a, tiler):
    """`a` composed with [complement(tiler, a.size()), tiler]: flat index
    tile_number * tiler.size() + position in the tile."""
    return _algebra(_capi.lib.tirxLayoutLogicalDivide, _as_layout(a), _as_layout(tiler))


def _shape(shape, what):
    return [_int(d, what) for d in _as_tuple(shape)]


def _tile_product(a, shape_a, b, shape_b, raked):
    shape_a, shape_b = _shape(shape_a, "a shape dimension"), _shape(shape_b, "a shape dimension")
    if len(shape_a) != len(shape_b):
        raise LayoutError("shapes %s and %s differ in rank" % (tuple(shape_a), tuple(shape_b)))
    out = (ctypes.c_int64 * max(len(shape_a), 1))()
    layout = _algebra(lambda *args: _capi.lib.tirxLayoutTileProduct(
        args[0], _capi.int64_array(shape_a), args[1], _capi.int64_array(shape_b),
        len(shape_a), int(raked), out, args[2]), _as_layout(a), _as_layout(b))
    return layout, tuple(out[:len(shape_a)])


def blocked_product(a, shape_a, b, shape_b):
    """Copies of `a` (over `shape_a`) arranged by `b` (over `shape_b`), each a
    block: a layout over shape (shape_b[d] * shape_a[d], ...) whose mode-d
    coordinate is ib * shape_a[d] + ia. Returns (layout, shape).

        atom = TileLayout(S[(8, 4) : (4 @ laneid, 1 @ laneid)])
        blocked_product(atom, (8, 4), S[(2, 2) : (2 @ warpid, 1 @ warpid)], (2, 2))
    """
    return _tile_product(a, shape_a, b, shape_b, False)


def raked_product(a, shape_a, b, shape_b):
    """As blocked_product, the copies interleaved: coordinate ia * shape_b[d] + ib."""
    return _tile_product(a, shape_a, b, shape_b, True)


def zipped_divide(a, shape, tile):
    """`a` over `shape` cut into tiles: a layout over shape
    (shape[0] // tile[0], ..., tile[0], ...) — the tile's number, then the
    position in it. Returns (layout, shape)."""
    shape, tile = _shape(shape, "a shape dimension"), _shape(tile, "a tile dimension")
    if len(shape) != len(tile):
        raise LayoutError("tile %s and shape %s differ in rank" % (tuple(tile), tuple(shape)))
    out = (ctypes.c_int64 * max(2 * len(shape), 1))()
    layout = _algebra(lambda *args: _capi.lib.tirxLayoutZippedDivide(
        args[0], _capi.int64_array(shape), _capi.int64_array(tile), len(shape), out, args[1]),
        _as_layout(a))
    return layout, tuple(out[:2 * len(shape)])


# The canonical text ends with the swizzle term (TileLayout::print).
_SWIZZLE_TERM = re.compile(r" \+ Swizzle\[(\d+), (\d+), (\d+)(, outer)?\]$")


def _swizzle_term(per_element, swizzle_len, atom_len, swizzle_inner):
    return "Swizzle[%d, %d, %d%s]" % (
        _int(per_element, "per_element"), _int(swizzle_len, "swizzle_len"),
        _int(atom_len, "atom_len"), "" if swizzle_inner else ", outer")


class SwizzleLayout:
    """TIRx's SwizzleLayout: the XOR swizzle of a memory offset alone.

    per_element low bits stay; swizzle_len bits (0: no swizzle) of the group
    atom_len bits higher are XORed into them (swizzle_inner=True) or they
    into it. The TMA / wgmma 128B, 64B and 32B swizzles of b-byte elements
    are SwizzleLayout(log2(16 // b), 3 | 2 | 1, 3). apply() takes any
    offset >= 0; the pattern repeats every `period` = 2**(p + a + s)."""

    def __init__(self, per_element, swizzle_len, atom_len, swizzle_inner=True):
        self._params = (_int(per_element, "per_element"), _int(swizzle_len, "swizzle_len"),
                        _int(atom_len, "atom_len"), bool(swizzle_inner))
        # One period through the C++ library: it checks the parameters and
        # owns the math.
        bits = per_element + atom_len + swizzle_len if min(self._params[:3]) >= 0 else 0
        period = 1 << bits if 0 <= bits <= 62 else 1
        try:
            self._one_period = TileLayout("S[%d] + %s" % (period, _swizzle_term(*self._params)))
        except LayoutError as error:
            reason = str(error).split("': ", 1)[-1]
            raise LayoutError("invalid %r: %s" % (self, reason)) from None
        self._period = 1 << (per_element + atom_len + swizzle_len)

    per_element = property(lambda self: self._params[0])
    swizzle_len = property(lambda self: self._params[1])
    atom_len = property(lambda self: self._params[2])
    swizzle_inner = property(lambda self: self._params[3])
    period = property(lambda self: self._period)

    @property
    def inner_mask(self):
        """The lower group's bits: (2**swizzle_len - 1) << per_element."""
        return ((1 << self.swizzle_len) - 1) << self.per_element

    @property
    def outer_mask(self):
        """The higher group's bits: inner_mask << atom_len."""
        return self.inner_mask << self.atom_len

    def size(self, axis=None):
        return self._period

    def apply(self, *coord, shape=None):
        """{"m": swizzled offset} of a flat offset (or of a coordinate in
        `shape`, flattened row-major)."""
        if shape is None:
            if len(coord) != 1:
                raise LayoutError("apply with several coordinates needs shape=")
            flat = _int(coord[0], "an offset")
        else:
            if len(coord) != len(shape):
                raise LayoutError("%d coordinates for a rank-%d shape" % (len(coord), len(shape)))
            flat = 0
            for c, d in zip(coord, shape):
                flat = flat * _int(d, "a shape dimension") + _int(c, "a coordinate")
        if flat < 0:
            raise LayoutError("a swizzled offset must be non-negative, got %d" % flat)
        base, rest = divmod(flat, self._period)
        return {"m": base * self._period + self._one_period.apply(rest)["m"]}

    def __str__(self):
        return _swizzle_term(*self._params)

    __repr__ = lambda self: "SwizzleLayout(%d, %d, %d, %s)" % self._params

    def __eq__(self, other):
        return isinstance(other, SwizzleLayout) and self._params == other._params

    def __hash__(self):
        return hash(self._params)


class ComposeLayout(TileLayout):
    """TIRx's ComposeLayout: `tile_layout` followed by an XOR swizzle of its
    memory coordinate (after the offset), i.e. the layout
    `tile_layout + Swizzle[per_element, swizzle_len, atom_len]`.

        ComposeLayout(0, 2, 3, TileLayout(S[8, 8])).apply(1, 2, shape=(8, 8))["m"] == 11

    Also ComposeLayout(SwizzleLayout(...), tile_layout). Only shared tensors
    take a swizzled layout (T.alloc_shared(..., layout=...))."""

    def __init__(self, per_element, swizzle_len=None, atom_len=None, tile_layout=None,
                 swizzle_inner=True):
        if isinstance(per_element, SwizzleLayout):
            if atom_len is not None or tile_layout is not None:
                raise LayoutError("ComposeLayout(swizzle, tile_layout) takes two arguments")
            swizzle, tile_layout = per_element, swizzle_len
            per_element, swizzle_len, atom_len, swizzle_inner = swizzle._params
        if swizzle_len is None or atom_len is None or tile_layout is None:
            raise LayoutError("ComposeLayout(per_element, swizzle_len, atom_len, tile_layout, "
                              "swizzle_inner=True) needs all four")
        tile = tile_layout if isinstance(tile_layout, TileLayout) else TileLayout(tile_layout)
        if tile.swizzle is not None:
            raise LayoutError("tile_layout %s is already swizzled" % tile)
        self._params = (_int(per_element, "per_element"), _int(swizzle_len, "swizzle_len"),
                        _int(atom_len, "atom_len"), bool(swizzle_inner))
        TileLayout.__init__(self, "%s + %s" % (tile, _swizzle_term(*self._params)))
        self._tile = tile

    def __reduce__(self):
        return ComposeLayout, self._params[:3] + (str(self._tile), self._params[3])

    per_element = property(lambda self: self._params[0])
    swizzle_len = property(lambda self: self._params[1])
    atom_len = property(lambda self: self._params[2])
    swizzle_inner = property(lambda self: self._params[3])
    tile_layout = property(lambda self: self._tile)
    inner_mask = property(lambda self: ((1 << self.swizzle_len) - 1) << self.per_element)
    __repr__ = lambda self: "ComposeLayout(%d, %d, %d, %r, %s)" % (
        self._params[:3] + (self._tile, self._params[3]))
    outer_mask = property(lambda self: self.inner_mask << self.atom_len)


__all__ = ["S", "R", "TileLayout", "ComposeLayout", "SwizzleLayout", "Axis", "LayoutError",
           "m", "composition", "complement", "coalesce", "right_inverse", "logical_product",
           "logical_divide", "blocked_product", "raked_product", "zipped_divide"]
