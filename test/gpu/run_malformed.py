"""Malformed arguments with real PyTorch tensors on the GPU (the CPU suite,
test/python/test_malformed.py, uses stand-ins): each is one clear Python
exception naming the parameter, nothing reaches the GPU, and a good call
afterwards still computes the right result.
Usage (bundle): PYTHONPATH=python TIRX_LIBRARY=lib python3 run_malformed.py EXAMPLES_DIR"""
import sys

import torch

import tirx

sys.path.insert(0, sys.argv[1])
from affine_relu import affine_relu  # noqa: E402

compiled = tirx.compile(affine_relu, target="cuda")
a = torch.linspace(-4, 4, 256, device="cuda").reshape(2, 32, 4)
b = torch.empty_like(a)
wide = torch.zeros(2, 32, 8, device="cuda")
flat = torch.zeros(257, device="cuda")
cases = [
    ("too few arguments", (a,), TypeError, "takes 2 argument(s)"),
    ("too many arguments", (a, b, b), TypeError, "takes 2 argument(s)"),
    ("CPU tensor", (a.cpu(), b), TypeError, "parameter 'A' needs a CUDA tensor"),
    ("wrong rank", (a.reshape(64, 4), b), ValueError, "parameter 'A' has rank 2, expected 3"),
    ("wrong shape", (torch.zeros(2, 32, 2, device="cuda"), b), ValueError,
     "parameter 'A' has shape"),
    ("wrong dtype", (a.half(), b), TypeError, "parameter 'A' has element type <f2"),
    ("non-contiguous", (wide[:, :, :4], b), ValueError, "parameter 'A' is not contiguous"),
    ("transposed", (a, b.transpose(0, 2).contiguous().transpose(0, 2)), ValueError,
     "parameter 'B' is not contiguous"),
    ("unaligned", (flat[1:].reshape(2, 32, 4), b), ValueError,
     "parameter 'A' is at address"),
    ("scalar for a tensor", (a, 1.0), TypeError, "parameter 'B' needs a CUDA tensor"),
]
failures = 0
for name, args, error, message in cases:
    b.fill_(7.0)
    try:
        compiled(*args)
    except error as caught:
        if message not in str(caught):
            print("FAIL: %s: %s: %s" % (name, type(caught).__name__, caught))
            failures += 1
        else:
            print("ok: %s: %s" % (name, caught))
    except Exception as caught:  # a different class is a failure too
        print("FAIL: %s: %s: %s" % (name, type(caught).__name__, caught))
        failures += 1
    else:
        print("FAIL: %s: no exception" % name)
        failures += 1
    torch.cuda.synchronize()
    if not bool((b == 7.0).all()):
        print("FAIL: %s: the kernel ran" % name)
        failures += 1
compiled(a, b)
torch.testing.assert_close(b, torch.clamp_min(a * 2 + 1, 0))
print("malformed arguments: %d cases, %d failures; a good call afterwards: OK"
      % (len(cases), failures))
sys.exit(1 if failures else 0)
