// Cluster synchronization and TMA multicast (docs/hopper.md): a kernel in
// clusters of 2 CTAs initializes its mbarrier, publishes it to the cluster
// (fence.mbarrier_init), synchronizes the cluster (barrier.cluster
// arrive/wait), then thread 0 of each CTA loads half of the box and
// multicasts it to both CTAs (ctaMask 0b11): each CTA's image and mbarrier
// receive both halves. ctaMask is an immediate or a 16-bit value.
// RUN: tirx-opt %s --tirx-to-ptx="chip=sm_90a ptx-output=%t.ptx" -o /dev/null
// RUN: FileCheck %s < %t.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90a %t.ptx -o /dev/null %}

// CHECK-LABEL: .visible .entry multicast(
// CHECK: .explicitcluster
// CHECK-NEXT: .reqnctapercluster 2, 1, 1
// CHECK: mbarrier.init.shared::cta.b64 [{{%rd[0-9]+}}], 0x00000001;
// CHECK: fence.mbarrier_init.release.cluster;
// CHECK: barrier.cluster.arrive.aligned;
// CHECK-NEXT: barrier.cluster.wait.aligned;
// CHECK-NOT: barrier.cluster.{{.*}}aligned
// CHECK: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster [{{%rd[0-9]+}}], [{{%rd[0-9]+}}, {{{%r[0-9]+}}, {{%r[0-9]+}}}], [{{%rd[0-9]+}}], {{%rs[0-9]+}};
// CHECK: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster [{{%rd[0-9]+}}], [{{%rd[0-9]+}}, {{{%r[0-9]+}}, {{%r[0-9]+}}}], [{{%rd[0-9]+}}], {{%rs[0-9]+}};
// CHECK: barrier.cluster.arrive.relaxed;
// CHECK-NEXT: barrier.cluster.wait;
module attributes {tirx.chip = "sm_90a", tirx.ptx = 83 : i32} {
tirx.kernel @multicast(%A: !tirx.tensor<256x64xbf16, global, align = 16>)
    launch(grid = [8], block = [128], cluster = [2]) {
  %img = tirx.alloc_shared : !tirx.tensor<32x64xbf16, shared, align = 128>
  %bar = tirx.alloc_shared : !tirx.tensor<1xi64, shared, align = 8>
  %tx = tirx.thread_idx x
  %bx = tirx.block_idx x
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %is0 = arith.cmpi eq, %tx, %c0 : index
  scf.if %is0 {
    tile.apply "mbarrier.init.shared::cta.b64" scope(thread) (%bar, 1 : i32) : !tirx.tensor<1xi64, shared, align = 8>
    tile.apply "fence.mbarrier_init.release.cluster" scope(thread) ()
  }
  tile.apply "barrier.cluster.arrive.aligned" scope(cta) ()
  tile.apply "barrier.cluster.wait.aligned" scope(cta) ()
  scf.if %is0 {
    // The cluster's rows: 32 from the first CTA's; this CTA loads its rank's 16.
    %pair = arith.divui %bx, %c2 : index
    %rank = arith.remui %bx, %c2 : index
    %base = arith.muli %pair, %c32 : index
    %half = arith.muli %rank, %c16 : index
    %row = arith.addi %base, %half : index
    %box = tirx.region %A[%row, 0] [16, 64] : !tirx.tensor<256x64xbf16, global, align = 16>
    %dst = tirx.region %img[%half, 0] [16, 64] : !tirx.tensor<32x64xbf16, shared, align = 128>
    tile.apply "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster" scope(thread) (%dst, %box, %bar, 3 : i16)
        : !tirx.tensor<16x64xbf16, shared, #tirx.layout<S[(16, 64) : (64, 1)]>, align = 128>, !tirx.tensor<16x64xbf16, global, #tirx.layout<S[(16, 64) : (64, 1)]>, align = 16>, !tirx.tensor<1xi64, shared, align = 8>
    %mask16 = arith.constant 3 : i16
    tile.apply "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster" scope(thread) (%dst, %box, %bar, %mask16)
        : !tirx.tensor<16x64xbf16, shared, #tirx.layout<S[(16, 64) : (64, 1)]>, align = 128>, !tirx.tensor<16x64xbf16, global, #tirx.layout<S[(16, 64) : (64, 1)]>, align = 16>, !tirx.tensor<1xi64, shared, align = 8>, i16
  }
  tile.apply "barrier.cluster.arrive.relaxed" scope(thread) ()
  tile.apply "barrier.cluster.wait" scope(thread) ()
  tirx.return
}

// Arrivals on the other CTA's barrier (a multicast pipeline's consumer
// release): the operand is this CTA's barrier; the lowering maps it to the
// CTA of the given rank (mapa) and arrives there, with the sink state that
// .shared::cluster requires. The rank as a value and as an immediate.
// CHECK-LABEL: .visible .entry remote_arrive(
// CHECK: .reqnctapercluster 2, 1, 1
// CHECK: mov.b64 %[[BAR:rd[0-9]+]], remote_arrive_smem0;
// CHECK: .reg .b64 %tirx_m;
// CHECK-NEXT: mapa.shared::cluster.u64 %tirx_m, %[[BAR]], %r{{[0-9]+}};
// CHECK-NEXT: mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%tirx_m];
// CHECK-NEXT: }
// CHECK: .reg .b64 %tirx_m;
// CHECK-NEXT: mapa.shared::cluster.u64 %tirx_m, %[[BAR]], 1;
// CHECK-NEXT: mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%tirx_m];
// CHECK-NEXT: }
tirx.kernel @remote_arrive(%A: !tirx.tensor<8xi32, global, align = 16>)
    launch(grid = [8], block = [32], cluster = [2]) {
  %bar = tirx.alloc_shared : !tirx.tensor<1xi64, shared, align = 8>
  %bx = tirx.block_idx x
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %rank = arith.remui %bx, %c2 : index
  %other = arith.subi %c1, %rank : index
  %other32 = arith.index_cast %other : index to i32
  tile.apply "mbarrier.arrive.release.cluster.shared::cluster.b64" scope(thread) (%bar, %other32) : !tirx.tensor<1xi64, shared, align = 8>, i32
  tile.apply "mbarrier.arrive.release.cluster.shared::cluster.b64" scope(thread) (%bar, 1 : i32) : !tirx.tensor<1xi64, shared, align = 8>
  tirx.return
}
}
