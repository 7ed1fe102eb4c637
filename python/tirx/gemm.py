"""Pieces of GEMM kernels (docs/library.md, "GEMM pieces"): what the Hopper
and the mma.sync GEMMs repeat around their named instructions, and what an
attention kernel (Q K^T and P V: two wgmma GEMMs over TMA pipelines) needs
next.

    from tirx.gemm import TileScheduler, WarpgroupMMA, AccumulatorStore

    tiles = TileScheduler(tiles_m, tiles_n, group_m=8, first=bx, stride=grid)
    mma = WarpgroupMMA("wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16")
    d = mma.accumulator()                        # the m64n256 f32 fragment
    for tile in tiles.loop():                    # bx, bx + grid, ...
        mma.mainloop(pipe, d, lambda s: (sa[s], sw[s]), KT, step)
        ...                                      # d holds the tile's product

- `TileScheduler`: output tiles in grouped order (group_m row tiles share
  their columns of the second operand in L2), static or of runtime extents,
  walked by persistent CTAs;
- `swizzled_128b` / `alloc_swizzled`: shared tiles whose 128-byte rows have
  their 16-byte chunks XOR-permuted by the row (TMA's and wgmma's 128-byte
  swizzle), and `k_slice`, wgmma's view of one k16 slice of such a tile;
- `WarpgroupMMA`: a wgmma atom of one warpgroup: its accumulator, one K
  block (fence, a wgmma per k16 slice, commit), the K loop of an output
  tile over a `TmaPipeline` (one group in flight, each stage released once
  the group that read it is complete), and `produce_k_loop`, the producer's
  side of the same steps;
- `AccumulatorStore`: the epilogue of a wgmma m64nN f32 accumulator as bf16
  into C: pairs of accumulators converted to bf16x2 words, stored straight
  from the registers (st.global.b32) or through a swizzled shared buffer and
  one thread's TMA stores of 64 x 64 boxes;
- `row_swizzle`, `chunk_layouts`: the mma.sync GEMM's XOR-swizzled shared
  rows and its views for 16-byte copies (cp.async, ld/st.shared.v4).

Every instruction stays named: the wgmma spelling is the caller's, the
others are the module's constants below. Misuse is a DSLError at the
kernel's line.
"""
import math

from ._dsl import TensorValue, _error, is_int
from .atoms import Atom
from .layout import S, ComposeLayout, SwizzleLayout, TileLayout
from .cuda.axis import laneid, wid_in_wg

__all__ = ["TileScheduler", "swizzled_128b", "alloc_swizzled", "k_slice", "WarpgroupMMA",
           "produce_k_loop", "AccumulatorStore", "row_swizzle", "chunk_layouts",
           "TMA_STORE", "SWIZZLE_128B"]

# The 128-byte swizzle of TMA and wgmma on 16-bit elements: 16-byte chunk c
# of row r goes to chunk c ^ (r % 8); a period is 8 rows, 1024 bytes.
SWIZZLE_128B = "Swizzle[3, 3, 3]"
# A 2-D box of shared memory to global memory, one bulk group per commit.
TMA_STORE = "cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group"


def _script():
    from .script import tirx as T
    return T


# --- the tile schedule -------------------------------------------------------

class TileScheduler:
    """The output tiles of a GEMM, tiles_m x tiles_n, in grouped order: tile
    t is in group t / (group_m tiles_n), whose group_m row tiles are walked
    column by column, so that they share the second operand's columns in L2.
    Extents known while tracing (ints) need tiles_m to be a multiple of the
    group (after group_m = min(group_m, tiles_m)); runtime extents (traced
    index values) give the last group the rows that remain.

    A persistent CTA walks tiles first, first + stride, ... (`loop()`, its
    block index and the grid); `first=None` is one tile per CTA (the block
    index is the tile)."""

    def __init__(self, tiles_m, tiles_n, group_m=8, first=None, stride=1):
        if not is_int(group_m) or group_m < 1:
            raise _error("TileScheduler: group_m must be a positive int, got %r" % (group_m,))
        self.static = is_int(tiles_m) and is_int(tiles_n)
        if self.static:
            if tiles_m < 1 or tiles_n < 1:
                raise _error("TileScheduler: %d x %d tiles: a GEMM has at least one tile"
                             % (tiles_m, tiles_n))
            group_m = min(group_m, tiles_m)
            if tiles_m % group_m:
                raise _error("TileScheduler: %d row tiles are no multiple of group_m = %d "
                             "(a runtime extent may leave a partial group; a static one "
                             "may not)" % (tiles_m, group_m))
        self.tiles_m, self.tiles_n, self.group_m = tiles_m, tiles_n, group_m
        self.first, self.stride = first, stride
        self.tiles = tiles_m * tiles_n

    def coordinates(self, tile):
        """(bm, bn): the row and column tile of tile number `tile`."""
        m, n = self.group_m, self.tiles_n
        if self.static:
            group = tile // (m * n)
            return group * m + tile % m, (tile % (m * n)) // m
        T = _script()
        first = tile // (m * n) * m
        rows = T.if_then_else(self.tiles_m - first < m, self.tiles_m - first, m)
        in_group = tile % (m * n)
        return first + in_group % rows, in_group // rows

    def loop(self):
        """The CTA's tiles: T.serial(first, tiles, stride)."""
        self._persistent("loop")
        return _script().serial(self.first, self.tiles, self.stride)

    def has_previous(self, tile):
        """Whether the CTA walked a tile before `tile` (a traced condition)."""
        self._persistent("has_previous")
        return tile >= self.first + self.stride

    def last(self):
        """The CTA's last tile (when it has one: first < tiles)."""
        self._persistent("last")
        return self.first + (self.tiles - 1 - self.first) // self.stride * self.stride

    def on_last(self, body):
        """body(last) for the CTA's last tile, where it has one: runtime
        extents may leave a CTA without tiles (then under first < tiles)."""
        self._persistent("on_last")
        last = self.last()
        if self.static:
            body(last)
            return
        T = _script()
        with T.If(self.first < self.tiles):
            with T.Then():
                body(last)

    def _persistent(self, what):
        if self.first is None:
            raise _error("TileScheduler.%s: this schedule is one tile per CTA (first=None); "
                         "a persistent CTA's walk needs first (its block index) and stride "
                         "(the grid)" % what)


# --- 128-byte swizzled operands ---------------------------------------------

def _check_16bit_rows(shape, what):
    if not shape or shape[-1] != 64:
        raise _error("%s: the 128-byte swizzle takes rows of 64 16-bit elements (128 "
                     "bytes), got shape %s" % (what, tuple(shape)))


def _matrix_shape(tile, what):
    """(rows, columns) of a shared tile of shape (..., rows, columns) whose
    leading extents are 1 (a region indexed by stage or warpgroup)."""
    shape = tuple(tile.shape) if isinstance(tile, TensorValue) else ()
    if len(shape) < 2 or tile.type.space != "shared" or any(e != 1 for e in shape[:-2]):
        raise _error("%s: the operand must be a (rows, columns) region of a shared tile, "
                     "got %r%s" % (what, tile, " of shape %s" % (shape,) if shape else ""))
    return shape[-2:]


def swizzled_128b(shape):
    """The row-major layout of a shared tile of 16-bit elements, rows of 64
    (128 bytes), with the 128-byte swizzle: what TMA writes and wgmma reads
    (a tile of whole 8-row periods, allocated at 1024 bytes)."""
    shape = tuple(shape)
    _check_16bit_rows(shape, "swizzled_128b")
    strides, step = [], 1
    for extent in reversed(shape):
        strides.insert(0, step)
        step *= extent
    return TileLayout("S[(%s) : (%s)] + %s" % (", ".join(map(str, shape)),
                                               ", ".join(map(str, strides)), SWIZZLE_128B))


def alloc_swizzled(shape, dtype="bfloat16"):
    """T.alloc_shared of `shape` (rows of 64 `dtype` elements, 16-bit),
    1024-byte aligned, with the 128-byte swizzle (swizzled_128b)."""
    from ._dsl import as_dtype
    if as_dtype(dtype).bits != 16:
        raise _error("alloc_swizzled: the 128-byte swizzle of 64-element rows takes a "
                     "16-bit dtype, got %s" % dtype)
    return _script().alloc_shared(tuple(shape), dtype, align=1024, layout=swizzled_128b(shape))


def k_slice(tile, kk):
    """wgmma's view of k16 slice `kk` of `tile`, a (rows, 64) region of a
    128-byte swizzled shared tile: its columns 16 kk .. 16 kk + 15."""
    rows, cols = _matrix_shape(tile, "k_slice")
    _check_16bit_rows(tile.shape, "k_slice")
    if not is_int(kk) or not 0 <= kk < cols // 16:
        raise _error("k_slice: slice %r is not one of 0 .. %d" % (kk, cols // 16 - 1))
    return tile.view((rows, 16), layout=TileLayout("S[(%d, 16) : (64, 1)] + %d + %s"
                                                   % (rows, 16 * kk, SWIZZLE_128B)))


# --- the warpgroup MMA --------------------------------------------------------

class WarpgroupMMA:
    """A wgmma atom (`spelling`, e.g. "wgmma.mma_async.sync.aligned.m64n256k16
    .f32.bf16.bf16") issued by one warpgroup with both operands in 128-byte
    swizzled shared memory, K-major: A a (64, BK) region, B an (N, BK) one.

    `layout`, `shape`: the accumulator's fragment (the PTX table's) and its
    tile (64, N); `n` its columns."""

    def __init__(self, spelling):
        self.atom = Atom(spelling)
        if self.atom.exec != "warpgroup" or not self.atom.spelling.startswith("wgmma.mma_async"):
            raise _error("WarpgroupMMA takes a wgmma.mma_async spelling, got %s (executed "
                         "by a %s)" % (self.atom.spelling, self.atom.exec))
        self.layout, self.shape = self.atom.tile("d")
        self.m, self.n = self.shape
        self.k = self.atom.shape("a")[1]

    def accumulator(self):
        """The warpgroup's f32 accumulator tile (64, N) in its fragment."""
        return _script().alloc_local(self.shape, "float32", layout=self.layout)

    def k_block(self, d, a, b, zero=False):
        """d += a b^T over one K block: wgmma.fence, one wgmma per k16 slice
        (k_slice) of a (64, BK) and b (N, BK), commit_group. zero: the
        block's first wgmma overwrites d (scale-d 0), a tile's first block."""
        T = _script()
        (a_rows, a_k), (b_rows, b_k) = (_matrix_shape(x, "WarpgroupMMA.k_block") for x in (a, b))
        if (a_rows, b_rows) != (self.m, self.n) or a_k != b_k:
            raise _error("WarpgroupMMA.k_block: %s takes a (%d, BK) and b (%d, BK), got "
                         "(%d, %d) and (%d, %d)" % (self.atom.spelling, self.m, self.n,
                                                    a_rows, a_k, b_rows, b_k))
        T.cuda.tile.apply(T.ptx["wgmma.fence.sync.aligned"], scope="warpgroup")
        for kk in range(a_k // self.k):
            self.atom(d, k_slice(a, kk), k_slice(b, kk),
                      scale_d=0 if (zero and kk == 0) else 1)
        T.cuda.tile.apply(T.ptx["wgmma.commit_group.sync.aligned"], scope="warpgroup")

    def wait(self, pending):
        """wgmma.wait_group `pending`: at most that many groups in flight."""
        T = _script()
        T.cuda.tile.apply(T.ptx["wgmma.wait_group.sync.aligned"], T.int32(pending),
                          scope="warpgroup")

    def mainloop(self, pipe, d, operands, k_steps, step=lambda kb: kb, peel=1, overlap=None,
                 padded_to=None):
        """The consumer's K loop of one output tile over `pipe` (a
        TmaPipeline): K block kb (0 .. k_steps, an int or index value) is
        pipeline step `step(kb)`; it waits for the step's stage s, issues
        k_block(d, *operands(s)) (the first overwrites d) and, once
        wait_group 1 shows the previous block's group complete, releases
        the previous step's stage. The first `peel` blocks are unrolled
        (k_steps must be at least peel); `overlap(kb)`, when given, runs
        after each of their groups is issued: work that overlaps the
        tensor cores (the previous tile's epilogue). At the end wait_group 0
        and the last stage's release: d is complete. padded_to: steps
        k_steps .. padded_to are empty ones (produce_k_loop's padding),
        waited for and released at once."""
        T = _script()
        if not is_int(peel) or peel < 1:
            raise _error("WarpgroupMMA.mainloop: peel must be a positive int, got %r" % (peel,))
        if is_int(k_steps) and k_steps < peel:
            raise _error("WarpgroupMMA.mainloop: %d K steps are fewer than the %d peeled ones"
                         % (k_steps, peel))

        def block(kb, zero):
            self.k_block(d, *operands(pipe.consumer_wait(step(kb))), zero=zero)

        def release_previous(kb):
            self.wait(1)
            pipe.consumer_release(step(kb) - 1)

        for kb in range(peel):
            block(kb, kb == 0)
            if overlap is not None:
                overlap(kb)
            if kb >= 1:
                release_previous(kb)
        for kb in T.serial(peel, k_steps):
            block(kb, False)
            release_previous(kb)
        self.wait(0)
        pipe.consumer_release(step(k_steps - 1))
        if padded_to is not None:
            for kb in T.serial(k_steps, padded_to):
                pipe.consumer_wait(step(kb))
                pipe.consumer_release(step(kb))


def produce_k_loop(pipe, k_steps, load, step=lambda kb: kb, padded_to=None):
    """The producer's side of WarpgroupMMA.mainloop (one thread): for K block
    kb in 0 .. k_steps, `with pipe.produce(step(kb)) as stage: load(stage,
    kb)` (its TMA loads, which must bring the stage's bytes); then steps
    k_steps .. padded_to without data (produce_empty): a runtime K padded
    to a multiple of twice the stages keeps each step's stage and parity
    those of kb."""
    T = _script()
    for kb in T.serial(0, k_steps):
        with pipe.produce(step(kb)) as stage:
            load(stage, kb)
    if padded_to is not None:
        for kb in T.serial(k_steps, padded_to):
            pipe.produce_empty(step(kb))


# --- the epilogue of a wgmma accumulator -------------------------------------

def _per_thread(count):
    """`count` registers per thread of a warpgroup, in order."""
    return TileLayout(S[(4, 32, count, 1) : (1 @ wid_in_wg, 1 @ laneid, 1, 1)])


class AccumulatorStore:
    """C = bf16(d) for a warpgroup's wgmma m64nN f32 accumulator d, as N / 4
    bf16x2 words per thread: word q = 2 j + h of lane l in warp w holds
    (registers 4 j + 2 h, +1) row 16 w + 8 h + l / 4, columns 8 j + 2 (l % 4),
    +1 of the warpgroup's 64 x N tile.

    C: the (M, N) bfloat16 global tensor. origin(tile) -> (row, bn): the
    tile's first row for this warpgroup and its column tile (its columns
    bn N .. bn N + N - 1), evaluated where a store needs it.
    store="global": st.global.b32 of each thread's words (C's extents must be
    ints); store="tma": through `buffer`, this warpgroup's (boxes, 64, 64)
    bf16 shared tile (alloc_swizzled; with `slot`, buffer[slot] of a
    (warpgroups, boxes, 64, 64) one), 16 words per thread and box: once
    the buffer's previous TMA stores have read it, every thread writes its
    words (st.shared.b32), fences them for the async proxy, and one thread
    issues a TMA store of each 64 x 64 box; `barrier` (NamedBarriers) and
    `barrier_id` synchronize the warpgroup around the writes."""

    def __init__(self, mma, d, C, origin, store="global", buffer=None, barrier=None,
                 barrier_id=None, slot=None):
        if store not in ("global", "tma"):
            raise _error("AccumulatorStore: store must be \"global\" or \"tma\", got %r"
                         % (store,))
        if not isinstance(C, TensorValue) or C.type.space != "global" or len(C.shape) != 2:
            raise _error("AccumulatorStore: C must be a 2-D global tensor, got %r" % (C,))
        self.mma, self.C, self.origin, self.store_kind = mma, C, origin, store
        self.words = mma.n // 4
        regs = mma.n // 2
        self.halves = d.view((4, 32, regs, 1), layout=_per_thread(regs)).view(
            4, 32, self.words, 2)
        if store == "global":
            if not is_int(C.shape[1]):
                raise _error("AccumulatorStore: store=\"global\" needs C's extents known "
                             "while tracing (a runtime-sized C goes through store=\"tma\", "
                             "whose boxes TMA clips)")
            row_words = C.shape[1] // 2
            self.C_words = C.view("uint32")
            self.global_words = TileLayout(S[(4, 8, 4, mma.n // 8, 2, 1) :
                                             (16 * row_words, row_words, 1, 4,
                                              8 * row_words, 1)])
        else:
            if buffer is None or barrier is None or barrier_id is None:
                raise _error("AccumulatorStore: store=\"tma\" needs buffer (the warpgroup's "
                             "shared boxes), barrier and barrier_id")
            shape = tuple(buffer.shape) if isinstance(buffer, TensorValue) else ()
            want = 3 if slot is None else 4
            if len(shape) != want or shape[-2:] != (64, 64) or buffer.type.space != "shared":
                raise _error("AccumulatorStore: the buffer must be a shared %s tile, got %r%s"
                             % ("(boxes, 64, 64)" if slot is None else
                                "(warpgroups, boxes, 64, 64) (slot: the warpgroup's)",
                                buffer, " of shape %s" % (shape,) if shape else ""))
            self.boxes, self.slot = shape[-3], slot
            self.buffer, self.barrier, self.barrier_id = buffer, barrier, barrier_id
            # Word q = 16 b + 2 j + h: box b's row 16 w + 8 h + l / 4, word
            # 4 j + l % 4 (32 words a row, 128-byte swizzled).
            self.buffer_words = TileLayout(
                "S[(4, 8, 4, %d, 8, 2, 1) : (512, 32, 1, 2048, 4, 256, 1)] + Swizzle[2, 3, 3]"
                % self.boxes)

    def registers(self, count):
        """A tile of `count` words per thread (uint32)."""
        return _script().alloc_local((4, 32, count, 1), "uint32", layout=_per_thread(count))

    def convert(self, out, first, count):
        """out = words first .. first + count of d (cvt.rn.bf16x2.f32)."""
        T = _script()
        self._check_range(first, count)
        T.cuda.tile.apply(T.ptx["cvt.rn.bf16x2.f32"], out,
                          self.halves[:, :, first:first + count, 1:2],
                          self.halves[:, :, first:first + count, 0:1], scope="warpgroup")

    def store(self, tile, words, first, count):
        """Words first .. first + count of tile's C from the registers
        `words` (a tile of `count` words per thread)."""
        self._check_range(first, count)
        T = _script()
        if self.store_kind == "global":
            row, bn = self.origin(tile)
            n_words = self.mma.n // 2
            target = self.C_words[row:row + 64, bn * n_words:bn * n_words + n_words].view(
                (4, 32, self.words, 1), layout=self.global_words)
            T.cuda.tile.apply(T.ptx["st.global.b32"], target[:, :, first:first + count, :],
                              words, scope="warpgroup")
            return
        if first % 16 or count % 16 or count // 16 > self.boxes:
            raise _error("AccumulatorStore: words %d .. %d are not whole boxes of the "
                         "buffer's %d (16 words per thread each)"
                         % (first, first + count, self.boxes))
        boss = T.cuda.thread_idx("x") % 128 == 0
        with T.If(boss):
            with T.Then():
                T.cuda.tile.apply(T.ptx["cp.async.bulk.wait_group.read"], T.int32(0),
                                  scope="thread")
        self.barrier.sync(self.barrier_id)
        buffer = self._box().view("uint32").view((4, 32, self.boxes * 16, 1),
                                                 layout=self.buffer_words)
        T.cuda.tile.apply(T.ptx["st.shared.b32"], buffer[:, :, 0:count, :], words,
                          scope="warpgroup")
        T.ptx.fence.proxy.async_.shared__cta()
        self.barrier.sync(self.barrier_id)
        with T.If(boss):
            with T.Then():
                row, bn = self.origin(tile)
                for b in range(count // 16):
                    col = bn * self.mma.n + (first // 16 + b) * 64
                    T.cuda.tile.apply(T.ptx[TMA_STORE], self.C[row:row + 64, col:col + 64],
                                      self._box(b), scope="thread")
                T.cuda.tile.apply(T.ptx["cp.async.bulk.commit_group"], scope="thread")

    def _box(self, b=None):
        """The warpgroup's buffer (b None) or its box b, indexed where used."""
        index = () if self.slot is None else (self.slot,)
        index += () if b is None else (b,)
        return self.buffer[index] if index else self.buffer

    def finish(self):
        """Before the CTA (and its shared memory) goes: the buffer's last TMA
        stores complete (nothing for store="global")."""
        if self.store_kind == "tma":
            T = _script()
            with T.If(T.cuda.thread_idx("x") % 128 == 0):
                with T.Then():
                    T.cuda.tile.apply(T.ptx["cp.async.bulk.wait_group"], T.int32(0),
                                      scope="thread")

    def _check_range(self, first, count):
        if not (is_int(first) and is_int(count) and count >= 1
                and 0 <= first and first + count <= self.words):
            raise _error("AccumulatorStore: words %r .. %r + %r are outside the %d words per "
                         "thread of the m64n%d accumulator"
                         % (first, first, count, self.words, self.mma.n))


# --- the mma.sync GEMM's shared rows -----------------------------------------

def row_swizzle(row_words):
    """The XOR swizzle of shared rows of `row_words` 32-bit words (a power of
    two, 8 or more): a row's 16-byte chunk index ^= the row index's low
    bits, so that 8 consecutive rows put one chunk column in 8 distinct
    groups of 4 banks (ldmatrix's 8 row addresses, a warp's 16-byte
    writes). Chunks never leave their row (or its 128-byte half)."""
    if not is_int(row_words) or row_words < 8 or row_words & (row_words - 1):
        raise _error("row_swizzle: rows of %r words; the swizzle needs a power of two of at "
                     "least 8 (two 16-byte chunks)" % (row_words,))
    chunk_bits = int(math.log2(row_words // 4))
    return SwizzleLayout(2, min(3, chunk_bits), max(3, chunk_bits))


def strided(shape, stride, offset=0, swizzle=None):
    """S[shape : stride] + offset, then `swizzle` (a SwizzleLayout), on
    words."""
    tile = TileLayout(S[shape : stride] + offset if offset else S[shape : stride])
    return ComposeLayout(swizzle, tile) if swizzle else tile


def chunk_layouts(rows, row_words, warps):
    """A tile of `rows` rows of `row_words` words moved in 16-byte chunks by
    `warps` warps (cp.async, ld/st.shared.v4, ld/st.global.v4): chunk
    c = r * threads + t of thread t in repeat r is row c / (row_words / 4),
    chunk c % (row_words / 4). Returns (repeats, view): the tile shape is
    (warps, 32, repeats, 4 words), view(stride, swizzle=None) the layout of
    rows `stride` words apart (a global matrix's row, or a shared one's,
    swizzled)."""
    threads = warps * 32
    per_row = row_words // 4
    if not (is_int(rows) and is_int(row_words) and row_words % 4 == 0 and per_row <= 32
            and 32 % per_row == 0 and rows * per_row % threads == 0):
        raise _error("chunk_layouts: %r rows of %r words are no whole number of 16-byte "
                     "chunks per thread of %r warps (a row must be 1 .. 32 chunks, a "
                     "divisor of 32)" % (rows, row_words, warps))
    lane_rows = 32 // per_row
    repeats = rows * per_row // threads

    def view(stride, swizzle=None):
        return strided((warps, lane_rows, per_row, repeats, 4),
                       (lane_rows * stride, stride, 4, threads // per_row * stride, 1),
                       swizzle=swizzle)
    return repeats, view
