//===- Mbarrier.cpp - The mbarrier family module --------------------------===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//
//
// mbarrier (docs/hopper.md). Declares the operand kinds `arrivals` (an
// arrival count), `txcount` (a transaction count), `parity` (a phase
// parity) and `rank` (a CTA of the kernel's cluster, whose barrier a remote
// arrive names). To the race proof, initializations write a barrier,
// arrivals and the retry loop of try_wait.parity order threads by phase.
//
//===----------------------------------------------------------------------===//

#include "Modules.h"

using namespace mlir::tirx::ptx;

/// PTX ISA 9.7.13.15.1: both counts are 20-bit; arrivals are positive.
static constexpr int64_t kMaxCount = (int64_t(1) << 20) - 1;

static std::optional<std::string> checkCount(const OperandValue &value,
                                             bool arrivals) {
  if (!value.immediate)
    return std::nullopt;
  int64_t low = arrivals ? 1 : 0;
  if (*value.immediate < low || *value.immediate > kMaxCount)
    return families::formatMessage(
        arrivals ? "an mbarrier arrival count" : "a transaction count", " is ",
        low, " to ", kMaxCount, " (2^20-1), got ", *value.immediate);
  return std::nullopt;
}

static std::optional<std::string> checkArrivals(const OperandValue &value) {
  return checkCount(value, /*arrivals=*/true);
}

static std::optional<std::string> checkTxCount(const OperandValue &value) {
  return checkCount(value, /*arrivals=*/false);
}

static std::optional<std::string> checkParity(const OperandValue &value) {
  if (value.immediate && *value.immediate != 0 && *value.immediate != 1)
    return families::formatMessage(
        "a phase parity is 0 (even phases) or 1 (odd), got ", *value.immediate);
  return std::nullopt;
}

static std::optional<std::string> checkClusterRank(const OperandValue &value) {
  // Checked in the kernel (tile.apply is verified again in the gpu.func the
  // kernel becomes, without its launch).
  if (!value.inKernel)
    return std::nullopt;
  if (!value.clusterCTAs)
    return std::string(
        "names a CTA of the cluster, but the kernel is not launched in "
        "clusters: add cluster = [...] to its launch (LaunchConfig(cluster=) "
        "in Python)");
  if (value.immediate &&
      (*value.immediate < 0 || *value.immediate >= *value.clusterCTAs))
    return families::formatMessage("CTA rank ", *value.immediate,
                                   " is not in the kernel's cluster of ",
                                   *value.clusterCTAs, " CTAs");
  return std::nullopt;
}

static MbarrierEvent getMbarrierEvent(const Instruction &instruction) {
  llvm::StringRef form = instruction.formName;
  if (form == "mbarrier.init" || form == "mbarrier.inval")
    return MbarrierEvent::Init;
  if (form == "mbarrier.try_wait.parity.loop")
    return MbarrierEvent::Wait;
  if (form.starts_with("mbarrier.arrive"))
    return MbarrierEvent::Arrive;
  return MbarrierEvent::None;
}

/// Arrivals, waits and transaction counts update or read the barrier
/// atomically; an initialization writes it.
static bool isAtomicAccess(const Instruction &instruction) {
  return getMbarrierEvent(instruction) != MbarrierEvent::Init;
}

static llvm::StringRef getRaceProofGap(const Instruction &instruction) {
  // One try whose retry loop is the kernel's own: the proof does not follow
  // a loop on a predicate to the phase it waits for.
  if (instruction.formName == "mbarrier.test_wait.parity" ||
      instruction.formName == "mbarrier.try_wait.parity")
    return "a single test of a phase, whose retry loop the race proof does "
           "not follow (the retry form, `mbarrier.try_wait.parity` without "
           "a predicate, is modeled)";
  return {};
}

const FamilyModule &families::mbarrierModule() {
  static const OperandKind kinds[] = {{"arrivals", checkArrivals},
                                      {"txcount", checkTxCount},
                                      {"parity", checkParity},
                                      {"rank", checkClusterRank}};
  static const FamilyModule module = [] {
    FamilyModule mbarrier{/*name=*/"mbarrier", kinds};
    mbarrier.getRaceProofGap = ::getRaceProofGap;
    mbarrier.getMbarrierEvent = ::getMbarrierEvent;
    mbarrier.isAtomicAccess = ::isAtomicAccess;
    return mbarrier;
  }();
  return module;
}
