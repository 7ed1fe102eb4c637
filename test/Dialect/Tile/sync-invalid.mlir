// RUN: tirx-opt %s -split-input-file -verify-diagnostics

// Rejections of the synchronization forms (docs/synchronization.md): the
// mbarrier is an 8-byte aligned 64-bit shared element; counts, transaction
// bytes, parities and register counts are in range; ordering and scope come
// together; the warpgroup forms need whole warpgroups; sm_90a-only forms
// are refused on every other target; floors.

tirx.kernel @init_count_zero() launch(grid = [1], block = [32]) {
  %bar = tirx.alloc_shared : !tirx.tensor<1xui64, shared, align = 8>
  // expected-error @+1 {{operand #1 (count) of 'mbarrier.init.shared.b64': an mbarrier arrival count is 1 to 1048575 (2^20-1), got 0}}
  tile.apply "mbarrier.init.shared.b64" scope(thread) (%bar, 0 : i32) : !tirx.tensor<1xui64, shared, align = 8>
  tirx.return
}

// -----

tirx.kernel @init_count_too_large() launch(grid = [1], block = [32]) {
  %bar = tirx.alloc_shared : !tirx.tensor<1xui64, shared, align = 8>
  // expected-error @+1 {{an mbarrier arrival count is 1 to 1048575 (2^20-1), got 1048576}}
  tile.apply "mbarrier.init.shared::cta.b64" scope(thread) (%bar, 1048576 : i32) : !tirx.tensor<1xui64, shared, align = 8>
  tirx.return
}

// -----

tirx.kernel @arrive_count_zero() launch(grid = [1], block = [32]) {
  %bar = tirx.alloc_shared : !tirx.tensor<1xui64, shared, align = 8>
  %st = tirx.alloc_local : !tirx.tensor<1xui64, local>
  // expected-error @+1 {{operand #2 (count) of 'mbarrier.arrive.shared.b64': an mbarrier arrival count is 1 to 1048575 (2^20-1), got 0}}
  tile.apply "mbarrier.arrive.shared.b64" scope(thread) (%st, %bar, 0 : i32) : !tirx.tensor<1xui64, local>, !tirx.tensor<1xui64, shared, align = 8>
  tirx.return
}

// -----

tirx.kernel @tx_too_large() launch(grid = [1], block = [32]) {
  %bar = tirx.alloc_shared : !tirx.tensor<1xui64, shared, align = 8>
  // expected-error @+1 {{operand #1 (tx) of 'mbarrier.arrive.expect_tx.shared::cta.b64': a transaction count is 0 to 1048575 (2^20-1), got 1048576}}
  tile.apply "mbarrier.arrive.expect_tx.shared::cta.b64" scope(thread) (%bar, 1048576 : i32) : !tirx.tensor<1xui64, shared, align = 8>
  tirx.return
}

// -----

tirx.kernel @tx_negative() launch(grid = [1], block = [32]) {
  %bar = tirx.alloc_shared : !tirx.tensor<1xui64, shared, align = 8>
  // expected-error @+1 {{operand #1 (tx) of 'mbarrier.expect_tx.relaxed.cta.shared::cta.b64': a transaction count is 0 to 1048575 (2^20-1), got -16}}
  tile.apply "mbarrier.expect_tx.relaxed.cta.shared::cta.b64" scope(thread) (%bar, -16 : i32) : !tirx.tensor<1xui64, shared, align = 8>
  tirx.return
}

// -----

tirx.kernel @parity_two() launch(grid = [1], block = [32]) {
  %bar = tirx.alloc_shared : !tirx.tensor<1xui64, shared, align = 8>
  %p = tirx.alloc_local : !tirx.tensor<1xi1, local>
  // expected-error @+1 {{operand #2 (phaseParity) of 'mbarrier.test_wait.parity.shared.b64': a phase parity is 0 (even phases) or 1 (odd), got 2}}
  tile.apply "mbarrier.test_wait.parity.shared.b64" scope(thread) (%p, %bar, 2 : i32) : !tirx.tensor<1xi1, local>, !tirx.tensor<1xui64, shared, align = 8>
  tirx.return
}

// -----

tirx.kernel @loop_parity_negative() launch(grid = [1], block = [32]) {
  %bar = tirx.alloc_shared : !tirx.tensor<1xui64, shared, align = 8>
  // expected-error @+1 {{operand #1 (phaseParity) of 'mbarrier.try_wait.parity.shared::cta.b64': a phase parity is 0 (even phases) or 1 (odd), got -1}}
  tile.apply "mbarrier.try_wait.parity.shared::cta.b64" scope(thread) (%bar, -1 : i32) : !tirx.tensor<1xui64, shared, align = 8>
  tirx.return
}

// -----

tirx.kernel @mbarrier_in_global(%g: !tirx.tensor<1xui64, global, align = 8>) launch(grid = [1], block = [32]) {
  // expected-error @+1 {{operand #0 (addr) of 'mbarrier.init.shared.b64': accesses shared memory, but the tensor is global}}
  tile.apply "mbarrier.init.shared.b64" scope(thread) (%g, 1 : i32) : !tirx.tensor<1xui64, global, align = 8>
  tirx.return
}

// -----

tirx.kernel @mbarrier_of_32_bits() launch(grid = [1], block = [32]) {
  %bar = tirx.alloc_shared : !tirx.tensor<2xui32, shared, align = 8>
  // expected-error @+1 {{operand #0 (addr) of 'mbarrier.inval.shared.b64': needs a 64-bit type, got 'ui32'}}
  tile.apply "mbarrier.inval.shared.b64" scope(thread) (%bar) : !tirx.tensor<2xui32, shared, align = 8>
  tirx.return
}

// -----

tirx.kernel @mbarrier_misaligned() launch(grid = [1], block = [32]) {
  %bar = tirx.alloc_shared : !tirx.tensor<1xui64, shared, align = 4>
  // expected-error @+1 {{operand #0 (addr): the tensor is aligned to 4 byte(s) but each access is a 8-byte vector; declare align = 8 (or more) on the tensor}}
  tile.apply "mbarrier.init.shared.b64" scope(thread) (%bar, 1 : i32) : !tirx.tensor<1xui64, shared, align = 4>
  tirx.return
}

// -----

tirx.kernel @release_without_scope() launch(grid = [1], block = [32]) {
  %bar = tirx.alloc_shared : !tirx.tensor<1xui64, shared, align = 8>
  %st = tirx.alloc_local : !tirx.tensor<1xui64, local>
  // expected-error @+1 {{'mbarrier.arrive.release.shared.b64': .release requires a scope (one of .cta, .cluster)}}
  tile.apply "mbarrier.arrive.release.shared.b64" scope(thread) (%st, %bar) : !tirx.tensor<1xui64, local>, !tirx.tensor<1xui64, shared, align = 8>
  tirx.return
}

// -----

tirx.kernel @scope_without_order() launch(grid = [1], block = [32]) {
  %bar = tirx.alloc_shared : !tirx.tensor<1xui64, shared, align = 8>
  // expected-error @+1 {{'mbarrier.try_wait.parity.cta.shared::cta.b64': a scope (.cta) requires the memory-ordering qualifier (.acquire)}}
  tile.apply "mbarrier.try_wait.parity.cta.shared::cta.b64" scope(thread) (%bar, 0 : i32) : !tirx.tensor<1xui64, shared, align = 8>
  tirx.return
}

// -----

tirx.kernel @acquire_on_arrive() launch(grid = [1], block = [32]) {
  %bar = tirx.alloc_shared : !tirx.tensor<1xui64, shared, align = 8>
  // expected-error @+1 {{'mbarrier.arrive.acquire.cta.shared.b64': no form of 'mbarrier' accepts it: .acquire is not valid here (open slots: .release, scope, state space, type)}}
  tile.apply "mbarrier.arrive.acquire.cta.shared.b64" scope(thread) (%bar) : !tirx.tensor<1xui64, shared, align = 8>
  tirx.return
}

// -----

tirx.kernel @try_wait_without_parity() launch(grid = [1], block = [32]) {
  %bar = tirx.alloc_shared : !tirx.tensor<1xui64, shared, align = 8>
  // expected-error @+1 {{'mbarrier.try_wait.shared::cta.b64': missing required .parity}}
  tile.apply "mbarrier.try_wait.shared::cta.b64" scope(thread) (%bar, 0 : i32) : !tirx.tensor<1xui64, shared, align = 8>
  tirx.return
}

// -----

tirx.kernel @test_wait_has_no_loop() launch(grid = [1], block = [32]) {
  %bar = tirx.alloc_shared : !tirx.tensor<1xui64, shared, align = 8>
  // expected-error @+1 {{'mbarrier.test_wait.parity.shared.b64' expects 3 operands, got 2}}
  tile.apply "mbarrier.test_wait.parity.shared.b64" scope(thread) (%bar, 0 : i32) : !tirx.tensor<1xui64, shared, align = 8>
  tirx.return
}

// -----

tirx.kernel @wait_flag_not_pred() launch(grid = [1], block = [32]) {
  %bar = tirx.alloc_shared : !tirx.tensor<1xui64, shared, align = 8>
  %p = tirx.alloc_local : !tirx.tensor<1xui32, local>
  // expected-error @+1 {{operand #0 (waitComplete) of 'mbarrier.try_wait.parity.shared::cta.b64': needs pred, got 'ui32'}}
  tile.apply "mbarrier.try_wait.parity.shared::cta.b64" scope(thread) (%p, %bar, 0 : i32) : !tirx.tensor<1xui32, local>, !tirx.tensor<1xui64, shared, align = 8>
  tirx.return
}

// -----

module attributes {tirx.chip = "sm_80"} {
tirx.kernel @expect_tx_below_sm90() launch(grid = [1], block = [32]) {
  %bar = tirx.alloc_shared : !tirx.tensor<1xui64, shared, align = 8>
  // expected-error @+1 {{'mbarrier.arrive.expect_tx.shared.b64' requires sm_90 but the target is sm_80}}
  tile.apply "mbarrier.arrive.expect_tx.shared.b64" scope(thread) (%bar, 16 : i32) : !tirx.tensor<1xui64, shared, align = 8>
  tirx.return
}
}

// -----

module attributes {tirx.chip = "sm_90", tirx.ptx = 71} {
tirx.kernel @arrive_count_ptx78() launch(grid = [1], block = [32]) {
  %bar = tirx.alloc_shared : !tirx.tensor<1xui64, shared, align = 8>
  %st = tirx.alloc_local : !tirx.tensor<1xui64, local>
  // expected-error @+1 {{'mbarrier.arrive.shared.b64' requires PTX ISA 7.8 but the target is PTX 7.1}}
  tile.apply "mbarrier.arrive.shared.b64" scope(thread) (%st, %bar, 4 : i32) : !tirx.tensor<1xui64, local>, !tirx.tensor<1xui64, shared, align = 8>
  tirx.return
}
}

// -----

tirx.kernel @fence_local() launch(grid = [1], block = [32]) {
  // expected-error @+1 {{'fence.proxy.async.local': unknown modifier .local}}
  tile.apply "fence.proxy.async.local" scope(thread) ()
  tirx.return
}

// -----

tirx.kernel @tensormap_acquire() launch(grid = [1], block = [32]) {
  // expected-error @+1 {{'fence.proxy.tensormap::generic.acquire.gpu': unknown modifier .acquire}}
  tile.apply "fence.proxy.tensormap::generic.acquire.gpu" scope(thread) ()
  tirx.return
}

// -----

module attributes {tirx.chip = "sm_90"} {
tirx.kernel @tensormap_ptx80() launch(grid = [1], block = [32]) {
  // expected-error @+1 {{'fence.proxy.tensormap::generic.release.sys' requires PTX ISA 8.3 but the target is PTX 8.0}}
  tile.apply "fence.proxy.tensormap::generic.release.sys" scope(thread) ()
  tirx.return
}
}

// -----

tirx.kernel @elect_partial_mask() launch(grid = [1], block = [32]) {
  %p = tirx.alloc_local : !tirx.tensor<32xi1, local, #tirx.layout<S[(32) : (1@laneid)]>>
  // expected-error @+1 {{operand #1 (membermask) of 'elect.sync': membermask 0x0000ffff leaves lanes out}}
  tile.apply "elect.sync" scope(warp) (%p, 65535 : i32) : !tirx.tensor<32xi1, local, #tirx.layout<S[(32) : (1@laneid)]>>
  tirx.return
}

// -----

tirx.kernel @elect_per_thread() launch(grid = [1], block = [32]) {
  %p = tirx.alloc_local : !tirx.tensor<1xi1, local>
  // expected-error @+1 {{'elect.sync' is a warp-collective instruction: the 32 lanes of a warp execute it together, so it needs scope warp, warpgroup or cta, not thread}}
  tile.apply "elect.sync" scope(thread) (%p, -1 : i32) : !tirx.tensor<1xi1, local>
  tirx.return
}

// -----

module attributes {tirx.chip = "sm_89"} {
tirx.kernel @elect_below_sm90() launch(grid = [1], block = [32]) {
  %p = tirx.alloc_local : !tirx.tensor<32xi1, local, #tirx.layout<S[(32) : (1@laneid)]>>
  // expected-error @+1 {{'elect.sync' requires sm_90 but the target is sm_89}}
  tile.apply "elect.sync" scope(warp) (%p, -1 : i32) : !tirx.tensor<32xi1, local, #tirx.layout<S[(32) : (1@laneid)]>>
  tirx.return
}
}

// -----

module attributes {tirx.chip = "sm_90"} {
tirx.kernel @setmaxnreg_on_sm90() launch(grid = [1], block = [128]) {
  // expected-error @+1 {{'setmaxnreg.inc.sync.aligned.u32' is an arch-specific sm_90a instruction, but the target is sm_90 (compile with chip=sm_90a)}}
  tile.apply "setmaxnreg.inc.sync.aligned.u32" scope(warpgroup) (232 : i32)
  tirx.return
}
}

// -----

module attributes {tirx.chip = "sm_100a"} {
tirx.kernel @wgmma_fence_on_sm100a() launch(grid = [1], block = [128]) {
  // expected-error @+1 {{'wgmma.fence.sync.aligned' is an arch-specific sm_90a instruction, but the target is sm_100a (compile with chip=sm_90a)}}
  tile.apply "wgmma.fence.sync.aligned" scope(warpgroup) ()
  tirx.return
}
}

// -----

module attributes {tirx.chip = "sm_80"} {
tirx.kernel @wgmma_commit_below_sm90() launch(grid = [1], block = [128]) {
  // expected-error @+1 {{'wgmma.commit_group.sync.aligned' is an arch-specific sm_90a instruction, but the target is sm_80}}
  tile.apply "wgmma.commit_group.sync.aligned" scope(cta) ()
  tirx.return
}
}

// -----

tirx.kernel @setmaxnreg_not_multiple_of_8() launch(grid = [1], block = [128]) {
  // expected-error @+1 {{operand #0 (n) of 'setmaxnreg.dec.sync.aligned.u32': a register count is 24 to 256 and a multiple of 8, got 100}}
  tile.apply "setmaxnreg.dec.sync.aligned.u32" scope(warpgroup) (100 : i32)
  tirx.return
}

// -----

tirx.kernel @setmaxnreg_too_few() launch(grid = [1], block = [128]) {
  // expected-error @+1 {{a register count is 24 to 256 and a multiple of 8, got 16}}
  tile.apply "setmaxnreg.dec.sync.aligned.u32" scope(warpgroup) (16 : i32)
  tirx.return
}

// -----

tirx.kernel @setmaxnreg_too_many() launch(grid = [1], block = [128]) {
  // expected-error @+1 {{a register count is 24 to 256 and a multiple of 8, got 264}}
  tile.apply "setmaxnreg.inc.sync.aligned.u32" scope(cta) (264 : i32)
  tirx.return
}

// -----

tirx.kernel @setmaxnreg_runtime_count(%n: i32) launch(grid = [1], block = [128]) {
  // expected-error @+1 {{operand #0 (n) of 'setmaxnreg.inc.sync.aligned.u32': the register count must be an immediate (24 to 256, a multiple of 8)}}
  tile.apply "setmaxnreg.inc.sync.aligned.u32" scope(warpgroup) (%n) : i32
  tirx.return
}

// -----

tirx.kernel @setmaxnreg_one_warp() launch(grid = [1], block = [128]) {
  // expected-error @+1 {{'setmaxnreg.dec.sync.aligned.u32' is a warpgroup-collective instruction: the 4 warps of a warpgroup execute it together, so it needs scope warpgroup or cta, not warp}}
  tile.apply "setmaxnreg.dec.sync.aligned.u32" scope(warp) (40 : i32)
  tirx.return
}

// -----

tirx.kernel @wgmma_fence_per_thread() launch(grid = [1], block = [128]) {
  // expected-error @+1 {{'wgmma.fence.sync.aligned' is a warpgroup-collective instruction: the 4 warps of a warpgroup execute it together, so it needs scope warpgroup or cta, not thread}}
  tile.apply "wgmma.fence.sync.aligned" scope(thread) ()
  tirx.return
}

// -----

tirx.kernel @wgmma_partial_warpgroup() launch(grid = [1], block = [96]) {
  // expected-error @+1 {{'wgmma.commit_group.sync.aligned' is a warpgroup-collective instruction: the 4 warps of a warpgroup execute it together, but the block's 96 threads are not whole warpgroups (a multiple of 128)}}
  tile.apply "wgmma.commit_group.sync.aligned" scope(cta) ()
  tirx.return
}

// -----

tirx.kernel @wgmma_wait_too_many() launch(grid = [1], block = [128]) {
  // expected-error @+1 {{operand #0 (n) of 'wgmma.wait_group.sync.aligned': 64 pending groups is out of range: wait_group takes 0 to 63}}
  tile.apply "wgmma.wait_group.sync.aligned" scope(warpgroup) (64 : i32)
  tirx.return
}

// -----

tirx.kernel @bulk_wait_runtime(%n: i32) launch(grid = [1], block = [32]) {
  // expected-error @+1 {{operand #0 (n) of 'cp.async.bulk.wait_group.read': the number of pending groups must be an immediate}}
  tile.apply "cp.async.bulk.wait_group.read" scope(thread) (%n) : i32
  tirx.return
}

// -----

module attributes {tirx.chip = "sm_80"} {
tirx.kernel @bulk_commit_below_sm90() launch(grid = [1], block = [32]) {
  // expected-error @+1 {{'cp.async.bulk.commit_group' requires sm_90 but the target is sm_80}}
  tile.apply "cp.async.bulk.commit_group" scope(thread) ()
  tirx.return
}
}

// -----

tirx.kernel @bulk_read_on_cp_async() launch(grid = [1], block = [32]) {
  // expected-error @+1 {{'cp.async.wait_group.read': missing required .bulk}}
  tile.apply "cp.async.wait_group.read" scope(thread) (0 : i32)
  tirx.return
}

// -----

tirx.kernel @arrive_state_immediate() launch(grid = [1], block = [32]) {
  %bar = tirx.alloc_shared : !tirx.tensor<1xui64, shared, align = 8>
  // expected-error @+1 {{operand #0 (state) of 'mbarrier.arrive.shared.b64': is written, so it must be a tensor, got an immediate}}
  tile.apply "mbarrier.arrive.shared.b64" scope(thread) (0 : i64, %bar) : !tirx.tensor<1xui64, shared, align = 8>
  tirx.return
}

// -----

module attributes {tirx.chip = "sm_80"} {
tirx.kernel @sink_count_below_sm90() launch(grid = [1], block = [32]) {
  %bar = tirx.alloc_shared : !tirx.tensor<1xui64, shared, align = 8>
  // expected-error @+1 {{'mbarrier.arrive.shared.b64' requires sm_90 but the target is sm_80}}
  tile.apply "mbarrier.arrive.shared.b64" scope(thread) (%bar, 2 : i32) : !tirx.tensor<1xui64, shared, align = 8>
  tirx.return
}
}

// -----

// Neither two-operand line fits a state tile and a count: the first says why.
tirx.kernel @arrive_state_and_count_without_barrier() launch(grid = [1], block = [32]) {
  %st = tirx.alloc_local : !tirx.tensor<1xui64, local>
  // expected-error @+1 {{operand #1 (addr) of 'mbarrier.arrive.shared.b64': is written, so it must be a tensor, got an immediate}}
  tile.apply "mbarrier.arrive.shared.b64" scope(thread) (%st, 2 : i32) : !tirx.tensor<1xui64, local>
  tirx.return
}

// -----

// An arrival on another CTA's barrier (mbarrier.arrive...shared::cluster,
// mapa'd to CTA `cta`) needs a kernel launched in clusters.
tirx.kernel @remote_arrive_without_clusters() launch(grid = [2], block = [32]) {
  %bar = tirx.alloc_shared : !tirx.tensor<1xui64, shared, align = 8>
  // expected-error @+1 {{operand #1 (cta) of 'mbarrier.arrive.release.cluster.shared::cluster.b64': names a CTA of the cluster, but the kernel is not launched in clusters: add cluster = [...] to its launch (LaunchConfig(cluster=) in Python)}}
  tile.apply "mbarrier.arrive.release.cluster.shared::cluster.b64" scope(thread) (%bar, 1 : i32) : !tirx.tensor<1xui64, shared, align = 8>
  tirx.return
}

// -----

tirx.kernel @remote_arrive_rank_outside(%A: !tirx.tensor<2xf32, global>) launch(grid = [4], block = [32], cluster = [2]) {
  %bar = tirx.alloc_shared : !tirx.tensor<1xui64, shared, align = 8>
  // expected-error @+1 {{operand #1 (cta) of 'mbarrier.arrive.release.cluster.shared::cluster.b64': CTA rank 2 is not in the kernel's cluster of 2 CTAs}}
  tile.apply "mbarrier.arrive.release.cluster.shared::cluster.b64" scope(thread) (%bar, 2 : i32) : !tirx.tensor<1xui64, shared, align = 8>
  tirx.return
}

// -----

tirx.kernel @remote_arrive_negative_rank(%A: !tirx.tensor<2xf32, global>) launch(grid = [4], block = [32], cluster = [2]) {
  %bar = tirx.alloc_shared : !tirx.tensor<1xui64, shared, align = 8>
  // expected-error @+1 {{CTA rank -1 is not in the kernel's cluster of 2 CTAs}}
  tile.apply "mbarrier.arrive.release.cluster.shared::cluster.b64" scope(thread) (%bar, -1 : i32) : !tirx.tensor<1xui64, shared, align = 8>
  tirx.return
}

// -----

tirx.kernel @remote_arrive_without_rank(%A: !tirx.tensor<2xf32, global>) launch(grid = [4], block = [32], cluster = [2]) {
  %bar = tirx.alloc_shared : !tirx.tensor<1xui64, shared, align = 8>
  // expected-error @+1 {{'mbarrier.arrive.release.cluster.shared::cluster.b64' expects 2 operands, got 1}}
  tile.apply "mbarrier.arrive.release.cluster.shared::cluster.b64" scope(thread) (%bar) : !tirx.tensor<1xui64, shared, align = 8>
  tirx.return
}

// -----

tirx.kernel @remote_arrive_global_barrier(%A: !tirx.tensor<2xui64, global, align = 8>) launch(grid = [4], block = [32], cluster = [2]) {
  %b = tirx.region %A[0] [1] : !tirx.tensor<2xui64, global, align = 8>
  // expected-error @+1 {{operand #0 (addr) of 'mbarrier.arrive.release.cluster.shared::cluster.b64': accesses shared::cluster memory, but the tensor is global}}
  tile.apply "mbarrier.arrive.release.cluster.shared::cluster.b64" scope(thread) (%b, 1 : i32) : !tirx.tensor<1xui64, global, #tirx.layout<S[1 : 1]>, align = 8>
  tirx.return
}

// -----

tirx.kernel @remote_arrive_wide_rank(%A: !tirx.tensor<2xf32, global>) launch(grid = [4], block = [32], cluster = [2]) {
  %bar = tirx.alloc_shared : !tirx.tensor<1xui64, shared, align = 8>
  // expected-error @+1 {{operand #1 (cta) of 'mbarrier.arrive.release.cluster.shared::cluster.b64': needs a 32-bit type, got 'i64'}}
  tile.apply "mbarrier.arrive.release.cluster.shared::cluster.b64" scope(thread) (%bar, 1 : i64) : !tirx.tensor<1xui64, shared, align = 8>
  tirx.return
}
