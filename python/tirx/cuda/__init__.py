"""CUDA-specific parts of TirX."""
