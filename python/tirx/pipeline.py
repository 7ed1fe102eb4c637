"""Pipelines of shared-memory stages (docs/library.md, "Pipelines"): what a
kernel author would otherwise write by hand around named instructions —
mbarrier init counts, phase parities, expect-tx byte counts.

    from tirx.pipeline import TmaPipeline

    pipe = TmaPipeline(STAGES, buffers=(sa, sw), consumers=2, release="warp")
    with T.If(tid == 0):
        with T.Then():
            pipe.init()               # mbarrier.init of every stage, fence
    T.cuda.cta_sync()
    # producer (one thread): step i of the K loop
    with pipe.produce(step) as stage:  # waits for the stage to be free,
        stage.load(sa[stage.index], A[...])   # arms it with the stage's bytes
        stage.load(sw[stage.index], W[...])
    # consumers
    stage = pipe.consumer_wait(step)   # waits for the stage to be full
    ...                                # read sa[stage], sw[stage]
    pipe.consumer_release(step)        # gives it back (one arrival per warp)

A step number (an int or a traced index value) names a stage use: stage
`step % stages`, in its `(step // stages)`-th use, whose phase parity is
`(step // stages) % 2` (PipelineState). Producer and consumers number the
same steps. The producer's first use of a stage waits on the parity before
its first phase: a fresh mbarrier counts it complete (PTX ISA 9.7.13.15.16).

Every instruction stays named (the mbarrier family, the TMA load spelled in
TMA_LOAD, or the tirx.atoms.TmaLoad atoms given as `loads=` or to
stage.load(..., atom=)); the pipeline derives the counts: the full barrier expects one
arrival (the producer's arrive.expect_tx) and the stage's bytes — the sum of
one stage of each buffer — the empty barrier one arrival per consumer warp
(release="warp": lane 0 of each warp of `consumers` warpgroups) or per
consumer thread (release="thread"). Misuse is a DSLError at the user's line:
a step's loads that do not bring the stage's bytes, a load into a tensor that
is not a stage of one of the buffers, a consumer that waits but never
releases.
"""
from . import _dsl
from ._dsl import TensorValue, _error, is_int

__all__ = ["PipelineState", "TmaPipeline", "CpAsyncPipeline", "NamedBarriers", "TMA_LOAD"]

# The TMA load of an N-dimensional box into shared memory, completing on the
# stage's mbarrier (docs/hopper.md).
TMA_LOAD = ("cp.async.bulk.tensor.%dd.shared::cluster.global.tile."
            "mbarrier::complete_tx::bytes")


def _script():
    from .script import tirx as T
    return T


class PipelineState:
    """Where step `step` of a `stages`-stage pipeline is: `index`, its stage
    (step % stages), and `phase`, the parity of its use of that stage
    ((step // stages) % 2). Each property emits its arithmetic when read."""

    def __init__(self, stages, step, traced_step=None):
        # traced_step: an int step as an index value, whose stage is then
        # traced arithmetic (the race proof reads a ring's steps from its
        # mbarriers' indices; the parities stay immediates).
        self.stages, self.step = stages, step
        self._indexed = step if traced_step is None else traced_step

    @property
    def index(self):
        return self._indexed % self.stages

    @property
    def phase(self):
        return self.step // self.stages % 2

    @property
    def producer_phase(self):
        """The parity a producer waits on for the stage to be free: the
        phase before this use (1 - phase)."""
        return 1 - self.step // self.stages % 2


def _bytes(tensor, skip=0):
    """The bytes of `tensor`'s elements past its first `skip` dimensions."""
    elements = 1
    for extent in tensor.shape[skip:]:
        elements *= extent
    return elements * tensor.dtype.bits // 8


def _stage_bytes(buffer, stages, what):
    if not isinstance(buffer, TensorValue) or buffer.type.space != "shared":
        raise _error("%s must be shared tensors (T.alloc_shared), got %r" % (what, buffer))
    shape = buffer.shape
    if not shape or shape[0] != stages:
        raise _error("%s: %s has shape %s; its first dimension must be the %d stages"
                     % (what, buffer.ssa, tuple(shape), stages))
    return _bytes(buffer, skip=1)


class _ProducerStage:
    """One step's stage while the producer fills it (TmaPipeline.produce)."""

    def __init__(self, pipeline, state, position):
        self.pipeline, self.state, self.position = pipeline, state, position
        self.index = state.index
        self.loaded = []

    def barrier(self):
        """The stage's full mbarrier (a TMA load's completion operand)."""
        return self.pipeline.full.ptr_to([self.index])

    def load(self, dst, src, atom=None, policy=None):
        """The TMA load of box `src` (a region of a global tensor) into `dst`,
        one stage of a buffer, completing on the stage's full barrier: the
        load `atom` (a tirx.atoms.TmaLoad; by default the TMA_LOAD of the
        box's rank), `policy` its L2 cache policy if its spelling takes one."""
        if not isinstance(dst, TensorValue) or dst.type.space != "shared":
            raise _error("TmaPipeline.load: the destination must be a stage of one of the "
                         "pipeline's shared buffers, got %r" % (dst,))
        if not isinstance(src, TensorValue) or src.type.space != "global":
            raise _error("TmaPipeline.load: the source must be a box of a global tensor, "
                         "got %r" % (src,))
        if atom is None:
            T = _script()
            T.cuda.tile.apply(T.ptx[TMA_LOAD % len(src.shape)], dst, src, self.barrier(),
                              scope="thread")
        else:
            from .atoms import TmaLoad, TmaLoadMulticast
            if not isinstance(atom, TmaLoad) or isinstance(atom, TmaLoadMulticast):
                raise _error("TmaPipeline.load: atom must be a tirx.atoms.TmaLoad, got %r"
                             % (atom,))
            atom(dst, src, self.barrier(), policy=policy, thread=None)
        self.loaded.append((dst, _bytes(dst)))

    def __enter__(self):
        return self

    def __exit__(self, kind, value, traceback):
        if kind is not None:
            return False
        brought = sum(size for _, size in self.loaded)
        if brought != self.pipeline.stage_bytes:
            raise _error("TmaPipeline: this step's loads bring %d bytes (%s), but each stage "
                         "expects %d (%s): the full barrier would never (or too early) "
                         "complete" % (brought, ", ".join("%d" % s for _, s in self.loaded)
                                       or "none", self.pipeline.stage_bytes,
                                       self.pipeline._bytes_text()), self.position)
        return False


def _load_atoms(loads):
    """The bound TmaLoad atoms of `loads` (None: none)."""
    if loads is None:
        return ()
    from .atoms import TmaLoad, TmaLoadMulticast
    loads = tuple(loads) if isinstance(loads, (tuple, list)) else (loads,)
    for atom in loads:
        if not isinstance(atom, TmaLoad) or isinstance(atom, TmaLoadMulticast):
            raise _error("TmaPipeline: loads must be tirx.atoms.TmaLoad atoms, got %r"
                         % (atom,))
        if atom.box is None:
            raise _error("TmaPipeline: %r is bound to no box: its bytes are unknown (make it "
                         "with box= and dtype=)" % (atom,))
    return loads


class TmaPipeline:
    """A ring of `stages` shared-memory stages that one producer thread fills
    with TMA loads and `consumers` warpgroups read (CUTLASS's
    PipelineTmaAsync): per stage a full and an empty mbarrier.

    buffers: the shared tensors one stage of which each step fills (first
    dimension: the stage); their bytes per stage are the full barrier's
    transaction count. loads: TMA load atoms bound to their boxes
    (tirx.atoms.TmaLoad(..., box=, dtype=, swizzle=)), one per box a step
    loads: their boxes' bytes must be a stage's, and without `buffers` the
    pipeline allocates each one's staged image (`pipe.buffers`, in order).
    release: "warp" (lane 0 of each consumer warp releases a stage: one
    arrival per warp) or "thread" (every consumer thread arrives)."""

    def __init__(self, stages, buffers=None, consumers=None, release="warp", loads=None):
        if not is_int(stages) or stages < 1:
            raise _error("TmaPipeline: stages must be a positive int, got %r" % (stages,))
        if not is_int(consumers) or consumers < 1:
            raise _error("TmaPipeline: consumers (warpgroups) must be a positive int, got %r"
                         % (consumers,))
        if release not in ("warp", "thread"):
            raise _error("TmaPipeline: release must be \"warp\" or \"thread\", got %r"
                         % (release,))
        self.loads = _load_atoms(loads)
        if buffers is None and self.loads:
            # Each load's staged image (its layout and alignment).
            buffers = tuple(atom.alloc_image(stages=stages) for atom in self.loads)
        buffers = () if buffers is None else \
            tuple(buffers) if isinstance(buffers, (tuple, list)) else (buffers,)
        if not buffers:
            raise _error("TmaPipeline: buffers must name the shared tensors a stage fills")
        self.stages, self.consumers, self.release = stages, consumers, release
        self.buffers = buffers
        self.buffer_bytes = [_stage_bytes(b, stages, "TmaPipeline buffers") for b in buffers]
        self.stage_bytes = sum(self.buffer_bytes)
        if self.loads:
            # The loads' boxes are what a stage's barrier receives: they
            # must bring the buffers' stage, no more and no less.
            load_bytes = [atom.expect_tx() for atom in self.loads]
            if sum(load_bytes) != self.stage_bytes:
                raise _error("TmaPipeline: the loads' boxes bring %d bytes a step (%s), but a "
                             "stage of the buffers holds %d (%s)" % (
                                 sum(load_bytes), " + ".join(
                                     "%s %d" % (atom.box, n)
                                     for atom, n in zip(self.loads, load_bytes)),
                                 self.stage_bytes, self._bytes_text()))
        if self.stage_bytes >= 1 << 20:
            raise _error("TmaPipeline: a stage of %d bytes exceeds an mbarrier's transaction "
                         "count (2^20 - 1)" % self.stage_bytes)
        # One arrival completes a full phase (the producer's expect_tx); the
        # consumers' arrivals complete an empty one.
        self.producer_arrivals = 1
        self.consumer_arrivals = consumers * (4 if release == "warp" else 128)
        T = _script()
        self.full = T.alloc_shared((stages,), "uint64", align=8)
        self.empty = T.alloc_shared((stages,), "uint64", align=8)
        self._waits = []      # positions of consumer_wait calls
        self._released = False
        self._position = _dsl._user_position()
        _dsl.builder().end_checks.append(self._check_released)

    def _bytes_text(self):
        return " + ".join("%s %d" % (b.ssa, n) for b, n in zip(self.buffers, self.buffer_bytes))

    def state(self, step):
        """The PipelineState of `step` (an int step's stage is traced from an
        index value: the race proof numbers a ring's phases by the steps it
        sees)."""
        if is_int(step):
            return PipelineState(self.stages, step, _dsl.to_index_constant(step))
        return PipelineState(self.stages, step)

    def init(self):
        """Initializes every stage's barriers (one thread, before a CTA
        barrier): full with the producer's one arrival, empty with the
        consumers' arrivals; then fences the initializations for the async
        proxy (TMA completes on them)."""
        T = _script()
        for s in range(self.stages):
            T.ptx.mbarrier.init(self.full.ptr_to([s]), self.producer_arrivals)
            T.ptx.mbarrier.init(self.empty.ptr_to([s]), self.consumer_arrivals)
        T.ptx.fence.proxy.async_.shared__cta()

    def produce(self, step):
        """Acquires step's stage for the producer: waits until its previous
        use is released, arms its full barrier with the stage's bytes.
        A context manager: `with pipe.produce(step) as stage:
        stage.load(buffer[stage.index], box)`; at its end the loads must
        bring exactly the stage's bytes."""
        T = _script()
        state = self.state(step)
        index = state.index
        T.ptx.mbarrier.try_wait(self.empty.ptr_to([index]), T.int32(state.producer_phase))
        T.ptx.mbarrier.arrive.expect_tx(self.full.ptr_to([index]), self.stage_bytes)
        stage = _ProducerStage(self, state, _dsl._user_position())
        stage.index = index
        return stage

    def produce_empty(self, step):
        """A step without data (a padding step): waits for the stage like
        produce, then completes its full phase by one plain arrival."""
        T = _script()
        state = self.state(step)
        index = state.index
        T.ptx.mbarrier.try_wait(self.empty.ptr_to([index]), T.int32(state.producer_phase))
        T.ptx.mbarrier.arrive(self.full.ptr_to([index]))

    def consumer_wait(self, step):
        """Waits until step's stage is full; returns its stage index."""
        T = _script()
        state = self.state(step)
        index = state.index
        T.ptx.mbarrier.try_wait(self.full.ptr_to([index]), T.int32(state.phase))
        self._waits.append(_dsl._user_position())
        return index

    def consumer_release(self, step):
        """Gives step's stage back to the producer: one arrival per consumer
        warp (its lane 0) or per thread, as `release` says."""
        T = _script()
        self._released = True
        if self.release == "thread":
            T.ptx.mbarrier.arrive(self.empty.ptr_to([self.state(step).index]))
            return
        with T.If(T.cuda.thread_idx("x") % 32 == 0):
            with T.Then():
                T.ptx.mbarrier.arrive(self.empty.ptr_to([self.state(step).index]))

    def _check_released(self):
        if self._waits and not self._released:
            raise _error("TmaPipeline: the consumers wait for stages (here) but never "
                         "release one (consumer_release): the producer would wait forever "
                         "for a free stage", self._waits[0])


class CpAsyncPipeline:
    """Stages that every thread fills with cp.async copies (the mma.sync
    GEMM's shared stages): each step's copies are one commit group, so
    `cp.async.wait_group` counts steps. With `stages` stages, `stages - 1`
    steps are loaded ahead of the one being read, so a consumer may start
    on a step once at most `stages - 2` groups are still in flight.

        pipe = CpAsyncPipeline(STAGES)
        ... cp.async copies of step i ...; pipe.commit()
        pipe.consumer_wait()      # wait_group(STAGES - 2), then bar.sync 0
        ...
        pipe.drain()              # wait_all before the tiles are reused
    """

    def __init__(self, stages):
        if not is_int(stages) or stages < 2:
            raise _error("CpAsyncPipeline: stages must be an int >= 2 (one stage read while "
                         "the others load), got %r" % (stages,))
        self.stages = stages

    def commit(self):
        """Closes this step's copies into one group (cp.async.commit_group)."""
        _script().ptx.cp.async_.commit_group()

    def consumer_wait(self):
        """Waits until the oldest loaded step has landed (at most stages - 2
        groups in flight) and every thread's copies of it are visible to
        the CTA (bar.sync 0)."""
        T = _script()
        T.ptx.cp.async_.wait_group(self.stages - 2)
        T.cuda.cta_sync()

    def drain(self):
        """Waits for every group (cp.async.wait_all)."""
        _script().ptx.cp.async_.wait_all()


class NamedBarriers:
    """`count` named barriers (bar.sync ids first .. first + count - 1; id 0
    is the CTA's barrier) that each synchronize one group of `threads`
    threads, issued at the group's scope: the consumer warpgroups of a
    warp-specialized kernel (threads=128) each wait on their own id.

        groups = NamedBarriers(CONSUMERS, threads=128, first=1)
        groups.sync(wg)   # bar.sync wg, 128 (wg: 1 .. CONSUMERS, an int or index)
    """

    _SCOPES = {32: "warp", 128: "warpgroup"}

    def __init__(self, count, threads, first=1):
        if not is_int(count) or count < 1:
            raise _error("NamedBarriers: count must be a positive int, got %r" % (count,))
        if not is_int(threads) or threads < 32 or threads % 32:
            raise _error("NamedBarriers: threads must be a positive multiple of 32 (whole "
                         "warps), got %r" % (threads,))
        if not is_int(first) or first < 1 or first + count > 16:
            raise _error("NamedBarriers: ids %r .. %r are outside 1 .. 15 (0 is the CTA's "
                         "barrier)" % (first, first + count - 1 if is_int(count) else count))
        self.count, self.threads, self.first = count, threads, first
        self.scope = self._SCOPES.get(threads, "cta")

    def sync(self, barrier):
        """bar.sync `barrier`, threads: an id of this set (an int is
        checked; a traced index is the kernel's to keep in range)."""
        if is_int(barrier) and not self.first <= barrier < self.first + self.count:
            raise _error("NamedBarriers: barrier %d is not one of ids %d .. %d"
                         % (barrier, self.first, self.first + self.count - 1))
        T = _script()
        T.cuda.tile.apply(T.ptx["bar.sync"], T.int32(barrier), T.int32(self.threads),
                          scope=self.scope)
