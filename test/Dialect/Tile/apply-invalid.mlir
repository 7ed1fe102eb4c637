// RUN: tirx-opt %s -split-input-file -verify-diagnostics -allow-unregistered-dialect

#reg = #tirx.layout<S[(2, 32, 4) : (1@warpid, 1@laneid, 1)]>
!regs = !tirx.tensor<2x32x4xf32, local, #reg>
!scalars = !tirx.tensor<2x32x4x1xf32, local, #reg>

tirx.kernel @unknown_family() launch(grid = [1], block = [64]) {
  %r = tirx.alloc_local : !scalars
  // expected-error @+1 {{unknown instruction family 'foo'}}
  tile.apply "foo.f32" scope(cta) (%r, %r) : !scalars, !scalars
  tirx.return
}

// -----

#reg = #tirx.layout<S[(2, 32, 4) : (1@warpid, 1@laneid, 1)]>
!scalars = !tirx.tensor<2x32x4x1xf32, local, #reg>
tirx.kernel @missing_rounding() launch(grid = [1], block = [64]) {
  %r = tirx.alloc_local : !scalars
  // expected-error @+1 {{'fma.f32': missing required rounding modifier (one of .rn, .rz, .rm, .rp)}}
  tile.apply "fma.f32" scope(cta) (%r, %r, %r, %r) : !scalars, !scalars, !scalars, !scalars
  tirx.return
}

// -----

#reg = #tirx.layout<S[(2, 32, 4) : (1@warpid, 1@laneid, 1)]>
!scalars = !tirx.tensor<2x32x4x1xf32, local, #reg>
tirx.kernel @wrong_operand_count() launch(grid = [1], block = [64]) {
  %r = tirx.alloc_local : !scalars
  // expected-error @+1 {{expects 3 operands, got 4}}
  tile.apply "add.rn.f32" scope(cta) (%r, %r, %r, %r) : !scalars, !scalars, !scalars, !scalars
  tirx.return
}

// -----

#reg = #tirx.layout<S[(2, 32, 4) : (1@warpid, 1@laneid, 1)]>
!scalars = !tirx.tensor<2x32x4x1xf32, local, #reg>
module attributes {tirx.chip = "sm_90"} {
tirx.kernel @three_input_needs_sm100() launch(grid = [1], block = [64]) {
  %r = tirx.alloc_local : !scalars
  // expected-error @+1 {{'max.f32' requires sm_100 but the target is sm_90}}
  tile.apply "max.f32" scope(cta) (%r, %r, %r, %r) : !scalars, !scalars, !scalars, !scalars
  tirx.return
}
}

// -----

module attributes {tirx.chip = "gfx90a"} {
  tirx.kernel @bad_chip() launch(grid = [1], block = [32]) {
    %r = tirx.alloc_local : !tirx.tensor<1xf32, local>
    // expected-error @-3 {{'tirx.chip' must be a chip name such as "sm_90" or "sm_90a", got "gfx90a"}}
    tile.apply "mov.b32" scope(thread) (%r, 0.0 : f32) : !tirx.tensor<1xf32, local>
    tirx.return
  }
}

// -----

#reg = #tirx.layout<S[(2, 32, 4) : (1@warpid, 1@laneid, 1)]>
!scalars = !tirx.tensor<2x32x4x1xf32, local, #reg>
tirx.kernel @immediate_destination() launch(grid = [1], block = [64]) {
  %r = tirx.alloc_local : !scalars
  // expected-error @+1 {{operand #0 (d) of 'add.rn.f32': is written, so it must be a tensor, got an immediate}}
  tile.apply "add.rn.f32" scope(cta) (1.0 : f32, %r, %r) : !scalars, !scalars
  tirx.return
}

// -----

tirx.kernel @scalar_destination(%x: f32) launch(grid = [1], block = [32]) {
  %r = tirx.alloc_local : !tirx.tensor<1xf32, local>
  // expected-error @+1 {{operand #0 (d) of 'mov.b32': is written, so it must be a tensor, got a scalar}}
  tile.apply "mov.b32" scope(thread) (%x, %r) : f32, !tirx.tensor<1xf32, local>
  tirx.return
}

// -----

tirx.kernel @scalar_memory(%x: f32) launch(grid = [1], block = [32]) {
  %r = tirx.alloc_local : !tirx.tensor<1xf32, local>
  // expected-error @+1 {{operand #1 (addr) of 'ld.global.b32': is a memory operand and must be a tensor}}
  tile.apply "ld.global.b32" scope(thread) (%r, %x) : !tirx.tensor<1xf32, local>, f32
  tirx.return
}

// -----

#reg = #tirx.layout<S[(2, 32, 4) : (1@warpid, 1@laneid, 1)]>
!scalars = !tirx.tensor<2x32x4x1xf32, local, #reg>
tirx.kernel @wrong_immediate_type() launch(grid = [1], block = [64]) {
  %r = tirx.alloc_local : !scalars
  // expected-error @+1 {{operand #2 (b) of 'add.rn.f32': needs f32, got 'f64'}}
  tile.apply "add.rn.f32" scope(cta) (%r, %r, 1.0 : f64) : !scalars, !scalars
  tirx.return
}

// -----

#reg = #tirx.layout<S[(2, 32, 4) : (1@warpid, 1@laneid, 1)]>
tirx.kernel @wrong_element_type() launch(grid = [1], block = [64]) {
  %r = tirx.alloc_local : !tirx.tensor<2x32x4x1xi32, local, #reg>
  // expected-error @+1 {{operand #0 (d) of 'fma.rn.f32': needs f32, got 'i32'}}
  tile.apply "fma.rn.f32" scope(cta) (%r, %r, %r, %r) : !tirx.tensor<2x32x4x1xi32, local, #reg>, !tirx.tensor<2x32x4x1xi32, local, #reg>, !tirx.tensor<2x32x4x1xi32, local, #reg>, !tirx.tensor<2x32x4x1xi32, local, #reg>
  tirx.return
}

// -----

#reg = #tirx.layout<S[(2, 32, 4) : (1@warpid, 1@laneid, 1)]>
tirx.kernel @wrong_width(%A: !tirx.tensor<2x32x4xf16, global, align = 16>) launch(grid = [1], block = [64]) {
  %r = tirx.alloc_local : !tirx.tensor<2x32x4xf16, local, #reg>
  // expected-error @+1 {{operand #0 (d) of 'ld.global.v4.b32': needs a 32-bit type, got 'f16'}}
  tile.apply "ld.global.v4.b32" scope(cta) (%r, %A) : !tirx.tensor<2x32x4xf16, local, #reg>, !tirx.tensor<2x32x4xf16, global, align = 16>
  tirx.return
}

// -----

tirx.kernel @packed_needs_carrier() launch(grid = [1], block = [32]) {
  %r = tirx.alloc_local : !tirx.tensor<1xf32, local>
  // expected-error @+1 {{operand #0 (d) of 'add.rn.f16x2': needs u32 (carrier of f16x2), got 'f32'}}
  tile.apply "add.rn.f16x2" scope(thread) (%r, %r, %r) : !tirx.tensor<1xf32, local>, !tirx.tensor<1xf32, local>, !tirx.tensor<1xf32, local>
  tirx.return
}

// -----

#reg = #tirx.layout<S[(2, 32, 4) : (1@warpid, 1@laneid, 1)]>
tirx.kernel @register_in_global(%A: !tirx.tensor<2x32x4xf32, global, align = 16>, %B: !tirx.tensor<2x32x4xf32, global, align = 16>) launch(grid = [1], block = [64]) {
  // expected-error @+1 {{operand #0 (d): a register operand must be a local tensor, got a global tensor}}
  tile.apply "ld.global.v4.b32" scope(cta) (%B, %A) : !tirx.tensor<2x32x4xf32, global, align = 16>, !tirx.tensor<2x32x4xf32, global, align = 16>
  tirx.return
}

// -----

#reg = #tirx.layout<S[(2, 32, 4) : (1@warpid, 1@laneid, 1)]>
tirx.kernel @wrong_space() launch(grid = [1], block = [64]) {
  %r = tirx.alloc_local : !tirx.tensor<2x32x4xf32, local, #reg>
  %s = tirx.alloc_shared : !tirx.tensor<2x32x4xf32, shared, align = 16>
  // expected-error @+1 {{operand #1 (addr) of 'ld.global.v4.b32': accesses global memory, but the tensor is shared}}
  tile.apply "ld.global.v4.b32" scope(cta) (%r, %s) : !tirx.tensor<2x32x4xf32, local, #reg>, !tirx.tensor<2x32x4xf32, shared, align = 16>
  tirx.return
}

// -----

#reg = #tirx.layout<S[(2, 32, 4) : (1@warpid, 1@laneid, 1)]>
!regs = !tirx.tensor<2x32x4xf32, local, #reg>
tirx.kernel @missing_atom_axis() launch(grid = [1], block = [64]) {
  %r = tirx.alloc_local : !regs
  // expected-error @+1 {{operand #0 (d): the innermost dimension must be the instruction's atom of 1 element(s), but the shape is (2, 32, 4); view it as (2, 32, 4, 1)}}
  tile.apply "fma.rn.f32" scope(cta) (%r, %r, 2.0 : f32, 1.0 : f32) : !regs, !regs
  tirx.return
}

// -----

#reg = #tirx.layout<S[(2, 32, 4) : (1@warpid, 1@laneid, 1)]>
tirx.kernel @wrong_vector_atom(%A: !tirx.tensor<2x32x4xf32, global, align = 16>) launch(grid = [1], block = [64]) {
  %r = tirx.alloc_local : !tirx.tensor<2x32x4xf32, local, #reg>
  // expected-error @+1 {{operand #0 (d): the innermost dimension must be the instruction's atom of 2 element(s), but the shape is (2, 32, 4)}}
  tile.apply "ld.global.v2.b32" scope(cta) (%r, %A) : !tirx.tensor<2x32x4xf32, local, #reg>, !tirx.tensor<2x32x4xf32, global, align = 16>
  tirx.return
}

// -----

#reg = #tirx.layout<S[(2, 32, 4) : (1@warpid, 1@laneid, 1)]>
!scalars = !tirx.tensor<2x32x4x1xf32, local, #reg>
tirx.kernel @group_mismatch() launch(grid = [1], block = [128]) {
  %r = tirx.alloc_local : !scalars
  // expected-error @+1 {{operand #0 (d): group extents (2, 32) do not match the threads of scope cta: (4, 32) for a block of 128 threads}}
  tile.apply "abs.f32" scope(cta) (%r, %r) : !scalars, !scalars
  tirx.return
}

// -----

#reg = #tirx.layout<S[(2, 32, 4) : (1@warpid, 1@laneid, 1)]>
!scalars = !tirx.tensor<2x32x4x1xf32, local, #reg>
tirx.kernel @rank_too_small() launch(grid = [1], block = [64]) {
  %r = tirx.alloc_local : !tirx.tensor<4xf32, local>
  // expected-error @+1 {{operand #0 (d): shape (4) has rank 1 but scope cta needs 2 group dimension(s) plus the atom}}
  tile.apply "abs.f32" scope(cta) (%r, %r) : !tirx.tensor<4xf32, local>, !tirx.tensor<4xf32, local>
  tirx.return
}

// -----

tirx.kernel @partial_warps() launch(grid = [1], block = [48]) {
  %r = tirx.alloc_local : !tirx.tensor<1xf32, local>
  // expected-error @+1 {{scope cta needs whole warps, but the block has 48 threads}}
  tile.apply "abs.f32" scope(cta) (%r, %r) : !tirx.tensor<1xf32, local>, !tirx.tensor<1xf32, local>
  tirx.return
}

// -----

tirx.kernel @partial_warpgroups() launch(grid = [1], block = [64]) {
  %r = tirx.alloc_local : !tirx.tensor<1xf32, local>
  // expected-error @+1 {{scope warpgroup needs whole warpgroups (128 threads), but the block has 64 threads}}
  tile.apply "abs.f32" scope(warpgroup) (%r, %r) : !tirx.tensor<1xf32, local>, !tirx.tensor<1xf32, local>
  tirx.return
}

// -----

#reg = #tirx.layout<S[(2, 32, 4) : (1@warpid, 1@laneid, 1)]>
tirx.kernel @repeat_mismatch() launch(grid = [1], block = [64]) {
  %d = tirx.alloc_local : !tirx.tensor<2x32x4x1xf32, local, #reg>
  %a = tirx.alloc_local : !tirx.tensor<2x32x2x1xf32, local, #tirx.layout<S[(2, 32, 2) : (1@warpid, 1@laneid, 1)]>>
  // expected-error @+1 {{operand #1 (a): group x repeat shape (2, 32, 2) differs from (2, 32, 4) of operand #0 (d)}}
  tile.apply "abs.f32" scope(cta) (%d, %a) : !tirx.tensor<2x32x4x1xf32, local, #reg>, !tirx.tensor<2x32x2x1xf32, local, #tirx.layout<S[(2, 32, 2) : (1@warpid, 1@laneid, 1)]>>
  tirx.return
}

// -----

// Lanes advance by 2 along dimension 1, so group coordinate (warp 0, lane 1)
// reaches elements owned by lane 2.
tirx.kernel @not_owned() launch(grid = [1], block = [64]) {
  %r = tirx.alloc_local : !tirx.tensor<2x32x4x1xf32, local, #tirx.layout<S[(2, 32, 4) : (1@laneid, 2@laneid, 1)]>>
  // expected-error @+1 {{operand #0 (d): element (0, 1, 0, 0) is owned by laneid=2 but scope cta executes it on thread 1 (warp 0, lane 1); the layout must map the group axes to the executing threads}}
  tile.apply "abs.f32" scope(cta) (%r, %r) : !tirx.tensor<2x32x4x1xf32, local, #tirx.layout<S[(2, 32, 4) : (1@laneid, 2@laneid, 1)]>>, !tirx.tensor<2x32x4x1xf32, local, #tirx.layout<S[(2, 32, 4) : (1@laneid, 2@laneid, 1)]>>
  tirx.return
}

// -----

// A distributed tile at thread scope: every thread would touch lane 0's data.
tirx.kernel @thread_scope_distributed() launch(grid = [1], block = [32]) {
  %r = tirx.alloc_local : !tirx.tensor<32x1xf32, local, #tirx.layout<S[32 : 1@laneid]>>
  // expected-error @+1 {{element (0, 0) is owned by laneid=0 but scope thread executes it on thread 1 (warp 0, lane 1)}}
  tile.apply "abs.f32" scope(thread) (%r, %r) : !tirx.tensor<32x1xf32, local, #tirx.layout<S[32 : 1@laneid]>>, !tirx.tensor<32x1xf32, local, #tirx.layout<S[32 : 1@laneid]>>
  tirx.return
}

// -----

// Zero stride: all four repeats write slot 0.
tirx.kernel @aliased_destination() launch(grid = [1], block = [32]) {
  %r = tirx.alloc_local : !tirx.tensor<32x4x1xf32, local, #tirx.layout<S[(32, 4) : (1@laneid, 0)]>>
  // expected-error @+1 {{operand #0 (d): destination elements (0, 0, 0) and (0, 1, 0) share register slot 0 of one thread; destinations must be distinct across repeats}}
  tile.apply "mov.b32" scope(warp) (%r, 0.0 : f32) : !tirx.tensor<32x4x1xf32, local, #tirx.layout<S[(32, 4) : (1@laneid, 0)]>>
  tirx.return
}

// -----

#reg = #tirx.layout<S[(2, 32, 4) : (1@warpid, 1@laneid, 1)]>
tirx.kernel @underaligned(%A: !tirx.tensor<2x32x4xf32, global, align = 4>) launch(grid = [1], block = [64]) {
  %r = tirx.alloc_local : !tirx.tensor<2x32x4xf32, local, #reg>
  // expected-error @+1 {{operand #1 (addr): the tensor is aligned to 4 byte(s) but each access is a 16-byte vector; declare align = 16 (or more) on the tensor}}
  tile.apply "ld.global.v4.b32" scope(cta) (%r, %A) : !tirx.tensor<2x32x4xf32, local, #reg>, !tirx.tensor<2x32x4xf32, global, align = 4>
  tirx.return
}

// -----

#reg = #tirx.layout<S[(2, 32, 4) : (1@warpid, 1@laneid, 1)]>
tirx.kernel @no_align(%A: !tirx.tensor<2x32x4xf32, global>) launch(grid = [1], block = [64]) {
  %r = tirx.alloc_local : !tirx.tensor<2x32x4xf32, local, #reg>
  // expected-error @+1 {{the tensor is aligned to 4 byte(s) but each access is a 16-byte vector}}
  tile.apply "ld.global.v4.b32" scope(cta) (%r, %A) : !tirx.tensor<2x32x4xf32, local, #reg>, !tirx.tensor<2x32x4xf32, global>
  tirx.return
}

// -----

// Column-major memory: the 4 elements of an atom are 64 apart.
#reg = #tirx.layout<S[(2, 32, 4) : (1@warpid, 1@laneid, 1)]>
tirx.kernel @not_contiguous(%A: !tirx.tensor<2x32x4xf32, global, #tirx.layout<S[(2, 32, 4) : (32, 1, 64)]>, align = 16>) launch(grid = [1], block = [64]) {
  %r = tirx.alloc_local : !tirx.tensor<2x32x4xf32, local, #reg>
  // expected-error @+1 {{operand #1 (addr): the atom at (0, 0, 0) is not contiguous in memory: its element 1 is at offset 64, expected 1}}
  tile.apply "ld.global.v4.b32" scope(cta) (%r, %A) : !tirx.tensor<2x32x4xf32, local, #reg>, !tirx.tensor<2x32x4xf32, global, #tirx.layout<S[(2, 32, 4) : (32, 1, 64)]>, align = 16>
  tirx.return
}

// -----

// An offset of one element breaks the 16-byte alignment of every atom.
#reg = #tirx.layout<S[(2, 32, 4) : (1@warpid, 1@laneid, 1)]>
tirx.kernel @misaligned_atom(%A: !tirx.tensor<2x32x4xf32, global, #tirx.layout<S[(2, 32, 4) : (128, 4, 1)] + 1>, align = 16>) launch(grid = [1], block = [64]) {
  %r = tirx.alloc_local : !tirx.tensor<2x32x4xf32, local, #reg>
  // expected-error @+1 {{operand #1 (addr): the atom at (0, 0, 0) starts at element offset 1 (byte 4), which is not aligned to the 16-byte vector}}
  tile.apply "ld.global.v4.b32" scope(cta) (%r, %A) : !tirx.tensor<2x32x4xf32, local, #reg>, !tirx.tensor<2x32x4xf32, global, #tirx.layout<S[(2, 32, 4) : (128, 4, 1)] + 1>, align = 16>
  tirx.return
}

// -----

// A dynamic row offset of 3 floats (12 bytes) proves only 4-byte alignment.
tirx.kernel @dynamic_misalignment(%A: !tirx.tensor<64x3xf32, global, align = 16>) launch(grid = [1], block = [64]) {
  %tx = tirx.thread_idx x
  %r = tirx.alloc_local : !tirx.tensor<2xf32, local>
  // expected-note @+1 {{the region is here}}
  %row = tirx.region %A[%tx, 0] [1, 2] : !tirx.tensor<64x3xf32, global, align = 16>
  %v = tirx.view %row : !tirx.tensor<1x2xf32, global, #tirx.layout<S[(1, 2) : (3, 1)]>, align = 4>
                     -> !tirx.tensor<2xf32, global, #tirx.layout<S[(1, 2) : (3, 1)]>, align = 4>
  // expected-error @+1 {{operand #1 (addr): each access is a 8-byte vector, but this region of a tensor declared align = 16 is only known to be 4-byte aligned: its runtime offset in dimension 0 is not known to be a multiple of 2 (each step moves the base by 12 bytes); compute it as a multiple of 2}}
  tile.apply "ld.global.v2.b32" scope(thread) (%r, %v) : !tirx.tensor<2xf32, local>, !tirx.tensor<2xf32, global, #tirx.layout<S[(1, 2) : (3, 1)]>, align = 4>
  tirx.return
}

// -----

// Thread scope: every thread stores the same row twice.
tirx.kernel @aliased_store(%A: !tirx.tensor<2x4xf32, global, #tirx.layout<S[(2, 4) : (0, 1)]>, align = 16>) launch(grid = [1], block = [32]) {
  %r = tirx.alloc_local : !tirx.tensor<2x4xf32, local>
  // expected-error @+1 {{operand #0 (addr): two repeats of one thread store to element offset 0; destinations must be distinct across repeats}}
  tile.apply "st.global.v4.b32" scope(thread) (%A, %r) : !tirx.tensor<2x4xf32, global, #tirx.layout<S[(2, 4) : (0, 1)]>, align = 16>, !tirx.tensor<2x4xf32, local>
  tirx.return
}

// -----

func.func @outside_kernel() {
  %r = "test.opaque"() : () -> !tirx.tensor<1xf32, local>
  // expected-error @+1 {{must be inside a tirx.kernel (its launch configuration defines the executing threads)}}
  tile.apply "abs.f32" scope(thread) (%r, %r) : !tirx.tensor<1xf32, local>, !tirx.tensor<1xf32, local>
  return
}

// -----

tirx.kernel @bad_scope() launch(grid = [1], block = [32]) {
  %r = tirx.alloc_local : !tirx.tensor<1xf32, local>
  // expected-error @+1 {{unknown scope 'cluster'; expected thread, warp, warpgroup or cta}}
  tile.apply "abs.f32" scope(cluster) (%r, %r) : !tirx.tensor<1xf32, local>, !tirx.tensor<1xf32, local>
  tirx.return
}

// -----

tirx.kernel @bad_immediate() launch(grid = [1], block = [32]) {
  %r = tirx.alloc_local : !tirx.tensor<1xf32, local>
  // expected-error @+1 {{expected an SSA value or a typed integer/float immediate such as '2.0 : f32', got "x"}}
  tile.apply "abs.f32" scope(thread) (%r, "x") : !tirx.tensor<1xf32, local>
  tirx.return
}

// -----

tirx.kernel @kinds_mismatch() launch(grid = [1], block = [32]) {
  %r = tirx.alloc_local : !tirx.tensor<1xf32, local>
  // expected-error @+1 {{has 1 SSA operands but operand_kinds uses 0}}
  "tile.apply"(%r) <{instruction = #tile.ptx<"abs.f32">, scope = 0 : i32, operand_kinds = [1.0 : f32, 2.0 : f32], operandSegmentSizes = array<i32: 1, 0>}> : (!tirx.tensor<1xf32, local>) -> ()
  tirx.return
}

// -----

tirx.kernel @kinds_too_many() launch(grid = [1], block = [32]) {
  %r = tirx.alloc_local : !tirx.tensor<1xf32, local>
  // expected-error @+1 {{operand_kinds names more SSA operands than the op has}}
  "tile.apply"(%r) <{instruction = #tile.ptx<"abs.f32">, scope = 0 : i32, operand_kinds = [unit, unit], operandSegmentSizes = array<i32: 1, 0>}> : (!tirx.tensor<1xf32, local>) -> ()
  tirx.return
}

// -----

tirx.kernel @kinds_bad_entry() launch(grid = [1], block = [32]) {
  %r = tirx.alloc_local : !tirx.tensor<1xf32, local>
  // expected-error @+1 {{operand #1 must be an SSA value or an integer/float immediate, got "x"}}
  "tile.apply"(%r) <{instruction = #tile.ptx<"abs.f32">, scope = 0 : i32, operand_kinds = [unit, "x"], operandSegmentSizes = array<i32: 1, 0>}> : (!tirx.tensor<1xf32, local>) -> ()
  tirx.return
}

// -----

tirx.kernel @scalar_store_source(%A: !tirx.tensor<1x1xf32, global>) launch(grid = [1], block = [32]) {
  // expected-error @+1 {{operand #1 (a) of 'st.global.b32': cannot be a scalar}}
  tile.apply "st.global.b32" scope(thread) (%A, 1.0 : f32) : !tirx.tensor<1x1xf32, global>
  tirx.return
}

// -----

tirx.kernel @too_large() launch(grid = [1], block = [32]) {
  %r = tirx.alloc_local : !tirx.tensor<8388608x1xf32, local>
  // expected-error @+1 {{operand #0 (d): tile has 8388608 elements; at most 4194304 can be verified statically}}
  tile.apply "abs.f32" scope(thread) (%r, %r) : !tirx.tensor<8388608x1xf32, local>, !tirx.tensor<8388608x1xf32, local>
  tirx.return
}

// -----

module attributes {tirx.chip = "sm_90"} {
tirx.kernel @ptx_floor() launch(grid = [1], block = [32]) {
  %d = tirx.alloc_local : !tirx.tensor<1xui32, local>
  %a = tirx.alloc_local : !tirx.tensor<1xf32, local>
  // expected-error @+1 {{'cvt.rna.satfinite.tf32.f32' requires PTX ISA 8.1 but the target is PTX 8.0 (raise it with --tirx-to-ptx="features=+ptx81")}}
  tile.apply "cvt.rna.satfinite.tf32.f32" scope(thread) (%d, %a) : !tirx.tensor<1xui32, local>, !tirx.tensor<1xf32, local>
  tirx.return
}
}

// -----

// Without a named target, the floors wait: the op verifies, and lowering
// refuses (test/Conversion/dispatch-untargeted.mlir).
tirx.kernel @no_target_no_floor() launch(grid = [1], block = [32]) {
  %d = tirx.alloc_local : !tirx.tensor<1xui32, local>
  %a = tirx.alloc_local : !tirx.tensor<1xf32, local>
  tile.apply "cvt.rna.satfinite.tf32.f32" scope(thread) (%d, %a) : !tirx.tensor<1xui32, local>, !tirx.tensor<1xf32, local>
  tirx.return
}

// -----

module attributes {tirx.ptx = "8.1"} {
  tirx.kernel @bad_ptx_attr() launch(grid = [1], block = [32]) {
    %r = tirx.alloc_local : !tirx.tensor<1xf32, local>
    // expected-error @-3 {{'tirx.ptx' must be the PTX ISA version times ten, e.g. 80, got "8.1"}}
    tile.apply "abs.f32" scope(thread) (%r, %r) : !tirx.tensor<1xf32, local>, !tirx.tensor<1xf32, local>
    tirx.return
  }
}
