"""The Hopper GEMM example (examples/python/gemm_hopper.py, docs/hopper.md)
compiled at sm_90a without a GPU: the warp-specialized structure reaches
the PTX (setmaxnreg, the TMA loads of A and W on their stages' mbarriers,
wgmma straight from the 128-byte swizzled stages), the accumulators stay
in registers (no local memory: register tiles of a branch are promoted),
C goes out through a swizzled shared buffer and TMA stores, and the tensor
maps are the three boxes (STORE="global": two, C by st.global)."""
import re

import pytest

import tirx
import gemm_hopper
import helpers

TMA = ("cp.async.bulk.tensor.2d.shared::cluster.global.tile."
       "mbarrier::complete_tx::bytes")
TMA_STORE = "cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group"


@pytest.fixture(scope="module")
def compiled():
    # K = 320: five K steps over four stages (the loop and its tail).
    # Persistent over 3 CTAs: 4 tiles, so one CTA walks two.
    return tirx.compile(gemm_hopper.make_kernel(256, 512, 320, num_sms=3),
                        target=gemm_hopper.TARGET)


def test_structure(compiled):
    ptx = compiled.ptx
    assert ".target sm_90a" in ptx
    assert "setmaxnreg.inc.sync.aligned.u32 0x000000E8;" in ptx
    assert "setmaxnreg.dec.sync.aligned.u32 0x00000028;" in ptx
    # A's and W's boxes, once in the producer's K loop.
    loads = re.findall(re.escape(TMA) + r" \[%rd\d+\], \[%rd\d+, \{%r\d+, %r\d+\}\], "
                       r"\[%rd\d+\];", ptx)
    assert len(loads) == ptx.count(TMA) == 2
    # Four k16 slices per K step: the first 4 steps of a tile unrolled (their
    # groups overlap the previous tile's deferred stores of C), then the loop.
    assert ptx.count("wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16") == 4 * (4 + 1)
    # Each slice's descriptor: 128-byte swizzle (1 << 62), SBO 1024, LBO 16.
    assert "4611686293305360384" in ptx
    assert ptx.count("wgmma.commit_group.sync.aligned") == 5
    # A tile's first product overwrites D: its scale-d predicate is false.
    # The four slices of a K step are one inline-PTX statement on the same
    # 128 accumulator registers (tile-join-accumulator-chains).
    first = re.search(r"mov\.pred\s+(%p\d+), 0;\s+mov\.pred\s+(%p\d+), -1;\s+"
                      r"// begin inline asm\s+"
                      r"wgmma\.mma_async[^;]*\}, %rd\d+, %rd\d+, (%p\d+), 1, 1, 0, 0;"
                      r"(\s+wgmma\.mma_async[^;]*\}, %rd\d+, %rd\d+, (%p\d+), 1, 1, 0, 0;){3}"
                      r"\s+// end inline asm", ptx)
    assert first and first.group(1) == first.group(3) and first.group(2) == first.group(5)
    statements = re.findall(r"// begin inline asm\s+((?:wgmma\.mma_async[^;]*;\s+)+)// end", ptx)
    assert [s.count("wgmma.mma_async") for s in statements] == [4] * 5
    assert all(len(set(re.findall(r"\{(%r\d+), ", s))) == 1 for s in statements)
    # 128 f32 accumulators per consumer thread, never in local memory.
    assert ".local" not in ptx and "ld.local" not in ptx


def test_ptxas_assembles_it_without_spills(compiled):
    # Fails when ptxas is found and gave no report; skips only without ptxas.
    helpers.ptxas_report(compiled)
    assert compiled.spill_bytes == 0


def test_epilogue_through_shared_memory(compiled):
    ptx = compiled.ptx
    # Each consumer's words: st.shared.b32 into its 128-byte swizzled buffer
    # (one address register per 16-byte chunk column, the row halves and
    # boxes as immediate offsets), fenced for the async proxy, then TMA
    # stores of 64 x 64 boxes: 2 right after a tile, 2 deferred ones.
    stores = re.findall(r"st\.shared\.b32 \[%rd\d+(?:\+(\d+))?\], %r\d+;", ptx)
    assert len(stores) == 32 + 32 + 32  # now, deferred in the loop, the last tile's
    assert sorted(set(int(o or 0) for o in stores)) == [0, 1024, 8192, 9216]
    assert "fence.proxy.async.shared::cta;" in ptx
    assert ptx.count(TMA_STORE) == 2 + 2 + 2
    assert "cp.async.bulk.wait_group.read 0x00000000;" in ptx
    assert "st.global" not in ptx
    # The buffer is free again only after its last TMA store read it.
    assert re.search(r"cp\.async\.bulk\.wait_group 0x00000000;", ptx)


def test_tensor_maps(compiled):
    # A's (128, 64) box, W's (256, 64) and C's (64, 64), all 128-byte
    # swizzled (in the order the kernel first uses them: the consumers'
    # TMA stores come first in the PTX).
    assert sorted(compiled.tensor_maps) == [(0, (128, 64), 128), (1, (256, 64), 128),
                                            (2, (64, 64), 128)]
    # Four stages of 48 KiB and 32 KiB of C buffers, beyond the 48 KiB of
    # static shared memory.
    assert compiled.shared_bytes >= 4 * (128 + 256) * 64 * 2 + 2 * 2 * 64 * 64 * 2


def test_global_epilogue():
    # Its synchronization is the TMA pipeline's alone (docs/races.md,
    # "mbarrier pipelines"): the race proof proves it, strict_races on.
    compiled = tirx.compile(gemm_hopper.make_kernel(256, 512, 320, num_sms=3, STORE="global"),
                            target=dict(gemm_hopper.TARGET, strict_races=True))
    assert compiled.tensor_maps == [(0, (128, 64), 128), (1, (256, 64), 128)]
    assert TMA_STORE not in compiled.ptx and "st.global.b32" in compiled.ptx


def test_race_proof_models_all_but_the_runtime_sized_kernel():
    # One CTA per tile is proven too, and so is the epilogue through shared
    # memory (each warpgroup's named barrier, TMA stores read until their
    # bulk wait_group, the deferred stores' wait under the tile's
    # condition), persistent or per tile; the runtime-sized kernel (its tile
    # loop runs to a product of two sizes, beyond the proof's integer model)
    # is beyond the model, and said so (docs/races.md).
    for num_sms in (None, 3):
        for store in ("global", "tma"):
            tirx.compile(gemm_hopper.make_kernel(256, 512, 320, num_sms=num_sms, STORE=store),
                         target=dict(gemm_hopper.TARGET, strict_races=True))
    with pytest.raises(tirx.CompileError, match=re.escape(
            "'mbarrier.try_wait.parity.shared::cta.b64': its pipeline step is beyond the "
            "proof's integer model")):
        tirx.compile(gemm_hopper.runtime_sized(4, STORE="tma"),
                     target=dict(gemm_hopper.TARGET, strict_races=True))
