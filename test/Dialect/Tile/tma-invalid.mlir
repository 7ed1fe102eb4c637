// RUN: tirx-opt %s -split-input-file -verify-diagnostics

// Rejections of TMA copies (cp.async.bulk.tensor, docs/hopper.md): one thread
// issues a whole box; the global operand is a box of a kernel's dense
// row-major tensor parameter within the tensor map's limits (16-byte base and
// strides, extents up to 256, rows of whole 16-byte units); the shared
// operand is the box's image, row-major and 128-byte aligned, of elements as
// wide as the tensor's; a load's mbarrier is one shared 64-bit word.

tirx.kernel @warp_scope(%A: !tirx.tensor<256x512xbf16, global, align = 16>) launch(grid = [1], block = [128]) {
  %img = tirx.alloc_shared : !tirx.tensor<64x64xbf16, shared, align = 128>
  %bar = tirx.alloc_shared : !tirx.tensor<1xi64, shared, align = 8>
  %box = tirx.region %A[0, 64] [64, 64] : !tirx.tensor<256x512xbf16, global, align = 16>
  // expected-error @+1 {{'cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes' copies a whole box per instruction and is issued by one thread: use scope(thread) and guard it to the issuing thread, got scope(warp)}}
  tile.apply "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes" scope(warp) (%img, %box, %bar)
      : !tirx.tensor<64x64xbf16, shared, align = 128>, !tirx.tensor<64x64xbf16, global, #tirx.layout<S[(64, 64) : (512, 1)] + 64>, align = 16>, !tirx.tensor<1xi64, shared, align = 8>
  tirx.return
}

// -----

tirx.kernel @not_a_parameter(%A: !tirx.tensor<256x512xbf16, global, align = 16>) launch(grid = [1], block = [128]) {
  %img = tirx.alloc_shared : !tirx.tensor<64x64xbf16, shared, align = 128>
  %bar = tirx.alloc_shared : !tirx.tensor<1xi64, shared, align = 8>
  %v = tirx.view %A : !tirx.tensor<256x512xbf16, global, align = 16> -> !tirx.tensor<512x256xbf16, global, align = 16>
  %box = tirx.region %v[0, 0] [64, 64] : !tirx.tensor<512x256xbf16, global, align = 16>
  // expected-error @+1 {{operand #1 (src) of 'cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes': the global box must be a tensor parameter of the kernel or a tirx.region of one (the launcher encodes its tensor map from the tensor it is given), got the 'tirx.view' result}}
  tile.apply "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes" scope(thread) (%img, %box, %bar)
      : !tirx.tensor<64x64xbf16, shared, align = 128>, !tirx.tensor<64x64xbf16, global, #tirx.layout<S[(64, 64) : (256, 1)]>, align = 16>, !tirx.tensor<1xi64, shared, align = 8>
  tirx.return
}

// -----

tirx.kernel @rank_mismatch(%A: !tirx.tensor<4x64x512xbf16, global, align = 16>) launch(grid = [1], block = [128]) {
  %img = tirx.alloc_shared : !tirx.tensor<64x64xbf16, shared, align = 128>
  %bar = tirx.alloc_shared : !tirx.tensor<1xi64, shared, align = 8>
  %box = tirx.region %A[0, 0, 0] [1, 64, 64] : !tirx.tensor<4x64x512xbf16, global, align = 16>
  %img3 = tirx.view %img : !tirx.tensor<64x64xbf16, shared, align = 128> -> !tirx.tensor<1x64x64xbf16, shared, align = 128>
  // expected-error @+1 {{operand #1 (src) of 'cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes': the global box is a box of a rank-3 tensor, but '.2d' names a rank-2 tensor map}}
  tile.apply "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes" scope(thread) (%img3, %box, %bar)
      : !tirx.tensor<1x64x64xbf16, shared, align = 128>, !tirx.tensor<1x64x64xbf16, global, #tirx.layout<S[(1, 64, 64) : (32768, 512, 1)]>, align = 16>, !tirx.tensor<1xi64, shared, align = 8>
  tirx.return
}

// -----

tirx.kernel @explicit_layout(%A: !tirx.tensor<256x512xbf16, global, #tirx.layout<S[(256, 512) : (1, 256)]>, align = 16>) launch(grid = [1], block = [128]) {
  %img = tirx.alloc_shared : !tirx.tensor<64x64xbf16, shared, align = 128>
  %bar = tirx.alloc_shared : !tirx.tensor<1xi64, shared, align = 8>
  %box = tirx.region %A[0, 0] [64, 64] : !tirx.tensor<256x512xbf16, global, #tirx.layout<S[(256, 512) : (1, 256)]>, align = 16>
  // expected-error @+1 {{operand #1 (src) of 'cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes': the global box is a box of a tensor with an explicit layout; a tensor map describes a dense row-major tensor}}
  tile.apply "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes" scope(thread) (%img, %box, %bar)
      : !tirx.tensor<64x64xbf16, shared, align = 128>, !tirx.tensor<64x64xbf16, global, #tirx.layout<S[(64, 64) : (1, 256)]>, align = 16>, !tirx.tensor<1xi64, shared, align = 8>
  tirx.return
}

// -----

tirx.kernel @global_alignment(%A: !tirx.tensor<256x512xbf16, global, align = 8>) launch(grid = [1], block = [128]) {
  %img = tirx.alloc_shared : !tirx.tensor<64x64xbf16, shared, align = 128>
  %bar = tirx.alloc_shared : !tirx.tensor<1xi64, shared, align = 8>
  %box = tirx.region %A[0, 0] [64, 64] : !tirx.tensor<256x512xbf16, global, align = 8>
  // expected-error @+1 {{operand #1 (src) of 'cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes': the global box is of a tensor aligned to 8 byte(s); a tensor map needs a 16-byte aligned base: declare align = 16 on the tensor}}
  tile.apply "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes" scope(thread) (%img, %box, %bar)
      : !tirx.tensor<64x64xbf16, shared, align = 128>, !tirx.tensor<64x64xbf16, global, #tirx.layout<S[(64, 64) : (512, 1)]>, align = 8>, !tirx.tensor<1xi64, shared, align = 8>
  tirx.return
}

// -----

tirx.kernel @stride_not_16(%A: !tirx.tensor<256x100xbf16, global, align = 16>) launch(grid = [1], block = [128]) {
  %img = tirx.alloc_shared : !tirx.tensor<64x64xbf16, shared, align = 128>
  %bar = tirx.alloc_shared : !tirx.tensor<1xi64, shared, align = 8>
  %box = tirx.region %A[0, 0] [64, 64] : !tirx.tensor<256x100xbf16, global, align = 16>
  // expected-error @+1 {{operand #1 (src) of 'cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes': the global box has rows of 200 bytes along dimension 0; a tensor map's strides are multiples of 16 bytes}}
  tile.apply "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes" scope(thread) (%img, %box, %bar)
      : !tirx.tensor<64x64xbf16, shared, align = 128>, !tirx.tensor<64x64xbf16, global, #tirx.layout<S[(64, 64) : (100, 1)]>, align = 16>, !tirx.tensor<1xi64, shared, align = 8>
  tirx.return
}

// -----

tirx.kernel @box_too_large(%A: !tirx.tensor<4x1024xf32, global, align = 16>) launch(grid = [1], block = [128]) {
  %img = tirx.alloc_shared : !tirx.tensor<2x512xf32, shared, align = 128>
  %bar = tirx.alloc_shared : !tirx.tensor<1xi64, shared, align = 8>
  %box = tirx.region %A[0, 0] [2, 512] : !tirx.tensor<4x1024xf32, global, align = 16>
  // expected-error @+1 {{operand #1 (src) of 'cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes': the global box has extent 512 in dimension 1; a box's extents are at most 256}}
  tile.apply "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes" scope(thread) (%img, %box, %bar)
      : !tirx.tensor<2x512xf32, shared, align = 128>, !tirx.tensor<2x512xf32, global, #tirx.layout<S[(2, 512) : (1024, 1)]>, align = 16>, !tirx.tensor<1xi64, shared, align = 8>
  tirx.return
}

// -----

tirx.kernel @row_not_16_bytes(%A: !tirx.tensor<4x1024xf32, global, align = 16>) launch(grid = [1], block = [128]) {
  %img = tirx.alloc_shared : !tirx.tensor<4x2xf32, shared, align = 128>
  %bar = tirx.alloc_shared : !tirx.tensor<1xi64, shared, align = 8>
  %box = tirx.region %A[0, 0] [4, 2] : !tirx.tensor<4x1024xf32, global, align = 16>
  // expected-error @+1 {{operand #1 (src) of 'cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes': the global box has an innermost row of 8 bytes; TMA moves rows of whole 16-byte units}}
  tile.apply "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes" scope(thread) (%img, %box, %bar)
      : !tirx.tensor<4x2xf32, shared, align = 128>, !tirx.tensor<4x2xf32, global, #tirx.layout<S[(4, 2) : (1024, 1)]>, align = 16>, !tirx.tensor<1xi64, shared, align = 8>
  tirx.return
}

// -----

tirx.kernel @element_width(%A: !tirx.tensor<256x512xbf16, global, align = 16>) launch(grid = [1], block = [128]) {
  %img = tirx.alloc_shared : !tirx.tensor<64x64xi32, shared, align = 128>
  %bar = tirx.alloc_shared : !tirx.tensor<1xi64, shared, align = 8>
  %box = tirx.region %A[0, 64] [64, 64] : !tirx.tensor<256x512xbf16, global, align = 16>
  // expected-error @+1 {{operand #0 (dst) of 'cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes': the box's shared image has 'i32' elements, but the tensor has 'bf16' (TMA copies bits: the widths must agree)}}
  tile.apply "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes" scope(thread) (%img, %box, %bar)
      : !tirx.tensor<64x64xi32, shared, align = 128>, !tirx.tensor<64x64xbf16, global, #tirx.layout<S[(64, 64) : (512, 1)] + 64>, align = 16>, !tirx.tensor<1xi64, shared, align = 8>
  tirx.return
}

// -----

tirx.kernel @element_count(%A: !tirx.tensor<256x512xbf16, global, align = 16>) launch(grid = [1], block = [128]) {
  %img = tirx.alloc_shared : !tirx.tensor<32x64xbf16, shared, align = 128>
  %bar = tirx.alloc_shared : !tirx.tensor<1xi64, shared, align = 8>
  %box = tirx.region %A[0, 64] [64, 64] : !tirx.tensor<256x512xbf16, global, align = 16>
  // expected-error @+1 {{operand #0 (dst) of 'cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes': the box's shared image has 2048 elements, but the box has 4096}}
  tile.apply "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes" scope(thread) (%img, %box, %bar)
      : !tirx.tensor<32x64xbf16, shared, align = 128>, !tirx.tensor<64x64xbf16, global, #tirx.layout<S[(64, 64) : (512, 1)] + 64>, align = 16>, !tirx.tensor<1xi64, shared, align = 8>
  tirx.return
}

// -----

tirx.kernel @image_alignment(%A: !tirx.tensor<256x512xbf16, global, align = 16>) launch(grid = [1], block = [128]) {
  %img = tirx.alloc_shared : !tirx.tensor<64x64xbf16, shared, align = 16>
  %bar = tirx.alloc_shared : !tirx.tensor<1xi64, shared, align = 8>
  %box = tirx.region %A[0, 64] [64, 64] : !tirx.tensor<256x512xbf16, global, align = 16>
  // expected-error @+1 {{operand #0 (dst) of 'cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes': the box's shared image is aligned to 16 byte(s); TMA needs 128: declare align = 128 on its allocation}}
  tile.apply "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes" scope(thread) (%img, %box, %bar)
      : !tirx.tensor<64x64xbf16, shared, align = 16>, !tirx.tensor<64x64xbf16, global, #tirx.layout<S[(64, 64) : (512, 1)] + 64>, align = 16>, !tirx.tensor<1xi64, shared, align = 8>
  tirx.return
}

// -----

tirx.kernel @image_offset(%A: !tirx.tensor<256x512xbf16, global, align = 16>) launch(grid = [1], block = [128]) {
  %all = tirx.alloc_shared : !tirx.tensor<4104xbf16, shared, align = 128>
  %bar = tirx.alloc_shared : !tirx.tensor<1xi64, shared, align = 8>
  %img = tirx.region %all[8] [4096] : !tirx.tensor<4104xbf16, shared, align = 128>
  %box = tirx.region %A[0, 0] [64, 64] : !tirx.tensor<256x512xbf16, global, align = 16>
  // expected-error @+1 {{operand #0 (dst) of 'cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes': the box's shared image starts at byte 16 of its allocation, which is not a multiple of 128}}
  tile.apply "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes" scope(thread) (%img, %box, %bar)
      : !tirx.tensor<4096xbf16, shared, #tirx.layout<S[4096 : 1] + 8>, align = 128>, !tirx.tensor<64x64xbf16, global, #tirx.layout<S[(64, 64) : (512, 1)]>, align = 16>, !tirx.tensor<1xi64, shared, align = 8>
  tirx.return
}

// -----

tirx.kernel @image_not_row_major(%A: !tirx.tensor<256x512xbf16, global, align = 16>) launch(grid = [1], block = [128]) {
  %img = tirx.alloc_shared : !tirx.tensor<64x64xbf16, shared, #tirx.layout<S[(64, 64) : (1, 64)]>, align = 128>
  %bar = tirx.alloc_shared : !tirx.tensor<1xi64, shared, align = 8>
  %box = tirx.region %A[0, 64] [64, 64] : !tirx.tensor<256x512xbf16, global, align = 16>
  // expected-error @+1 {{operand #0 (dst) of 'cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes': the box's shared image must be the box in row-major order, but its element (0, 1) is at offset 64, expected 1}}
  tile.apply "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes" scope(thread) (%img, %box, %bar)
      : !tirx.tensor<64x64xbf16, shared, #tirx.layout<S[(64, 64) : (1, 64)]>, align = 128>, !tirx.tensor<64x64xbf16, global, #tirx.layout<S[(64, 64) : (512, 1)] + 64>, align = 16>, !tirx.tensor<1xi64, shared, align = 8>
  tirx.return
}

// -----

tirx.kernel @mbarrier_two_words(%A: !tirx.tensor<256x512xbf16, global, align = 16>) launch(grid = [1], block = [128]) {
  %img = tirx.alloc_shared : !tirx.tensor<64x64xbf16, shared, align = 128>
  %bar = tirx.alloc_shared : !tirx.tensor<2xi64, shared, align = 8>
  %box = tirx.region %A[0, 64] [64, 64] : !tirx.tensor<256x512xbf16, global, align = 16>
  // expected-error @+1 {{operand #2 (mbar) of 'cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes': is an mbarrier, one 64-bit word, got 2 elements}}
  tile.apply "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes" scope(thread) (%img, %box, %bar)
      : !tirx.tensor<64x64xbf16, shared, align = 128>, !tirx.tensor<64x64xbf16, global, #tirx.layout<S[(64, 64) : (512, 1)] + 64>, align = 16>, !tirx.tensor<2xi64, shared, align = 8>
  tirx.return
}

// -----

tirx.kernel @mbarrier_global(%A: !tirx.tensor<256x512xbf16, global, align = 16>, %M: !tirx.tensor<1xi64, global, align = 8>) launch(grid = [1], block = [128]) {
  %img = tirx.alloc_shared : !tirx.tensor<64x64xbf16, shared, align = 128>
  
  %box = tirx.region %A[0, 64] [64, 64] : !tirx.tensor<256x512xbf16, global, align = 16>
  // expected-error @+1 {{operand #2 (mbar) of 'cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes': accesses shared memory, but the tensor is global}}
  tile.apply "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes" scope(thread) (%img, %box, %M)
      : !tirx.tensor<64x64xbf16, shared, align = 128>, !tirx.tensor<64x64xbf16, global, #tirx.layout<S[(64, 64) : (512, 1)] + 64>, align = 16>, !tirx.tensor<1xi64, global, align = 8>
  tirx.return
}

// -----

tirx.kernel @store_global_image(%A: !tirx.tensor<256x512xbf16, global, align = 16>) launch(grid = [1], block = [128]) {
  %img = tirx.alloc_shared : !tirx.tensor<64x64xbf16, shared, align = 128>
  %bar = tirx.alloc_shared : !tirx.tensor<1xi64, shared, align = 8>
  %box = tirx.region %A[0, 64] [64, 64] : !tirx.tensor<256x512xbf16, global, align = 16>
  // expected-error @+1 {{operand #1 (src) of 'cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group': accesses shared memory, but the tensor is global}}
  tile.apply "cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group" scope(thread) (%box, %box)
      : !tirx.tensor<64x64xbf16, global, #tirx.layout<S[(64, 64) : (512, 1)] + 64>, align = 16>, !tirx.tensor<64x64xbf16, global, #tirx.layout<S[(64, 64) : (512, 1)] + 64>, align = 16>
  tirx.return
}

// -----

tirx.kernel @map_in_shared(%A: !tirx.tensor<256x512xbf16, global, align = 16>) launch(grid = [1], block = [128]) {
  %img = tirx.alloc_shared : !tirx.tensor<64x64xbf16, shared, align = 128>
  %bar = tirx.alloc_shared : !tirx.tensor<1xi64, shared, align = 8>
  // expected-error @+1 {{operand #0 (dst) of 'cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group': accesses global memory, but the tensor is shared}}
  tile.apply "cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group" scope(thread) (%img, %img)
      : !tirx.tensor<64x64xbf16, shared, align = 128>, !tirx.tensor<64x64xbf16, shared, align = 128>
  tirx.return
}

// -----

tirx.kernel @map_immediate(%A: !tirx.tensor<256x512xbf16, global, align = 16>, %i: i32) launch(grid = [1], block = [128]) {
  %img = tirx.alloc_shared : !tirx.tensor<64x64xbf16, shared, align = 128>
  %bar = tirx.alloc_shared : !tirx.tensor<1xi64, shared, align = 8>
  // expected-error @+1 {{operand #0 (dst) of 'cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group': is a memory operand and must be a tensor}}
  tile.apply "cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group" scope(thread) (%i, %img)
      : i32, !tirx.tensor<64x64xbf16, shared, align = 128>
  tirx.return
}

// -----

tirx.kernel @swizzle_not_tma(%A: !tirx.tensor<256x512xbf16, global, align = 16>) launch(grid = [1], block = [128]) {
  %img = tirx.alloc_shared : !tirx.tensor<64x64xbf16, shared, #tirx.layout<S[(64, 64) : (64, 1)] + Swizzle[2, 3, 3]>, align = 1024>
  %bar = tirx.alloc_shared : !tirx.tensor<1xi64, shared, align = 8>
  %box = tirx.region %A[0, 0] [64, 64] : !tirx.tensor<256x512xbf16, global, align = 16>
  // expected-error @+1 {{operand #0 (dst) of 'cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes': the box's shared image has a swizzle that is not TMA's for 2-byte elements (Swizzle[3, 1|2|3, 3]: the 32, 64 or 128-byte modes)}}
  tile.apply "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes" scope(thread) (%img, %box, %bar)
      : !tirx.tensor<64x64xbf16, shared, #tirx.layout<S[(64, 64) : (64, 1)] + Swizzle[2, 3, 3]>, align = 1024>, !tirx.tensor<64x64xbf16, global, #tirx.layout<S[(64, 64) : (512, 1)]>, align = 16>, !tirx.tensor<1xi64, shared, align = 8>
  tirx.return
}

// -----

tirx.kernel @swizzle_narrower_than_row(%A: !tirx.tensor<256x512xbf16, global, align = 16>) launch(grid = [1], block = [128]) {
  %img = tirx.alloc_shared : !tirx.tensor<64x64xbf16, shared, #tirx.layout<S[(64, 64) : (64, 1)] + Swizzle[3, 2, 3]>, align = 1024>
  %bar = tirx.alloc_shared : !tirx.tensor<1xi64, shared, align = 8>
  %box = tirx.region %A[0, 0] [64, 64] : !tirx.tensor<256x512xbf16, global, align = 16>
  // expected-error @+1 {{operand #0 (dst) of 'cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes': the box's shared image is 64-byte swizzled, but the box's rows are 128 bytes; TMA swizzles rows of at most the swizzle's width}}
  tile.apply "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes" scope(thread) (%img, %box, %bar)
      : !tirx.tensor<64x64xbf16, shared, #tirx.layout<S[(64, 64) : (64, 1)] + Swizzle[3, 2, 3]>, align = 1024>, !tirx.tensor<64x64xbf16, global, #tirx.layout<S[(64, 64) : (512, 1)]>, align = 16>, !tirx.tensor<1xi64, shared, align = 8>
  tirx.return
}

// -----

tirx.kernel @swizzle_period_alignment(%A: !tirx.tensor<256x512xbf16, global, align = 16>) launch(grid = [1], block = [128]) {
  %img = tirx.alloc_shared : !tirx.tensor<64x64xbf16, shared, #tirx.layout<S[(64, 64) : (64, 1)] + Swizzle[3, 3, 3]>, align = 128>
  %bar = tirx.alloc_shared : !tirx.tensor<1xi64, shared, align = 8>
  %box = tirx.region %A[0, 0] [64, 64] : !tirx.tensor<256x512xbf16, global, align = 16>
  // expected-error @+1 {{operand #0 (dst) of 'cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes': the box's shared image is aligned to 128 byte(s); TMA needs 1024: declare align = 1024 on its allocation}}
  tile.apply "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes" scope(thread) (%img, %box, %bar)
      : !tirx.tensor<64x64xbf16, shared, #tirx.layout<S[(64, 64) : (64, 1)] + Swizzle[3, 3, 3]>, align = 128>, !tirx.tensor<64x64xbf16, global, #tirx.layout<S[(64, 64) : (512, 1)]>, align = 16>, !tirx.tensor<1xi64, shared, align = 8>
  tirx.return
}

// -----

tirx.kernel @innermost_coordinate(%A: !tirx.tensor<256x512xbf16, global, align = 16>) launch(grid = [1], block = [128]) {
  %img = tirx.alloc_shared : !tirx.tensor<64x64xbf16, shared, align = 128>
  %bar = tirx.alloc_shared : !tirx.tensor<1xi64, shared, align = 8>
  %box = tirx.region %A[0, 4] [64, 64] : !tirx.tensor<256x512xbf16, global, align = 16>
  // expected-error @+1 {{operand #1 (src) of 'cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes': the global box starts at element 4 of the innermost dimension (byte 8); a TMA box starts at a multiple of 16 bytes there}}
  tile.apply "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes" scope(thread) (%img, %box, %bar)
      : !tirx.tensor<64x64xbf16, shared, align = 128>, !tirx.tensor<64x64xbf16, global, #tirx.layout<S[(64, 64) : (512, 1)] + 4>, align = 16>, !tirx.tensor<1xi64, shared, align = 8>
  tirx.return
}

// -----

// prefetch.tensormap: its operand is a box as a copy's is, issued by one
// thread; its coordinates play no part, the map's limits do.
tirx.kernel @prefetch_warp_scope(%A: !tirx.tensor<256x512xbf16, global, align = 16>) launch(grid = [1], block = [128]) {
  %box = tirx.region %A[0, 64] [64, 64] : !tirx.tensor<256x512xbf16, global, align = 16>
  // expected-error @+1 {{'prefetch.tensormap' prefetches one tensor map per instruction and is issued by one thread: use scope(thread) and guard it to the issuing thread, got scope(warp)}}
  tile.apply "prefetch.tensormap" scope(warp) (%box)
      : !tirx.tensor<64x64xbf16, global, #tirx.layout<S[(64, 64) : (512, 1)] + 64>, align = 16>
  tirx.return
}

// -----

tirx.kernel @prefetch_not_a_parameter(%A: !tirx.tensor<256x512xbf16, global, align = 16>) launch(grid = [1], block = [128]) {
  %v = tirx.view %A : !tirx.tensor<256x512xbf16, global, align = 16> -> !tirx.tensor<512x256xbf16, global, align = 16>
  %box = tirx.region %v[0, 0] [64, 64] : !tirx.tensor<512x256xbf16, global, align = 16>
  // expected-error @+1 {{operand #0 (a) of 'prefetch.tensormap': the global box must be a tensor parameter of the kernel or a tirx.region of one (the launcher encodes its tensor map from the tensor it is given), got the 'tirx.view' result}}
  tile.apply "prefetch.tensormap" scope(thread) (%box)
      : !tirx.tensor<64x64xbf16, global, #tirx.layout<S[(64, 64) : (256, 1)]>, align = 16>
  tirx.return
}

// -----

tirx.kernel @prefetch_shared(%A: !tirx.tensor<256x512xbf16, global, align = 16>) launch(grid = [1], block = [128]) {
  %img = tirx.alloc_shared : !tirx.tensor<64x64xbf16, shared, align = 128>
  // expected-error @+1 {{operand #0 (a) of 'prefetch.tensormap': accesses global memory, but the tensor is shared}}
  tile.apply "prefetch.tensormap" scope(thread) (%img) : !tirx.tensor<64x64xbf16, shared, align = 128>
  tirx.return
}

// -----

tirx.kernel @prefetch_rank6(%A: !tirx.tensor<2x2x2x2x2x64xbf16, global, align = 16>) launch(grid = [1], block = [128]) {
  // expected-error @+1 {{operand #0 (a) of 'prefetch.tensormap': the global box is a box of a rank-6 tensor; a tensor map has rank 1 to 5}}
  tile.apply "prefetch.tensormap" scope(thread) (%A) : !tirx.tensor<2x2x2x2x2x64xbf16, global, align = 16>
  tirx.return
}

// -----

// A box whose innermost row is not whole 16-byte units cannot be a map's,
// wherever it starts.
tirx.kernel @prefetch_row(%A: !tirx.tensor<256x512xbf16, global, align = 16>) launch(grid = [1], block = [128]) {
  %box = tirx.region %A[0, 4] [64, 4] : !tirx.tensor<256x512xbf16, global, align = 16>
  // expected-error @+1 {{operand #0 (a) of 'prefetch.tensormap': the global box has an innermost row of 8 bytes; TMA moves rows of whole 16-byte units}}
  tile.apply "prefetch.tensormap" scope(thread) (%box)
      : !tirx.tensor<64x4xbf16, global, #tirx.layout<S[(64, 4) : (512, 1)] + 4>, align = 16>
  tirx.return
}

// -----

// `.param` and `.const` are not registered (docs/hopper.md).
tirx.kernel @prefetch_param(%A: !tirx.tensor<256x512xbf16, global, align = 16>) launch(grid = [1], block = [128]) {
  // expected-error @+1 {{unknown modifier .param}}
  tile.apply "prefetch.param.tensormap" scope(thread) (%A) : !tirx.tensor<256x512xbf16, global, align = 16>
  tirx.return
}

// -----

// A multicast load needs a kernel launched in clusters.
module attributes {tirx.chip = "sm_90a", tirx.ptx = 83 : i32} {
tirx.kernel @multicast_without_cluster(%A: !tirx.tensor<256x64xbf16, global, align = 16>)
    launch(grid = [8], block = [32]) {
  %img = tirx.alloc_shared : !tirx.tensor<16x64xbf16, shared, align = 128>
  %bar = tirx.alloc_shared : !tirx.tensor<1xi64, shared, align = 8>
  %box = tirx.region %A[0, 0] [16, 64] : !tirx.tensor<256x64xbf16, global, align = 16>
  // expected-error @+1 {{'cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster' writes the box into the CTAs of a cluster, but the kernel is not launched in clusters: add cluster = [...] to its launch (LaunchConfig(cluster=) in Python)}}
  tile.apply "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster" scope(thread) (%img, %box, %bar, 3 : i16)
      : !tirx.tensor<16x64xbf16, shared, align = 128>, !tirx.tensor<16x64xbf16, global, #tirx.layout<S[(16, 64) : (64, 1)]>, align = 16>, !tirx.tensor<1xi64, shared, align = 8>
  tirx.return
}
}

// -----

// ctaMask is 16 bits.
module attributes {tirx.chip = "sm_90a", tirx.ptx = 83 : i32} {
tirx.kernel @multicast_mask_width(%A: !tirx.tensor<256x64xbf16, global, align = 16>)
    launch(grid = [8], block = [32], cluster = [2]) {
  %img = tirx.alloc_shared : !tirx.tensor<16x64xbf16, shared, align = 128>
  %bar = tirx.alloc_shared : !tirx.tensor<1xi64, shared, align = 8>
  %box = tirx.region %A[0, 0] [16, 64] : !tirx.tensor<256x64xbf16, global, align = 16>
  // expected-error @+1 {{operand #3 (ctaMask) of 'cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster': needs a scalar of a 16-bit type, got 'i32'}}
  tile.apply "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster" scope(thread) (%img, %box, %bar, 3 : i32)
      : !tirx.tensor<16x64xbf16, shared, align = 128>, !tirx.tensor<16x64xbf16, global, #tirx.layout<S[(16, 64) : (64, 1)]>, align = 16>, !tirx.tensor<1xi64, shared, align = 8>
  tirx.return
}
}

// -----

// A multicast's ctaMask names CTAs of the kernel's cluster: none, or a CTA
// past it, is refused.
module attributes {tirx.chip = "sm_90a", tirx.ptx = 83 : i32} {
tirx.kernel @multicast_mask_outside(%A: !tirx.tensor<256x64xbf16, global, align = 16>)
    launch(grid = [8], block = [32], cluster = [2]) {
  %img = tirx.alloc_shared : !tirx.tensor<16x64xbf16, shared, align = 128>
  %bar = tirx.alloc_shared : !tirx.tensor<1xi64, shared, align = 8>
  %box = tirx.region %A[0, 0] [16, 64] : !tirx.tensor<256x64xbf16, global, align = 16>
  // expected-error @+1 {{the ctaMask 0x7 of 'cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster' must name one or more CTAs of the kernel's cluster of 2 (bit r: the CTA of rank r)}}
  tile.apply "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster" scope(thread) (%img, %box, %bar, 7 : i16)
      : !tirx.tensor<16x64xbf16, shared, align = 128>, !tirx.tensor<16x64xbf16, global, #tirx.layout<S[(16, 64) : (64, 1)]>, align = 16>, !tirx.tensor<1xi64, shared, align = 8>
  tirx.return
}
}

// -----

module attributes {tirx.chip = "sm_90a", tirx.ptx = 83 : i32} {
tirx.kernel @multicast_mask_empty(%A: !tirx.tensor<256x64xbf16, global, align = 16>)
    launch(grid = [8], block = [32], cluster = [2]) {
  %img = tirx.alloc_shared : !tirx.tensor<16x64xbf16, shared, align = 128>
  %bar = tirx.alloc_shared : !tirx.tensor<1xi64, shared, align = 8>
  %box = tirx.region %A[0, 0] [16, 64] : !tirx.tensor<256x64xbf16, global, align = 16>
  // expected-error @+1 {{the ctaMask 0x0 of 'cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster' must name one or more CTAs of the kernel's cluster of 2}}
  tile.apply "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster" scope(thread) (%img, %box, %bar, 0 : i16)
      : !tirx.tensor<16x64xbf16, shared, align = 128>, !tirx.tensor<16x64xbf16, global, #tirx.layout<S[(16, 64) : (64, 1)]>, align = 16>, !tirx.tensor<1xi64, shared, align = 8>
  tirx.return
}
}

// -----

// A reduction's type is the tensor's: .min does not reduce f32.
tirx.kernel @reduce_min_f32(%C: !tirx.tensor<64x32xf32, global, align = 16>) launch(grid = [1], block = [32]) {
  %img = tirx.alloc_shared : !tirx.tensor<64x32xf32, shared, align = 128>
  %box = tirx.region %C[0, 0] [64, 32] : !tirx.tensor<64x32xf32, global, align = 16>
  // expected-error @+1 {{operand #0 (dst) of 'cp.reduce.async.bulk.tensor.2d.global.shared::cta.min.tile.bulk_group': the global box is of a tensor of 'f32'; .min reduces .f16, .bf16, .u32, .s32, .u64, .s64 elements (signless integers count as signed)}}
  tile.apply "cp.reduce.async.bulk.tensor.2d.global.shared::cta.min.tile.bulk_group" scope(thread) (%box, %img)
      : !tirx.tensor<64x32xf32, global, #tirx.layout<S[(64, 32) : (32, 1)]>, align = 16>, !tirx.tensor<64x32xf32, shared, align = 128>
  tirx.return
}

// -----

// .inc counts unsigned 32-bit elements only.
tirx.kernel @reduce_inc_i32(%C: !tirx.tensor<64x32xi32, global, align = 16>) launch(grid = [1], block = [32]) {
  %img = tirx.alloc_shared : !tirx.tensor<64x32xi32, shared, align = 128>
  %box = tirx.region %C[0, 0] [64, 32] : !tirx.tensor<64x32xi32, global, align = 16>
  // expected-error @+1 {{the global box is of a tensor of 'i32'; .inc reduces .u32 elements (signless integers count as signed)}}
  tile.apply "cp.reduce.async.bulk.tensor.2d.global.shared::cta.inc.tile.bulk_group" scope(thread) (%box, %img)
      : !tirx.tensor<64x32xi32, global, #tirx.layout<S[(64, 32) : (32, 1)]>, align = 16>, !tirx.tensor<64x32xi32, shared, align = 128>
  tirx.return
}

// -----

// A prefetch into L2 is issued by one thread too.
tirx.kernel @prefetch_tensor_scope(%A: !tirx.tensor<256x512xbf16, global, align = 16>) launch(grid = [1], block = [32]) {
  %box = tirx.region %A[0, 0] [64, 64] : !tirx.tensor<256x512xbf16, global, align = 16>
  // expected-error @+1 {{'cp.async.bulk.prefetch.tensor.2d.L2.global.tile' copies a whole box per instruction and is issued by one thread: use scope(thread) and guard it to the issuing thread, got scope(warp)}}
  tile.apply "cp.async.bulk.prefetch.tensor.2d.L2.global.tile" scope(warp) (%box)
      : !tirx.tensor<64x64xbf16, global, #tirx.layout<S[(64, 64) : (512, 1)]>, align = 16>
  tirx.return
}

// -----

// Bitwise reductions of 64-bit elements faulted on the GPU: refused.
tirx.kernel @reduce_or_i64(%C: !tirx.tensor<64x16xi64, global, align = 16>) launch(grid = [1], block = [32]) {
  %img = tirx.alloc_shared : !tirx.tensor<64x16xi64, shared, align = 128>
  %box = tirx.region %C[0, 0] [64, 16] : !tirx.tensor<64x16xi64, global, align = 16>
  // expected-error @+1 {{the global box is of a tensor of 'i64'; .or reduces .u32, .s32 elements (signless integers count as signed)}}
  tile.apply "cp.reduce.async.bulk.tensor.2d.global.shared::cta.or.tile.bulk_group" scope(thread) (%box, %img)
      : !tirx.tensor<64x16xi64, global, #tirx.layout<S[(64, 16) : (16, 1)]>, align = 16>, !tirx.tensor<64x16xi64, shared, align = 128>
  tirx.return
}
