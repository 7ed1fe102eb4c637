// RUN: tirx-opt %s --tirx-print-layouts -o /dev/null | FileCheck %s
// RUN: tirx-opt %s --tirx-print-layouts=view=thread -o /dev/null | FileCheck %s --check-prefix=THREAD
// RUN: not tirx-opt %s --tirx-print-layouts=view=diagonal -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD-VIEW

// CHECK-LABEL: // tirx.alloc_local at
// CHECK-SAME: !tirx.tensor<2x32x4xf32, local, #tirx.layout<S[(2, 32, 4) : (1@warpid, 1@laneid, 1)]>>
// CHECK-NEXT: tensor view of S[(2, 32, 4) : (1@warpid, 1@laneid, 1)] over shape (2, 32, 4): 256 elements
// CHECK-NEXT: [0, 0, 0] -> warpid=0 laneid=0 slot 0
// CHECK:      [1, 31, 3] -> warpid=1 laneid=31 slot 3
// CHECK-NEXT: thread view: 64 threads x 4 slots
// CHECK-NEXT: warpid=0 laneid=0: slot 0 = [0, 0, 0], slot 1 = [0, 0, 1], slot 2 = [0, 0, 2], slot 3 = [0, 0, 3]
// CHECK:      warpid=1 laneid=31: slot 0 = [1, 31, 0], slot 1 = [1, 31, 1], slot 2 = [1, 31, 2], slot 3 = [1, 31, 3]

// THREAD-NOT: tensor view
// THREAD: thread view: 64 threads x 4 slots

// BAD-VIEW: error: tirx-print-layouts: view must be tensor, thread or both, got 'diagonal'

tirx.kernel @k() launch(grid = [1], block = [64]) {
  %r = tirx.alloc_local : !tirx.tensor<2x32x4xf32, local, #tirx.layout<S[(2, 32, 4) : (1@warpid, 1@laneid, 1)]>>
  tirx.return
}

// The spec's replicated example (§1.4): element (7, 15) lives in lane 31 of
// warps 6 and 10, slot 1.
// CHECK-LABEL: // tirx.alloc_local at
// CHECK: [7, 15] -> warpid=6 laneid=31 slot 1 | warpid=10 laneid=31 slot 1
tirx.kernel @replicated() launch(grid = [1], block = [512]) {
  %r = tirx.alloc_local : !tirx.tensor<8x16xf32, local, #tirx.layout<S[(8, 2, 4, 2) : (4@laneid, 1@warpid, 1@laneid, 1)] + R[2 : 4@warpid] + 5@warpid>>
  tirx.return
}
