// tcpi_host_fuzz.cpp — libFuzzer target: tcpi on arbitrary text (check, then run `fn main` and the tests) under small step and memory budgets.
//
// Host code runs with --max-steps 20000 and --max-memory 256M, so a program that loops or allocates
// stops with a runtime error; anything else than success or diagnostics is a defect.
#include "HostLimits.h"
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
  tcp::interp::HostLimits::get() = {20000, uint64_t(256) << 20};
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
