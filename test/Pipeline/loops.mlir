// Loops and branches around tile ops down to PTX, as the Python DSL writes
// them: `T.serial` is an scf.for carrying `unroll = <disable = true>`, kept
// as a loop (`.pragma "nounroll"` and a `bra` back to its head); `T.unroll`
// is straight-line code with constant region offsets (no branch at all);
// `T.If`/`T.Then`/`T.Else` is an scf.if. A register tile updated in a loop is
// carried in registers: no `.local` anywhere.
//
// RUN: tirx-opt %s --tirx-to-ptx="ptx-output=%t.ptx" -o /dev/null
// RUN: FileCheck %s --enable-var-scope < %t.ptx
// RUN: FileCheck %s --check-prefix=LOCAL < %t.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90 %t.ptx -o /dev/null %}

#row = #tirx.layout<S[(8, 32, 4) : (1@warpid, 1@laneid, 1)]>
!regs = !tirx.tensor<8x32x4xf32, local, #row>
!scalars = !tirx.tensor<8x32x4x1xf32, local, #row>
!A = !tirx.tensor<64x1024xf32, global, align = 16>
!slice = !tirx.tensor<1x1024xf32, global, #tirx.layout<S[(1, 1024) : (1024, 1)]>, align = 16>
!rowg = !tirx.tensor<8x32x4xf32, global, #tirx.layout<S[(1, 1024) : (1024, 1)]>, align = 16>
!slice1 = !tirx.tensor<1x1024xf32, global, #tirx.layout<S[(1, 1024) : (1024, 1)] + 1024>, align = 16>
!rowg1 = !tirx.tensor<8x32x4xf32, global, #tirx.layout<S[(1, 1024) : (1024, 1)] + 1024>, align = 16>
!slice2 = !tirx.tensor<1x1024xf32, global, #tirx.layout<S[(1, 1024) : (1024, 1)] + 2048>, align = 16>
!rowg2 = !tirx.tensor<8x32x4xf32, global, #tirx.layout<S[(1, 1024) : (1024, 1)] + 2048>, align = 16>
!slice3 = !tirx.tensor<1x1024xf32, global, #tirx.layout<S[(1, 1024) : (1024, 1)] + 3072>, align = 16>
!rowg3 = !tirx.tensor<8x32x4xf32, global, #tirx.layout<S[(1, 1024) : (1024, 1)] + 3072>, align = 16>
!B = !tirx.tensor<1024xf32, global, align = 16>
!Bv = !tirx.tensor<8x32x4xf32, global, align = 16>

// No kernel of this file uses local memory.
// LOCAL-NOT: .local

// Column sums, `for i in T.serial(64)`: one load and four adds per
// iteration, the sums in the same four registers from one iteration to the
// next (the adds read what the previous iteration's adds wrote), the row
// address advanced by 4096 bytes, and a branch back.
// CHECK-LABEL: .entry serial_colsum(
// CHECK: mov.b32 [[S0:%r[0-9]+]], 0x00000000;
// CHECK: [[HEAD:\$L__BB0_[0-9]+]]:
// CHECK-NEXT: .pragma "nounroll";
// CHECK: ld.global.v4.b32 {[[X0:%r[0-9]+]], [[X1:%r[0-9]+]], [[X2:%r[0-9]+]], [[X3:%r[0-9]+]]}, [{{%rd[0-9]+}}];
// CHECK: add.rn.f32 [[S0]], [[S0]], [[X0]];
// CHECK: add.rn.f32 [[S1:%r[0-9]+]], [[S1]], [[X1]];
// CHECK: add.rn.f32 [[S2:%r[0-9]+]], [[S2]], [[X2]];
// CHECK: add.rn.f32 [[S3:%r[0-9]+]], [[S3]], [[X3]];
// CHECK-NOT: ld.global
// CHECK: @%p{{[0-9]+}} bra {{[[:space:]]*}}[[HEAD]];
// CHECK-NOT: add.rn.f32
// CHECK: st.global.v4.b32 [{{%rd[0-9]+}}], {[[S0]], [[S1]], [[S2]], [[S3]]};
// CHECK: ret;
tirx.kernel @serial_colsum(%A: !A, %B: !B) launch(grid = [1], block = [256]) {
  %acc = tirx.alloc_local : !regs
  %sums = tirx.view %acc : !regs -> !scalars
  tile.apply "mov.b32" scope(cta) (%sums, 0.0 : f32) : !scalars
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %c64 step %c1 {
    %row = tirx.alloc_local : !regs
    %r = tirx.region %A[%i, 0] [1, 1024] : !A
    %v = tirx.view %r : !slice -> !rowg
    tile.apply "ld.global.v4.b32" scope(cta) (%row, %v) : !regs, !rowg
    %x = tirx.view %row : !regs -> !scalars
    tile.apply "add.rn.f32" scope(cta) (%sums, %sums, %x) : !scalars, !scalars, !scalars
  } {loop_annotation = #llvm.loop_annotation<unroll = <disable = true>>}
  %b = tirx.view %B : !B -> !Bv
  tile.apply "st.global.v4.b32" scope(cta) (%b, %acc) : !Bv, !regs
  tirx.return
}

// `for i in T.unroll(4)` over rows 0-3: four loads, each row's adds
// reading the previous row's sums, in row order, and no branch.
// CHECK-LABEL: .entry unrolled_colsum(
// CHECK-NOT: .pragma
// CHECK-NOT: bra
// CHECK: ld.global.v4.b32 {[[Y0:%r[0-9]+]], {{.*}}}, [{{%rd[0-9]+}}];
// CHECK: add.rn.f32 [[T0:%r[0-9]+]], {{%r[0-9]+}}, [[Y0]];
// CHECK: ld.global.v4.b32 {[[Y1:%r[0-9]+]], {{.*}}}, [{{%rd[0-9]+}}];
// CHECK: add.rn.f32 [[T1:%r[0-9]+]], [[T0]], [[Y1]];
// CHECK: ld.global.v4.b32 {[[Y2:%r[0-9]+]], {{.*}}}, [{{%rd[0-9]+}}];
// CHECK: add.rn.f32 [[T2:%r[0-9]+]], [[T1]], [[Y2]];
// CHECK: ld.global.v4.b32 {[[Y3:%r[0-9]+]], {{.*}}}, [{{%rd[0-9]+}}];
// CHECK: add.rn.f32 {{%r[0-9]+}}, [[T2]], [[Y3]];
// CHECK-NOT: bra
// CHECK: ret;
tirx.kernel @unrolled_colsum(%A: !A, %B: !B) launch(grid = [1], block = [256]) {
  %acc = tirx.alloc_local : !regs
  %sums = tirx.view %acc : !regs -> !scalars
  tile.apply "mov.b32" scope(cta) (%sums, 0.0 : f32) : !scalars
  %row = tirx.alloc_local : !regs
  %x = tirx.view %row : !regs -> !scalars
  %r0 = tirx.region %A[0, 0] [1, 1024] : !A
  %v0 = tirx.view %r0 : !slice -> !rowg
  tile.apply "ld.global.v4.b32" scope(cta) (%row, %v0) : !regs, !rowg
  tile.apply "add.rn.f32" scope(cta) (%sums, %sums, %x) : !scalars, !scalars, !scalars
  %r1 = tirx.region %A[1, 0] [1, 1024] : !A
  %v1 = tirx.view %r1 : !slice1 -> !rowg1
  tile.apply "ld.global.v4.b32" scope(cta) (%row, %v1) : !regs, !rowg1
  tile.apply "add.rn.f32" scope(cta) (%sums, %sums, %x) : !scalars, !scalars, !scalars
  %r2 = tirx.region %A[2, 0] [1, 1024] : !A
  %v2 = tirx.view %r2 : !slice2 -> !rowg2
  tile.apply "ld.global.v4.b32" scope(cta) (%row, %v2) : !regs, !rowg2
  tile.apply "add.rn.f32" scope(cta) (%sums, %sums, %x) : !scalars, !scalars, !scalars
  %r3 = tirx.region %A[3, 0] [1, 1024] : !A
  %v3 = tirx.view %r3 : !slice3 -> !rowg3
  tile.apply "ld.global.v4.b32" scope(cta) (%row, %v3) : !regs, !rowg3
  tile.apply "add.rn.f32" scope(cta) (%sums, %sums, %x) : !scalars, !scalars, !scalars
  %b = tirx.view %B : !B -> !Bv
  tile.apply "st.global.v4.b32" scope(cta) (%b, %acc) : !Bv, !regs
  tirx.return
}

// `for i in T.serial(0, 64, 4)` around `for j in T.unroll(4)`: one loop
// (one `nounroll`, one branch back) whose body issues four independent
// loads before it adds them in row order; the row offset is the loop index
// plus the constant j.
// CHECK-LABEL: .entry nested_colsum(
// CHECK: [[HEAD:\$L__BB2_[0-9]+]]:
// CHECK-NEXT: .pragma "nounroll";
// CHECK-COUNT-4: ld.global.v4.b32
// CHECK-COUNT-16: add.rn.f32
// CHECK-NOT: ld.global
// CHECK: @%p{{[0-9]+}} bra {{[[:space:]]*}}[[HEAD]];
// CHECK-NOT: .pragma
// CHECK: ret;
tirx.kernel @nested_colsum(%A: !A, %B: !B) launch(grid = [1], block = [256]) {
  %acc = tirx.alloc_local : !regs
  %sums = tirx.view %acc : !regs -> !scalars
  tile.apply "mov.b32" scope(cta) (%sums, 0.0 : f32) : !scalars
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c64 step %c4 {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %i1 = arith.addi %i, %c1 : index
    %i2 = arith.addi %i, %c2 : index
    %i3 = arith.addi %i, %c3 : index
    %row0 = tirx.alloc_local : !regs
    %row1 = tirx.alloc_local : !regs
    %row2 = tirx.alloc_local : !regs
    %row3 = tirx.alloc_local : !regs
    %r0 = tirx.region %A[%i, 0] [1, 1024] : !A
    %v0 = tirx.view %r0 : !slice -> !rowg
    tile.apply "ld.global.v4.b32" scope(cta) (%row0, %v0) : !regs, !rowg
    %r1 = tirx.region %A[%i1, 0] [1, 1024] : !A
    %v1 = tirx.view %r1 : !slice -> !rowg
    tile.apply "ld.global.v4.b32" scope(cta) (%row1, %v1) : !regs, !rowg
    %r2 = tirx.region %A[%i2, 0] [1, 1024] : !A
    %v2 = tirx.view %r2 : !slice -> !rowg
    tile.apply "ld.global.v4.b32" scope(cta) (%row2, %v2) : !regs, !rowg
    %r3 = tirx.region %A[%i3, 0] [1, 1024] : !A
    %v3 = tirx.view %r3 : !slice -> !rowg
    tile.apply "ld.global.v4.b32" scope(cta) (%row3, %v3) : !regs, !rowg
    %x0 = tirx.view %row0 : !regs -> !scalars
    tile.apply "add.rn.f32" scope(cta) (%sums, %sums, %x0) : !scalars, !scalars, !scalars
    %x1 = tirx.view %row1 : !regs -> !scalars
    tile.apply "add.rn.f32" scope(cta) (%sums, %sums, %x1) : !scalars, !scalars, !scalars
    %x2 = tirx.view %row2 : !regs -> !scalars
    tile.apply "add.rn.f32" scope(cta) (%sums, %sums, %x2) : !scalars, !scalars, !scalars
    %x3 = tirx.view %row3 : !regs -> !scalars
    tile.apply "add.rn.f32" scope(cta) (%sums, %sums, %x3) : !scalars, !scalars, !scalars
  } {loop_annotation = #llvm.loop_annotation<unroll = <disable = true>>}
  %b = tirx.view %B : !B -> !Bv
  tile.apply "st.global.v4.b32" scope(cta) (%b, %acc) : !Bv, !regs
  tirx.return
}

// `with T.If(tid < 128)`: `T.Then` stores row 0, `T.Else` stores row 1 —
// a forward branch around each block, no loop.
// CHECK-LABEL: .entry branch(
// CHECK-NOT: .pragma
// CHECK: setp.gt.u32 [[P:%p[0-9]+]], {{%r[0-9]+}}, 127;
// CHECK: @[[P]] bra {{[[:space:]]*}}[[ELSE:\$L__BB3_[0-9]+]];
// CHECK: ld.global.v4.b32
// CHECK: st.global.v4.b32
// CHECK: [[ELSE]]:
// CHECK: ld.global.v4.b32
// CHECK: st.global.v4.b32
// CHECK: ret;
tirx.kernel @branch(%A: !A, %B: !B) launch(grid = [1], block = [256]) {
  %t = tirx.thread_idx x
  %c128 = arith.constant 128 : index
  %p = arith.cmpi ult, %t, %c128 : index
  %row = tirx.alloc_local : !regs
  %b = tirx.view %B : !B -> !Bv
  scf.if %p {
    %r = tirx.region %A[0, 0] [1, 1024] : !A
    %v = tirx.view %r : !slice -> !rowg
    tile.apply "ld.global.v4.b32" scope(cta) (%row, %v) : !regs, !rowg
    tile.apply "st.global.v4.b32" scope(cta) (%b, %row) : !Bv, !regs
  } else {
    %r = tirx.region %A[1, 0] [1, 1024] : !A
    %v = tirx.view %r : !slice1 -> !rowg1
    tile.apply "ld.global.v4.b32" scope(cta) (%row, %v) : !regs, !rowg1
    tile.apply "st.global.v4.b32" scope(cta) (%b, %row) : !Bv, !regs
  }
  tirx.return
}
