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

    def tile(self, name, repeats=(), units=None):
        """Operand `name`'s fragment repeated `repeats` times in each
        thread's registers and, with `units`, over that many executing
        units (warps of a warp instruction, warpgroups of a warpgroup one)
        or an arrangement of them (a layout on warpid or wgid): the logical
        product of the fragment with S[(units, *repeats) : (1@unit,
        row-major)], each repeat after the fragment's registers. Returns
        (layout, shape), shape = ((units,) if units else ()) + repeats +
        the atom's shape: the register tile a tile.apply of this
        instruction takes (group, repeat, atom)."""
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
                        "%s is executed by a %s: tile its fragment over %s (%s), not over %s"
                        % (self.spelling, self.exec, plural, axis, " and ".join(used) or "m"))
            units_shape = (arrangement.size(),)
        try:
            # [units', repeats', fragment]: the repeats after the fragment's
            # registers, the units on their own axis.
            layout = fragment
            if repeats:
                layout = logical_product(layout, "S[(%s)]" % ", ".join(map(str, repeats)))
            if arrangement is not None:
                layout = logical_product(layout, arrangement)
        except LayoutError as error:
            raise _library_error(str(error).split(": ", 1)[-1]) from None
        return layout, units_shape + repeats + self.shape(name)

    def __call__(self, *operands, scope=None, **parameters):
        """Issues the instruction over register tiles and regions (tile.apply)
        at `scope` (default: the instruction's own, e.g. "warp" for mma.sync;
        "cta" when its tiles hold several warps)."""
        from .script import tirx as T
        default = self.exec if self.exec in ("warp", "warpgroup") else "thread"
        T.cuda.tile.apply(T.ptx[self.spelling], *operands, scope=scope or default, **parameters)

    def __repr__(self):
        return "Atom(%s)" % self.spelling


def _library_error(message):
    from ._dsl import _error
    return _error(message)
