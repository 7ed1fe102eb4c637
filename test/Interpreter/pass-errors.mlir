// tirx-interpret's own errors: its options and what it needs to run a kernel.
// RUN: not tirx-opt %s --tirx-interpret=sizes=n 2>&1 | FileCheck %s --check-prefix=ENTRY
// ENTRY: error: tirx-interpret: sizes entry 'n' is not name=integer
// RUN: not tirx-opt %s --tirx-interpret 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: [[@LINE+8]]:1: error: tirx-interpret needs a value for size variable 'n' (sizes=n=...)
// RUN: not tirx-opt %s --tirx-interpret=kernel=other 2>&1 | FileCheck %s --check-prefix=NAME
// NAME: error: tirx-interpret: the module has no kernel named 'other'
// A grid of n / 64 blocks is empty for n = 32 (an argument CUDA would
// refuse to launch):
// RUN: not tirx-opt %s --tirx-interpret=sizes=n=32 2>&1 | FileCheck %s --check-prefix=GRID
// GRID: [[@LINE+2]]:1: error: grid extent 0 evaluates to 0 for these arguments

tirx.kernel @rows(%n: index {tirx.size = "n"},
                  %A: !tirx.tensor<?xf32, global, sizes = [n]>)
    launch(grid = [%n floordiv 64], block = [32]) {
  tirx.return
}

// A runtime grid must be whole clusters (CUDA refuses the launch otherwise):
// RUN: not tirx-opt %S/Inputs/cluster.mlir --tirx-interpret=sizes=n=96 2>&1 | FileCheck %s --check-prefix=CLUSTER
// CLUSTER: cluster.mlir:1:1: error: grid extent 0 is 3 for these arguments, not a multiple of the cluster's 2
// RUN: tirx-opt %S/Inputs/cluster.mlir --tirx-interpret=sizes=n=128 -o /dev/null
