"""16-bit ewise results that share a 32-bit word: the kernels of
test/gpu/run_ewise_pack.py compile (sm_90, no GPU) to one paired
cvt.rn.{bf16x2|f16x2}.f32 per word, with the higher element as the upper
half, and no per-element conversion packed by or.b32; stored 16 bits at a
time they keep one scalar conversion per element. The GPU script's
reference and comparisons accept the correct words and reject a swapped
pair, a wrong rounding and a lost element."""
import os
import re
import sys

import numpy as np
import pytest

import tirx

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "gpu"))
import run_ewise_pack as gpu  # noqa: E402

SM90 = {"kind": "cuda", "arch": "sm_90"}
SUFFIX = {"bfloat16": "bf16", "float16": "f16"}


def ptx_of(dtype, body, packed):
    return tirx.compile(gpu.make_kernel(dtype, gpu.BODIES[body], packed, 2), target=SM90).ptx


@pytest.mark.parametrize("body", sorted(gpu.BODIES))
@pytest.mark.parametrize("dtype", gpu.DTYPES)
def test_packed_words_use_paired_conversions(dtype, body):
    ptx = ptx_of(dtype, body, packed=True)
    t = SUFFIX[dtype]
    loads = re.findall(r"ld\.global\.v4\.b32 \{(%r\d+), (%r\d+), (%r\d+), (%r\d+)\}", ptx)
    assert len(loads) == 2
    pairs = re.findall(r"cvt\.rn\.%sx2\.f32\s+(%%r\d+), (%%r\d+), (%%r\d+);" % t, ptx)
    assert len(pairs) == 4, ptx
    assert not re.search(r"cvt\.rn\.%s\.f32|or\.b32|cvt\.u32\.u16" % t, ptx), ptx
    stored = re.findall(r"st\.global\.v4\.b32 \[%rd\d+\], \{(%r\d+), (%r\d+), (%r\d+), (%r\d+)\}",
                        ptx)
    assert len(stored) == 1 and sorted(stored[0]) == sorted(d for d, _, _ in pairs)
    if body == "convert":
        # Word k holds floats 2k (low half, cvt's second source) and 2k + 1
        # (upper half, its first source).
        floats = loads[0] + loads[1]
        by_dest = {d: (hi, lo) for d, hi, lo in pairs}
        for k, word in enumerate(stored[0]):
            assert by_dest[word] == (floats[2 * k + 1], floats[2 * k])


@pytest.mark.parametrize("dtype", gpu.DTYPES)
def test_halves_keep_scalar_conversions(dtype):
    ptx = ptx_of(dtype, "convert", packed=False)
    t = SUFFIX[dtype]
    assert len(re.findall(r"cvt\.rn\.%s\.f32\s" % t, ptx)) == 8
    assert "x2.f32" not in ptx
    assert len(re.findall(r"st\.global\.v4\.b16 ", ptx)) == 2


def test_inputs_cover_whole_ctas_and_specials():
    values = gpu.inputs()
    assert values.size % gpu.CHUNK == 0
    assert np.isnan(values).any() and np.isinf(values).any()
    assert (values.view(np.uint32) & 0xFFFF == 0x8000).any()  # bf16 halfway
    assert (values.view(np.uint32) & 0x1FFF == 0x1000).any()  # f16 halfway


@pytest.mark.parametrize("dtype", gpu.DTYPES)
def test_reference_rounds_to_nearest_even(dtype):
    # 1 + ties (kept part even, odd), above and below a tie; the largest
    # float, -0 and infinity.
    one, tie, ulp = 0x3F800000, {"bfloat16": 0x8000, "float16": 0x1000}[dtype], \
        {"bfloat16": 0x10000, "float16": 0x2000}[dtype]
    cases = np.array([one | tie, one | ulp | tie, one | (tie + 1), one | (tie - 1),
                      0x7F7FFFFF, 0x80000000, 0x7F800000], np.uint32).view(np.float32)
    got = gpu.round_to(cases, dtype)
    if dtype == "bfloat16":
        assert got.tolist() == [0x3F80, 0x3F82, 0x3F81, 0x3F80, 0x7F80, 0x8000, 0x7F80]
    else:
        assert got.tolist() == [0x3C00, 0x3C02, 0x3C01, 0x3C00, 0x7C00, 0x8000, 0x7C00]
    assert gpu.round_to(np.array([np.nan], np.float32), dtype)[0] == 0x7FFF


@pytest.mark.parametrize("dtype", gpu.DTYPES)
def test_comparison_rejects_plausible_bugs(dtype):
    values = gpu.inputs()[:4096]
    halves = gpu.round_to(values, dtype)
    # The hardware's words: element 2k in the low half.
    words = halves[0::2].astype(np.uint32) | (halves[1::2].astype(np.uint32) << 16)
    assert gpu.mismatches(gpu.unpack(words), halves, dtype, nan_exact=True).size == 0
    swapped = halves[1::2].astype(np.uint32) | (halves[0::2].astype(np.uint32) << 16)
    assert gpu.mismatches(gpu.unpack(swapped), halves, dtype, nan_exact=False).size > 0
    # Ties rounded otherwise than to even (e.g. away from zero).
    bits = values.view(np.uint32)
    if dtype == "bfloat16":
        ties = bits & 0xFFFF == 0x8000
    else:
        ties = (bits & 0x1FFF == 0x1000) & (np.abs(values) > 6.2e-5) & (np.abs(values) < 65504)
    assert ties.any()
    wrong = halves.copy()
    wrong[ties] ^= 1
    assert gpu.mismatches(wrong, halves, dtype, nan_exact=False).size == ties.sum()
    lost = halves.copy()
    assert values[0] == 0
    lost[0] = 0xFFFF  # the poison the GPU script fills with: a NaN
    assert gpu.mismatches(lost, halves, dtype, nan_exact=False).size == 1
    # Any NaN matches any NaN only when asked.
    nan = np.array([0x7FFF if dtype == "bfloat16" else 0x7E00], np.uint16)
    other = np.array([0x7FC1 if dtype == "bfloat16" else 0x7C01], np.uint16)
    assert gpu.mismatches(nan, other, dtype, nan_exact=False).size == 0
    assert gpu.mismatches(nan, other, dtype, nan_exact=True).size == 1
