"""GPU truth of masked regions (docs/sizes.md, "Masked regions"), through the
Python package and its launcher: kernels whose tiles overhang the tensor's
end (X.masked[...]) run on shapes that are not multiples of their tiles.
Each output lies at the start of a larger buffer whose rest holds a
sentinel, so a store past the end is seen; every result is compared with
the input bit for bit. One kernel checks the guarantee that a skipped load
leaves its registers as they were (docs/guide.md, preserve_dst): registers
filled with 42 are loaded under the mask and stored unmasked to a padded
output, whose tail must read 42.
Prints PASS:/FAIL: per case; exit 1 on any failure.
Usage: run_masked.py (torch, CUDA GPU)."""
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "python"))
import tirx  # noqa: E402
from tirx.cuda.axis import laneid, warpid  # noqa: E402
from tirx.layout import S, TileLayout  # noqa: E402
from tirx.script import tirx as T  # noqa: E402

SENTINEL = -12345.0
passed = failed = 0


def report(ok, name):
    global passed, failed
    print("%s: %s" % ("PASS" if ok else "FAIL", name))
    passed += ok
    failed += not ok


def row_copy(vector):
    rows = T.dynamic("rows")
    cols = T.dynamic("cols", multiple_of=4 if vector else 1)
    shape = (4, 32, 4) if vector else (4, 32, 4, 1)
    layout = TileLayout(S[(4, 32, 4) : (1 @ warpid, 1 @ laneid, 1)] if vector else
                        S[(4, 32, 4, 1) : (1 @ warpid, 1 @ laneid, 1, 1)])
    load, store = ("ld.global.v4.b32", "st.global.v4.b32") if vector else \
        ("ld.global.b32", "st.global.b32")

    @T.function
    def masked_row_copy(X: T.Tensor((rows, cols), "float32", align=16),
                        Y: T.Tensor((rows, cols), "float32", align=16)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=(rows, T.ceildiv(cols, 512)),
                                                  block=128))
        row = T.cuda.block_idx("x")
        c0 = T.cuda.block_idx("y") * 512
        r = T.alloc_local(shape, "float32", layout=layout)
        T.cuda.tile.apply(T.ptx[load], r, X.masked.sub[row, c0:c0 + 512].view(*shape),
                          scope="cta")
        T.cuda.tile.apply(T.ptx[store], Y.masked.sub[row, c0:c0 + 512].view(*shape), r,
                          scope="cta")
    return masked_row_copy


def keep_value():
    rows, cols = T.dynamic("rows"), T.dynamic("cols")
    padded = T.dynamic("padded", multiple_of=512)
    shape = (4, 32, 4, 1)
    layout = TileLayout(S[shape : (1 @ warpid, 1 @ laneid, 1, 1)])

    @T.function
    def masked_keep(X: T.Tensor((rows, cols), "float32"),
                    Z: T.Tensor((rows, padded), "float32")):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=(rows, padded // 512), block=128))
        row = T.cuda.block_idx("x")
        c0 = T.cuda.block_idx("y") * 512
        r = T.alloc_local(shape, "float32", layout=layout)
        T.cuda.tile.apply(T.ptx["mov.b32"], r, T.float32(42.0), scope="cta")
        T.cuda.tile.apply(T.ptx["ld.global.b32"], r,
                          X.masked.sub[row, c0:c0 + 512].view(*shape), scope="cta")
        T.cuda.tile.apply(T.ptx["st.global.b32"], Z.sub[row, c0:c0 + 512].view(*shape), r,
                          scope="cta")
    return masked_keep


def tile_copy_1000():
    layout = TileLayout(S[(4, 32, 8, 1) : (1 @ warpid, 1 @ laneid, 1, 1)])

    @T.function
    def masked_tile_copy(X: T.Tensor((1000, 1000), "float32"),
                         Y: T.Tensor((1000, 1000), "float32")):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=(32, 32), block=128))
        r0 = T.cuda.block_idx("x") * 32
        c0 = T.cuda.block_idx("y") * 32
        r = T.alloc_local((4, 32, 8, 1), "float32", layout=layout)
        T.cuda.tile.apply(T.ptx["ld.global.b32"], r,
                          X.masked[r0:r0 + 32, c0:c0 + 32].view(4, 32, 8, 1), scope="cta")
        T.cuda.tile.apply(T.ptx["st.global.b32"],
                          Y.masked[r0:r0 + 32, c0:c0 + 32].view(4, 32, 8, 1), r, scope="cta")
    return masked_tile_copy


def runtime_tile_copy(vector):
    """Y = X for any (m, n): 32x32 masked tiles of a runtime-sized tensor,
    rows a runtime stride apart (docs/sizes.md, "Tiles of runtime-sized
    tensors"); two 16-byte vectors or eight floats per thread."""
    m, n = T.dynamic("m"), T.dynamic("n", multiple_of=4 if vector else 1)
    shape = (4, 32, 2, 4) if vector else (4, 32, 8, 1)
    layout = TileLayout(S[shape : (1 @ warpid, 1 @ laneid, shape[3], 1)])
    load, store = ("ld.global.v4.b32", "st.global.v4.b32") if vector else \
        ("ld.global.b32", "st.global.b32")

    @T.function
    def masked_runtime_tiles(X: T.Tensor((m, n), "float32", align=16),
                             Y: T.Tensor((m, n), "float32", align=16)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=(T.ceildiv(m, 32), T.ceildiv(n, 32)),
                                                  block=128))
        r0 = T.cuda.block_idx("x") * 32
        c0 = T.cuda.block_idx("y") * 32
        r = T.alloc_local(shape, "float32", layout=layout)
        T.cuda.tile.apply(T.ptx[load], r, X.masked[r0:r0 + 32, c0:c0 + 32].view(*shape),
                          scope="cta")
        T.cuda.tile.apply(T.ptx[store], Y.masked[r0:r0 + 32, c0:c0 + 32].view(*shape), r,
                          scope="cta")
    return masked_runtime_tiles


def guarded(shape, guard=4096):
    """A tensor of `shape` at the start of a buffer whose other elements
    hold SENTINEL, and that buffer."""
    count = 1
    for extent in shape:
        count *= extent
    buffer = torch.full((count + guard,), SENTINEL, device="cuda")
    return buffer[:count].view(*shape), buffer


def check_copy(compiled, x, name):
    y, buffer = guarded(tuple(x.shape))
    compiled(x, y)
    torch.cuda.synchronize()
    count = x.numel()
    ok = torch.equal(y, x) and bool((buffer[count:] == SENTINEL).all())
    report(ok, name)


gen = torch.Generator(device="cpu").manual_seed(0)
for vector, shapes in ((True, [(1, 4), (3, 516), (7, 1000), (2, 2048), (5, 4), (1, 508)]),
                       (False, [(3, 1), (2, 513), (4, 1023), (1, 7), (6, 512)])):
    compiled = tirx.compile(row_copy(vector), target="cuda")  # once for every shape
    for rows, cols in shapes:
        x = torch.randn((rows, cols), generator=gen).cuda()
        check_copy(compiled, x, "masked %s row copy %d x %d" % (
            "vector" if vector else "scalar", rows, cols))

compiled = tirx.compile(keep_value(), target="cuda")
for rows, cols in ((2, 1), (3, 700), (1, 512), (2, 1023)):
    padded = -(-cols // 512) * 512
    x = torch.randn((rows, cols), generator=gen).cuda()
    z = torch.full((rows, padded), float("nan"), device="cuda")
    compiled(x, z)
    torch.cuda.synchronize()
    ok = torch.equal(z[:, :cols], x) and bool((z[:, cols:] == 42.0).all())
    report(ok, "a skipped load keeps its registers (42): %d x %d padded to %d"
           % (rows, cols, padded))

for vector, shapes in ((True, [(33, 36), (100, 1000), (1, 4), (64, 64), (1000, 132)]),
                       (False, [(33, 35), (7, 1), (1, 1), (95, 97), (64, 64)])):
    compiled = tirx.compile(runtime_tile_copy(vector), target="cuda")
    for rows, cols in shapes:
        x = torch.randn((rows, cols), generator=gen).cuda()
        check_copy(compiled, x, "masked %s 32x32 tiles of a runtime-sized %d x %d tensor" % (
            "vector" if vector else "scalar", rows, cols))

compiled = tirx.compile(tile_copy_1000(), target="cuda")
check_copy(compiled, torch.randn((1000, 1000), generator=gen).cuda(),
           "masked 32x32 tiles of a 1000 x 1000 tensor")

print("masked regions: %d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
