// repl_fuzz.cpp — libFuzzer target: the REPL's line handling (pending input, brackets, `:` commands, per-input errors) on arbitrary lines.
//
// The input is a piped session: lines are gathered until their brackets balance, then checked and run
// (host code under small step and memory budgets); `:quit` ends it early. No crash, sanitizer report or hang.
#include "HostLimits.h"
#include "Session.h"

#include <llvm/Support/raw_ostream.h>

#include <cstdint>
#include <sstream>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  tcp::interp::HostLimits::get() = {20000, uint64_t(256) << 20};
  std::istringstream in(std::string(reinterpret_cast<const char *>(data), size));
  std::string out, err;
  llvm::raw_string_ostream outs(out), errs(err);
  tcp::interp::Session session(outs, errs);
  tcp::interp::runRepl(in, /*interactive=*/false, session);
  return 0;
}
