//===- FastMath.cpp - f32 math to approximate hardware instructions -------===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//
//
// With fast math, f32 math functions inside GPU modules become the
// approximate PTX instructions CUDA's --use_fast_math uses (docs/math.md has
// the table and the accuracy of each). Without it they go to libdevice,
// which matches CUDA's expf/logf/... .
//
//===----------------------------------------------------------------------===//

#include "TirX/Conversion/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include "llvm/Support/MathExtras.h"

namespace mlir::tirx {
#define GEN_PASS_DEF_TIRXFASTMATH
#include "TirX/Conversion/Passes.h.inc"
} // namespace mlir::tirx

using namespace mlir;

namespace {
/// f32 `op(x)` ⇒ `post * intrinsic(pre * x)` (scales of 1 are omitted).
template <typename OpTy>
struct ApproximateUnary : public OpRewritePattern<OpTy> {
  ApproximateUnary(MLIRContext *context, StringRef intrinsic, double pre = 1.0,
                   double post = 1.0)
      : OpRewritePattern<OpTy>(context), intrinsic(intrinsic), pre(pre),
        post(post) {}

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    Type type = op.getType();
    if (!type.isF32())
      return rewriter.notifyMatchFailure(op, "only f32 has approximations");
    Location loc = op.getLoc();
    auto scale = [&](Value value, double factor) -> Value {
      if (factor == 1.0)
        return value;
      Value constant = arith::ConstantOp::create(
          rewriter, loc, rewriter.getF32FloatAttr(static_cast<float>(factor)));
      return arith::MulFOp::create(rewriter, loc, value, constant);
    };
    Value input = scale(op->getOperand(0), pre);
    Value result = LLVM::CallIntrinsicOp::create(
                       rewriter, loc, type, rewriter.getStringAttr(intrinsic),
                       ValueRange{input})
                       .getResult(0);
    rewriter.replaceOp(op, scale(result, post));
    return success();
  }

  std::string intrinsic;
  double pre, post;
};

// arith.divf (f32) ⇒ div.approx.ftz.f32
struct ApproximateDivision : public OpRewritePattern<arith::DivFOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(arith::DivFOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.getType().isF32())
      return rewriter.notifyMatchFailure(op, "only f32 has approximations");
    rewriter.replaceOpWithNewOp<LLVM::CallIntrinsicOp>(
        op, op.getType(), rewriter.getStringAttr("llvm.nvvm.div.approx.ftz.f"),
        ValueRange{op.getLhs(), op.getRhs()});
    return success();
  }
};

// math.tanh (f32) ⇒ tanh.approx.f32. LLVM 22 has no NVVM intrinsic for it,
// so it is inline PTX, exact by construction.
struct ApproximateTanh : public OpRewritePattern<math::TanhOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(math::TanhOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.getType().isF32())
      return rewriter.notifyMatchFailure(op, "only f32 has approximations");
    rewriter.replaceOpWithNewOp<LLVM::InlineAsmOp>(
        op, op.getType(), ValueRange{op.getOperand()},
        "tanh.approx.f32 $0, $1;", "=f,f", /*has_side_effects=*/false,
        /*is_align_stack=*/false, LLVM::tailcallkind::TailCallKind::None,
        LLVM::AsmDialectAttr(), ArrayAttr());
    return success();
  }
};

struct FastMathPass : public tirx::impl::TirXFastMathBase<FastMathPass> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    RewritePatternSet patterns(context);
    constexpr double log2e = llvm::numbers::log2e;
    constexpr double ln2 = llvm::numbers::ln2;
    // exp(x) ⇒ ex2.approx.ftz(x · log2 e)
    patterns.add<ApproximateUnary<math::ExpOp>>(
        context, "llvm.nvvm.ex2.approx.ftz.f", log2e);
    // exp2(x) ⇒ ex2.approx.ftz(x)
    patterns.add<ApproximateUnary<math::Exp2Op>>(context,
                                                 "llvm.nvvm.ex2.approx.ftz.f");
    // log(x) ⇒ lg2.approx.ftz(x) · ln 2
    patterns.add<ApproximateUnary<math::LogOp>>(
        context, "llvm.nvvm.lg2.approx.ftz.f", 1.0, ln2);
    // log2(x) ⇒ lg2.approx.ftz(x)
    patterns.add<ApproximateUnary<math::Log2Op>>(context,
                                                 "llvm.nvvm.lg2.approx.ftz.f");
    // sqrt ⇒ sqrt.approx.ftz, rsqrt ⇒ rsqrt.approx.ftz
    patterns.add<ApproximateUnary<math::SqrtOp>>(context,
                                                 "llvm.nvvm.sqrt.approx.ftz.f");
    patterns.add<ApproximateUnary<math::RsqrtOp>>(
        context, "llvm.nvvm.rsqrt.approx.ftz.f");
    // sin/cos ⇒ sin/cos.approx.ftz.f32
    patterns.add<ApproximateUnary<math::SinOp>>(context,
                                                "llvm.nvvm.sin.approx.ftz.f");
    patterns.add<ApproximateUnary<math::CosOp>>(context,
                                                "llvm.nvvm.cos.approx.ftz.f");
    patterns.add<ApproximateDivision, ApproximateTanh>(context);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace
