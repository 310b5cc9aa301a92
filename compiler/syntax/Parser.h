// Parser.h — the public parser API: .tcp source buffers to AST, REPL input to statements, token dumps.
#pragma once

#include "Ast.h"
#include "Diagnostics.h"

#include <llvm/Support/SourceMgr.h>
#include <llvm/Support/raw_ostream.h>

#include <memory>
#include <vector>

namespace tcp {

// Parses a whole file (buffer registered in sm). Reports every syntax error through diags (never
// throws). Returns a Program even when errors occurred; it then holds what could be built.
std::unique_ptr<ast::Program> parseProgram(llvm::SourceMgr &sm, unsigned bufferId, Diagnostics &diags);

// Parses REPL input: any sequence of items and statements, plus an optional trailing expression
// (an ExprS with semi == false). Items become Stmt::ItemS.
std::vector<ast::StmtP> parseReplInput(llvm::SourceMgr &sm, unsigned bufferId, Diagnostics &diags);

// The first (SLL) parse answers what it can with FastPrediction (FastPrediction.h) before ANTLR's own
// prediction; off, every decision is ANTLR's. The trees and diagnostics must be the same either way
// (tests/unit/fast_prediction_test.cpp and tests/fuzz/parse_diff_fuzz.cpp compare them). Process-wide.
void setFastPrediction(bool on);

// DFA states in ANTLR's process-wide prediction caches now (PredictionCache.h); for tests and
// measurements, while no parse runs. Beyond the limit (kMaxPredictionStates) the next parse empties them.
size_t predictionCacheStates();
void setPredictionCacheLimit(size_t states);

// Full-context prediction steps one parse may take (kMaxFullContextSteps, below); past them a
// decision takes SLL's answer. Process-wide; for tests (0: every full-context decision takes it).
void setFullContextBudget(size_t steps);

// --emit=tokens: one token per line, "line:col KIND 'text'", ending with the EOF token.
void dumpTokens(llvm::SourceMgr &sm, unsigned bufferId, llvm::raw_ostream &os);

// Limits that keep hostile input from exhausting the stack.
// Nested (), [], {}, m![...]: ANTLR's prediction over a deep run of open brackets followed by
// garbled code costs time polynomial in the depth (a 2 KB fuzzer input with 194 open `[`/`(` took
// 13 s, 97 took 2.2 s; robustness/fail_deep_brackets_garbled.tcp); the deepest program of the repository
// nests 8.
constexpr size_t kMaxBracketDepth = 64;
constexpr size_t kMaxPrefixRun = 256;      // prefix operators in a row (`- - - …`), each an unbracketed nesting
constexpr size_t kMaxUnclosedBrackets = 16;  // open at end of file: beyond this the file is not parsed
constexpr size_t kMaxMappingDepth = 512;   // levels of an m![...] tree (every mapping walk recurses)
constexpr size_t kMaxParseDepth = 2500;    // parse-tree depth (long operator chains, nested generics)
constexpr size_t kMaxTokens = 1000000;     // about 4 MB of code; parse trees cost ~600 bytes a token
constexpr size_t kMaxParseBytes = 16u << 20;  // larger files are rejected before decoding
constexpr size_t kMaxPredictionStates = 10000;  // ANTLR's prediction caches (about 70 MB) before emptied
// Full-context prediction can walk a long list once per element after garbled code (a 30,000-number
// list took 20.6 s; robustness/fail_full_context_budget.tcp). One parse of a tracked source walks at
// most 2,372 edges. Past the budget a decision takes SLL's answer (SyntaxErrors.h, ModePrediction).
constexpr size_t kMaxFullContextSteps = 200000;

}  // namespace tcp
