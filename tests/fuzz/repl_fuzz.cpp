// repl_fuzz.cpp — libFuzzer target: the REPL's line handling (pending input, brackets, `:` commands, per-input errors) on arbitrary lines.
//
// The input is a piped session: lines are gathered until their brackets balance, then checked and run
// (host code under small step and memory budgets); `:quit` ends it early. No crash, sanitizer report or hang.
#include "FuzzBudget.h"
#include "FuzzWatchdog.h"
#include "FuzzHostLimits.h"
#include "Session.h"

#include <llvm/Support/raw_ostream.h>

#include <cstdint>
#include <sstream>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  tcp::fuzz::InputWatch watch;  // TCP_FUZZ_STACKS_AFTER (FuzzWatchdog.h)
  std::string text(reinterpret_cast<const char *>(data), size);
  if (!tcp::fuzz::sessionWithinBudget(text)) return 0;
  tcp::fuzz::setHostLimits();
  std::istringstream in(text);
  std::string out, err;
  llvm::raw_string_ostream outs(out), errs(err);
  tcp::interp::Session session(outs, errs);
  tcp::interp::runRepl(in, /*interactive=*/false, session);
  return 0;
}
