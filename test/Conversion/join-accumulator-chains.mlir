// tile-join-accumulator-chains: inline-PTX statements on one accumulator,
// one after the other, become one statement; anything between them that
// could observe or change the slots keeps them apart.
// RUN: tirx-opt %s --tile-join-accumulator-chains | FileCheck %s

// Three steps: one statement, each step's untied inputs renumbered after the
// outputs, the accumulator's value before the chain tied last.
// CHECK-LABEL: func.func @three(
// CHECK: %[[X:.*]] = tirx.slot_load %arg0[0]
// CHECK-NEXT: %[[Y:.*]] = tirx.slot_load %arg0[1]
// CHECK-NEXT: %[[R:.*]] = llvm.inline_asm has_side_effects "op {$0, $1}, $2;\0A\09op {$0, $1}, $3;\0A\09op {$0, $1}, $4;", "=f,=f,l,l,l,0,1" %arg2, %arg3, %arg4, %[[X]], %[[Y]]
// CHECK-NEXT: llvm.extractvalue %[[R]][0]
// CHECK-NEXT: llvm.extractvalue %[[R]][1]
// CHECK-NEXT: tirx.slot_store
// CHECK-NEXT: tirx.slot_store
// CHECK-NEXT: return
func.func @three(%d: !tirx.tensor<2xf32, local>, %o: !tirx.tensor<2xf32, local>, %a: i64, %b: i64, %c: i64, %p: !llvm.ptr) {
  %l0a = tirx.slot_load %d[0] : !tirx.tensor<2xf32, local> -> f32
  %l0b = tirx.slot_load %d[1] : !tirx.tensor<2xf32, local> -> f32
  %r0 = llvm.inline_asm has_side_effects "op {$0, $1}, $2;", "=f,=f,l,0,1" %a, %l0a, %l0b : (i64, f32, f32) -> !llvm.struct<(f32, f32)>
  %e0a = llvm.extractvalue %r0[0] : !llvm.struct<(f32, f32)>
  %e0b = llvm.extractvalue %r0[1] : !llvm.struct<(f32, f32)>
  tirx.slot_store %e0a, %d[0] : f32, !tirx.tensor<2xf32, local>
  tirx.slot_store %e0b, %d[1] : f32, !tirx.tensor<2xf32, local>
  %l1a = tirx.slot_load %d[0] : !tirx.tensor<2xf32, local> -> f32
  %l1b = tirx.slot_load %d[1] : !tirx.tensor<2xf32, local> -> f32
  %r1 = llvm.inline_asm has_side_effects "op {$0, $1}, $2;", "=f,=f,l,0,1" %b, %l1a, %l1b : (i64, f32, f32) -> !llvm.struct<(f32, f32)>
  %e1a = llvm.extractvalue %r1[0] : !llvm.struct<(f32, f32)>
  %e1b = llvm.extractvalue %r1[1] : !llvm.struct<(f32, f32)>
  tirx.slot_store %e1a, %d[0] : f32, !tirx.tensor<2xf32, local>
  tirx.slot_store %e1b, %d[1] : f32, !tirx.tensor<2xf32, local>
  %l2a = tirx.slot_load %d[0] : !tirx.tensor<2xf32, local> -> f32
  %l2b = tirx.slot_load %d[1] : !tirx.tensor<2xf32, local> -> f32
  %r2 = llvm.inline_asm has_side_effects "op {$0, $1}, $2;", "=f,=f,l,0,1" %c, %l2a, %l2b : (i64, f32, f32) -> !llvm.struct<(f32, f32)>
  %e2a = llvm.extractvalue %r2[0] : !llvm.struct<(f32, f32)>
  %e2b = llvm.extractvalue %r2[1] : !llvm.struct<(f32, f32)>
  tirx.slot_store %e2a, %d[0] : f32, !tirx.tensor<2xf32, local>
  tirx.slot_store %e2b, %d[1] : f32, !tirx.tensor<2xf32, local>
  return
}

// Pure ops and loads of another tile between (wgmma's A in registers): joined.
// CHECK-LABEL: func.func @operand_between(
// CHECK: llvm.inline_asm has_side_effects "op {$0, $1}, $2;\0A\09op {$0, $1}, $3;"
// CHECK-NOT: llvm.inline_asm
func.func @operand_between(%d: !tirx.tensor<2xf32, local>, %o: !tirx.tensor<2xf32, local>, %a: i64, %b: i64, %c: i64, %p: !llvm.ptr) {
  %l0a = tirx.slot_load %d[0] : !tirx.tensor<2xf32, local> -> f32
  %l0b = tirx.slot_load %d[1] : !tirx.tensor<2xf32, local> -> f32
  %r0 = llvm.inline_asm has_side_effects "op {$0, $1}, $2;", "=f,=f,l,0,1" %a, %l0a, %l0b : (i64, f32, f32) -> !llvm.struct<(f32, f32)>
  %e0a = llvm.extractvalue %r0[0] : !llvm.struct<(f32, f32)>
  %e0b = llvm.extractvalue %r0[1] : !llvm.struct<(f32, f32)>
  tirx.slot_store %e0a, %d[0] : f32, !tirx.tensor<2xf32, local>
  tirx.slot_store %e0b, %d[1] : f32, !tirx.tensor<2xf32, local>
  %k = llvm.add %a, %b : i64
  %x = tirx.slot_load %o[0] : !tirx.tensor<2xf32, local> -> f32
  %l1a = tirx.slot_load %d[0] : !tirx.tensor<2xf32, local> -> f32
  %l1b = tirx.slot_load %d[1] : !tirx.tensor<2xf32, local> -> f32
  %r1 = llvm.inline_asm has_side_effects "op {$0, $1}, $2;", "=f,=f,l,0,1" %k, %l1a, %l1b : (i64, f32, f32) -> !llvm.struct<(f32, f32)>
  %e1a = llvm.extractvalue %r1[0] : !llvm.struct<(f32, f32)>
  %e1b = llvm.extractvalue %r1[1] : !llvm.struct<(f32, f32)>
  tirx.slot_store %e1a, %d[0] : f32, !tirx.tensor<2xf32, local>
  tirx.slot_store %e1b, %d[1] : f32, !tirx.tensor<2xf32, local>
  return
}

// A read between of a slot the first statement stores (and a store to memory):
// kept apart.
// CHECK-LABEL: func.func @stored_slot_read(
// CHECK-COUNT-2: llvm.inline_asm
func.func @stored_slot_read(%d: !tirx.tensor<2xf32, local>, %o: !tirx.tensor<2xf32, local>, %a: i64, %b: i64, %c: i64, %p: !llvm.ptr) {
  %l0a = tirx.slot_load %d[0] : !tirx.tensor<2xf32, local> -> f32
  %l0b = tirx.slot_load %d[1] : !tirx.tensor<2xf32, local> -> f32
  %r0 = llvm.inline_asm has_side_effects "op {$0, $1}, $2;", "=f,=f,l,0,1" %a, %l0a, %l0b : (i64, f32, f32) -> !llvm.struct<(f32, f32)>
  %e0a = llvm.extractvalue %r0[0] : !llvm.struct<(f32, f32)>
  %e0b = llvm.extractvalue %r0[1] : !llvm.struct<(f32, f32)>
  tirx.slot_store %e0a, %d[0] : f32, !tirx.tensor<2xf32, local>
  tirx.slot_store %e0b, %d[1] : f32, !tirx.tensor<2xf32, local>
  %x = tirx.slot_load %d[1] : !tirx.tensor<2xf32, local> -> f32
  llvm.store %x, %p : f32, !llvm.ptr
  %l1a = tirx.slot_load %d[0] : !tirx.tensor<2xf32, local> -> f32
  %l1b = tirx.slot_load %d[1] : !tirx.tensor<2xf32, local> -> f32
  %r1 = llvm.inline_asm has_side_effects "op {$0, $1}, $2;", "=f,=f,l,0,1" %b, %l1a, %l1b : (i64, f32, f32) -> !llvm.struct<(f32, f32)>
  %e1a = llvm.extractvalue %r1[0] : !llvm.struct<(f32, f32)>
  %e1b = llvm.extractvalue %r1[1] : !llvm.struct<(f32, f32)>
  tirx.slot_store %e1a, %d[0] : f32, !tirx.tensor<2xf32, local>
  tirx.slot_store %e1b, %d[1] : f32, !tirx.tensor<2xf32, local>
  return
}

// A load between of a slot the first stores, used by a pure op only: kept apart.
// CHECK-LABEL: func.func @stored_slot_load(
// CHECK-COUNT-2: llvm.inline_asm
func.func @stored_slot_load(%d: !tirx.tensor<2xf32, local>, %o: !tirx.tensor<2xf32, local>, %a: i64, %b: i64, %c: i64, %p: !llvm.ptr) {
  %l0a = tirx.slot_load %d[0] : !tirx.tensor<2xf32, local> -> f32
  %l0b = tirx.slot_load %d[1] : !tirx.tensor<2xf32, local> -> f32
  %r0 = llvm.inline_asm has_side_effects "op {$0, $1}, $2;", "=f,=f,l,0,1" %a, %l0a, %l0b : (i64, f32, f32) -> !llvm.struct<(f32, f32)>
  %e0a = llvm.extractvalue %r0[0] : !llvm.struct<(f32, f32)>
  %e0b = llvm.extractvalue %r0[1] : !llvm.struct<(f32, f32)>
  tirx.slot_store %e0a, %d[0] : f32, !tirx.tensor<2xf32, local>
  tirx.slot_store %e0b, %d[1] : f32, !tirx.tensor<2xf32, local>
  %x = tirx.slot_load %d[1] : !tirx.tensor<2xf32, local> -> f32
  %y = llvm.fadd %x, %x : f32
  %l1a = tirx.slot_load %d[0] : !tirx.tensor<2xf32, local> -> f32
  %l1b = tirx.slot_load %d[1] : !tirx.tensor<2xf32, local> -> f32
  %r1 = llvm.inline_asm has_side_effects "op {$0, $1}, $2;", "=f,=f,l,0,1" %b, %l1a, %l1b : (i64, f32, f32) -> !llvm.struct<(f32, f32)>
  %e1a = llvm.extractvalue %r1[0] : !llvm.struct<(f32, f32)>
  %e1b = llvm.extractvalue %r1[1] : !llvm.struct<(f32, f32)>
  tirx.slot_store %e1a, %d[0] : f32, !tirx.tensor<2xf32, local>
  tirx.slot_store %e1b, %d[1] : f32, !tirx.tensor<2xf32, local>
  return
}

// Another slot store between: kept apart.
// CHECK-LABEL: func.func @other_store(
// CHECK-COUNT-2: llvm.inline_asm
func.func @other_store(%d: !tirx.tensor<2xf32, local>, %o: !tirx.tensor<2xf32, local>, %a: i64, %b: i64, %c: i64, %p: !llvm.ptr) {
  %l0a = tirx.slot_load %d[0] : !tirx.tensor<2xf32, local> -> f32
  %l0b = tirx.slot_load %d[1] : !tirx.tensor<2xf32, local> -> f32
  %r0 = llvm.inline_asm has_side_effects "op {$0, $1}, $2;", "=f,=f,l,0,1" %a, %l0a, %l0b : (i64, f32, f32) -> !llvm.struct<(f32, f32)>
  %e0a = llvm.extractvalue %r0[0] : !llvm.struct<(f32, f32)>
  %e0b = llvm.extractvalue %r0[1] : !llvm.struct<(f32, f32)>
  tirx.slot_store %e0a, %d[0] : f32, !tirx.tensor<2xf32, local>
  tirx.slot_store %e0b, %d[1] : f32, !tirx.tensor<2xf32, local>
  %z = llvm.mlir.constant(0.0 : f32) : f32
  tirx.slot_store %z, %o[0] : f32, !tirx.tensor<2xf32, local>
  %l1a = tirx.slot_load %d[0] : !tirx.tensor<2xf32, local> -> f32
  %l1b = tirx.slot_load %d[1] : !tirx.tensor<2xf32, local> -> f32
  %r1 = llvm.inline_asm has_side_effects "op {$0, $1}, $2;", "=f,=f,l,0,1" %b, %l1a, %l1b : (i64, f32, f32) -> !llvm.struct<(f32, f32)>
  %e1a = llvm.extractvalue %r1[0] : !llvm.struct<(f32, f32)>
  %e1b = llvm.extractvalue %r1[1] : !llvm.struct<(f32, f32)>
  tirx.slot_store %e1a, %d[0] : f32, !tirx.tensor<2xf32, local>
  tirx.slot_store %e1b, %d[1] : f32, !tirx.tensor<2xf32, local>
  return
}

// A barrier between: kept apart.
// CHECK-LABEL: func.func @barrier(
// CHECK-COUNT-2: llvm.inline_asm
func.func @barrier(%d: !tirx.tensor<2xf32, local>, %o: !tirx.tensor<2xf32, local>, %a: i64, %b: i64, %c: i64, %p: !llvm.ptr) {
  %l0a = tirx.slot_load %d[0] : !tirx.tensor<2xf32, local> -> f32
  %l0b = tirx.slot_load %d[1] : !tirx.tensor<2xf32, local> -> f32
  %r0 = llvm.inline_asm has_side_effects "op {$0, $1}, $2;", "=f,=f,l,0,1" %a, %l0a, %l0b : (i64, f32, f32) -> !llvm.struct<(f32, f32)>
  %e0a = llvm.extractvalue %r0[0] : !llvm.struct<(f32, f32)>
  %e0b = llvm.extractvalue %r0[1] : !llvm.struct<(f32, f32)>
  tirx.slot_store %e0a, %d[0] : f32, !tirx.tensor<2xf32, local>
  tirx.slot_store %e0b, %d[1] : f32, !tirx.tensor<2xf32, local>
  gpu.barrier
  %l1a = tirx.slot_load %d[0] : !tirx.tensor<2xf32, local> -> f32
  %l1b = tirx.slot_load %d[1] : !tirx.tensor<2xf32, local> -> f32
  %r1 = llvm.inline_asm has_side_effects "op {$0, $1}, $2;", "=f,=f,l,0,1" %b, %l1a, %l1b : (i64, f32, f32) -> !llvm.struct<(f32, f32)>
  %e1a = llvm.extractvalue %r1[0] : !llvm.struct<(f32, f32)>
  %e1b = llvm.extractvalue %r1[1] : !llvm.struct<(f32, f32)>
  tirx.slot_store %e1a, %d[0] : f32, !tirx.tensor<2xf32, local>
  tirx.slot_store %e1b, %d[1] : f32, !tirx.tensor<2xf32, local>
  return
}

// The second reads the slots in another order: kept apart.
// CHECK-LABEL: func.func @permuted(
// CHECK-COUNT-2: llvm.inline_asm
func.func @permuted(%d: !tirx.tensor<2xf32, local>, %o: !tirx.tensor<2xf32, local>, %a: i64, %b: i64, %c: i64, %p: !llvm.ptr) {
  %l0a = tirx.slot_load %d[0] : !tirx.tensor<2xf32, local> -> f32
  %l0b = tirx.slot_load %d[1] : !tirx.tensor<2xf32, local> -> f32
  %r0 = llvm.inline_asm has_side_effects "op {$0, $1}, $2;", "=f,=f,l,0,1" %a, %l0a, %l0b : (i64, f32, f32) -> !llvm.struct<(f32, f32)>
  %e0a = llvm.extractvalue %r0[0] : !llvm.struct<(f32, f32)>
  %e0b = llvm.extractvalue %r0[1] : !llvm.struct<(f32, f32)>
  tirx.slot_store %e0a, %d[0] : f32, !tirx.tensor<2xf32, local>
  tirx.slot_store %e0b, %d[1] : f32, !tirx.tensor<2xf32, local>
  %l1a = tirx.slot_load %d[1] : !tirx.tensor<2xf32, local> -> f32
  %l1b = tirx.slot_load %d[0] : !tirx.tensor<2xf32, local> -> f32
  %r1 = llvm.inline_asm has_side_effects "op {$0, $1}, $2;", "=f,=f,l,0,1" %b, %l1a, %l1b : (i64, f32, f32) -> !llvm.struct<(f32, f32)>
  %e1a = llvm.extractvalue %r1[0] : !llvm.struct<(f32, f32)>
  %e1b = llvm.extractvalue %r1[1] : !llvm.struct<(f32, f32)>
  tirx.slot_store %e1a, %d[0] : f32, !tirx.tensor<2xf32, local>
  tirx.slot_store %e1b, %d[1] : f32, !tirx.tensor<2xf32, local>
  return
}

// The second updates another tile: kept apart.
// CHECK-LABEL: func.func @other_tile(
// CHECK-COUNT-2: llvm.inline_asm
func.func @other_tile(%d: !tirx.tensor<2xf32, local>, %o: !tirx.tensor<2xf32, local>, %a: i64, %b: i64, %c: i64, %p: !llvm.ptr) {
  %l0a = tirx.slot_load %d[0] : !tirx.tensor<2xf32, local> -> f32
  %l0b = tirx.slot_load %d[1] : !tirx.tensor<2xf32, local> -> f32
  %r0 = llvm.inline_asm has_side_effects "op {$0, $1}, $2;", "=f,=f,l,0,1" %a, %l0a, %l0b : (i64, f32, f32) -> !llvm.struct<(f32, f32)>
  %e0a = llvm.extractvalue %r0[0] : !llvm.struct<(f32, f32)>
  %e0b = llvm.extractvalue %r0[1] : !llvm.struct<(f32, f32)>
  tirx.slot_store %e0a, %d[0] : f32, !tirx.tensor<2xf32, local>
  tirx.slot_store %e0b, %d[1] : f32, !tirx.tensor<2xf32, local>
  %l1a = tirx.slot_load %o[0] : !tirx.tensor<2xf32, local> -> f32
  %l1b = tirx.slot_load %o[1] : !tirx.tensor<2xf32, local> -> f32
  %r1 = llvm.inline_asm has_side_effects "op {$0, $1}, $2;", "=f,=f,l,0,1" %b, %l1a, %l1b : (i64, f32, f32) -> !llvm.struct<(f32, f32)>
  %e1a = llvm.extractvalue %r1[0] : !llvm.struct<(f32, f32)>
  %e1b = llvm.extractvalue %r1[1] : !llvm.struct<(f32, f32)>
  tirx.slot_store %e1a, %o[0] : f32, !tirx.tensor<2xf32, local>
  tirx.slot_store %e1b, %o[1] : f32, !tirx.tensor<2xf32, local>
  return
}

// The second's tied inputs were read before the first statement: kept apart.
// CHECK-LABEL: func.func @load_before(
// CHECK-COUNT-2: llvm.inline_asm
func.func @load_before(%d: !tirx.tensor<2xf32, local>, %o: !tirx.tensor<2xf32, local>, %a: i64, %b: i64, %c: i64, %p: !llvm.ptr) {
  %l1a = tirx.slot_load %d[0] : !tirx.tensor<2xf32, local> -> f32
  %l1b = tirx.slot_load %d[1] : !tirx.tensor<2xf32, local> -> f32
  %l0a = tirx.slot_load %d[0] : !tirx.tensor<2xf32, local> -> f32
  %l0b = tirx.slot_load %d[1] : !tirx.tensor<2xf32, local> -> f32
  %r0 = llvm.inline_asm has_side_effects "op {$0, $1}, $2;", "=f,=f,l,0,1" %a, %l0a, %l0b : (i64, f32, f32) -> !llvm.struct<(f32, f32)>
  %e0a = llvm.extractvalue %r0[0] : !llvm.struct<(f32, f32)>
  %e0b = llvm.extractvalue %r0[1] : !llvm.struct<(f32, f32)>
  tirx.slot_store %e0a, %d[0] : f32, !tirx.tensor<2xf32, local>
  tirx.slot_store %e0b, %d[1] : f32, !tirx.tensor<2xf32, local>
  %r1 = llvm.inline_asm has_side_effects "op {$0, $1}, $2;", "=f,=f,l,0,1" %b, %l1a, %l1b : (i64, f32, f32) -> !llvm.struct<(f32, f32)>
  %e1a = llvm.extractvalue %r1[0] : !llvm.struct<(f32, f32)>
  %e1b = llvm.extractvalue %r1[1] : !llvm.struct<(f32, f32)>
  tirx.slot_store %e1a, %d[0] : f32, !tirx.tensor<2xf32, local>
  tirx.slot_store %e1b, %d[1] : f32, !tirx.tensor<2xf32, local>
  return
}

// The first statement's second output is not tied to an input: kept apart.
// CHECK-LABEL: func.func @untied_output(
// CHECK-COUNT-2: llvm.inline_asm
func.func @untied_output(%d: !tirx.tensor<2xf32, local>, %o: !tirx.tensor<2xf32, local>, %a: i64, %b: i64, %c: i64, %p: !llvm.ptr) {
  %l0a = tirx.slot_load %d[0] : !tirx.tensor<2xf32, local> -> f32
  %l0b = tirx.slot_load %d[1] : !tirx.tensor<2xf32, local> -> f32
  %r0 = llvm.inline_asm has_side_effects "op {$0, $1}, $2;", "=f,=f,l,0,r" %a, %l0a, %l0b : (i64, f32, f32) -> !llvm.struct<(f32, f32)>
  %e0a = llvm.extractvalue %r0[0] : !llvm.struct<(f32, f32)>
  %e0b = llvm.extractvalue %r0[1] : !llvm.struct<(f32, f32)>
  tirx.slot_store %e0a, %d[0] : f32, !tirx.tensor<2xf32, local>
  tirx.slot_store %e0b, %d[1] : f32, !tirx.tensor<2xf32, local>
  %l1a = tirx.slot_load %d[0] : !tirx.tensor<2xf32, local> -> f32
  %l1b = tirx.slot_load %d[1] : !tirx.tensor<2xf32, local> -> f32
  %r1 = llvm.inline_asm has_side_effects "op {$0, $1}, $2;", "=f,=f,l,0,1" %b, %l1a, %l1b : (i64, f32, f32) -> !llvm.struct<(f32, f32)>
  %e1a = llvm.extractvalue %r1[0] : !llvm.struct<(f32, f32)>
  %e1b = llvm.extractvalue %r1[1] : !llvm.struct<(f32, f32)>
  tirx.slot_store %e1a, %d[0] : f32, !tirx.tensor<2xf32, local>
  tirx.slot_store %e1b, %d[1] : f32, !tirx.tensor<2xf32, local>
  return
}
