// prediction_budget_test.cpp — past the full-context budget every parse still ends, in a diagnostic of the input (SyntaxErrors.h, ModePrediction).
#include "Diagnostics.h"
#include "Parser.h"

#include <gtest/gtest.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/raw_ostream.h>

#include <cctype>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace tcp {
namespace {

std::string diagnosticsOf(const std::string &text, bool repl = false) {
  llvm::SourceMgr sm;
  unsigned id = sm.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBufferCopy(text, "input.tcp"), llvm::SMLoc());
  std::string out;
  llvm::raw_string_ostream os(out);
  Diagnostics diags(sm, os);
  if (repl) parseReplInput(sm, id, diags);
  else parseProgram(sm, id, diags);
  return out;
}

double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Every tracked source with syntax errors that keep its brackets balanced (so that its error parse
// predicts with full context): identifiers split by a space and one separator dropped, at positions
// drawn from a fixed seed.
std::vector<std::string> garbledSources() {
  std::vector<std::string> texts;
  std::mt19937 rng(16);
  namespace fs = std::filesystem;
  for (const char *dir : {"tests/golden", "tests/conformance/manual", "samples", "stdlib"}) {
    for (const auto &entry : fs::recursive_directory_iterator(fs::path(TCP_SOURCE_DIR) / dir)) {
      if (!entry.is_regular_file() || entry.path().extension() != ".tcp") continue;
      std::ifstream in(entry.path());
      std::stringstream read;
      read << in.rdbuf();
      std::string text = read.str();
      if (text.size() < 64 || text.size() > (32u << 10)) continue;
      for (int split = 0; split < 3; ++split) {
        size_t at = rng() % text.size();
        while (at < text.size() && !(std::isalnum(static_cast<unsigned char>(text[at])) && at > 0 &&
                                     std::isalnum(static_cast<unsigned char>(text[at - 1]))))
          ++at;
        if (at < text.size()) text.insert(at, " ");
      }
      size_t sep = text.find_first_of(",;", rng() % text.size());
      if (sep != std::string::npos) text.erase(sep, 1);
      texts.push_back(text);
    }
  }
  return texts;
}

// Found by tcpc_check_fuzz: with the budget spent, a decision of the left-recursive `expr` loop
// answered "no alternative" (a state with precedence predicates has no SLL prediction of its own)
// while the loop's own decision said "go on", and the parse spun forever at one token. With the
// budget at 0 every full-context decision takes the SLL answer: no parse may stall or fail inside.
TEST(PredictionBudget, ASpentBudgetNeverStallsAParse) {
  std::vector<std::string> texts = garbledSources();
  ASSERT_GT(texts.size(), 300u);
  texts.push_back("fn f() { let x = a b * c; foo(1 2) + g(;); let y = x.f(3 4).h[1 2] * -; }\n");
  texts.push_back("fn f() { x(1 2 .. 3 as u32 + [a b] * c.d(e f)); m![A / 8 B % 2]; }\n");
  setFullContextBudget(0);
  for (const std::string &t : texts) {
    std::string program = diagnosticsOf(t), repl = diagnosticsOf(t, true);
    EXPECT_EQ(program.find("internal parser error"), std::string::npos) << t << program;
    EXPECT_EQ(repl.find("internal parser error"), std::string::npos) << t << repl;
  }
  setFullContextBudget(kMaxFullContextSteps);
}

// The fuzzer's input, minimized: after unbalanced garbled chains the continuation re-parse of a call
// predicted with full context (the error parse itself uses SLL on unbalanced input) and spent the
// budget; it then spun as above. Re-parses now share the error parse's mode.
TEST(PredictionBudget, UnbalancedGarbleEndsQuickly) {
  const std::string chain =
      "        .vector_intra_slice_branch(BranchMode::t()` at line 32) wrote DM [128, 384) of each slice, over "
      "its DM [0,xt::acquire();\n";
  std::string list;
  for (int k = 0; k < 90; ++k) list += (k ? ", " : "") + std::to_string(k);
  const std::string text =
      "fn other_constructs(ctx: &mut Context, input: &HbmTensor<i32, m![1], m![A]>) -> HbmTensor<i32, m![1], m![A]> {\n" +
      chain + chain + "    let x: HostTensor<i8, m![B]> = HostTensor::from_vec(vec![" + list + "]);\n" +
      "    let xh = x.to_hbm(&mut ctx.et dm: DmTensor<i32, m![1], Cluster, Slice, m![A % 8]> = "
      "input.to_dm(&mut ctx.tdma, address + BASE);\n";
  auto start = std::chrono::steady_clock::now();
  std::string out = diagnosticsOf(text);
  EXPECT_LT(secondsSince(start), 20.0);  // a hang-sized bound: it never ended; now 0.03 s (Release)
  EXPECT_NE(out.find("unexpected character '`'"), std::string::npos) << out;
  EXPECT_EQ(out.find("internal parser error"), std::string::npos) << out;
}

}  // namespace
}  // namespace tcp
