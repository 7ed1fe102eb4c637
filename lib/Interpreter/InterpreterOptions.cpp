//===- InterpreterOptions.cpp - The options' text form --------------------===//
//
// Part of the TirX project.
//
// tirx-runner's interpreted launches and the C API's tirxInterpret take the
// interpreter's options as one string; both parse it here.
//
//===----------------------------------------------------------------------===//

#include "TirX/Interpreter/Interpreter.h"

#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::tirx::interp;

FailureOr<InterpreterOptions>
mlir::tirx::interp::parseInterpreterOptions(StringRef text,
                                            std::string &error) {
  InterpreterOptions options;
  SmallVector<StringRef> words;
  text.split(words, ' ', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (StringRef word : words) {
    auto [key, value] = word.split('=');
    int64_t number = 0;
    if (value.getAsInteger(10, number) ||
        !llvm::is_contained({"races", "uninitialized", "block", "trace"},
                            key)) {
      error = ("'" + word +
               "' is not one of races=0|1, uninitialized=0|1, block=N, "
               "trace=0|1")
                  .str();
      return failure();
    }
    if (key == "races")
      options.checkRaces = number != 0;
    else if (key == "uninitialized")
      options.checkUninitialized = number != 0;
    else if (key == "block")
      options.onlyBlock = number;
    else if (number)
      options.trace = &llvm::errs();
  }
  return options;
}
