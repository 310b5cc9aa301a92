// fast_prediction_test.cpp — FastPrediction answers no decision differently from ANTLR: every tracked source parses to the same AST and diagnostics with and without it.
#include "AstPrinter.h"
#include "Diagnostics.h"
#include "Parser.h"

#include <gtest/gtest.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/raw_ostream.h>

#include <string>
#include <vector>

namespace tcp {
namespace {

// The AST dump (skipped above `astBytes`: the printer's line lookups are slow on megabyte lines) and the
// diagnostics of one parse of `text` as a program, or as REPL input.
std::string parseDump(const std::string &text, bool repl, bool fast, size_t astBytes = 256 << 10) {
  setFastPrediction(fast);
  llvm::SourceMgr sm;
  unsigned id = sm.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBufferCopy(text, "input.tcp"), llvm::SMLoc());
  std::string out;
  llvm::raw_string_ostream os(out);
  Diagnostics diags(sm, os);
  if (repl) {
    std::vector<ast::StmtP> stmts = parseReplInput(sm, id, diags);
    os << "statements: " << stmts.size() << "\n";
    if (text.size() <= astBytes)
      for (const ast::StmtP &s : stmts) printStmt(*s, sm, os);
  } else {
    std::unique_ptr<ast::Program> program = parseProgram(sm, id, diags);
    if (program && text.size() <= astBytes) printAst(*program, sm, os);
  }
  setFastPrediction(true);
  return out;
}

std::vector<std::string> trackedSources() {
  std::vector<std::string> files;
  for (const char *dir : {"samples", "stdlib", "tests/golden", "tests/conformance/manual", "benchmarks/kernels"}) {
    std::error_code ec;
    for (llvm::sys::fs::recursive_directory_iterator it(std::string(TCP_SOURCE_DIR) + "/" + dir, ec), end;
         it != end && !ec; it.increment(ec)) {
      llvm::StringRef path = it->path();
      if (path.endswith(".tcp") || path.endswith(".repl")) files.push_back(path.str());
    }
  }
  return files;
}

TEST(FastPrediction, EveryTrackedSourceParsesAsWithAntlrAlone) {
  std::vector<std::string> files = trackedSources();
  ASSERT_GT(files.size(), 600u);
  size_t compared = 0;
  for (const std::string &file : files) {
    auto buffer = llvm::MemoryBuffer::getFile(file);
    ASSERT_TRUE(bool(buffer)) << file;
    std::string text = (*buffer)->getBuffer().str();
    bool repl = llvm::StringRef(file).endswith(".repl");
    EXPECT_EQ(parseDump(text, repl, true), parseDump(text, repl, false)) << file;
    ++compared;
  }
  EXPECT_EQ(compared, files.size());
}

// Inputs built to stress the token scans: statements without `;`, tails, paths, macros, struct
// literals where they are and are not allowed, truncated and unbalanced text.
TEST(FastPrediction, ScannedDecisionsMatchAntlrOnEdgeCases) {
  const char *cases[] = {
      "fn f() { let x = 1; x }",
      "fn f() { if a { 1 } else { 2 } - 1 }",
      "fn f() { { 1 } - 1 }",
      "fn f() { match x { A => 1, B => { 2 } - 3 } }",
      "fn f() { loop {} (1) }",
      "fn f() { a::b::<i32>::c(1); a::b(2) }",
      "fn f() { S { a: 1 }; if S { a: 1 } {} }",
      "fn f() { while x { y } z }",
      "fn f() { vec![1, 2, 3]; println!(\"{}\", x) }",
      "fn f() { x.y(1).z; x.y .z(2) }",
      "fn f() { let a = b < c; let d = e::<f>(g); }",
      "fn f() { a = b + c * d - -e; }",
      "fn f() { ::a::b(); }",
      "fn f() { if a { b } else if c { d } e }",
      "fn f() { a +",
      "fn f() { (a, b); [c; 4]; &mut d; *e }",
      "fn f() { |x| x + 1; move || 2 }",
      "fn f() { for i in 0..4 {} i }",
      "fn f() { let x = if a { 1 } else { 2 }; }",
      "#[device(chip = 1)] fn k(ctx: &mut Context) {}",
  };
  for (const char *c : cases) {
    EXPECT_EQ(parseDump(c, false, true), parseDump(c, false, false)) << c;
    EXPECT_EQ(parseDump(c, true, true), parseDump(c, true, false)) << c;
  }
}

}  // namespace
}  // namespace tcp
