// RUN: tirx-opt %s | FileCheck %s --check-prefix=IR
// RUN: tirx-opt %s --tirx-to-ptx="chip=sm_90a ptx-output=%t.ptx" -o /dev/null
// RUN: FileCheck %s < %t.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90a %t.ptx -o /dev/null %}

// Thread-block clusters (sm_90): `cluster = [...]` in the launch becomes
// the kernel's .reqnctapercluster (with .explicitcluster), so a plain
// launch runs the grid in clusters; the launch attribute round-trips.

// IR-LABEL: tirx.kernel @cluster_x(
// IR-SAME: launch(grid = [8], block = [128], cluster = [2])
// CHECK-LABEL: .visible .entry cluster_x(
// CHECK: .maxntid 128, 1, 1
// CHECK-NEXT: .explicitcluster
// CHECK-NEXT: .reqnctapercluster 2, 1, 1
module attributes {tirx.chip = "sm_90a", tirx.ptx = 83 : i32} {
tirx.kernel @cluster_x(%A: !tirx.tensor<8x4x32x1xf32, global, align = 4>)
    launch(grid = [8], block = [128], cluster = [2]) {
  %bx = tirx.block_idx x
  %t = tirx.region %A[%bx, 0, 0, 0] [1, 4, 32, 1] : !tirx.tensor<8x4x32x1xf32, global, align = 4>
  %v = tirx.view %t : !tirx.tensor<1x4x32x1xf32, global, #tirx.layout<S[(1, 4, 32, 1) : (128, 32, 1, 1)]>, align = 4> -> !tirx.tensor<4x32x1xf32, global, #tirx.layout<S[(4, 32, 1) : (32, 1, 1)]>, align = 4>
  %r = tirx.alloc_local : !tirx.tensor<4x32x1xf32, local, #tirx.layout<S[(4, 32, 1) : (1@warpid, 1@laneid, 1)]>>
  tile.apply "ld.global.b32" scope(cta) (%r, %v) : !tirx.tensor<4x32x1xf32, local, #tirx.layout<S[(4, 32, 1) : (1@warpid, 1@laneid, 1)]>>, !tirx.tensor<4x32x1xf32, global, #tirx.layout<S[(4, 32, 1) : (32, 1, 1)]>, align = 4>
  tile.apply "st.global.b32" scope(cta) (%v, %r) : !tirx.tensor<4x32x1xf32, global, #tirx.layout<S[(4, 32, 1) : (32, 1, 1)]>, align = 4>, !tirx.tensor<4x32x1xf32, local, #tirx.layout<S[(4, 32, 1) : (1@warpid, 1@laneid, 1)]>>
  tirx.return
}

// A 2-D grid in 2 x 4 clusters (8 CTAs, the portable maximum).
// IR-LABEL: tirx.kernel @cluster_xy(
// IR-SAME: launch(grid = [4, 8], block = [32], cluster = [2, 4])
// CHECK-LABEL: .visible .entry cluster_xy(
// CHECK: .explicitcluster
// CHECK-NEXT: .reqnctapercluster 2, 4, 1
tirx.kernel @cluster_xy() launch(grid = [4, 8], block = [32], cluster = [2, 4]) {
  tirx.return
}
}
