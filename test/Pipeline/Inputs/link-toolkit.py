"""link-toolkit.py PTXAS NVVM DIR: DIR/bin/ptxas -> PTXAS, and DIR/nvvm -> NVVM
(the toolkit's libdevice folder) unless NVVM is "none"."""
import os
import sys

ptxas, nvvm, target = sys.argv[1:4]
os.makedirs(os.path.join(target, "bin"), exist_ok=True)
os.symlink(os.path.realpath(ptxas), os.path.join(target, "bin", "ptxas"))
if nvvm != "none":
    os.symlink(nvvm, os.path.join(target, "nvvm"))
