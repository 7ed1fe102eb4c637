"""Rows spread over threads (docs/library.md, "Rows"): the register tiles of
row-wise kernels (softmax, normalizations, column sums) and what they do
with them — masked coalesced chunk loads and stores, per-thread reductions
— written once instead of in every kernel.

    from tirx.rows import Strip

    strip = Strip(chunks=4, warps=8)            # a CTA of 256 threads
    x = strip.load("ld.global.v4.b32", X, row, fill=T.float32(-math.inf))
    top = strip.reduce(strip.values(x), "max.f32")   # per thread: (8, 32, 1)
    T.cuda.cta_reduce(top, "max")
    strip.copy("st.global.v4.b32", Y, x, row)

A `Strip` is `chunks` chunks of a row, each spread over the threads of a
CTA (`warps` warps; tiles led by (warps, 32), applies at `cta` scope) or of
one warp (no `warps`: tiles led by (32,), `warp` scope): in chunk r, thread
t (t = 32 w + l) holds `words` 32-bit registers, the columns
`r * stride + offset + t * k + (0 .. k - 1)`, k = words x 32 / the
element's bits (4 float32, 8 bfloat16). One chunk is then one coalesced
access of `words` words per thread (or several narrower ones).

Every instruction stays named by the caller: the load and store spellings,
the combining instruction of a reduction. The strip derives what follows
from them: an access's width (from the PTX table, tirx.atoms), the views of
registers and regions it takes (a 16-bit element's carrier words), the
chunk's columns, the per-thread layouts. A chunk's region is masked by
default (`X.masked`, docs/sizes.md): elements past the row's end are not
loaded, keep the fill, and are not stored. A row whose length is declared a
multiple of the chunks' stride (T.dynamic("cols", multiple_of=...)) is
whole chunks: each chunk is then accessed or not as a whole, on one
predicate all threads share (Strip.whole_chunks).

Misuse is a DSLError at the kernel's line: an access that does not divide a
thread's words, an instruction that is no global access, a row that is not
a global tensor, a tile that is not the strip's, a reduction over fewer
than two values, a dot product or a packing whose values do not fit.
"""
from ._dsl import SizeVar, TensorValue, _error, is_int
from .cuda.axis import laneid, warpid
from .layout import S, TileLayout

__all__ = ["Strip"]


def _script():
    from .script import tirx as T
    return T


def _product(extents):
    total = 1
    for extent in extents:
        total *= extent
    return total


class Strip:
    """`chunks` chunks of a row over a CTA's `warps` warps (or one warp),
    `words` 32-bit registers per thread and chunk, chunk r starting at
    column r * stride + offset (stride: default the chunk's own columns)."""

    def __init__(self, chunks, warps=None, words=4, stride=None):
        for name, value in (("chunks", chunks), ("words", words)):
            if not is_int(value) or value < 1:
                raise _error("Strip: %s must be a positive int, got %r" % (name, value))
        if warps is not None and (not is_int(warps) or warps < 1):
            raise _error("Strip: warps must be a positive int or None (one warp), got %r"
                         % (warps,))
        if stride is not None and (not is_int(stride) or stride < 1):
            raise _error("Strip: stride must be a positive int (columns from a chunk to the "
                         "next) or None, got %r" % (stride,))
        self.chunks, self.warps, self.words, self.stride = chunks, warps, words, stride
        self.threads = (warps, 32) if warps else (32,)
        self._axes = (1 @ warpid, 1 @ laneid) if warps else (1 @ laneid,)
        self.scope = "cta" if warps else "warp"

    # Layouts and tiles

    def columns(self, dtype="float32"):
        """The columns of one chunk of `dtype` elements (all threads)."""
        return _product(self.threads) * self.words * 32 // _bits(dtype)

    def capacity(self, dtype="float32"):
        """The longest row the strip holds: chunks x columns(dtype)."""
        return self.chunks * self.columns(dtype)

    def layout(self, *shape):
        """Each thread's registers of shape `shape`, row-major, after the
        strip's thread axes: S[(threads..., *shape) : (1@warpid, 1@laneid,
        row-major strides)]."""
        strides, step = [], 1
        for extent in reversed(shape):
            strides.append(step)
            step *= extent
        return TileLayout(S[self.threads + tuple(shape):self._axes + tuple(reversed(strides))])

    def local(self, shape, dtype="float32"):
        """A register tile (threads..., *shape) laid out by layout(*shape)."""
        shape = tuple(shape)
        return _script().alloc_local(self.threads + shape, dtype, layout=self.layout(*shape))

    def alloc(self, dtype="float32", fill=None):
        """The strip's tile: (threads..., chunks, words) of 32-bit `dtype`,
        every register set to `fill` (a typed constant) when given."""
        tile = self.local((self.chunks, self.words), dtype)
        if fill is not None:
            self.apply("mov.b32", self.values(tile), fill)
        return tile

    def values(self, tile):
        """A tile of the strip as (threads..., n, 1): its n values per
        thread, one per row of the view (the operand shape of per-thread
        instructions applied to all of them)."""
        self._check_tile(tile, "values")
        return tile.view(*(self.threads + (_product(tile.shape[len(self.threads):]), 1)))

    def elements(self, values):
        """The (threads..., 1) tiles of each value of a values() tile, in
        order: operands for an instruction per value with a per-thread
        scalar ((threads..., 1)) beside it."""
        self._check_tile(values, "elements")
        if len(values.shape) != len(self.threads) + 2 or values.shape[-1] != 1:
            raise _error("Strip.elements needs a values() tile (threads..., n, 1), got shape %s"
                         % (tuple(values.shape),))
        every = (slice(None),) * len(self.threads)
        return [values.sub[every + (i, slice(None))] for i in range(values.shape[-2])]

    def each(self, values, *steps):
        """For each value of a values() tile in turn, `steps` in order: a
        step (instruction, *operands) is apply(instruction, e, e,
        *operands) on the value's (threads..., 1) tile e, the operands
        constants or per-thread (threads..., 1) tiles. A value's steps
        follow each other, so a chain such as fma then ex2 runs value by
        value."""
        for e in self.elements(values):
            for instruction, *operands in steps:
                self.apply(instruction, e, e, *operands)

    def convert(self, instruction, tile, dtype="float32"):
        """A new values() tile of `dtype` holding each element of `tile` (a
        tile of the strip, viewed as its elements: raw.view("bfloat16"))
        converted by `instruction` ("cvt.f32.bf16"), one per register."""
        values = self.values(tile)
        result = self.local(tuple(values.shape[len(self.threads):]), dtype)
        self.apply(instruction, result, values)
        return result

    def pack(self, instruction, values):
        """A new strip tile (uint32, alloc()) of `values` (a values() tile of
        2 x chunks x words values) converted two at a time by a packing
        `instruction` ("cvt.rn.bf16x2.f32"): value 2i in the low half of a
        word, 2i + 1 in the high half, as memory orders 16-bit elements
        (PTX takes the high half's source first)."""
        count = self._count(values, "pack")
        if count != 2 * self.chunks * self.words:
            raise _error("Strip.pack: %d values per thread do not fill the strip's %d words "
                         "two to a word" % (count, self.chunks * self.words))
        out = self.alloc("uint32")
        pairs = values.view(*(self.threads + (count // 2, 2)))
        every = (slice(None),) * (len(self.threads) + 1)
        self.apply(instruction, self.values(out), pairs[every + (slice(1, 2),)],
                   pairs[every + (slice(0, 1),)])
        return out

    def apply(self, instruction, *operands, **kwargs):
        """T.cuda.tile.apply of `instruction` at the strip's scope."""
        T = _script()
        T.cuda.tile.apply(T.ptx[instruction], *operands, scope=self.scope, **kwargs)

    # Chunk loads and stores

    def load(self, instruction, tensor, *index, fill=None, masked=True, offset=0):
        """A new strip tile (alloc(), filled with `fill`) holding the row
        tensor[index..., :] chunk by chunk, each chunk's columns loaded by
        `instruction` (a global load: "ld.global.v4.b32", ...). Its dtype is
        the tensor's for 32-bit elements, else uint32 (their carrier).
        `masked`: columns past the row's end are not accessed (each access
        predicated, or each chunk where whole_chunks() holds); False: the
        bounds proof must show every chunk inside the row."""
        dtype = tensor.dtype.name if _bits(tensor.dtype.name) == 32 else "uint32"
        tile = self.alloc(dtype, fill)
        self.copy(instruction, tile, tensor, *index, masked=masked, offset=offset)
        return tile

    def copy(self, instruction, dst, src, *index, masked=True, offset=0):
        """Chunk by chunk, `instruction` between a strip tile and the row
        tensor[index..., :] (either side the destination, as PTX orders
        them: a load's tile first, a store's region first)."""
        T = _script()
        store = isinstance(dst, TensorValue) and dst.type.space == "global"
        tile, tensor = (src, dst) if store else (dst, src)
        if not isinstance(tensor, TensorValue) or tensor.type.space != "global":
            raise _error("Strip: the row must be a global tensor, got %r" % (tensor,))
        self._check_tile(tile, "a chunk copy", chunks=True)
        carrier, shape = self._access(instruction, tile)
        columns = self.columns(tensor.dtype.name)
        stride = columns if self.stride is None else self.stride
        whole = masked and self.whole_chunks(tensor, offset)
        for r in T.unroll(self.chunks):
            start = r * stride + offset
            key = tuple(index) + (slice(start, start + columns),)
            region = tensor.masked.sub[key] if masked and not whole else tensor.sub[key]
            if region.dtype.name != carrier:
                region = region.view(carrier)
            words = tile.view(carrier) if tile.dtype.name != carrier else tile
            every = (slice(None),) * len(self.threads)
            registers = words.sub[every + (r, slice(None))].view(*(self.threads + shape))
            region = region.view(*(self.threads + shape))
            # Whole chunks: one predicate per chunk, every thread's (a chunk
            # that starts inside the row ends inside it).
            pred = {"pred": r * stride < tensor.shape[-1]} if whole else {}
            self.apply(instruction, *((region, registers) if store else (registers, region)),
                       **pred)

    def whole_chunks(self, tensor, offset=0):
        """Whether copy() and load() predicate the row tensor[..., :] a
        chunk at a time: its length is a size variable declared a multiple
        of the chunks' stride (T.dynamic("cols", multiple_of=...)), so a
        chunk that starts inside the row ends inside it (`offset` plus a
        chunk's columns within the stride; a traced offset is left to the
        bounds proof). Chunk r is then accessed where r * stride < cols,
        one predicate all threads share, through an unmasked region: the
        other indices must be provably inside the tensor. Otherwise each
        access is masked on its own (X.masked)."""
        extent = tensor.shape[-1]
        columns = self.columns(tensor.dtype.name)
        stride = columns if self.stride is None else self.stride
        if not isinstance(extent, SizeVar) or extent.multiple_of % stride:
            return False
        return not is_int(offset) or 0 <= offset and offset + columns <= stride

    def _access(self, instruction, tile):
        """(carrier dtype, access shape) of `instruction` on a thread's
        words: an access of k elements of b bits is (words x 32 / (k b), k)
        of uint16 (b = 16) or of the tile's dtype (b = 32)."""
        from .atoms import instruction as record
        try:
            memory = [o for o in record(instruction).operands if o.is_memory]
        except Exception:
            memory = []
        if len(memory) != 1 or memory[0].bits not in (16, 32) or \
                not instruction.startswith(("ld.global", "st.global")):
            raise _error("Strip: %r is no global load or store of 16- or 32-bit elements"
                         % (instruction,))
        bits, elements = memory[0].bits, memory[0].atom
        per_thread = self.words * 32 // bits
        if per_thread % elements:
            raise _error("Strip: %s accesses %d elements; a thread's %d words are %d of them, "
                         "no multiple" % (instruction, elements, self.words, per_thread))
        carrier = tile.dtype.name if bits == 32 else "uint16"
        return carrier, (per_thread // elements, elements)

    def _check_tile(self, tile, what, chunks=False):
        rank = len(self.threads)
        ok = isinstance(tile, TensorValue) and tile.type.space == "local" and \
            tuple(tile.shape[:rank]) == self.threads
        if ok and chunks:
            ok = tuple(tile.shape[rank:]) == (self.chunks, self.words) and \
                _bits(tile.dtype.name) == 32
        if not ok:
            raise _error("Strip: %s needs a tile of the strip (%s), got %r" % (
                what, "32-bit registers of shape %s" % (self.threads + (self.chunks, self.words),)
                if chunks else "registers led by %s" % (self.threads,), tile))

    # Per-thread reductions

    def reduce(self, values, instruction, partial=None, into=None):
        """Each thread's n values (a values() tile, n >= 2) combined by
        `instruction` ("max.f32", "add.rn.f32") into one: into the w values
        of `partial` ((threads..., w, 1), w a power of two dividing n / 2;
        default a new tile of w = min(8, n / 2)) a slice of w values at a
        time, then those as a tree, half with the other half: n / w - 1 +
        log2 w dependent steps rather than n - 1. Returns the result as
        (threads..., 1) (a new register, or `into`, (threads..., 1, 1))."""
        count = self._count(values, "reduce")
        if partial is None:
            partial = self.partial(values)
        result = into if into is not None else self.local((1, 1), values.dtype.name)
        width = partial.shape[-2]

        def part(tile, start, stop):
            return self._slice(tile, start, stop)
        self.apply(instruction, partial, part(values, 0, width), part(values, width, 2 * width))
        for start in range(2 * width, count, width):
            self.apply(instruction, partial, partial, part(values, start, start + width))
        self._tree(instruction, partial, result)
        return result.view(*(self.threads + (1,)))

    def dot(self, a, b, width=8):
        """Each thread's sum of products of its values of `a` and `b`
        (values() tiles of n values, n a multiple of `width`), float32:
        mul.rn.f32 into `width` partial sums, fma.rn.f32 for the further
        slices, then add.rn.f32 as a tree. Returns (threads..., 1)."""
        count = self._count(a, "dot")
        if count % width or width & (width - 1):
            raise _error("Strip.dot: %d values per thread are no multiple of %d partial sums "
                         "(a power of two)" % (count, width))
        partial = self.local((width, 1), "float32")
        self.apply("mul.rn.f32", partial, self._slice(a, 0, width), self._slice(b, 0, width))
        for start in range(width, count, width):
            self.apply("fma.rn.f32", partial, self._slice(a, start, start + width),
                       self._slice(b, start, start + width), partial)
        result = self.local((1, 1), "float32")
        self._tree("add.rn.f32", partial, result)
        return result.view(*(self.threads + (1,)))

    def partial(self, values, most=8):
        """The partial values reduce() combines into: min(most, n / 2) per
        thread, a tile several reductions of `values` may share."""
        return self.local((min(most, self._count(values, "partial") // 2), 1),
                          values.dtype.name)

    def _tree(self, instruction, partial, result):
        """partial's w values (w a power of two) combined half with half
        into `result`."""
        width = partial.shape[-2]
        if width & (width - 1):
            raise _error("Strip: %d partial values per thread are no power of two" % width)
        if width == 1:
            self.apply("mov.b32", result, partial)
        while width > 1:
            width //= 2
            self.apply(instruction, result if width == 1 else self._slice(partial, 0, width),
                       self._slice(partial, 0, width), self._slice(partial, width, 2 * width))

    def _slice(self, tile, start, stop):
        every = (slice(None),) * len(self.threads)
        return tile.sub[every + (slice(start, stop), slice(None))]

    def _count(self, values, what):
        self._check_tile(values, what)
        count = values.shape[-2] if len(values.shape) == len(self.threads) + 2 else 0
        if count < 2 or values.shape[-1] != 1:
            raise _error("Strip.%s needs a values() tile of at least 2 values per thread, "
                         "got shape %s" % (what, tuple(values.shape)))
        return count


def _bits(dtype):
    from ._dsl import as_dtype
    return as_dtype(dtype).bits
