// RUN: tirx-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{'tirx.kernel' op argument #0 is a local tensor; kernel arguments must be global tensors or scalars}}
tirx.kernel @local_arg(%A: !tirx.tensor<4xf32, local>) launch(grid = [1], block = [32]) {
  tirx.return
}

// -----

// expected-error @+1 {{'tirx.kernel' op argument #0 has type 'vector<4xf32>'; kernel arguments must be global tensors or scalars}}
tirx.kernel @vector_arg(%A: vector<4xf32>) launch(grid = [1], block = [32]) {
  tirx.return
}

// -----

// expected-error @+1 {{'tirx.kernel' op must not return values; write results through global tensor arguments}}
tirx.kernel @returns() -> i32 launch(grid = [1], block = [32]) {
  tirx.return
}

// -----

// expected-error @+1 {{block extent x = 0 is out of range [1, 1024]}}
tirx.kernel @bad_block() launch(grid = [1], block = [0]) {
  tirx.return
}

// -----

// Thread-block clusters: one extent per grid extent, each dividing it, at
// most 8 CTAs in all.
// expected-error @+1 {{cluster must have one extent per grid extent (1), got 2}}
tirx.kernel @cluster_rank() launch(grid = [8], block = [32], cluster = [2, 1]) {
  tirx.return
}

// -----

// expected-error @+1 {{cluster extent x = 0 is out of range [1, 8]}}
tirx.kernel @cluster_zero() launch(grid = [8], block = [32], cluster = [0]) {
  tirx.return
}

// -----

// expected-error @+1 {{cluster extent y = 2 does not divide grid extent 3}}
tirx.kernel @cluster_divides() launch(grid = [4, 3], block = [32], cluster = [1, 2]) {
  tirx.return
}

// -----

// expected-error @+1 {{a cluster of 16 CTAs is over the portable maximum of 8}}
tirx.kernel @cluster_size() launch(grid = [8, 8], block = [32], cluster = [4, 4]) {
  tirx.return
}

// -----

module attributes {tirx.chip = "sm_80"} {
// expected-error @+1 {{'tirx.kernel' op runs in thread-block clusters, which need sm_90 or later, but the target is sm_80}}
tirx.kernel @cluster_sm80() launch(grid = [8], block = [32], cluster = [2]) {
  tirx.return
}
}

// -----

// expected-error @+1 {{expected 'launch'}}
tirx.kernel @no_launch() {
  tirx.return
}

// -----

func.func @outside() {
  // expected-error @+1 {{'tirx.alloc_local' op must be inside a tirx.kernel}}
  %r = tirx.alloc_local : !tirx.tensor<4xf32, local>
  return
}

// -----

tirx.kernel @wrong_space() launch(grid = [1], block = [32]) {
  // expected-error @+1 {{'tirx.alloc_local' op result must be a local tensor, got '!tirx.tensor<4xf32, global>'}}
  %r = tirx.alloc_local : !tirx.tensor<4xf32, global>
  tirx.return
}

// -----

tirx.kernel @wrong_shared_space() launch(grid = [1], block = [32]) {
  // expected-error @+1 {{'tirx.alloc_shared' op result must be a shared tensor}}
  %r = tirx.alloc_shared : !tirx.tensor<4xf32, local>
  tirx.return
}

// -----

tirx.kernel @view_count(%A: !tirx.tensor<8xf32, global>) launch(grid = [1], block = [32]) {
  // expected-error @+1 {{'tirx.view' op a shape view keeps the element count: '!tirx.tensor<8xf32, global>' has 8, '!tirx.tensor<2x3xf32, global>' has 6}}
  %v = tirx.view %A : !tirx.tensor<8xf32, global> -> !tirx.tensor<2x3xf32, global>
  tirx.return
}

// -----

tirx.kernel @view_space(%A: !tirx.tensor<8xf32, global>) launch(grid = [1], block = [32]) {
  // expected-error @+1 {{'tirx.view' op cannot change the memory space (global -> shared)}}
  %v = tirx.view %A : !tirx.tensor<8xf32, global> -> !tirx.tensor<8xf32, shared>
  tirx.return
}

// -----

tirx.kernel @view_align(%A: !tirx.tensor<8xf32, global, align = 16>) launch(grid = [1], block = [32]) {
  // expected-error @+1 {{'tirx.view' op cannot change the alignment (16 -> 32)}}
  %v = tirx.view %A : !tirx.tensor<8xf32, global, align = 16> -> !tirx.tensor<8xf32, global, align = 32>
  tirx.return
}

// -----

tirx.kernel @view_layout() launch(grid = [1], block = [64]) {
  %r = tirx.alloc_local : !tirx.tensor<2x32x4xf32, local, #tirx.layout<S[(2, 32, 4) : (1@warpid, 1@laneid, 1)]>>
  // expected-error @+1 {{'tirx.view' op result layout must be #tirx.layout<S[(2, 32, 4) : (1@warpid, 1@laneid, 1)]>, got #tirx.layout<S[(2, 32, 4) : (1@laneid, 1@warpid, 1)]>}}
  %v = tirx.view %r : !tirx.tensor<2x32x4xf32, local, #tirx.layout<S[(2, 32, 4) : (1@warpid, 1@laneid, 1)]>>
                   -> !tirx.tensor<256xf32, local, #tirx.layout<S[(2, 32, 4) : (1@laneid, 1@warpid, 1)]>>
  tirx.return
}

// -----

tirx.kernel @dtype_view_rank(%A: !tirx.tensor<2x4xf32, global>) launch(grid = [1], block = [32]) {
  // expected-error @+1 {{'tirx.view' op a dtype view keeps every dimension but the innermost}}
  %v = tirx.view %A : !tirx.tensor<2x4xf32, global> -> !tirx.tensor<16xf16, global>
  tirx.return
}

// -----

tirx.kernel @dtype_view_narrow(%A: !tirx.tensor<2x4xf32, global>) launch(grid = [1], block = [32]) {
  // expected-error @+1 {{'tirx.view' op viewing 32-bit elements as 16-bit multiplies the innermost extent by 2: expected 8, got 4}}
  %v = tirx.view %A : !tirx.tensor<2x4xf32, global> -> !tirx.tensor<2x4xf16, global>
  tirx.return
}

// -----

tirx.kernel @dtype_view_wide(%A: !tirx.tensor<2x3xf16, global>) launch(grid = [1], block = [32]) {
  // expected-error @+1 {{'tirx.view' op viewing 16-bit elements as 32-bit needs the innermost extent (3) to be divisible by 2}}
  %v = tirx.view %A : !tirx.tensor<2x3xf16, global> -> !tirx.tensor<2x1xf32, global>
  tirx.return
}

// -----

tirx.kernel @dtype_view_wide_extent(%A: !tirx.tensor<2x4xf16, global>) launch(grid = [1], block = [32]) {
  // expected-error @+1 {{'tirx.view' op viewing 16-bit elements as 32-bit divides the innermost extent by 2: expected 2, got 4}}
  %v = tirx.view %A : !tirx.tensor<2x4xf16, global> -> !tirx.tensor<2x4xf32, global>
  tirx.return
}

// -----

tirx.kernel @dtype_view_pack(%A: !tirx.tensor<2x4xf16, global, #tirx.layout<S[(2, 4) : (1, 2)]>>) launch(grid = [1], block = [32]) {
  // expected-error @+1 {{'tirx.view' op cannot pack the layout: cannot pack by 2: the innermost shard iter has extent 4 and stride 2; it must be on m with stride 1 and an extent divisible by 2}}
  %v = tirx.view %A : !tirx.tensor<2x4xf16, global, #tirx.layout<S[(2, 4) : (1, 2)]>> -> !tirx.tensor<2x2xf32, global>
  tirx.return
}

// -----

tirx.kernel @region_bounds(%A: !tirx.tensor<8x4xf32, global>) launch(grid = [1], block = [32]) {
  // expected-error @+1 {{invalid region: dimension 0: region [6, 6 + 4) is out of bounds [0, 8)}}
  %r = tirx.region %A[6, 0] [4, 4] : !tirx.tensor<8x4xf32, global>
  tirx.return
}

// -----

tirx.kernel @region_size(%A: !tirx.tensor<8x4xf32, global>) launch(grid = [1], block = [32]) {
  // expected-error @+1 {{invalid region: dimension 1: size 5 is out of range [1, 4]}}
  %r = tirx.region %A[0, 0] [1, 5] : !tirx.tensor<8x4xf32, global>
  tirx.return
}

// -----

tirx.kernel @region_rank(%A: !tirx.tensor<8x4xf32, global>) launch(grid = [1], block = [32]) {
  // expected-error @+1 {{region needs one offset and one size per dimension}}
  %r = tirx.region %A[0] [1] : !tirx.tensor<8x4xf32, global>
  tirx.return
}

// -----

tirx.kernel @region_local_dynamic() launch(grid = [1], block = [32]) {
  %tx = tirx.thread_idx x
  %r = tirx.alloc_local : !tirx.tensor<8x4xf32, local>
  // expected-error @+1 {{a local tensor's region needs constant offsets}}
  %s = tirx.region %r[%tx, 0] [1, 4] : !tirx.tensor<8x4xf32, local>
  tirx.return
}

// -----

tirx.kernel @region_dynamic_split(%A: !tirx.tensor<8x4xf32, global, #tirx.layout<S[(2, 4, 4) : (16, 1, 4)]>>) launch(grid = [1], block = [32]) {
  %tx = tirx.thread_idx x
  // expected-error @+1 {{invalid region: dimension 0: a dynamic offset needs the dimension to map to one layout iter, but it maps to 2}}
  %s = tirx.region %A[%tx, 0] [1, 4] : !tirx.tensor<8x4xf32, global, #tirx.layout<S[(2, 4, 4) : (16, 1, 4)]>>
  tirx.return
}

// -----

tirx.kernel @region_not_subrange(%A: !tirx.tensor<8x4xf32, global, #tirx.layout<S[(2, 4, 4) : (16, 1, 4)]>>) launch(grid = [1], block = [32]) {
  // expected-error @+1 {{is not a sub-range of one layout iter}}
  %s = tirx.region %A[3, 0] [2, 4] : !tirx.tensor<8x4xf32, global, #tirx.layout<S[(2, 4, 4) : (16, 1, 4)]>>
  tirx.return
}

// -----

tirx.kernel @region_grouping(%A: !tirx.tensor<6x4xf32, global, #tirx.layout<S[(4, 6) : (6, 1)]>>) launch(grid = [1], block = [32]) {
  // expected-error @+1 {{invalid region: dimension 1 (extent 4) does not align with layout iter (6, 1); the layout cannot be grouped by this shape}}
  %s = tirx.region %A[0, 0] [1, 4] : !tirx.tensor<6x4xf32, global, #tirx.layout<S[(4, 6) : (6, 1)]>>
  tirx.return
}

// -----

"builtin.module"() ({
  // expected-error @+1 {{'tirx.return' op expects parent op 'tirx.kernel'}}
  "tirx.return"() : () -> ()
}) : () -> ()

// -----

tirx.kernel @region_dynamic_thread_axis() launch(grid = [1], block = [32]) {
  %tx = tirx.thread_idx x
  %r = tirx.alloc_local : !tirx.tensor<32x4xf32, local, #tirx.layout<S[(32, 4) : (1@laneid, 1)]>>
  // expected-error @+1 {{a dynamic offset must index the memory axis m, but its dimension maps to laneid}}
  %s = tirx.region %r[%tx, 0] [1, 4] : !tirx.tensor<32x4xf32, local, #tirx.layout<S[(32, 4) : (1@laneid, 1)]>>
  tirx.return
}

// -----

tirx.kernel @region_generic_rank(%A: !tirx.tensor<8x4xf32, global>) launch(grid = [1], block = [32]) {
  // expected-error @+1 {{'tirx.region' op needs one offset and one size per dimension (rank 2), got 1 and 1}}
  %r = "tirx.region"(%A) <{static_offsets = array<i64: 0>, static_sizes = array<i64: 1>}> : (!tirx.tensor<8x4xf32, global>) -> !tirx.tensor<1x4xf32, global>
  tirx.return
}

// -----

tirx.kernel @region_generic_result(%A: !tirx.tensor<8x4xf32, global>) launch(grid = [1], block = [32]) {
  // expected-error @+1 {{'tirx.region' op result type must be '!tirx.tensor<1x4xf32, global, #tirx.layout<S[(1, 4) : (4, 1)] + 8>>', got '!tirx.tensor<1x4xf32, global>'}}
  %r = "tirx.region"(%A) <{static_offsets = array<i64: 2, 0>, static_sizes = array<i64: 1, 4>}> : (!tirx.tensor<8x4xf32, global>) -> !tirx.tensor<1x4xf32, global>
  tirx.return
}

// -----

tirx.kernel @slot_of_global(%A: !tirx.tensor<4xf32, global>) launch(grid = [1], block = [32]) {
  // expected-error @+1 {{'tirx.slot_load' op needs a local tensor, got '!tirx.tensor<4xf32, global>'}}
  %x = tirx.slot_load %A[0] : !tirx.tensor<4xf32, global> -> f32
  tirx.return
}

// -----

tirx.kernel @slot_out_of_range() launch(grid = [1], block = [32]) {
  %r = tirx.alloc_local : !tirx.tensor<4xf32, local>
  %c = arith.constant 1.0 : f32
  // expected-error @+1 {{'tirx.slot_store' op slot 4 is outside the thread's 4 slots}}
  tirx.slot_store %c, %r[4] : f32, !tirx.tensor<4xf32, local>
  tirx.return
}

// -----

tirx.kernel @slot_type() launch(grid = [1], block = [32]) {
  %r = tirx.alloc_local : !tirx.tensor<4xui32, local>
  // expected-error @+1 {{'tirx.slot_load' op value type 'ui32' differs from the storage type 'i32' of '!tirx.tensor<4xui32, local>'}}
  %x = tirx.slot_load %r[0] : !tirx.tensor<4xui32, local> -> ui32
  tirx.return
}

// -----

tirx.kernel @element_ptr_local() launch(grid = [1], block = [32]) {
  %r = tirx.alloc_local : !tirx.tensor<4xf32, local>
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'tirx.element_ptr' op needs a global or shared tensor; register tiles are accessed by slot}}
  %p = tirx.element_ptr %r[%c0] : !tirx.tensor<4xf32, local> -> !llvm.ptr
  tirx.return
}

// -----

tirx.kernel @element_ptr_rank(%A: !tirx.tensor<4x4xf32, global>) launch(grid = [1], block = [32]) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'tirx.element_ptr' op needs 2 indices, got 1}}
  %p = tirx.element_ptr %A[%c0] : !tirx.tensor<4x4xf32, global> -> !llvm.ptr<1>
  tirx.return
}

// -----

tirx.kernel @element_ptr_space(%A: !tirx.tensor<4xf32, global>) launch(grid = [1], block = [32]) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'tirx.element_ptr' op a global tensor's address is a !llvm.ptr<1>}}
  %p = tirx.element_ptr %A[%c0] : !tirx.tensor<4xf32, global> -> !llvm.ptr<3>
  tirx.return
}

// -----

func.func @host() {
  // expected-error @+1 {{'tirx.launch' op 'missing' does not name a tirx.kernel}}
  tirx.launch @missing()
  return
}

// -----

tirx.kernel @k(%A: !tirx.tensor<4xf32, global>) launch(grid = [1], block = [32]) {
  tirx.return
}
func.func @host(%a: i64) {
  // expected-error @+1 {{'tirx.launch' op argument #0 of @k is a global tensor: pass a memref or an !llvm.ptr<1>, got 'i64'}}
  tirx.launch @k(%a) : i64
  return
}

// -----

tirx.kernel @dtype_view_rank() launch(grid = [1], block = [32]) {
  %r = tirx.alloc_local : !tirx.tensor<2x4xf32, local>
  // expected-error @+1 {{'tirx.view' op a dtype view keeps every dimension but the innermost; got '!tirx.tensor<2x4xf32, local>' -> '!tirx.tensor<4x4xf16, local>'}}
  %v = tirx.view %r : !tirx.tensor<2x4xf32, local> -> !tirx.tensor<4x4xf16, local>
  tirx.return
}

// -----

tirx.kernel @local_dynamic_region(%i: index) launch(grid = [1], block = [32]) {
  %r = tirx.alloc_local : !tirx.tensor<8xf32, local>
  // expected-error @+1 {{a local tensor's region needs constant offsets: register slots are fixed at compile time}}
  %s = tirx.region %r[%i] [4] : !tirx.tensor<8xf32, local> -> !tirx.tensor<4xf32, local>
  tirx.return
}

// -----

tirx.kernel @unpack_overflow(%A: !tirx.tensor<4xf32, global, #tirx.layout<S[4 : 1] + 4611686018427387904>>) launch(grid = [1], block = [32]) {
  // expected-error @+1 {{'tirx.view' op cannot unpack the layout: unpack by 2 overflows int64 (memory strides or offset)}}
  %v = tirx.view %A : !tirx.tensor<4xf32, global, #tirx.layout<S[4 : 1] + 4611686018427387904>> -> !tirx.tensor<8xf16, global>
  tirx.return
}

// -----

tirx.kernel @k(%s: f32) launch(grid = [1], block = [32]) {
  tirx.return
}
func.func @host(%a: i64) {
  // expected-error @+1 {{'tirx.launch' op argument #0 of @k has type 'f32', got 'i64'}}
  tirx.launch @k(%a) : i64
  return
}

// -----

tirx.kernel @reinterpret_too_far() launch(grid = [1], block = [64]) {
  %s = tirx.alloc_shared : !tirx.tensor<2xf32, shared>
  // expected-error @+1 {{'tirx.reinterpret' op the result reaches 3 elements of storage but the source has only 2}}
  %r = tirx.reinterpret %s : !tirx.tensor<2xf32, shared> -> !tirx.tensor<3xf32, shared>
  tirx.return
}

// -----

// A region at offset 8 of its storage, reinterpreted with a layout that
// starts at 0: the result would read before the region.
tirx.kernel @reinterpret_before_region() launch(grid = [1], block = [64]) {
  %s = tirx.alloc_shared : !tirx.tensor<16xf32, shared>
  %r = tirx.region %s[8] [8] : !tirx.tensor<16xf32, shared>
  // expected-error @+1 {{'tirx.reinterpret' op the result starts at storage position 0 but the source's storage starts at 8 (a static region's offset): add it to the result's layout}}
  %v = tirx.reinterpret %r : !tirx.tensor<8xf32, shared, #tirx.layout<S[8 : 1] + 8>> -> !tirx.tensor<2x4xf32, shared>
  tirx.return
}

// -----

tirx.kernel @reinterpret_too_many_registers() launch(grid = [1], block = [64]) {
  %p = tirx.alloc_local : !tirx.tensor<2xf32, local>
  // expected-error @+1 {{'tirx.reinterpret' op the result reaches 3 register slots of storage but the source has only 2}}
  %r = tirx.reinterpret %p : !tirx.tensor<2xf32, local> -> !tirx.tensor<2x32x2xf32, local, #tirx.layout<S[(2, 32, 2) : (1@warpid, 1@laneid, 2)]>>
  tirx.return
}

// -----

tirx.kernel @reinterpret_space() launch(grid = [1], block = [64]) {
  %p = tirx.alloc_local : !tirx.tensor<2xf32, local>
  // expected-error @+1 {{'tirx.reinterpret' op cannot change the memory space (local -> shared)}}
  %r = tirx.reinterpret %p : !tirx.tensor<2xf32, local> -> !tirx.tensor<2xf32, shared>
  tirx.return
}

// -----

tirx.kernel @reinterpret_dtype() launch(grid = [1], block = [64]) {
  %p = tirx.alloc_local : !tirx.tensor<2xf32, local>
  // expected-error @+1 {{'tirx.reinterpret' op keeps the element type ('f32' -> 'i32'); reinterpret bits with tirx.view}}
  %r = tirx.reinterpret %p : !tirx.tensor<2xf32, local> -> !tirx.tensor<2xi32, local>
  tirx.return
}

// -----

tirx.kernel @reinterpret_align() launch(grid = [1], block = [64]) {
  %s = tirx.alloc_shared : !tirx.tensor<4xf32, shared, align = 16>
  // expected-error @+1 {{'tirx.reinterpret' op cannot change the alignment (16 -> 4)}}
  %r = tirx.reinterpret %s : !tirx.tensor<4xf32, shared, align = 16> -> !tirx.tensor<4xf32, shared, align = 4>
  tirx.return
}
