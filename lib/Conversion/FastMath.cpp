//===- FastMath.cpp - math functions to PTX: fast and precise -------------===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//
//
// tirx-fast-math: with fast math, f32 math functions inside GPU modules
// become the approximate PTX instructions CUDA's --use_fast_math uses
// (docs/math.md has the table and the accuracy of each).
//
// tirx-precise-math (always, after it): what convert-gpu-to-nvvm leaves
// unlowered or lowers other than CUDA does without fast math: math.trunc,
// ctlz and ctpop (no lowering upstream), math.sqrt (libdevice's __nv_sqrtf
// is sqrt.approx unless __CUDA_PREC_SQRT is set; CUDA's sqrtf is sqrt.rn),
// pow(10, x) (libdevice's exp10) and T.hypot (libdevice's hypot). The rest
// goes to libdevice through convert-gpu-to-nvvm, which matches CUDA's
// expf/logf/... .
//
//===----------------------------------------------------------------------===//

#include "TirX/Conversion/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/MathExtras.h"

#include <cmath>

namespace mlir::tirx {
#define GEN_PASS_DEF_TIRXFASTMATH
#define GEN_PASS_DEF_TIRXPRECISEMATH
#include "TirX/Conversion/Passes.h.inc"
} // namespace mlir::tirx

using namespace mlir;

namespace {
/// Marks the `math.sqrt` of `sqrt(x·x + y·y)` that T.hypot(x, y) traces (its
/// meaning if the mark were lost: TVM's own definition of hypot); the
/// precise pass makes it libdevice's hypot, which neither overflows nor
/// underflows in the squares.
constexpr StringLiteral kMathAttr = "tirx.math";
constexpr StringLiteral kHypot = "hypot";

bool isHypot(Operation *op) {
  auto mark = op->getAttrOfType<StringAttr>(kMathAttr);
  return mark && mark.getValue() == kHypot;
}

/// Whether `value` is the constant 10.0 (pow(10, x) is exp10(x)).
bool isTen(Value value) {
  FloatAttr constant;
  return matchPattern(value, m_Constant(&constant)) &&
         constant.getValue().isExactlyValue(10.0);
}

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
    if (isHypot(op))
      return rewriter.notifyMatchFailure(op, "hypot has no approximation");
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

Value scaleF32(PatternRewriter &rewriter, Location loc, Value value,
               double factor) {
  Value constant = arith::ConstantOp::create(
      rewriter, loc, rewriter.getF32FloatAttr(static_cast<float>(factor)));
  return arith::MulFOp::create(rewriter, loc, value, constant);
}

Value callIntrinsic(PatternRewriter &rewriter, Location loc, StringRef name,
                    Value input) {
  return LLVM::CallIntrinsicOp::create(rewriter, loc, input.getType(),
                                       rewriter.getStringAttr(name),
                                       ValueRange{input})
      .getResult(0);
}

// math.tan (f32) ⇒ sin.approx / cos.approx by div.approx: CUDA's __tanf.
struct ApproximateTan : public OpRewritePattern<math::TanOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(math::TanOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.getType().isF32())
      return rewriter.notifyMatchFailure(op, "only f32 has approximations");
    Location loc = op.getLoc();
    Value sin = callIntrinsic(rewriter, loc, "llvm.nvvm.sin.approx.ftz.f",
                              op.getOperand());
    Value cos = callIntrinsic(rewriter, loc, "llvm.nvvm.cos.approx.ftz.f",
                              op.getOperand());
    rewriter.replaceOpWithNewOp<LLVM::CallIntrinsicOp>(
        op, op.getType(), rewriter.getStringAttr("llvm.nvvm.div.approx.ftz.f"),
        ValueRange{sin, cos});
    return success();
  }
};

// math.powf (f32) ⇒ ex2.approx(y · lg2.approx(x)): CUDA's __powf; with the
// constant base 10, ex2.approx(y · log2 10): CUDA's __exp10f.
struct ApproximatePow : public OpRewritePattern<math::PowFOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(math::PowFOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.getType().isF32())
      return rewriter.notifyMatchFailure(op, "only f32 has approximations");
    Location loc = op.getLoc();
    Value exponent;
    if (isTen(op.getLhs())) {
      exponent = scaleF32(rewriter, loc, op.getRhs(), std::log2(10.0));
    } else {
      Value log2 = callIntrinsic(rewriter, loc, "llvm.nvvm.lg2.approx.ftz.f",
                                 op.getLhs());
      exponent = arith::MulFOp::create(rewriter, loc, op.getRhs(), log2);
    }
    rewriter.replaceOp(op, callIntrinsic(rewriter, loc,
                                         "llvm.nvvm.ex2.approx.ftz.f",
                                         exponent));
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
    // log10(x) ⇒ lg2.approx.ftz(x) · log10 2 (CUDA's __log10f)
    patterns.add<ApproximateUnary<math::Log10Op>>(
        context, "llvm.nvvm.lg2.approx.ftz.f", 1.0, std::log10(2.0));
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
    patterns.add<ApproximateDivision, ApproximateTanh, ApproximateTan,
                 ApproximatePow>(context);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

//===----------------------------------------------------------------------===//
// Precise
//===----------------------------------------------------------------------===//

/// libdevice's `__nv_<name>f` (f32) or `__nv_<name>` (f64) of `args`,
/// declared in the GPU module on first use. f16 and bf16 are computed in f32
/// and rounded once, as convert-gpu-to-nvvm does for the functions it lowers.
Value callLibdevice(PatternRewriter &rewriter, Operation *op, StringRef name,
                    ValueRange args) {
  Location loc = op->getLoc();
  Type type = args.front().getType();
  auto floatType = cast<FloatType>(type);
  bool isDouble = floatType.isF64();
  Type callType = isDouble ? type : rewriter.getF32Type();
  std::string symbol = ("__nv_" + name + (isDouble ? "" : "f")).str();
  Operation *module = SymbolTable::getNearestSymbolTable(op);
  auto callee = dyn_cast_or_null<LLVM::LLVMFuncOp>(
      SymbolTable::lookupSymbolIn(module, symbol));
  if (!callee) {
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(&module->getRegion(0).front());
    SmallVector<Type> params(args.size(), callType);
    callee = LLVM::LLVMFuncOp::create(
        rewriter, loc, symbol, LLVM::LLVMFunctionType::get(callType, params));
  }
  SmallVector<Value> operands;
  for (Value arg : args)
    operands.push_back(arg.getType() == callType
                           ? arg
                           : arith::ExtFOp::create(rewriter, loc, callType, arg)
                                 .getResult());
  Value result = LLVM::CallOp::create(rewriter, loc, callee, operands)
                     .getResult();
  if (type != callType)
    result = arith::TruncFOp::create(rewriter, loc, type, result);
  return result;
}

// math.trunc ⇒ llvm.intr.trunc (cvt.rzi), ctlz ⇒ llvm.intr.ctlz (clz; 0 has
// all bits leading), ctpop ⇒ llvm.intr.ctpop (popc): convert-gpu-to-nvvm
// lowers none of them.
struct ExactTrunc : public OpRewritePattern<math::TruncOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(math::TruncOp op,
                                PatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<LLVM::FTruncOp>(op, op.getType(),
                                                op.getOperand(),
                                                LLVM::FastmathFlagsAttr());
    return success();
  }
};

struct ExactCountLeadingZeros : public OpRewritePattern<math::CountLeadingZerosOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(math::CountLeadingZerosOp op,
                                PatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<LLVM::CountLeadingZerosOp>(
        op, op.getType(), op.getOperand(), rewriter.getBoolAttr(false));
    return success();
  }
};

struct ExactPopCount : public OpRewritePattern<math::CtPopOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(math::CtPopOp op,
                                PatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<LLVM::CtPopOp>(op, op.getType(),
                                               op.getOperand());
    return success();
  }
};

// math.sqrt (f32, f16, bf16) ⇒ sqrt.rn.f32, correctly rounded as CUDA's
// sqrtf without fast math (f16/bf16 through f32: still correctly rounded, as
// 24 ≥ 2·11 + 2 bits). The NVVM intrinsic, since convert-gpu-to-nvvm refuses
// llvm.intr.sqrt. f64 keeps libdevice's __nv_sqrt (sqrt.rn.f64).
struct CorrectlyRoundedSqrt : public OpRewritePattern<math::SqrtOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(math::SqrtOp op,
                                PatternRewriter &rewriter) const override {
    Type type = op.getType();
    if (type.isF64())
      return rewriter.notifyMatchFailure(op, "f64 is libdevice's sqrt.rn");
    if (isHypot(op))
      return rewriter.notifyMatchFailure(op, "hypot first");
    Location loc = op.getLoc();
    Value input = op.getOperand();
    if (!type.isF32())
      input = arith::ExtFOp::create(rewriter, loc, rewriter.getF32Type(), input);
    Value result = callIntrinsic(rewriter, loc, "llvm.nvvm.sqrt.rn.f", input);
    if (!type.isF32())
      result = arith::TruncFOp::create(rewriter, loc, type, result);
    rewriter.replaceOp(op, result);
    return success();
  }
};

// The marked sqrt(x·x + y·y) of T.hypot(x, y) ⇒ libdevice's hypot(x, y). A
// marked sqrt of another shape loses its mark and stays a square root.
struct LibdeviceHypot : public OpRewritePattern<math::SqrtOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(math::SqrtOp op,
                                PatternRewriter &rewriter) const override {
    if (!isHypot(op))
      return failure();
    auto square = [](Value value) -> Value {
      auto mul = value.getDefiningOp<arith::MulFOp>();
      return mul && mul.getLhs() == mul.getRhs() ? mul.getLhs() : Value();
    };
    auto sum = op.getOperand().getDefiningOp<arith::AddFOp>();
    Value x = sum ? square(sum.getLhs()) : Value();
    Value y = sum ? square(sum.getRhs()) : Value();
    if (!x || !y) {
      rewriter.modifyOpInPlace(op, [&] { op->removeAttr(kMathAttr); });
      return success();
    }
    rewriter.replaceOp(op, callLibdevice(rewriter, op, "hypot", {x, y}));
    return success();
  }
};

// math.powf(10, x) ⇒ libdevice's exp10(x) (T.exp10; at most 2 ulp in f32
// where powf allows more, so also for a pow written with the base 10).
struct LibdeviceExp10 : public OpRewritePattern<math::PowFOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(math::PowFOp op,
                                PatternRewriter &rewriter) const override {
    if (!isTen(op.getLhs()))
      return failure();
    rewriter.replaceOp(op,
                       callLibdevice(rewriter, op, "exp10", {op.getRhs()}));
    return success();
  }
};

struct PreciseMathPass
    : public tirx::impl::TirXPreciseMathBase<PreciseMathPass> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    RewritePatternSet patterns(context);
    patterns.add<ExactTrunc, ExactCountLeadingZeros, ExactPopCount,
                 CorrectlyRoundedSqrt, LibdeviceHypot, LibdeviceExp10>(context);
    // Only the ops the patterns match (and what they create) go on the
    // worklist: the greedy driver over a whole kernel (the Hopper GEMM's
    // tens of thousands of ops, none of them math) cost 70 ms for nothing.
    llvm::SmallDenseSet<OperationName> roots;
    for (const std::unique_ptr<RewritePattern> &pattern :
         patterns.getNativePatterns())
      if (std::optional<OperationName> root = pattern->getRootKind())
        roots.insert(*root);
    SmallVector<Operation *> mathOps;
    getOperation()->walk([&](Operation *op) {
      if (roots.contains(op->getName()))
        mathOps.push_back(op);
    });
    if (mathOps.empty())
      return;
    GreedyRewriteConfig config;
    config.setStrictness(GreedyRewriteStrictness::ExistingAndNewOps);
    if (failed(applyOpPatternsGreedily(mathOps, std::move(patterns), config)))
      return signalPassFailure();
  }
};
} // namespace
