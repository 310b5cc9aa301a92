// tcpi_host_fuzz.cpp — libFuzzer target: tcpi on arbitrary text (check, then run `fn main` and the tests) under small step and memory budgets.
//
// Host code runs with --max-steps 20000 and 64 MiB of memory above what the process holds
// (FuzzHostLimits.h), so a program that loops or allocates stops with a runtime error; anything else than success or diagnostics is a defect.
#include "FuzzBudget.h"
#include "FuzzWatchdog.h"
#include "FuzzHostLimits.h"
#include "Session.h"

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/raw_ostream.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <unistd.h>

namespace {
// tcpi reads its program from a file: one per fuzzing process, rewritten for every input.
const std::string &scratchPath() {
  static const std::string path = "/tmp/tcpi_host_fuzz_" + std::to_string(getpid()) + ".tcp";
  return path;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  tcp::fuzz::InputWatch watch;  // TCP_FUZZ_STACKS_AFTER (FuzzWatchdog.h)
  std::string text(reinterpret_cast<const char *>(data), size);
  if (!tcp::fuzz::textWithinBudget(text)) return 0;
  tcp::fuzz::setHostLimits();
  {
    std::FILE *f = std::fopen(scratchPath().c_str(), "wb");
    if (!f) return 0;
    std::fwrite(data, 1, size, f);
    std::fclose(f);
  }
  std::string out, err;
  llvm::raw_string_ostream outs(out), errs(err);
  tcp::interp::Session session(outs, errs);
  if (session.loadFile(scratchPath())) {
    session.runMain();
    session.runTests();
  }
  return 0;
}
