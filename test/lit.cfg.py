# -*- Python -*-
import os
import sys
import shutil

import lit.formats
from lit.llvm import llvm_config

config.name = "TIRX"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
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

# CUDA toolkit tools, on PATH or in /usr/local/cuda: ptxas assembles every
# PTX the suite produces, nvcc compiles the numerics suite's references.
for cuda_tool in ("ptxas", "nvcc"):
    path = shutil.which(cuda_tool) or (
        "/usr/local/cuda/bin/" + cuda_tool
        if os.path.exists("/usr/local/cuda/bin/" + cuda_tool) else None)
    if path:
        config.available_features.add(cuda_tool)
        config.substitutions.append(("%" + cuda_tool, path))


# Sphinx + MyST (Debian's python3-sphinx, python3-myst-parser) build the docs site.
if subprocess.run(["/usr/bin/python3", "-c", "import sphinx, myst_parser"],
                  capture_output=True).returncode == 0:
    config.available_features.add("sphinx")
