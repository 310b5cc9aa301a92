// prediction_history_test.cpp — a parse's diagnostics and time do not depend on what the process parsed before (SyntaxErrors.h, PredictionTables).
#include "Diagnostics.h"
#include "Parser.h"

#include <gtest/gtest.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <chrono>
#include <vector>
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

// The caches are emptied beyond their limit, and parses give the same diagnostics either way. With
// the limit at 0 every parse starts from empty tables, so what it leaves there is its own alone.
TEST(PredictionHistory, CachesStayBoundedAndParsesAgree) {
  const std::vector<std::string> texts = {
      "axes![M{{{{{{{{{{{{{{{\n",
      "async fn main() {\n    let out = launch(k, (&mut ctx, &oneho" + std::string(20, '{') + "t)).await;\n",
      "axes![A = 8];\nfn f() { let x = ; }\n",
      "axes![A = 8, B = 4];\ntype T = m![A / 2, B];\nfn main() { let t = HostTensor::<f32, T>::zeros(); }\n",
      "fn main() { let v = foo(1, 2; }\n"};
  std::vector<std::string> expected;
  for (const std::string &t : texts) expected.push_back(diagnosticsOf(t));
  size_t accumulated = predictionCacheStates();
  setPredictionCacheLimit(0);
  std::vector<size_t> alone;
  for (size_t i = 0; i < texts.size(); ++i) {
    EXPECT_EQ(diagnosticsOf(texts[i]), expected[i]) << texts[i];
    alone.push_back(predictionCacheStates());
    EXPECT_GT(alone.back(), 0u);
  }
  for (size_t i = 0; i < texts.size(); ++i) {
    EXPECT_EQ(diagnosticsOf(texts[i]), expected[i]) << texts[i];
    EXPECT_EQ(predictionCacheStates(), alone[i]) << texts[i];
  }
  setPredictionCacheLimit(kMaxPredictionStates);
  EXPECT_GT(accumulated, *std::max_element(alone.begin(), alone.end()));
}

}  // namespace
}  // namespace tcp
