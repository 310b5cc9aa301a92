// repl_test.cpp — the REPL's input handling: completion, the bracket scanner, the per-input error
// limit, and sessions whose cost grows with what is entered (not with its square).
#include "Session.h"

#include <gtest/gtest.h>

#include <chrono>
#include <sstream>

namespace {

using tcp::interp::InputScanner;
using tcp::interp::Session;

struct Repl {
  std::string out, err;
  llvm::raw_string_ostream os{out}, es{err};
  Session session{os, es};
  int run(const std::string &script) {
    std::istringstream in(script);
    int status = tcp::interp::runRepl(in, /*interactive=*/false, session);
    os.flush();
    es.flush();
    return status;
  }
};

std::vector<std::string> complete(Session &s, const std::string &line, size_t *start = nullptr) {
  size_t at = 0;
  auto words = s.completions(line, line.size(), &at);
  if (start) *start = at;
  return words;
}

TEST(ReplCompletion, CommandsAxesAliasesAndKernels) {
  Repl r;
  ASSERT_EQ(r.run("axes![Alpha = 8, Beta = 4];\ntype AlphaBeta = m![Alpha, Beta];\n"), 0) << r.err;
  EXPECT_EQ(complete(r.session, ":ty"), std::vector<std::string>{":type"});
  EXPECT_EQ(complete(r.session, ":c"), (std::vector<std::string>{":config", ":cycles"}));
  size_t start = 0;
  EXPECT_EQ(complete(r.session, "let x = Al", &start), (std::vector<std::string>{"Alpha", "AlphaBeta"}));
  EXPECT_EQ(start, 8u);
  EXPECT_EQ(complete(r.session, ":type Be"), std::vector<std::string>{"Beta"});
  EXPECT_EQ(complete(r.session, "m![Alpha, B"), std::vector<std::string>{"Beta"});
  EXPECT_TRUE(complete(r.session, ":config ").empty());  // no checked kernel yet
  EXPECT_TRUE(complete(r.session, "Gamma").empty());
}

TEST(ReplScanner, FedLineByLine) {
  InputScanner s;
  s.feed("fn f() {  // a { in a comment");
  EXPECT_FALSE(s.complete());
  s.feed("  let s = \"}\"; /* } */");
  EXPECT_FALSE(s.complete());
  s.feed("}");
  EXPECT_TRUE(s.complete());
  s.reset();
  s.feed("let s = \"open");
  EXPECT_FALSE(s.complete());
  s.feed("string\";");
  EXPECT_TRUE(s.complete());
}

// The error limit (50) applies to each input: a later input's errors are still reported.
TEST(ReplErrors, LimitAppliesPerInput) {
  std::string many = "fn f() {";
  for (int k = 0; k < 60; ++k) many += " n" + std::to_string(k) + ";";
  many += " }\n";
  Repl r;
  EXPECT_EQ(r.run(many + "after_the_limit\n" + many), 1);
  EXPECT_NE(r.err.find("unknown name `n49`"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("unknown name `n50`"), std::string::npos);
  EXPECT_NE(r.err.find("<stdin>:2:1: error: unknown name `after_the_limit`"), std::string::npos) << r.err;
  size_t notes = 0;
  for (size_t at = 0; (at = r.err.find("too many errors emitted", at)) != std::string::npos; ++at) ++notes;
  EXPECT_EQ(notes, 2u);
  EXPECT_NE(r.err.find("<stdin>:3:"), std::string::npos);  // the third input's errors, numbered by its line
}

// Each input is kept once, as typed: no input is padded to its line number or parsed again, so a
// session's source grows with the bytes entered. 10,000 lines take well under a second (they took
// 20 s when each input was padded with newlines to its line number, `benchmarks/repl_bench.cpp`
// measures 40,000 against 10,000); the bound is generous and only catches the quadratic behaviour.
TEST(ReplScaling, SourceAndTimeGrowWithTheLinesEntered) {
  std::string script = "axes![A = 8, B = 512];\n";
  for (int k = 0; k < 10000; ++k)
    script += k % 2 ? "let x" + std::to_string(k) + " = " + std::to_string(k) + ";\n" : "type T" + std::to_string(k) + " = m![A, B];\n";
  script += "x9999 + unknown_name\n";
  Repl r;
  auto begin = std::chrono::steady_clock::now();
  EXPECT_EQ(r.run(script), 1);
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  EXPECT_NE(r.err.find("<stdin>:10002:9: error: unknown name `unknown_name`"), std::string::npos) << r.err;
  EXPECT_EQ(r.session.sourceBytes(), script.size());
  EXPECT_LT(seconds, 10.0);
}

}  // namespace
