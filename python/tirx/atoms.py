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
