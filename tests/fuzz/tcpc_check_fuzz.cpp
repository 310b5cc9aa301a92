// tcpc_check_fuzz.cpp — libFuzzer target: the whole `tcpc --check` pipeline (every phase through cycles) on arbitrary text.
//
// Every input must end in success or in diagnostics; a crash, a sanitizer report, a hang (libFuzzer's
// -timeout) or a blow-up (-rss_limit_mb) is a defect. Seeds: samples, goldens, listings (seeds.sh --text).
// Inputs whose axes span more than TCP_FUZZ_MAX_ELEMENTS stop after name resolution (FuzzBudget.h).
#include "FuzzWatchdog.h"
#include "Driver.h"
#include "FuzzBudget.h"

#include <llvm/Support/raw_ostream.h>

#include <cstdint>
#include <cstdlib>
#include <string>

namespace {
// Runs the phases through `last`; a failure must have said why.
bool runThrough(const std::string &text, tcp::Phase last, bool *within) {
  std::string diagText;
  llvm::raw_string_ostream diags(diagText);
  tcp::Compilation comp(diags);
  bool ok = comp.loadText(text, "fuzz.tcp") && comp.run(last, nullptr);
  diags.flush();
  if (!ok && diagText.empty()) std::abort();  // a refusal always says why
  if (within) *within = ok && tcp::fuzz::withinBudget(comp);
  return ok;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  tcp::fuzz::InputWatch watch;  // TCP_FUZZ_STACKS_AFTER (FuzzWatchdog.h)
  std::string text(reinterpret_cast<const char *>(data), size);
  if (tcp::fuzz::maxElements() == 0) {
    runThrough(text, tcp::Phase::Cycles, nullptr);
    return 0;
  }
  bool within = false;
  if (runThrough(text, tcp::Phase::Resolved, &within) && within) runThrough(text, tcp::Phase::Cycles, nullptr);
  return 0;
}
