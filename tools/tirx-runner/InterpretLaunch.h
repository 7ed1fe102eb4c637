//===- InterpretLaunch.h - tirxInterpretLaunch for JIT-run host code -*- C++
//-*-===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//

#ifndef TIRX_TOOLS_TIRX_RUNNER_INTERPRETLAUNCH_H
#define TIRX_TOOLS_TIRX_RUNNER_INTERPRETLAUNCH_H

#include "TirX-c/TirX.h"

#include <cstdint>

/// Runs kernel `kernel` of the IR text `ir` on the CPU interpreter with
/// `args` (one per kernel parameter); the call that host code lowered by
/// --tirx-interpret-host makes for each tirx.launch (tirx-interpret-launches).
/// `options`: the interpreter's, as tirxInterpret takes them. Returns 0; a
/// launch whose kernel does not verify or whose run reports an error prints
/// the diagnostics and exits the process with status 1.
extern "C" int32_t tirxInterpretLaunch(const char *ir, int64_t irSize,
                                       const char *kernel,
                                       const TirxInterpretArgument *args,
                                       int64_t numArgs, const char *options);

#endif // TIRX_TOOLS_TIRX_RUNNER_INTERPRETLAUNCH_H
