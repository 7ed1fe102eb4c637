// RUN: tirx-opt %s | FileCheck %s
// RUN: tirx-opt %s | tirx-opt | FileCheck %s
// RUN: tirx-opt %s --mlir-print-op-generic | tirx-opt | FileCheck %s
// RUN: tirx-opt %s --mlir-print-op-generic --mlir-print-local-scope | FileCheck %s --check-prefix=GENERIC

// Swizzled shared tiles (docs/layouts.md): the Swizzle[...] term prints and
// parses canonically, and regions at multiples of the period keep it.

// A 128B swizzle of f16 over two pipeline stages of 64 x 64.
#sw128 = #tirx.layout<S[(2, 64, 64)] + Swizzle[3, 3, 3]>

// CHECK-DAG: #[[$SW:.+]] = #tirx.layout<S[(2, 64, 64) : (4096, 64, 1)] + Swizzle[3, 3, 3]>
// CHECK-DAG: #[[$WORDS:.+]] = #tirx.layout<S[(2, 64, 32) : (2048, 32, 1)] + Swizzle[2, 3, 3]>
// CHECK-DAG: #[[$OUTER:.+]] = #tirx.layout<S[64 : 1] + Swizzle[1, 2, 3, outer]>
// CHECK-DAG: #[[$INNER:.+]] = #tirx.layout<S[64 : 1] + Swizzle[0, 1, 3]>
// CHECK-LABEL: tirx.kernel @stages
// CHECK: tirx.alloc_shared : !tirx.tensor<2x64x64xf16, shared, #[[$SW]], align = 1024>
// The bytes seen as ui32: per_element 3 - 1.
// CHECK: tirx.view %{{.*}} : !tirx.tensor<2x64x64xf16, shared, #[[$SW]], align = 1024> -> !tirx.tensor<2x64x32xui32, shared, #[[$WORDS]], align = 1024>
// The outer variant, and an explicit inner (not printed).
// CHECK: tirx.alloc_shared : !tirx.tensor<64xf32, shared, #[[$OUTER]]>
// CHECK: tirx.alloc_shared : !tirx.tensor<64xf32, shared, #[[$INNER]]>

// The regions' inferred types. Stage 1 starts at element 4096, a multiple
// of the 512-element period; a dynamic stage index moves the base by 4096
// elements; eight whole rows (8 x 64 elements = one period) start at 512.
// GENERIC: "tirx.region"{{.*}} -> !tirx.tensor<1x64x64xf16, shared, #tirx.layout<S[(1, 64, 64) : (4096, 64, 1)] + 4096 + Swizzle[3, 3, 3]>, align = 1024>
// GENERIC: "tirx.region"{{.*}} -> !tirx.tensor<1x64x64xf16, shared, #tirx.layout<S[(1, 64, 64) : (4096, 64, 1)] + Swizzle[3, 3, 3]>, align = 1024>
// GENERIC: "tirx.region"{{.*}} -> !tirx.tensor<1x8x64xf16, shared, #tirx.layout<S[(1, 8, 64) : (4096, 64, 1)] + 512 + Swizzle[3, 3, 3]>, align = 1024>
tirx.kernel @stages() launch(grid = [1], block = [32]) {
  %smem = tirx.alloc_shared : !tirx.tensor<2x64x64xf16, shared, #sw128, align = 1024>
  %one = tirx.region %smem[1, 0, 0] [1, 64, 64]
      : !tirx.tensor<2x64x64xf16, shared, #sw128, align = 1024>
  %tx = tirx.thread_idx x
  %c2 = arith.constant 2 : index
  %stage = arith.remui %tx, %c2 : index
  %dyn = tirx.region %smem[%stage, 0, 0] [1, 64, 64]
      : !tirx.tensor<2x64x64xf16, shared, #sw128, align = 1024>
  %rows = tirx.region %smem[0, 8, 0] [1, 8, 64]
      : !tirx.tensor<2x64x64xf16, shared, #sw128, align = 1024>
  %words = tirx.view %smem : !tirx.tensor<2x64x64xf16, shared, #sw128, align = 1024>
      -> !tirx.tensor<2x64x32xui32, shared, #tirx.layout<S[(2, 64, 32)] + Swizzle[2, 3, 3]>, align = 1024>
  %outer = tirx.alloc_shared : !tirx.tensor<64xf32, shared, #tirx.layout<S[64] + Swizzle[1, 2, 3, outer]>>
  %first = tirx.alloc_shared : !tirx.tensor<64xf32, shared, #tirx.layout<S[64] + Swizzle[0, 1, 3, inner]>>
  tirx.return
}
