"""TirX: tile programs for NVIDIA GPUs, with the API of the TIRx tile layer.

    from tirx.script import tirx as T
    compiled = tirx.compile(kernel, target={"kind": "cuda", "arch": "sm_90"})
"""
from ._capi import LibraryNotFoundError
from ._compile import CompileError, Compiled, SpillWarning, compile
from .runtime import GPUError

__all__ = ["compile", "CompileError", "Compiled", "GPUError", "SpillWarning", "LibraryNotFoundError"]
