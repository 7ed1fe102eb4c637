"""The thread axes of a TileLayout: `1 @ laneid` is a stride on the lane."""
from ..layout import Axis, m

laneid = Axis("laneid")
warpid = Axis("warpid")
wgid = Axis("wgid")
wid_in_wg = Axis("wid_in_wg")
tid_in_wg = Axis("tid_in_wg")
tx = Axis("tx")
bx = Axis("bx")
by = Axis("by")
bz = Axis("bz")

__all__ = ["laneid", "warpid", "wgid", "wid_in_wg", "tid_in_wg", "tx", "bx", "by", "bz", "m"]
