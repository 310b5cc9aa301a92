// parse_diff_fuzz.cpp — libFuzzer target: the parser with FastPrediction and with ANTLR's prediction alone give the same AST and diagnostics on arbitrary text.
//
// FastPrediction (compiler/syntax/FastPrediction.h) answers the first parse's decisions from tokens and
// bracket scans; a wrong answer must only ever end in the full-LL re-parse, never in another tree.
// Each input is parsed as a program and as REPL input both ways; any difference aborts.
#include "FuzzWatchdog.h"
#include "AstPrinter.h"
#include "Diagnostics.h"
#include "Parser.h"

#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/raw_ostream.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace {
std::string parseDump(const std::string &text, bool repl, bool fast) {
  tcp::setFastPrediction(fast);
  llvm::SourceMgr sm;
  unsigned id = sm.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBufferCopy(text, "fuzz.tcp"), llvm::SMLoc());
  std::string out;
  llvm::raw_string_ostream os(out);
  tcp::Diagnostics diags(sm, os);
  if (repl) {
    for (const tcp::ast::StmtP &s : tcp::parseReplInput(sm, id, diags)) tcp::printStmt(*s, sm, os);
  } else if (auto program = tcp::parseProgram(sm, id, diags)) {
    tcp::printAst(*program, sm, os);
  }
  return out;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  tcp::fuzz::InputWatch watch;  // TCP_FUZZ_STACKS_AFTER (FuzzWatchdog.h)
  std::string text(reinterpret_cast<const char *>(data), size);
  for (bool repl : {false, true}) {
    std::string fast = parseDump(text, repl, true), antlr = parseDump(text, repl, false);
    if (fast != antlr) {
      std::fprintf(stderr, "FastPrediction and ANTLR differ (%s):\n--- with FastPrediction\n%s\n--- ANTLR alone\n%s\n",
                   repl ? "REPL input" : "program", fast.c_str(), antlr.c_str());
      std::abort();
    }
  }
  return 0;
}
