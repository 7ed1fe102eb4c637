"""The layout algebra from Python (tirx.layout: composition, complement,
coalesce, right inverse, logical product and divide, blocked and raked
products, zipped divide), checked element by element against the
definitions with TileLayout.apply, and its misuse as located errors."""
import itertools

import pytest

from tirx.cuda.axis import laneid, warpid
from tirx.layout import (S, TileLayout, LayoutError, blocked_product, coalesce, complement,
                         composition, logical_divide, logical_product, raked_product,
                         right_inverse, zipped_divide)


def _at(layout, flat):
    return layout.apply(flat)


def _index(layout, flat):
    return layout.apply(flat)["m"]


def test_composition_is_outer_after_inner():
    outer = TileLayout(S[(2, 6) : (2, 8)])
    for inner in (S[(3, 4) : (1, 3)], S[4 : 3], S[(2, 2, 3) : (6, 1, 2)], "S[12 : 1]"):
        inner = TileLayout(inner)
        result = composition(outer, inner)
        assert result == outer.compose(inner)
        for i in range(inner.size()):
            assert _at(result, i) == _at(outer, _index(inner, i))
    # CuTe: (6,2):(8,2) o (4,3):(3,1) = ((2,2),3):((24,2),8), row-major here.
    assert str(composition(outer, S[(3, 4) : (1, 3)])) == "S[(3, 2, 2) : (8, 2, 24)]"


def test_composition_keeps_threads_replicas_and_swizzle():
    fragment = TileLayout("S[(8, 4, 2) : (4@laneid, 1@laneid, 1)] + R[2 : 1@warpid]")
    # Every other row of the fragment.
    rows = fragment.compose(S[(4, 8) : (16, 1)])
    for i in range(32):
        assert _at(rows, i) == _at(fragment, (i // 8) * 16 + i % 8)
    assert "R[2 : 1@warpid]" in str(rows)
    swizzled = TileLayout("S[(8, 64) : (64, 1)] + Swizzle[3, 3, 3]")
    half = swizzled.compose(S[(8, 32) : (64, 1)])
    assert half.swizzle == swizzled.swizzle
    for i in range(256):
        assert _at(half, i) == _at(swizzled, (i // 32) * 64 + i % 32)


def test_complement_and_right_inverse():
    for layout, cosize in ((S[4 : 2], 24), (S[(2, 2) : (6, 1)], 24), (S[2 : 2 @ warpid], 8)):
        layout = TileLayout(layout)
        rest = complement(layout, cosize)
        axis = "warpid" if "warpid" in str(layout) else "m"
        values = sorted(_at(rest, r)[axis] + _at(layout, i)[axis]
                        for r in range(rest.size()) for i in range(layout.size()))
        assert values == list(range(len(values))) and len(values) >= cosize
    assert str(complement(S[(2, 2) : (6, 1)], 24)) == "S[(2, 3) : (12, 2)]"
    transpose = TileLayout(S[(4, 8) : (1, 4)])
    inverse = right_inverse(transpose)
    assert all(_index(transpose, _index(inverse, j)) == j for j in range(32))
    assert str(coalesce(S[(2, 1, 4, 2) : (8, 5, 2, 1)])) == "S[16 : 1]"


def test_logical_product_tiles_a_fragment_over_warps():
    mma_c = TileLayout(S[(2, 8, 4, 2) : (2, 4 @ laneid, 1 @ laneid, 1)])
    four_warps = logical_product(mma_c, S[4 : 1 @ warpid])
    assert str(four_warps) == "S[(4, 2, 8, 4, 2) : (1@warpid, 2, 4@laneid, 1@laneid, 1)]"
    # Repeats in registers go after the fragment's 4 slots.
    repeats = logical_product(mma_c, S[3 : 1])
    for r, i in itertools.product(range(3), range(128)):
        expected = dict(_at(mma_c, i))
        expected["m"] += 4 * r
        assert _at(repeats, r * 128 + i) == expected


def test_logical_divide_lists_tiles_first():
    a = TileLayout(S[(3, 2, 4) : (8, 1, 2)])
    divided = logical_divide(a, S[4 : 2])
    # CuTe: logical_divide((4,2,3):(2,1,8), 4:2) = ((2,2),(2,3)):((4,1),(2,8)).
    assert str(divided) == "S[(3, 2, 2, 2) : (8, 2, 1, 4)]"
    assert sorted(_index(divided, i) for i in range(24)) == sorted(_index(a, i) for i in range(24))


def test_blocked_and_raked_products_by_mode():
    atom = TileLayout(S[(8, 4) : (4 @ laneid, 1 @ laneid)])
    warps = TileLayout(S[(2, 2) : (2 @ warpid, 1 @ warpid)])
    for product, raked in ((blocked_product, False), (raked_product, True)):
        layout, shape = product(atom, (8, 4), warps, (2, 2))
        assert shape == (16, 8)
        for r, c in itertools.product(range(16), range(8)):
            (wr, ar), (wc, ac) = ((r % 2, r // 2), (c % 2, c // 2)) if raked else \
                (divmod(r, 8), divmod(c, 4))
            got = layout.apply(r, c, shape=shape)
            assert got["laneid"] == 4 * ar + ac and got["warpid"] == 2 * wr + wc
    # wgmma's m64n256k16 accumulator: its m64n8 atom repeated 32 times.
    atom = TileLayout("S[(4, 2, 8, 4, 2) : (1@wid_in_wg, 2, 4@laneid, 1@laneid, 1)]")
    d, shape = blocked_product(atom, (64, 8), S[(1, 32)], (1, 32))
    assert shape == (64, 256)
    assert str(d) == "S[(4, 2, 8, 32, 4, 2) : (1@wid_in_wg, 2, 4@laneid, 4, 1@laneid, 1)]"


def test_zipped_divide():
    a = TileLayout(S[(8, 12)])
    layout, shape = zipped_divide(a, (8, 12), (2, 4))
    assert shape == (4, 3, 2, 4)
    for q0, q1, t0, t1 in itertools.product(range(4), range(3), range(2), range(4)):
        assert layout.apply(q0, q1, t0, t1, shape=shape)["m"] == (2 * q0 + t0) * 12 + 4 * q1 + t1


def test_misuse_is_a_located_error():
    here = r"test_layout_algebra.py:[0-9]+: "
    with pytest.raises(LayoutError, match=here + "compose: the inner layout S\\[2 : 1@laneid\\] "
                       "is not an index layout"):
        TileLayout(S[8 : 1]).compose(S[2 : 1 @ laneid])
    with pytest.raises(LayoutError, match=here + "compose: the inner layout S\\[4 : 3\\] reaches "
                       "index 9, past the last index 7"):
        composition(S[8 : 1], S[4 : 3])
    with pytest.raises(LayoutError, match=here + "compose: inner stride 2 splits the outer iter "
                       "3:2 unevenly"):
        composition(S[(2, 3) : (1, 2)], S[2 : 2])
    with pytest.raises(LayoutError, match=here + "compose: inner iters overlap"):
        composition(S[(2, 4) : (1 @ laneid, 1)], S[(2, 2) : (2, 2)])
    with pytest.raises(LayoutError, match=here + "complement: .* is on several axes"):
        complement(S[(2, 4) : (1 @ laneid, 1)], 8)
    with pytest.raises(LayoutError, match=here + "logical divide: tiles S\\[4 : 1\\] do not "
                       "divide the 6 elements"):
        logical_divide(S[6 : 1], S[4 : 1])
    with pytest.raises(LayoutError, match=here + "blocked product: shape \\(3, 3\\) has 9 "
                       "elements, the layout 6"):
        blocked_product(S[(2, 3)], (3, 3), S[2], (2, 1))
    with pytest.raises(LayoutError, match=here + "shapes \\(2, 3\\) and \\(2,\\) differ in rank"):
        raked_product(S[(2, 3)], (2, 3), S[2], (2,))
    with pytest.raises(LayoutError, match=here + "zipped divide: tile \\(3, 4\\) does not divide"):
        zipped_divide(S[(8, 12)], (8, 12), (3, 4))
    with pytest.raises(LayoutError, match=here + r"tile \(4,\) and shape \(8, 12\) differ in rank"):
        zipped_divide(S[(8, 12)], (8, 12), (4,))
    with pytest.raises(LayoutError, match=here + "the cosize must be an int64"):
        complement(S[4 : 1], 2.5)


def test_docs_library_examples_run():
    """docs/library.md's layout-algebra blocks run as written (their asserts
    are the page's claims)."""
    import os
    import re
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    text = open(os.path.join(root, "docs", "library.md")).read()
    section = text[text.index("## The layout algebra"):text.index("## Pipelines")]
    blocks = re.findall(r"```python\n(.*?)```", section, re.S)
    assert len(blocks) == 3
    for block in blocks:
        exec(compile(block, "docs/library.md", "exec"), {})
