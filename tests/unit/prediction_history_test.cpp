// prediction_history_test.cpp — a parse's diagnostics and time do not depend on what the process parsed before (SyntaxErrors.h, PredictionTables).
#include "Diagnostics.h"
#include "Parser.h"

#include <gtest/gtest.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/raw_ostream.h>

#include <chrono>
#include <string>

namespace tcp {
namespace {

// Diagnostics of one parse of `text` as a program.
std::string diagnosticsOf(const std::string &text) {
  llvm::SourceMgr sm;
  unsigned id = sm.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBufferCopy(text, "input.tcp"), llvm::SMLoc());
  std::string out;
  llvm::raw_string_ostream os(out);
  Diagnostics diags(sm, os);
  parseProgram(sm, id, diags);
  return out;
}

double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Found by tcpc_check_fuzz (minimized from a 6 KB input after 3,000 others): the SLL error parse of
// unclosed braces left DFA states marked "needs full context" in the parser's shared DFA, and the
// full-LL re-parse of a call argument in the next input then ran full-context prediction over a
// hundred nested braces: 0.13 s in a fresh process, minutes after the primer.
TEST(PredictionHistory, UnclosedBracesDoNotSlowTheNextInput) {
  const std::string primer = "axes![M{{{{{{{{{{{{{{{\n";
  const std::string victim = "async fn main() {\n    let out = launch(k, (&mut ctx, &a_hbm, &oneho" + std::string(100, '{') +
                             "t_hbm)).await;\n";
  std::string fresh = diagnosticsOf(victim);
  EXPECT_NE(diagnosticsOf(primer), "");
  auto start = std::chrono::steady_clock::now();
  std::string after = diagnosticsOf(victim);
  double seconds = secondsSince(start);
  EXPECT_EQ(after, fresh);
  // A hang-sized bound (the defect took minutes; the parse takes well under a second, sanitizers included).
  EXPECT_LT(seconds, 20.0);
}

}  // namespace
}  // namespace tcp
