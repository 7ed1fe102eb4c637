"""The layout API: the seed's notation, computed by the C++ library."""
import pytest

from tirx.layout import R, S, TileLayout, LayoutError
from tirx.cuda.axis import laneid, warpid


def test_notation_prints_canonically():
    layout = TileLayout(S[(2, 32, 4) : (1 @ warpid, 1 @ laneid, 1)])
    assert str(layout) == "S[(2, 32, 4) : (1@warpid, 1@laneid, 1)]"
    assert TileLayout(S[4, 8]).apply(1, 2, shape=(4, 8))["m"] == 10


def test_spec_worked_example_replicas():
    # spec §1.4: (7, 15) -> lane 31 of warps {6, 10}, slot 1.
    layout = TileLayout(S[(8, 2, 4, 2) : (4 @ laneid, 1 @ warpid, 1 @ laneid, 1)]
                        + R[2 : 4 @ warpid] + 5 @ warpid)
    base = layout.apply(7, 15, shape=(8, 16))
    assert (base["laneid"], base["warpid"], base["m"]) == (31, 6, 1)
    assert "[7, 15] -> warpid=6 laneid=31 slot 1 | warpid=10 laneid=31 slot 1" in \
        layout.tensor_view((8, 16))
    for i in range(8):
        for j in range(16):
            p = layout.apply(i, j, shape=(8, 16))
            assert p["laneid"] == 4 * i + (j // 2) % 4
            assert p["warpid"] == j // 8 + 5
            assert p["m"] == j % 2


def test_fragment_and_span():
    layout = TileLayout(S[(32, 4) : (1 @ laneid, 1)])
    assert layout.apply(3, 2, shape=(32, 4)) == {"laneid": 3, "m": 2}
    strided = TileLayout(S[(3, 4) : (16, 2)])
    assert strided.span() == 39
    assert strided.apply(2, 3, shape=(3, 4))["m"] == 38
    assert layout.size() == 128 and layout.size(laneid) == 32


def test_canonicalize_and_views():
    layout = TileLayout(S[(2, 1, 4) : (4, 7, 1)])
    assert str(layout.canonicalize()) == "S[8 : 1]"
    views = TileLayout(S[(2, 32, 4) : (1 @ warpid, 1 @ laneid, 1)])
    assert views.thread_view((2, 32, 4)).splitlines()[0] == "thread view: 64 threads x 4 slots"


def test_errors():
    with pytest.raises(LayoutError, match="test_layout.py:[0-9]+: invalid layout"):
        TileLayout("S[(4, 0) : (1, 1)]")
    with pytest.raises(LayoutError, match="unknown axis"):
        TileLayout("S[4 : 1@lane]")
    with pytest.raises(LayoutError, match="the shape has 9 elements but the layout has 32"):
        TileLayout(S[4, 8]).apply(0, 0, shape=(3, 3))


# The picture (tirx-layout --format=svg, through the C API).
SVG = "{http://www.w3.org/2000/svg}"


def _cells(svg, kind):
    import xml.etree.ElementTree as ET
    root = ET.fromstring(svg)  # well-formed XML, or this raises
    assert root.tag == SVG + "svg"
    return [g for g in root.iter(SVG + "g") if kind in g.get("class", "").split()]


def test_to_svg_seed_layout():
    layout = TileLayout(S[(2, 32, 4) : (1 @ warpid, 1 @ laneid, 1)])
    svg = layout.to_svg((2, 32, 4))
    assert svg.startswith('<?xml version="1.0" encoding="UTF-8"?>\n<svg ')
    elements, slots = _cells(svg, "elem"), _cells(svg, "slot")
    assert len(elements) == 256 and len(slots) == 256
    labels = {g.find(SVG + "title").text: g.find(SVG + "text").text for g in elements}
    assert labels["[1, 5, 2]: warpid=1 laneid=5 slot 2"] == "T37:2"
    assert labels["[0, 0, 0]: warpid=0 laneid=0 slot 0"] == "T0:0"
    assert not [g for g in elements if "replicated" in g.get("class")]
    # The same picture over another shape of 256 elements, and as HTML.
    assert len(_cells(layout.to_svg((8, 32)), "elem")) == 256
    assert layout.to_svg(html=True).startswith("<!DOCTYPE html>")


def test_repr_svg_for_jupyter():
    layout = TileLayout(S[(2, 2, 2) : (1 @ warpid, 1 @ laneid, 1)] + R[2 : 2 @ warpid])
    svg = layout._repr_svg_()
    assert svg == layout.to_svg((2, 2, 2))  # the shard extents by default
    elements = _cells(svg, "elem")
    assert len(elements) == 8
    assert all("replicated" in g.get("class") for g in elements)
    assert elements[0].find(SVG + "text").text == "T0:0 +1"
    # Too large to draw: Jupyter falls back to the text repr.
    assert TileLayout(S[128, 256])._repr_svg_() is None


def test_to_svg_errors():
    layout = TileLayout(S[(2, 32, 4) : (1 @ warpid, 1 @ laneid, 1)])
    with pytest.raises(LayoutError, match="test_layout.py:[0-9]+: shape \\(3, 3\\) has 9 elements"
                                          " but the layout has 256"):
        layout.to_svg((3, 3))
    with pytest.raises(LayoutError, match="too many element copies to draw \\(32768 elements"
                                          " x 1 replicas > 16384\\)"):
        TileLayout(S[128, 256]).to_svg()
    with pytest.raises(LayoutError, match="a shape dimension must be an int64"):
        layout.to_svg((2, "32", 4))
