"""What the PTX table knows of an instruction, read from the compiler
(docs/python.md, "Instructions from the table"): its operands in PTX order,
their element types, atoms and, for collective operands, fragments as
TileLayouts; who executes it; its SM and PTX floors. A kernel or a library
built above single instructions reads these instead of retyping them (the
wgmma accumulator's fragment, mma.sync's operand shapes):

    from tirx.atoms import instruction
    wgmma = instruction("wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16")
    wgmma.operand("d").fragment   # TileLayout(S[(4, 8, 4, 2) : ...])
"""
import ctypes
import re
from functools import lru_cache

from . import _capi
from .layout import TileLayout


class Operand:
    """One operand of an instruction: `name` ("d", "a", "addr"), `element`
    (the types it takes, in words), `bits` (the width of one element: 32
    for f32 or any 32-bit type, 0 for cp.async's any type), `is_destination`, `is_read_write` (an
    accumulator the instruction reads too), `is_memory`, `atom_shape` (the
    elements one instruction covers: (4,) for ld.global.v4, (16, 8) for an
    mma accumulator), `atom` (their number) and `fragment` (a collective
    operand's TileLayout over its atom: which lane holds each element, in
    which register; None for a per-thread operand)."""

    def __init__(self, name, element, bits, is_destination, is_read_write, is_memory,
                 atom_shape, fragment):
        self.name, self.element, self.bits = name, element, bits
        self.is_destination, self.is_read_write = is_destination, is_read_write
        self.is_memory = is_memory
        self.atom_shape = tuple(atom_shape)
        self.atom = 1
        for extent in self.atom_shape:
            self.atom *= extent
        self.fragment = fragment

    def __repr__(self):
        return "Operand(%s: %s%s%s, atom %s%s)" % (
            self.name, self.element, ", written" if self.is_destination else "",
            ", memory" if self.is_memory else "", self.atom_shape,
            ", fragment %s" % self.fragment if self.fragment else "")


class Instruction:
    """An instruction of the PTX table: `spelling` (canonical), `form` (its
    entry in the table), `exec` ("thread", "warp", "warpgroup" or
    "single"), `space` (the state space of its memory operand, "" for
    none), `min_sm`, `min_ptx` (PTX ISA x 10), `arch_specific` (sm_NNa
    only) and `operands` (PTX order, destination first)."""

    def __init__(self, spelling, form, exec_kind, space, min_sm, min_ptx, arch_specific,
                 operands):
        self.spelling, self.form, self.exec, self.space = spelling, form, exec_kind, space
        self.min_sm, self.min_ptx, self.arch_specific = min_sm, min_ptx, arch_specific
        self.operands = tuple(operands)

    def operand(self, name):
        """The operand called `name` (KeyError naming the others if none)."""
        for operand in self.operands:
            if operand.name == name:
                return operand
        raise KeyError("'%s' has no operand '%s' (its operands: %s)"
                       % (self.spelling, name, ", ".join(o.name for o in self.operands)))

    def __repr__(self):
        return "Instruction(%s: %s)" % (self.spelling, ", ".join(o.name for o in self.operands))


def instruction(spelling, num_operands=None):
    """The table's form of `spelling` (with `num_operands`, the form with
    that many operands: min/max with two or three inputs, shfl with or
    without its predicate). A spelling the table does not know is a
    ValueError with the table's reason."""
    if not isinstance(spelling, str):
        raise TypeError("instruction() takes a PTX spelling (str), got %s"
                        % type(spelling).__name__)
    if num_operands is not None and (not isinstance(num_operands, int) or num_operands < 0):
        raise ValueError("num_operands must be a non-negative int, got %r" % (num_operands,))
    return _instruction(spelling, -1 if num_operands is None else num_operands)


@lru_cache(maxsize=None)
def _instruction(spelling, num_operands):
    if "\0" in spelling:
        raise ValueError("invalid PTX spelling %r: it contains a NUL character" % spelling)
    error = ctypes.c_void_p()
    handle = _capi.lib.tirxInstructionParse(spelling.encode(), num_operands, ctypes.byref(error))
    if not handle:
        raise ValueError(_capi.take_string(error))
    try:
        lib = _capi.lib
        min_sm, min_ptx, arch_specific = ctypes.c_uint(), ctypes.c_uint(), ctypes.c_int()
        lib.tirxInstructionGetFloors(handle, ctypes.byref(min_sm), ctypes.byref(min_ptx),
                                     ctypes.byref(arch_specific))
        operands = []
        for index in range(lib.tirxInstructionGetNumOperands(handle)):
            name, element, fragment = ctypes.c_char_p(), ctypes.c_char_p(), ctypes.c_char_p()
            written, read_write, memory = ctypes.c_int(), ctypes.c_int(), ctypes.c_int()
            rank, shape = ctypes.c_size_t(), ctypes.POINTER(ctypes.c_int64)()
            lib.tirxInstructionGetOperand(handle, index, ctypes.byref(name),
                                          ctypes.byref(element), ctypes.byref(written),
                                          ctypes.byref(read_write), ctypes.byref(memory),
                                          ctypes.byref(rank), ctypes.byref(shape),
                                          ctypes.byref(fragment))
            text = fragment.value.decode()
            operands.append(Operand(name.value.decode(), element.value.decode(),
                                    lib.tirxInstructionGetOperandBits(handle, index),
                                    bool(written.value), bool(read_write.value),
                                    bool(memory.value), shape[:rank.value],
                                    TileLayout(text) if text else None))
        return Instruction(lib.tirxInstructionGetSpelling(handle).decode(),
                           lib.tirxInstructionGetFormName(handle).decode(),
                           lib.tirxInstructionGetExecKind(handle).decode(),
                           lib.tirxInstructionGetSpace(handle).decode(),
                           min_sm.value, min_ptx.value, bool(arch_specific.value), operands)
    finally:
        _capi.lib.tirxInstructionDestroy(handle)


# The axis a collective's copies are arranged on when tiled (Atom.tile), and
# the unit's name in messages, by execution kind.
_UNIT_AXES = {"warp": ("warpid", "warps"), "warpgroup": ("wgid", "warpgroups")}


class Atom:
    """An instruction named by its spelling, as an object (docs/library.md,
    "Atoms"): its table record (`instruction`), the fragment and shape of
    each operand, block-level layouts of its fragments through the layout
    algebra (`tile`), and its issue call. Nothing of the instruction is
    typed again: the fragments are the PTX table's.

        mma = Atom("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32")
        acc, shape = mma.tile("d", repeats=(MI, NI), units=4)   # 4 warps
        c = T.alloc_local(shape, "float32", layout=acc)
        mma(c, a, b, c, scope="cta")
    """

    def __init__(self, spelling, num_operands=None):
        self.instruction = instruction(spelling, num_operands)
        self.spelling = self.instruction.spelling
        self.exec = self.instruction.exec

    def operand(self, name):
        return self.instruction.operand(name)

    def shape(self, name):
        """The elements one instruction covers in operand `name`."""
        return self.operand(name).atom_shape

    def fragment(self, name):
        """Operand `name`'s fragment (which lane holds each element of the
        atom, in which register), or a ValueError for a per-thread operand."""
        fragment = self.operand(name).fragment
        if fragment is None:
            raise _library_error("operand '%s' of %s is %s: it has no fragment" % (
                name, self.spelling, "in memory" if self.operand(name).is_memory
                else "per-thread"))
        return fragment

    def tile(self, name, repeats=(), units=None, ctas=None):
        """Operand `name`'s fragment repeated `repeats` times in each
        thread's registers and, with `units`, over that many executing
        units (warps of a warp instruction, warpgroups of a warpgroup one)
        or an arrangement of them (a layout on warpid or wgid): the logical
        product of the fragment with S[(units, *repeats) : (1@unit,
        row-major)], each repeat after the fragment's registers. Returns
        (layout, shape), shape = ((units,) if units else ()) + repeats +
        the atom's shape: the register tile a tile.apply of this
        instruction takes (group, repeat, atom).

        With `ctas` (a count of CTAs of a cluster along x, or an
        arrangement on bx / by / bz), the result is one more product: the
        cluster-level layout, shape (ctas, ...), whose CTA coordinate is on
        the block axes (a CTA's rank in its cluster: block_idx % cluster
        extent, docs/hopper.md). Each CTA allocates the part without it
        (registers belong to the threads of one CTA)."""
        from .layout import TileLayout, logical_product, LayoutError
        fragment = self.fragment(name)
        repeats = tuple(repeats) if isinstance(repeats, (tuple, list)) else (repeats,)
        if not all(isinstance(r, int) and not isinstance(r, bool) and r >= 1 for r in repeats):
            raise _library_error("repeats must be positive ints, got %r" % (repeats,))
        arrangement, units_shape = None, ()
        if units is not None:
            # Only warp and warpgroup collectives have fragments (the
            # table's loader checks it).
            axis, plural = _UNIT_AXES[self.exec]
            if isinstance(units, int) and not isinstance(units, bool):
                if units < 1:
                    raise _library_error("units must be a positive int, got %d" % units)
                arrangement = TileLayout("S[%d : 1@%s]" % (units, axis))
            else:
                arrangement = units if isinstance(units, TileLayout) else TileLayout(units)
                used = arrangement._axes()
                if used != [axis]:
                    raise _library_error(
                        "%s is executed by a %s: tile its fragment over %s (%s), not over %s%s"
                        % (self.spelling, self.exec, plural, axis, " and ".join(used) or "m",
                           _CTAS_HINT if set(used) & set(_CTA_AXES) else ""))
            units_shape = (arrangement.size(),)
        cluster = _cta_arrangement(self.spelling, ctas)
        try:
            # [units', repeats', fragment]: the repeats after the fragment's
            # registers, the units on their own axis.
            layout = fragment
            if repeats:
                layout = logical_product(layout, "S[(%s)]" % ", ".join(map(str, repeats)))
            if arrangement is not None:
                layout = logical_product(layout, arrangement)
            if cluster is not None:
                layout = logical_product(layout, cluster)
        except LayoutError as error:
            raise _library_error(str(error).split(": ", 1)[-1]) from None
        ctas_shape = (cluster.size(),) if cluster is not None else ()
        return layout, ctas_shape + units_shape + repeats + self.shape(name)

    def __call__(self, *operands, scope=None, **parameters):
        """Issues the instruction over register tiles and regions (tile.apply)
        at `scope` (default: the instruction's own, e.g. "warp" for mma.sync;
        "cta" when its tiles hold several warps)."""
        from .script import tirx as T
        default = self.exec if self.exec in ("warp", "warpgroup") else "thread"
        T.cuda.tile.apply(T.ptx[self.spelling], *operands, scope=scope or default, **parameters)

    def __repr__(self):
        return "Atom(%s)" % self.spelling


# The block axes: a CTA's coordinate. Consecutive block indices along x form
# a cluster (docs/hopper.md), so an arrangement of CTAs on bx (by, bz) names
# CTAs by their rank in the cluster along that axis.
_CTA_AXES = ("bx", "by", "bz")
_CTAS_HINT = "; the CTAs of a cluster go in ctas="


def _cta_arrangement(what, ctas):
    """`ctas` (a count along x, or a layout on bx / by / bz) as a layout, or
    None; inside a kernel, checked against the kernel's clusters."""
    if ctas is None:
        return None
    if isinstance(ctas, int) and not isinstance(ctas, bool):
        if ctas < 1:
            raise _library_error("ctas must be a positive int, got %d" % ctas)
        arrangement = TileLayout("S[%d : 1@bx]" % ctas)
    else:
        arrangement = ctas if isinstance(ctas, TileLayout) else TileLayout(ctas)
        used = arrangement._axes()
        if not used or not set(used) <= set(_CTA_AXES):
            raise _library_error(
                "%s: tile over the CTAs of a cluster (bx, by, bz: a CTA's rank in its "
                "cluster along x, y, z), not over %s" % (what, " and ".join(used) or "m"))
    from ._dsl import current_builder
    b = current_builder()
    launch = getattr(b, "launch", None) if b is not None else None
    if launch is None:
        return arrangement
    for index, axis in enumerate(_CTA_AXES):
        reach = arrangement.span(axis)
        if reach <= 1:
            continue
        if not launch.cluster:
            raise _library_error(
                "%s is tiled over %d CTAs along %s, but the kernel is not launched in "
                "clusters: add cluster=... to its LaunchConfig" % (what, reach, "xyz"[index]))
        extent = launch.cluster[index] if index < len(launch.cluster) else 1
        if reach > extent:
            raise _library_error(
                "%s is tiled over %d CTAs along %s, but the kernel's clusters are %d CTA%s "
                "along %s: a tiling over CTAs stays inside one cluster"
                % (what, reach, "xyz"[index], extent, "" if extent == 1 else "s",
                   "xyz"[index]))
    return arrangement


#===------------------------------------------------------------------------===#
# TMA atoms
#===------------------------------------------------------------------------===#

_TMA_RANK = re.compile(r"\.([1-5])d\.")
_SWIZZLES = {0: 0, 32: 1, 64: 2, 128: 3}
_TMA_CLASSES = {}   # form name -> the atom class that takes it


def _is_int(value):
    return isinstance(value, int) and not isinstance(value, bool)


def _script():
    from .script import tirx as T
    return T


class TmaAtom(Atom):
    """A TMA instruction named by its spelling (docs/library.md, "TMA
    atoms"): the bulk tensor copies, reduction and prefetches. Every form is
    issued by one thread and copies a whole box of a global tensor (the
    `tmap` operand: a region of a kernel parameter) to or from its shared
    image. An atom may be bound to a box: `box` (its extents, outermost
    first), `dtype` and `swizzle` (the image's TMA swizzle in bytes: 0 for
    none, 32, 64 or 128); a bound atom's box, bytes and image layout need no
    arguments, and its issue call checks the box it is given.

    Members: `rank` (the spelling's .Nd), `cache_hint` (it takes an L2
    policy operand), `box_shape(box)`, `box_bytes(box, dtype)`,
    `image_layout(box, dtype, swizzle)`, `image_alignment(swizzle)`,
    `alloc_image(...)`, `tile(ctas=...)` and the issue call."""

    FORMS = ()
    WHAT = "a TMA instruction"
    HAS_IMAGE = True

    def __init__(self, spelling, box=None, dtype=None, swizzle=0):
        try:
            super().__init__(spelling)
        except ValueError as error:
            raise _library_error("%s: %s" % (type(self).__name__, error)) from None
        form = self.instruction.form
        if form not in self.FORMS:
            other = _TMA_CLASSES.get(form)
            raise _library_error("%s takes %s, got '%s' (%s)" % (
                type(self).__name__, self.WHAT, self.spelling,
                "the table's form '%s': not a TMA instruction" % form if other is None
                else "a %s: use %s" % (form, other.__name__)))
        match = _TMA_RANK.search(self.spelling + ".")
        self.rank = int(match.group(1)) if match else None
        self.cache_hint = self.spelling.endswith(".L2::cache_hint")
        self.box = self.dtype = None
        self.swizzle = self._check_swizzle(swizzle)
        if box is not None or dtype is not None:
            if box is None or dtype is None:
                raise _library_error("%s: bind a box with both box= and dtype=" % self._name())
            self.box = self._check_box(box)
            self.dtype = self._dtype(dtype)
            if self.HAS_IMAGE:
                self.image_layout()   # checks the row against the swizzle

    def _name(self):
        return "%s(%s)" % (type(self).__name__, self.spelling)

    # -- boxes -------------------------------------------------------------

    def _dtype(self, dtype):
        from ._dsl import as_dtype
        dtype = as_dtype(dtype)
        if dtype.bits % 8 or dtype.bits // 8 not in (1, 2, 4, 8):
            raise _library_error("%s: %s elements; a tensor map holds 1, 2, 4 or 8-byte "
                                 "elements" % (self._name(), dtype.name))
        return dtype

    def _check_box(self, box):
        from ._dsl import TensorValue
        if isinstance(box, TensorValue):
            shape = tuple(box.shape)
        elif isinstance(box, (tuple, list)):
            shape = tuple(box)
        else:
            raise _library_error("%s: a box is a region of a global tensor or a shape, got %r"
                                 % (self._name(), box))
        if not shape or not all(_is_int(e) and 1 <= e for e in shape):
            raise _library_error("%s: a box's extents are positive ints, got %r"
                                 % (self._name(), shape))
        if self.rank is not None and len(shape) != self.rank:
            raise _library_error("%s: the global box has rank %d, but '.%dd' names a rank-%d "
                                 "tensor map" % (self._name(), len(shape), self.rank,
                                                 self.rank))
        for dim, extent in enumerate(shape):
            if extent > 256:
                raise _library_error("%s: the global box has extent %d in dimension %d; a "
                                     "box's extents are at most 256"
                                     % (self._name(), extent, dim))
        return shape

    def _bound(self, box, dtype, what):
        """(shape, dtype) of `box` and `dtype`, or of the bound box."""
        from ._dsl import TensorValue
        if box is None:
            if self.box is None:
                raise _library_error("%s: %s needs a box (the atom is not bound to one: "
                                     "box=..., dtype=...)" % (self._name(), what))
            return self.box, self.dtype
        if dtype is None:
            if isinstance(box, TensorValue):
                dtype = box.dtype
            elif self.dtype is not None:
                dtype = self.dtype
            else:
                raise _library_error("%s: %s of a shape needs its dtype" % (self._name(), what))
        return self._check_box(box), self._dtype(dtype)

    def box_shape(self, box=None):
        """The box's extents (outermost first): of `box`, a region of a
        global tensor or a shape, checked against the spelling's rank and
        TMA's limits; without `box`, the bound one."""
        if box is None:
            return self._bound(None, None, "box_shape")[0]
        return self._check_box(box)

    def box_bytes(self, box=None, dtype=None):
        """The bytes of one box: its elements times the element size."""
        shape, dtype = self._bound(box, dtype, "box_bytes")
        elements = 1
        for extent in shape:
            elements *= extent
        return elements * dtype.bits // 8

    def expect_tx(self, box=None, dtype=None):
        """The bytes this copy brings to the mbarrier of each CTA that
        receives the box (a pipeline stage's expect_tx count): the box's
        bytes. A store, reduction or prefetch completes on no mbarrier."""
        raise _library_error("%s completes on no mbarrier: it has no expect_tx bytes"
                             % self._name())

    # -- the shared image --------------------------------------------------

    def _check_swizzle(self, swizzle):
        if swizzle not in _SWIZZLES or isinstance(swizzle, bool):
            raise _library_error("%s: swizzle is the image's TMA swizzle in bytes: 0 (none), "
                                 "32, 64 or 128, got %r" % (self._name(), swizzle))
        return swizzle

    def _no_image(self):
        if not self.HAS_IMAGE:
            raise _library_error("%s reads the box into L2 only: it has no shared image"
                                 % self._name())

    def image_layout(self, box=None, dtype=None, swizzle=None):
        """The layout of the box's shared image: the box in row-major order
        (TMA writes element i of the box at element i of the image), with
        the named swizzle (bytes: 0, 32, 64 or 128) as TMA's mode for the
        element size (`+ Swizzle[4 - log2(bytes), 1|2|3, 3]`)."""
        self._no_image()
        shape, dtype = self._bound(box, dtype, "image_layout")
        swizzle = self.swizzle if swizzle is None else self._check_swizzle(swizzle)
        element = dtype.bits // 8
        row = shape[-1] * element
        if row % 16:
            raise _library_error("%s: the global box has an innermost row of %d bytes; TMA "
                                 "moves rows of whole 16-byte units" % (self._name(), row))
        if swizzle and row > swizzle:
            raise _library_error("%s: the box's shared image is %d-byte swizzled, but the "
                                 "box's rows are %d bytes; TMA swizzles rows of at most the "
                                 "swizzle's width" % (self._name(), swizzle, row))
        strides, step = [], 1
        for extent in reversed(shape):
            strides.insert(0, step)
            step *= extent
        text = "S[(%s) : (%s)]" % (", ".join(map(str, shape)), ", ".join(map(str, strides)))
        if swizzle:
            text += " + Swizzle[%d, %d, 3]" % (4 - element.bit_length() + 1, _SWIZZLES[swizzle])
        return TileLayout(text)

    def image_alignment(self, swizzle=None):
        """The bytes the image's start is a multiple of: 128, or the
        swizzle's period (8 rows of it: 1024 for 128B)."""
        self._no_image()
        swizzle = self.swizzle if swizzle is None else self._check_swizzle(swizzle)
        return max(128, swizzle * 8)

    def alloc_image(self, box=None, dtype=None, swizzle=None, stages=None):
        """T.alloc_shared of the box's image (its layout and alignment);
        with `stages`, shape (stages, *box): a pipeline's buffer, each stage
        one image (its bytes a whole number of the alignment)."""
        self._no_image()
        shape, dtype = self._bound(box, dtype, "alloc_image")
        swizzle = self.swizzle if swizzle is None else self._check_swizzle(swizzle)
        layout = self.image_layout(shape, dtype, swizzle)
        align = self.image_alignment(swizzle)
        T = _script()
        if stages is None:
            return T.alloc_shared(shape, dtype.name, align=align, layout=layout)
        if not _is_int(stages) or stages < 1:
            raise _library_error("%s: stages must be a positive int, got %r"
                                 % (self._name(), stages))
        size = self.box_bytes(shape, dtype)
        if size % align:
            raise _library_error("%s: a box of %d bytes; staged images start at multiples "
                                 "of %d bytes" % (self._name(), size, align))
        from .layout import logical_product
        staged = logical_product(layout, "S[%d]" % stages)
        return T.alloc_shared((stages,) + shape, dtype.name, align=align, layout=staged)

    # -- over the CTAs of a cluster ------------------------------------------

    def tile(self, ctas=None, box=None, dtype=None, swizzle=None, units=None):
        """The box's image over the CTAs of a cluster (`ctas`: a count
        along x, or an arrangement on bx / by / bz): each CTA copies a box of
        its own into its own image, at the same offsets — the logical
        product of the image layout with the arrangement, over shape
        (ctas, *box). Returns (layout, shape). A TMA instruction is issued
        by one thread: it is tiled over CTAs, never over warps."""
        self._no_image()
        if units is not None:
            raise _library_error("%s is issued by one thread: tile it over the CTAs of a "
                                 "cluster (ctas=), not over warps or warpgroups"
                                 % self._name())
        from .layout import logical_product, LayoutError
        layout = self.image_layout(box, dtype, swizzle)
        shape, _ = self._bound(box, dtype, "tile")
        arrangement = _cta_arrangement(self._name(), ctas)
        if arrangement is None:
            return layout, shape
        try:
            return logical_product(layout, arrangement), (arrangement.size(),) + shape
        except LayoutError as error:
            raise _library_error(str(error).split(": ", 1)[-1]) from None

    # -- the issue call ----------------------------------------------------

    def _check_operand_box(self, box, space, what):
        from ._dsl import TensorValue
        if not isinstance(box, TensorValue) or box.type.space != space:
            raise _library_error("%s: %s must be %s, got %r" % (
                self._name(), what, "a region of a global tensor (the box)" if space == "global"
                else "a shared tensor (the box's image)", box))
        if space == "global":
            self._check_box(box)
            if self.box is not None and (tuple(box.shape) != self.box or
                                         box.dtype.bits != self.dtype.bits):
                raise _library_error(
                    "%s is bound to a box %s of %s (%d bytes), but this box is %s of %s "
                    "(%d bytes)" % (self._name(), self.box, self.dtype.name,
                                    self.box_bytes(), tuple(box.shape), box.dtype.name,
                                    self.box_bytes(box)))

    def _policy(self, policy):
        if self.cache_hint and policy is None:
            raise _library_error("%s takes an L2 cache policy (policy=): the spelling names "
                                 ".L2::cache_hint" % self._name())
        if not self.cache_hint and policy is not None:
            raise _library_error("%s takes no cache policy: its spelling has no "
                                 ".L2::cache_hint" % self._name())
        return () if policy is None else (policy,)

    def _issue(self, operands, thread):
        """tile.apply of the spelling at scope thread, guarded to `thread`
        (thread_idx.x == thread) unless it is None (the code around runs
        in one thread already)."""
        T = _script()
        if thread is _UNSAID:
            raise _library_error(
                "%s is issued by one thread: say which (thread=0 guards it to thread 0; "
                "thread=None when the code around already runs in one thread)" % self._name())
        if thread is None:
            T.cuda.tile.apply(T.ptx[self.spelling], *operands, scope="thread")
            return
        with T.If(T.cuda.thread_idx("x") == thread):
            with T.Then():
                T.cuda.tile.apply(T.ptx[self.spelling], *operands, scope="thread")

    def __repr__(self):
        bound = ", box=%s, dtype=%s, swizzle=%d" % (self.box, self.dtype.name, self.swizzle) \
            if self.box is not None else ""
        return "%s(%s%s)" % (type(self).__name__, self.spelling, bound)


_UNSAID = object()


def _launch_cluster():
    """The cluster extents of the kernel being traced (() if none or
    outside a kernel)."""
    from ._dsl import current_builder
    b = current_builder()
    launch = getattr(b, "launch", None) if b is not None else None
    return launch.cluster if launch is not None else ()


def _spelling(rank, *parts):
    if not _is_int(rank) or not 1 <= rank <= 5:
        raise _library_error("a tensor map has rank 1 to 5, got %r" % (rank,))
    return ".".join(p for p in parts if p) % rank


class TmaLoad(TmaAtom):
    """The TMA load of a box into its shared image, completing on an
    mbarrier (`cp.async.bulk.tensor.Nd.shared::cluster.global.tile
    .mbarrier::complete_tx::bytes`, or `.shared::cta` at PTX 8.6):

        load = TmaLoad.of(2, "shared::cluster", box=(128, 64), dtype="bfloat16", swizzle=128)
        img = load.alloc_image()
        load(img, A[m:m + 128, k:k + 64], bar, thread=0)
    """

    FORMS = ("cp.async.bulk.tensor.load",)
    WHAT = "a TMA load (cp.async.bulk.tensor.Nd.shared::{cluster|cta}.global...)"

    @classmethod
    def of(cls, rank, space, cache_hint=False, **bind):
        """The spelling of a rank-`rank` tile load into `space`
        ("shared::cluster" or "shared::cta": the author names it)."""
        if space not in ("shared::cluster", "shared::cta"):
            raise _library_error("TmaLoad.of: the destination space is \"shared::cluster\" or "
                                 "\"shared::cta\", got %r" % (space,))
        return cls(_spelling(rank, "cp.async.bulk.tensor.%dd", space, "global.tile",
                             "mbarrier::complete_tx::bytes",
                             "L2::cache_hint" if cache_hint else ""), **bind)

    def expect_tx(self, box=None, dtype=None):
        return self.box_bytes(box, dtype)

    def __call__(self, image, box, mbar, policy=None, thread=_UNSAID):
        """Loads `box` (a region of a global tensor) into `image` (shared),
        its bytes completing on `mbar`; `thread` guards it (see _issue)."""
        self._check_operand_box(box, "global", "the source")
        self._check_operand_box(image, "shared", "the destination")
        self._issue((image, box, mbar) + self._policy(policy), thread)


class TmaLoadMulticast(TmaLoad):
    """The TMA load whose box lands at the image's offset in every CTA of
    the cluster named by a 16-bit ctaMask, completing on the mbarrier at the
    same offset in each (`...mbarrier::complete_tx::bytes.multicast::cluster`).
    Tiled over the CTAs of a cluster (CUTLASS's multicast TMA): each of
    `ctas` CTAs loads one slice of the box (split along its outermost
    dimension) into every CTA, so each CTA receives the whole box."""

    FORMS = ("cp.async.bulk.tensor.load.multicast",)
    WHAT = ("a multicast TMA load (cp.async.bulk.tensor.Nd.shared::cluster.global..."
            ".multicast::cluster)")

    @classmethod
    def of(cls, rank, cache_hint=False, **bind):
        return cls(_spelling(rank, "cp.async.bulk.tensor.%dd", "shared::cluster.global.tile",
                             "mbarrier::complete_tx::bytes", "multicast::cluster",
                             "L2::cache_hint" if cache_hint else ""), **bind)

    def _slices(self, shape, ctas):
        if not _is_int(ctas) or ctas < 1:
            raise _library_error("%s: ctas must be a positive int (the CTAs sharing the "
                                 "box, along x), got %r" % (self._name(), ctas))
        if shape[0] % ctas:
            raise _library_error("%s: a box of %d rows (outermost extent) does not split into "
                                 "%d CTAs' slices" % (self._name(), shape[0], ctas))
        return shape[0] // ctas

    def tile(self, ctas=None, box=None, dtype=None, swizzle=None, units=None):
        """The box split over `ctas` CTAs of a cluster (along x): slice r
        (rows r * s .. r * s + s - 1 of the box, s = rows / ctas) is issued
        by the CTA of rank r and lands at its offset in the image of every
        CTA — the image layout divided into the slices (zipped_divide), each
        element replicated over the CTAs (R[ctas : 1@bx]): over shape
        (ctas, s, *box[1:]). Returns (layout, shape)."""
        self._no_image()
        if units is not None or ctas is None:
            raise _library_error("%s is issued by one thread per CTA: tile it over the CTAs of "
                                 "a cluster (ctas=)%s" % (self._name(), "" if units is None
                                                          else ", not over warps"))
        from .layout import zipped_divide, LayoutError
        shape, dtype = self._bound(box, dtype, "tile")
        rows = self._slices(shape, ctas)
        _cta_arrangement(self._name(), ctas)
        layout = self.image_layout(shape, dtype, swizzle)
        text = str(layout).split(" + Swizzle")
        replicated = TileLayout(text[0] + " + R[%d : 1@bx]" % ctas +
                                (" + Swizzle" + text[1] if len(text) > 1 else ""))
        try:
            divided, divided_shape = zipped_divide(replicated, shape,
                                                   (rows,) + shape[1:])
        except LayoutError as error:
            raise _library_error(str(error).split(": ", 1)[-1]) from None
        return divided, (ctas, rows) + shape[1:]

    def slice_rows(self, ctas, box=None):
        """The rows of the box (outermost extent) each CTA's slice holds."""
        shape = self.box_shape(box) if box is not None else self._bound(None, None, "slice")[0]
        return self._slices(shape, ctas)

    def __call__(self, image, box, mbar, mask=None, policy=None, ctas=None, rank=None,
                 thread=_UNSAID):
        """Loads `box` into `image` of every CTA in `mask` (an int or a
        16-bit value), completing on `mbar` in each. With `ctas` and `rank`
        (this CTA's rank among them: an int or an index value, e.g.
        block_idx("x") % ctas): issues slice `rank` of the box into slice
        `rank` of the image, to the `ctas` CTAs (mask (1 << ctas) - 1 unless
        given)."""
        self._check_operand_box(box, "global", "the source")
        self._check_operand_box(image, "shared", "the destination")
        T = _script()
        if ctas is not None:
            _cta_arrangement(self._name(), ctas)
            rows = self._slices(tuple(box.shape), ctas)
            if rank is None:
                raise _library_error("%s: a load tiled over %d CTAs needs this CTA's rank= "
                                     "among them" % (self._name(), ctas))
            if _is_int(rank) and not 0 <= rank < ctas:
                raise _library_error("%s: rank %d is not one of the %d CTAs"
                                     % (self._name(), rank, ctas))
            if tuple(image.shape) != tuple(box.shape):
                raise _library_error("%s: the image %s holds no box %s"
                                     % (self._name(), tuple(image.shape), tuple(box.shape)))
            first = rank * rows
            box = box[(slice(first, first + rows),)]
            # The image's slices as a leading dimension: a runtime rank then
            # moves the slice by whole slices (a swizzled image's regions
            # start at multiples of its period).
            rest = tuple(image.shape[1:])
            image = image.view(ctas, rows, *rest)[rank:rank + 1].view(rows, *rest)
            if mask is None:
                # The CTAs of the tiling are the whole cluster: ctaMask bit
                # r is the CTA of rank r (%cluster_ctarank).
                mask = (1 << ctas) - 1
                if tuple(_launch_cluster()) not in ((), (ctas,), (ctas, 1), (ctas, 1, 1)):
                    raise _library_error(
                        "%s: the ctaMask of a load tiled over %d CTAs is derived for "
                        "clusters of exactly those CTAs (cluster=%d), but the kernel's are %s: "
                        "give mask= (the ctaMask of this CTA's group)"
                        % (self._name(), ctas, ctas, tuple(_launch_cluster())))
        elif rank is not None:
            raise _library_error("%s: rank= names a CTA of a tiling: give ctas= too"
                                 % self._name())
        if mask is None:
            raise _library_error("%s: a multicast names its CTAs: mask= (a 16-bit ctaMask) "
                                 "or ctas= and rank=" % self._name())
        if _is_int(mask):
            if not 0 < mask < 1 << 16:
                raise _library_error("%s: the ctaMask is 16 bits, got %#x"
                                     % (self._name(), mask))
            mask = T.int16(mask - (1 << 16) if mask >= 1 << 15 else mask)
        self._issue((image, box, mbar, mask) + self._policy(policy), thread)


class TmaStore(TmaAtom):
    """The TMA store of a shared image to a box of a global tensor,
    completing in a bulk group (`cp.async.bulk.tensor.Nd.global.shared::cta
    .tile.bulk_group`); `cp.async.bulk.commit_group` / `wait_group` are the
    kernel's."""

    FORMS = ("cp.async.bulk.tensor.store",)
    WHAT = "a TMA store (cp.async.bulk.tensor.Nd.global.shared::cta...bulk_group)"

    @classmethod
    def of(cls, rank, cache_hint=False, **bind):
        return cls(_spelling(rank, "cp.async.bulk.tensor.%dd", "global.shared::cta.tile",
                             "bulk_group", "L2::cache_hint" if cache_hint else ""), **bind)

    def __call__(self, box, image, policy=None, thread=_UNSAID):
        """Stores `image` (shared) to `box` (a region of a global tensor)."""
        self._check_operand_box(box, "global", "the destination")
        self._check_operand_box(image, "shared", "the source")
        self._issue((box, image) + self._policy(policy), thread)


class TmaReduce(TmaStore):
    """The TMA reduction of a shared image into a box of a global tensor
    (`cp.reduce.async.bulk.tensor.Nd.global.shared::cta.OP.tile.bulk_group`):
    each element of the box becomes `old OP element`. `op` is the
    spelling's; the element types it takes are the verifier's (docs/hopper.md:
    a type it refuses is a diagnostic at the issue call's line)."""

    FORMS = ("cp.reduce.async.bulk.tensor",)
    WHAT = ("a TMA reduction (cp.reduce.async.bulk.tensor.Nd.global.shared::cta.OP"
            "...bulk_group)")
    OPS = ("add", "min", "max", "inc", "dec", "and", "or", "xor")

    def __init__(self, spelling, box=None, dtype=None, swizzle=0):
        super().__init__(spelling, box=box, dtype=dtype, swizzle=swizzle)
        self.op = next(op for op in self.OPS if "." + op + "." in self.spelling)

    @classmethod
    def of(cls, rank, op, cache_hint=False, **bind):
        if op not in cls.OPS:
            raise _library_error("TmaReduce.of: the operation is one of %s, got %r"
                                 % (", ".join(cls.OPS), op))
        return cls(_spelling(rank, "cp.reduce.async.bulk.tensor.%dd", "global.shared::cta",
                             op, "tile.bulk_group", "L2::cache_hint" if cache_hint else ""),
                   **bind)


class TmaPrefetch(TmaAtom):
    """The prefetch of a box of a global tensor into L2
    (`cp.async.bulk.prefetch.tensor.Nd.L2.global.tile`): no image, no
    completion."""

    FORMS = ("cp.async.bulk.prefetch.tensor",)
    WHAT = "a TMA prefetch (cp.async.bulk.prefetch.tensor.Nd.L2.global...)"
    HAS_IMAGE = False

    @classmethod
    def of(cls, rank, cache_hint=False, **bind):
        return cls(_spelling(rank, "cp.async.bulk.prefetch.tensor.%dd", "L2.global.tile",
                             "L2::cache_hint" if cache_hint else ""), **bind)

    def __call__(self, box, policy=None, thread=_UNSAID):
        self._check_operand_box(box, "global", "the box")
        self._issue((box,) + self._policy(policy), thread)


class TensorMapPrefetch(TmaAtom):
    """`prefetch.tensormap` of the map(s) a box's copies read (CUTLASS's
    producer does it once at the start): its operand is the box; the
    coordinates play no part."""

    FORMS = ("prefetch.tensormap",)
    WHAT = "prefetch.tensormap"
    HAS_IMAGE = False

    def __init__(self, spelling="prefetch.tensormap", box=None, dtype=None):
        super().__init__(spelling, box=box, dtype=dtype)

    def __call__(self, box, thread=_UNSAID):
        self._check_operand_box(box, "global", "the box")
        self._issue((box,), thread)


for _class in (TmaLoad, TmaLoadMulticast, TmaStore, TmaReduce, TmaPrefetch, TensorMapPrefetch):
    for _form in _class.FORMS:
        _TMA_CLASSES[_form] = _class


def _library_error(message):
    from ._dsl import _error
    return _error(message)
