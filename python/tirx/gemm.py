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
  the group that read it is complete); `produce_k_loop`, the producer's
  side of the same steps; `WarpSpecialized`, the CTA split into a
  producer warpgroup and consumer warpgroups;
- `AccumulatorStore`: the epilogue of a wgmma m64nN f32 accumulator as bf16
  into C: pairs of accumulators converted to bf16x2 words, stored straight
  from the registers (st.global.b32) or through a swizzled shared buffer and
  one thread's TMA stores of 64 x 64 boxes, a tile's last words optionally
  deferred into the next tile's first K blocks;
- `WarpTiledMMA`: mma.sync tiled over a grid of warps, its operands through
  ldmatrix from XOR-swizzled shared stages (`row_swizzle`) that 16-byte
  copies fill (`ChunkTile`), its K loop over a CpAsyncPipeline with the
  fragments one k16 step ahead, and its bf16 epilogue (stmatrix through
  shared memory, or st.global).

Every instruction stays named: the wgmma spelling is the caller's, the
others are the module's constants below. Misuse is a DSLError at the
kernel's line.
"""
import math

from ._dsl import TensorValue, _error, is_int
from .atoms import Atom
from .layout import S, ComposeLayout, SwizzleLayout, TileLayout
from .cuda.axis import laneid, warpid, wid_in_wg

__all__ = ["TileScheduler", "swizzled_128b", "alloc_swizzled", "k_slice", "WarpgroupMMA",
           "produce_k_loop", "WarpSpecialized", "AccumulatorStore", "row_swizzle", "strided",
           "ChunkTile", "WarpTiledMMA", "TMA_STORE", "SWIZZLE_128B"]

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

    def k_step(self, tile, k_steps):
        """The pipeline step of K block kb of `tile` when the CTA numbers its
        K blocks on across its tiles (producer and consumers alike):
        kb -> (tile - first) / stride * k_steps + kb."""
        self._persistent("k_step")
        return lambda kb: (tile - self.first) // self.stride * k_steps + kb

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


class WarpSpecialized:
    """A warp-specialized CTA: warpgroup 0 produces, warpgroups 1 ..
    consume. Made in the kernel (its thread and warpgroup indices: `tid`,
    `wg`); `init(*pipelines)`: thread 0 initializes the TmaPipelines, then a
    CTA barrier; `run(consumer, producer)`: the producer warpgroup gives
    registers back (setmaxnreg.dec to producer_registers) and its thread 0
    runs producer(); each consumer warpgroup takes them (setmaxnreg.inc to
    consumer_registers) and runs consumer(wg), wg its warpgroup index
    (1 ..)."""

    def __init__(self, consumer_registers, producer_registers):
        for value, name in ((consumer_registers, "consumer_registers"),
                            (producer_registers, "producer_registers")):
            if not is_int(value) or not 24 <= value <= 256 or value % 8:
                raise _error("WarpSpecialized: %s = %r; setmaxnreg takes a multiple of 8 in "
                             "24 .. 256" % (name, value))
        self.consumer_registers, self.producer_registers = consumer_registers, producer_registers
        T = _script()
        self.tid = T.cuda.thread_idx("x")
        self.wg = self.tid // 128

    def init(self, *pipelines):
        T = _script()
        with T.If(self.tid == 0):
            with T.Then():
                for pipeline in pipelines:
                    pipeline.init()
        T.cuda.cta_sync()

    def run(self, consumer, producer):
        T = _script()
        with T.If(self.wg >= 1):
            with T.Then():
                T.cuda.tile.apply(T.ptx["setmaxnreg.inc.sync.aligned.u32"],
                                  T.int32(self.consumer_registers), scope="warpgroup")
                consumer(self.wg)
            with T.Else():
                T.cuda.tile.apply(T.ptx["setmaxnreg.dec.sync.aligned.u32"],
                                  T.int32(self.producer_registers), scope="warpgroup")
                with T.If(self.tid == 0):
                    with T.Then():
                        producer()


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
    `barrier_id` synchronize the warpgroup around the writes.

    deferred: the last `deferred` words of each tile leave later, while the
    next tile's first K blocks run (`tile_done`, `overlap`, `finish`), so
    the epilogue overlaps the tensor cores; their registers (`kept`) are
    allocated here."""

    def __init__(self, mma, d, C, origin, store="global", buffer=None, barrier=None,
                 barrier_id=None, slot=None, deferred=0):
        if store not in ("global", "tma"):
            raise _error("AccumulatorStore: store must be \"global\" or \"tma\", got %r"
                         % (store,))
        if not isinstance(C, TensorValue) or C.type.space != "global" or len(C.shape) != 2:
            raise _error("AccumulatorStore: C must be a 2-D global tensor, got %r" % (C,))
        self.mma, self.C, self.origin, self.store_kind = mma, C, origin, store
        self.words = mma.n // 4
        if not is_int(deferred) or not 0 <= deferred <= self.words or (
                store == "tma" and deferred % 16):
            raise _error("AccumulatorStore: deferred = %r words is not one of 0 .. %d%s"
                         % (deferred, self.words, " in whole boxes (multiples of 16)"
                            if store == "tma" else ""))
        self.deferred, self.now = deferred, self.words - deferred
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
        self.kept = self.registers(max(deferred, 1))

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

    def tile_done(self, tile):
        """After tile's K loop (d complete): its first words (all but the
        deferred ones) converted and stored now, the deferred ones
        converted and kept in registers for store_deferred."""
        if self.now:
            words = self.registers(self.now)
            self.convert(words, 0, self.now)
            self.store(tile, words, 0, self.now)
        if self.deferred:
            self.convert(self.kept, self.now, self.deferred)

    def store_deferred(self, tile, chunk=0, chunks=1):
        """Chunk `chunk` of `chunks` of tile's deferred words (store="tma":
        chunk 0 stores them all, in whole boxes; the others nothing)."""
        if not (is_int(chunks) and chunks >= 1 and is_int(chunk) and 0 <= chunk < chunks):
            raise _error("AccumulatorStore: chunk %r of %r chunks" % (chunk, chunks))
        if self.store_kind == "global":
            if self.deferred % chunks:
                raise _error("AccumulatorStore: %d deferred words do not split into %d chunks"
                             % (self.deferred, chunks))
            size, first = self.deferred // chunks, chunk * (self.deferred // chunks)
        else:
            size, first = (self.deferred, 0) if chunk == 0 else (0, 0)
        if size:
            self.store(tile, self.kept[:, :, first:first + size, :], self.now + first, size)

    def overlap(self, tiles, tile, chunks):
        """The `overlap` of a K loop (WarpgroupMMA.mainloop) of `tile` whose
        first `chunks` blocks are peeled: block kb's stores chunk kb of the
        previous tile's deferred words (`tiles`, the TileScheduler; none
        before the CTA's first tile), while the tensor cores run."""
        T = _script()

        def previous(kb):
            if self.deferred:
                with T.If(tiles.has_previous(tile)):
                    with T.Then():
                        self.store_deferred(tile - tiles.stride, kb, chunks)
        return previous

    def _box(self, b=None):
        """The warpgroup's buffer (b None) or its box b, indexed where used."""
        index = () if self.slot is None else (self.slot,)
        index += () if b is None else (b,)
        return self.buffer[index] if index else self.buffer

    def finish(self, tiles=None):
        """After the CTA's last tile: its deferred words (`tiles`, the
        TileScheduler, gives the last tile), then, before the CTA (and its
        shared memory) goes, the buffer's last TMA stores complete."""
        if self.deferred:
            if tiles is None:
                raise _error("AccumulatorStore.finish: deferred words need the TileScheduler "
                             "(finish(tiles)) to find the CTA's last tile")
            tiles.on_last(lambda last: self.store_deferred(last))
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


class ChunkTile:
    """A tile of `rows` rows of `row_words` 32-bit words moved in 16-byte
    chunks by `warps` warps (cp.async, ld/st.shared.v4, ld/st.global.v4):
    chunk c = r * threads + t of thread t in repeat r is row
    c / (row_words / 4), chunk c % (row_words / 4), so a warp moves whole
    rows. `shape` = (warps, 32, repeats, 4 words): the tile a tile.apply of
    a 16-byte instruction takes; `of(tensor, stride, swizzle)` views a
    region of rows `stride` words apart (a global matrix's row, or a shared
    tile's, with its row_swizzle) as that tile."""

    def __init__(self, rows, row_words, warps):
        threads = warps * 32
        per_row = row_words // 4 if is_int(row_words) else 0
        if not (is_int(rows) and is_int(warps) and per_row and row_words % 4 == 0
                and per_row <= 32 and 32 % per_row == 0 and rows * per_row % threads == 0):
            raise _error("ChunkTile: %r rows of %r words are no whole number of 16-byte "
                         "chunks per thread of %r warps (a row must be 1 .. 32 chunks, a "
                         "divisor of 32)" % (rows, row_words, warps))
        self.warps, self.per_row, self.threads = warps, per_row, threads
        self.repeats = rows * per_row // threads
        self.shape = (warps, 32, self.repeats, 4)

    def layout(self, stride, swizzle=None):
        """The tile's layout over rows `stride` words apart, then `swizzle`."""
        lane_rows = 32 // self.per_row
        return strided((self.warps, lane_rows, self.per_row, self.repeats, 4),
                       (lane_rows * stride, stride, 4, self.threads // self.per_row * stride, 1),
                       swizzle=swizzle)

    def of(self, tensor, stride, swizzle=None):
        """`tensor` (a region of words) viewed as the tile."""
        return tensor.view(self.shape, layout=self.layout(stride, swizzle))


class WarpTiledMMA:
    """An mma.sync m16n8k16 atom (`mma`) tiled over warps_m x warps_n warps
    for a CTA tile of block_m x block_n, K blocks of block_k: warp (wm, wn)
    owns a (block_m / warps_m) x (block_n / warps_n) tile, MI x NI atoms.
    Its operands come through ldmatrix (`ldmatrix`, x4) from shared stages of
    A (block_m, block_k) row-major and, transposed (`ldmatrix_trans`, x4
    .trans), of B (block_k, block_n) row-major, their 16-byte chunks
    XOR-swizzled by row (row_swizzle). Every instruction's fragment is the
    PTX table's (Atom.tile); the stages are flat 32-bit words (two bf16 a
    word).

    The kernel's part, in order: `alloc_stages`, `accumulator`,
    `mainloop` (the stage copies are the kernel's: `copy_stage`), `store`."""

    def __init__(self, mma, ldmatrix, ldmatrix_trans, warps_m, warps_n, block_m, block_n,
                 block_k):
        for name, value in (("warps_m", warps_m), ("warps_n", warps_n), ("block_m", block_m),
                            ("block_n", block_n), ("block_k", block_k)):
            if not is_int(value) or value < 1:
                raise _error("WarpTiledMMA: %s must be a positive int, got %r" % (name, value))
        wm, wn = block_m // warps_m, block_n // warps_n
        if block_m % (16 * warps_m) or block_n % (16 * warps_n) or block_k % 32:
            raise _error("WarpTiledMMA: a %d x %d tile over %d x %d warps, K blocks of %d: "
                         "each warp needs a multiple of 16 rows and 16 columns, a K block an "
                         "even number of k16 steps" % (block_m, block_n, warps_m, warps_n,
                                                        block_k))
        self.mma, self.ldmatrix, self.ldmatrix_trans = mma, ldmatrix, ldmatrix_trans
        self.warps_m, self.warps_n, self.wm, self.wn = warps_m, warps_n, wm, wn
        self.block_m, self.block_n, self.block_k = block_m, block_n, block_k
        self.warps = warps = warps_m * warps_n
        self.mi, self.ni, self.ks = wm // 16, wn // 8, block_k // 16
        self.arow, self.brow = block_k // 2, block_n // 2     # shared rows, in words
        self.a_stage, self.b_stage = block_m * self.arow, block_k * self.brow
        self.a_swizzle, self.b_swizzle = row_swizzle(self.arow), row_swizzle(self.brow)
        self.ldm_a, _ = ldmatrix.tile("d", self.mi, units=warps)
        self.ldm_b, _ = ldmatrix_trans.tile("d", self.ni // 2, units=warps)
        self.frag_a, _ = mma.tile("a", self.mi, units=warps)
        self.frag_b, _ = mma.tile("b", self.ni, units=warps)
        self.acc_layout, _ = mma.tile("d", (self.mi, self.ni), units=warps)
        self.acc_regs = self.mi * self.ni * 4
        self.per_thread = TileLayout(S[(warps, 32, self.acc_regs, 1) :
                                       (1 @ warpid, 1 @ laneid, 1, 1)])
        self.a_chunks = ChunkTile(block_m, self.arow, warps)
        self.b_chunks = ChunkTile(block_k, self.brow, warps)

    def alloc_stages(self, stages):
        """The shared stages of A and B: (stages * words,) uint32 each."""
        T = _script()
        return (T.alloc_shared((stages * self.a_stage,), "uint32", align=128),
                T.alloc_shared((stages * self.b_stage,), "uint32", align=128))

    def copy_stage(self, spelling, stages, stage, A, B, bm, bn, kb, **parameters):
        """Copies K block kb of the CTA tile (bm, bn) into `stage` of
        `stages` (the pair alloc_stages gave): A's rows bm block_m ..,
        words kb block_k / 2 .. and B's rows kb block_k .., words
        bn block_n / 2 .. (A, B: the global matrices as 32-bit words), each
        thread 16-byte chunks (ChunkTile) with the copy `spelling` (e.g.
        "cp.async.cg.shared.global"; `parameters`: its chunk_bytes, pred)."""
        T = _script()
        sa, sb = stages
        bk, bm_, bn_ = self.block_k, self.block_m, self.block_n

        def copy(shared, tile, chunks, row, swizzle, stride):
            T.cuda.tile.apply(T.ptx[spelling], chunks.of(shared, row, swizzle),
                              chunks.of(tile, stride), scope="cta", **parameters)

        copy(sa[stage * self.a_stage:stage * self.a_stage + self.a_stage],
             A[bm * bm_:bm * bm_ + bm_, kb * (bk // 2):kb * (bk // 2) + bk // 2],
             self.a_chunks, self.arow, self.a_swizzle, A.shape[1])
        copy(sb[stage * self.b_stage:stage * self.b_stage + self.b_stage],
             B[kb * bk:kb * bk + bk, bn * (bn_ // 2):bn * (bn_ // 2) + bn_ // 2],
             self.b_chunks, self.brow, self.b_swizzle, B.shape[1])

    def accumulator(self):
        """The CTA's f32 accumulators (warps, MI, NI, 16, 8), zeroed
        (mov.b32), and the fragments of two k16 steps (mainloop's)."""
        T = _script()
        acc = T.alloc_local((self.warps, self.mi, self.ni, 16, 8), "float32",
                            layout=self.acc_layout)
        T.cuda.tile.apply(T.ptx["mov.b32"], acc.view((self.warps, 32, self.acc_regs, 1),
                                                     layout=self.per_thread),
                          T.float32(0.0), scope="cta")
        self._a = [T.alloc_local((self.warps, self.mi, 16, 8), "uint32", layout=self.frag_a)
                   for _ in range(2)]
        self._b = [T.alloc_local((self.warps, self.ni, 8, 8), "uint32", layout=self.frag_b)
                   for _ in range(2)]
        return acc

    def _rows(self, ks, operand):
        """ldmatrix's row addresses of k16 step ks. A: warp (wm, wn), repeat
        mi, matrix m, row r, word w reads row wm WM + 16 mi + 8 (m % 2) + r,
        word 8 ks + 4 (m / 2) + w (matrix m is mma's A register m). B
        (.trans): repeat nj, matrix m reads k row 16 ks + 8 (m % 2) + r,
        words wn WN/2 + 4 (2 nj + m / 2) + w. The k16 step is an offset
        before the swizzle (a stage starts at a swizzle period)."""
        if operand == "a":
            return strided((self.warps_m, self.warps_n, self.mi, 2, 2, 8, 4),
                           (self.wm * self.arow, 0, 16 * self.arow, 4, 8 * self.arow,
                            self.arow, 1), 8 * ks, self.a_swizzle)
        return strided((self.warps_m, self.warps_n, self.ni // 2, 2, 2, 8, 4),
                       (0, self.wn // 2, 8, 4, 8 * self.brow, self.brow, 1),
                       16 * ks * self.brow, self.b_swizzle)

    def load_fragments(self, stages, stage, ks):
        """ldmatrix of k16 step ks of `stage` into fragment buffer ks % 2."""
        sa, sb = stages
        shape_a = (self.warps, self.mi, 4, 8, 4)
        shape_b = (self.warps, self.ni // 2, 4, 8, 4)
        self.ldmatrix(self._a[ks % 2].view(shape_a, layout=self.ldm_a),
                      sa[stage * self.a_stage:stage * self.a_stage + self.a_stage].view(
                          shape_a, layout=self._rows(ks, "a")), scope="cta")
        self.ldmatrix_trans(self._b[ks % 2].view(shape_b, layout=self.ldm_b),
                            sb[stage * self.b_stage:stage * self.b_stage + self.b_stage].view(
                                shape_b, layout=self._rows(ks, "b")), scope="cta")

    def multiply(self, acc, ks):
        """acc += the fragments of k16 step ks: one tile.apply, one mma per
        (mi, ni) (docs/matrix.md)."""
        self.mma(acc, self._a[ks % 2].view(self.warps, self.mi, 1, 16, 8),
                 self._b[ks % 2].view(self.warps, self.ni, 1, 8, 8), acc, scope="cta")

    def mainloop(self, pipe, stages, acc, k_steps, load):
        """acc += A B over `k_steps` K blocks (an int, at least
        pipe.stages - 1) through `pipe` (a CpAsyncPipeline): load(stage, kb,
        pred) issues K block kb's copies into `stage` (pred: a condition, or
        None for always) and commits them. stages - 1 blocks load ahead;
        fragments run one k16 step ahead of the mma, into the next stage at
        a block's last step: its copies are complete by then (wait_group,
        then the barrier, after the mma of the second-to-last k16 step), so
        the barrier's wait overlaps mma work. The loop keeps each block's
        stage a runtime value: each ldmatrix keeps one set of swizzled row
        addresses for every stage."""
        T = _script()
        count = pipe.stages
        if not is_int(k_steps) or k_steps < count - 1:
            raise _error("WarpTiledMMA.mainloop: %r K blocks; the %d-stage pipeline loads %d "
                         "ahead" % (k_steps, count, count - 1))
        for kb in range(count - 1):
            load(kb, kb, None)
        pipe.consumer_wait()
        self.load_fragments(stages, 0, 0)
        for kb in T.serial(0, k_steps):
            s = kb % count
            for ks in range(self.ks):
                if ks + 1 < self.ks:
                    self.load_fragments(stages, s, ks + 1)
                else:
                    self.load_fragments(stages, (s + 1) % count, 0)
                if ks == 0:
                    # The stage loaded now was last read before the previous
                    # block's barrier, which every thread has passed.
                    load((s + count - 1) % count, kb + (count - 1), kb + (count - 1) < k_steps)
                self.multiply(acc, ks)
                if ks == self.ks - 2:
                    pipe.consumer_wait()
        pipe.drain()

    def store(self, acc, C, bm, bn, shared=None):
        """C's tile (bm, bn) = bf16(acc): C a global (M, N / 2) tensor of
        32-bit words; pairs of accumulators (columns 2j, 2j + 1) as one
        bf16x2 word (cvt.rn.bf16x2.f32), one row of atoms (mi) at a time.
        shared=None: st.global.b32 from the registers; else `shared`, a
        (block_m * block_n / 2,) uint32 shared tile: stmatrix (x4) into it,
        swizzled, then, after a CTA barrier, ld.shared.v4.b32 +
        st.global.v4.b32 of whole 16-byte chunks (a warp whole rows of C)."""
        T = _script()
        warps, ni, crow = self.warps, self.ni, self.block_n // 2
        c_swizzle = row_swizzle(crow)
        nw = C.shape[1]
        words = T.alloc_local((warps, 32, 2 * ni, 1), "uint32", layout=TileLayout(
            S[(warps, 32, 2 * ni, 1) : (1 @ warpid, 1 @ laneid, 1, 1)]))
        halves = acc.view((warps, 32, self.acc_regs, 1), layout=self.per_thread).view(
            warps, 32, self.acc_regs // 2, 2)
        if shared is not None:
            c_tile = C[bm * self.block_m:bm * self.block_m + self.block_m,
                       bn * crow:bn * crow + crow]
        for mi in range(self.mi):
            T.cuda.tile.apply(T.ptx["cvt.rn.bf16x2.f32"], words,
                              halves[:, :, 2 * ni * mi:2 * ni * (mi + 1), 1:2],
                              halves[:, :, 2 * ni * mi:2 * ni * (mi + 1), 0:1], scope="cta")
            if shared is not None:
                # Pair p = 4 j + m as matrix m of repeat j: row wm WM + 16 mi
                # + 8 (m % 2) + r, word wn WN/2 + 8 j + 4 (m / 2) + w.
                rows = strided((self.warps_m, self.warps_n, ni // 2, 2, 2, 8, 4),
                               (self.wm * crow, self.wn // 2, 8, 4, 8 * crow, crow, 1),
                               16 * mi * crow, c_swizzle)
                T.cuda.tile.apply(T.ptx["stmatrix.sync.aligned.m8n8.x4.shared.b16"],
                                  shared.view((warps, ni // 2, 4, 8, 4), layout=rows),
                                  words.view((warps, ni // 2, 4, 8, 4), layout=self.ldm_b),
                                  scope="cta")
            else:
                # Pair p = 2 ni + h of lane l: row wm WM + 16 mi + 8 h + l / 4,
                # word wn WN/2 + 4 ni + l % 4.
                row = bm * self.block_m + 16 * mi
                rows = TileLayout(S[(self.warps_m, self.warps_n, 8, 4, ni, 2, 1) :
                                    (self.wm * nw, self.wn // 2, nw, 1, 4, 8 * nw, 1)])
                T.cuda.tile.apply(T.ptx["st.global.b32"],
                                  C[row:row + self.block_m - 16 * mi, bn * crow:bn * crow + crow]
                                  .view((warps, 32, 2 * ni, 1), layout=rows), words, scope="cta")
        if shared is None:
            return
        T.cuda.cta_sync()
        # 16 registers at a time: the accumulators' are still counted.
        chunks = ChunkTile(self.block_m, crow, warps)
        group = min(chunks.repeats, 4)
        out = T.alloc_local((warps, 32, group, 4), "uint32", layout=TileLayout(
            S[(warps, 32, group, 4) : (1 @ warpid, 1 @ laneid, 4, 1)]))
        source, target = chunks.of(shared, crow, c_swizzle), chunks.of(c_tile, nw)
        for g in range(0, chunks.repeats, group):
            T.cuda.tile.apply(T.ptx["ld.shared.v4.b32"], out, source[:, :, g:g + group, :],
                              scope="cta")
            T.cuda.tile.apply(T.ptx["st.global.v4.b32"], target[:, :, g:g + group, :], out,
                              scope="cta")
