"""Affine-ReLU (B = max(2 A + 1, 0)) over a runtime-sized 1-D tensor: one
compiled kernel for every n, a persistent grid-stride loop and a predicated
tail (docs/sizes.md).

The grid is a fixed number of CTAs per SM of the device (its SM count is a
compile-time constant of the kernel: one compile per device kind, not per
size). Each CTA walks the tensor in chunks of THREADS * 4 * UNROLL floats,
GRID chunks apart. A full chunk is UNROLL coalesced 16-byte vectors per
thread, each loaded, computed and stored before the next is loaded (one load
in flight per thread: on an H200 this streams 3-4 % faster than issuing the
UNROLL loads first, bench/RESULTS.md); the last, partial chunk takes a vector
where 4 floats remain and single floats after. The compiler proves every
access inside A and B for all n >= 1, and the vectors 16-byte aligned
(align=16 on the tensors, offsets that are multiples of 4 floats). The
walks are tirx.stream.ElementwiseMap's schedules (docs/library.md,
"Streams"), each kernel naming its body, instructions and grid.

make_dynamic_kernel schedules the same chunks dynamically: each CTA takes
its next chunk from an atomic counter (a third argument, counter_for(device),
which every complete launch leaves at zero), so faster SMs take more chunks
(docs/sizes.md, "Dynamic scheduling"). Run this file on a GPU to check every
variant bit for bit at each size of SIZES."""
from tirx.script import tirx as T
from tirx.stream import ElementwiseMap, counter_for  # noqa: F401 (this module's counter_for)

THREADS, UNROLL, CTAS_PER_SM, LOADS_FIRST = 256, 4, 8, False
CHUNK = THREADS * 4 * UNROLL  # floats per CTA per step

n = T.dynamic("n")


def affine_relu(regs):
    """regs = max(2 regs + 1, 0), one thread's floats."""
    scalars = regs.view(regs.shape[0], 1)
    T.cuda.tile.apply(T.ptx["fma.rn.f32"], scalars, scalars, T.float32(2), T.float32(1),
                      scope="thread")
    T.cuda.tile.apply(T.ptx["max.f32"], scalars, scalars, T.float32(0), scope="thread")


def make_kernel(num_sms, threads=THREADS, unroll=UNROLL, ctas_per_sm=CTAS_PER_SM,
                load="ld.global.v4.b32", store="st.global.v4.b32", loads_first=LOADS_FIRST):
    """The kernel for a device of `num_sms` SMs; the other arguments name a
    variant (bench/gpu/sizes.py times several). loads_first: a thread issues
    its UNROLL loads of a step before its first store (UNROLL loads in
    flight); False: load, compute and store one vector at a time (a store
    may not pass a load of A, which may alias B, so one load is in flight)."""
    grid = num_sms * ctas_per_sm
    walk = ElementwiseMap(n, affine_relu, threads, unroll, load, store, loads_first=loads_first)

    @T.function
    def affine_relu_persistent(A: T.Tensor((n,), "float32", align=16),
                               B: T.Tensor((n,), "float32", align=16)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=grid, block=threads))
        walk.persistent(A, B, grid)
    return affine_relu_persistent


def make_pipelined_kernel(num_sms, threads=256, unroll=4, ctas_per_sm=4,
                          load="ld.global.v4.b32", store="st.global.v4.b32"):
    """make_kernel's walk, software-pipelined: a thread loads its part of its
    CTA's next full chunk (GRID chunks on) before it stores this one, so a
    load is in flight while it computes and stores. Holds two chunks in
    registers (59 registers at 256 x 4, so 4 CTAs of 256 threads per SM; 40
    at 256 x 2). For comparison in bench/gpu/sizes.py."""
    grid = num_sms * ctas_per_sm
    walk = ElementwiseMap(n, affine_relu, threads, unroll, load, store)

    @T.function
    def affine_relu_pipelined(A: T.Tensor((n,), "float32", align=16),
                              B: T.Tensor((n,), "float32", align=16)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=grid, block=threads))
        walk.pipelined(A, B, grid)
    return affine_relu_pipelined


def make_dynamic_kernel(num_sms, threads=THREADS, unroll=UNROLL, ctas_per_sm=CTAS_PER_SM,
                        load="ld.global.v4.b32", store="st.global.v4.b32", barriers=2,
                        loads_first=False):
    """make_kernel's work, scheduled dynamically (docs/sizes.md, "Dynamic
    scheduling"; tirx.stream.DynamicChunks): CTA bx first takes chunk bx,
    then takes further chunks from a global counter (`counter`, one uint32
    the caller keeps at zero between launches: `counter_for(device)`) until
    none is left, so an SM that streams faster takes more chunks instead of
    idling at the end of an equal share.

    Thread 0 takes the next chunk (`atom.global.inc.u32`) before the CTA
    works on the current one, so the atomic's latency hides behind that
    work; it hands the chunk to the CTA through shared memory and a barrier
    (barriers=2: a second barrier keeps the slot until everyone has read it;
    barriers=1: two slots used in turn, the loop body traced twice, one
    barrier per chunk as in bench/gpu/sizes.py's CUDA reference; loads_first
    as make_kernel's). A grab
    returning `old` names chunk `old + grid`; it fails when that is not below
    nchunks = ceil(n / CHUNK), and a CTA stops after its first failing grab.

    The counter's invariant: it is 0 before and after every complete launch.
    Grabs are serialized by the atomic, so they return 0, 1, 2, ... in
    order; with M = max(nchunks - grid, 0), the first M succeed (chunks grid
    ... nchunks - 1, each once) and every later one fails. Each of the grid
    CTAs makes exactly one failing grab, so a launch makes exactly
    G = M + grid = max(nchunks, grid) grabs. `atom.inc` with the limit
    G - 1 stores `old >= G - 1 ? 0 : old + 1`: the G grabs return 0 ... G - 1
    (never wrapping inside the launch) and the last stores 0. So the counter
    needs zeroing once, when it is allocated; a launch that does not
    complete (an error, a kill) leaves it unknown, and two launches sharing
    one counter must not overlap (same stream). nchunks must fit 32 bits (n
    below CHUNK * 2^32 floats).

    The chunk index is a value loaded at run time: the bounds proof knows
    nothing of it, so every access through it sits under `c < nchunks`
    and the same full/tail guards as make_kernel's (an access without such a
    guard is refused at compile time, naming the loaded value)."""
    assert barriers in (1, 2), "barriers is 1 or 2, got %r" % (barriers,)
    grid = num_sms * ctas_per_sm
    walk = ElementwiseMap(n, affine_relu, threads, unroll, load, store, loads_first=loads_first)

    @T.function
    def affine_relu_dynamic(A: T.Tensor((n,), "float32", align=16),
                            B: T.Tensor((n,), "float32", align=16),
                            counter: T.Tensor((1,), "int32", align=4)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=grid, block=threads))
        walk.dynamic(A, B, counter, grid, barriers)
    return affine_relu_dynamic


def make_one_pass_kernel(threads=THREADS, unroll=UNROLL):
    """The same work without the persistent loop: a grid of ceil(n / chunk)
    CTAs, one chunk each (the grid is a size expression, evaluated at
    launch). For comparison in bench/gpu/sizes.py."""
    walk = ElementwiseMap(n, affine_relu, threads, unroll)

    @T.function
    def affine_relu_one_pass(A: T.Tensor((n,), "float32", align=16),
                             B: T.Tensor((n,), "float32", align=16)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(n, walk.chunk),
                                                  block=threads))
        walk.one_pass(A, B)
    return affine_relu_one_pass


SIZES = [1, 3, 255, 256, 257, 2 ** 20 + 3, 2 ** 28 + 1, 2 ** 31 + 5]

if __name__ == "__main__":
    import os
    import torch
    import tirx

    # Under compute-sanitizer the GPU checks cap n (test/gpu/run.sh).
    max_n = int(os.environ.get("TIRX_EXAMPLE_MAX_N", SIZES[-1]))
    props = torch.cuda.get_device_properties(0)
    compiled = tirx.compile(make_kernel(props.multi_processor_count), target="cuda")
    one_pass = tirx.compile(make_one_pass_kernel(), target="cuda")
    pipelined = tirx.compile(make_pipelined_kernel(props.multi_processor_count), target="cuda")
    loads_first = tirx.compile(make_kernel(props.multi_processor_count, loads_first=True),
                               target="cuda")
    dynamic = tirx.compile(make_dynamic_kernel(props.multi_processor_count), target="cuda")
    dynamic1 = tirx.compile(make_dynamic_kernel(props.multi_processor_count, barriers=1),
                            target="cuda")
    counter = counter_for(torch.device("cuda"))
    for size in [s for s in SIZES if s <= max_n]:
        a = torch.randn(size, device="cuda")
        expected = torch.clamp_min(a * 2 + 1, 0)
        for kernel in (compiled, loads_first, one_pass, pipelined, dynamic, dynamic1):
            # The dynamic kernels twice: the second launch finds the counter
            # the first left (zero).
            is_dynamic = kernel in (dynamic, dynamic1)
            for _ in range(2 if is_dynamic else 1):
                b = torch.full_like(a, float("nan"))
                kernel(a, b, counter) if is_dynamic else kernel(a, b)
                assert torch.equal(b, expected), "%s, n = %d: wrong result" % (kernel.name, size)
                del b
        torch.cuda.synchronize()
        assert counter.item() == 0, "the work counter is %d after n = %d" % (counter.item(), size)
        del a, expected
        torch.cuda.empty_cache()
        print("affine_relu_persistent n = %d: OK" % size)
