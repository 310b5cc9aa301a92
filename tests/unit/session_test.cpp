// session_test.cpp — tcpi sessions: REPL values in the manual's notation, commands, errors, resolution.
#include "Session.h"

#include <gtest/gtest.h>

#include <sstream>

namespace {

struct ReplRun {
  std::string out, err;
  bool ok = true;
};

// Feeds `script` through the REPL loop exactly as a pipe would.
ReplRun repl(const std::string &script) {
  std::string out, err;
  llvm::raw_string_ostream os(out), es(err);
  ReplRun r;
  {
    tcp::interp::Session session(os, es);
    std::istringstream in(script);
    r.ok = tcp::interp::runRepl(in, /*interactive=*/false, session) == 0;
  }
  r.out = os.str();
  r.err = es.str();
  return r;
}

TEST(Session, IssueQueries) {
  ReplRun r = repl("axes![A = 8, B = 512];\ntype E = m![A, B];\nE::SIZE\nE::map(519)\nE::map(4096)\n:type E\n");
  EXPECT_TRUE(r.ok) << r.err;
  EXPECT_EQ(r.out, "4096\nSome(i![A: 1, B: 7])\nNone\nm![A, B]\n");
}

TEST(Session, TypePrintsNormalForm) {
  ReplRun r = repl("axes![B = 512];\ntype F = m![B / 64, B % 64];\n:type F\n:type m![1, B]\n");
  EXPECT_TRUE(r.ok) << r.err;
  EXPECT_EQ(r.out, "m![B]\nm![B]\n");
}

TEST(Session, DefinitionsPersistAndAliasesCanBeRedefined) {
  ReplRun r = repl("axes![A = 8];\ntype E = m![A];\nlet k = 3;\nE::map(k)\ntype E = m![A / 2];\nE::SIZE\n");
  EXPECT_TRUE(r.ok) << r.err;
  EXPECT_EQ(r.out, "Some(i![A: 3])\n4\n");
}

TEST(Session, MultiLineInputWaitsForBalancedBrackets) {
  ReplRun r = repl("fn twice(x: usize) -> usize {\n  x * 2\n}\ntwice(21)\n");
  EXPECT_TRUE(r.ok) << r.err;
  EXPECT_EQ(r.out, "42\n");
}

TEST(Session, IndexMacroUsesMappingKeys) {
  ReplRun r = repl("axes![B = 512];\ni![B / 64: 2, B % 64: 3]\ni![B: 0]\n");
  EXPECT_TRUE(r.ok) << r.err;
  EXPECT_EQ(r.out, "i![B: 131]\ni![]\n");
}

TEST(Session, ErrorsAreReportedAndSessionContinues) {
  ReplRun r = repl("axes![A = 8];\nm![A / 3]\nA::SIZE\n");
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.err.find("<stdin>:2:4: error: stride 3 does not divide the size 8 of `A`"), std::string::npos) << r.err;
  EXPECT_EQ(r.out, "8\n");
}

TEST(Session, RuntimeErrorNamesTheLocation) {
  ReplRun r = repl("axes![A = 8];\nassert_eq!(A::map(1), None);\n");
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.err.find("<stdin>:2:1: runtime error: assertion `left == right` failed"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("left: Some(i![A: 1])"), std::string::npos) << r.err;
}

TEST(Session, UnknownCommandIsAnError) {
  ReplRun r = repl(":frobnicate\n");
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.err.find("unknown command `:frobnicate`"), std::string::npos);
}

TEST(Session, ArithmeticOverflowIsARuntimeError) {
  ReplRun r = repl("9223372036854775807 + 1\n");
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.err.find("attempt to add with overflow"), std::string::npos) << r.err;
}

TEST(Session, UnboundedRecursionIsCaught) {
  ReplRun r = repl("fn f(x: usize) -> usize { f(x + 1) }\nf(0)\n");
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.err.find("call depth exceeds"), std::string::npos) << r.err;
}

}  // namespace
