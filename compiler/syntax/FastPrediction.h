// FastPrediction.h — the first parse's prediction: an LL(1) table and token scans in front of ANTLR's SLL prediction.
#pragma once

#include "LL1Table.h"

#include <antlr4-runtime.h>

#include <vector>

namespace tcp {

// In a fresh process ANTLR builds its prediction DFA as it parses, and decisions that look far ahead
// (a statement or a tail expression? an expression list or raw macro tokens?) simulate the ATN over
// every token of the lookahead. This simulator answers such decisions first:
//  - a token only one alternative can start with selects it (LL1Table.h);
//  - `stmt*` of a block: a `;` at bracket depth 0 before the block ends means a statement comes;
//  - macro arguments: a bracket opens the expression-list form of that bracket (a repeat `[e; n]` when
//    a `;` is at its depth 0), the raw token-tree form being only the fallback for what does not parse;
//  - `.name(` after an expression: the answer ANTLR gave the first time (a method call);
//  - a statement or the block's tail expression; a block-like statement; `::name` in a path; a path
//    in an expression, by what follows it (`!`: a macro call, `{`: a struct literal where one is
//    allowed, else a path).
// Where two readings of the input both parse, the answer is the earlier alternative, as ANTLR's.
// Each answer is the one SLL prediction gives wherever the parse succeeds; where the answer leads
// into a syntax error the parse bails out as it would have, and the recovering re-parse (which uses
// ANTLR's prediction alone, SyntaxErrors.h) decides and reports. So the tree of a successful parse
// and every diagnostic are those of ANTLR's own prediction.
class FastPrediction : public antlr4::atn::ParserATNSimulator {
 public:
  FastPrediction(antlr4::Parser *p, antlr4::atn::ParserATNSimulator &base);
  size_t adaptivePredict(antlr4::TokenStream *input, size_t decision, antlr4::ParserRuleContext *outer) override;

 private:
  // Index of the bracket that closes the opener at `i` (0: none); built on first use.
  size_t closerOf(antlr4::TokenStream *input, size_t i);
  static bool isPathIdent(size_t tokenType);
  static bool startsPath(size_t tokenType);
  // The index of the first token after the path starting at `i` (`::`? name (`::` name)*, with
  // `::<...>` generic arguments when `generics`), or 0 when it cannot tell.
  size_t pathEnd(antlr4::TokenStream *input, size_t i, bool generics, bool *hadGenerics = nullptr);
  // Whether a `;` comes at bracket depth 0 from token `i` on before a closer or the end of input.
  bool semicolonAhead(antlr4::TokenStream *input, size_t i);

  antlr4::atn::PredictionContextCache cache_;
  const LL1Table &table_;
  std::vector<size_t> closers_;
  bool closersBuilt_ = false;
};

}  // namespace tcp
