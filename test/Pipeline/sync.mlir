// Hopper synchronization through tile.apply (docs/synchronization.md): an
// mbarrier initialized by one thread and made visible, arrivals with and
// without a state, expected transaction bytes, the try_wait retry loop
// (several copies in one kernel: their labels are local to their `{}`
// blocks), single tries into predicates, elect.sync, the proxy fences,
// setmaxnreg and wgmma's fences (sm_90a), the bulk async-groups, inval.
// The register limit (max-registers) lets ptxas honor setmaxnreg (without
// one it ignores it: "unable to determine register count at entry"); PTX 8.3
// is the tensormap fence's.
// RUN: tirx-opt %s --tirx-to-ptx="chip=sm_90a features=+ptx83 max-registers=128 ptx-output=%t.ptx" -o /dev/null
// RUN: FileCheck %s --enable-var-scope < %t.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90a %t.ptx -o /dev/null %}

!bar = !tirx.tensor<1xui64, shared, align = 8>
!state = !tirx.tensor<1xui64, local>
!flag = !tirx.tensor<1xi1, local>
#lane = #tirx.layout<S[(32) : (1@laneid)]>
!lanes = !tirx.tensor<32xui32, local, #lane>
!lanep = !tirx.tensor<32xi1, local, #lane>
#warps = #tirx.layout<S[(8, 32) : (1@warpid, 1@laneid)]>

// CHECK-LABEL: .entry phases(
// CHECK: .maxnreg 128
// CHECK: mov.b64 [[BAR:%rd[0-9]+]], phases_smem0;
// CHECK: {{^[[:space:]]*[{]$}}
// CHECK-NEXT: .reg .pred %tirx_p;
// CHECK-NEXT: setp.ne.b32 %tirx_p, [[IS0:%r[0-9]+]], 0;
// CHECK-NEXT: @%tirx_p mbarrier.init.shared::cta.b64 {{\[}}[[BAR]]{{\]}}, 0x00000080;
// CHECK-NEXT: }
// CHECK: fence.mbarrier_init.release.cluster;
// CHECK: bar.sync 0;
// CHECK: mbarrier.arrive.shared::cta.b64 [[ST:%rd[0-9]+]], {{\[}}[[BAR]]{{\]}};
// CHECK: {{^[[:space:]]*[{]$}}
// CHECK-NEXT: .reg .pred %tirx_w;
// CHECK-NEXT: tirx_retry:
// CHECK-NEXT: mbarrier.try_wait.parity.shared::cta.b64 %tirx_w, {{\[}}[[BAR]]{{\]}}, 0x00000000;
// CHECK-NEXT: @!%tirx_w bra tirx_retry;
// CHECK-NEXT: }
// CHECK: mbarrier.arrive.release.cta.shared::cta.b64 _, {{\[}}[[BAR]]{{\]}};
// CHECK: {{^[[:space:]]*[{]$}}
// CHECK-NEXT: .reg .pred %tirx_w;
// CHECK-NEXT: tirx_retry:
// CHECK-NEXT: mbarrier.try_wait.parity.acquire.cta.shared::cta.b64 %tirx_w, {{\[}}[[BAR]]{{\]}}, 0x00000001;
// CHECK-NEXT: @!%tirx_w bra tirx_retry;
// CHECK-NEXT: }
// CHECK: mbarrier.arrive.shared::cta.b64 {{%rd[0-9]+}}, {{\[}}[[BAR]]{{\]}}, 0x00000002;
// CHECK: mbarrier.arrive.release.cta.shared::cta.b64 _, {{\[}}[[BAR]]{{\]}}, 0x00000003;
// CHECK: mbarrier.test_wait.parity.shared::cta.b64 {{%p[0-9]+}}, {{\[}}[[BAR]]{{\]}}, 0x00000000;
// CHECK: mbarrier.try_wait.parity.shared::cta.b64 {{%p[0-9]+}}, {{\[}}[[BAR]]{{\]}}, [[PAR:%r[0-9]+]];
// CHECK: {{^[[:space:]]*[{]$}}
// CHECK-NEXT: .reg .pred %tirx_w;
// CHECK-NEXT: .reg .pred %tirx_p;
// CHECK-NEXT: setp.ne.b32 %tirx_p, [[IS0]], 0;
// CHECK-NEXT: @!%tirx_p bra tirx_done;
// CHECK-NEXT: tirx_retry:
// CHECK-NEXT: mbarrier.try_wait.parity.shared::cta.b64 %tirx_w, {{\[}}[[BAR]]{{\]}}, [[PAR]];
// CHECK-NEXT: @!%tirx_w bra tirx_retry;
// CHECK-NEXT: tirx_done:
// CHECK-NEXT: }
// CHECK: mbarrier.inval.shared::cta.b64 {{\[}}[[BAR]]{{\]}};
// CHECK: ret;
tirx.kernel @phases(%parity: i32) launch(grid = [1], block = [128]) {
  %tx = tirx.thread_idx x
  %t = arith.index_cast %tx : index to i32
  %c0 = arith.constant 0 : i32
  %is0 = arith.cmpi eq, %t, %c0 : i32
  %bar = tirx.alloc_shared : !bar
  tile.apply "mbarrier.init.shared::cta.b64" scope(thread) (%bar, 128 : i32) pred(%is0) : !bar
  tile.apply "fence.mbarrier_init.release.cluster" scope(thread) ()
  tirx.cta_sync
  // Phase 0: every thread arrives, then waits for it to complete.
  %st = tirx.alloc_local : !state
  tile.apply "mbarrier.arrive.shared::cta.b64" scope(thread) (%st, %bar) : !state, !bar
  tile.apply "mbarrier.try_wait.parity.shared::cta.b64" scope(thread) (%bar, 0 : i32) : !bar
  // Phase 1: the sink instead of a state, an acquire-ordered wait.
  tile.apply "mbarrier.arrive.release.cta.shared::cta.b64" scope(thread) (%bar) : !bar
  tile.apply "mbarrier.try_wait.parity.acquire.cta.shared::cta.b64" scope(thread) (%bar, 1 : i32) : !bar
  // Phase 2: arrivals counted two at a time, single tries.
  tile.apply "mbarrier.arrive.shared::cta.b64" scope(thread) (%st, %bar, 2 : i32) : !state, !bar
  // A count with the sink: as many operands as (%st, %bar); the shared
  // tensor is the barrier.
  tile.apply "mbarrier.arrive.release.cta.shared::cta.b64" scope(thread) (%bar, 3 : i32) : !bar
  %done = tirx.alloc_local : !flag
  tile.apply "mbarrier.test_wait.parity.shared::cta.b64" scope(thread) (%done, %bar, 0 : i32) : !flag, !bar
  tile.apply "mbarrier.try_wait.parity.shared::cta.b64" scope(thread) (%done, %bar, %parity) : !flag, !bar, i32
  // A guarded loop skips the wait in the threads it leaves out.
  tile.apply "mbarrier.try_wait.parity.shared::cta.b64" scope(thread) (%bar, %parity) pred(%is0) : !bar, i32
  tirx.cta_sync
  tile.apply "mbarrier.inval.shared::cta.b64" scope(thread) (%bar) pred(%is0) : !bar
  tirx.return
}

// Transaction bytes: expect_tx alone and with an arrival; the async-proxy
// fences; the bulk async-group fences. One thread: its initialization is
// the barrier's only write (several threads initializing it would race).
// CHECK-LABEL: .entry transactions(
// CHECK: mbarrier.init.shared.b64 {{\[}}[[B:%rd[0-9]+]]{{\]}}, 0x00000001;
// CHECK: fence.proxy.async.shared::cta;
// CHECK: mbarrier.expect_tx.relaxed.cta.shared::cta.b64 {{\[}}[[B]]{{\]}}, 0x00000200;
// CHECK: mbarrier.arrive.expect_tx.release.cta.shared::cta.b64 _, {{\[}}[[B]]{{\]}}, 0x00000400;
// CHECK: mbarrier.arrive.expect_tx.shared::cta.b64 {{%rd[0-9]+}}, {{\[}}[[B]]{{\]}}, {{%r[0-9]+}};
// CHECK: fence.proxy.async;
// CHECK: fence.proxy.async.global;
// CHECK: fence.proxy.tensormap::generic.release.gpu;
// CHECK: cp.async.bulk.commit_group;
// CHECK: cp.async.bulk.wait_group 0x00000001;
// CHECK: cp.async.bulk.wait_group.read 0x00000000;
tirx.kernel @transactions(%bytes: i32) launch(grid = [1], block = [1]) {
  %bar = tirx.alloc_shared : !bar
  tile.apply "mbarrier.init.shared.b64" scope(thread) (%bar, 1 : i32) : !bar
  tile.apply "fence.proxy.async.shared::cta" scope(thread) ()
  tile.apply "mbarrier.expect_tx.relaxed.cta.shared::cta.b64" scope(thread) (%bar, 512 : i32) : !bar
  tile.apply "mbarrier.arrive.expect_tx.release.cta.shared::cta.b64" scope(thread) (%bar, 1024 : i32) : !bar
  %st = tirx.alloc_local : !state
  tile.apply "mbarrier.arrive.expect_tx.shared::cta.b64" scope(thread) (%st, %bar, %bytes) : !state, !bar, i32
  tile.apply "fence.proxy.async" scope(thread) ()
  tile.apply "fence.proxy.async.global" scope(thread) ()
  tile.apply "fence.proxy.tensormap::generic.release.gpu" scope(thread) ()
  tile.apply "cp.async.bulk.commit_group" scope(thread) ()
  tile.apply "cp.async.bulk.wait_group" scope(thread) (1 : i32)
  tile.apply "cp.async.bulk.wait_group.read" scope(thread) (0 : i32)
  tirx.return
}

// elect.sync in each warp: d|p and the sink `_|p`; setmaxnreg and wgmma's
// fences by two whole warpgroups (scope cta).
// CHECK-LABEL: .entry warpgroups(
// CHECK: elect.sync {{%r[0-9]+}}|{{%p[0-9]+}}, 0xFFFFFFFF;
// CHECK: elect.sync _|{{%p[0-9]+}}, 0xFFFFFFFF;
// CHECK: setmaxnreg.dec.sync.aligned.u32 0x00000028;
// CHECK: setmaxnreg.inc.sync.aligned.u32 0x000000E8;
// CHECK: wgmma.fence.sync.aligned;
// CHECK: wgmma.commit_group.sync.aligned;
// CHECK: wgmma.wait_group.sync.aligned 0x00000000;
tirx.kernel @warpgroups(%out: !tirx.tensor<8x32xui32, global, align = 4>) launch(grid = [1], block = [256]) {
  %d = tirx.alloc_local : !tirx.tensor<8x32xui32, local, #warps>
  %p = tirx.alloc_local : !tirx.tensor<8x32xi1, local, #warps>
  tile.apply "elect.sync" scope(cta) (%d, %p, -1 : i32)
      : !tirx.tensor<8x32xui32, local, #warps>, !tirx.tensor<8x32xi1, local, #warps>
  tile.apply "elect.sync" scope(cta) (%p, -1 : i32) : !tirx.tensor<8x32xi1, local, #warps>
  tile.apply "setmaxnreg.dec.sync.aligned.u32" scope(cta) (40 : i32)
  tile.apply "setmaxnreg.inc.sync.aligned.u32" scope(warpgroup) (232 : i32)
  tile.apply "wgmma.fence.sync.aligned" scope(warpgroup) ()
  tile.apply "wgmma.commit_group.sync.aligned" scope(warpgroup) ()
  tile.apply "wgmma.wait_group.sync.aligned" scope(cta) (0 : i32)
  %dv = tirx.view %d : !tirx.tensor<8x32xui32, local, #warps> -> !tirx.tensor<8x32x1xui32, local, #tirx.layout<S[(8, 32, 1) : (1@warpid, 1@laneid, 1)]>>
  %ov = tirx.view %out : !tirx.tensor<8x32xui32, global, align = 4> -> !tirx.tensor<8x32x1xui32, global, align = 4>
  tile.apply "st.global.b32" scope(cta) (%ov, %dv)
      : !tirx.tensor<8x32x1xui32, global, align = 4>, !tirx.tensor<8x32x1xui32, local, #tirx.layout<S[(8, 32, 1) : (1@warpid, 1@laneid, 1)]>>
  tirx.return
}
