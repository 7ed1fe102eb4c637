"""Parses a layout picture (an SVG document, or the <svg> of an HTML page)
from stdin with xml.etree -- failing on malformed XML -- and counts its cells:
tensor-view cells (class "elem"), thread-view cells (class "slot"), and how
many of each are marked replicated (hatched)."""
import sys
import xml.etree.ElementTree as ET

SVG = "{http://www.w3.org/2000/svg}"
text = sys.stdin.read()
if not text.startswith("<?xml"):
    text = text[text.index("<svg"):text.index("</svg>") + len("</svg>")]
root = ET.fromstring(text)
assert root.tag == SVG + "svg", root.tag
groups = [g for g in root.iter(SVG + "g")]


def cells(kind, replicated=False):
    found = [g for g in groups if kind in g.get("class", "").split()
             and (not replicated or "replicated" in g.get("class", "").split())]
    for g in found:  # every cell: a tooltip, a fill, a label
        assert g.find(SVG + "title") is not None and g.find(SVG + "text") is not None
    return len(found)


hatched = sum(1 for r in root.iter(SVG + "rect") if r.get("fill") == "url(#tirx-hatch)")
print("size: %s x %s" % (root.get("width"), root.get("height")))
print("elements: %d, replicated %d" % (cells("elem"), cells("elem", True)))
print("slots: %d, replicated %d" % (cells("slot"), cells("slot", True)))
print("hatched rects: %d" % hatched)
print("separators: %d" % sum(1 for l in root.iter(SVG + "line") if l.get("class") == "sep"))
