// RUN: tirx-opt %s -split-input-file -verify-diagnostics

// Rejections of the warp-collective families (docs/collectives.md).

#lanes = #tirx.layout<S[(4, 32) : (1@warpid, 1@laneid)]>

tirx.kernel @thread_scope() launch(grid = [1], block = [128]) {
  %x = tirx.alloc_local : !tirx.tensor<4x32xf32, local, #lanes>
  // expected-error @+1 {{'shfl.sync.bfly.b32' is a warp-collective instruction: the 32 lanes of a warp execute it together, so it needs scope warp, warpgroup or cta, not thread}}
  tile.apply "shfl.sync.bfly.b32" scope(thread) (%x, %x, 1 : i32, 31 : i32, -1 : i32)
      : !tirx.tensor<4x32xf32, local, #lanes>, !tirx.tensor<4x32xf32, local, #lanes>
  tirx.return
}

// -----

tirx.kernel @barrier_thread_scope() launch(grid = [1], block = [128]) {
  // expected-error @+1 {{'bar.sync' is a warp-collective instruction: the 32 lanes of a warp execute it together, so it needs scope warp, warpgroup or cta, not thread}}
  tile.apply "bar.sync" scope(thread) (0 : i32)
  tirx.return
}

// -----

#half = #tirx.layout<S[(16) : (1@laneid)]>
tirx.kernel @partial_warp() launch(grid = [1], block = [16]) {
  %x = tirx.alloc_local : !tirx.tensor<16xf32, local, #half>
  // expected-error @+1 {{a warp-collective instruction needs all 32 lanes of every warp, but the block has 16 threads}}
  tile.apply "shfl.sync.bfly.b32" scope(warp) (%x, %x, 1 : i32, 31 : i32, -1 : i32)
      : !tirx.tensor<16xf32, local, #half>, !tirx.tensor<16xf32, local, #half>
  tirx.return
}

// -----

// Two registers in each of 16 lanes is not one register in each of 32.
#pairs = #tirx.layout<S[(4, 2, 16) : (1@warpid, 1, 1@laneid)]>
tirx.kernel @wrong_fragment() launch(grid = [1], block = [128]) {
  %x = tirx.alloc_local : !tirx.tensor<4x32xf32, local, #pairs>
  // expected-error @+1 {{operand #0 (d): atom element 16 of group (0) is held by laneid=0 warpid=0 in register 1, but the instruction's fragment S[(32) : (1@laneid)] puts it in lane 16, register 0}}
  tile.apply "shfl.sync.bfly.b32" scope(cta) (%x, %x, 1 : i32, 31 : i32, -1 : i32)
      : !tirx.tensor<4x32xf32, local, #pairs>, !tirx.tensor<4x32xf32, local, #pairs>
  tirx.return
}

// -----

#lanes = #tirx.layout<S[(4, 32) : (1@warpid, 1@laneid)]>
// Lanes interleaved: element 1 is in lane 2.
#reversed = #tirx.layout<S[(4, 2, 16) : (1@warpid, 1@laneid, 2@laneid)]>
tirx.kernel @reversed_lanes() launch(grid = [1], block = [128]) {
  %x = tirx.alloc_local : !tirx.tensor<4x32xi32, local, #lanes>
  %y = tirx.alloc_local : !tirx.tensor<4x32xi32, local, #reversed>
  // expected-error @+1 {{operand #1 (a): atom element 1 of group (0) is held by laneid=2 warpid=0 in register 0, but the instruction's fragment S[(32) : (1@laneid)] puts it in lane 1, register 0}}
  tile.apply "redux.sync.add.s32" scope(cta) (%x, %y, -1 : i32)
      : !tirx.tensor<4x32xi32, local, #lanes>, !tirx.tensor<4x32xi32, local, #reversed>
  tirx.return
}

// -----

// Group coordinate 1 is held by warp 2.
#strided = #tirx.layout<S[(2, 4, 32) : (1@warpid, 2@warpid, 1@laneid)]>
tirx.kernel @wrong_warp() launch(grid = [1], block = [256]) {
  %x = tirx.alloc_local : !tirx.tensor<8x32xi32, local, #strided>
  // expected-error @+1 {{operand #0 (d): atom element 0 of group (1) is held by laneid=0 warpid=2 in register 0, but the instruction's fragment S[(32) : (1@laneid)] puts it in lane 0, register 0 of the warp executing this group; the layout must map the group axes to the executing warps}}
  tile.apply "redux.sync.add.s32" scope(cta) (%x, %x, -1 : i32)
      : !tirx.tensor<8x32xi32, local, #strided>, !tirx.tensor<8x32xi32, local, #strided>
  tirx.return
}

// -----

// Per-thread private registers are not a lane fragment.
tirx.kernel @private_registers() launch(grid = [1], block = [32]) {
  %x = tirx.alloc_local : !tirx.tensor<32xf32, local>
  // expected-error @+1 {{operand #0 (d): atom element 1 is held by every thread (a private register) in register 1, but the instruction's fragment S[(32) : (1@laneid)] puts it in lane 1, register 0}}
  tile.apply "shfl.sync.bfly.b32" scope(warp) (%x, %x, 1 : i32, 31 : i32, -1 : i32)
      : !tirx.tensor<32xf32, local>, !tirx.tensor<32xf32, local>
  tirx.return
}

// -----

#lanes = #tirx.layout<S[(4, 32) : (1@warpid, 1@laneid)]>
tirx.kernel @lane_predicate() launch(grid = [1], block = [128]) {
  %x = tirx.alloc_local : !tirx.tensor<4x32xf32, local, #lanes>
  %tid = tirx.thread_idx x
  %c16 = arith.constant 16 : index
  %low = arith.cmpi ult, %tid, %c16 : index
  // expected-error @+1 {{'shfl.sync.bfly.b32' is a warp-collective instruction: its predicate must be the same in every lane of a warp (computed from block indices, sizes, loop indices or the warp index), but it may differ between lanes}}
  tile.apply "shfl.sync.bfly.b32" scope(cta) (%x, %x, 1 : i32, 31 : i32, -1 : i32) pred(%low)
      : !tirx.tensor<4x32xf32, local, #lanes>, !tirx.tensor<4x32xf32, local, #lanes>
  tirx.return
}

// -----

// Dividing by 16 does not give the warp index.
tirx.kernel @half_warp_predicate() launch(grid = [1], block = [128]) {
  %tid = tirx.thread_idx x
  %c16 = arith.constant 16 : index
  %c1 = arith.constant 1 : index
  %half = arith.divui %tid, %c16 : index
  %first = arith.cmpi ult, %half, %c1 : index
  // expected-error @+1 {{'bar.warp.sync' is a warp-collective instruction: its predicate must be the same in every lane of a warp}}
  tile.apply "bar.warp.sync" scope(warp) (-1 : i32) pred(%first)
  tirx.return
}

// -----

#lanes = #tirx.layout<S[(4, 32) : (1@warpid, 1@laneid)]>
tirx.kernel @lane_branch(%A: !tirx.tensor<128xi32, global>) launch(grid = [1], block = [128]) {
  %x = tirx.alloc_local : !tirx.tensor<4x32xi32, local, #lanes>
  %tid = tirx.thread_idx x
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %bit = arith.andi %tid, %c1 : index
  // expected-note @+1 {{the condition is computed here}}
  %odd = arith.cmpi ne, %bit, %c0 : index
  scf.if %odd {
    // expected-error @+1 {{'redux.sync.add.s32' is a warp-collective instruction: it is inside a branch whose condition may differ between the lanes of a warp}}
    tile.apply "redux.sync.add.s32" scope(cta) (%x, %x, -1 : i32)
        : !tirx.tensor<4x32xi32, local, #lanes>, !tirx.tensor<4x32xi32, local, #lanes>
  }
  tirx.return
}

// -----

#lanes = #tirx.layout<S[(4, 32) : (1@warpid, 1@laneid)]>
tirx.kernel @partial_mask() launch(grid = [1], block = [128]) {
  %x = tirx.alloc_local : !tirx.tensor<4x32xf32, local, #lanes>
  // expected-error @+1 {{operand #4 (membermask) of 'shfl.sync.bfly.b32': membermask 0x0000ffff leaves lanes out, but every lane of the warp executes a tile.apply; use -1 : i32 (0xffffffff)}}
  tile.apply "shfl.sync.bfly.b32" scope(cta) (%x, %x, 1 : i32, 31 : i32, 65535 : i32)
      : !tirx.tensor<4x32xf32, local, #lanes>, !tirx.tensor<4x32xf32, local, #lanes>
  tirx.return
}

// -----

tirx.kernel @runtime_mask(%m: index) launch(grid = [1], block = [128]) {
  %mask = arith.index_cast %m : index to i32
  // expected-error @+1 {{operand #0 (membermask) of 'bar.warp.sync': must be the immediate -1 : i32 (0xffffffff): every lane of the warp executes a tile.apply}}
  tile.apply "bar.warp.sync" scope(cta) (%mask) : i32
  tirx.return
}

// -----

#lanes = #tirx.layout<S[(4, 32) : (1@warpid, 1@laneid)]>
tirx.kernel @mask_tensor() launch(grid = [1], block = [128]) {
  %p = tirx.alloc_local : !tirx.tensor<4x32xi1, local, #lanes>
  %m = tirx.alloc_local : !tirx.tensor<4x32xi32, local, #lanes>
  // expected-error @+1 {{operand #2 (membermask) of 'vote.sync.any.pred': must be the immediate -1 : i32 (0xffffffff)}}
  tile.apply "vote.sync.any.pred" scope(cta) (%p, %p, %m)
      : !tirx.tensor<4x32xi1, local, #lanes>, !tirx.tensor<4x32xi1, local, #lanes>, !tirx.tensor<4x32xi32, local, #lanes>
  tirx.return
}

// -----

#lanes = #tirx.layout<S[(4, 32) : (1@warpid, 1@laneid)]>
tirx.kernel @clamp_tensor() launch(grid = [1], block = [128]) {
  %x = tirx.alloc_local : !tirx.tensor<4x32xi32, local, #lanes>
  // expected-error @+1 {{operand #3 (c) of 'shfl.sync.bfly.b32': is a per-lane value of a collective and must be an immediate or a scalar, got a tensor}}
  tile.apply "shfl.sync.bfly.b32" scope(cta) (%x, %x, 1 : i32, %x, -1 : i32)
      : !tirx.tensor<4x32xi32, local, #lanes>, !tirx.tensor<4x32xi32, local, #lanes>, !tirx.tensor<4x32xi32, local, #lanes>
  tirx.return
}

// -----

tirx.kernel @barrier_count() launch(grid = [1], block = [128]) {
  // expected-error @+1 {{operand #1 (b) of 'bar.sync': a named barrier counts whole warps: 48 threads is not a positive multiple of 32}}
  tile.apply "bar.sync" scope(cta) (1 : i32, 48 : i32)
  tirx.return
}

// -----

tirx.kernel @barrier_zero_count() launch(grid = [1], block = [128]) {
  // expected-error @+1 {{operand #1 (b) of 'bar.arrive': a named barrier counts whole warps: 0 threads is not a positive multiple of 32}}
  tile.apply "bar.arrive" scope(cta) (1 : i32, 0 : i32)
  tirx.return
}

// -----

tirx.kernel @barrier_too_many() launch(grid = [1], block = [128]) {
  // expected-error @+1 {{operand #1 (b) of 'bar.sync': 256 threads can never arrive: the block has 128}}
  tile.apply "bar.sync" scope(cta) (1 : i32, 256 : i32)
  tirx.return
}

// -----

tirx.kernel @barrier_id() launch(grid = [1], block = [128]) {
  // expected-error @+1 {{operand #0 (a) of 'bar.sync': barrier 16 does not exist (a CTA has barriers 0 to 15)}}
  tile.apply "bar.sync" scope(cta) (16 : i32)
  tirx.return
}

// -----

#lanes = #tirx.layout<S[(4, 32) : (1@warpid, 1@laneid)]>
tirx.kernel @shfl_operand_count() launch(grid = [1], block = [128]) {
  %x = tirx.alloc_local : !tirx.tensor<4x32xf32, local, #lanes>
  // expected-error @+1 {{'shfl.sync.bfly.b32' expects 5 or 6 operands, got 4}}
  tile.apply "shfl.sync.bfly.b32" scope(cta) (%x, %x, 1 : i32, 31 : i32)
      : !tirx.tensor<4x32xf32, local, #lanes>, !tirx.tensor<4x32xf32, local, #lanes>
  tirx.return
}

// -----

#lanes = #tirx.layout<S[(4, 32) : (1@warpid, 1@laneid)]>
tirx.kernel @shfl_scalar_destination() launch(grid = [1], block = [128]) {
  %x = tirx.alloc_local : !tirx.tensor<4x32xf32, local, #lanes>
  %f = arith.constant 1.0 : f32
  // expected-error @+1 {{operand #0 (d) of 'shfl.sync.bfly.b32': is written, so it must be a tensor, got a scalar}}
  tile.apply "shfl.sync.bfly.b32" scope(cta) (%f, %x, 1 : i32, 31 : i32, -1 : i32)
      : f32, !tirx.tensor<4x32xf32, local, #lanes>
  tirx.return
}

// -----

#lanes = #tirx.layout<S[(4, 32) : (1@warpid, 1@laneid)]>
tirx.kernel @shfl_f64() launch(grid = [1], block = [128]) {
  %x = tirx.alloc_local : !tirx.tensor<4x32xf64, local, #lanes>
  // expected-error @+1 {{operand #0 (d) of 'shfl.sync.bfly.b32': needs a 32-bit type, got 'f64'}}
  tile.apply "shfl.sync.bfly.b32" scope(cta) (%x, %x, 1 : i32, 31 : i32, -1 : i32)
      : !tirx.tensor<4x32xf64, local, #lanes>, !tirx.tensor<4x32xf64, local, #lanes>
  tirx.return
}

// -----

#lanes = #tirx.layout<S[(4, 32) : (1@warpid, 1@laneid)]>
tirx.kernel @shfl_valid_not_pred() launch(grid = [1], block = [128]) {
  %x = tirx.alloc_local : !tirx.tensor<4x32xf32, local, #lanes>
  %i = tirx.alloc_local : !tirx.tensor<4x32xi32, local, #lanes>
  // expected-error @+1 {{operand #1 (p) of 'shfl.sync.idx.b32': needs pred, got 'i32'}}
  tile.apply "shfl.sync.idx.b32" scope(cta) (%x, %i, %x, 0 : i32, 31 : i32, -1 : i32)
      : !tirx.tensor<4x32xf32, local, #lanes>, !tirx.tensor<4x32xi32, local, #lanes>, !tirx.tensor<4x32xf32, local, #lanes>
  tirx.return
}

// -----

#lanes = #tirx.layout<S[(4, 32) : (1@warpid, 1@laneid)]>
tirx.kernel @vote_source_not_pred() launch(grid = [1], block = [128]) {
  %i = tirx.alloc_local : !tirx.tensor<4x32xi32, local, #lanes>
  // expected-error @+1 {{operand #1 (a) of 'vote.sync.ballot.b32': needs pred, got 'i32'}}
  tile.apply "vote.sync.ballot.b32" scope(cta) (%i, %i, -1 : i32)
      : !tirx.tensor<4x32xi32, local, #lanes>, !tirx.tensor<4x32xi32, local, #lanes>
  tirx.return
}

// -----

#lanes = #tirx.layout<S[(4, 32) : (1@warpid, 1@laneid)]>
tirx.kernel @vote_mode() launch(grid = [1], block = [128]) {
  %p = tirx.alloc_local : !tirx.tensor<4x32xi1, local, #lanes>
  // expected-error @+1 {{'vote.sync.ballot.pred': .pred is not valid here (open slots: type)}}
  tile.apply "vote.sync.ballot.pred" scope(cta) (%p, %p, -1 : i32)
      : !tirx.tensor<4x32xi1, local, #lanes>, !tirx.tensor<4x32xi1, local, #lanes>
  tirx.return
}

// -----

#lanes = #tirx.layout<S[(4, 32) : (1@warpid, 1@laneid)]>
tirx.kernel @redux_float() launch(grid = [1], block = [128]) {
  %x = tirx.alloc_local : !tirx.tensor<4x32xf32, local, #lanes>
  // expected-error @+1 {{'redux.sync.add.f32': unknown modifier .f32}}
  tile.apply "redux.sync.add.f32" scope(cta) (%x, %x, -1 : i32)
      : !tirx.tensor<4x32xf32, local, #lanes>, !tirx.tensor<4x32xf32, local, #lanes>
  tirx.return
}

// -----

#lanes = #tirx.layout<S[(4, 32) : (1@warpid, 1@laneid)]>
module attributes {tirx.chip = "sm_75"} {
tirx.kernel @redux_floor() launch(grid = [1], block = [128]) {
  %x = tirx.alloc_local : !tirx.tensor<4x32xi32, local, #lanes>
  // expected-error @+1 {{'redux.sync.add.s32' requires sm_80 but the target is sm_75}}
  tile.apply "redux.sync.add.s32" scope(cta) (%x, %x, -1 : i32)
      : !tirx.tensor<4x32xi32, local, #lanes>, !tirx.tensor<4x32xi32, local, #lanes>
  tirx.return
}
}

// -----

#lanes = #tirx.layout<S[(4, 32) : (1@warpid, 1@laneid)]>
tirx.kernel @shfl_without_sync() launch(grid = [1], block = [128]) {
  %x = tirx.alloc_local : !tirx.tensor<4x32xf32, local, #lanes>
  // expected-error @+1 {{'shfl.bfly.b32': missing required .sync}}
  tile.apply "shfl.bfly.b32" scope(cta) (%x, %x, 1 : i32, 31 : i32, -1 : i32)
      : !tirx.tensor<4x32xf32, local, #lanes>, !tirx.tensor<4x32xf32, local, #lanes>
  tirx.return
}

// -----

tirx.kernel @destinations_alias() launch(grid = [1], block = [128]) {
  %x = tirx.alloc_local : !tirx.tensor<4x2x32xf32, local, #tirx.layout<S[(4, 2, 32) : (1@warpid, 0, 1@laneid)]>>
  // expected-error @+1 {{destination elements (0, 0, 0) and (0, 1, 0) share register slot 0 of one thread; destinations must be distinct across repeats}}
  tile.apply "shfl.sync.bfly.b32" scope(cta) (%x, %x, 1 : i32, 31 : i32, -1 : i32)
      : !tirx.tensor<4x2x32xf32, local, #tirx.layout<S[(4, 2, 32) : (1@warpid, 0, 1@laneid)]>>,
        !tirx.tensor<4x2x32xf32, local, #tirx.layout<S[(4, 2, 32) : (1@warpid, 0, 1@laneid)]>>
  tirx.return
}

// -----

tirx.kernel @predicate_in_global() launch(grid = [1], block = [32]) {
  %x = tirx.alloc_local : !tirx.tensor<1x1xi1, local>
  // expected-error @+1 {{operand #0 (d) of 'ld.global.b32': needs a 32-bit type, got 'i1'}}
  tile.apply "ld.global.b32" scope(thread) (%x, %x)
      : !tirx.tensor<1x1xi1, local>, !tirx.tensor<1x1xi1, local>
  tirx.return
}

// -----

tirx.kernel @setp_bits_order() launch(grid = [1], block = [32]) {
  %p = tirx.alloc_local : !tirx.tensor<1x1xi1, local>
  %i = tirx.alloc_local : !tirx.tensor<1x1xi32, local>
  // expected-error @+1 {{'setp.lt.b32': .lt is not allowed on .b32 (bit types compare only with .eq and .ne)}}
  tile.apply "setp.lt.b32" scope(thread) (%p, %i, %i)
      : !tirx.tensor<1x1xi1, local>, !tirx.tensor<1x1xi32, local>, !tirx.tensor<1x1xi32, local>
  tirx.return
}

// -----

tirx.kernel @setp_unsigned_on_signed() launch(grid = [1], block = [32]) {
  %p = tirx.alloc_local : !tirx.tensor<1x1xi1, local>
  %i = tirx.alloc_local : !tirx.tensor<1x1xi32, local>
  // expected-error @+1 {{'setp.lo.s32': .lo compares unsigned integers, but the type is .s32}}
  tile.apply "setp.lo.s32" scope(thread) (%p, %i, %i)
      : !tirx.tensor<1x1xi1, local>, !tirx.tensor<1x1xi32, local>, !tirx.tensor<1x1xi32, local>
  tirx.return
}

// -----

tirx.kernel @setp_unordered_on_int() launch(grid = [1], block = [32]) {
  %p = tirx.alloc_local : !tirx.tensor<1x1xi1, local>
  %i = tirx.alloc_local : !tirx.tensor<1x1xi32, local>
  // expected-error @+1 {{'setp.nan.s32': .nan compares floats, but the type is .s32}}
  tile.apply "setp.nan.s32" scope(thread) (%p, %i, %i)
      : !tirx.tensor<1x1xi1, local>, !tirx.tensor<1x1xi32, local>, !tirx.tensor<1x1xi32, local>
  tirx.return
}

// -----

tirx.kernel @setp_ftz_f64() launch(grid = [1], block = [32]) {
  %p = tirx.alloc_local : !tirx.tensor<1x1xi1, local>
  %d = tirx.alloc_local : !tirx.tensor<1x1xf64, local>
  // expected-error @+1 {{'setp.eq.ftz.f64': .ftz is not allowed on .f64}}
  tile.apply "setp.eq.ftz.f64" scope(thread) (%p, %d, %d)
      : !tirx.tensor<1x1xi1, local>, !tirx.tensor<1x1xf64, local>, !tirx.tensor<1x1xf64, local>
  tirx.return
}

// -----

tirx.kernel @selp_condition_not_pred() launch(grid = [1], block = [32]) {
  %i = tirx.alloc_local : !tirx.tensor<1x1xi32, local>
  // expected-error @+1 {{operand #3 (c) of 'selp.b32': needs pred, got 'i32'}}
  tile.apply "selp.b32" scope(thread) (%i, %i, %i, %i)
      : !tirx.tensor<1x1xi32, local>, !tirx.tensor<1x1xi32, local>, !tirx.tensor<1x1xi32, local>, !tirx.tensor<1x1xi32, local>
  tirx.return
}

// -----

tirx.kernel @bad_attribute() launch(grid = [1], block = [32]) {
  // expected-error @+1 {{'shfl.sync.rot.b32': unknown modifier .rot}}
  "tile.apply"() <{instruction = #tile.ptx<"shfl.sync.rot.b32">, scope = 3 : i32, operand_kinds = [], operandSegmentSizes = array<i32: 0, 0>}> : () -> ()
  tirx.return
}

// -----

tirx.kernel @unchecked_bad_spelling() launch(grid = [1], block = [32]) {
  // expected-error @+1 {{'tile.apply' op 'vote.sync.most.pred': unknown modifier .most}}
  tile.apply "vote.sync.most.pred" scope(warp) (-1 : i32)
  tirx.return
}

// -----

// With a block of 48 x 2, one warp holds x = 32..47 of y = 0 and x = 0..15 of
// y = 1: x / 32 differs inside it.
tirx.kernel @warp_index_of_2d_block() launch(grid = [1], block = [48, 2]) {
  %tid = tirx.thread_idx x
  %c32 = arith.constant 32 : index
  %c1 = arith.constant 1 : index
  %warp = arith.divui %tid, %c32 : index
  %first = arith.cmpi ult, %warp, %c1 : index
  // expected-error @+1 {{'bar.warp.sync' is a warp-collective instruction: its predicate must be the same in every lane of a warp}}
  tile.apply "bar.warp.sync" scope(cta) (-1 : i32) pred(%first)
  tirx.return
}
