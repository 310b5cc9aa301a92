// LL1Table.h — which alternative of each parser decision the next token alone selects, computed from the ATN.
#pragma once

#include <antlr4-runtime.h>

#include <cstdint>
#include <vector>

namespace tcp {

// Per decision and token type: the only alternative that can start with that token, computed once
// per process from the ATN the way ANTLR's SLL prediction sees it (predicates are not evaluated; at
// the end of the decision's rule every place that rule is invoked may follow). Such a token makes
// SLL prediction return that alternative or fail on a predicate; the parser then takes the
// alternative and the generated code checks the predicate itself, so a parse that succeeds is the
// same parse. In a fresh process this skips ANTLR's construction of the prediction DFA for these
// decisions, which dominates the time of a first parse (FastPrediction.h).
class LL1Table {
 public:
  // Tokens each alternative of a decision can start with inside its own rule (no follow set).
  static std::vector<std::vector<bool>> localFirst(const antlr4::atn::ATN &atn, size_t decision);
  static const LL1Table &of(const antlr4::atn::ATN &atn);
  // The alternative `token` selects at `decision`, or 0 when it takes more than one token to tell.
  size_t alt(size_t decision, size_t token) const {
    if (token >= width_) return 0;  // EOF and out-of-range types: ask ANTLR
    return alts_[decision * width_ + token];
  }

 private:
  explicit LL1Table(const antlr4::atn::ATN &atn);
  size_t width_;
  std::vector<uint16_t> alts_;
};

}  // namespace tcp
