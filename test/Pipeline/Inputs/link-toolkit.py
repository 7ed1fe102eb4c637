"""link-toolkit.py PTXAS DIR: DIR/bin/ptxas -> PTXAS, and DIR/nvvm -> the
nvvm/ (libdevice) of PTXAS's toolkit when it has one."""
import os
import sys

ptxas = os.path.realpath(sys.argv[1])
target = sys.argv[2]
os.makedirs(os.path.join(target, "bin"), exist_ok=True)
os.symlink(ptxas, os.path.join(target, "bin", "ptxas"))
nvvm = os.path.join(os.path.dirname(os.path.dirname(ptxas)), "nvvm")
if os.path.isdir(nvvm):
    os.symlink(nvvm, os.path.join(target, "nvvm"))
