"""Loops over runtime-sized data (docs/library.md, "Streams"): the loop
shapes that a kernel over `n` elements or rows known only at launch writes
around its named instructions.

    from tirx.stream import steps, ElementwiseMap

    def add_rows(first, masked):    # rows first .. first + 3
        ...
    steps(rows, 4, add_rows)        # whole groups of 4 in a T.serial loop,
                                    # then the rows % 4 rest, masked

    walk = ElementwiseMap(n, relu, threads=256, unroll=4)  # B = relu(A)
    walk.persistent(A, B, grid)     # a grid-stride loop over its chunks

`steps` is the loop over groups of rows, `ElementwiseMap` an elementwise
pass over 1-D tensors (full chunks of coalesced vectors, a predicated tail)
with its schedules — persistent, one chunk per CTA, software-pipelined, and
dynamic: chunks handed out by an atomic counter (`DynamicChunks`, whose
counter `counter_for(device)` keeps). Every instruction is the caller's;
misuse is a DSLError at the kernel's line.
"""
from ._dsl import _error, is_int

__all__ = ["steps", "ElementwiseMap", "DynamicChunks", "counter_for"]


def _script():
    from .script import tirx as T
    return T


def steps(stop, step, body):
    """body(first, masked=False) for first = 0, step, ... below the last
    whole step of `stop` (a size or index value) in a T.serial loop (kept
    on the GPU), then body(whole, masked=True) once for the stop % step
    items that remain (whole = stop // step * step): a body that reads them
    through masked regions (X.masked, docs/sizes.md) reads none past
    `stop`. A `stop` known while tracing (an int) leaves out a loop of no
    steps and an empty rest."""
    if not is_int(step) or step < 1:
        raise _error("steps: step must be a positive int, got %r" % (step,))
    T = _script()
    whole = stop // step * step  # the items of whole steps
    if not is_int(stop) or whole > 0:
        for first in T.serial(0, whole, step):
            body(first, masked=False)
    if not is_int(stop) or stop % step:
        body(whole, masked=True)


class ElementwiseMap:
    """B = body(A) over two 1-D global tensors of `n` elements (n a size
    known at launch), in chunks of threads x v x unroll elements, v the
    elements of one `load` (4 for "ld.global.v4.b32"): thread t's part of
    the chunk at `base` is its `unroll` vectors at base + u x threads x v +
    t x v, each a coalesced access across the CTA. `body(regs)` computes in
    place on one thread's (v,) or (1,) float registers, with thread-scope
    applies. The instructions stay the caller's: `load` and `store` for a
    full vector, `tail` = (load, store) of single elements, which a partial
    last chunk takes past the last whole vector.

    The chunk schedules (each a method to call in a kernel after its
    T.device_entry, whose grid it assumes):

    - persistent(A, B, grid): a grid-stride loop, CTA bx taking chunks
      bx, bx + grid, ...;
    - one_pass(A, B): one chunk per CTA (a grid of ceil(n / chunk));
    - pipelined(A, B, grid): persistent(), with a thread's part of its next
      full chunk loaded before it stores the current one;
    - dynamic(A, B, counter, grid): chunks taken from an atomic counter
      (DynamicChunks).

    The bounds proof sees every access of each: a full chunk's under
    `base + chunk <= n`, a vector's under `off + v <= n`, a tail element's
    inside its loop to n."""

    def __init__(self, n, body, threads, unroll=1, load="ld.global.v4.b32",
                 store="st.global.v4.b32", tail=("ld.global.b32", "st.global.b32"),
                 loads_first=False):
        from .atoms import instruction
        for name, value in (("threads", threads), ("unroll", unroll)):
            if not is_int(value) or value < 1:
                raise _error("ElementwiseMap: %s must be a positive int, got %r"
                             % (name, value))
        if not callable(body):
            raise _error("ElementwiseMap: body must be a function of a register tile, got %r"
                         % (body,))
        try:
            memory = [o for o in instruction(load).operands if o.is_memory]
        except Exception:
            memory = []
        if len(memory) != 1 or memory[0].bits != 32 or not load.startswith("ld.global"):
            raise _error("ElementwiseMap: load must be a global load of 32-bit elements, "
                         "got %r" % (load,))
        self.n, self.body, self.threads, self.unroll = n, body, threads, unroll
        self.load, self.store, self.tail, self.loads_first = load, store, tail, loads_first
        self.vector = memory[0].atom
        self.chunk = threads * self.vector * unroll

    def _offset(self, base, u, tx):
        return base + u * (self.threads * self.vector) + tx * self.vector

    def _issue(self, instruction, *operands):
        T = _script()
        T.cuda.tile.apply(T.ptx[instruction], *operands, scope="thread")

    def _vector_load(self, A, off, regs=None):
        if regs is None:
            regs = _script().alloc_local((self.vector,), A.dtype.name)
        self._issue(self.load, regs, A[off:off + self.vector])
        return regs

    def _vector_store(self, B, off, regs):
        self.body(regs)
        self._issue(self.store, B[off:off + self.vector], regs)

    def vector_or_tail(self, A, B, off):
        """B[off:off + v] = body(A[off:off + v]) as one vector where v
        elements remain, else element by element up to n."""
        T = _script()
        with T.If(off + self.vector <= self.n):
            with T.Then():
                self._vector_store(B, off, self._vector_load(A, off))
            with T.Else():
                for j in T.serial(off, self.n):
                    x = T.alloc_local((1,), A.dtype.name)
                    self._issue(self.tail[0], x, A[j:j + 1])
                    self.body(x)
                    self._issue(self.tail[1], B[j:j + 1], x)

    def chunk_at(self, A, B, base, tx):
        """The chunk at `base`, thread `tx`'s part: a full chunk as
        `unroll` vectors (loads_first: all loads before the first store;
        else each vector loaded, computed and stored before the next), a
        partial one by vector_or_tail."""
        T = _script()
        with T.If(base + self.chunk <= self.n):
            with T.Then():
                if self.loads_first:
                    regs = [self._vector_load(A, self._offset(base, u, tx))
                            for u in T.unroll(self.unroll)]
                    for u in T.unroll(self.unroll):
                        self._vector_store(B, self._offset(base, u, tx), regs[u])
                else:
                    for u in T.unroll(self.unroll):
                        off = self._offset(base, u, tx)
                        self._vector_store(B, off, self._vector_load(A, off))
            with T.Else():
                for u in T.unroll(self.unroll):
                    self.vector_or_tail(A, B, self._offset(base, u, tx))

    def persistent(self, A, B, grid):
        """Chunks bx, bx + grid, ... of CTA bx (a T.serial loop)."""
        T = _script()
        bx = T.cuda.block_idx("x")
        tx = T.cuda.thread_idx("x")
        for base in T.serial(bx * self.chunk, self.n, grid * self.chunk):
            self.chunk_at(A, B, base, tx)

    def one_pass(self, A, B):
        """Chunk bx of CTA bx, its vectors each by vector_or_tail."""
        T = _script()
        base = T.cuda.block_idx("x") * self.chunk
        tx = T.cuda.thread_idx("x")
        for u in T.unroll(self.unroll):
            self.vector_or_tail(A, B, self._offset(base, u, tx))

    def pipelined(self, A, B, grid):
        """persistent(), software-pipelined: while a full chunk is stored,
        the thread's part of the CTA's next full chunk (grid chunks on) is
        already loaded; two chunks of registers."""
        T = _script()
        chunk, stride = self.chunk, grid * self.chunk
        bx = T.cuda.block_idx("x")
        tx = T.cuda.thread_idx("x")
        cur = [T.alloc_local((self.vector,), A.dtype.name) for _ in range(self.unroll)]
        nxt = [T.alloc_local((self.vector,), A.dtype.name) for _ in range(self.unroll)]
        # cur holds the chunk at `base` whenever that chunk is full.
        with T.If(bx * chunk + chunk <= self.n):
            with T.Then():
                for u in T.unroll(self.unroll):
                    self._vector_load(A, self._offset(bx * chunk, u, tx), cur[u])
        for base in T.serial(bx * chunk, self.n, stride):
            with T.If(base + chunk <= self.n):
                with T.Then():
                    with T.If(base + stride + chunk <= self.n):
                        with T.Then():
                            for u in T.unroll(self.unroll):
                                self._vector_load(A, self._offset(base + stride, u, tx), nxt[u])
                    for u in T.unroll(self.unroll):
                        self._vector_store(B, self._offset(base, u, tx), cur[u])
                    for u in T.unroll(self.unroll):
                        self._issue("mov.b32", cur[u].view(self.vector, 1),
                                    nxt[u].view(self.vector, 1))
                with T.Else():
                    for u in T.unroll(self.unroll):
                        self.vector_or_tail(A, B, self._offset(base, u, tx))

    def dynamic(self, A, B, counter, grid, barriers=2):
        """The chunks scheduled by DynamicChunks (counter, grid, barriers
        as there): chunk_at of each chunk c a CTA takes, c < ceil(n / chunk)."""
        T = _script()
        chunks = DynamicChunks(counter, T.ceildiv(self.n, self.chunk), grid, barriers)
        chunks.run(lambda c: self.chunk_at(A, B, c * self.chunk, chunks.tx))


class DynamicChunks:
    """Work items 0 .. count - 1 (count: a size expression, e.g.
    T.ceildiv(n, chunk)) handed out to `grid` CTAs at run time: CTA bx first
    takes item bx, then takes further items from a global counter (`counter`,
    a (1,) int32 tensor, zero before the launch) until none is left, so a
    CTA that finishes sooner takes more (docs/sizes.md, "Dynamic
    scheduling"). Constructing it emits the CTA's setup (`bx`, `tx`, the
    counter's limit, the registers and shared slots); run(body) the loop.

    Thread 0 takes the next item (atom.global.inc.u32) before the CTA works
    on the current one, so the atomic's latency hides behind that work, and
    hands it to the CTA through shared memory and a barrier (barriers=2: a
    second barrier keeps the slot until everyone has read it; barriers=1:
    two slots used in turn, the body traced twice, one barrier per item). A
    grab returning `old` names item old + grid; a CTA stops after its first
    grab past the last item.

    The counter is 0 after every complete launch: with G = max(count, grid),
    a launch makes exactly G grabs (each CTA one failing grab, and the
    count - grid successful ones), and atom.inc with the limit G - 1 returns
    0 .. G - 1 and wraps to 0 at the last. It needs zeroing once, when it is
    allocated; a launch that does not complete leaves it unknown, and two
    launches sharing it must not overlap. count must fit 32 bits.

    The item is a value loaded at run time: the bounds proof knows nothing
    of it, so the body runs under `c < count`, and its accesses need guards
    of their own (an unguarded one is refused, naming the loaded value)."""

    def __init__(self, counter, count, grid, barriers=2):
        T = _script()
        if barriers not in (1, 2):
            raise _error("DynamicChunks: barriers is 1 or 2, got %r" % (barriers,))
        if not is_int(grid) or grid < 1:
            raise _error("DynamicChunks: grid must be a positive int (the launch's CTAs), "
                         "got %r" % (grid,))
        if getattr(counter, "shape", None) != (1,) or counter.dtype.name != "int32" or \
                counter.type.space != "global":
            raise _error("DynamicChunks: the counter must be a global (1,) int32 tensor, "
                         "got %r" % (counter,))
        self.grid, self.barriers = grid, barriers
        self.bx = T.cuda.block_idx("x")
        self.tx = T.cuda.thread_idx("x")
        self.count = T.index(count)
        # atom.inc's limit: the counter wraps to 0 after max(count, grid) grabs.
        self.limit = T.int32(T.if_then_else(self.count > grid, self.count, grid) - 1)
        self.work = counter.view("uint32")
        self.cur = T.alloc_local((1,), "uint32")  # the item the CTA works on
        self.old = T.alloc_local((1,), "uint32")  # thread 0's grab
        self.handed = T.alloc_shared((2,), "uint32", align=4)
        T.cuda.tile.apply(T.ptx["mov.u32"], self.cur, T.int32(self.bx), scope="thread")

    def _step(self, body, slot):
        """body(cur) while thread 0 takes the next item; hand it over
        through handed[slot]; cur = the next item."""
        T = _script()
        T.cuda.tile.apply(T.ptx["atom.global.inc.u32"], self.old, self.work[0:1], self.limit,
                          scope="thread", pred=self.tx == 0)
        c = T.index(self.cur[0])
        with T.If(c < self.count):
            with T.Then():
                body(c)
        T.cuda.tile.apply(T.ptx["st.shared.u32"], self.handed[slot:slot + 1], self.old,
                          scope="thread", pred=self.tx == 0)
        T.cuda.cta_sync()
        T.cuda.tile.apply(T.ptx["ld.shared.u32"], self.cur, self.handed[slot:slot + 1],
                          scope="thread")
        T.cuda.tile.apply(T.ptx["add.u32"], self.cur.view(1, 1), self.cur.view(1, 1),
                          T.uint32(self.grid), scope="thread")
        if self.barriers == 2:
            T.cuda.cta_sync()  # handed[slot] is free for thread 0's next grab

    def run(self, body):
        """body(c) for every item c this CTA takes (c an index value), all
        threads of the CTA together."""
        T = _script()
        with T.DoWhile() as loop:
            self._step(body, 0)
            if self.barriers == 1:
                # Two steps, two slots: thread 0 writes a slot again two
                # steps later, after the next step's barrier, which every
                # thread reaches only after reading it.
                with T.If(T.index(self.cur[0]) < self.count):
                    with T.Then():
                        self._step(body, 1)
            loop.repeat_if(T.index(self.cur[0]) < self.count)


_COUNTERS = {}


def counter_for(device):
    """The work counter of DynamicChunks kernels on `device` (a torch device
    or its name): one int32 zero, allocated (and zeroed) once per device and
    reused by every launch, which leaves it at zero (DynamicChunks'
    invariant). Launches that share it must not overlap (one stream)."""
    import torch
    device = torch.device(device)
    if device.index is None:
        device = torch.device(device.type, torch.cuda.current_device())
    if device not in _COUNTERS:
        _COUNTERS[device] = torch.zeros(1, dtype=torch.int32, device=device)
    return _COUNTERS[device]
