// tcpc_check_fuzz.cpp — libFuzzer target: the whole `tcpc --check` pipeline (every phase through cycles) on arbitrary text.
//
// Every input must end in success or in diagnostics; a crash, a sanitizer report, a hang (libFuzzer's
// -timeout) or a blow-up (-rss_limit_mb) is a defect. Seeds: samples, goldens, listings (seeds.sh --text).
#include "Driver.h"

#include <llvm/Support/raw_ostream.h>

#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string text(reinterpret_cast<const char *>(data), size);
  std::string diagText;
  llvm::raw_string_ostream diags(diagText);
  tcp::Compilation comp(diags);
  bool ok = comp.loadText(text, "fuzz.tcp") && comp.run(tcp::Phase::Cycles, nullptr);
  diags.flush();
  if (!ok && diagText.empty()) std::abort();  // a refusal always says why
  return 0;
}
