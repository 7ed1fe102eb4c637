# -*- Python -*-
import json
import os
import re
import sys

import lit.formats
from lit.llvm import llvm_config

config.name = "TIRX"
config.suffixes = [".mlir", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.tirx_obj_root, "test")
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py"]

# Stable, scoped FileCheck variables in every test.
config.environment["FILECHECK_OPTS"] = "--enable-var-scope --dump-input=fail"

llvm_config.with_system_environment(["HOME", "TMP", "TEMP"])
llvm_config.use_default_substitutions()

config.substitutions.append(("%python", sys.executable))
config.substitutions.append(("%tirx_obj_root", config.tirx_obj_root))
config.substitutions.append(("%tirx_src_root", config.tirx_src_root))
config.substitutions.append(("%cxx", config.cxx_compiler))
config.substitutions.append(("%cmake", config.cmake_command))
config.substitutions.append(("%examples", os.path.join(config.tirx_src_root, "examples")))

# TirX tools first, then LLVM's FileCheck, not, count, split-file.
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.with_environment("PATH", config.tirx_tools_dir, append_path=True)
tool_dirs = [config.tirx_tools_dir, config.llvm_tools_dir]
llvm_config.add_tool_substitutions(["tirx-opt", "tirx-layout", "tirx-capi-test",
                                    "tirx-lsp-server", "tirx-reduce"],
                                   tool_dirs)
if os.path.exists(os.path.join(config.tirx_tools_dir, "tirx-runtime-check")):
    config.available_features.add("tirx-runtime")
    llvm_config.add_tool_substitutions(["tirx-runtime-check"], tool_dirs)
if os.path.exists(os.path.join(config.tirx_tools_dir, "run-affine-relu")):
    config.available_features.add("cpp-example")
    llvm_config.add_tool_substitutions(["run-affine-relu"], tool_dirs)
if os.path.exists(os.path.join(config.tirx_tools_dir, "tirx-runner")):
    config.available_features.add("tirx-runner")
    llvm_config.add_tool_substitutions(["tirx-runner"], tool_dirs)

# A usable NVIDIA GPU (driver and device): enables test/gpu-style checks.
import subprocess
try:
    if subprocess.run(["nvidia-smi", "-L"], capture_output=True,
                      timeout=20).returncode == 0:
        config.available_features.add("cuda-gpu")
except (OSError, subprocess.TimeoutExpired):
    pass

# Python with the build's libTirXCAPI.so loaded through ctypes: in a sanitizer
# build the ASan runtime must come first (as scripts/check.sh does for pytest).
# config.asan_runtime is that runtime in a sanitizer build, else None (also
# used by test/embedding). The build's own compiler names it: tests re-run
# lit with a PATH that has no clang.
python_capi = sys.executable
python_capi_env = {}
config.asan_runtime = None
cache = os.path.join(config.tirx_obj_root, "CMakeCache.txt")
if os.path.exists(cache) and re.search(r"^LLVM_USE_SANITIZER:.*Address",
                                       open(cache).read(), re.M):
    config.asan_runtime = subprocess.run(
        [config.cxx_compiler, "-print-file-name=libclang_rt.asan-x86_64.so"],
        capture_output=True, text=True).stdout.strip()
    python_capi_env = {
        "LD_PRELOAD": config.asan_runtime,
        "ASAN_OPTIONS": os.environ.get("ASAN_OPTIONS", "allow_user_poisoning=0") +
                        ":detect_leaks=0"}
    python_capi = "env %s %s" % (
        " ".join("%s=%s" % item for item in python_capi_env.items()), sys.executable)
# Before "%python", which would otherwise replace its prefix.
config.substitutions.insert(0, ("%python_capi", python_capi))

# CUDA toolkit tools: ptxas assembles every PTX the suite produces, nvcc
# compiles the numerics suite's references. Found by TirX's own search
# (lib/Conversion/CUDAToolkit.cpp, through this build's C API, as Python
# finds them; docs/lowering.md, "The CUDA toolkit"): the toolkit is
# $TIRX_CUDA_PATH, else $CUDA_HOME, $CUDA_PATH, $CUDA_ROOT, else
# /usr/local/cuda with libdevice; a tool is the toolkit's bin/<tool>, else
# on PATH.
# (Run directly with the sanitizer's variables, not through `env`: tests
# configure this suite again with a PATH that has no `env`.)
cuda_search = subprocess.run(
    [sys.executable, "-c", """if 1:
        import importlib.util, json, sys
        spec = importlib.util.spec_from_file_location("tirx_capi", sys.argv[1])
        capi = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(capi)
        print(json.dumps([capi.cuda_toolkit(), capi.cuda_tool("ptxas"),
                          capi.cuda_tool("nvcc")]))""",
                           os.path.join(config.tirx_src_root, "python", "tirx", "_capi.py")],
    env=dict(os.environ, TIRX_LIBRARY=os.path.join(config.tirx_obj_root, "lib"),
             **python_capi_env),
    capture_output=True, text=True)
if cuda_search.returncode != 0:
    lit_config.fatal("TirX's CUDA toolkit search (python/tirx/_capi.py with %s) failed: %s"
                     % (os.path.join(config.tirx_obj_root, "lib", "libTirXCAPI.so"),
                        (cuda_search.stderr.strip().splitlines() or
                         ["exit status %d" % cuda_search.returncode])[-1]))
cuda_toolkit, cuda_ptxas, cuda_nvcc = json.loads(cuda_search.stdout)
# lit passes none of those variables on: the tests' tirx-opt is given the
# same toolkit through the first one.
if cuda_toolkit:
    config.environment["TIRX_CUDA_PATH"] = cuda_toolkit
missing_cuda_tools = []
for cuda_tool, path in (("ptxas", cuda_ptxas), ("nvcc", cuda_nvcc)):
    if path:
        config.available_features.add(cuda_tool)
        config.substitutions.append(("%" + cuda_tool, path))
    else:
        missing_cuda_tools.append(cuda_tool)

# The toolkit's nvvm/ (libdevice), for tests that build a toolkit folder of
# their own: the toolkit's, else beside the real ptxas (the ptxas on PATH
# may be a link into a toolkit).
cuda_nvvm = None
if cuda_ptxas:
    ptxas_root = os.path.dirname(os.path.dirname(os.path.realpath(cuda_ptxas)))
    cuda_nvvm = next((os.path.join(d, "nvvm") for d in [cuda_toolkit, ptxas_root]
                      if d and os.path.isdir(os.path.join(d, "nvvm", "libdevice"))), None)
config.substitutions.append(("%cuda_nvvm", cuda_nvvm or "none"))

# `make check` assembles the PTX it checks: without ptxas the `%if ptxas`
# lines would silently do nothing, so the suite refuses to run unless the
# user opts out (docs/testing.md, "ptxas").
if "ptxas" in missing_cuda_tools and os.environ.get("TIRX_ALLOW_NO_PTXAS") != "1":
    lit_config.fatal(
        "ptxas not found (looked in %s, then on PATH): the tests assemble the PTX "
        "they check with it. Install NVIDIA's CUDA toolkit, 12.1 or newer "
        "(its ptxas assembles PTX ISA 8.1 for sm_90), and set TIRX_CUDA_PATH "
        "(or CUDA_HOME, CUDA_PATH, CUDA_ROOT) to it or put its bin/ on PATH; "
        "or set TIRX_ALLOW_NO_PTXAS=1 to run without it (the tests with "
        "`%%if ptxas` lines are then reported as UNSUPPORTED)"
        % (os.path.join(cuda_toolkit, "bin") if cuda_toolkit else
           "no toolkit: TIRX_CUDA_PATH, CUDA_HOME, CUDA_PATH and CUDA_ROOT are "
           "unset and /usr/local/cuda has no nvvm/libdevice"))


# A test whose `%if ptxas` lines did not run is reported UNSUPPORTED, not
# passed (test/tirx_lit_format.py).
sys.path.insert(0, os.path.dirname(__file__))
from tirx_lit_format import TirXShTest
config.test_format = TirXShTest(not llvm_config.use_lit_shell, missing_cuda_tools)


# Sphinx + MyST (Debian's python3-sphinx, python3-myst-parser) build the docs site.
if subprocess.run(["/usr/bin/python3", "-c", "import sphinx, myst_parser"],
                  capture_output=True).returncode == 0:
    config.available_features.add("sphinx")

# The features above, for utils/check-diagnostics.py (which counts no
# expectation of a test that does not run here), and lit itself, for the
# test of this configuration (test/Tools/lit-ptxas.test).
config.substitutions.append(("%lit_features", ",".join(sorted(config.available_features))))
config.substitutions.append(("%lit", sys.executable + " " + (
    os.path.join(config.llvm_tools_dir, "lit")
    if os.path.exists(os.path.join(config.llvm_tools_dir, "lit"))
    else os.path.abspath(sys.argv[0]))))
