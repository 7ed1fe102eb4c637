"""TirX: tile programs for NVIDIA GPUs, with the API of the TIRx tile layer.

    from tirx.script import tirx as T
    compiled = tirx.compile(kernel, target={"kind": "cuda", "arch": "sm_90"})
    on_cpu = tirx.compile(kernel, target="interpret")  # NumPy arrays, CPU tensors
"""
from ._capi import LibraryNotFoundError
from ._compile import CompileError, Compiled, ProofWarning, SpillWarning, compile
from ._interpret import Interpreted, InterpreterError
from .runtime import GPUError

__all__ = ["compile", "CompileError", "Compiled", "GPUError", "Interpreted", "InterpreterError",
           "ProofWarning", "SpillWarning", "LibraryNotFoundError"]
